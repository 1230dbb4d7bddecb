//! Fuzzing the readers of game records, BoardSpace's `.sgf` above all: the records of tests/data/records damaged
//! (bytes changed, inserted and deleted, SGF's brackets, parentheses and backslashes thrown in, actions swapped,
//! dropped or repeated, verbs, pieces, cells and racks changed, the text cut short), and records of random actions
//! (every verb, with words that fit and words that do not), read with `waggle::record::read_sgf`; and damaged
//! `.pgn` records read with `read_pgn`.
//!
//! The properties: the reader never panics; a game it gives replays (every move legal, under the opening its record
//! shows) to the very moves it holds, and written as a `.pgn` reads back as the same game; a refusal of an action
//! names the action's player property. The short run is part of `cargo test` (a fixed seed; `WAGGLE_FUZZ_SEED=N`
//! for another); the long one is ignored: `cargo test --release --test fuzz_records -- --ignored --nocapture` (a
//! seed from the clock unless given). A failure prints the seed and the text that failed.

use std::panic::{self, AssertUnwindSafe};
use std::time::Instant;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use waggle::record::{read_pgn, read_sgf, GameRecord, SgfError};
use waggle::Rules;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records");

/// The records the damaged cases are made from: every `.sgf` and `.pgn` of tests/data/records.
fn seeds(extension: &str) -> Vec<String> {
    let mut names: Vec<_> = std::fs::read_dir(DATA)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect();
    names.sort();
    names
        .iter()
        .map(|path| std::fs::read_to_string(path).unwrap())
        .collect()
}

const VERBS: [&str; 27] = [
    "Start",
    "Pick",
    "Pickb",
    "Drop",
    "Dropb",
    "Pdropb",
    "Move",
    "PMove",
    "MoveDone",
    "PMoveDone",
    "Pass",
    "PassDone",
    "NullMove",
    "Done",
    "Resign",
    "OfferDraw",
    "AcceptDraw",
    "DeclineDraw",
    "WinOnTime",
    "PlayWhite",
    "PlayBlack",
    "Edit",
    "Swap",
    "Teleport",
    "Undo",
    "PleaseUndo",
    "peek",
];
const PIECES: [&str; 18] = [
    "wQ", "bQ", "wA1", "bA3", "wS2", "bB1", "wG3", "bM", "wL1", "bP", "q", "a2", "b1", "G1", "wA4", "x", "wé1", "bM1",
];
const COLUMNS: [&str; 10] = ["A", "M", "N", "O", "Z", "1A", "2Z", "AA", "n", "5"];
const ROWS: [&str; 9] = ["1", "12", "13", "14", "26", "27", "0", "-3", "99999"];
const JUNK: [&str; 14] = [
    "[", "]", "(", ")", ";", "\\", "\\\\", "\n", " ", "P0[", "]P1[", "GM[3]", "é", "\u{feff}",
];

/// The char boundary at or before `at` in `text`.
fn boundary(text: &str, at: usize) -> usize {
    (0..=at.min(text.len()))
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// A word of a random action: usually one that fits where it stands.
fn word(rng: &mut StdRng, choices: &[&str]) -> String {
    choices.choose(rng).unwrap().to_string()
}

/// A random action's value: a verb and words, with or without a sequence number.
fn random_action(rng: &mut StdRng, number: usize) -> String {
    let verb = word(rng, &VERBS);
    let rack = if rng.gen_bool(0.5) { "W" } else { "B" };
    let words = match verb.as_str() {
        "Pick" | "Drop" => format!("{rack} {} {}", rng.gen_range(0..9), word(rng, &PIECES)),
        "Pickb" => format!("{} {} {}", word(rng, &COLUMNS), word(rng, &ROWS), word(rng, &PIECES)),
        "Dropb" | "Pdropb" => format!("{} {} {} .", word(rng, &PIECES), word(rng, &COLUMNS), word(rng, &ROWS)),
        "Move" | "PMove" | "MoveDone" | "PMoveDone" => {
            format!(
                "{rack} {} {} {}",
                word(rng, &PIECES),
                word(rng, &COLUMNS),
                word(rng, &ROWS)
            )
        }
        "Start" => "P0".to_string(),
        _ => String::new(),
    };
    let mut action = format!("{verb} {words}");
    if rng.gen_ratio(1, 10) {
        // Words dropped from the end.
        let keep = rng.gen_range(0..=action.len());
        action.truncate(boundary(&action, keep));
    }
    if rng.gen_bool(0.8) {
        format!("{number} {action}")
    } else {
        action
    }
}

/// A record of random actions, some of them the start of a real game so that moves get played.
fn random_record(rng: &mut StdRng) -> String {
    let variant = [
        "hive",
        "hive-plm",
        "Hive-M",
        "hive-lp",
        "hive-pielm",
        "hive-ultimate",
        "hive-x",
    ]
    .choose(rng)
    .unwrap();
    let mut text = format!("(;GM[27]SU[{variant}]P0[id \"a\"]P1[id \"b\"]\n");
    let opening = [
        "Pick W 1 wS1",
        "Dropb wS1 N 13 .",
        "Done",
        "Pick B 1 bS1",
        "Dropb bS1 O 13 wS1-",
        "Done",
        "Move W wQ M 13 -wS1",
        "Done",
        "Move B bQ P 13 bS1-",
        "Done",
    ];
    let real = rng.gen_range(0..=opening.len());
    for (number, action) in opening.iter().take(real).enumerate() {
        text.push_str(&format!(";P{}[{number} {action}]\n", (number / 3) % 2));
    }
    for number in real..real + rng.gen_range(0..30) {
        text.push_str(&format!(";P{}[{}]\n", rng.gen_range(0..2), random_action(rng, number)));
    }
    text.push(')');
    text
}

/// `text` damaged a few times over.
fn damaged(rng: &mut StdRng, text: &str) -> String {
    let mut text = text.to_string();
    for _ in 0..*[1, 1, 1, 2, 3].choose(rng).unwrap() {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        match rng.gen_range(0..10) {
            // A byte changed, inserted or deleted.
            0..=2 if !text.is_empty() => {
                let mut bytes = text.into_bytes();
                let at = rng.gen_range(0..bytes.len());
                match rng.gen_range(0..3) {
                    0 => bytes[at] = rng.gen(),
                    1 => bytes.insert(at, *b"[]();\\ \nPpWwBb0123456789".choose(rng).unwrap()),
                    _ => {
                        bytes.remove(at);
                    }
                }
                text = String::from_utf8_lossy(&bytes).into_owned();
                continue;
            }
            // Junk inserted.
            3 => {
                let at = boundary(&text, rng.gen_range(0..=text.len()));
                text.insert_str(at, &word(rng, &JUNK));
                continue;
            }
            // Cut short.
            4 => {
                let at = boundary(&text, rng.gen_range(0..=text.len()));
                text.truncate(at);
                continue;
            }
            // Two lines swapped, one dropped, one repeated.
            5 if lines.len() > 2 => {
                let (a, b) = (rng.gen_range(0..lines.len()), rng.gen_range(0..lines.len()));
                lines.swap(a, b);
            }
            6 if lines.len() > 2 => {
                lines.remove(rng.gen_range(0..lines.len()));
            }
            7 if !lines.is_empty() => {
                let at = rng.gen_range(0..lines.len());
                let copy = lines[at].clone();
                lines.insert(at, copy);
            }
            // A word of an action changed for another that may or may not fit.
            _ if !lines.is_empty() => {
                let at = rng.gen_range(0..lines.len());
                let mut words: Vec<String> = lines[at].split(' ').map(String::from).collect();
                let which = rng.gen_range(0..words.len());
                words[which] = match rng.gen_range(0..5) {
                    0 => word(rng, &VERBS),
                    1 => word(rng, &PIECES),
                    2 => word(rng, &COLUMNS),
                    3 => word(rng, &ROWS),
                    _ => word(rng, &["W", "B", "w", "b", "X", "."]),
                };
                lines[at] = words.join(" ");
            }
            _ => {}
        }
        text = lines.join("\n");
    }
    text
}

/// Check one `.sgf` text against the properties; the reason it fails them.
fn check_sgf(text: &str) -> Result<&'static str, String> {
    let read = panic::catch_unwind(AssertUnwindSafe(|| read_sgf(text, Some("T!HV-a-b.sgf"))))
        .map_err(|_| "the reader panicked".to_string())?;
    match read {
        Ok(game) => {
            check_game(&game)?;
            Ok("read")
        }
        Err(SgfError::Action { player, .. }) if player.is_empty() => Err("a refusal that names no player".into()),
        Err(error) if error.to_string().is_empty() => Err("a refusal without words".into()),
        Err(_) => Ok("refused"),
    }
}

/// A game a reader gave: it replays to the moves it holds, and reads back the same from its `.pgn`.
fn check_game(game: &GameRecord) -> Result<(), String> {
    let replayed = game
        .replay(Rules::default())
        .map_err(|e| format!("a game read does not replay: {e}"))?;
    if replayed.record() != game.record.moves.as_slice() {
        return Err(format!("moves not canonical: {}", game.record));
    }
    let text = game.to_string();
    let again = read_pgn(&text).map_err(|e| format!("its .pgn does not read back: {e}\n{text}"))?;
    if again.len() != 1 || again[0].record.moves != game.record.moves || again[0].result() != game.result() {
        return Err(format!("its .pgn reads back otherwise:\n{text}"));
    }
    Ok(())
}

/// Check one `.pgn` text: the reader never panics, and a game it gives that replays reads back the same.
fn check_pgn(text: &str) -> Result<&'static str, String> {
    let read =
        panic::catch_unwind(AssertUnwindSafe(|| read_pgn(text))).map_err(|_| "the reader panicked".to_string())?;
    let Ok(games) = read else {
        return Ok("refused");
    };
    for game in &games {
        if let Ok(replayed) = game.replay(Rules::default()) {
            let mut canonical = game.clone();
            canonical.record.moves = replayed.record().to_vec();
            check_game(&canonical)?;
        }
    }
    Ok("read")
}

/// Run `cases` cases from `seed`; panic with the seed and the text of the first failure.
fn fuzz(name: &str, seed: u64, cases: usize) {
    let (sgfs, pgns) = (seeds("sgf"), seeds("pgn"));
    let start = Instant::now();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = std::collections::BTreeMap::<String, usize>::new();
    // The whole records read as they are, first.
    for text in &sgfs {
        assert_eq!(check_sgf(text), Ok("read"), "{text}");
    }
    for case in 0..cases {
        let (kind, text, result) = match rng.gen_range(0..10) {
            0..=4 => {
                let seed = sgfs.choose(&mut rng).unwrap();
                let text = damaged(&mut rng, seed);
                let result = check_sgf(&text);
                ("damaged .sgf", text, result)
            }
            5..=7 => {
                let text = random_record(&mut rng);
                let result = check_sgf(&text);
                ("random actions", text, result)
            }
            _ => {
                let seed = pgns.choose(&mut rng).unwrap();
                let text = damaged(&mut rng, seed);
                let result = check_pgn(&text);
                ("damaged .pgn", text, result)
            }
        };
        match result {
            Ok(outcome) => *tally.entry(format!("{kind}: {outcome}")).or_default() += 1,
            Err(why) => panic!(
                "fuzz_records {name} failed, seed {seed} (WAGGLE_FUZZ_SEED={seed} replays it), case {case} ({kind}): \
                 {why}\n--- the text:\n{text}"
            ),
        }
    }
    println!(
        "fuzz_records {name}: seed {seed}, {cases} cases, {:.1} s, no failure",
        start.elapsed().as_secs_f64()
    );
    for (what, count) in &tally {
        println!("  {what}: {count}");
    }
    // The cases reach both sides of the reader.
    assert!(tally.keys().any(|k| k.ends_with(": read")) && tally.keys().any(|k| k.ends_with(": refused")));
}

/// The run's seed: `WAGGLE_FUZZ_SEED`, else `default` (or, with none, one from the clock).
fn run_seed(default: Option<u64>) -> u64 {
    if let Some(seed) = std::env::var("WAGGLE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()) {
        return seed;
    }
    default.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |t| t.as_nanos() as u64)
    })
}

#[test]
fn short_fuzz_of_the_record_readers() {
    fuzz("short", run_seed(Some(20_260_048)), 20_000);
}

#[test]
#[ignore = "long: 300,000 cases; run with --release -- --ignored --nocapture"]
fn long_fuzz_of_the_record_readers() {
    fuzz("long", run_seed(None), 300_000);
}
