//! Learning the network evaluation from Waggle's own games: the self-play that gathers training positions
//! (`datagen`, written in the format of `crate::record::training`), the positions as the trainer holds them
//! (`data`), the float network with its forward and backward passes (`model`), the training loop (`trainer`) and
//! its checkpoints. `waggle datagen` and `waggle train` are the programs; docs/eval.md says how the shipped net was
//! made.
//!
//! The trainer is written here rather than with a machine-learning crate: the net's first layer is sparse (a few
//! dozen of 2,548 inputs a position), which a general dense framework would spend most of its time multiplying by
//! zeros, and the whole of it (forward, backward, Adam) is a few hundred lines that share the engine's input
//! function and integer scales directly.

#[cfg(feature = "train")]
mod checkpoint;
#[cfg(feature = "train")]
mod data;
#[cfg(feature = "datagen")]
mod datagen;
#[cfg(feature = "train")]
mod model;
#[cfg(feature = "train")]
mod trainer;

#[cfg(feature = "train")]
pub use checkpoint::CheckpointError;
#[cfg(feature = "train")]
pub use data::{DataError, Dataset};
#[cfg(feature = "datagen")]
pub use datagen::{gather, Datagen, GameData, Shard};
#[cfg(feature = "train")]
pub use trainer::{Epoch, Schedule, Trainer};
