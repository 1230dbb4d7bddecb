//! Move-generation speed: single-thread bulk perft on the positions of docs/speed.md's speed table, in leaves per
//! second (best of three runs). Every count is checked against its row of `tests/data/perft.tsv`, so a fast wrong
//! generator fails.
//!
//! `cargo bench --bench movegen` runs the table; `cargo bench --bench movegen -- --deep` adds the long rows.
//! Instructions per leaf, the repeatable figure, come from `benches/callgrind.sh`.

#[path = "../tests/common/data.rs"]
mod data;

use std::time::Instant;

use waggle::perft::perft;

/// (position as `tests/data/perft.tsv` names it, depth, deep only)
const ROWS: &[(&str, u32, bool)] = &[
    ("Base", 6, false),
    ("Base+MLP", 6, false),
    ("selfplay40", 4, false),
    ("long2", 4, false),
    ("mosquito", 5, false),
    ("mosquito", 6, true),
    ("long2", 5, true),
];

fn main() {
    let deep = std::env::args().any(|a| a == "--deep");
    println!(
        "{:<16} {:>5} {:>14} {:>10} {:>12}",
        "position", "depth", "leaves", "seconds", "M leaves/s"
    );
    for &(name, depth, deep_only) in ROWS {
        if deep_only && !deep {
            continue;
        }
        let expected = data::perft_count(name, depth);
        let mut pos = data::named_position(name);
        let name = if name.parse::<waggle::GameType>().is_ok() {
            format!("{name} start")
        } else {
            name.to_string()
        };
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
