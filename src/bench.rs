//! The search benchmark: a fixed set of positions (start positions of several game types and the mid-game
//! positions of the test data) searched to a fixed depth with one thread and a fixed table size. The total node
//! count is a signature: a change that does not mean to change the search must leave it exactly as it was.
//!
//! Owns the positions and the run; printing is the caller's.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineError, Evaluation, HashSize, HelperThreads, OptionValue, Options};
use crate::record::notation::GameStringError;
use crate::search::{Limits, Stopper};

/// The table size of every bench search.
const TABLE: HashSize = HashSize::fixed(16);

/// The bench positions: a name and a GameTypeString or GameString.
const POSITIONS: [(&str, &str); 15] = [
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

/// The bench, ready to run: an engine with the bench's options.
pub struct Bench {
    engine: Engine,
    depth: u32,
}

impl Bench {
    /// The depth `waggle bench` searches when none is given.
    pub const DEFAULT_DEPTH: u32 = 7;

    /// How many positions the bench searches.
    pub const POSITIONS: usize = POSITIONS.len();

    /// The same bench with another evaluation than the default one: to compare their speeds (the signature is the
    /// default evaluation's).
    pub fn with_evaluation(mut self, evaluation: Evaluation) -> Result<Bench, EngineError> {
        self.engine.set_option(OptionValue::Evaluation(evaluation))?;
        Ok(self)
    }

    /// A bench of `depth`, with `helpers` helper threads (0 for the signature).
    pub fn new(depth: u32, helpers: usize) -> Result<Bench, EngineError> {
        let options = Options {
            max_hash_size: TABLE,
            max_helper_threads: HelperThreads::helpers(helpers),
            // The bench measures the search, never the book.
            opening_book: false,
            ..Options::default()
        };
        Ok(Bench {
            engine: Engine::new(options)?,
            depth,
        })
    }

    /// A handle that ends the search in progress (with `interrupted` raised too, so that the run stops there).
    pub fn stopper(&self) -> Stopper {
        self.engine.stopper()
    }

    /// Search every bench position to the depth from a fresh table, reporting each as it finishes; once
    /// `interrupted` is raised (and the search in progress stopped), the run ends with the positions done so far.
    /// Returns the lines of the positions searched to the end: all [`Bench::POSITIONS`] unless interrupted. Their
    /// nodes add up to the signature, for a whole run with no helpers.
    pub fn run(
        &mut self,
        interrupted: &AtomicBool,
        mut on_line: impl FnMut(&BenchLine),
    ) -> Result<Vec<BenchLine>, EngineError> {
        let mut lines = Vec::with_capacity(POSITIONS.len());
        for (name, game) in POSITIONS {
            self.engine
                .new_game(&game.trim().parse().map_err(GameStringError::from)?)?;
            let start = Instant::now();
            let thought = self.engine.best_move(&Limits::depth(self.depth), |_| {})?;
            if interrupted.load(Ordering::SeqCst) {
                break;
            }
            let line = BenchLine {
                name,
                nodes: thought.report.nodes,
                score: thought.report.score,
                best: thought.best.to_string(),
                elapsed: start.elapsed(),
            };
            on_line(&line);
            lines.push(line);
        }
        Ok(lines)
    }
}
