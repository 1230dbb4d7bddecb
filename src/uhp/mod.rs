//! The Universal Hive Protocol: its vocabulary (commands, replies, search lines, times, options and their values, each
//! readable and writable, which the arena also speaks to the engines it referees) and the [`Session`] that speaks it
//! for Waggle's engine.
//!
//! The vocabulary owns text only; what a command does is the engine's business, and the session's order of
//! things.

mod command;
mod info;
mod options;
mod reply;
mod session;
mod time;

pub(crate) use command::{Command, CommandError, SearchLimit, CLOCK_CAPABILITY};
pub(crate) use info::InfoLine;
pub(crate) use options::option_line;
pub use options::{option_kind, parse_option, parse_value, OptionKind, ValueText};
pub use reply::{Outcome, Reply, ReplyReader};
pub use session::{Event, Flow, Session};
