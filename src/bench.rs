//! The search benchmark: a fixed set of positions (start positions of several game types and the mid-game
//! positions of the test data) searched to a fixed depth with one thread and a fixed table size. The total node
//! count is a signature: a change that does not mean to change the search must leave it exactly as it was.
//!
//! Owns the positions and the run; printing is the caller's.

use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineError, HelperThreads, Options};
use crate::search::Limits;

/// The depth `waggle bench` searches when none is given.
pub const DEFAULT_DEPTH: u32 = 7;

/// The table size of every bench search, in MB.
pub const TABLE_MB: usize = 16;

/// The bench positions: a name and a GameTypeString or GameString.
pub const POSITIONS: [(&str, &str); 15] = [
    ("Base", "Base"),
    ("Base+M", "Base+M"),
    ("Base+L", "Base+L"),
    ("Base+P", "Base+P"),
    ("Base+MLP", "Base+MLP"),
    ("ant_midgame", include_str!("../tests/data/positions/ant_midgame.txt")),
    ("beetle_gate", include_str!("../tests/data/positions/beetle_gate.txt")),
    ("beetlegate", include_str!("../tests/data/positions/beetlegate.txt")),
    ("ladybug_gate", include_str!("../tests/data/positions/ladybug_gate.txt")),
    ("long2", include_str!("../tests/data/positions/long2.txt")),
    ("long3", include_str!("../tests/data/positions/long3.txt")),
    ("mosquito", include_str!("../tests/data/positions/mosquito.txt")),
    ("pillbug_gate", include_str!("../tests/data/positions/pillbug_gate.txt")),
    ("pillbug_stun", include_str!("../tests/data/positions/pillbug_stun.txt")),
    ("selfplay40", include_str!("../tests/data/positions/selfplay40.txt")),
];

/// One position's search.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    /// The position's name.
    pub name: &'static str,
    /// Nodes the search visited.
    pub nodes: u64,
    /// Its score, for the side to move.
    pub score: i32,
    /// The move it chose.
    pub best: String,
    /// How long it took.
    pub elapsed: Duration,
}

/// Search every bench position to `depth` from a fresh table, with `helpers` helper threads (0 for the
/// signature), reporting each as it finishes; returns the total node count (the signature, with no helpers) and
/// the time the searches took.
pub fn run(depth: u32, helpers: usize, mut on_line: impl FnMut(&BenchLine)) -> Result<(u64, Duration), EngineError> {
    let options = Options {
        max_hash_size: TABLE_MB,
        max_helper_threads: if helpers == 0 {
            HelperThreads::None
        } else {
            HelperThreads::Count(helpers)
        },
        // The bench measures the search, never the book.
        opening_book: false,
        ..Options::default()
    };
    let mut engine = Engine::new(options)?;
    let (mut nodes, mut elapsed) = (0, Duration::ZERO);
    for (name, game) in POSITIONS {
        engine.new_game(Some(game.trim()))?;
        let start = Instant::now();
        let thought = engine.best_move(&Limits::depth(depth), |_| {})?;
        let line = BenchLine {
            name,
            nodes: thought.report.nodes,
            score: thought.report.score,
            best: thought.best.to_string(),
            elapsed: start.elapsed(),
        };
        nodes += line.nodes;
        elapsed += line.elapsed;
        on_line(&line);
    }
    Ok((nodes, elapsed))
}
