//! UHP commands: one input line to one typed command, and a command back to the line that sends it. The engine's
//! session reads commands with this; the arena writes them to other engines with the same type.

use std::fmt;
use std::time::Duration;

use super::time::{format_time, parse_time};

/// How long `bestmove` may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// `bestmove time hh:mm:ss`: answer within this time.
    Time(Duration),
    /// `bestmove depth N`: search N plies.
    Depth(u32),
}

/// A command a viewer, a script, a person or the arena may send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `info`
    Info,
    /// `newgame [GameTypeString | GameString]`
    NewGame(Option<String>),
    /// `play MoveString`
    Play(String),
    /// `pass`
    Pass,
    /// `validmoves`
    ValidMoves,
    /// `bestmove time hh:mm:ss` or `bestmove depth N`
    BestMove(SearchLimit),
    /// `undo [N]`
    Undo(usize),
    /// `options`
    Options,
    /// `options get Name`
    OptionsGet(String),
    /// `options set Name Value`
    OptionsSet(String, String),
    /// `help`
    Help,
    /// `perft N`
    Perft(u32),
    /// `board`
    Board,
    /// `history`
    History,
    /// `exit`
    Exit,
}

/// The deepest `perft` the session runs: deeper ones take hours.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// A line that is not a command, or a command with the wrong arguments; the text says what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CommandError(pub String);

impl Command {
    /// Parse one line: `Ok(None)` for a blank line. Command names are accepted in any case, with any blanks
    /// around and between the words.
    pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
        let line = line.trim();
        let Some(name) = line.split_whitespace().next() else {
            return Ok(None);
        };
        let rest = line[name.len()..].trim();
        let args: Vec<&str> = rest.split_whitespace().collect();
        let fail = |message: String| Err(CommandError(message));
        let command = match name.to_ascii_lowercase().as_str() {
            "info" => Command::Info,
            "newgame" => Command::NewGame((!rest.is_empty()).then(|| rest.to_string())),
            "play" if !rest.is_empty() => Command::Play(rest.to_string()),
            "play" => return fail("play needs a MoveString, for example: play wS1".into()),
            "pass" => Command::Pass,
            "validmoves" => Command::ValidMoves,
            "bestmove" => match args.as_slice() {
                [kind, value] if kind.eq_ignore_ascii_case("time") => match parse_time(value) {
                    Some(time) => Command::BestMove(SearchLimit::Time(time)),
                    None => {
                        return fail(format!(
                            "'{value}' is not a time: expected hh:mm:ss, for example 00:00:05 or 00:00:00.5"
                        ))
                    }
                },
                [kind, value] if kind.eq_ignore_ascii_case("depth") => match value.parse() {
                    Ok(depth) => Command::BestMove(SearchLimit::Depth(depth)),
                    Err(_) => return fail(format!("'{value}' is not a depth: expected a whole number of plies")),
                },
                _ => return fail("bestmove needs 'time hh:mm:ss' or 'depth N'".into()),
            },
            "undo" => match args.as_slice() {
                [] => Command::Undo(1),
                [n] => match n.parse() {
                    Ok(n) if n > 0 => Command::Undo(n),
                    _ => return fail(format!("'{n}' is not a number of moves to undo")),
                },
                _ => return fail("undo takes at most one number".into()),
            },
            "options" => match args.as_slice() {
                [] => Command::Options,
                [get, name] if get.eq_ignore_ascii_case("get") => Command::OptionsGet(name.to_string()),
                [set, name, value] if set.eq_ignore_ascii_case("set") => {
                    Command::OptionsSet(name.to_string(), value.to_string())
                }
                _ => return fail("options takes nothing, 'get <Name>' or 'set <Name> <Value>'".into()),
            },
            "help" => Command::Help,
            "perft" => match args.as_slice() {
                [n] => match n.parse() {
                    Ok(n) if n <= MAX_PERFT_DEPTH => Command::Perft(n),
                    _ => return fail(format!("'{n}' is not a perft depth (0 to {MAX_PERFT_DEPTH})")),
                },
                _ => return fail("perft needs a depth, for example: perft 3".into()),
            },
            "board" => Command::Board,
            "history" => Command::History,
            "exit" | "quit" => Command::Exit,
            _ => return fail(format!("Unknown command '{name}'. Try 'help'.")),
        };
        Ok(Some(command))
    }
}

impl fmt::Display for Command {
    /// The line that sends this command (without the line break).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Info => f.write_str("info"),
            Command::NewGame(None) => f.write_str("newgame"),
            Command::NewGame(Some(game)) => write!(f, "newgame {game}"),
            Command::Play(mv) => write!(f, "play {mv}"),
            Command::Pass => f.write_str("pass"),
            Command::ValidMoves => f.write_str("validmoves"),
            Command::BestMove(SearchLimit::Time(time)) => write!(f, "bestmove time {}", format_time(*time)),
            Command::BestMove(SearchLimit::Depth(depth)) => write!(f, "bestmove depth {depth}"),
            Command::Undo(n) => write!(f, "undo {n}"),
            Command::Options => f.write_str("options"),
            Command::OptionsGet(name) => write!(f, "options get {name}"),
            Command::OptionsSet(name, value) => write!(f, "options set {name} {value}"),
            Command::Help => f.write_str("help"),
            Command::Perft(depth) => write!(f, "perft {depth}"),
            Command::Board => f.write_str("board"),
            Command::History => f.write_str("history"),
            Command::Exit => f.write_str("exit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_in_any_case_with_blanks() {
        assert_eq!(
            Command::parse("  PLAY   wS1  \r"),
            Ok(Some(Command::Play("wS1".into())))
        );
        assert_eq!(Command::parse("\t"), Ok(None));
        assert_eq!(Command::parse("undo 3"), Ok(Some(Command::Undo(3))));
        assert_eq!(
            Command::parse("bestmove time 00:00:00.5000000"),
            Ok(Some(Command::BestMove(SearchLimit::Time(Duration::from_millis(500)))))
        );
        assert_eq!(
            Command::parse("bestmove DEPTH 2"),
            Ok(Some(Command::BestMove(SearchLimit::Depth(2))))
        );
        for bad in [
            "bestmove time 5",
            "undo -1",
            "undo 0",
            "frobnicate",
            "perft 13",
            "play",
            "options set X",
        ] {
            assert!(Command::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_command_reads_back_from_its_line() {
        for command in [
            Command::Info,
            Command::NewGame(None),
            Command::NewGame(Some("Base+MLP;InProgress;Black[1];wS1".into())),
            Command::Play("bA1 -wS1".into()),
            Command::Pass,
            Command::ValidMoves,
            Command::BestMove(SearchLimit::Time(Duration::from_secs(5))),
            Command::BestMove(SearchLimit::Time(Duration::from_millis(1250))),
            Command::BestMove(SearchLimit::Depth(3)),
            Command::Undo(2),
            Command::Options,
            Command::OptionsGet("MaxHashSize".into()),
            Command::OptionsSet("MaxHashSize".into(), "32".into()),
            Command::Help,
            Command::Perft(3),
            Command::Board,
            Command::History,
            Command::Exit,
        ] {
            assert_eq!(
                Command::parse(&command.to_string()),
                Ok(Some(command.clone())),
                "{command}"
            );
        }
        assert_eq!(
            Command::BestMove(SearchLimit::Time(Duration::from_secs(5))).to_string(),
            "bestmove time 00:00:05"
        );
    }
}
