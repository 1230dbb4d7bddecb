//! `waggle perft`: count move sequences from a position, a line per depth; Ctrl-C stops the count at once and
//! says how far the depth in progress got.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use waggle::perft::{divide_until, perft_by_depth, Interrupted};
use waggle::{Game, GameString, MoveString, Rules};

use super::interrupt;

#[derive(ClapArgs)]
pub struct Args {
    /// Also print the count under each move at the last depth.
    #[arg(long)]
    divide: bool,
    /// Deepest depth to count.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// A GameTypeString (Base, Base+MLP …) or a whole GameString.
    #[arg(default_value = "Base")]
    game: GameString,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let game = Game::from_record(&args.game, Rules::default()).context("replaying the game")?;
    let mut pos = game.position().clone();
    let stop = interrupt::flag()?;
    let mut stdout = io::stdout().lock();
    for counted in perft_by_depth(&pos, args.depth, &stop) {
        match counted {
            Ok(timed) => writeln!(stdout, "{timed}")?,
            Err(interrupted) => return Ok(stopped(interrupted)),
        }
    }
    if args.divide && args.depth > 0 {
        match divide_until(&mut pos, args.depth, &stop) {
            Ok(counts) => {
                for (mv, count) in counts {
                    writeln!(stdout, "{}: {count}", MoveString::from_move(&pos, mv))?;
                }
            }
            Err(interrupted) => return Ok(stopped(interrupted)),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A perft that Ctrl-C ended: how far it got, on stderr (stdout holds only complete counts).
fn stopped(interrupted: Interrupted) -> ExitCode {
    eprintln!("waggle perft: {interrupted}");
    interrupt::exit_code()
}
