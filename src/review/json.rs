//! A review as JSON lines: one object a move, then one with the summary. docs/review.md lists the fields.

use serde_json::{json, Value};

use super::{Ply, Review, Score, SideSummary};
use crate::rules::piece::Color;

/// A score in JSON: a number in the engine's units, or a string for a forced result, `"#3"` (the side wins in 3
/// plies) or `"#-2"` (loses in 2).
fn score(score: Score) -> Value {
    match score {
        Score::Value(value) => json!(value),
        forced => json!(forced.to_string()),
    }
}

/// A win chance rounded to four decimals.
fn chance(chance: f64) -> Value {
    json!((chance * 10_000.0).round() / 10_000.0)
}

impl Ply {
    /// The move as a JSON object on one line, for the game numbered `game` (from 1) of the run.
    pub fn to_json(&self, game: usize) -> String {
        json!({
            "game": game,
            "ply": self.number,
            "side": self.mover.name(),
            "move": self.played.to_string(),
            "best": self.best.to_string(),
            "score_before": score(self.score_before),
            "score_after": score(self.score_after),
            "win_chance_before": chance(self.win_chance_before()),
            "win_chance_after": chance(self.win_chance_after()),
            "mark": self.mark.map(|mark| mark.name()),
            "line": self.line.iter().map(ToString::to_string).collect::<Vec<_>>(),
        })
        .to_string()
    }
}

/// One side's summary as a JSON object.
fn side(summary: SideSummary) -> Value {
    json!({
        "moves": summary.moves,
        "inaccuracies": summary.inaccuracies,
        "mistakes": summary.mistakes,
        "blunders": summary.blunders,
        "missed_wins": summary.missed_wins,
        "accuracy": summary.accuracy.map(|accuracy| (accuracy * 10.0).round() / 10.0),
    })
}

impl Review {
    /// The summary as a JSON object on one line, for the game numbered `game` (from 1) of the run.
    pub fn summary_json(&self, game: usize) -> String {
        json!({
            "game": game,
            "summary": {
                "game_type": self.game_type.to_string(),
                "moves": self.moves_in_game,
                "reviewed": self.plies.len(),
                "complete": self.is_complete(),
                "white": side(self.summary(Color::White)),
                "black": side(self.summary(Color::Black)),
                "turning_points": self.turning_points(),
            }
        })
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forced_scores_are_marked_strings() {
        assert_eq!(score(Score::Value(-35)), json!(-35));
        assert_eq!(score(Score::WinIn(3)), json!("#3"));
        assert_eq!(score(Score::LossIn(0)), json!("#-0"));
    }
}
