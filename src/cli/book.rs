//! `waggle book`: an opening book learnt from self-play games, printed in the format of src/book/book.txt with
//! each move's rivals as comments.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::Args as ClapArgs;
use waggle::book::learn;

#[derive(ClapArgs)]
pub struct Args {
    /// Files of games written by `waggle selfplay`.
    #[arg(required = true)]
    files: Vec<String>,
    /// Book moves for positions of up to this many plies from the start (1: White's first move only).
    #[arg(long, default_value_t = 2)]
    plies: usize,
    /// Games a move needs to be weighed (and a position to get a book move).
    #[arg(long, value_name = "GAMES", default_value_t = 100)]
    min_games: u32,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let records = super::read_games(&args.files)?;
    let learnt = learn(&records, args.plies, args.min_games);
    let mut stdout = io::stdout().lock();
    writeln!(
        stdout,
        "# Learnt by `waggle book --plies {} --min-games {}` from {} games.",
        args.plies,
        args.min_games,
        records.len()
    )?;
    writeln!(
        stdout,
        "# POSITION<TAB>MOVE<TAB>GAMES<TAB>SCORE (for the side to move); rivals as comments."
    )?;
    for entry in learnt {
        writeln!(stdout, "{entry}")?;
    }
    Ok(ExitCode::SUCCESS)
}
