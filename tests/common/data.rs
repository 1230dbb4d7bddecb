//! The test data that tests and benches share: the positions of `tests/data/positions/` by name and the perft
//! reference counts of `tests/data/perft.tsv`. It reads them and says where a file is wrong; whether the program
//! agrees with them is for each test to check.
#![allow(dead_code)]

use waggle::{Game, GameStringError, GameType, Position, Rules};

/// The directory of the test data.
pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// The position a GameString (or a GameTypeString) describes, every move replayed and checked: its syntax
/// (`parse`), then its meaning (`Game::from_record`).
pub fn position(text: &str) -> Result<Position, GameStringError> {
    Ok(Game::from_record(&text.parse()?, Rules::default())?.position().clone())
}

/// The position the moves of a GameString reach, its state and turn fields not looked at (as Mzinga reads the
/// GameStrings of its own test suite, whose fields are often not those of their moves).
pub fn replayed(text: &str) -> Result<Position, GameStringError> {
    Ok(Game::from_moves(&text.parse()?, Rules::default())?.position().clone())
}

/// The GameString of a position of the test data: a GameTypeString is its own (the start of that game type), any
/// other NAME is the one in `tests/data/positions/NAME.txt`.
pub fn game_string(name: &str) -> String {
    if name.parse::<GameType>().is_ok() {
        return name.to_string();
    }
    let path = format!("{DATA}/positions/{name}.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.trim().to_string()
}

/// The position of the test data called `name` (see [`game_string`]).
pub fn named_position(name: &str) -> Position {
    position(&game_string(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A row of `tests/data/perft.tsv`: perft(`depth`) of `position` is `count`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftReference {
    /// A GameTypeString or the name of a file of `tests/data/positions/`, as [`game_string`] takes it.
    pub position: String,
    pub depth: u32,
    pub count: u64,
    /// Too long for `cargo test`: counted only by the ignored tests.
    pub deep: bool,
}

/// Every row of `tests/data/perft.tsv`, in the file's order.
pub fn perft_references() -> Vec<PerftReference> {
    let path = format!("{DATA}/perft.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.starts_with('#') && !line.trim().is_empty())
        .map(|(i, line)| {
            perft_row(line)
                .unwrap_or_else(|| panic!("{path} line {}: not POSITION, DEPTH, COUNT, test|deep: {line:?}", i + 1))
        })
        .collect()
}

fn perft_row(line: &str) -> Option<PerftReference> {
    let [position, depth, count, run] = line.split('\t').collect::<Vec<_>>()[..] else {
        return None;
    };
    Some(PerftReference {
        position: position.to_string(),
        depth: depth.parse().ok()?,
        count: count.parse().ok()?,
        deep: match run {
            "test" => false,
            "deep" => true,
            _ => return None,
        },
    })
}

/// The reference count perft(`depth`) of `position`.
pub fn perft_count(position: &str, depth: u32) -> u64 {
    perft_references()
        .into_iter()
        .find(|r| r.position == position && r.depth == depth)
        .unwrap_or_else(|| panic!("no perft({depth}) of {position} in tests/data/perft.tsv"))
        .count
}
