//! The arena: `waggle match` plays UHP engines against each other, judges every move with Waggle's own rules,
//! and says who is stronger.
//!
//! The rooms: `process` (an engine as a child process), `referee` (one game), `schedule` (who plays whom, shards),
//! `openings` (random and from a book), `runner` (a whole match, concurrency, the SPRT stop), `results` (the
//! results file and the summary's arithmetic), `stats` (Elo, LOS, SPRT), `report` (the words) and `console` (what
//! `waggle match` prints).

mod console;
mod process;
mod referee;
mod report;
mod results;
mod runner;
mod schedule;
mod stats;

pub use crate::record::openings::{read_book as read_openings, OpeningsError};
pub use console::{merge, play_match};
pub use referee::{GameSettings, MoveLimit};
pub use results::ResultsError;
pub use runner::{EngineSpec, MatchConfig, MatchControl, MatchError, MatchOutcome, Openings};
pub use schedule::Shard;
pub use stats::{SettingError, SprtSettings};
