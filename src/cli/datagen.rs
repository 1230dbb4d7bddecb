//! `waggle datagen`: Waggle against itself from random openings, every position where the side to move had a choice
//! written as a 64-byte training record (the search's score and the game's result) for `waggle train`. Positions
//! met before in the same file are left out. The first Ctrl-C starts no new game (those in progress finish and are
//! written), the second quits at once; either way it says what was written where.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use waggle::train::{gather, Datagen, Shard};
use waggle::GameType;

use super::bar::progress_bar;
use super::engine::{engine_flags, EvalFlags, Flags, HashFlag};
use super::interrupt;

engine_flags! {
    /// The engine flags of `waggle datagen` (its `--threads` is its own: games at once).
    struct EngineFlags {
        hash: HashFlag,
        eval: EvalFlags,
    }
}

#[derive(ClapArgs)]
pub struct Args {
    /// Write the training records to this file (64 bytes each; docs/eval.md has the format).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Games of the whole run (over every shard).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Nodes per move (give or take a fifth).
    #[arg(long, default_value_t = 8000)]
    nodes: u64,
    /// Random plies of each opening: a number, or a range MIN-MAX drawn from for each game.
    #[arg(long, value_name = "PLIES", default_value = "4-8", value_parser = plies)]
    openings: (usize, usize),
    /// A game still going after this many plies is stopped (its positions keep their scores, no result).
    #[arg(long, value_name = "PLIES", default_value_t = 300)]
    max_plies: usize,
    /// The share of moves after the opening played at random instead of the search's (the position before is still
    /// kept with its score): the positions after poor moves, which a search meets everywhere, are learnt from too.
    #[arg(long, value_name = "SHARE", default_value_t = 0.0)]
    random_moves: f64,
    /// The game types, dealt out in turn: `all`, or a comma-separated list (`Base+MLP,Base`).
    #[arg(long, value_name = "TYPES", default_value = "all", value_parser = game_types)]
    game_types: GameTypes,
    /// Seed of everything random: the same seed and flags write the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the I-th of N slices of the run's games (for N machines; `cat` joins their files).
    #[arg(long, value_name = "I/N")]
    shard: Option<Shard>,
    /// Games played at once, each engine searching on one thread (the file is the same whatever this is).
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    engine: EngineFlags,
}

/// A list of game types, for clap.
#[derive(Clone, Debug)]
pub struct GameTypes(Vec<GameType>);

fn game_types(text: &str) -> Result<GameTypes, String> {
    if text.trim().eq_ignore_ascii_case("all") {
        return Ok(GameTypes(GameType::ALL.to_vec()));
    }
    let types = text
        .split(',')
        .map(|name| name.parse::<GameType>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(GameTypes(types))
}

fn plies(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{text}' is not a number of plies or a range MIN-MAX");
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let (low, high): (usize, usize) = (
        low.trim().parse().map_err(|_| bad())?,
        high.trim().parse().map_err(|_| bad())?,
    );
    if low > high {
        return Err(bad());
    }
    Ok((low, high))
}

/// What has been written so far.
#[derive(Default)]
struct Written {
    games: u64,
    positions: u64,
    duplicates: u64,
}

impl Written {
    fn summary(&self, shard_games: u64, place: &str, elapsed: Duration) -> String {
        let seconds = elapsed.as_secs_f64();
        format!(
            "{} of {shard_games} games, {} positions ({} met before left out) written to {place} in {:.0} s: {:.0} \
             positions a second",
            self.games,
            self.positions,
            self.duplicates,
            seconds,
            self.positions as f64 / seconds.max(1e-9)
        )
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let options = args.engine.options(Datagen::default_options())?;
    let settings = Datagen {
        games: args.games,
        game_types: args.game_types.0,
        opening_plies: args.openings.0..=args.openings.1,
        nodes: args.nodes,
        max_plies: args.max_plies,
        random_moves: args.random_moves,
        seed: args.seed,
        shard: args.shard.unwrap_or(Shard::ALL),
        options,
        weights: args.engine.weights()?,
    };
    let place = args.out.display().to_string();
    let mut out = BufWriter::new(File::create(&args.out).with_context(|| format!("creating {place}"))?);
    let shard_games = settings.shard_games();
    let started = Instant::now();
    let written = Arc::new(Mutex::new(Written::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let (flag, so_far, to) = (stop.clone(), written.clone(), place.clone());
    interrupt::on_press(move |presses| {
        if presses == 1 {
            eprintln!("\nwaggle datagen: no new game starts; the games in progress finish (Ctrl-C again to quit now)");
            flag.store(true, Ordering::SeqCst);
        } else {
            if let Ok(written) = so_far.lock() {
                eprintln!(
                    "\nwaggle datagen: interrupted: {}",
                    written.summary(shard_games, &to, started.elapsed())
                );
            }
            std::process::exit(i32::from(interrupt::INTERRUPTED));
        }
    })?;
    let bar = progress_bar(shard_games, "{pos}/{len} games, {msg}, {eta} left");
    let mut seen = HashSet::new();
    let mut failure = None;
    gather(&settings, args.threads, &stop, |game| {
        if failure.is_some() {
            return;
        }
        let mut fresh = Vec::with_capacity(game.positions.len() * 64);
        let mut duplicates = 0;
        for (hash, record) in &game.positions {
            if seen.insert(*hash) {
                fresh.extend_from_slice(&record.to_bytes());
            } else {
                duplicates += 1;
            }
        }
        if let Err(e) = out.write_all(&fresh).and_then(|()| out.flush()) {
            failure = Some(e);
            stop.store(true, Ordering::SeqCst);
            return;
        }
        if let Ok(mut written) = written.lock() {
            written.games += 1;
            written.positions += (fresh.len() / 64) as u64;
            written.duplicates += duplicates;
            let seconds = started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{} positions, {:.0} a second",
                written.positions,
                written.positions as f64 / seconds
            ));
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e).with_context(|| format!("writing {place}"));
    }
    let summary = written
        .lock()
        .map(|w| w.summary(shard_games, &place, started.elapsed()))
        .unwrap_or_default();
    if stop.load(Ordering::SeqCst) {
        eprintln!("waggle datagen: interrupted: {summary}");
        return Ok(interrupt::exit_code());
    }
    eprintln!("waggle datagen: {summary}");
    Ok(ExitCode::SUCCESS)
}
