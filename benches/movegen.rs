//! Move-generation speed: single-thread bulk perft on the positions of the speed table in perft.md, in leaves per
//! second (best of three runs). Every count is checked against the reference, so a fast wrong generator fails.
//!
//! `cargo bench --bench movegen` runs the table; `cargo bench --bench movegen -- --deep` adds the long rows.
//! Instructions per leaf, the repeatable figure, come from `benches/callgrind.sh`.

use std::time::Instant;

use waggle::perft::perft;
use waggle::Position;

const SELFPLAY40: &str = "Base+MLP;InProgress;White[21];wM;bM \\wM;wP /wM;bP -bM;wQ wM-;bQ \\bM;wA1 /wP;bP \\wQ;wA1 wQ-;bA1 bP/;wA1 \\bQ;wQ bA1\\;wA1 \\bA1;wQ /wA1;bM wM\\;bQ bQ\\;bP bP\\;bA1 bA1/;wP wQ\\;bP bP/;wA2 \\wA1;bA2 bP\\;bQ /wM;bA2 /wQ;wA2 -bQ;bA3 -bA2;bM bA3\\;bQ wM\\;bP wA1\\;bA1 bP\\;bQ bM\\;bA3 -wA1;wA1 bQ\\;bM -bA2;wA3 /wA1;bL bA1/;wA3 /bM;bM wP\\;bA2 /bA2;bB1 bA1\\";
const LONG2: &str = "Base+MLP;InProgress;White[15];wM;bM wM\\;wL \\wM;bL bM\\;wP \\wL;bP bL\\;wQ \\wP;bQ bP\\;wS1 \\wQ;bS1 bQ\\;wS2 \\wS1;bS2 bS1\\;wB1 \\wS2;bB1 bS2\\;wB2 \\wB1;bB2 bB1\\;wG1 \\wB2;bG1 bB2\\;wG2 \\wG1;bG2 bG1\\;wG3 \\wG2;bG3 bG2\\;wA1 \\wG3;bA1 bG3\\;wA2 \\wA1;bA2 bA1\\;wA3 \\wA2;bA3 bA2\\";
const MOSQUITO: &str = "Base+M;InProgress;White[13];wM;bG1 wM-;wS1 /wM;bQ bG1-;wQ /wS1;bB1 bG1\\;wB1 /wQ;bB1 wM\\;wS2 /wB1;bA1 bQ-;wB2 wS2\\;bA1 bQ\\;wG1 wB2-;bA1 bQ-;wG2 wG1/;bA1 bQ\\;wG3 wG2/;bA1 bQ-;wA1 wG3-;bA1 bQ/;wA2 wA1-;bA1 bQ-;wA3 wA2\\;bA1 /wA3";

/// (name, GameString, depth, reference count, deep only)
const ROWS: &[(&str, &str, u32, u64, bool)] = &[
    ("Base start", "Base", 6, 12_219_480, false),
    ("Base+MLP start", "Base+MLP", 6, 192_353_904, false),
    ("selfplay40", SELFPLAY40, 4, 97_521_107, false),
    ("long2", LONG2, 4, 32_619_652, false),
    ("mosquito", MOSQUITO, 5, 27_222_915, false),
    ("mosquito", MOSQUITO, 6, 1_542_247_823, true),
    ("long2", LONG2, 5, 4_046_141_437, true),
];

fn main() {
    let deep = std::env::args().any(|a| a == "--deep");
    println!(
        "{:<16} {:>5} {:>14} {:>10} {:>12}",
        "position", "depth", "leaves", "seconds", "M leaves/s"
    );
    for &(name, game, depth, expected, deep_only) in ROWS {
        if deep_only && !deep {
            continue;
        }
        let mut pos = position(game).expect("bench positions are valid");
        let runs = if deep_only { 1 } else { 3 };
        let mut best = f64::INFINITY;
        for _ in 0..runs {
            let start = Instant::now();
            let count = perft(&mut pos, depth);
            best = best.min(start.elapsed().as_secs_f64());
            assert_eq!(count, expected, "{name} perft({depth})");
        }
        println!(
            "{name:<16} {depth:>5} {expected:>14} {best:>10.3} {:>12.1}",
            expected as f64 / best / 1e6
        );
    }
}

/// The position a GameString (or a GameTypeString) describes, every move replayed and checked.
fn position(text: &str) -> Result<Position, waggle::GameStringError> {
    Ok(waggle::Game::from_record(&text.parse()?, waggle::Rules::default())?
        .position()
        .clone())
}
