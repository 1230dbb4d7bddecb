//! What the tests share: the binary run or started (`run`), or started at a pseudo-terminal (`pty`), the UHP engine
//! driven line by line (`engine`), scratch directories (`scratch`) and the test data (`data`). Each test file takes
//! what it needs.
#![allow(dead_code, unused_imports)]

pub mod data;
mod engine;
#[cfg(unix)]
pub mod pty;
mod run;
mod scratch;

pub use data::{position, replayed};
pub use engine::Engine;
pub use run::{lines, Output, Running, Waggle, WAGGLE};
pub use scratch::Scratch;
