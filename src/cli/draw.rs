//! `waggle draw`: a position as text (hexes; coloured on a terminal unless NO_COLOR is set) or as an SVG picture:
//! a GameString's, or the last of a game read from a record file (`.sgf`, `.pgn`, …).

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::Args as ClapArgs;
use waggle::draw::{describe, svg, TextStyle};
use waggle::Rules;

use super::input;

#[derive(ClapArgs)]
pub struct Args {
    /// Write an SVG picture to this file ('-' for standard output) instead of drawing text.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// A GameString (or a GameTypeString), or a file of games (BoardSpace .sgf, .pgn, GameStrings): the position
    /// its first game ends in.
    game: String,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let mut input = input::read_all(std::slice::from_ref(&args.game), Rules::default());
    if input.sources.is_empty() {
        bail!("{}", input.refused.join("\n"));
    }
    if input.sources.len() + input.refused.len() > 1 {
        eprintln!(
            "waggle draw: {} holds {} games: the first is drawn",
            args.game,
            input.sources.len() + input.refused.len()
        );
    }
    let source = input.sources.remove(0);
    let pos = source.game.position();
    match args.svg {
        Some(path) => {
            let caption = format!(
                "{} · {} · {} to move",
                pos.game_type(),
                pos.state(),
                pos.to_move().name()
            );
            let picture = svg(pos, Some(&caption));
            if path == "-" {
                io::stdout().write_all(picture.as_bytes())?;
            } else {
                std::fs::write(&path, picture).with_context(|| format!("writing {path}"))?;
            }
        }
        None => {
            let style = TextStyle {
                color: super::colour(),
                marks: Vec::new(),
                last_move: true,
            };
            write!(io::stdout(), "{}", describe(pos, &style))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
