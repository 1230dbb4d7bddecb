//! The perft reference table (perft.md): start positions of all eight game types to depth 5 and the mid-game
//! positions to depth 4 run here; the deeper rows are `#[ignore]`d (`cargo test --release --test perft_table --
//! --ignored`).

mod common;

use std::sync::atomic::AtomicBool;

use waggle::perft::{divide_until, perft};
use waggle::{GameType, MoveString, Position};

/// perft(1..=6) of the start positions, in `GameType::ALL` order.
const START: [[u64; 6]; 8] = [
    [4, 96, 1440, 21600, 516240, 12219480],
    [5, 150, 2610, 45414, 1252800, 34233432],
    [5, 150, 2610, 45414, 1252800, 34233672],
    [5, 150, 2610, 45414, 1255932, 34395984],
    [6, 216, 4320, 86400, 2725920, 85201200],
    [6, 216, 4320, 86400, 2730888, 85492248],
    [6, 216, 4320, 86400, 2730240, 85457136],
    [7, 294, 6678, 151686, 5427108, 192353904],
];

/// (position file, perft from depth 1)
const MIDGAME: &[(&str, &[u64])] = &[
    ("selfplay40", &[99, 10919, 980821, 97521107]),
    ("long2", &[57, 3031, 316896, 32619652, 4046141437]),
    ("long3", &[57, 3031, 316896, 32619652]),
    ("mosquito", &[10, 660, 12473, 718139, 27222915, 1542247823]),
    ("beetlegate", &[4, 202, 5249, 229472]),
    ("beetle_gate", &[36, 965, 44307, 1749084, 93269761]),
    ("pillbug_stun", &[2, 168, 951, 73909, 509832]),
    ("ladybug_gate", &[7, 475, 15989, 902605, 39791995]),
    ("pillbug_gate", &[2, 88, 276, 13622, 124089]),
    ("ant_midgame", &[16, 912, 37589, 2729747, 121775339]),
];

fn load(name: &str) -> Position {
    let path = format!("{}/tests/data/positions/{name}.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    common::position(text.trim()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn check(pos: &mut Position, name: &str, expected: &[u64], depths: std::ops::RangeInclusive<usize>) {
    for depth in depths {
        let Some(&want) = expected.get(depth - 1) else { continue };
        assert_eq!(perft(pos, depth as u32), want, "{name} perft({depth})");
    }
}

#[test]
fn start_positions_to_depth_5() {
    for (game, row) in GameType::ALL.into_iter().zip(START) {
        check(&mut Position::new(game), &game.to_string(), &row, 1..=5);
    }
}

#[test]
fn midgame_positions_to_depth_4() {
    for &(name, row) in MIDGAME {
        check(&mut load(name), name, row, 1..=4);
    }
}

#[test]
fn divide_sums_to_perft_with_distinct_moves() {
    let mut pos = load("selfplay40");
    let parts = divide_until(&mut pos, 2, &AtomicBool::new(false)).unwrap();
    assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), 10919);
    let mut names: Vec<String> = parts
        .iter()
        .map(|&(mv, _)| MoveString::from_move(&pos, mv).to_string())
        .collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), 99);
}

#[test]
#[ignore = "deep: minutes in release"]
fn start_positions_depth_6() {
    for (game, row) in GameType::ALL.into_iter().zip(START) {
        check(&mut Position::new(game), &game.to_string(), &row, 6..=6);
    }
}

#[test]
#[ignore = "deep: minutes in release"]
fn midgame_positions_deeper_rows() {
    for &(name, row) in MIDGAME {
        check(&mut load(name), name, row, 5..=6);
    }
}
