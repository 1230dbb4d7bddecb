//! The UHP session: reads one command line at a time, has the [`Engine`] do it, and writes the reply. It is the
//! only writer of protocol output; every command ends with `ok`, and every failure is one `err …` or
//! `invalidmove …` line that leaves the game as it was.
//!
//! Owns parsing lines into commands, turning results and errors into text, and the help. What a command does is
//! the engine's business; reading stdin and handling signals is the binary's.

use std::io::{self, Write};

use crate::draw::board_text;
use crate::engine::{Engine, EngineError};
use crate::perft::perft_by_depth;
use crate::search::{Limits, Stopper};
use crate::uhp::{option_line, Command, Reply, SearchLimit};

/// What the caller should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Exit,
}

/// One engine session over an output stream.
pub struct Session<W: Write> {
    out: W,
    engine: Engine,
}

impl<W: Write> Session<W> {
    /// A session of `engine` writing to `out`.
    pub fn new(out: W, engine: Engine) -> Self {
        Session { out, engine }
    }

    /// The stream replies are written to.
    pub fn output_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The engine, to look at (the game, the options) without going through the protocol.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// A handle that stops a running `bestmove` from another thread (the move found so far is still printed).
    pub fn stopper(&self) -> Stopper {
        self.engine.stopper()
    }

    /// The start-up block: the `info` reply.
    pub fn start(&mut self) -> io::Result<()> {
        let reply = Reply::ok(info_lines());
        self.write(&reply)
    }

    /// Run one input line and write its reply.
    pub fn handle(&mut self, line: &str) -> io::Result<Flow> {
        let reply = match Command::parse(line) {
            Ok(None) => return Ok(Flow::Continue),
            Ok(Some(Command::Exit)) => return Ok(Flow::Exit),
            Ok(Some(command)) => self.run(command)?,
            Err(e) => Reply::err(e.to_string()),
        };
        self.write(&reply)?;
        Ok(Flow::Continue)
    }

    fn write(&mut self, reply: &Reply) -> io::Result<()> {
        write!(self.out, "{reply}")?;
        self.out.flush()
    }

    /// Do `command`; the reply is what is left to write (a search writes its intermediate lines as it goes).
    fn run(&mut self, command: Command) -> io::Result<Reply> {
        let engine = &mut self.engine;
        let game_line = |game: &crate::game::Game| vec![game.game_string().to_string()];
        Ok(match command {
            Command::Info => Reply::ok(info_lines()),
            Command::NewGame(spec) => answer(engine.new_game(spec.as_deref()).map(game_line)),
            Command::Play(text) => answer(engine.play(&text).map(game_line)),
            Command::Pass => answer(engine.play("pass").map(game_line)),
            Command::ValidMoves => answer(engine.valid_moves().map(|moves| {
                let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
                vec![names.join(";")]
            })),
            Command::BestMove(limit) => return self.best_move(limit),
            Command::Undo(n) => answer(engine.undo(n).map(game_line)),
            Command::Options => Reply::ok(engine.options().all().iter().map(option_line).collect()),
            Command::OptionsGet(name) => answer(
                engine
                    .options()
                    .info(&name)
                    .map(|o| vec![option_line(&o)])
                    .map_err(EngineError::from),
            ),
            Command::OptionsSet(name, value) => answer(engine.set_option(&name, &value).map(|o| vec![option_line(&o)])),
            Command::Help => Reply::ok(HELP.trim().lines().map(String::from).collect()),
            Command::Perft(depth) => match engine.game() {
                Some(game) => Reply::ok(perft_by_depth(game.position(), depth).map(|t| t.to_string()).collect()),
                None => answer(Err(EngineError::NoGame)),
            },
            Command::Board => answer(
                engine
                    .game()
                    .map(|game| board_text(game.position()).lines().map(String::from).collect())
                    .ok_or(EngineError::NoGame),
            ),
            Command::History => answer(
                engine
                    .game()
                    .map(|game| {
                        let record = game.record().iter().enumerate();
                        record.map(|(i, mv)| format!("{}. {mv}", i + 1)).collect()
                    })
                    .ok_or(EngineError::NoGame),
            ),
            Command::Exit => Reply::ok(vec![]),
        })
    }

    /// `bestmove`: with ReportIntermediateBestMoves on, one `Move;Depth;Score;PV…` line per completed depth as
    /// it completes, then the move.
    fn best_move(&mut self, limit: SearchLimit) -> io::Result<Reply> {
        let limits = match limit {
            SearchLimit::Time(time) => Limits::time(time),
            SearchLimit::Depth(depth) => Limits::depth(depth.min(crate::search::MAX_DEPTH)),
        };
        let report = self.engine.options().report_intermediate_best_moves;
        let out = &mut self.out;
        let mut write_error = None;
        let result = self.engine.best_move(&limits, |thought| {
            if report && write_error.is_none() {
                let pv: Vec<String> = thought.pv.iter().map(|m| m.to_string()).collect();
                let line = format!(
                    "{};{};{};{}",
                    thought.best,
                    thought.report.depth,
                    thought.report.score,
                    pv.join(";")
                );
                if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
                    write_error = Some(e);
                }
            }
        });
        if let Some(e) = write_error {
            return Err(e);
        }
        Ok(answer(result.map(|thought| vec![thought.best.to_string()])))
    }
}

/// The `info` block: the id line and the capabilities line.
fn info_lines() -> Vec<String> {
    vec![
        format!("id Waggle v{}", env!("CARGO_PKG_VERSION")),
        "Mosquito;Ladybug;Pillbug".to_string(),
    ]
}

/// The reply for a result: its lines, or the error as `invalidmove` (a move that cannot be played) or `err`.
fn answer(result: Result<Vec<String>, EngineError>) -> Reply {
    match result {
        Ok(lines) => Reply::ok(lines),
        Err(EngineError::Move(e)) => Reply::invalid_move(e.to_string()),
        Err(e @ EngineError::NoGame) => Reply::err(format!("{e} Try 'newgame' to start a new game.")),
        Err(e @ EngineError::GameOver(_)) => Reply::err(format!("{e} Try 'undo' or 'newgame'.")),
        Err(e) => Reply::err(e.to_string()),
    }
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
        assert_eq!(ask(&mut s, ""), "");
        assert_eq!(s.handle("exit").unwrap(), Flow::Exit);
    }
}
