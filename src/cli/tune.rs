//! `waggle tune`: the evaluation's weights fitted to the results of self-play games (Texel tuning), starting from
//! `--weights` or the built-in ones. Ctrl-C ends the descent where it is; the weights so far are printed (and
//! written with `--out`) as any fit's are.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use waggle::tune::{fit, samples, FitSettings};
use waggle::GameType;

use super::engine::{EngineFlags, WEIGHTS};
use super::interrupt;

#[derive(ClapArgs)]
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
}

pub fn run(args: Args, flags: &EngineFlags) -> Result<ExitCode> {
    flags.check("tune", &[WEIGHTS])?;
    let records = super::read_games(&args.files)?;
    let samples = samples(&records, args.skip).context("replaying the games")?;
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{} games, {} positions", records.len(), samples.len())?;
    let settings = FitSettings {
        iterations: args.iterations,
        learning_rate: args.learning_rate,
        ..FitSettings::default()
    };
    // The fit starts from the weights of the games' game type (that of the first game).
    let game_type = records.first().map_or(GameType::MLP, |r| r.game.game_type);
    let start = *flags.weights()?.for_game(game_type);
    let stop = interrupt::flag()?;
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
