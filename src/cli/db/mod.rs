//! `waggle db`: the games database. `add` imports records, `explore` shows the moves played from a position,
//! `games` lists (and writes out) games, `stats` counts them; one file each, over `waggle::db`.

mod add;
mod explore;
mod games;
mod stats;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use clap::{Args as ClapArgs, Subcommand};

#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Import games (BoardSpace .sgf, .pgn, games files, GameStrings; directories of .pgn and .sgf files with
    /// their sub-folders) into the database: each replayed before it is stored, a game already there not added
    /// again, a game that cannot be read named in the summary. Ctrl-C stops cleanly: every game is wholly in or
    /// out.
    Add(add::Args),
    /// The moves played from a position in the database's games, each with how often and how those games ended
    /// (White / draw / Black), and the latest games that reached it.
    Explore(explore::Args),
    /// List the games by player, game type, result, dates or a position they reached; write them as a .pgn or
    /// GameStrings.
    Games(games::Args),
    /// Count the games by game type, year and result.
    Stats(stats::Args),
}

/// Which database: `--db`, else `WAGGLE_DB`, else the default file in the user's data folder.
#[derive(ClapArgs)]
struct DbPath {
    /// The database file (default: $WAGGLE_DB, else games.sqlite in Waggle's folder of the user's data, as
    /// `waggle db stats` prints).
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
}

impl DbPath {
    /// The file to use.
    fn path(&self) -> Result<PathBuf> {
        if let Some(path) = &self.db {
            return Ok(path.clone());
        }
        if let Some(path) = std::env::var_os("WAGGLE_DB").filter(|p| !p.is_empty()) {
            return Ok(PathBuf::from(path));
        }
        waggle::db::default_path()
            .ok_or_else(|| anyhow!("no home folder is known to keep the database in: give --db PATH or set WAGGLE_DB"))
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    match args.command {
        Command::Add(args) => add::run(args),
        Command::Explore(args) => explore::run(args),
        Command::Games(args) => games::run(args),
        Command::Stats(args) => stats::run(args),
    }
}
