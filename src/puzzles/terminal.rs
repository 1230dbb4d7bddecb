//! `waggle puzzle`: puzzles solved at the terminal, one after another, as on the page: the position drawn, whose
//! move it is and what is asked; the person types a move; a right one is answered by the opponent's defence and
//! the line goes on to its end, a wrong one gets its refutation and the person may try again, ask for a hint (the
//! piece to move) or for the solution, or go on to the next puzzle. A streak of puzzles solved at the first try
//! is kept, and said at the end.
//!
//! Owns the conversation and its words; the checking is `solve`'s, the pictures `draw`'s. Where lines come from
//! (a line editor, a pipe) is the caller's.

use std::io::{self, Write};

use crate::draw::{describe, TextStyle};
use crate::record::notation::MoveString;

use super::record::{Kind, Puzzle};
use super::solve::{Answer, Attempt};

/// How a session went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Puzzles shown.
    pub shown: usize,
    /// Puzzles solved without a wrong move, a hint or the solution asked for.
    pub clean: usize,
    /// Puzzles solved in the end.
    pub solved: usize,
    /// The longest run of clean solves.
    pub best_streak: usize,
}

const HELP: &str = "Type your move as a MoveString (wS1, bA1 -wS1, wB1 bQ for a Beetle on top of bQ).
Words:
  hint       the piece to move
  solution   the rest of the line, then the next puzzle
  next       skip to the next puzzle
  board      draw the board again
  help       this text
  quit       stop";

/// What a puzzle asks, in words: `White to move: win in 3` or `Black to move: the only move that holds`.
pub fn task(puzzle: &Puzzle) -> String {
    let side = puzzle.to_move.name();
    match puzzle.kind {
        Kind::Win if puzzle.plies == 1 => format!("{side} to move: win at once"),
        Kind::Win => format!("{side} to move: win in {} plies", puzzle.plies),
        Kind::Defend => format!(
            "{side} to move: the only move that holds (every other loses within {} plies)",
            puzzle.plies
        ),
    }
}

/// Solve `puzzles` in turn, reading the person's lines with `read` (given the prompt; `None` at the end of input)
/// and writing to `out`, pictures in colour when `color`. Returns how it went.
pub fn solve_at_terminal(
    puzzles: &[Puzzle],
    read: &mut dyn FnMut(&str) -> Option<String>,
    out: &mut impl Write,
    color: bool,
) -> io::Result<Tally> {
    let mut tally = Tally::default();
    let mut streak = 0;
    'puzzles: for (number, puzzle) in puzzles.iter().enumerate() {
        let mut attempt = match Attempt::new(puzzle.clone()) {
            Ok(attempt) => attempt,
            Err(e) => {
                writeln!(out, "Puzzle {} ({}) cannot be played: {e}", number + 1, puzzle.id)?;
                continue;
            }
        };
        tally.shown += 1;
        writeln!(
            out,
            "\nPuzzle {} of {} ({}, {}, rating {}): {}.",
            number + 1,
            puzzles.len(),
            puzzle.id,
            puzzle.game_type,
            puzzle.rating,
            task(puzzle)
        )?;
        show(&attempt, out, color)?;
        let mut clean = true;
        loop {
            let Some(line) = read("your move > ") else {
                break 'puzzles;
            };
            let line = line.trim();
            match line.to_ascii_lowercase().as_str() {
                "" => continue,
                "quit" | "exit" => break 'puzzles,
                "help" => writeln!(out, "{HELP}")?,
                "board" => show(&attempt, out, color)?,
                "next" | "skip" => {
                    streak = 0;
                    continue 'puzzles;
                }
                "hint" => {
                    clean = false;
                    match attempt.hint() {
                        Ok(Some(piece)) => writeln!(out, "Hint: move {piece}.")?,
                        Ok(None) => writeln!(out, "No hint: the puzzle is over.")?,
                        Err(e) => writeln!(out, "No hint: {e}")?,
                    }
                }
                "solution" | "show" => {
                    streak = 0;
                    match attempt.rest_of_solution() {
                        Ok(line) => writeln!(out, "The solution from here: {}", join(&line))?,
                        Err(e) => writeln!(out, "The solution cannot be shown: {e}")?,
                    }
                    continue 'puzzles;
                }
                _ => {
                    let name = match line.parse::<MoveString>() {
                        Ok(name) => name,
                        Err(e) => {
                            writeln!(out, "{e} (type 'help' for the words)")?;
                            continue;
                        }
                    };
                    match attempt.try_move(name) {
                        Ok(Answer::Right { reply, solved }) => {
                            let played = attempt.played();
                            let mine = played[played.len() - 1 - usize::from(reply.is_some())];
                            match reply {
                                Some(reply) => writeln!(out, "Right: {mine}. The answer: {reply}.")?,
                                None => writeln!(out, "Right: {mine}.")?,
                            }
                            if solved {
                                tally.solved += 1;
                                if clean {
                                    tally.clean += 1;
                                    streak += 1;
                                    tally.best_streak = tally.best_streak.max(streak);
                                }
                                writeln!(out, "Solved! Streak: {streak}.")?;
                                continue 'puzzles;
                            }
                            show(&attempt, out, color)?;
                        }
                        Ok(Answer::Wrong { refutation }) => {
                            clean = false;
                            streak = 0;
                            let answer = if refutation.is_empty() {
                                String::new()
                            } else {
                                format!(" It is met by {}.", join(&refutation))
                            };
                            writeln!(
                                out,
                                "Not that one.{answer} Try again, or type 'hint', 'solution' or 'next'."
                            )?;
                        }
                        Err(e) => writeln!(out, "{e}")?,
                    }
                }
            }
            out.flush()?;
        }
    }
    writeln!(
        out,
        "\n{} of {} puzzles solved, {} at the first try; the longest streak {}.",
        tally.solved, tally.shown, tally.clean, tally.best_streak
    )?;
    Ok(tally)
}

/// Moves joined by commas.
fn join(moves: &[MoveString]) -> String {
    moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

/// Draw the attempt's position.
fn show(attempt: &Attempt, out: &mut impl Write, color: bool) -> io::Result<()> {
    let style = TextStyle {
        color,
        marks: Vec::new(),
        last_move: true,
    };
    write!(out, "{}", describe(attempt.game().position(), &style))
}
