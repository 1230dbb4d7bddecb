//! `waggle draw`: a position as text (hexes; coloured on a terminal unless NO_COLOR is set) or as an SVG picture.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use waggle::draw::{describe, svg, TextStyle};
use waggle::{Game, GameString, Rules};

#[derive(ClapArgs)]
pub struct Args {
    /// Write an SVG picture to this file ('-' for standard output) instead of drawing text.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// A GameString (or a GameTypeString).
    game: GameString,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::from_record(&args.game, Rules::default()).context("replaying the game")?;
    let pos = game.position();
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
