//! Tuning the evaluation: self-play games (`selfplay`, stored as games files by `crate::record::games`), the
//! positions drawn from them (`samples`), and weights fitted to their results (`fit`); and the win curve that
//! turns a searched score into a chance of winning, fitted to the same results (`curve`). `waggle selfplay` and
//! `waggle tune` are the programs; docs/tuning.md says how to run them.

pub(crate) mod curve;
mod fit;
mod samples;
mod selfplay;

pub use curve::WinCurve;
pub use fit::{fit, Fit, FitSettings};
pub use samples::{samples, ReplayError, Sample};
pub use selfplay::{play as selfplay, SelfPlay};
