//! The database's answers as JSON objects, one form for each kind of answer, so that a game or an explorer's move
//! reads the same in `waggle db … --json` and in the page's `/api/explore`: a game with every column it has and its
//! GameString, a move with the moves that are the same up to the board's symmetries.
//!
//! Owns the objects' fields; writing them out (and adding what a front end knows besides, such as the engine's
//! scores) is the front ends'.

use serde_json::{json, Value};

use super::explore::{Explored, ExploredMove};
use super::list::GameRow;

impl GameRow {
    /// The game as a JSON object: every column (`id`, `game_type`, the players and their ratings, `date`,
    /// `event`, `site`, `time_control`, `result`, `ending`, `plies`, `source`) and `game`, its GameString.
    pub fn to_json(&self) -> Value {
        json!({
            "id": self.id,
            "game_type": self.game_type,
            "white": self.white,
            "black": self.black,
            "white_elo": self.white_elo,
            "black_elo": self.black_elo,
            "date": self.date,
            "event": self.event,
            "site": self.site,
            "time_control": self.time_control,
            "result": self.result,
            "ending": self.ending,
            "plies": self.plies,
            "game": self.game_string(),
            "source": self.source,
        })
    }
}

impl ExploredMove {
    /// The move as a JSON object: `move`, `same` (the moves to the same position up to the board's symmetries),
    /// `games`, and of those `white` (won by White), `draw` and `black`.
    fn to_json(&self) -> Value {
        json!({
            "move": self.mv.to_string(),
            "same": self.same.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "games": self.games,
            "white": self.white,
            "draw": self.draw,
            "black": self.black,
        })
    }
}

impl Explored {
    /// The explorer's answer as a JSON object: `key` (the position's key in the tables), `total`, `moves` (each
    /// with `move`, `same`, the moves to the same position up to the board's symmetries, `games`, and of those
    /// `white`, won by White, `draw` and `black`) and `games` (each as [`GameRow::to_json`], with `ply`, where it
    /// reached the position).
    pub fn to_json(&self) -> Value {
        let games: Vec<Value> = self
            .games
            .iter()
            .map(|(row, ply)| {
                let mut game = row.to_json();
                game["ply"] = json!(ply);
                game
            })
            .collect();
        json!({
            "key": self.key,
            "total": self.total(),
            "moves": self.moves.iter().map(ExploredMove::to_json).collect::<Vec<_>>(),
            "games": games,
        })
    }
}
