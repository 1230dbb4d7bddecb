//! `waggle play`: a game against Waggle for a person at a terminal, the Viewer model of the remote-play
//! proposal: the person makes one move and the engine answers at once with its own. The board is drawn after
//! every move (as hexes; coloured when the output is a terminal), moves are typed in UHP notation with the same
//! forgiveness as `play`, and a few words do the rest: `undo`, `hint`, `resign [reason]`, `save FILE`,
//! `show PIECE` (where it may go), `board`, `help`, `quit`. Bad input gets a message and changes nothing.
//!
//! Owns the conversation and its words; the game and the search are the engine's, the pictures `draw`'s, the
//! record `pgn`'s. Where lines come from (a line editor, a pipe) is the caller's.

mod input;

use std::io::{self, Write};
use std::time::Duration;

use crate::draw::{describe, how_it_ended, TextStyle};
use crate::engine::{Engine, EngineError};
use crate::record::notation::GameString;
use crate::record::pgn::GameRecord;
use crate::rules::ending::Ending;
use crate::rules::legality::IllegalMove;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::GameState;
use crate::search::Limits;

use input::{parse, Input};

/// How a game is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayConfig {
    /// The side the person plays.
    pub person: Color,
    /// Where the game starts: a new game of a type (`"Base+MLP".parse()`) or a whole GameString.
    pub start: GameString,
    /// How long the engine thinks over each move (and each hint).
    pub think: Duration,
    /// ANSI colours in the pictures.
    pub color: bool,
}

/// Where the person's lines come from.
pub trait Lines {
    /// The next line, after showing `prompt` where that makes sense; `None` at the end of input.
    fn read(&mut self, prompt: &str) -> Option<String>;

    /// Whether `read` shows the prompt itself (a line editor does); otherwise the game prints it as a line of its
    /// own, which also tells a script that the game waits for input.
    fn shows_prompt(&self) -> bool {
        false
    }
}

/// Lines from any reader (a pipe, a script, a test); the game prints each prompt as a line.
pub struct Plain<R>(pub R);

impl<R: io::BufRead> Lines for Plain<R> {
    fn read(&mut self, _prompt: &str) -> Option<String> {
        let mut line = String::new();
        match self.0.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line),
        }
    }
}

/// Why the terminal game ended before the person left it: the engine failed, or the output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TerminalError {
    /// The engine failed (a search that panicked).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The output could not be written.
    #[error(transparent)]
    Output(#[from] io::Error),
}

/// Play a game with `engine` as `config` says, reading the person's lines from `lines` and writing to `out`,
/// until the person quits or the input ends. A stop raised on the engine's stopper while it thinks (Ctrl-C)
/// makes it play the best move found so far at once.
pub fn run(
    mut engine: Engine,
    config: &PlayConfig,
    lines: &mut dyn Lines,
    out: &mut impl Write,
) -> Result<(), TerminalError> {
    engine.new_game(&config.start)?;
    let mut game = Conversation {
        engine,
        config,
        resigned: None,
        announced: false,
    };
    writeln!(
        out,
        "You play {}, Waggle plays {}. Type a move (wS1, bA1 -wS1 …) or 'help'.",
        config.person.name(),
        config.person.opponent().name()
    )?;
    game.show(out, &[])?;
    loop {
        if game.engine_to_move() {
            game.engine_moves(out)?;
            continue;
        }
        game.announce_end(out)?;
        let prompt = game.prompt();
        if !lines.shows_prompt() {
            writeln!(out, "{}", prompt.trim_end())?;
            out.flush()?;
        }
        let Some(line) = lines.read(&prompt) else { break };
        match parse(&line) {
            Ok(Input::Quit) => break,
            Ok(input) => game.answer(input, out)?,
            Err(message) => writeln!(out, "{message}")?,
        }
        out.flush()?;
    }
    Ok(())
}

/// How the game of `position` ended, said to the person who played `person`: `You win: Black's Queen is
/// surrounded by …`, `Waggle wins: …`, `A draw: …`.
fn ending_text(position: &crate::rules::position::Position, person: Color) -> String {
    let state = position.state();
    let who = match state {
        GameState::Draw => "A draw".to_string(),
        GameState::WhiteWins | GameState::BlackWins => {
            let winner = if state == GameState::WhiteWins {
                Color::White
            } else {
                Color::Black
            };
            if winner == person {
                "You win".to_string()
            } else {
                "Waggle wins".to_string()
            }
        }
        _ => return "Game over.".to_string(),
    };
    match Ending::of(position) {
        Some(how) => format!("{who}: {}.", how_it_ended(&how)),
        None => format!("{who}."),
    }
}

/// A search's score for a person: `#3` and what it means for a forced result (as `waggle review` writes it), the
/// engine's units otherwise.
fn score_text(report: &crate::search::Report) -> String {
    match report.plies_to_end() {
        Some(plies) if report.is_win() => format!("#{plies}: you win by force in {plies} plies"),
        Some(plies) => format!("#-{plies}: Waggle wins by force in {plies} plies whatever you play"),
        None => format!(
            "Waggle's score for you: {:+}, a {:.0} % chance to win",
            report.score,
            100.0 * report.win_chance()
        ),
    }
}

/// The game in progress and what the conversation knows about it.
struct Conversation<'a> {
    engine: Engine,
    config: &'a PlayConfig,
    /// The person gave up: the reason, if any.
    resigned: Option<Option<String>>,
    /// The end of the game has been announced.
    announced: bool,
}

const HELP: &str = "Moves are MoveStrings: a piece, then where it goes next to another piece (wS1, bA1 -wS1, wB1 bQ
  for a beetle on top of bQ, pass when nothing else is possible). Any piece next to the cell may be named.
Words:
  undo             take back your last move (and Waggle's answer)
  hint             what Waggle would play for you
  show PIECE       mark where a piece may go (or be placed)
  resign [reason]  give up: the game ends as a win for Waggle
  save FILE        save the game as a .pgn file that Mzinga.Viewer opens
  board            draw the board again
  help             this text
  quit             leave";

impl Conversation<'_> {
    fn over(&self) -> bool {
        self.resigned.is_some() || self.engine.game().is_none_or(|g| g.state().is_over())
    }

    fn engine_to_move(&self) -> bool {
        !self.over()
            && self
                .engine
                .game()
                .is_some_and(|g| g.position().to_move() != self.config.person)
    }

    fn prompt(&self) -> String {
        match self.engine.game() {
            Some(game) if !self.over() => format!("{} to move > ", game.position().to_move().name()),
            _ => "game over > ".to_string(),
        }
    }

    /// Draw the board, with `marks` on the cells given.
    fn show(&self, out: &mut impl Write, marks: &[crate::rules::hex::Hex]) -> io::Result<()> {
        let Some(game) = self.engine.game() else { return Ok(()) };
        let style = TextStyle {
            color: self.config.color,
            marks: marks.to_vec(),
            last_move: true,
        };
        write!(out, "{}", describe(game.position(), &style))
    }

    /// The engine's move: found, played and shown.
    fn engine_moves(&mut self, out: &mut impl Write) -> Result<(), TerminalError> {
        writeln!(out, "Waggle is thinking… (Ctrl-C: move now)")?;
        out.flush()?;
        let thought = self.engine.best_move(&Limits::time(self.config.think), |_| {})?;
        self.engine.play(thought.best)?;
        writeln!(out, "Waggle plays: {}", thought.best)?;
        self.show(out, &[])?;
        Ok(())
    }

    /// Say once how the game ended, in the person's words: who won (you or Waggle) and how.
    fn announce_end(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.announced || !self.over() {
            return Ok(());
        }
        self.announced = true;
        let text = match (&self.resigned, self.engine.game()) {
            (Some(reason), _) => format!(
                "You resigned{}. Waggle wins.",
                reason.as_ref().map(|r| format!(" ({r})")).unwrap_or_default(),
            ),
            (None, Some(game)) => ending_text(game.position(), self.config.person),
            (None, None) => "Game over.".to_string(),
        };
        writeln!(out, "{text} You may still 'undo', 'save FILE' or 'quit'.")
    }

    fn answer(&mut self, input: Input, out: &mut impl Write) -> Result<(), TerminalError> {
        match input {
            Input::Nothing | Input::Quit => {}
            Input::Help => writeln!(out, "{HELP}")?,
            Input::Board => self.show(out, &[])?,
            Input::Move(name) => {
                if self.over() {
                    writeln!(
                        out,
                        "The game is over: no more moves. Try 'undo', 'save FILE' or 'quit'."
                    )?;
                } else {
                    match self.engine.play(name) {
                        Ok(game) => {
                            let played = game.record().last().map(|m| m.to_string()).unwrap_or_default();
                            writeln!(out, "You play: {played}")?;
                            self.show(out, &[])?;
                        }
                        // On the person's turn, the other side's piece is simply not theirs to play.
                        Err(EngineError::Move(IllegalMove::NotYourTurn(piece))) => writeln!(
                            out,
                            "That move cannot be played: {piece} is not your piece (you play {}).",
                            self.config.person.name()
                        )?,
                        Err(e) => writeln!(out, "That move cannot be played: {e}")?,
                    }
                }
            }
            Input::Undo => self.undo(out)?,
            Input::Hint => {
                if self.over() {
                    writeln!(out, "The game is over: there is nothing to hint at.")?;
                } else {
                    let thought = self.engine.best_move(&Limits::time(self.config.think), |_| {})?;
                    writeln!(out, "Hint: {} ({})", thought.best, score_text(&thought.report))?;
                }
            }
            Input::Resign(reason) => {
                if self.over() {
                    writeln!(out, "The game is already over.")?;
                } else {
                    self.resigned = Some(reason);
                }
            }
            Input::Save(path) => match self.record().map(|r| std::fs::write(&path, r.to_string())) {
                Some(Ok(())) => writeln!(out, "Saved the game to {path}.")?,
                Some(Err(e)) => writeln!(out, "Could not save to {path}: {e}")?,
                None => writeln!(out, "There is no game to save.")?,
            },
            Input::Show(piece) => {
                let Some(game) = self.engine.game() else { return Ok(()) };
                let targets: Vec<_> = if self.over() {
                    Vec::new()
                } else {
                    game.legal_moves()
                        .into_iter()
                        .filter(
                            |m| matches!(m, Move::Place { piece: p, .. } | Move::Move { piece: p, .. } if *p == piece),
                        )
                        .filter_map(Move::to)
                        .collect()
                };
                if targets.is_empty() {
                    writeln!(out, "{piece} cannot move or be placed now.")?;
                } else {
                    writeln!(out, "{piece} may go to the {} cells marked *:", targets.len())?;
                    self.show(out, &targets)?;
                }
            }
        }
        Ok(())
    }

    /// Take back the person's last move and the engine's answer to it.
    fn undo(&mut self, out: &mut impl Write) -> Result<(), TerminalError> {
        if self.resigned.is_some() {
            self.resigned = None;
            self.announced = false;
            writeln!(out, "Resignation taken back.")?;
            return Ok(());
        }
        let Some(game) = self.engine.game() else { return Ok(()) };
        let pos = game.position();
        let played = game.record().len();
        // Back to the person's turn, one of the person's moves fewer.
        let steps = if pos.to_move() == self.config.person { 2 } else { 1 };
        if played < steps {
            writeln!(out, "There is no move of yours to take back.")?;
            return Ok(());
        }
        self.engine.undo(steps)?;
        self.announced = false;
        writeln!(out, "Took back {steps} move{}.", if steps == 1 { "" } else { "s" })?;
        self.show(out, &[])?;
        Ok(())
    }

    /// The game as a Mzinga `.pgn` record: a resignation gives the other side the win, with its reason.
    fn record(&self) -> Option<GameRecord> {
        let game = self.engine.game()?;
        let mut record = game.game_string();
        let waggle = format!("Waggle v{}", env!("CARGO_PKG_VERSION"));
        let (white, black) = match self.config.person {
            Color::White => ("You", waggle.as_str()),
            Color::Black => (waggle.as_str(), "You"),
        };
        if self.resigned.is_some() {
            record.state = Some(match self.config.person {
                Color::White => GameState::BlackWins,
                Color::Black => GameState::WhiteWins,
            });
        }
        let mut pgn = GameRecord::new(record, white, black);
        pgn.set_tag("Event", "waggle play");
        if let Some(reason) = &self.resigned {
            let why = reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default();
            pgn.set_tag("Termination", &format!("{} resigns{why}", self.config.person.name()));
        }
        Some(pgn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::game::Game;
    use crate::rules::position::Rules;
    use crate::search::{Report, WIN};

    #[test]
    fn the_end_says_who_won_and_how() {
        // Black has surrounded White's Queen.
        let game = Game::from_moves(
            &"Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;wA2 \\wQ;\
              bA2 \\bG1;wG2 wQ/;bG1 wG2\\"
                .parse()
                .unwrap(),
            Rules::default(),
        )
        .unwrap();
        let winner = match game.state() {
            GameState::WhiteWins => Color::White,
            GameState::BlackWins => Color::Black,
            other => panic!("{other:?}"),
        };
        let text = ending_text(game.position(), winner);
        assert!(
            text.starts_with("You win: ") && text.contains("Queen is surrounded by"),
            "{text}"
        );
        let text = ending_text(game.position(), winner.opponent());
        assert!(text.starts_with("Waggle wins: "), "{text}");
    }

    #[test]
    fn the_other_sides_piece_is_not_the_persons() {
        let config = PlayConfig {
            person: Color::White,
            start: "Base+MLP;InProgress;White[2];wS1;bS1 wS1-".parse().unwrap(),
            think: Duration::from_millis(10),
            color: false,
        };
        let engine = Engine::new(crate::engine::Options::default()).unwrap();
        let mut out = Vec::new();
        let mut lines = Plain(io::Cursor::new("bQ\nbA1 -wS1\nquit\n"));
        run(engine, &config, &mut lines, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for piece in ["bQ", "bA1"] {
            let said = format!("That move cannot be played: {piece} is not your piece (you play White).");
            assert!(text.contains(&said), "{text}");
        }
    }

    #[test]
    fn a_forced_win_is_written_as_the_review_writes_it() {
        let report = |score| Report {
            depth: 3,
            score,
            best: Move::Pass,
            pv: Vec::new(),
            nodes: 1,
            seldepth: 3,
        };
        assert!(score_text(&report(WIN - 3)).starts_with("#3: you win"));
        assert!(score_text(&report(-(WIN - 2))).starts_with("#-2: "));
        assert_eq!(
            score_text(&report(25)),
            "Waggle's score for you: +25, a 53 % chance to win"
        );
        assert_eq!(
            score_text(&report(-342)),
            "Waggle's score for you: -342, a 9 % chance to win"
        );
    }
}
