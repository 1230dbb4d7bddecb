//! Tuning the evaluation: self-play games (`selfplay`, stored as games files by `crate::record::games`), the
//! positions drawn from them (`samples`), and weights fitted to their results (`fit`). `waggle selfplay` and
//! `waggle tune` are the programs; docs/tuning.md says how to run them.

mod fit;
mod samples;
mod selfplay;

pub use fit::{fit, Fit, FitSettings};
pub use samples::{samples, ReplayError, Sample};
pub use selfplay::{play as selfplay, SelfPlay};
