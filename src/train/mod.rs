//! Learning the network evaluation from Waggle's own games: the self-play that gathers training positions
//! (`datagen`, written in the format of `crate::record::training`) and, in the rooms beside it, the trainer.
//! `waggle datagen` and `waggle train` are the programs; docs/eval.md says how the shipped net was made.

mod datagen;

pub use datagen::{gather, Datagen, GameData, Shard};
