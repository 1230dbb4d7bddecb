//! `waggle db explore`: the moves played from a position in the database's games, each with its count and its
//! White / draw / Black split (and with `--engine`, Waggle's score for it), then the latest games that reached the
//! position; `--json` prints one object for scripts.

use std::collections::HashMap;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args as ClapArgs;
use serde_json::json;
use waggle::db::{Database, Explored};
use waggle::review::Score;
use waggle::{Game, GameType, Limits, Options, Rules};

use super::super::engine::{engine_flags, EvalFlags, Flags, TableFlags};
use super::super::input;
use super::super::parse_seconds;
use super::DbPath;

engine_flags! {
    /// The engine flags of `waggle db explore`, for the analysis of `--engine`.
    struct EngineFlags {
        table: TableFlags,
        eval: EvalFlags,
    }
}

#[derive(ClapArgs)]
pub struct Args {
    /// The position: a GameString (a game type alone for its start), or a record file (the position its game
    /// reaches); default the start of Base+MLP.
    #[arg(value_name = "GAME", default_value = "Base+MLP")]
    game: String,
    /// The most games listed that reached the position.
    #[arg(long, value_name = "N", default_value_t = 20)]
    games: usize,
    /// Waggle's score for each move, from an analysis of this many seconds of the position (every move at once).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    engine: Option<Duration>,
    /// Print one JSON object: `position`, `key`, `total`, `moves` (each with `move`, `same`, `games`, `white`,
    /// `draw`, `black`, and with --engine `score` and `win_chance`) and `games` (each with all it has and `ply`).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    db: DbPath,
    #[command(flatten)]
    flags: EngineFlags,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = position(&args.game)?;
    let path = args.db.path()?;
    let database = Database::open_existing(&path)?;
    let explored = database.explore(&game, args.games)?;
    let scores = match args.engine {
        Some(time) => scores(&args, &game, time)?,
        None => HashMap::new(),
    };
    if args.json {
        println!("{}", as_json(&game, &explored, &scores));
    } else {
        print!("{}", as_text(&game, &explored, &scores));
    }
    Ok(ExitCode::SUCCESS)
}

/// The game whose last position `text` names.
fn position(text: &str) -> Result<Game> {
    if let Ok(game_type) = text.parse::<GameType>() {
        return Ok(Game::new(game_type, Rules::default()));
    }
    let mut input = input::read_all(&[text.to_string()], Rules::default());
    if let Some(why) = input.refused.first() {
        bail!("{why}");
    }
    match input.sources.pop() {
        Some(source) if input.sources.is_empty() => Ok(source.game),
        Some(_) => bail!("{text} holds several games: name one position (a GameString)"),
        None => bail!("{text}: no game in it"),
    }
}

/// Waggle's score of every legal move of `game`, for the side to move, from one analysis of `time`.
fn scores(args: &Args, game: &Game, time: Duration) -> Result<HashMap<String, Score>> {
    let legal = game.legal_moves().len();
    if legal == 0 {
        return Ok(HashMap::new());
    }
    let mut engine = args.flags.build(Options {
        opening_book: false,
        ..Options::default()
    })?;
    engine.set_game(game.clone());
    let lines = engine.analyze(legal, &Limits::time(time), |_| {})?;
    Ok(lines
        .into_iter()
        .map(|thought| (thought.best.to_string(), Score::of(&thought.report)))
        .collect())
}

/// A share of `games`, as a whole percentage.
fn percent(part: u64, games: u64) -> String {
    if games == 0 {
        "-".to_string()
    } else {
        format!("{:.0}%", part as f64 * 100.0 / games as f64)
    }
}

/// The explorer as a table.
fn as_text(game: &Game, explored: &Explored, scores: &HashMap<String, Score>) -> String {
    let mut text = format!("{}: {} games went on from here\n", game.game_string(), explored.total());
    if explored.moves.is_empty() {
        text.push_str("No game in the database went on from this position.\n");
    } else {
        let score_head = if scores.is_empty() { "" } else { "  Waggle" };
        text.push_str(&format!(
            "{:<16} {:>8} {:>6}  {:>5} {:>5} {:>5}{score_head}\n",
            "move", "games", "share", "White", "draw", "Black"
        ));
        let total = explored.total();
        for mv in &explored.moves {
            let name = mv.mv.to_string();
            let score = scores.get(&name).map_or(String::new(), |s| format!("  {s:>6}"));
            text.push_str(&format!(
                "{name:<16} {:>8} {:>6}  {:>5} {:>5} {:>5}{score}\n",
                mv.games,
                percent(mv.games, total),
                percent(mv.white, mv.games),
                percent(mv.draw, mv.games),
                percent(mv.black, mv.games),
            ));
        }
    }
    if !explored.games.is_empty() {
        text.push_str("\nGames that reached it (the latest added first):\n");
        for (row, ply) in &explored.games {
            text.push_str(&format!(
                "  #{:<7} {} - {}  {}  {}  at ply {ply}  ({})\n",
                row.id,
                name_or(&row.white, "?"),
                name_or(&row.black, "?"),
                row.date.as_deref().unwrap_or("no date"),
                row.result.as_deref().unwrap_or("unfinished"),
                row.source,
            ));
        }
    }
    text
}

/// `name`, or `missing` when it is empty.
fn name_or<'a>(name: &'a str, missing: &'a str) -> &'a str {
    if name.is_empty() {
        missing
    } else {
        name
    }
}

/// The explorer as one JSON object: the database's form of it, with the position's GameString and each move's
/// score when the engine gave one.
fn as_json(game: &Game, explored: &Explored, scores: &HashMap<String, Score>) -> serde_json::Value {
    let mut object = explored.to_json();
    object["position"] = json!(game.game_string().to_string());
    if let Some(moves) = object["moves"].as_array_mut() {
        for (listed, mv) in moves.iter_mut().zip(&explored.moves) {
            if let Some(score) = scores.get(&mv.mv.to_string()) {
                listed["score"] = json!(score.to_string());
                listed["win_chance"] = json!(score.win_chance());
            }
        }
    }
    object
}
