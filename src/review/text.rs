//! A review for a person at a terminal: a line a move, then each side's marks and accuracy and the turning
//! points.

use std::fmt::{self, Write as _};

use super::{Ply, Review};
use crate::rules::piece::Color;

impl Ply {
    /// The heading over the lines of the moves (their `Display`).
    pub const HEADING: &str = "  ply  side   played          best            judgement    White's win chance";
}

impl fmt::Display for Ply {
    /// `   25  Black  bQ -wA1         wQ -bA1         Inaccuracy   31%`: the number, the side, the move played, the
    /// engine's best move where it differs, the mark and White's win chance after the move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let best = if self.is_best() {
            String::new()
        } else {
            self.best.to_string()
        };
        let mark = self.mark.map(|mark| mark.to_string()).unwrap_or_default();
        write!(
            f,
            "{:>5}  {:<5}  {:<14}  {:<14}  {:<11}  {:>3.0}%",
            self.number,
            self.mover.name(),
            self.played.to_string(),
            best,
            mark,
            100.0 * self.white_chance()
        )
    }
}

impl Review {
    /// The lines after the moves: each side's marks and accuracy, and the turning points.
    pub fn summary_text(&self) -> String {
        let mut text = String::new();
        if !self.is_complete() {
            let _ = writeln!(
                text,
                "Stopped: {} of {} moves reviewed.",
                self.plies.len(),
                self.moves_in_game
            );
        }
        if self.moves_in_game == 0 {
            let _ = writeln!(text, "Nothing to judge: the game has no moves.");
            return text;
        }
        for side in [Color::White, Color::Black] {
            let summary = self.summary(side);
            let Some(accuracy) = summary.accuracy else {
                let _ = writeln!(text, "{:<5}  no move judged", side.name());
                continue;
            };
            let _ = writeln!(
                text,
                "{:<5}  {}, {}, {}, {}; accuracy {accuracy:.0}%",
                side.name(),
                count(summary.inaccuracies, "inaccuracy", "inaccuracies"),
                count(summary.mistakes, "mistake", "mistakes"),
                count(summary.blunders, "blunder", "blunders"),
                count(summary.missed_wins, "missed win", "missed wins"),
            );
        }
        let turns = self.turning_points();
        if turns.is_empty() {
            let _ = writeln!(text, "Turning points: none");
        } else {
            let named: Vec<String> = turns
                .iter()
                .filter_map(|&number| self.plies.get(number - 1))
                .map(|ply| {
                    let mark = ply.mark.map(|mark| mark.to_string().to_lowercase()).unwrap_or_default();
                    format!("{} {} ({})", ply.number, ply.played, mark)
                })
                .collect();
            let _ = writeln!(text, "Turning points: {}", named.join(", "));
        }
        text
    }
}

/// `1 mistake`, `2 mistakes`, `0 mistakes`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(1, "blunder", "blunders"), "1 blunder");
        assert_eq!(count(0, "blunder", "blunders"), "0 blunders");
        assert_eq!(count(3, "inaccuracy", "inaccuracies"), "3 inaccuracies");
    }
}
