//! `waggle convert`: the games of any record Waggle reads (BoardSpace `.sgf`, `.pgn`, games files, GameStrings)
//! written out as a Mzinga `.pgn`, which Mzinga.Viewer opens, or as GameStrings, one a line. A game that cannot be
//! read is refused with its file, its move and the reason, and the others are written.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, ValueEnum};
use waggle::record::GameRecord;
use waggle::Rules;

use super::input;

/// The exit status when a game was refused (the others are still written).
const REFUSED: u8 = 2;

#[derive(ClapArgs)]
pub struct Args {
    /// The games: files (BoardSpace .sgf, .pgn, games files, GameStrings a line), directories of .pgn and .sgf
    /// files, GameStrings, or `-` for standard input.
    #[arg(value_name = "FILE", required = true)]
    games: Vec<String>,
    /// What to write: a Mzinga .pgn (every game, one after another) or GameStrings (one a line).
    #[arg(long, value_enum, value_name = "FORMAT")]
    to: Format,
    /// Write to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The formats written.
#[derive(Clone, Copy, ValueEnum)]
enum Format {
    /// Mzinga's .pgn: the tags, one numbered move a line, the result.
    Pgn,
    /// A GameString a line: the game type, the state the moves reach, the turn, the moves.
    Gamestring,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let input = input::read_all(&args.games, Rules::default());
    // The refusals are said once, in the summary after the games written (or in place of them, when every game
    // was refused).
    if input.sources.is_empty() {
        eprint!("waggle convert: {}", input.summary());
        return Ok(ExitCode::from(REFUSED));
    }
    let mut text = String::new();
    for source in &input.sources {
        match args.to {
            Format::Pgn => {
                let game = source
                    .pgn
                    .clone()
                    .unwrap_or_else(|| GameRecord::new(source.record.clone(), "", ""));
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&game.to_string());
            }
            Format::Gamestring => {
                text.push_str(&source.game.game_string().to_string());
                text.push('\n');
            }
        }
    }
    match &args.output {
        Some(path) => std::fs::write(path, &text).with_context(|| format!("writing {}", path.display()))?,
        None => io::stdout().lock().write_all(text.as_bytes())?,
    }
    if !input.refused.is_empty() {
        eprint!("waggle convert: {}", input.summary());
        return Ok(ExitCode::from(REFUSED));
    }
    Ok(ExitCode::SUCCESS)
}
