//! `waggle selfplay`: Waggle against itself, games written one `RESULT<TAB>GAMESTRING` a line for the tuner and
//! the book. The first Ctrl-C starts no new game (those in progress finish and are written), the second quits at
//! once; either way it says how many games were written where.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use waggle::tune::{selfplay as play, SelfPlay};
use waggle::GameType;

use super::engine::{engine_flags, BookFlag, EvalFlags, Flags, HashFlag, ThreefoldFlag};
use super::interrupt;

engine_flags! {
    /// The engine flags of `waggle selfplay` (its `--threads` is its own: games at once).
    struct EngineFlags {
        hash: HashFlag,
        eval: EvalFlags,
        book: BookFlag,
        threefold: ThreefoldFlag,
    }
}

#[derive(ClapArgs)]
pub struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Nodes per move (give or take a fifth).
    #[arg(long, default_value_t = 20_000)]
    nodes: u64,
    /// Random plies of each opening.
    #[arg(long, value_name = "PLIES", default_value_t = 6)]
    openings: usize,
    /// A game still going after this many plies is a draw.
    #[arg(long, value_name = "PLIES", default_value_t = 300)]
    max_plies: usize,
    /// Seed of the openings (use a different one on each machine).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The game type.
    #[arg(long, value_name = "TYPE", default_value = "Base+MLP")]
    game_type: GameType,
    /// Games played at once, each engine searching on one thread.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Write the games here instead of to standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineFlags,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let options = args.engine.options(SelfPlay::default_options())?;
    let settings = SelfPlay {
        games: args.games,
        game_type: args.game_type,
        opening_plies: args.openings,
        nodes: args.nodes,
        max_plies: args.max_plies,
        seed: args.seed,
        options,
        weights: args.engine.weights()?,
    };
    let mut sink: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
        )),
        None => Box::new(io::stdout().lock()),
    };
    let place = args
        .out
        .as_ref()
        .map_or("standard output".to_string(), |p| p.display().to_string());
    let stop = Arc::new(AtomicBool::new(false));
    let written = Arc::new(AtomicU64::new(0));
    let (flag, count, total, to) = (stop.clone(), written.clone(), settings.games, place.clone());
    interrupt::on_press(move |presses| {
        if presses == 1 {
            eprintln!("\nwaggle selfplay: no new game starts; the games in progress finish (Ctrl-C again to quit now)");
            flag.store(true, Ordering::SeqCst);
        } else {
            eprintln!(
                "\nwaggle selfplay: interrupted: {} of {total} games written to {to}",
                count.load(Ordering::SeqCst)
            );
            std::process::exit(i32::from(interrupt::INTERRUPTED));
        }
    })?;
    let mut failure = None;
    play(&settings, args.threads, &stop, |record| {
        if failure.is_none() {
            match writeln!(sink, "{}", record.to_line()).and_then(|_| sink.flush()) {
                Ok(()) => {
                    written.fetch_add(1, Ordering::SeqCst);
                }
                Err(e) => failure = Some(e),
            }
        }
        if io::stderr().is_terminal() {
            eprint!("\rgames {} of {}", written.load(Ordering::SeqCst), settings.games);
        }
    });
    if let Some(e) = failure {
        return Err(e).context("writing the games");
    }
    if stop.load(Ordering::SeqCst) {
        eprintln!(
            "\nwaggle selfplay: interrupted: {} of {} games written to {place}",
            written.load(Ordering::SeqCst),
            settings.games
        );
        return Ok(interrupt::exit_code());
    }
    Ok(ExitCode::SUCCESS)
}
