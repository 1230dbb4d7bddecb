//! Fuzzing the way into the games database: damaged records (the repository's `.pgn`, `.sgf` and games files with
//! bytes changed, inserted and deleted, moves swapped and dropped, the text cut short) imported by `waggle db add`
//! from a folder, and the games that still read added through `waggle::db` directly.
//!
//! The properties: the import never panics (it exits 0, or 2 naming what it refused); the database stays whole
//! and holds exactly the games that read, and the explorer answers for each of their positions. The short run is
//! part of `cargo test` (a fixed seed; `WAGGLE_FUZZ_SEED=N` for another); the long one is ignored: `cargo test
//! --release --test fuzz_db -- --ignored --nocapture` (a seed from the clock unless given). A failure prints the
//! seed.
#![cfg(feature = "db")]

mod common;

use std::path::Path;

use common::{Scratch, Waggle};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use waggle::db::{Database, NewGame};
use waggle::record::{read_pgn, read_sgf};
use waggle::{GameString, Rules};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The records the damaged ones are made from, with their file names.
fn seeds() -> Vec<(String, String)> {
    let mut found = Vec::new();
    for folder in ["tests/data/records", "tests/data/review", "tests/data/review/pgn"] {
        for entry in std::fs::read_dir(format!("{ROOT}/{folder}")).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_file() && [".pgn", ".sgf", ".txt"].iter().any(|ext| name.ends_with(ext)) {
                found.push((
                    name,
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned(),
                ));
            }
        }
    }
    found.sort();
    found
}

/// The char boundary at or before `at` in `text`.
fn boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// `text` damaged once or a few times.
fn damaged(text: &str, rng: &mut StdRng) -> String {
    const JUNK: [&str; 12] = ["[", "]", "{", "}", ";", "\t", "\n", "-", "\\", "wQ", "1. ", "é"];
    let mut text = text.to_string();
    for _ in 0..rng.gen_range(1..4) {
        let at = boundary(&text, rng.gen_range(0..=text.len()));
        match rng.gen_range(0..5) {
            0 => text.insert_str(at, JUNK.choose(rng).unwrap()),
            1 => {
                let end = boundary(&text, at + rng.gen_range(1..12));
                text.replace_range(at..end, "");
            }
            2 => text.truncate(at),
            3 => {
                // Two lines swapped: moves out of order.
                let mut lines: Vec<&str> = text.lines().collect();
                if lines.len() > 2 {
                    let (a, b) = (rng.gen_range(0..lines.len()), rng.gen_range(0..lines.len()));
                    lines.swap(a, b);
                }
                text = lines.join("\n");
            }
            _ => {
                let mut lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    lines.remove(rng.gen_range(0..lines.len()));
                }
                text = lines.join("\n");
            }
        }
    }
    text
}

/// One round: `count` damaged files in a folder, imported by the binary, then their readable games added through
/// the library.
fn round(seed: u64, count: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let scratch = Scratch::new(&format!("fuzz-db-{seed}"));
    let folder = scratch.path("records");
    std::fs::create_dir_all(&folder).unwrap();
    let seeds = seeds();
    let mut texts = Vec::new();
    for i in 0..count {
        let (name, text) = seeds.choose(&mut rng).unwrap();
        let broken = damaged(text, &mut rng);
        // A games file or GameStrings named directly; .pgn and .sgf read from the folder.
        let file = if name.ends_with(".txt") {
            scratch.path(&format!("{i}-{name}"))
        } else {
            format!("{folder}/{i}-{name}")
        };
        std::fs::write(&file, &broken).unwrap();
        texts.push((name.clone(), broken, file));
    }
    let path = scratch.path("games.sqlite");
    let mut args = vec!["db".to_string(), "add".into(), folder.clone()];
    args.extend(
        texts
            .iter()
            .filter(|(n, _, _)| n.ends_with(".txt"))
            .map(|(_, _, f)| f.clone()),
    );
    args.extend(["--db".into(), path.clone()]);
    let output = Waggle::new(&args).run();
    assert!(
        matches!(output.code(), Some(0 | 2)) && !output.stderr.contains("panicked"),
        "seed {seed}: {:?}\n{}",
        output.code(),
        output.stderr
    );
    let database = Database::open_existing(Path::new(&path)).unwrap();
    database.check().unwrap_or_else(|e| panic!("seed {seed}: {e}"));

    // The library's way in: whatever reads is added, and explored at its last position.
    let mut database = Database::open(Path::new(&scratch.path("direct.sqlite"))).unwrap();
    for (name, text, _) in &texts {
        let games = if name.ends_with(".sgf") {
            read_sgf(text, Some(name)).into_iter().collect()
        } else {
            read_pgn(text).unwrap_or_default()
        };
        let mut found: Vec<_> = games
            .iter()
            .filter_map(|record| {
                record.replay(Rules::default()).ok().map(|game| {
                    (
                        game,
                        record.tags().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
                    )
                })
            })
            .collect();
        for line in text.lines() {
            let game = line.rsplit('\t').next().unwrap_or(line);
            if let Ok(record) = game.parse::<GameString>() {
                if let Ok(game) = waggle::Game::from_moves(&record, Rules::default()) {
                    found.push((game, Vec::new()));
                }
            }
        }
        for (game, tags) in found {
            database.add_game(NewGame::of(&game, &tags, None, name)).unwrap();
            database.explore(&game, 5).unwrap();
        }
    }
    database.check().unwrap();
}

fn fuzz_seed() -> u64 {
    std::env::var("WAGGLE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60)
}

#[test]
fn damaged_records_never_make_the_import_panic() {
    let seed = fuzz_seed();
    round(seed, 60);
}

#[test]
#[ignore = "long: cargo test --release --test fuzz_db -- --ignored --nocapture"]
fn damaged_records_never_make_the_import_panic_long() {
    let start = std::env::var("WAGGLE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        });
    for seed in start..start + 50 {
        println!("seed {seed}");
        round(seed, 200);
    }
}
