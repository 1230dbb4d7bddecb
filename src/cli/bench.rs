//! `waggle bench`: the search's signature (fixed positions, a fixed depth, one thread, a 16 MB table) and its
//! speed. Ctrl-C stops it at the position in progress and prints the total of those done, without a signature.

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use waggle::bench::Bench;
use waggle::{EngineOption, OptionValue};

use super::engine::OptionValueParser;
use super::interrupt;

#[derive(ClapArgs)]
pub struct Args {
    /// Depth of every search.
    #[arg(default_value_t = Bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Search threads (the signature holds for one thread only: more make the node counts vary).
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Search with this evaluation instead of the default one (its node counts are then not the signature).
    #[arg(long, value_name = "KIND", value_parser = OptionValueParser(EngineOption::Evaluation))]
    eval: Option<OptionValue>,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let depth = args.depth;
    let mut bench = Bench::new(depth, args.threads.max(1) - 1).context("starting the bench")?;
    if let Some(OptionValue::Evaluation(evaluation)) = args.eval {
        bench = bench.with_evaluation(evaluation).context("starting the bench")?;
    }
    let interrupted = Arc::new(AtomicBool::new(false));
    let (flag, stopper) = (interrupted.clone(), bench.stopper());
    interrupt::on_press(move |_| {
        flag.store(true, Ordering::SeqCst);
        stopper.stop();
    })?;
    let mut stdout = io::stdout().lock();
    let mut failure = None;
    let lines = bench
        .run(&interrupted, |line| {
            let written = writeln!(
                stdout,
                "{:<14} {:>10} nodes {:>8.1} ms  score {:>6}  best {}",
                line.name,
                line.nodes,
                line.elapsed.as_secs_f64() * 1e3,
                line.score,
                line.best
            );
            if let (Err(e), None) = (written, &failure) {
                failure = Some(e);
            }
        })
        .context("running the bench")?;
    if let Some(e) = failure {
        return Err(e.into());
    }
    let nodes: u64 = lines.iter().map(|line| line.nodes).sum();
    let elapsed: std::time::Duration = lines.iter().map(|line| line.elapsed).sum();
    let speed = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
    if lines.len() < Bench::POSITIONS {
        writeln!(
            stdout,
            "bench depth {depth} interrupted after {} of {} positions: {nodes} nodes in {:.3} s, {speed:.0} nodes/s \
             (no signature)",
            lines.len(),
            Bench::POSITIONS,
            elapsed.as_secs_f64()
        )?;
        return Ok(interrupt::exit_code());
    }
    writeln!(
        stdout,
        "bench depth {depth}: {nodes} nodes in {:.3} s, {speed:.0} nodes/s",
        elapsed.as_secs_f64()
    )?;
    writeln!(stdout, "signature {nodes}")?;
    Ok(ExitCode::SUCCESS)
}
