//! Solving a puzzle one move at a time, as the terminal (`waggle puzzle`) and the page do: the solver's move is
//! right when it is the record's (its solution or one of its defences' lines) or, off the record, when the proof
//! search shows it keeps the win within the plies left; the opponent then answers with the record's reply, or
//! the longest defence the proof search finds. A wrong move gets its refutation: the reply that escapes, or for
//! a defence the opponent's forced win. The first move of a puzzle is right only when it is the one the puzzle is
//! about (no other move forces the win, or holds).

use crate::record::game::{Game, PlayError};
use crate::record::notation::{line as name_line, MoveString};
use crate::rules::moves::Move;
use crate::rules::piece::{Color, Piece};
use crate::rules::position::GameState;
use crate::search::proof::{Assume, Halt, Prover};

use super::line::forced_line;
use super::record::{Puzzle, PuzzleError};
use super::Kind;

/// The most nodes one question about a move may take.
const BUDGET: u64 = 5_000_000;

/// What became of a move tried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The move is right: the opponent's reply, if the line goes on, and whether the puzzle is now solved.
    Right {
        /// The opponent's reply, played.
        reply: Option<MoveString>,
        /// Whether the puzzle is solved.
        solved: bool,
    },
    /// The move is wrong (it was not played): what the opponent would answer, and on.
    Wrong {
        /// The refutation: the opponent's reply that escapes, or for a defence the opponent's forced win.
        refutation: Vec<MoveString>,
    },
}

/// Why a move could not be tried.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The puzzle's record cannot be used.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// A move that cannot be played here.
    #[error(transparent)]
    Move(#[from] PlayError),
    /// The puzzle is over.
    #[error("the puzzle is solved: there is nothing more to play")]
    Solved,
    /// A move given for the opponent's turn.
    #[error("it is the opponent's turn, not the solver's")]
    NotSolversTurn,
    /// The proof search could not settle the move within its budget.
    #[error("the move could not be judged: {0}")]
    Undecided(String),
}

/// A puzzle being solved: where it stands, the moves played since its start.
pub struct Attempt {
    puzzle: Puzzle,
    game: Game,
    played: Vec<MoveString>,
    prover: Prover,
}

impl Attempt {
    /// Start solving `puzzle`.
    pub fn new(puzzle: Puzzle) -> Result<Attempt, SolveError> {
        let game = puzzle.start()?;
        let mut prover = Prover::new(16);
        prover.set_budget(Some(BUDGET));
        prover.assume(Assume::Nothing);
        Ok(Attempt {
            puzzle,
            game,
            played: Vec::new(),
            prover,
        })
    }

    /// Take up `puzzle` with `moves` already played since its start (both sides'), each checked for legality: a
    /// server that keeps no session is told the moves with every request.
    pub fn resume(puzzle: Puzzle, moves: &[MoveString]) -> Result<Attempt, SolveError> {
        let mut attempt = Attempt::new(puzzle)?;
        for &name in moves {
            let mv = name.to_move(attempt.game.position()).map_err(PlayError::from)?;
            let name = attempt.game.play(mv).map_err(PlayError::from)?;
            attempt.played.push(name);
        }
        Ok(attempt)
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The moves played since the puzzle's start.
    pub fn played(&self) -> &[MoveString] {
        &self.played
    }

    /// The side solving.
    pub fn solver(&self) -> Color {
        self.puzzle.to_move
    }

    /// Whether the puzzle is solved: the game won, or a defence's one move played.
    pub fn is_solved(&self) -> bool {
        match self.puzzle.kind {
            Kind::Win => self.game.state() == GameState::won_by(self.solver()),
            Kind::Defend => !self.played.is_empty(),
        }
    }

    /// The record's lines from the puzzle's start: the solution, then each defence's line.
    fn record_lines(&self) -> Vec<Vec<MoveString>> {
        let mut lines = vec![self.puzzle.solution.clone()];
        for defence in &self.puzzle.defences {
            let mut line = self.puzzle.solution[..defence.ply.min(self.puzzle.solution.len())].to_vec();
            line.extend(&defence.line);
            lines.push(line);
        }
        lines
    }

    /// The record's next move from here, if the moves so far follow one of its lines.
    fn record_next(&self) -> Option<MoveString> {
        self.record_lines()
            .into_iter()
            .find(|line| line.starts_with(&self.played) && line.len() > self.played.len())
            .map(|line| line[self.played.len()])
    }

    /// The solver's right move here, the record's or else the proof search's: for the page's hint and the
    /// solution shown on request.
    pub fn right_move(&mut self) -> Result<Option<MoveString>, SolveError> {
        if self.is_solved() || self.game.position().to_move() != self.solver() {
            return Ok(None);
        }
        if let Some(next) = self.record_next() {
            return Ok(Some(next));
        }
        let (remaining, solver) = (self.remaining(), self.solver());
        let line = forced_line(&mut self.prover, self.game.position(), solver, remaining).map_err(undecided)?;
        Ok(line.first().map(|&mv| self.game.move_string(mv)))
    }

    /// The piece the right move moves or places: the hint.
    pub fn hint(&mut self) -> Result<Option<Piece>, SolveError> {
        Ok(self
            .right_move()?
            .and_then(|name| name.to_move(self.game.position()).ok()?.piece()))
    }

    /// Plies left of the puzzle's line from here.
    fn remaining(&self) -> u32 {
        self.puzzle.plies.saturating_sub(self.played.len() as u32)
    }

    /// Try the solver's move `name`: right, it is played with the opponent's reply; wrong, nothing is played and
    /// the refutation is told.
    pub fn try_move(&mut self, name: MoveString) -> Result<Answer, SolveError> {
        if self.is_solved() {
            return Err(SolveError::Solved);
        }
        let position = self.game.position();
        if position.to_move() != self.solver() {
            return Err(SolveError::NotSolversTurn);
        }
        let mv = name.to_move(position).map_err(PlayError::from)?;
        self.game.clone().play(mv).map_err(PlayError::from)?;
        let name = self.game.move_string(mv);
        let right = if self.record_next() == Some(name) {
            true
        } else if self.played.is_empty() {
            // The puzzle is that no other first move does it.
            false
        } else {
            self.keeps_the_win(mv)?
        };
        if !right {
            return Ok(Answer::Wrong {
                refutation: self.refutation(mv)?,
            });
        }
        self.game.play(mv).map_err(PlayError::from)?;
        self.played.push(name);
        if self.is_solved() {
            return Ok(Answer::Right {
                reply: None,
                solved: true,
            });
        }
        let reply = self.reply()?;
        if let Some(reply) = reply {
            let mv = reply.to_move(self.game.position()).map_err(PlayError::from)?;
            self.game.play(mv).map_err(PlayError::from)?;
            self.played.push(reply);
        }
        Ok(Answer::Right {
            reply,
            solved: self.is_solved(),
        })
    }

    /// Whether the solver's `mv`, off the record, still wins within the plies left.
    fn keeps_the_win(&mut self, mv: Move) -> Result<bool, SolveError> {
        if self.puzzle.kind != Kind::Win {
            return Ok(false);
        }
        let mut after = self.game.position().clone();
        after.play_unchecked(mv);
        let left = self.remaining().saturating_sub(1);
        self.prover.wins_within(&after, self.solver(), left).map_err(undecided)
    }

    /// The opponent's reply here: the record's, or the longest defence.
    fn reply(&mut self) -> Result<Option<MoveString>, SolveError> {
        if let Some(next) = self.record_next() {
            return Ok(Some(next));
        }
        let (remaining, solver) = (self.remaining(), self.solver());
        let line = forced_line(&mut self.prover, self.game.position(), solver, remaining).map_err(undecided)?;
        Ok(line.first().map(|&mv| self.game.move_string(mv)))
    }

    /// What refutes the solver's `mv`: for a win, the reply after which the solver no longer wins within the plies
    /// left; for a defence, the opponent's forced win.
    fn refutation(&mut self, mv: Move) -> Result<Vec<MoveString>, SolveError> {
        let mut after = self.game.position().clone();
        after.play_unchecked(mv);
        if after.state().is_over() {
            return Ok(Vec::new());
        }
        let left = self.remaining().saturating_sub(1);
        let solver = self.solver();
        let moves = match self.puzzle.kind {
            Kind::Win => self
                .prover
                .holding_reply(&after, solver, left)
                .map_err(undecided)?
                .into_iter()
                .collect(),
            Kind::Defend => forced_line(&mut self.prover, &after, solver.opponent(), left).map_err(undecided)?,
        };
        Ok(name_line(&after, moves))
    }

    /// The rest of the solution from here, for "show the solution": the record's line when the moves follow it,
    /// otherwise the forced line the proof search finds.
    pub fn rest_of_solution(&mut self) -> Result<Vec<MoveString>, SolveError> {
        if let Some(line) = self
            .record_lines()
            .into_iter()
            .find(|line| line.starts_with(&self.played))
        {
            return Ok(line[self.played.len()..].to_vec());
        }
        let (remaining, solver) = (self.remaining(), self.solver());
        let moves = forced_line(&mut self.prover, self.game.position(), solver, remaining).map_err(undecided)?;
        Ok(self.game.line(&moves))
    }
}

/// The error of a question the proof search could not settle.
fn undecided(halt: Halt) -> SolveError {
    SolveError::Undecided(halt.to_string())
}
