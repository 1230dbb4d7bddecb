//! The lines that arrive while the session is busy, parsed once as they come, to run afterwards in order. A
//! `stop` or `exit` among them may be meant for the search in progress, or for one that a waiting line starts:
//! the queue says which.

use std::collections::VecDeque;

use crate::uhp::{Command, CommandError};

/// One line waiting: what it says, and the line itself (a failure's report names the command as it was sent).
pub(super) struct Waiting {
    pub command: Result<Command, CommandError>,
    pub line: String,
}

impl Waiting {
    /// `line` read as a command; `None` for a blank line, which says nothing and gets no reply.
    pub fn read(line: &str) -> Option<Waiting> {
        let command = Command::parse(line).transpose()?;
        Some(Waiting {
            command,
            line: line.trim().to_string(),
        })
    }

    fn starts_search(&self) -> bool {
        matches!(self.command, Ok(Command::BestMove(_) | Command::Analyze(..)))
    }
}

/// Lines waiting their turn, oldest first.
#[derive(Default)]
pub(super) struct Queue(VecDeque<Waiting>);

impl Queue {
    pub fn push(&mut self, waiting: Waiting) {
        self.0.push_back(waiting);
    }

    pub fn pop(&mut self) -> Option<Waiting> {
        self.0.pop_front()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Whether a waiting line starts a search of its own (a `stop` that comes after it is that search's).
    pub fn starts_search(&self) -> bool {
        self.0.iter().any(Waiting::starts_search)
    }

    /// The first `stop` or `exit` among the waiting lines that comes before any line that starts a search: the one
    /// that a search just started from the queue would have heard while it ran.
    pub fn control(&self) -> Option<&Command> {
        for waiting in &self.0 {
            match &waiting.command {
                Ok(command @ (Command::Stop | Command::Exit)) => return Some(command),
                _ if waiting.starts_search() => return None,
                _ => {}
            }
        }
        None
    }
}
