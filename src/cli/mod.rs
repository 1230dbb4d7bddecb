//! The subcommands' shared parts.

pub mod interrupt;
