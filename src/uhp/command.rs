//! UHP commands: one input line to one typed command, and a command back to the line that sends it. The engine's
//! session reads commands with this; the arena writes them to other engines with the same type.

use std::fmt;
use std::time::Duration;

use super::time::{format_time, parse_time};
use crate::engine::{EngineOption, OptionError};
use crate::record::notation::{GameString, MoveString, NotationError};

/// How long `bestmove` (or `analyze`) may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// `time hh:mm:ss`: answer within this time.
    Time(Duration),
    /// `depth N`: search N plies.
    Depth(u32),
    /// `nodes N`: visit N nodes (repeatable, like a depth).
    Nodes(u64),
    /// `clock OWN OWN_INC OPP OPP_INC`: both sides' clocks; the engine budgets the move itself.
    Clock {
        own: Duration,
        own_increment: Duration,
        opponent: Duration,
        opponent_increment: Duration,
    },
    /// No limit: until `stop` (only `analyze`).
    Infinite,
}

/// The capability an engine lists in its `info` block when it understands `bestmove clock`.
pub const CLOCK_CAPABILITY: &str = "Clock";

/// A command a viewer, a script, a person or the arena may send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `info`
    Info,
    /// `newgame [GameTypeString | GameString]`: a new Base game, or the game the GameString describes.
    NewGame(Option<GameString>),
    /// `play MoveString`
    Play(MoveString),
    /// `pass`
    Pass,
    /// `validmoves`
    ValidMoves,
    /// `bestmove time hh:mm:ss`, `bestmove depth N`, `bestmove nodes N` or `bestmove clock …`
    BestMove(SearchLimit),
    /// `analyze N [time hh:mm:ss | depth D | nodes K]`: the N best moves.
    Analyze(usize, SearchLimit),
    /// `stop`: end the running `bestmove` or `analyze`.
    Stop,
    /// `undo [N]`
    Undo(usize),
    /// `options`
    Options,
    /// `options get Name`
    OptionsGet(EngineOption),
    /// `options set Name Value` (the value is read against the option, by `uhp::parse_value`, once the engine's
    /// options are at hand)
    OptionsSet(EngineOption, String),
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

/// Most lines `analyze` gives.
pub const MAX_ANALYZE: usize = 64;

/// A search limit: `time T`, `depth N`, `nodes N` or `clock A B C D`; `Ok(None)` when the words are none of these.
fn parse_limit(args: &[&str]) -> Result<Option<SearchLimit>, CommandError> {
    let time = |value: &str| parse_time(value).ok_or_else(|| CommandError::Time(value.to_string()));
    let Some((kind, values)) = args.split_first() else {
        return Ok(None);
    };
    Ok(Some(match (kind.to_ascii_lowercase().as_str(), values) {
        ("time", [value]) => SearchLimit::Time(time(value)?),
        ("depth", [value]) => SearchLimit::Depth(value.parse().map_err(|_| CommandError::Depth(value.to_string()))?),
        ("nodes", [value]) => SearchLimit::Nodes(
            value
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| CommandError::Nodes(value.to_string()))?,
        ),
        ("clock", [own, own_increment, opponent, opponent_increment]) => SearchLimit::Clock {
            own: time(own)?,
            own_increment: time(own_increment)?,
            opponent: time(opponent)?,
            opponent_increment: time(opponent_increment)?,
        },
        _ => return Ok(None),
    }))
}

/// The option called `name` (any case); an unknown one is refused with the list of options.
fn option(name: &str) -> Result<EngineOption, CommandError> {
    super::options::parse_option(name).map_err(CommandError::Option)
}

/// The commands that take no argument.
const TAKE_NOTHING: [&str; 9] = [
    "info",
    "pass",
    "validmoves",
    "stop",
    "help",
    "board",
    "history",
    "exit",
    "quit",
];

/// A line that is not a command, or a command with the wrong arguments; the text says what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// No command of that name.
    #[error("Unknown command '{0}'. Try 'help'.")]
    Unknown(String),
    /// The command's arguments are not of the forms it takes.
    #[error("{0}")]
    Usage(Usage),
    /// Words after a command that takes none.
    #[error("{command} takes no argument, but was given '{given}'")]
    NoArgument {
        /// The command, in lower case.
        command: String,
        /// The words after it.
        given: String,
    },
    /// A time that is not `hh:mm:ss[.fraction]`.
    #[error("'{0}' is not a time: expected hh:mm:ss, for example 00:00:05 or 00:00:00.5")]
    Time(String),
    /// A search depth that is not a whole number.
    #[error("'{0}' is not a depth: expected a whole number of plies")]
    Depth(String),
    /// A node count that is not a whole number above 0.
    #[error("'{0}' is not a number of nodes: expected a whole number above 0")]
    Nodes(String),
    /// A count of lines to analyze out of range.
    #[error("'{0}' is not a number of moves to analyze (1 to {MAX_ANALYZE})")]
    AnalyzeCount(String),
    /// A count of moves to take back that is not a whole number above 0.
    #[error("'{0}' is not a number of moves to undo")]
    UndoCount(String),
    /// A perft depth out of range.
    #[error("'{0}' is not a perft depth (0 to {MAX_PERFT_DEPTH})")]
    PerftDepth(String),
    /// `play` with text that is not a MoveString (answered `invalidmove`, as any move that cannot be played).
    #[error(transparent)]
    Move(NotationError),
    /// `newgame` with text that is neither a GameTypeString nor a GameString.
    #[error(transparent)]
    Game(NotationError),
    /// `options get` or `options set` with a name that is no option.
    #[error(transparent)]
    Option(OptionError),
}

/// The commands whose arguments can be wrong, each with the forms it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    /// `bestmove` without a limit it knows.
    BestMove,
    /// `analyze` without a count, or with a limit it does not take.
    Analyze,
    /// `play` without a move.
    Play,
    /// `undo` with more than one word.
    Undo,
    /// `options` with other words than `get Name` or `set Name Value`.
    Options,
    /// `perft` without a depth.
    Perft,
}

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Usage::BestMove => {
                "bestmove needs 'time hh:mm:ss', 'depth N', 'nodes N' or \
                 'clock OWN OWN_INCREMENT OPPONENT OPPONENT_INCREMENT' (times as hh:mm:ss)"
            }
            Usage::Analyze => {
                "analyze needs a number of moves, then at most one of 'time hh:mm:ss', 'depth N' or 'nodes N': \
                 analyze 3 depth 4"
            }
            Usage::Play => "play needs a MoveString, for example: play wS1",
            Usage::Undo => "undo takes at most one number",
            Usage::Options => "options takes nothing, 'get <Name>' or 'set <Name> <Value>'",
            Usage::Perft => "perft needs a depth, for example: perft 3",
        })
    }
}

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
        let usage = |usage| Err(CommandError::Usage(usage));
        let lowercase = name.to_ascii_lowercase();
        // A word after a command that takes none is a mistake (a typo, a word of another command): said, not
        // dropped.
        if !rest.is_empty() && TAKE_NOTHING.contains(&lowercase.as_str()) {
            return Err(CommandError::NoArgument {
                command: lowercase,
                given: rest.to_string(),
            });
        }
        let command = match lowercase.as_str() {
            "info" => Command::Info,
            "newgame" if rest.is_empty() => Command::NewGame(None),
            "newgame" => Command::NewGame(Some(rest.parse().map_err(CommandError::Game)?)),
            "play" if rest.is_empty() => return usage(Usage::Play),
            "play" => Command::Play(rest.parse().map_err(CommandError::Move)?),
            "pass" => Command::Pass,
            "validmoves" => Command::ValidMoves,
            "bestmove" => match parse_limit(&args)? {
                Some(limit) => Command::BestMove(limit),
                None => return usage(Usage::BestMove),
            },
            "analyze" => {
                let Some((count, rest)) = args.split_first() else {
                    return usage(Usage::Analyze);
                };
                let count = count
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| (1..=MAX_ANALYZE).contains(&n))
                    .ok_or_else(|| CommandError::AnalyzeCount(count.to_string()))?;
                match rest {
                    [] => Command::Analyze(count, SearchLimit::Infinite),
                    [kind, _] if kind.eq_ignore_ascii_case("clock") => return usage(Usage::Analyze),
                    _ => match parse_limit(rest)? {
                        Some(limit) => Command::Analyze(count, limit),
                        None => return usage(Usage::Analyze),
                    },
                }
            }
            "stop" => Command::Stop,
            "undo" => match args.as_slice() {
                [] => Command::Undo(1),
                [n] => match n.parse() {
                    Ok(n) if n > 0 => Command::Undo(n),
                    _ => return Err(CommandError::UndoCount(n.to_string())),
                },
                _ => return usage(Usage::Undo),
            },
            "options" => match args.as_slice() {
                [] => Command::Options,
                [get, name] if get.eq_ignore_ascii_case("get") => Command::OptionsGet(option(name)?),
                [set, name, value] if set.eq_ignore_ascii_case("set") => {
                    Command::OptionsSet(option(name)?, value.to_string())
                }
                _ => return usage(Usage::Options),
            },
            "help" => Command::Help,
            "perft" => match args.as_slice() {
                [n] => match n.parse() {
                    Ok(n) if n <= MAX_PERFT_DEPTH => Command::Perft(n),
                    _ => return Err(CommandError::PerftDepth(n.to_string())),
                },
                _ => return usage(Usage::Perft),
            },
            "board" => Command::Board,
            "history" => Command::History,
            "exit" | "quit" => Command::Exit,
            _ => return Err(CommandError::Unknown(name.to_string())),
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
            Command::BestMove(limit) => write!(f, "bestmove{}", limit_words(limit)),
            Command::Analyze(count, limit) => write!(f, "analyze {count}{}", limit_words(limit)),
            Command::Stop => f.write_str("stop"),
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

/// The words of a limit after its command, with a leading blank: ` time 00:00:05`, ` depth 3`.
fn limit_words(limit: &SearchLimit) -> String {
    match *limit {
        SearchLimit::Time(time) => format!(" time {}", format_time(time)),
        SearchLimit::Depth(depth) => format!(" depth {depth}"),
        SearchLimit::Nodes(nodes) => format!(" nodes {nodes}"),
        SearchLimit::Clock {
            own,
            own_increment,
            opponent,
            opponent_increment,
        } => format!(
            " clock {} {} {} {}",
            format_time(own),
            format_time(own_increment),
            format_time(opponent),
            format_time(opponent_increment)
        ),
        SearchLimit::Infinite => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_in_any_case_with_blanks() {
        assert_eq!(
            Command::parse("  PLAY   wS1  \r"),
            Ok(Some(Command::Play("wS1".parse().unwrap())))
        );
        assert_eq!(Command::parse("\t"), Ok(None));
        assert_eq!(Command::parse("undo 3"), Ok(Some(Command::Undo(3))));
        assert_eq!(
            Command::parse("options SET maxhashsize 32"),
            Ok(Some(Command::OptionsSet(EngineOption::MaxHashSize, "32".into())))
        );
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
            "options get Nope",
            "options set Nope 3",
        ] {
            assert!(Command::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_word_after_a_command_that_takes_none_is_refused() {
        assert_eq!(
            Command::parse("validmoves extra"),
            Err(CommandError::NoArgument {
                command: "validmoves".into(),
                given: "extra".into()
            })
        );
        for name in TAKE_NOTHING {
            let line = format!("{} x  y", name.to_ascii_uppercase());
            let said = Command::parse(&line).expect_err(&line).to_string();
            assert_eq!(said, format!("{name} takes no argument, but was given 'x  y'"));
            assert!(matches!(Command::parse(&format!(" {name} ")), Ok(Some(_))), "{name}");
        }
    }

    #[test]
    fn every_command_reads_back_from_its_line() {
        for command in [
            Command::Info,
            Command::NewGame(None),
            Command::NewGame(Some("Base+MLP;InProgress;Black[1];wS1".parse().unwrap())),
            Command::NewGame(Some("Base+M".parse().unwrap())),
            Command::Play("bA1 -wS1".parse().unwrap()),
            Command::Play(MoveString::Pass),
            Command::Pass,
            Command::ValidMoves,
            Command::BestMove(SearchLimit::Time(Duration::from_secs(5))),
            Command::BestMove(SearchLimit::Time(Duration::from_millis(1250))),
            Command::BestMove(SearchLimit::Depth(3)),
            Command::BestMove(SearchLimit::Nodes(12_345)),
            Command::BestMove(SearchLimit::Clock {
                own: Duration::from_millis(9_876),
                own_increment: Duration::from_millis(100),
                opponent: Duration::from_secs(10),
                opponent_increment: Duration::from_millis(100),
            }),
            Command::Analyze(3, SearchLimit::Infinite),
            Command::Analyze(2, SearchLimit::Time(Duration::from_millis(500))),
            Command::Stop,
            Command::Undo(2),
            Command::Options,
            Command::OptionsGet(EngineOption::MaxHashSize),
            Command::OptionsSet(EngineOption::ThreefoldRepetitionDraw, "True".into()),
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
