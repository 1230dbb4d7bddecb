//! Tuning the evaluation: self-play games as data (`selfplay`, stored by `data`), and weights fitted to their
//! results (`fit`). `waggle selfplay` and `waggle tune` are the programs; the README says how to run them.

pub mod fit;
pub mod selfplay;
