//! One command, run while the session is idle and has its engine: its reply, or the work it starts beside the
//! session (a search, a perft count), which will reply when done. What a command does is the engine's; here is
//! only which engine call each command is, and the words of the reply.

use crate::draw::board_text;
use crate::engine::{Engine, EngineError, EngineOption};
use crate::record::game::Game;
use crate::record::notation::MoveString;
use crate::rules::game_type::GameType;
use crate::rules::piece::Color;
use crate::search::{Clocks, Limits, SideClock, MAX_DEPTH};
use crate::uhp::{option_line, parse_value, Command, Reply, SearchLimit};

use super::help::{help_lines, info_lines};
use super::reply::answer;
use super::state::{Halt, Job};
use super::work::{Ask, PonderOn, Task};

/// What the session remembers between commands.
#[derive(Default)]
pub(super) struct Memory {
    /// The side the engine was last asked to move for, in this game.
    pub side: Option<Color>,
    /// Where to ponder once idle, if anywhere.
    pub ponder_on: Option<PonderOn>,
}

/// What a command comes to.
pub(super) enum Done {
    /// Its reply, to write at once.
    Reply(Reply),
    /// Work to run on a thread that has the engine; it replies when done.
    Work(Job, Task),
}

/// Run `command` (sent as `line`) with `engine`.
pub(super) fn run(engine: &mut Engine, memory: &mut Memory, command: Command, line: &str) -> Done {
    let game_line = |game: &Game| vec![game.game_string().to_string()];
    Done::Reply(match command {
        Command::Info => Reply::ok(info_lines()),
        Command::NewGame(record) => {
            let record = record.unwrap_or_else(|| GameType::BASE.into());
            *memory = Memory::default();
            answer(engine.new_game(&record).map(game_line), line)
        }
        Command::Play(name) => play(engine, memory, name, line),
        Command::Pass => play(engine, memory, MoveString::Pass, line),
        Command::ValidMoves => answer(
            engine.valid_moves().map(|moves| {
                let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                vec![names.join(";")]
            }),
            line,
        ),
        Command::BestMove(limit) => return search(engine, memory, Ask::Best, limit, line),
        Command::Analyze(count, limit) => return search(engine, memory, Ask::Lines(count), limit, line),
        Command::Stop | Command::Exit => Reply::ok(vec![]),
        Command::Undo(n) => {
            memory.ponder_on = None;
            answer(engine.undo(n).map(game_line), line)
        }
        Command::Options => Reply::ok(EngineOption::ALL.map(|o| option_line(o, engine.options())).to_vec()),
        Command::OptionsGet(option) => Reply::ok(vec![option_line(option, engine.options())]),
        Command::OptionsSet(option, value) => {
            let set = parse_value(option, &value, engine.options())
                .map_err(EngineError::from)
                .and_then(|value| engine.set_option(value));
            answer(set.map(|()| vec![option_line(option, engine.options())]), line)
        }
        Command::Help => Reply::ok(help_lines()),
        Command::Perft(depth) => return count(engine, depth, line),
        Command::Board => answer(
            engine
                .game()
                .map(|game| board_text(game.position()).lines().map(String::from).collect())
                .ok_or(EngineError::NoGame),
            line,
        ),
        Command::History => answer(
            engine
                .game()
                .map(|game| {
                    let record = game.record().iter().enumerate();
                    record.map(|(i, mv)| format!("{}. {mv}", i + 1)).collect()
                })
                .ok_or(EngineError::NoGame),
            line,
        ),
    })
}

/// `play` and `pass`; afterwards, in a game where the engine has been asked for a move, ponder on the new
/// position whoever is to move: when it is the opponent, the move just played is most likely the engine's
/// own (a viewer or a referee plays it back at once), and the opponent's thinking time is the time to use.
fn play(engine: &mut Engine, memory: &mut Memory, name: MoveString, line: &str) -> Reply {
    let result = engine.play(name).map(|game| vec![game.game_string().to_string()]);
    if result.is_ok() {
        memory.ponder_on = memory.side.is_some().then_some(PonderOn::Current);
    }
    answer(result, line)
}

/// `bestmove` or `analyze`: the search to start, or the error at once when there is nothing to search (so that
/// the reply does not wait for a thread).
fn search(engine: &mut Engine, memory: &mut Memory, ask: Ask, limit: SearchLimit, line: &str) -> Done {
    if let Err(e) = engine.valid_moves() {
        return Done::Reply(answer(Err(e), line));
    }
    if ask == Ask::Best {
        memory.side = engine.game().map(|g| g.position().to_move());
    }
    let limits = limits(limit);
    let job = Job {
        halt: Halt::Search(engine.stopper()),
        unbounded: limits.is_infinite(),
        line: line.to_string(),
        reporting: engine.options().report_intermediate_best_moves,
    };
    Done::Work(job, Task::Search { ask, limits })
}

/// A UHP limit as the search's.
fn limits(limit: SearchLimit) -> Limits {
    match limit {
        SearchLimit::Time(time) => Limits::time(time),
        SearchLimit::Depth(depth) => Limits::depth(depth.min(MAX_DEPTH)),
        SearchLimit::Nodes(nodes) => Limits::nodes(nodes),
        SearchLimit::Clock {
            own,
            own_increment,
            opponent,
            opponent_increment,
        } => Limits::clocks(Clocks {
            own: SideClock {
                remaining: own,
                increment: own_increment,
            },
            opponent: SideClock {
                remaining: opponent,
                increment: opponent_increment,
            },
        }),
        SearchLimit::Infinite => Limits::infinite(),
    }
}

/// `perft`: a count of the current position, each depth's line written as it is counted; a stop ends it with a
/// line that says how far the depth in progress got.
fn count(engine: &Engine, depth: u32, line: &str) -> Done {
    let Some(game) = engine.game() else {
        return Done::Reply(answer(Err(EngineError::NoGame), line));
    };
    let (task, stop) = Task::count(game.position().clone(), depth);
    let job = Job {
        halt: Halt::Count(stop),
        unbounded: false,
        line: line.to_string(),
        reporting: false,
    };
    Done::Work(job, task)
}
