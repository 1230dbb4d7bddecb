//! The UHP session: reads one command line at a time, has the [`Engine`] do it, and writes the reply. It is the
//! only writer of protocol output; every command ends with `ok`, and every failure is one `err …` or
//! `invalidmove …` line that leaves the game as it was.
//!
//! Searches run on a thread the session owns, with the engine lent to it, while the session goes on reading:
//! during `bestmove` or `analyze` a `stop` line (or SIGINT) ends the search, and other lines wait and run
//! afterwards in order; while pondering, any line stops the ponder search first. Nothing is printed while
//! pondering.
//!
//! Owns parsing lines into commands, turning results and errors into text, the help, and the order things happen
//! in. What a command does is the engine's business; reading stdin and handling signals is the binary's.

mod reply;

use std::collections::VecDeque;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread;

use crate::draw::board_text;
use crate::engine::{Engine, EngineError, SearchInfo, Thought};
use crate::record::notation::MoveString;
use crate::rules::game_type::GameType;
use crate::rules::moves::Move;
use crate::rules::perft::perft_by_depth;
use crate::rules::piece::Color;
use crate::search::{Clocks, Limits, SideClock, Stopper};
use crate::uhp::{option_line, Command, CommandError, Reply, SearchLimit, CLOCK_CAPABILITY};

use reply::{answer, info_line};

/// What the caller should do after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on reading.
    Continue,
    /// The session has ended.
    Exit,
}

/// What reaches a session: from outside, input lines, the end of input and interrupts; from its own search
/// threads, their progress and their end.
pub enum Event {
    /// One input line.
    Line(String),
    /// The input has ended: finish what is queued, then exit.
    End,
    /// SIGINT: stop a running `bestmove` or `analyze`; when there is none, exit.
    Interrupt,
    /// A search thread's progress (a completed depth).
    Progress(SearchInfo),
    /// A line of a reply in progress (a perft depth counted).
    Output(String),
    /// A search thread has finished and hands the engine back.
    Done(Box<Finished>),
}

/// A search thread's result, with the engine it borrowed.
pub struct Finished {
    engine: Engine,
    outcome: Outcome,
}

enum Outcome {
    Best(Result<Thought, EngineError>),
    Analysis(Result<Vec<Thought>, EngineError>),
    /// A perft count, its lines already written.
    Counted,
    Pondered,
}

/// What the session is doing.
enum State {
    Idle,
    /// A `bestmove` or `analyze` runs: lines wait, `stop` ends it.
    Searching(Search),
    /// Thinking on the opponent's time: any line ends it.
    Pondering(Stopper),
}

/// A `bestmove`, `analyze` or `perft` in progress.
struct Search {
    stopper: Halt,
    /// Only a stop ends it (an `analyze` without a limit): so does the end of input.
    unbounded: bool,
    /// The command line that started it, for the report of a failure.
    line: String,
}

/// How to end a job that runs beside the session.
enum Halt {
    /// A search, through the engine's stopper.
    Search(Stopper),
    /// A perft count, through its own flag.
    Count(Arc<AtomicBool>),
}

impl Halt {
    fn stop(&self) {
        match self {
            Halt::Search(stopper) => stopper.stop(),
            Halt::Count(flag) => flag.store(true, Ordering::SeqCst),
        }
    }
}

/// Where to ponder once idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PonderOn {
    /// The position after this move (the one the engine just recommended).
    After(Move),
    /// The current position (after a `play`, whoever is to move).
    Current,
}

/// One engine session over an output stream.
pub struct Session<W: Write> {
    out: W,
    /// The engine; lent to a search thread while one runs.
    engine: Option<Engine>,
    sender: Sender<Event>,
    events: Receiver<Event>,
    state: State,
    /// Lines that arrived during a search, to run after it.
    queue: VecDeque<String>,
    /// The input has ended.
    ended: bool,
    /// Search information to stderr as well.
    verbose: bool,
    /// The side the engine was last asked to move for.
    side: Option<Color>,
    /// Where to ponder when idle, if anywhere.
    ponder_on: Option<PonderOn>,
    /// Whether the search in progress prints intermediate lines (its engine, and so its options, are lent out).
    reporting: bool,
    /// The session ended on an interrupt (Ctrl-C while idle).
    interrupted: bool,
}

impl<W: Write> Session<W> {
    /// A session of `engine` writing to `out`.
    pub fn new(out: W, engine: Engine) -> Self {
        let (sender, events) = channel();
        Session {
            out,
            engine: Some(engine),
            sender,
            events,
            state: State::Idle,
            queue: VecDeque::new(),
            ended: false,
            verbose: false,
            side: None,
            ponder_on: None,
            reporting: false,
            interrupted: false,
        }
    }

    /// Also write each completed depth's search information to stderr (for a person at a terminal).
    pub fn set_verbose(&mut self, verbose: bool) {
        self.verbose = verbose;
    }

    /// Where input lines, the end of input and interrupts are to be sent (from other threads).
    pub fn sender(&self) -> Sender<Event> {
        self.sender.clone()
    }

    /// The stream replies are written to.
    pub fn output_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The engine, to look at (the game, the options) without going through the protocol; `None` while a search
    /// thread has it.
    pub fn engine(&self) -> Option<&Engine> {
        self.engine.as_ref()
    }

    /// Whether the session ended because it was interrupted (Ctrl-C while idle), not by `exit` or the input's end.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// The start-up block: the `info` reply.
    pub fn start(&mut self) -> io::Result<()> {
        let reply = Reply::ok(info_lines());
        self.write(&reply)
    }

    /// Run events from [`Session::sender`] until the session ends (`exit`, the end of input once the queued
    /// commands are done, or an interrupt while idle).
    pub fn run(&mut self) -> io::Result<()> {
        while let Ok(event) = self.events.recv() {
            if self.on_event(event)? == Flow::Exit {
                break;
            }
        }
        self.stop_pondering();
        Ok(())
    }

    /// Run one input line and whatever it starts (a search runs to its end), then return: for scripts and tests
    /// that drive the session line by line.
    pub fn handle(&mut self, line: &str) -> io::Result<Flow> {
        let mut flow = self.on_event(Event::Line(line.to_string()))?;
        while flow == Flow::Continue && !matches!(self.state, State::Idle) {
            if matches!(self.state, State::Pondering(_)) && self.queue.is_empty() {
                // Line by line, nobody waits for a ponder search: end it.
                self.stop_pondering();
                break;
            }
            match self.events.recv() {
                Ok(event) => flow = self.on_event(event)?,
                Err(_) => break,
            }
        }
        Ok(flow)
    }

    /// Take one event.
    pub fn on_event(&mut self, event: Event) -> io::Result<Flow> {
        match event {
            Event::Line(line) => match &self.state {
                State::Idle => self.run_line(&line).and_then(|flow| self.after(flow)),
                State::Searching(search) => match Command::parse(&line) {
                    // `exit` ends the search at once and leaves without another word: no move that a client
                    // could take for the answer.
                    Ok(Some(Command::Exit)) => {
                        self.shut_down();
                        Ok(Flow::Exit)
                    }
                    // `stop` ends the search, and has its own `ok` after the search's reply; a `stop` behind
                    // another waiting search's line is that one's.
                    command => {
                        if matches!(command, Ok(Some(Command::Stop))) && !self.queue.iter().any(|l| starts_search(l)) {
                            search.stopper.stop();
                        }
                        self.queue.push_back(line);
                        Ok(Flow::Continue)
                    }
                },
                State::Pondering(stopper) => {
                    stopper.stop();
                    self.queue.push_back(line);
                    Ok(Flow::Continue)
                }
            },
            Event::End => {
                self.ended = true;
                match &self.state {
                    State::Idle => Ok(Flow::Exit),
                    // A search with a limit finishes and answers (a game server closes the input right after
                    // `bestmove` and waits for the move); one that only a stop could end is stopped.
                    State::Searching(search) => {
                        if search.unbounded {
                            search.stopper.stop();
                        }
                        Ok(Flow::Continue)
                    }
                    State::Pondering(stopper) => {
                        stopper.stop();
                        Ok(Flow::Continue)
                    }
                }
            }
            Event::Interrupt => match &self.state {
                State::Searching(search) => {
                    search.stopper.stop();
                    Ok(Flow::Continue)
                }
                State::Idle | State::Pondering(_) => {
                    self.interrupted = true;
                    Ok(Flow::Exit)
                }
            },
            Event::Progress(info) => {
                self.report_progress(&info)?;
                Ok(Flow::Continue)
            }
            Event::Output(line) => {
                writeln!(self.out, "{line}")?;
                self.out.flush()?;
                Ok(Flow::Continue)
            }
            Event::Done(finished) => {
                let Finished { engine, outcome } = *finished;
                let line = match std::mem::replace(&mut self.state, State::Idle) {
                    State::Searching(search) => search.line,
                    _ => String::new(),
                };
                self.take_back(engine);
                let reply = match outcome {
                    Outcome::Best(result) => {
                        self.ponder_on = result.as_ref().ok().map(|t| PonderOn::After(t.report.best));
                        Some(answer(result.map(|thought| vec![thought.best.to_string()]), &line))
                    }
                    Outcome::Analysis(result) => Some(answer(
                        result.map(|lines| lines.iter().map(|t| info_line(t, None)).collect()),
                        &line,
                    )),
                    Outcome::Counted => Some(Reply::ok(Vec::new())),
                    Outcome::Pondered => None,
                };
                if let Some(reply) = reply {
                    self.write(&reply)?;
                }
                self.after(Flow::Continue)
            }
        }
    }

    /// Once a line or a search is done: run the lines that waited, then exit if the input ended, else ponder.
    /// Lines that waited behind a line that starts a search arrived, as far as that search is concerned, while it
    /// ran: a `stop` among them ends it at once, and an `exit` ends it and the session.
    fn after(&mut self, mut flow: Flow) -> io::Result<Flow> {
        while flow == Flow::Continue && matches!(self.state, State::Idle) {
            let Some(line) = self.queue.pop_front() else { break };
            flow = self.run_line(&line)?;
            if let State::Searching(search) = &self.state {
                match waiting_control(&self.queue) {
                    Some(Command::Stop) => search.stopper.stop(),
                    Some(Command::Exit) => {
                        self.shut_down();
                        return Ok(Flow::Exit);
                    }
                    _ => {}
                }
                if self.ended && search.unbounded {
                    search.stopper.stop();
                }
            }
        }
        if flow == Flow::Exit || (self.ended && matches!(self.state, State::Idle) && self.queue.is_empty()) {
            return Ok(Flow::Exit);
        }
        if matches!(self.state, State::Idle) && self.queue.is_empty() && !self.ended {
            self.start_pondering();
        }
        Ok(Flow::Continue)
    }

    fn write(&mut self, reply: &Reply) -> io::Result<()> {
        write!(self.out, "{reply}")?;
        self.out.flush()
    }

    /// Run one line while idle.
    fn run_line(&mut self, line: &str) -> io::Result<Flow> {
        let command = match Command::parse(line) {
            Ok(None) => return Ok(Flow::Continue),
            Ok(Some(Command::Exit)) => return Ok(Flow::Exit),
            Ok(Some(command)) => command,
            Err(e @ CommandError::Move(_)) => {
                self.write(&Reply::invalid_move(e.to_string()))?;
                return Ok(Flow::Continue);
            }
            Err(e) => {
                self.write(&Reply::err(e.to_string()))?;
                return Ok(Flow::Continue);
            }
        };
        // The engine turns its own panics into errors and keeps its game; a panic in the session's own work (a
        // drawing, a listing) becomes an `err` here, and the session goes on.
        let line = line.trim();
        let reply = panic::catch_unwind(AssertUnwindSafe(|| self.command(command, line))).unwrap_or_else(|panic| {
            let game = self
                .engine
                .as_ref()
                .and_then(Engine::game)
                .map(|g| g.game_string().to_string());
            Some(Reply::err(format!(
                "Waggle failed ({}); the game is unchanged. This is a bug in Waggle: please report it with the \
                 position {} and the command '{line}'.",
                crate::engine::panic_message(panic.as_ref()),
                game.unwrap_or_default()
            )))
        });
        if let Some(reply) = reply {
            self.write(&reply)?;
        }
        Ok(Flow::Continue)
    }

    /// Do `command`: the reply, or `None` when a search thread will give it.
    fn command(&mut self, command: Command, line: &str) -> Option<Reply> {
        let Some(engine) = self.engine.as_mut() else {
            return Some(Reply::err("The engine is busy."));
        };
        let game_line = |game: &crate::record::game::Game| vec![game.game_string().to_string()];
        Some(match command {
            Command::Info => Reply::ok(info_lines()),
            Command::NewGame(spec) => {
                let record = spec.unwrap_or_else(|| GameType::BASE.into());
                let reply = answer(engine.new_game(&record).map(game_line), line);
                (self.side, self.ponder_on) = (None, None);
                reply
            }
            Command::Play(name) => self.play(name, line),
            Command::Pass => self.play(MoveString::Pass, line),
            Command::ValidMoves => answer(
                engine.valid_moves().map(|moves| {
                    let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                    vec![names.join(";")]
                }),
                line,
            ),
            Command::BestMove(limit) => return self.search(1, limit, true, line),
            Command::Analyze(count, limit) => return self.search(count, limit, false, line),
            Command::Stop => Reply::ok(vec![]),
            Command::Undo(n) => {
                self.ponder_on = None;
                answer(engine.undo(n).map(game_line), line)
            }
            Command::Options => Reply::ok(engine.options().all().iter().map(option_line).collect()),
            Command::OptionsGet(option) => Reply::ok(vec![option_line(&engine.options().info(option))]),
            Command::OptionsSet(option, value) => {
                answer(engine.set_option(option, &value).map(|o| vec![option_line(&o)]), line)
            }
            Command::Help => Reply::ok(HELP.trim().lines().map(String::from).collect()),
            Command::Perft(depth) => return self.count(depth),
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
            Command::Exit => Reply::ok(vec![]),
        })
    }

    /// `play` and `pass`; afterwards, in a game where the engine has been asked for a move, ponder on the new
    /// position whoever is to move: when it is the opponent, the move just played is most likely the engine's
    /// own (a viewer or a referee plays it back at once), and the opponent's thinking time is the time to use.
    fn play(&mut self, name: MoveString, line: &str) -> Reply {
        let Some(engine) = self.engine.as_mut() else {
            return Reply::err("The engine is busy.");
        };
        let result = engine.play(name).map(|game| game.game_string().to_string());
        if result.is_ok() {
            self.ponder_on = self.side.is_some().then_some(PonderOn::Current);
        }
        answer(result.map(|game| vec![game]), line)
    }

    /// Start a search thread for `bestmove` (`count` 1, `best`) or `analyze`; `None` when it started (it will
    /// reply), else the error reply.
    fn search(&mut self, count: usize, limit: SearchLimit, best: bool, line: &str) -> Option<Reply> {
        let limits = match limit {
            SearchLimit::Time(time) => Limits::time(time),
            SearchLimit::Depth(depth) => Limits::depth(depth.min(crate::search::MAX_DEPTH)),
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
        };
        let mut engine = self.engine.take()?;
        // Refuse at once what cannot be searched, so that the reply does not wait for a thread.
        if let Err(e) = engine.valid_moves() {
            self.engine = Some(engine);
            return Some(answer(Err(e), line));
        }
        if best {
            self.side = engine.game().map(|g| g.position().to_move());
        }
        self.reporting = engine.options().report_intermediate_best_moves;
        let report = self.reporting || self.verbose;
        let stopper = Halt::Search(engine.stopper());
        let unbounded = limits.is_infinite();
        let sender = self.sender.clone();
        thread::spawn(move || {
            let progress = |info: &SearchInfo| {
                if report {
                    let _ = sender.send(Event::Progress(info.clone()));
                }
            };
            let outcome = if best {
                Outcome::Best(engine.best_move(&limits, progress))
            } else {
                Outcome::Analysis(engine.analyze(count, &limits, progress))
            };
            let _ = sender.send(Event::Done(Box::new(Finished { engine, outcome })));
        });
        self.state = State::Searching(Search {
            stopper,
            unbounded,
            line: line.to_string(),
        });
        None
    }

    /// Start a perft count of the current position on a thread of its own, each depth's line written as it is
    /// counted; `None` when it started (it will reply), else the error reply. A stop ends it with a line that
    /// says how far the depth in progress got.
    fn count(&mut self, depth: u32) -> Option<Reply> {
        let engine = self.engine.take()?;
        let Some(position) = engine.game().map(|game| game.position().clone()) else {
            self.engine = Some(engine);
            return Some(answer(Err(EngineError::NoGame), &format!("perft {depth}")));
        };
        let stop = Arc::new(AtomicBool::new(false));
        let (flag, sender) = (stop.clone(), self.sender.clone());
        thread::spawn(move || {
            for counted in perft_by_depth(&position, depth, &flag) {
                let line = match counted {
                    Ok(timed) => timed.to_string(),
                    Err(interrupted) => interrupted.to_string(),
                };
                let _ = sender.send(Event::Output(line));
            }
            let outcome = Outcome::Counted;
            let _ = sender.send(Event::Done(Box::new(Finished { engine, outcome })));
        });
        self.state = State::Searching(Search {
            stopper: Halt::Count(stop),
            unbounded: false,
            line: format!("perft {depth}"),
        });
        None
    }

    /// A completed depth: an intermediate line when ReportIntermediateBestMoves is on, and the same on stderr
    /// when verbose.
    fn report_progress(&mut self, info: &SearchInfo) -> io::Result<()> {
        let Some(best) = info.lines.first() else { return Ok(()) };
        let line = info_line(best, Some(info));
        if self.verbose {
            eprintln!("{line}");
        }
        if self.reports_intermediate() {
            writeln!(self.out, "{line}")?;
            self.out.flush()?;
        }
        Ok(())
    }

    /// Whether intermediate lines go to the output. The engine is away while it searches, so the session keeps
    /// the option's value from when the search started.
    fn reports_intermediate(&self) -> bool {
        match &self.engine {
            Some(engine) => engine.options().report_intermediate_best_moves,
            None => self.reporting,
        }
    }

    /// Ponder where the last commands said, if the option allows.
    fn start_pondering(&mut self) {
        let Some(target) = self.ponder_on else { return };
        let Some(engine) = self.engine.as_ref() else { return };
        if engine.options().ponder_during_idle == crate::engine::Ponder::Disabled {
            return;
        }
        let Some(mut engine) = self.engine.take() else { return };
        let stopper = engine.stopper();
        let sender = self.sender.clone();
        thread::spawn(move || {
            engine.ponder(match target {
                PonderOn::After(mv) => Some(mv),
                PonderOn::Current => None,
            });
            let _ = sender.send(Event::Done(Box::new(Finished {
                engine,
                outcome: Outcome::Pondered,
            })));
        });
        self.state = State::Pondering(stopper);
    }

    /// End whatever runs beside the session, printing nothing, and take the engine back: for `exit`.
    fn shut_down(&mut self) {
        if let State::Searching(search) = &self.state {
            search.stopper.stop();
            self.queue.clear();
            // The search ends within a few milliseconds of a stop; its reply is dropped.
            while let Ok(event) = self.events.recv() {
                if let Event::Done(finished) = event {
                    self.take_back(finished.engine);
                    break;
                }
            }
        }
        self.stop_pondering();
    }

    /// End a ponder search and take the engine back.
    fn stop_pondering(&mut self) {
        if let State::Pondering(stopper) = &self.state {
            stopper.stop();
            while let Ok(event) = self.events.recv() {
                if let Event::Done(finished) = event {
                    self.take_back(finished.engine);
                    break;
                }
            }
        }
    }

    /// The engine back from a search that is over: idle again. A stop sent for that search (one that may have
    /// ended of itself just before it, as a ponder search does on a won position) must not end the next one.
    fn take_back(&mut self, engine: Engine) {
        engine.stopper().clear();
        self.engine = Some(engine);
        self.state = State::Idle;
    }
}

/// Whether `line` starts a search.
fn starts_search(line: &str) -> bool {
    matches!(
        Command::parse(line),
        Ok(Some(Command::BestMove(_) | Command::Analyze(..)))
    )
}

/// The first `stop` or `exit` among the waiting lines that comes before any line that starts a search: the one
/// that a search just started from the queue would have heard while it ran.
fn waiting_control(queue: &VecDeque<String>) -> Option<Command> {
    for line in queue {
        match Command::parse(line) {
            Ok(Some(command @ (Command::Stop | Command::Exit))) => return Some(command),
            Ok(Some(Command::BestMove(_) | Command::Analyze(..))) => return None,
            _ => {}
        }
    }
    None
}

/// The `info` block: the id line and the capabilities line (the expansion bugs, and the clock-aware search).
fn info_lines() -> Vec<String> {
    vec![
        format!("id Waggle v{}", env!("CARGO_PKG_VERSION")),
        format!("Mosquito;Ladybug;Pillbug;{CLOCK_CAPABILITY}"),
    ]
}

const HELP: &str = "
UHP commands:
  info                          engine id and capabilities
  newgame [GameType|GameString] start a game (Base, Base+MLP …) or load one; prints the GameString
  play MoveString               play a move (wS1, bA1 wS1-, wB1 bQ …); prints the GameString
  pass                          pass (only when nothing else is legal)
  validmoves                    every legal move, ';'-separated
  bestmove time hh:mm:ss        best move found within the time
  bestmove depth N              best move of an N-ply search
  undo [N]                      take back N moves (default 1)
  options                       list options; 'options get Name', 'options set Name Value'
  exit                          quit
Extra commands:
  bestmove nodes N              best move of a search of N nodes (repeatable, like a depth)
  bestmove clock A B C D        best move on a chess clock: own time left, own increment, the opponent's time
                                left and increment, each hh:mm:ss[.fffffff]; the engine budgets the move itself
  analyze N [LIMIT]             the N best moves, best first, one 'Move;Depth;Score;PV…' line each; LIMIT is
                                'time hh:mm:ss', 'depth D' or 'nodes K', and without one it runs until 'stop'
  stop                          end a running bestmove or analyze (it answers at once); other lines sent
                                during a search wait and run after it, in order
  help                          this list
  perft N                       count move sequences to depth N from the current position
  board                         draw the current position
  history                       the moves played, numbered
";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;

    fn session() -> Session<Vec<u8>> {
        Session::new(Vec::new(), Engine::new(Options::default()).unwrap())
    }

    fn ask(session: &mut Session<Vec<u8>>, line: &str) -> String {
        session.out.clear();
        session.handle(line).unwrap();
        String::from_utf8(session.out.clone()).unwrap()
    }

    #[test]
    fn every_reply_ends_with_ok_and_errors_change_nothing() {
        let mut s = session();
        assert_eq!(
            ask(&mut s, "play wS1"),
            "err No game in progress. Try 'newgame' to start a new game.\nok\n"
        );
        assert_eq!(ask(&mut s, "newgame Base"), "Base;NotStarted;White[1]\nok\n");
        assert_eq!(
            ask(&mut s, "play wQ"),
            "invalidmove You can't play your Queen Bee on your first turn.\nok\n"
        );
        assert_eq!(ask(&mut s, "play wS1"), "Base;InProgress;Black[1];wS1\nok\n");
        assert_eq!(ask(&mut s, "history"), "1. wS1\nok\n");
        assert_eq!(ask(&mut s, "stop"), "ok\n");
        assert_eq!(ask(&mut s, ""), "");
        let best = ask(&mut s, "bestmove depth 1");
        assert!(best.ends_with("\nok\n") && best.lines().count() == 2, "{best}");
        let analysis = ask(&mut s, "analyze 3 depth 2");
        let lines: Vec<&str> = analysis.lines().collect();
        assert_eq!(lines.len(), 4, "{analysis}");
        assert!(
            lines[..3].iter().all(|l| l.split(';').nth(1) == Some("2")),
            "{analysis}"
        );
        assert_eq!(s.handle("exit").unwrap(), Flow::Exit);
    }

    /// A search thread that panics (the main one or a helper) becomes an `err` that names the position and the
    /// command, and the session goes on with the game as it was.
    #[test]
    fn a_search_that_panics_becomes_an_error_and_the_session_goes_on() {
        use crate::search::searcher::Fault;
        for (fault, helpers) in [(Fault::Main, 0), (Fault::Main, 1), (Fault::Helper, 1)] {
            let (done, finished) = channel();
            thread::spawn(move || {
                let mut s = session();
                let game = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-";
                ask(&mut s, &format!("newgame {game}"));
                ask(
                    &mut s,
                    &format!(
                        "options set MaxHelperThreads {}",
                        if helpers == 0 {
                            "None".to_string()
                        } else {
                            helpers.to_string()
                        }
                    ),
                );
                s.engine.as_mut().unwrap().searcher_mut().fault = Some(fault);
                let failed = ask(&mut s, "bestmove depth 20");
                s.engine.as_mut().unwrap().searcher_mut().fault = None;
                let after = (ask(&mut s, "history"), ask(&mut s, "bestmove depth 2"));
                let _ = done.send((game, failed, after));
            });
            let (game, failed, (history, best)) = finished
                .recv_timeout(std::time::Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("{fault:?} with {helpers} helpers: the session never answered"));
            assert!(failed.starts_with("err Waggle failed searching ("), "{failed}");
            assert!(
                failed.contains(&format!("the position {game} and the command 'bestmove depth 20'.")),
                "{failed}"
            );
            assert!(failed.ends_with("\nok\n") && failed.lines().count() == 2, "{failed}");
            assert_eq!(history, "1. wS1\n2. bS1 wS1-\n3. wQ -wS1\n4. bQ bS1-\nok\n");
            assert!(best.lines().count() == 2 && best.ends_with("\nok\n"), "{best}");
        }
    }

    /// A panic in any other command (here `play`, after it changed the game) is an `err` too, and the game is put
    /// back as it was.
    #[test]
    fn a_command_that_panics_becomes_an_error_and_changes_nothing() {
        let mut s = session();
        ask(&mut s, "newgame Base+MLP;InProgress;Black[1];wS1");
        s.engine.as_mut().unwrap().fault_in_play = true;
        let failed = ask(&mut s, "play bS1 wS1-");
        assert!(failed.starts_with("err Waggle failed playing the move ("), "{failed}");
        assert!(
            failed.ends_with("the position Base+MLP;InProgress;Black[1];wS1 and the command 'play bS1 wS1-'.\nok\n"),
            "{failed}"
        );
        s.engine.as_mut().unwrap().fault_in_play = false;
        assert_eq!(ask(&mut s, "history"), "1. wS1\nok\n");
        assert_eq!(
            ask(&mut s, "play bS1 wS1-"),
            "Base+MLP;InProgress;White[2];wS1;bS1 wS1-\nok\n"
        );
    }
}
