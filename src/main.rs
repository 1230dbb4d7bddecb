//! The `waggle` command line: the UHP engine (default) and the perft tool.

use std::time::Instant;

use anyhow::Result;
use clap::{Parser, Subcommand};
use waggle::perft::{divide, perft};
use waggle::{move_string, Position};

#[derive(Parser)]
#[command(
    name = "waggle",
    version,
    about = "A Universal Hive Protocol engine for Hive with the Mosquito, Ladybug and Pillbug"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count move sequences (perft) from a position, one line per depth.
    Perft {
        /// Also print the count under each move at the last depth.
        #[arg(long)]
        divide: bool,
        /// Deepest depth to count.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// A GameTypeString (Base, Base+MLP …) or a whole GameString.
        #[arg(default_value = "Base")]
        game: String,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            divide: show,
            depth,
            game,
        }) => run_perft(&game, depth, show),
        None => Ok(()),
    }
}

fn run_perft(game: &str, depth: u32, show_divide: bool) -> Result<()> {
    let mut pos = Position::from_game_string(game)?;
    for d in 1..=depth {
        let start = Instant::now();
        let count = perft(&mut pos, d);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "perft({d}) = {count} in {secs:.3} s, {:.1} M leaves/s",
            count as f64 / secs.max(1e-9) / 1e6
        );
    }
    if show_divide && depth > 0 {
        for (mv, count) in divide(&mut pos, depth) {
            println!("{}: {count}", move_string(&pos, mv));
        }
    }
    Ok(())
}
