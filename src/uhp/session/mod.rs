//! The UHP session: reads one command line at a time, has the [`Engine`] do it, and writes the reply. It is the
//! only writer of protocol output; every command ends with `ok`, and every failure is one `err …` or
//! `invalidmove …` line that leaves the game as it was.
//!
//! Searches run on a thread the session owns, with the engine lent to it, while the session goes on reading:
//! during `bestmove` or `analyze` a `stop` line (or SIGINT) ends the search, and other lines wait and run
//! afterwards in order; while pondering, any line stops the ponder search first. Nothing is printed while
//! pondering.
//!
//! This file owns the order things happen in (the event loop); what each command says is `dispatch`'s, the
//! work beside the session `work`'s, the waiting lines `queue`'s, the states `state`'s. What a command does is
//! the engine's business; reading stdin and handling signals is the binary's.

mod dispatch;
mod help;
mod queue;
mod reply;
mod state;
mod work;

use std::io::{self, Write};
use std::mem;
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread;

use crate::engine::{Engine, SearchInfo};
use crate::uhp::{Command, CommandError, Reply};

use dispatch::{Done, Memory};
use help::info_lines;
use queue::{Queue, Waiting};
use reply::{answer, info_line};
use state::State;
use work::{Outcome, PonderOn, Task};

pub use work::Finished;

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
    /// A line typed at a line editor: taken as [`Event::Line`], after which `answer` hears whether the session goes
    /// on. A line editor takes the terminal for itself while it reads, and must not be reading once the session
    /// has ended, or the terminal would be left in its hands.
    TypedLine(String, Sender<Flow>),
    /// Ctrl-C pressed at a line editor (which reads it as a key, not as a signal): taken as [`Event::Interrupt`],
    /// after which `answer` hears whether the session goes on.
    TypedInterrupt(Sender<Flow>),
    /// A search thread's progress (a completed depth).
    Progress(SearchInfo),
    /// A line of a reply in progress (a perft depth counted).
    Output(String),
    /// A search thread has finished and hands the engine back.
    Done(Box<Finished>),
}

/// Where search lines go besides the protocol's output.
type SearchLog = Box<dyn FnMut(&str) + Send>;

/// One engine session over an output stream.
pub struct Session<W: Write> {
    out: W,
    sender: Sender<Event>,
    events: Receiver<Event>,
    /// What the session is doing, and who has the engine.
    state: State,
    /// Lines that arrived while busy, to run afterwards.
    queue: Queue,
    /// What it remembers between commands.
    memory: Memory,
    /// The input has ended.
    ended: bool,
    /// Where each completed depth's search line also goes (for a person at a terminal), if anywhere.
    search_log: Option<SearchLog>,
    /// The session ended on an interrupt (Ctrl-C while idle).
    interrupted: bool,
}

impl<W: Write> Session<W> {
    /// A session of `engine` writing to `out`.
    pub fn new(out: W, engine: Engine) -> Self {
        let (sender, events) = channel();
        Session {
            out,
            sender,
            events,
            state: State::Idle(Box::new(engine)),
            queue: Queue::default(),
            memory: Memory::default(),
            ended: false,
            search_log: None,
            interrupted: false,
        }
    }

    /// Also give each completed depth's search line to `log` (the binary's `--verbose` writes it to stderr).
    pub fn log_search(&mut self, log: impl FnMut(&str) + Send + 'static) {
        self.search_log = Some(Box::new(log));
    }

    /// Where input lines, the end of input and interrupts are to be sent (from other threads).
    pub fn sender(&self) -> Sender<Event> {
        self.sender.clone()
    }

    /// The stream replies are written to.
    pub fn output_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The engine, to look at (the game, the options) without going through the protocol; `None` while a thread
    /// has it (a search, a count or a ponder search runs).
    pub fn engine(&self) -> Option<&Engine> {
        self.state.engine()
    }

    /// Whether the session ended because it was interrupted (Ctrl-C while idle), not by `exit` or the input's end.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// The start-up block: the `info` reply.
    pub fn start(&mut self) -> io::Result<()> {
        self.write(&Reply::ok(info_lines()))
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
        while flow == Flow::Continue && !matches!(self.state, State::Idle(_)) {
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
            Event::Line(line) => {
                let Some(waiting) = Waiting::read(&line) else {
                    return Ok(Flow::Continue);
                };
                match &self.state {
                    State::Idle(_) => {
                        self.queue.push(waiting);
                        self.after(Flow::Continue)
                    }
                    State::Working(job) => match waiting.command {
                        // `exit` ends the search at once and leaves without another word: no move that a client
                        // could take for the answer.
                        Ok(Command::Exit) => {
                            self.shut_down();
                            Ok(Flow::Exit)
                        }
                        // `stop` ends the search, and has its own `ok` after the search's reply; a `stop` behind
                        // another waiting search's line is that one's.
                        _ => {
                            if matches!(waiting.command, Ok(Command::Stop)) && !self.queue.starts_search() {
                                job.halt.stop();
                            }
                            self.queue.push(waiting);
                            Ok(Flow::Continue)
                        }
                    },
                    State::Pondering(stopper) => {
                        stopper.stop();
                        self.queue.push(waiting);
                        Ok(Flow::Continue)
                    }
                }
            }
            Event::End => {
                self.ended = true;
                match &self.state {
                    State::Idle(_) => Ok(Flow::Exit),
                    // A search with a limit finishes and answers (a game server closes the input right after
                    // `bestmove` and waits for the move); one that only a stop could end is stopped.
                    State::Working(job) => {
                        if job.unbounded {
                            job.halt.stop();
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
                State::Working(job) => {
                    job.halt.stop();
                    Ok(Flow::Continue)
                }
                State::Idle(_) | State::Pondering(_) => {
                    self.interrupted = true;
                    Ok(Flow::Exit)
                }
            },
            Event::TypedLine(line, answer) => {
                let flow = self.on_event(Event::Line(line))?;
                let _ = answer.send(flow);
                Ok(flow)
            }
            Event::TypedInterrupt(answer) => {
                let flow = self.on_event(Event::Interrupt)?;
                let _ = answer.send(flow);
                Ok(flow)
            }
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
                let line = match self.take_back(engine) {
                    Some(job) => job.line,
                    None => String::new(),
                };
                let reply = match outcome {
                    Outcome::Best(result) => {
                        self.memory.ponder_on = result.as_ref().ok().map(|t| PonderOn::After(t.report.best));
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

    /// Once idle: run the lines that waited, then exit if the input ended, else ponder. Lines that waited behind
    /// a line that starts a search arrived, as far as that search is concerned, while it ran: a `stop` among them
    /// ends it at once, and an `exit` ends it and the session.
    fn after(&mut self, mut flow: Flow) -> io::Result<Flow> {
        while flow == Flow::Continue {
            let State::Idle(engine) = &mut self.state else { break };
            let Some(Waiting { command, line }) = self.queue.pop() else {
                break;
            };
            let done = match command {
                Ok(Command::Exit) => {
                    flow = Flow::Exit;
                    break;
                }
                Ok(command) => dispatch_guarded(engine, &mut self.memory, command, &line),
                // Text that is not a MoveString is a move that cannot be played, as for Mzinga.
                Err(e @ CommandError::Move(_)) => Done::Reply(Reply::invalid_move(e.to_string())),
                Err(e) => Done::Reply(Reply::err(e.to_string())),
            };
            match done {
                Done::Reply(reply) => self.write(&reply)?,
                Done::Work(job, task) => self.lend(State::Working(job), task),
            }
            if let State::Working(job) = &self.state {
                match self.queue.control() {
                    Some(Command::Stop) => job.halt.stop(),
                    Some(Command::Exit) => {
                        self.shut_down();
                        return Ok(Flow::Exit);
                    }
                    _ => {}
                }
                if self.ended && job.unbounded {
                    job.halt.stop();
                }
            }
        }
        let idle = matches!(self.state, State::Idle(_)) && self.queue.is_empty();
        if flow == Flow::Exit || (self.ended && idle) {
            return Ok(Flow::Exit);
        }
        if idle {
            self.start_pondering();
        }
        Ok(Flow::Continue)
    }

    fn write(&mut self, reply: &Reply) -> io::Result<()> {
        write!(self.out, "{reply}")?;
        self.out.flush()
    }

    /// Lend the idle engine to `task`, run on a thread of its own that hands it back (`Event::Done`); the
    /// session is `busy` meanwhile.
    fn lend(&mut self, busy: State, task: Task) {
        let State::Idle(mut engine) = mem::replace(&mut self.state, busy) else {
            unreachable!("work starts only from an idle session: a line run by `after`, or pondering");
        };
        let events = self.sender.clone();
        thread::spawn(move || {
            let outcome = task.run(&mut engine, &events);
            let _ = events.send(Event::Done(Box::new(Finished { engine, outcome })));
        });
    }

    /// A completed depth: an intermediate line when ReportIntermediateBestMoves was on as the search started, and
    /// the same to the search log.
    fn report_progress(&mut self, info: &SearchInfo) -> io::Result<()> {
        let Some(best) = info.lines.first() else { return Ok(()) };
        let reporting = matches!(&self.state, State::Working(job) if job.reporting);
        if !reporting && self.search_log.is_none() {
            return Ok(());
        }
        let line = info_line(best, Some(info));
        if let Some(log) = self.search_log.as_mut() {
            log(&line);
        }
        if reporting {
            writeln!(self.out, "{line}")?;
            self.out.flush()?;
        }
        Ok(())
    }

    /// Ponder where the last commands said, if the option allows.
    fn start_pondering(&mut self) {
        let (Some(target), State::Idle(engine)) = (self.memory.ponder_on, &self.state) else {
            return;
        };
        if engine.options().ponder_during_idle == crate::engine::Ponder::Disabled {
            return;
        }
        let stopper = engine.stopper();
        self.lend(State::Pondering(stopper), Task::Ponder(target));
    }

    /// End whatever runs beside the session, printing nothing, and take the engine back: for `exit`.
    fn shut_down(&mut self) {
        if let State::Working(job) = &self.state {
            job.halt.stop();
            self.queue.clear();
            // The search ends within a few milliseconds of a stop; its reply is dropped.
            self.wait_for_engine();
        }
        self.stop_pondering();
    }

    /// End a ponder search and take the engine back.
    fn stop_pondering(&mut self) {
        if let State::Pondering(stopper) = &self.state {
            stopper.stop();
            self.wait_for_engine();
        }
    }

    /// Wait for the thread that has the engine to hand it back, dropping what else comes meanwhile.
    fn wait_for_engine(&mut self) {
        while let Ok(event) = self.events.recv() {
            if let Event::Done(finished) = event {
                self.take_back(finished.engine);
                break;
            }
        }
    }

    /// The engine back from work that is over: idle again, and the job it did, if it was one. A stop sent for that
    /// work (which may have ended of itself just before it, as a ponder search does on a won position) must not
    /// end the next search.
    fn take_back(&mut self, engine: Box<Engine>) -> Option<state::Job> {
        engine.stopper().clear();
        match mem::replace(&mut self.state, State::Idle(engine)) {
            State::Working(job) => Some(job),
            State::Idle(_) | State::Pondering(_) => None,
        }
    }
}

/// Run `command` (sent as `line`) with `engine`. The engine turns its own panics into errors and keeps its game;
/// a panic in the session's own work (a drawing, a listing) becomes an `err` here, and the session goes on.
fn dispatch_guarded(engine: &mut Engine, memory: &mut Memory, command: Command, line: &str) -> Done {
    guarded(engine, line, |engine| dispatch::run(engine, memory, command, line))
}

/// Do `work`, the session's part of the command `line`; should it panic (a bug), the reply is an `err` that names
/// the position and the command.
fn guarded(engine: &mut Engine, line: &str, work: impl FnOnce(&mut Engine) -> Done) -> Done {
    panic::catch_unwind(AssertUnwindSafe(|| work(engine))).unwrap_or_else(|panic| {
        let game = engine.game().map(|g| g.game_string().to_string());
        Done::Reply(Reply::err(format!(
            "Waggle failed ({}); the game is unchanged. This is a bug in Waggle: please report it with the \
             position {} and the command '{line}'.",
            crate::failure::panic_message(panic.as_ref()),
            game.unwrap_or_default()
        )))
    })
}

#[cfg(test)]
mod tests;
