//! A review as JSON: one object a move, then one with the summary (docs/review.md lists the fields). The values
//! are typed ([`JudgedMove`], [`ReviewSummary`]) so that `waggle review --json` and the page's review (`waggle
//! web`) serialise the same judgement the same way, each number rounded here and nowhere else.

use serde::{Serialize, Serializer};

use super::{Ply, Review, Score, SideSummary};
use crate::rules::piece::Color;

/// A win chance (0 to 1) rounded to four decimals, as every chance of the JSON output is.
pub(crate) fn rounded_chance(chance: f64) -> f64 {
    (chance * 10_000.0).round() / 10_000.0
}

/// A score in JSON: a number in the engine's units, or a string for a forced result, `"#3"` (the side wins in 3
/// plies) or `"#-2"` (loses in 2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ScoreValue(pub(crate) Score);

impl Serialize for ScoreValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Score::Value(value) => serializer.serialize_i32(value),
            forced => serializer.collect_str(&forced),
        }
    }
}

/// One move judged. The fields are in alphabetical order, the order the JSON lines have always had.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct JudgedMove {
    pub(crate) best: String,
    pub(crate) game: usize,
    pub(crate) line: Vec<String>,
    pub(crate) mark: Option<&'static str>,
    #[serde(rename = "move")]
    pub(crate) played: String,
    pub(crate) ply: usize,
    pub(crate) score_after: ScoreValue,
    pub(crate) score_before: ScoreValue,
    pub(crate) side: &'static str,
    pub(crate) win_chance_after: f64,
    pub(crate) win_chance_before: f64,
}

/// One side's summary.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub(crate) struct SideRecord {
    pub(crate) accuracy: Option<f64>,
    pub(crate) blunders: usize,
    pub(crate) inaccuracies: usize,
    pub(crate) missed_wins: usize,
    pub(crate) mistakes: usize,
    pub(crate) moves: usize,
}

impl From<SideSummary> for SideRecord {
    fn from(summary: SideSummary) -> SideRecord {
        SideRecord {
            accuracy: summary.accuracy.map(|accuracy| (accuracy * 10.0).round() / 10.0),
            blunders: summary.blunders,
            inaccuracies: summary.inaccuracies,
            missed_wins: summary.missed_wins,
            mistakes: summary.mistakes,
            moves: summary.moves,
        }
    }
}

/// The summary of a review.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(crate) struct ReviewSummary {
    pub(crate) black: SideRecord,
    pub(crate) complete: bool,
    pub(crate) game_type: String,
    pub(crate) moves: usize,
    pub(crate) reviewed: usize,
    pub(crate) turning_points: Vec<usize>,
    pub(crate) white: SideRecord,
}

/// The summary line: the game's number and its summary.
#[derive(Serialize)]
struct SummaryLine<'a> {
    game: usize,
    summary: &'a ReviewSummary,
}

impl Ply {
    /// The move judged, for the game numbered `game` (from 1) of the run.
    pub(crate) fn judged(&self, game: usize) -> JudgedMove {
        JudgedMove {
            best: self.best.to_string(),
            game,
            line: self.line.iter().map(ToString::to_string).collect(),
            mark: self.mark.map(|mark| mark.name()),
            played: self.played.to_string(),
            ply: self.number,
            score_after: ScoreValue(self.score_after),
            score_before: ScoreValue(self.score_before),
            side: self.mover.name(),
            win_chance_after: rounded_chance(self.win_chance_after()),
            win_chance_before: rounded_chance(self.win_chance_before()),
        }
    }

    /// The move as a JSON object on one line, for the game numbered `game` (from 1) of the run.
    pub fn to_json(&self, game: usize) -> String {
        serde_json::to_string(&self.judged(game)).unwrap_or_default()
    }
}

impl Review {
    /// The summary as typed values.
    pub(crate) fn summary_record(&self) -> ReviewSummary {
        ReviewSummary {
            black: self.summary(Color::Black).into(),
            complete: self.is_complete(),
            game_type: self.game_type.to_string(),
            moves: self.moves_in_game,
            reviewed: self.plies.len(),
            turning_points: self.turning_points(),
            white: self.summary(Color::White).into(),
        }
    }

    /// The summary as a JSON object on one line, for the game numbered `game` (from 1) of the run.
    pub fn summary_json(&self, game: usize) -> String {
        let summary = self.summary_record();
        serde_json::to_string(&SummaryLine {
            game,
            summary: &summary,
        })
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn forced_scores_are_marked_strings() {
        let value = |score| serde_json::to_value(ScoreValue(score)).unwrap();
        assert_eq!(value(Score::Value(-35)), json!(-35));
        assert_eq!(value(Score::WinIn(3)), json!("#3"));
        assert_eq!(value(Score::LossIn(0)), json!("#-0"));
    }

    #[test]
    fn chances_are_rounded_to_four_decimals() {
        assert_eq!(rounded_chance(0.123_456), 0.1235);
        assert_eq!(rounded_chance(1.0), 1.0);
    }
}
