//! `waggle tune`: the evaluation's weights fitted to the results of self-play games (Texel tuning), starting from
//! `--weights` or the built-in ones. Ctrl-C ends the descent where it is; the weights so far are printed (and
//! written with `--out`) as any fit's are.
//!
//! With `--win-curve NODES` it fits the win curve instead: every position of the games from `--skip` on is
//! searched with NODES nodes, and the scale S of win chance = 1 / (1 + 10^(−score / S)) fitted to the results.
//! Ctrl-C ends the searching; the curve is fitted to the positions searched so far.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use waggle::record::FinishedGame;
use waggle::tune::{fit, samples, FitSettings, WinCurve};
use waggle::{GameType, Options};

use super::engine::{engine_flags, EvalFlags, Flags, TableFlags};
use super::interrupt;

engine_flags! {
    /// The engine flags of `waggle tune`: the weights to start from, and the engine of `--win-curve`.
    struct EngineFlags {
        eval: EvalFlags,
        table: TableFlags,
    }
}

#[derive(ClapArgs)]
// The table and the threads serve only the searches of --win-curve.
#[command(
    mut_arg("max_hash_size", |a| a.requires("win_curve").help_heading(WIN_CURVE_FLAGS)),
    mut_arg("threads", |a| a.requires("win_curve").help_heading(WIN_CURVE_FLAGS))
)]
pub struct Args {
    /// Files of games written by `waggle selfplay`.
    #[arg(required = true)]
    files: Vec<String>,
    /// Leave out the positions of the first plies of each game (the random opening).
    #[arg(long, value_name = "PLIES", default_value_t = 8)]
    skip: usize,
    /// Steps of gradient descent.
    #[arg(long, default_value_t = 2000)]
    iterations: usize,
    /// Step size.
    #[arg(long, default_value_t = 1.0)]
    learning_rate: f64,
    /// Write the weights found to this file (for `waggle --weights FILE`).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Fit the win curve instead of the weights: search every position with this many nodes and fit S in
    /// win chance = 1 / (1 + 10^(-score / S)).
    #[arg(long, value_name = "NODES", conflicts_with_all = ["iterations", "learning_rate", "out"])]
    win_curve: Option<u64>,
    #[command(flatten)]
    engine: EngineFlags,
}

/// The heading of the engine flags that only --win-curve takes.
const WIN_CURVE_FLAGS: &str = "Engine flags with --win-curve";

/// A line on stderr after this many positions searched, to show that the searching goes on.
const PROGRESS_EVERY: usize = 5000;

pub fn run(args: Args) -> Result<ExitCode> {
    if let Some(nodes) = args.win_curve {
        let records = super::read_games(&args.files)?;
        return win_curve(&records, &args, nodes);
    }
    let records = super::read_games(&args.files)?;
    let samples = samples(&records, args.skip).context("replaying the games")?;
    // Heard from the first line on: a Ctrl-C that sees the line must stop the fit, not end the process unheard.
    let stop = interrupt::flag()?;
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{} games, {} positions", records.len(), samples.len())?;
    let settings = FitSettings {
        iterations: args.iterations,
        learning_rate: args.learning_rate,
        ..FitSettings::default()
    };
    // The fit starts from the weights of the games' game type (that of the first game).
    let game_type = records.first().map_or(GameType::MLP, |r| r.game.game_type);
    let start = *args.engine.weights()?.for_game(game_type);
    let found = fit(&samples, &start, &settings, &stop);
    let interrupted = found.iterations < args.iterations;
    if interrupted {
        writeln!(
            stdout,
            "interrupted after {} of {} iterations",
            found.iterations, args.iterations
        )?;
    }
    writeln!(
        stdout,
        "scale {:.4}; mean squared error {:.6} -> {:.6}",
        found.scale, found.error_before, found.error_after
    )?;
    for ((name, before), (_, after)) in start.named().zip(found.weights.named()) {
        writeln!(stdout, "{name:<24} {before:>6} -> {after:>6}")?;
    }
    if let Some(path) = args.out {
        std::fs::write(&path, found.weights.to_text()).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(if interrupted {
        interrupt::exit_code()
    } else {
        ExitCode::SUCCESS
    })
}

/// `--win-curve NODES`: search the positions of `records` from ply `--skip` on and print the curve fitted to them.
fn win_curve(records: &[FinishedGame], args: &Args, nodes: u64) -> Result<ExitCode> {
    let skip = args.skip;
    let mut engine = args.engine.build(Options {
        opening_book: false,
        ..Options::default()
    })?;
    let stop = interrupt::flag()?;
    let mut searched = 0;
    let curve = WinCurve::measure(records, &mut engine, nodes, skip, &stop, |n| {
        searched = n;
        if n % PROGRESS_EVERY == 0 {
            eprintln!("waggle tune: {n} positions searched");
        }
    })
    .context("replaying the games")?;
    let mut stdout = io::stdout().lock();
    let interrupted = stop.load(Ordering::SeqCst);
    if interrupted {
        writeln!(stdout, "interrupted after {searched} positions")?;
    }
    if curve.positions == 0 {
        writeln!(stdout, "{} games: no positions to fit the win curve to", records.len())?;
    } else {
        writeln!(
            stdout,
            "{} games: win chance = 1 / (1 + 10^(-(score - {:.0}) / {:.0})), mean squared error {:.6} over {} positions \
             ({nodes} nodes a search, from ply {skip}; the score for the side to move, less its tempo)",
            records.len(),
            curve.tempo,
            curve.scale,
            curve.error,
            curve.positions
        )?;
    }
    Ok(if interrupted {
        interrupt::exit_code()
    } else {
        ExitCode::SUCCESS
    })
}
