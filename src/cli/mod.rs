//! The subcommands, one file each: each reads its flags, builds its engine the one shared way (`engine`), calls
//! the library and prints. What they share: Ctrl-C (`interrupt`), and the few helpers below.

pub mod arena;
mod bar;
pub mod bench;
pub mod book;
pub mod completions;
pub mod convert;
pub mod datagen;
#[cfg(feature = "db")]
pub mod db;
pub mod draw;
pub mod engine;
mod input;
pub mod interrupt;
pub mod json;
pub mod man;
pub mod perft;
pub mod play;
pub mod puzzle;
pub mod puzzles;
pub mod review;
pub mod selfplay;
pub mod train;
pub mod tune;
pub mod uhp;
pub mod web;

use std::io::{self, IsTerminal};
use std::time::Duration;

use anyhow::{Context, Result};

/// A number of seconds (`0.5`, `10`), for clap.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    Duration::try_from_secs_f64(seconds).map_err(|_| format!("'{text}' is not a number of seconds"))
}

/// Whether pictures on stdout get ANSI colours: on a terminal, unless NO_COLOR is set.
pub fn colour() -> bool {
    io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The games of the self-play data files `files`, all of them.
pub fn read_games(files: &[String]) -> Result<Vec<waggle::record::GameRecord>> {
    let mut records = Vec::new();
    for path in files {
        let file = std::fs::File::open(path).with_context(|| format!("opening {path}"))?;
        records
            .extend(waggle::record::read_games(io::BufReader::new(file)).with_context(|| format!("reading {path}"))?);
    }
    Ok(records)
}
