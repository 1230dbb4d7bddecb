//! Fuzzing the ways into the puzzles: `waggle puzzles` over damaged game records (the records of tests/data and
//! self-play games, bytes changed, inserted, deleted and cut, several files at once, in a directory or named), and
//! the puzzle file's reader and the solver over damaged puzzle records and random moves.
//!
//! The properties: the miner never panics and ends with status 0 or 2; every refusal it prints names its file; the
//! file it writes reads back with nothing refused. The reader never panics; a puzzle it gives can be solved, and
//! no move typed (legal or not) makes the solver panic. The short run is part of `cargo test` (a fixed seed;
//! `WAGGLE_FUZZ_SEED=N` for another); the long one is ignored: `cargo test --release --test fuzz_puzzles --
//! --ignored --nocapture`. A failure prints the seed and the case.

mod common;

use std::path::Path;

use common::{Scratch, Waggle};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use waggle::puzzles::{read_puzzles, Attempt};
use waggle::MoveString;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The records the damaged files are made from.
fn seeds() -> Vec<(String, &'static str)> {
    let mut seeds = Vec::new();
    for entry in std::fs::read_dir(format!("{ROOT}/tests/data/records")).unwrap() {
        let path = entry.unwrap().path();
        match path.extension().and_then(|e| e.to_str()) {
            Some("pgn") => seeds.push((std::fs::read_to_string(&path).unwrap(), "pgn")),
            Some("sgf") => seeds.push((std::fs::read_to_string(&path).unwrap(), "sgf")),
            _ => {}
        }
    }
    let games = std::fs::read_to_string(format!("{ROOT}/tests/data/puzzles/selfplay20.txt")).unwrap();
    for line in games.lines().take(4) {
        seeds.push((format!("{line}\n"), "txt"));
    }
    seeds.push((
        std::fs::read_to_string(format!("{ROOT}/tests/data/puzzles/known.txt")).unwrap(),
        "txt",
    ));
    seeds.sort();
    seeds
}

const JUNK: [&str; 16] = [
    ";",
    "\t",
    "\n",
    " ",
    "[",
    "]",
    "(",
    ")",
    "\\",
    "/",
    "-",
    "wQ",
    "bA1 -wQ",
    "é",
    "\u{feff}",
    "InProgress",
];

/// `text` damaged a few times.
fn damage(text: &str, rng: &mut StdRng) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        let at = rng.gen_range(0..=bytes.len());
        match rng.gen_range(0..5) {
            0 => bytes.truncate(at),
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            2 if at < bytes.len() => bytes[at] = rng.gen(),
            _ => {
                let junk = JUNK.choose(rng).unwrap();
                bytes.splice(at..at, junk.bytes());
            }
        }
    }
    bytes
}

/// One batch: damaged files written to `dir` and mined; `Err` says what went wrong.
fn mine_batch(seed: u64, seeds: &[(String, &str)], dir: &Path) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("records")).unwrap();
    let mut args = Vec::new();
    let mut names = Vec::new();
    for index in 0..rng.gen_range(1..=3) {
        let (text, extension) = seeds.choose(&mut rng).unwrap();
        let bytes = if rng.gen_bool(0.8) {
            damage(text, &mut rng)
        } else {
            text.as_bytes().to_vec()
        };
        // In the directory (where .pgn and .sgf are picked up) or named on the command line.
        let in_directory = *extension != "txt" && rng.gen_bool(0.5);
        let path = if in_directory {
            dir.join("records").join(format!("game{index}.{extension}"))
        } else {
            dir.join(format!("game{index}.{extension}"))
        };
        std::fs::write(&path, &bytes).unwrap();
        names.push(path.display().to_string());
        if !in_directory {
            args.push(path.display().to_string());
        }
    }
    if args.is_empty() || rng.gen_bool(0.3) {
        args.push(dir.join("records").display().to_string());
    }
    let out = dir.join("out.jsonl").display().to_string();
    let run = Waggle::new(["puzzles"])
        .args(&args)
        .args(["--out", &out, "--plies", "2", "--budget", "200000"])
        .run();
    let context = || format!("seed {seed}: {args:?}\n{}\n{}", run.stdout, run.stderr);
    if !matches!(run.code(), Some(0) | Some(2)) {
        return Err(format!("status {:?}: {}", run.code(), context()));
    }
    if run.stderr.contains("panicked") {
        return Err(format!("a panic: {}", context()));
    }
    for line in run.stderr.lines() {
        let Some(refusal) = line.strip_prefix("waggle puzzles: ") else {
            return Err(format!("an unknown line '{line}': {}", context()));
        };
        let named = names.iter().chain(&args).any(|name| refusal.starts_with(name.as_str()));
        if !named {
            return Err(format!("a refusal that names no file '{line}': {}", context()));
        }
    }
    let written = match std::fs::read_to_string(&out) {
        Ok(written) => written,
        // Every game refused: nothing to mine, and no file.
        Err(_) if run.code() == Some(2) => return Ok(()),
        Err(e) => return Err(format!("no file written ({e}): {}", context())),
    };
    let read = read_puzzles(&written);
    if !read.refused.is_empty() {
        return Err(format!(
            "the file does not read back: {:?}: {}",
            read.refused,
            context()
        ));
    }
    Ok(())
}

/// One damaged puzzle file read, and each puzzle in it tried with random moves; `Err` says what went wrong.
fn read_batch(seed: u64, lines: &[String]) -> Result<(), String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut text = String::new();
    for _ in 0..rng.gen_range(1..=3) {
        let line = lines.choose(&mut rng).unwrap();
        let bytes = if rng.gen_bool(0.7) {
            damage(line, &mut rng)
        } else {
            line.as_bytes().to_vec()
        };
        text.push_str(&String::from_utf8_lossy(&bytes));
        text.push('\n');
    }
    let outcome = std::panic::catch_unwind(|| {
        let read = read_puzzles(&text);
        let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
        for puzzle in read.puzzles {
            let Ok(mut attempt) = Attempt::new(puzzle) else {
                continue;
            };
            for _ in 0..4 {
                let legal = attempt.game().legal_moves();
                let typed = if rng.gen_bool(0.8) && !legal.is_empty() {
                    attempt.game().move_string(*legal.choose(&mut rng).unwrap()).to_string()
                } else {
                    JUNK.choose(&mut rng).unwrap().to_string()
                };
                if let Ok(name) = typed.parse::<MoveString>() {
                    let _ = attempt.try_move(name);
                }
            }
            let _ = attempt.rest_of_solution();
        }
    });
    outcome.map_err(|_| format!("seed {seed}: a panic reading or solving:\n{text}"))
}

/// Puzzle records to damage: mined from the known positions.
fn puzzle_lines(dir: &Path) -> Vec<String> {
    let out = dir.join("known.jsonl").display().to_string();
    let run = Waggle::new([
        "puzzles",
        &format!("{ROOT}/tests/data/puzzles/known.txt"),
        "--out",
        &out,
        "--plies",
        "3",
    ])
    .run();
    assert!(run.success(), "{}", run.stderr);
    std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn fuzz(name: &str, seed: u64, batches: usize, readings: usize) {
    let scratch = Scratch::new(name);
    let seeds = seeds();
    for batch in 0..batches {
        let case = seed.wrapping_mul(6364136223846793005).wrapping_add(batch as u64);
        if let Err(e) = mine_batch(case, &seeds, &scratch.0.join("batch")) {
            panic!("{e}");
        }
    }
    let lines = puzzle_lines(&scratch.0);
    for reading in 0..readings {
        let case = seed.wrapping_mul(1442695040888963407).wrapping_add(reading as u64);
        if let Err(e) = read_batch(case, &lines) {
            panic!("{e}");
        }
    }
    println!("{name}: seed {seed}, {batches} mining runs and {readings} puzzle files, all as they should be");
}

/// The seed: `WAGGLE_FUZZ_SEED`, else `default`, else the clock.
fn run_seed(default: Option<u64>) -> u64 {
    std::env::var("WAGGLE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .or(default)
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        })
}

#[test]
fn short_fuzz_of_the_puzzles() {
    fuzz("fuzz-puzzles", run_seed(Some(63)), 30, 300);
}

#[test]
#[ignore = "long: 2,000 mining runs and 20,000 puzzle files; run with --release -- --ignored --nocapture"]
fn long_fuzz_of_the_puzzles() {
    fuzz("fuzz-puzzles-long", run_seed(None), 2_000, 20_000);
}
