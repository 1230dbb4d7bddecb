//! UHP replies: the lines an engine prints for one command, ended by `ok`, with at most one `err …` or
//! `invalidmove …` line saying the command failed. The engine's session writes replies with this type; the arena
//! reads other engines' replies with it.

use std::fmt;

/// How a command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It did what was asked.
    Ok,
    /// `err <message>`: it failed.
    Err(String),
    /// `invalidmove <message>`: the move it was given cannot be played.
    InvalidMove(String),
}

/// The reply to one command: its output lines (an `err` or `invalidmove` line not among them) and how it ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The lines before `ok`, other than an `err` or `invalidmove` line.
    pub lines: Vec<String>,
    /// How the command ended.
    pub outcome: Outcome,
}

impl Reply {
    /// A successful reply with these lines.
    pub fn ok(lines: Vec<String>) -> Reply {
        Reply {
            lines,
            outcome: Outcome::Ok,
        }
    }

    /// A failed reply: `err <message>`.
    pub fn err(message: impl Into<String>) -> Reply {
        Reply {
            lines: Vec::new(),
            outcome: Outcome::Err(message.into()),
        }
    }

    /// A refused move: `invalidmove <message>`.
    pub fn invalid_move(message: impl Into<String>) -> Reply {
        Reply {
            lines: Vec::new(),
            outcome: Outcome::InvalidMove(message.into()),
        }
    }

    /// The last output line, which for `bestmove` is the move.
    pub fn last_line(&self) -> Option<&str> {
        self.lines.last().map(String::as_str)
    }
}

impl fmt::Display for Reply {
    /// The lines as an engine prints them, `ok` included, each ended by a line break.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in &self.lines {
            writeln!(f, "{line}")?;
        }
        match &self.outcome {
            Outcome::Ok => {}
            Outcome::Err(message) => writeln!(f, "err {message}")?,
            Outcome::InvalidMove(message) => writeln!(f, "invalidmove {message}")?,
        }
        writeln!(f, "ok")
    }
}

/// Collects an engine's output, line by line, into replies.
#[derive(Default, Debug)]
pub struct ReplyReader {
    lines: Vec<String>,
    outcome: Option<Outcome>,
}

impl ReplyReader {
    /// Take one output line (line break and blanks at the end ignored); returns the reply once its `ok` arrives.
    pub fn push(&mut self, line: &str) -> Option<Reply> {
        let line = line.trim_end();
        if line == "ok" {
            return Some(Reply {
                lines: std::mem::take(&mut self.lines),
                outcome: self.outcome.take().unwrap_or(Outcome::Ok),
            });
        }
        let failure = if let Some(message) = word_then(line, "err") {
            Some(Outcome::Err(message))
        } else {
            word_then(line, "invalidmove").map(Outcome::InvalidMove)
        };
        match failure {
            // The first failure line is the one that counts.
            Some(outcome) => {
                self.outcome.get_or_insert(outcome);
            }
            None => self.lines.push(line.to_string()),
        }
        None
    }

    /// Lines read since the last complete reply.
    pub fn pending(&self) -> &[String] {
        &self.lines
    }
}

/// The rest of `line` after the word `word` (alone, or followed by a blank), trimmed.
fn word_then(line: &str, word: &str) -> Option<String> {
    let rest = line.strip_prefix(word)?;
    (rest.is_empty() || rest.starts_with([' ', '\t'])).then(|| rest.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Reply> {
        let mut reader = ReplyReader::default();
        text.lines().filter_map(|line| reader.push(line)).collect()
    }

    #[test]
    fn replies_are_split_at_ok_and_failures_recognised() {
        let replies =
            read("id Waggle v0.1.0\nMosquito;Ladybug;Pillbug\nok\nerr No game\nok\ninvalidmove Nope.\nok\nok\r\n");
        assert_eq!(replies.len(), 4);
        assert_eq!(replies[0].lines, ["id Waggle v0.1.0", "Mosquito;Ladybug;Pillbug"]);
        assert_eq!(replies[1].outcome, Outcome::Err("No game".into()));
        assert_eq!(replies[2].outcome, Outcome::InvalidMove("Nope.".into()));
        assert_eq!(replies[3], Reply::ok(vec![]));
        // A word that only starts like a failure is an ordinary line.
        assert_eq!(read("errata\nok\n")[0].lines, ["errata"]);
    }

    #[test]
    fn a_reply_reads_back_from_its_text() {
        for reply in [
            Reply::ok(vec!["Base;NotStarted;White[1]".into()]),
            Reply::err("The game is over (Draw)."),
            Reply::invalid_move("You can't pass when you have valid moves."),
        ] {
            assert_eq!(read(&reply.to_string()), [reply]);
        }
    }
}
