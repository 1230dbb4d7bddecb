//! A game made ready to store: what its record says about it (players, ratings, date, event, result), how it
//! ended, its moves, and the key of every position it went through. All the work that needs no database is done
//! here, so that a program can do it on threads of its own while the database writes (`waggle db add` does).
//!
//! Owns the reading of a record's tags into the columns of `games`; the writing is `import`'s.

use super::date::normal_date;
use super::key::{digest, position_key};
use crate::record::game::Game;
use crate::rules::position::{GameState, Position};

/// A game ready to be added to a database ([`Importer::add`](super::Importer::add)), made from a replayed game.
#[derive(Clone, Debug, PartialEq)]
pub struct NewGame {
    /// What makes two records the same game: the game type, the moves, the players and the date.
    pub(crate) identity: i64,
    pub(crate) game_type: String,
    pub(crate) white: String,
    pub(crate) black: String,
    pub(crate) white_elo: Option<i64>,
    pub(crate) black_elo: Option<i64>,
    pub(crate) date: Option<String>,
    pub(crate) event: String,
    pub(crate) site: String,
    pub(crate) time_control: String,
    pub(crate) result: Option<GameState>,
    pub(crate) ending: Ending,
    /// The canonical MoveStrings, `;` between them, as a GameString lists them.
    pub(crate) moves: String,
    pub(crate) plies: usize,
    pub(crate) source: String,
    /// The key of the position before each move and after the last: `plies + 1` of them.
    pub(crate) keys: Vec<i64>,
}

/// How a game ended, as the database names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// A Queen (or both) surrounded on the board.
    Surrounded,
    /// A position that came a third time (under the rule that draws it).
    Repetition,
    /// The record's result, which the moves do not reach: a resignation, a clock, an agreement, an adjudication.
    Declared,
    /// No result: the game was not finished.
    Unfinished,
}

impl Ending {
    /// The name in the `ending` column.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Ending::Surrounded => "surrounded",
            Ending::Repetition => "repetition",
            Ending::Declared => "declared",
            Ending::Unfinished => "unfinished",
        }
    }
}

impl NewGame {
    /// `game` (replayed, every move checked) ready to store, with what its record's `tags` say (a `.pgn`'s or a
    /// BoardSpace record's, as [`GameRecord::tags`](crate::record::GameRecord) holds them; none for a GameString or a
    /// games file), `result` the record's result when it gives one (else the moves' own end, if they reach one),
    /// and `source` where it came from (a file and a game's number, for the `source` column).
    pub fn of(game: &Game, tags: &[(String, String)], result: Option<GameState>, source: &str) -> NewGame {
        let tag = |name: &str| {
            tags.iter()
                .find(|(tag, _)| tag.eq_ignore_ascii_case(name))
                .map_or("", |(_, value)| value.trim())
        };
        let elo = |name: &str| tag(name).parse::<i64>().ok().filter(|elo| (0..10_000).contains(elo));
        let position = game.position();
        let reached = position.state();
        let result = result
            .filter(|state| state.is_over())
            .or(Some(reached).filter(|state| state.is_over()));
        let ending = match result {
            None => Ending::Unfinished,
            Some(result) if result == reached && position.repetitions() >= 3 && result == GameState::Draw => {
                Ending::Repetition
            }
            Some(result) if result == reached => Ending::Surrounded,
            Some(_) => Ending::Declared,
        };
        let moves = game
            .record()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(";");
        let game_type = position.game_type().to_string();
        let (white, black) = (tag("White").to_string(), tag("Black").to_string());
        let date = normal_date(tag("Date"));
        let identity = digest(
            [
                game_type.as_str(),
                &moves,
                &white,
                &black,
                date.as_deref().unwrap_or(""),
            ]
            .join("\n")
            .as_bytes(),
        );
        NewGame {
            identity,
            white_elo: elo("WhiteElo"),
            black_elo: elo("BlackElo"),
            event: tag("Event").to_string(),
            site: tag("Site").to_string(),
            time_control: tag("TimeControl").to_string(),
            result,
            ending,
            plies: game.record().len(),
            source: source.to_string(),
            keys: keys_of(position),
            game_type,
            white,
            black,
            date,
            moves,
        }
    }

    /// The game's result, if it has one.
    pub fn result(&self) -> Option<GameState> {
        self.result
    }
}

/// The key of each position `position` went through, from the start to itself.
fn keys_of(position: &Position) -> Vec<i64> {
    let mut replay = Position::with_opening(position.game_type(), position.rules(), position.opening());
    let mut keys = Vec::with_capacity(position.ply() + 1);
    keys.push(position_key(&replay));
    for mv in position.moves() {
        // Every move was checked when the game was replayed.
        replay.play_unchecked(mv);
        keys.push(position_key(&replay));
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Rules;

    fn game(text: &str) -> Game {
        crate::record::replay(text, Rules::default()).unwrap()
    }

    fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn tags_become_columns_and_the_ending_is_named() {
        let played = game("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
        let entry = NewGame::of(
            &played,
            &tags(&[
                ("White", " ann "),
                ("black", "bob"),
                ("Date", "2024.02.10"),
                ("WhiteElo", "1650"),
                ("BlackElo", "?"),
            ]),
            Some(GameState::BlackWins),
            "club.pgn, game 2",
        );
        assert_eq!((entry.white.as_str(), entry.black.as_str()), ("ann", "bob"));
        assert_eq!((entry.white_elo, entry.black_elo), (Some(1650), None));
        assert_eq!(entry.date.as_deref(), Some("2024-02-10"));
        assert_eq!(entry.ending, Ending::Declared);
        assert_eq!(entry.moves, "wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
        assert_eq!(entry.keys.len(), 5);
        assert_eq!(entry.keys[4], position_key(played.position()));

        let unfinished = NewGame::of(&played, &[], None, "");
        assert_eq!((unfinished.result, unfinished.ending), (None, Ending::Unfinished));
        // The same moves between other players, or on another day, are another game.
        assert_ne!(unfinished.identity, entry.identity);
        assert_eq!(
            unfinished.identity,
            NewGame::of(&played, &[], Some(GameState::Draw), "x").identity
        );
    }
}
