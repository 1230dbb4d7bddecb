//! `waggle train`: a network evaluation learnt from training positions (`waggle datagen`'s files). Prints the
//! positions read and the hand-written evaluation's loss on the held-out ones, then a line an epoch; writes the best
//! net so far (`--out`) and a checkpoint (`--checkpoint`) after each epoch. The first Ctrl-C ends the training after
//! the batch in progress and writes the checkpoint, from which `--resume` goes on to the same net as a run that
//! never stopped; the second quits at once.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use waggle::train::{Dataset, Schedule, Trainer};

use super::bar::progress_bar;
use super::interrupt;

#[derive(ClapArgs)]
pub struct Args {
    /// Files of training records, as `waggle datagen` writes them.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Write the best net so far here (by the loss on the held-out positions), after each epoch.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Write the trainer's state here after each epoch and on Ctrl-C (default: the net's file name + .checkpoint).
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Go on from the checkpoint (its schedule and seed; the flags that shape the schedule are not used).
    #[arg(long)]
    resume: bool,
    /// Passes over the positions.
    #[arg(long, default_value_t = Schedule::default().epochs)]
    epochs: u32,
    /// Positions a step.
    #[arg(long, default_value_t = Schedule::default().batch)]
    batch: u32,
    /// Adam's learning rate at the start (it falls along a half cosine).
    #[arg(long, default_value_t = Schedule::default().learning_rate)]
    learning_rate: f32,
    /// The learning rate at the end, as a share of the first.
    #[arg(long, default_value_t = Schedule::default().final_rate)]
    final_rate: f32,
    /// The share of the game's result in the target; the rest is the search's score's win chance.
    #[arg(long, default_value_t = Schedule::default().lambda)]
    lambda: f32,
    /// Seed of the first weights and of the shuffles: the same seed, files and flags train the same net.
    #[arg(long, default_value_t = Schedule::default().seed)]
    seed: u64,
    /// The share of positions held out to measure the net on.
    #[arg(long, value_name = "SHARE", default_value_t = 0.05)]
    held_out: f64,
    /// Threads (the net is the same whatever this is); 0 for one per core.
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let threads = match args.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let checkpoint = args
        .checkpoint
        .clone()
        .unwrap_or_else(|| with_suffix(&args.out, ".checkpoint"));
    let mut trainer = if args.resume {
        let bytes =
            std::fs::read(&checkpoint).with_context(|| format!("reading the checkpoint {}", checkpoint.display()))?;
        Trainer::resume(&bytes).with_context(|| format!("resuming from {}", checkpoint.display()))?
    } else {
        Trainer::new(Schedule {
            epochs: args.epochs,
            batch: args.batch,
            learning_rate: args.learning_rate,
            final_rate: args.final_rate,
            lambda: args.lambda,
            seed: args.seed,
        })
    };
    let read = Instant::now();
    let data = Dataset::read(&args.files, args.held_out)?;
    eprintln!(
        "waggle train: {} positions to learn from, {} held out ({} met before left out), read in {:.1} s",
        data.train_len(),
        data.validation_len(),
        data.duplicates,
        read.elapsed().as_secs_f64()
    );
    let schedule = trainer.schedule();
    eprintln!(
        "waggle train: {} epochs of batches of {}, learning rate {} falling to {} of it, lambda {}, seed {}{}",
        schedule.epochs,
        schedule.batch,
        schedule.learning_rate,
        schedule.final_rate,
        schedule.lambda,
        schedule.seed,
        if args.resume {
            format!(" (resumed after {} epochs)", trainer.epochs_done())
        } else {
            String::new()
        }
    );
    let (net, classic) = trainer.held_out_losses(&data, threads);
    eprintln!(
        "waggle train: loss on the held-out positions: the hand-written evaluation {classic:.6}, the net {net:.6}"
    );
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let (out, ckpt) = (args.out.display().to_string(), checkpoint.display().to_string());
    interrupt::on_press(move |presses| {
        if presses == 1 {
            eprintln!("\nwaggle train: stopping after this batch (Ctrl-C again to quit now)");
            flag.store(true, Ordering::SeqCst);
        } else {
            eprintln!("\nwaggle train: interrupted: the best net so far is in {out}, the last checkpoint in {ckpt}");
            std::process::exit(i32::from(interrupt::INTERRUPTED));
        }
    })?;
    let bar = progress_bar(
        trainer.batches_per_epoch(&data),
        "{pos}/{len} batches of the epoch, {eta} left",
    );
    let mut failure = None;
    trainer.train(
        &data,
        threads,
        &stop,
        |done, _| bar.set_position(done),
        |epoch, trainer| {
            bar.suspend(|| {
                eprintln!(
                "epoch {:>3}/{}: loss {:.6} learnt, {:.6} held out{}, learning rate {:.6}, {:.0} positions a second",
                epoch.number,
                schedule.epochs,
                epoch.train_loss,
                epoch.validation_loss,
                if epoch.best { " (best)" } else { "" },
                epoch.learning_rate,
                epoch.positions_per_second
            )
            });
            bar.reset();
            if failure.is_none() {
                failure = save(trainer, &args.out, &checkpoint).err();
            }
        },
    );
    bar.finish_and_clear();
    if let Some(error) = failure {
        return Err(error);
    }
    if stop.load(Ordering::SeqCst) {
        save(&trainer, &args.out, &checkpoint)?;
        eprintln!(
            "waggle train: interrupted after {} epochs and {} batches: the best net so far is in {}, the checkpoint \
             (--resume) in {}",
            trainer.epochs_done(),
            trainer.batches_done(),
            args.out.display(),
            checkpoint.display()
        );
        return Ok(interrupt::exit_code());
    }
    match trainer.best() {
        Some((loss, _)) => eprintln!(
            "waggle train: done: the best net (held-out loss {loss:.6}) is in {}",
            args.out.display()
        ),
        None => eprintln!("waggle train: nothing to do: the checkpoint's schedule was done already"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Write `trainer`'s best net to `out` and its checkpoint to `checkpoint`, each through a temporary file, so that
/// neither is ever left half written.
fn save(trainer: &Trainer, out: &Path, checkpoint: &Path) -> Result<()> {
    if let Some((_, net)) = trainer.best() {
        write_whole(out, net)?;
    }
    write_whole(checkpoint, &trainer.checkpoint())
}

fn write_whole(path: &Path, bytes: &[u8]) -> Result<()> {
    let temporary = with_suffix(path, &format!(".{}.tmp", std::process::id()));
    std::fs::write(&temporary, bytes).with_context(|| format!("writing {}", temporary.display()))?;
    std::fs::rename(&temporary, path).with_context(|| format!("writing {}", path.display()))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(suffix);
    PathBuf::from(name)
}
