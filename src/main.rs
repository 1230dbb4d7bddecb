//! The `waggle` command line: the UHP engine (default), perft and the search bench. The only place that uses
//! `anyhow`, reads stdin or handles signals.

use std::io::{self, BufRead};
use std::sync::mpsc;
use std::thread;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use waggle::engine::{Engine, Options, DEFAULT_HASH_MB};
use waggle::perft::{divide, perft_by_depth};
use waggle::protocol::{Flow, Session};
use waggle::{bench, move_string, Position};

/// Waggle: a Hive engine (with the Mosquito, Ladybug and Pillbug) speaking the Universal Hive Protocol.
///
/// With no subcommand it reads UHP commands on stdin and answers on stdout, as Mzinga.Viewer and other viewers
/// expect (type `help` for the commands). `waggle perft` counts move sequences; `waggle bench` times the search.
#[derive(Parser)]
#[command(name = "waggle", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Transposition table size in MB (UHP option MaxHashSize, 1 to 4096).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    max_hash_size: u64,
    /// Print `Move;Depth;Score;PV…` lines while thinking (UHP option ReportIntermediateBestMoves).
    #[arg(long)]
    report_intermediate_best_moves: bool,
    /// End the game as a draw when a position occurs for the third time (UHP option ThreefoldRepetitionDraw).
    #[arg(long)]
    threefold_repetition_draw: bool,
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
    /// Search a fixed set of positions to a fixed depth (one thread, 16 MB table): per position and in total,
    /// nodes and nodes per second. The total node count is the search's signature.
    Bench {
        /// Depth of every search.
        #[arg(default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
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
        Some(Command::Bench { depth }) => run_bench(depth),
        None => {
            let options = Options {
                max_hash_size: cli.max_hash_size as usize,
                report_intermediate_best_moves: cli.report_intermediate_best_moves,
                threefold_repetition_draw: cli.threefold_repetition_draw,
            };
            run_engine(options)
        }
    }
}

/// The UHP loop. Stdin is read on its own thread so that end of input is noticed at once and a search runs on
/// the main thread undisturbed; SIGINT stops a running search (the move found so far is still printed) and ends
/// the process when idle.
fn run_engine(options: Options) -> Result<()> {
    let engine = Engine::new(options).context("starting the engine")?;
    let stdout = io::stdout();
    let mut session = Session::new(stdout.lock(), engine);
    let stopper = session.stopper();
    ctrlc::set_handler(move || {
        if stopper.is_searching() {
            stopper.stop();
        } else {
            std::process::exit(0);
        }
    })
    .context("installing the SIGINT handler")?;
    session.start()?;
    let (lines, input) = mpsc::channel::<String>();
    thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            // Bytes, not `lines()`: a line that is not UTF-8 gets an `err` like any other bad input instead of
            // ending the session.
            match stdin.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buffer).into_owned();
                    if lines.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    for line in input {
        match session.handle(&line) {
            Ok(Flow::Continue) => {}
            Ok(Flow::Exit) => break,
            // The reader of stdout is gone: nobody is listening any more.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => break,
            Err(e) => return Err(e).context("writing to stdout"),
        }
    }
    Ok(())
}

fn run_perft(game: &str, depth: u32, show_divide: bool) -> Result<()> {
    let mut pos = Position::from_game_string(game).context("reading the position")?;
    for line in perft_by_depth(&pos, depth) {
        println!("{line}");
    }
    if show_divide && depth > 0 {
        for (mv, count) in divide(&mut pos, depth) {
            println!("{}: {count}", move_string(&pos, mv));
        }
    }
    Ok(())
}

fn run_bench(depth: u32) -> Result<()> {
    let (nodes, elapsed) = bench::run(depth, |line| {
        println!(
            "{:<14} {:>10} nodes {:>8.1} ms  score {:>6}  best {}",
            line.name,
            line.nodes,
            line.elapsed.as_secs_f64() * 1e3,
            line.score,
            line.best
        );
    })
    .context("running the bench")?;
    println!(
        "bench depth {depth}: {nodes} nodes in {:.3} s, {:.0} nodes/s",
        elapsed.as_secs_f64(),
        nodes as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    println!("signature {nodes}");
    Ok(())
}
