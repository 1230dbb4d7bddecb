//! The UHP session: owns the game, the searcher and the options, runs each typed command and is the only writer
//! of protocol output. Every command ends with `ok`; every failure is one `err …` or `invalidmove …` line and
//! leaves the game as it was.

mod command;
mod display;
mod options;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use waggle::perft::perft;
use waggle::search::{Limits, Report, Searcher};
use waggle::{move_string, MoveList, MoveString, Position};

pub use command::{parse, Command};
pub use options::Options;

/// What the caller should do after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Exit,
}

/// A command that failed: printed as `err …` or `invalidmove …`.
enum Failure {
    Err(String),
    InvalidMove(String),
}

type Outcome = Result<(), Failure>;

/// Time kept back from a `bestmove time` limit for printing the answer.
const TIME_MARGIN: Duration = Duration::from_millis(15);

/// One engine session over an output stream.
pub struct Session<W: Write> {
    out: W,
    game: Option<Position>,
    searcher: Searcher,
    options: Options,
    stop: Arc<AtomicBool>,
    searching: Arc<AtomicBool>,
}

impl<W: Write> Session<W> {
    /// A session writing to `out`; `stop` (set by SIGINT) interrupts a search, and `searching` tells the signal
    /// handler whether one is running.
    pub fn new(out: W, options: Options, stop: Arc<AtomicBool>, searching: Arc<AtomicBool>) -> Self {
        Session {
            out,
            game: None,
            searcher: Searcher::new(options.max_hash_size),
            options,
            stop,
            searching,
        }
    }

    /// The start-up block: the `info` reply.
    pub fn start(&mut self) -> io::Result<()> {
        self.info()?;
        self.ok()
    }

    /// Run one input line.
    pub fn handle(&mut self, line: &str) -> io::Result<Flow> {
        let command = match parse(line) {
            Ok(None) => return Ok(Flow::Continue),
            Ok(Some(Command::Exit)) => return Ok(Flow::Exit),
            Ok(Some(command)) => Ok(command),
            Err(message) => Err(Failure::Err(message)),
        };
        let outcome = match command {
            Ok(command) => self.run(command)?,
            Err(failure) => Err(failure),
        };
        match outcome {
            Ok(()) => {}
            Err(Failure::Err(message)) => writeln!(self.out, "err {message}")?,
            Err(Failure::InvalidMove(message)) => writeln!(self.out, "invalidmove {message}")?,
        }
        self.ok()?;
        Ok(Flow::Continue)
    }

    fn ok(&mut self) -> io::Result<()> {
        writeln!(self.out, "ok")?;
        self.out.flush()
    }

    fn info(&mut self) -> io::Result<()> {
        writeln!(self.out, "id Waggle v{}", env!("CARGO_PKG_VERSION"))?;
        writeln!(self.out, "Mosquito;Ladybug;Pillbug")
    }

    fn run(&mut self, command: Command) -> io::Result<Outcome> {
        Ok(match command {
            Command::Info => {
                self.info()?;
                Ok(())
            }
            Command::NewGame(text) => self.new_game(text.as_deref())?,
            Command::Play(text) => self.play(&text)?,
            Command::Pass => self.play("pass")?,
            Command::ValidMoves => self.valid_moves()?,
            Command::BestMoveTime(limit) => self.best_move(Limits {
                depth: None,
                time: Some(limit.saturating_sub(TIME_MARGIN).max(Duration::from_millis(1))),
            })?,
            Command::BestMoveDepth(depth) => self.best_move(Limits {
                depth: Some(depth.min(waggle::search::MAX_DEPTH)),
                time: None,
            })?,
            Command::Undo(n) => self.undo(n)?,
            Command::Options => {
                for name in options::NAMES {
                    let line = self.options.line(name).unwrap_or_default();
                    writeln!(self.out, "{line}")?;
                }
                Ok(())
            }
            Command::OptionsGet(name) => match self.options.line(&name) {
                Some(line) => {
                    writeln!(self.out, "{line}")?;
                    Ok(())
                }
                None => Err(Failure::Err(format!(
                    "Unknown option '{name}'. Options are: {}",
                    options::NAMES.join(", ")
                ))),
            },
            Command::OptionsSet(name, value) => self.set_option(&name, &value)?,
            Command::Help => {
                writeln!(self.out, "{}", HELP.trim_end())?;
                Ok(())
            }
            Command::Perft(depth) => self.perft(depth)?,
            Command::Board => match &self.game {
                Some(pos) => {
                    write!(self.out, "{}", display::draw(pos))?;
                    Ok(())
                }
                None => Err(no_game()),
            },
            Command::History => match &self.game {
                Some(pos) => {
                    let mut replay = Position::new(pos.game_type());
                    for (i, mv) in pos.moves().enumerate() {
                        writeln!(self.out, "{}. {}", i + 1, move_string(&replay, mv))?;
                        replay.play(mv);
                    }
                    Ok(())
                }
                None => Err(no_game()),
            },
            Command::Exit => Ok(()),
        })
    }

    fn new_game(&mut self, text: Option<&str>) -> io::Result<Outcome> {
        let loaded = match text {
            None => Ok(Position::new(waggle::GameType::BASE)),
            Some(text) => Position::from_game_string(text),
        };
        match loaded {
            Ok(mut pos) => {
                pos.set_threefold_draw(self.options.threefold_repetition_draw);
                writeln!(self.out, "{}", pos.game_string())?;
                self.game = Some(pos);
                self.searcher.clear();
                Ok(Ok(()))
            }
            Err(e) => Ok(Err(Failure::Err(format!("{e}")))),
        }
    }

    fn game_in_progress(&mut self) -> Result<&mut Position, Failure> {
        let pos = self.game.as_mut().ok_or_else(no_game)?;
        if pos.state().is_over() {
            return Err(Failure::Err(format!(
                "The game is over ({}). Try 'undo' or 'newgame'.",
                pos.state()
            )));
        }
        Ok(pos)
    }

    fn play(&mut self, text: &str) -> io::Result<Outcome> {
        let pos = match self.game_in_progress() {
            Ok(pos) => pos,
            Err(failure) => return Ok(Err(failure)),
        };
        let parsed: MoveString = match text.parse() {
            Ok(parsed) => parsed,
            Err(e) => return Ok(Err(Failure::InvalidMove(format!("{e}")))),
        };
        let result = parsed.to_move(pos).and_then(|mv| pos.try_play(mv));
        match result {
            Ok(()) => {
                let line = pos.game_string();
                writeln!(self.out, "{line}")?;
                Ok(Ok(()))
            }
            Err(e) => Ok(Err(Failure::InvalidMove(format!("{e}")))),
        }
    }

    fn valid_moves(&mut self) -> io::Result<Outcome> {
        let pos = match self.game_in_progress() {
            Ok(pos) => pos,
            Err(failure) => return Ok(Err(failure)),
        };
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(|&mv| move_string(pos, mv)).collect();
        writeln!(self.out, "{}", names.join(";"))?;
        Ok(Ok(()))
    }

    fn best_move(&mut self, limits: Limits) -> io::Result<Outcome> {
        let Session {
            out,
            game,
            searcher,
            options,
            stop,
            searching,
        } = self;
        let pos = match game.as_mut() {
            None => return Ok(Err(no_game())),
            Some(pos) if pos.state().is_over() => {
                return Ok(Err(Failure::Err(format!(
                    "The game is over ({}). Try 'undo' or 'newgame'.",
                    pos.state()
                ))))
            }
            Some(pos) => pos,
        };
        stop.store(false, Ordering::SeqCst);
        searching.store(true, Ordering::SeqCst);
        let report_lines = options.report_intermediate_best_moves;
        let snapshot = pos.clone();
        let mut write_error = None;
        let result = searcher.search(pos, &limits, stop, |report: &Report| {
            if report_lines && write_error.is_none() {
                if let Err(e) = writeln!(out, "{}", intermediate_line(&snapshot, report)).and_then(|_| out.flush()) {
                    write_error = Some(e);
                }
            }
        });
        searching.store(false, Ordering::SeqCst);
        stop.store(false, Ordering::SeqCst);
        if let Some(e) = write_error {
            return Err(e);
        }
        match result {
            Some(report) => {
                writeln!(out, "{}", move_string(pos, report.best))?;
                Ok(Ok(()))
            }
            None => Ok(Err(Failure::Err("There is no legal move to search.".into()))),
        }
    }

    fn undo(&mut self, n: usize) -> io::Result<Outcome> {
        let Some(pos) = self.game.as_mut() else {
            return Ok(Err(no_game()));
        };
        if n > pos.ply() {
            return Ok(Err(Failure::Err(format!(
                "Can't undo {n} move{}: only {} played.",
                if n == 1 { "" } else { "s" },
                pos.ply()
            ))));
        }
        for _ in 0..n {
            pos.undo();
        }
        let line = pos.game_string();
        writeln!(self.out, "{line}")?;
        Ok(Ok(()))
    }

    fn set_option(&mut self, name: &str, value: &str) -> io::Result<Outcome> {
        let mut changed = self.options.clone();
        if let Err(message) = changed.set(name, value) {
            return Ok(Err(Failure::Err(message)));
        }
        if changed.max_hash_size != self.options.max_hash_size {
            self.searcher.set_tt_size(changed.max_hash_size);
        }
        if let Some(pos) = self.game.as_mut() {
            pos.set_threefold_draw(changed.threefold_repetition_draw);
        }
        self.options = changed;
        let line = self.options.line(name).unwrap_or_default();
        writeln!(self.out, "{line}")?;
        Ok(Ok(()))
    }

    fn perft(&mut self, depth: u32) -> io::Result<Outcome> {
        let Some(pos) = self.game.as_mut() else {
            return Ok(Err(no_game()));
        };
        for line in perft_lines(pos, depth) {
            writeln!(self.out, "{line}")?;
        }
        Ok(Ok(()))
    }
}

/// `perft(D) = COUNT in S s, R M leaves/s` for each depth 1..=`depth`: shared by the `perft` command and the
/// `waggle perft` subcommand.
pub fn perft_lines(pos: &mut Position, depth: u32) -> impl Iterator<Item = String> + '_ {
    (1..=depth).map(move |d| {
        let start = Instant::now();
        let count = perft(pos, d);
        let secs = start.elapsed().as_secs_f64();
        format!(
            "perft({d}) = {count} in {secs:.3} s, {:.1} M leaves/s",
            count as f64 / secs.max(1e-9) / 1e6
        )
    })
}

/// `Move;Depth;Score;PV…`, as Mzinga reports intermediate best moves.
fn intermediate_line(pos: &Position, report: &Report) -> String {
    let mut replay = pos.clone();
    let mut pv = Vec::new();
    for &mv in &report.pv {
        pv.push(move_string(&replay, mv));
        replay.play(mv);
    }
    format!(
        "{};{};{};{}",
        move_string(pos, report.best),
        report.depth,
        report.score,
        pv.join(";")
    )
}

fn no_game() -> Failure {
    Failure::Err("No game in progress. Try 'newgame' to start a new game.".into())
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
