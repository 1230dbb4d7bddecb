//! `waggle db games`: the games of the database that match the filters, the latest added first: as a table, as a
//! Mzinga `.pgn` or GameStrings (`--to`, which `waggle review`, `waggle convert` and the page read), or as JSON.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use waggle::db::{Database, GameFilter, GameRow};
use waggle::{GameState, GameType};

use super::DbPath;

#[derive(ClapArgs)]
pub struct Args {
    /// Games of this player, with either colour (any case).
    #[arg(long, value_name = "NAME")]
    player: Option<String>,
    /// Games of this game type.
    #[arg(long, value_name = "TYPE")]
    game_type: Option<GameType>,
    /// Games with this result.
    #[arg(long, value_enum, value_name = "RESULT")]
    result: Option<ResultFlag>,
    /// Games played on this date or later (yyyy-mm-dd, yyyy-mm or yyyy).
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Games played on this date or earlier (yyyy-mm-dd, yyyy-mm or yyyy).
    #[arg(long, value_name = "DATE")]
    until: Option<String>,
    /// Games that reached this position (a GameString), however the board was turned.
    #[arg(long, value_name = "GAMESTRING")]
    reaching: Option<String>,
    /// The most games listed.
    #[arg(long, value_name = "N", default_value_t = 100)]
    limit: usize,
    /// Write the games as a Mzinga .pgn or as GameStrings (one a line) instead of a table.
    #[arg(long, value_enum, value_name = "FORMAT")]
    to: Option<Format>,
    /// Print a JSON array, one object a game.
    #[arg(long, conflicts_with = "to")]
    json: bool,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    db: DbPath,
}

/// A result to filter by.
#[derive(Clone, Copy, ValueEnum)]
enum ResultFlag {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
    /// No result: the game was not finished.
    Unfinished,
}

/// The formats written.
#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Mzinga's .pgn: the tags (players, date, event, ratings), one numbered move a line, the result.
    Pgn,
    /// A GameString a line.
    Gamestring,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let reached = match &args.reaching {
        Some(text) => Some(
            waggle::Game::from_record(&text.parse()?, waggle::Rules::default())
                .map_err(|e| anyhow!("--reaching {text}: {e}"))?,
        ),
        None => None,
    };
    let filter = GameFilter {
        player: args.player.clone(),
        game_type: args.game_type,
        result: args.result.map(|result| match result {
            ResultFlag::WhiteWins => GameState::WhiteWins,
            ResultFlag::BlackWins => GameState::BlackWins,
            ResultFlag::Draw => GameState::Draw,
            ResultFlag::Unfinished => GameState::InProgress,
        }),
        since: args.since.clone(),
        until: args.until.clone(),
        reached,
        limit: args.limit,
    };
    let path = args.db.path()?;
    let database = Database::open_existing(&path)?;
    let rows = database.games(&filter)?;
    let text = match (args.to, args.json) {
        (Some(Format::Pgn), _) => {
            let mut text = String::new();
            for row in &rows {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&row.pgn().with_context(|| format!("game #{}", row.id))?.to_string());
            }
            text
        }
        (Some(Format::Gamestring), _) => rows.iter().map(|row| format!("{}\n", row.game_string())).collect(),
        (None, true) => format!(
            "{}\n",
            serde_json::Value::Array(rows.iter().map(GameRow::to_json).collect())
        ),
        (None, false) => table(&rows),
    };
    match &args.output {
        Some(path) => std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?,
        None => io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The games as lines of a table.
fn table(rows: &[GameRow]) -> String {
    if rows.is_empty() {
        return "No game matches.\n".to_string();
    }
    rows.iter()
        .map(|row| {
            format!(
                "#{:<7} {:<9} {:<10} {} - {}  {} ({} plies, {})  {}\n",
                row.id,
                row.game_type,
                row.date.as_deref().unwrap_or("no date"),
                if row.white.is_empty() { "?" } else { &row.white },
                if row.black.is_empty() { "?" } else { &row.black },
                row.result.as_deref().unwrap_or("unfinished"),
                row.plies,
                row.ending,
                row.source,
            )
        })
        .collect()
}
