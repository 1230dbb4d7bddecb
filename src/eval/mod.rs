//! Static evaluation: how good a position looks to the side to move, without searching.
//!
//! The evaluation is the dot product of a position's [`Features`] (pressure on each Queen, pieces free to move,
//! pieces covered or on top, pieces in hand) with a set of [`Weights`], clamped to `±MAX_EVAL`. The weights are a
//! value the searcher holds, so that a tuner can fit them and a match can compare two sets. It does not look at the
//! game state: a finished game is scored by the search before it ever asks for an evaluation.

mod features;

pub use features::{Feature, Features, FEATURE_COUNT};

#[cfg(test)]
use crate::piece::Bug;
use crate::position::Position;

/// The largest magnitude `evaluate` returns, well below the search's win scores.
pub const MAX_EVAL: i32 = 20_000;

/// One weight per feature, in [`Feature::ALL`] order, in the search's units.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights(pub [i32; FEATURE_COUNT]);

/// Waggle's weights: fitted to the results of self-play games by `waggle tune` (see the README), kept as the
/// text `waggle tune --out` writes.
const DEFAULT_WEIGHTS: &str = include_str!("weights.txt");

impl Default for Weights {
    /// Waggle's own weights, from `weights.txt` (a test checks that the file reads).
    fn default() -> Self {
        Weights::parse(DEFAULT_WEIGHTS).unwrap_or(Weights([0; FEATURE_COUNT]))
    }
}

impl Weights {
    /// The weight of `feature`.
    pub fn get(&self, feature: Feature) -> i32 {
        self.0[feature.index()]
    }

    /// Set the weight of `feature`.
    pub fn set(&mut self, feature: Feature, weight: i32) {
        self.0[feature.index()] = weight;
    }

    /// The weights as text, one `name value` line per feature (the names of [`Feature::name`]).
    pub fn to_text(&self) -> String {
        Feature::ALL
            .iter()
            .map(|&f| format!("{} {}\n", f.name(), self.get(f)))
            .collect()
    }

    /// Weights from text written by [`Weights::to_text`]: features not named weigh 0; blank lines and lines
    /// starting with `#` are skipped.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut weights = Weights([0; FEATURE_COUNT]);
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("line {}: expected a feature name and a whole number", i + 1));
            };
            let feature = Feature::ALL
                .into_iter()
                .find(|f| f.name() == name)
                .ok_or_else(|| format!("line {}: '{name}' is not a feature", i + 1))?;
            let value = value
                .parse()
                .map_err(|_| format!("line {}: '{value}' is not a whole number", i + 1))?;
            weights.set(feature, value);
        }
        Ok(weights)
    }

    /// The unclamped score of `features`: their dot product with these weights.
    #[inline]
    pub fn score(&self, features: &Features) -> i32 {
        self.0.iter().zip(features.0.iter()).map(|(w, f)| w * f).sum()
    }
}

/// The value of `pos` for the side to move under `weights`, in the search's units (`±MAX_EVAL` at most).
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    weights.score(&Features::of(pos)).clamp(-MAX_EVAL, MAX_EVAL)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_type::GameType;

    fn eval(pos: &Position) -> i32 {
        evaluate(pos, &Weights::default())
    }

    #[test]
    fn the_empty_board_is_level_but_for_the_tempo() {
        let pos = Position::new(GameType::MLP);
        assert_eq!(eval(&pos), Weights::default().get(Feature::Tempo));
    }

    #[test]
    fn a_crowded_queen_is_bad_for_her_owner_whoever_is_to_move() {
        let tempo = Weights::default().get(Feature::Tempo);
        // Black's Queen has five neighbours, White's four (three of them free to step away).
        let white_to_move = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wG1 \\wQ;\
                             bG2 bQ/;wG2 /wQ;bG3 bQ\\;wS2 \\wG1;bA1 \\bQ";
        let black_to_move = format!("{white_to_move};wB1 -wG2");
        let pos = Position::from_game_string(white_to_move).unwrap();
        assert!(eval(&pos) > 2 * tempo, "{}", eval(&pos));
        let features = Features::of(&pos);
        assert_eq!(
            features.get(Feature::QueenNeighbours(5)),
            -1,
            "Black's Queen: {features:?}"
        );
        assert_eq!(
            features.get(Feature::QueenNeighbours(4)),
            1,
            "White's Queen: {features:?}"
        );
        let pos = Position::from_game_string(&black_to_move).unwrap();
        assert!(eval(&pos) < -2 * tempo, "{}", eval(&pos));
    }

    #[test]
    fn weights_read_back_from_their_text() {
        assert_eq!(Weights::parse(DEFAULT_WEIGHTS), Ok(Weights::default()));
        assert_ne!(Weights::default(), Weights([0; FEATURE_COUNT]));
        let mut weights = Weights::default();
        weights.set(Feature::Free(Bug::Ant), 41);
        assert_eq!(Weights::parse(&weights.to_text()), Ok(weights));
        let mut only = Weights([0; FEATURE_COUNT]);
        only.set(Feature::Free(Bug::Ant), 41);
        assert_eq!(Weights::parse("# only one\nfree_soldier_ant 41\n"), Ok(only));
        assert!(Weights::parse("free_dragon 3").is_err());
        assert!(Weights::parse("tempo three").is_err());
    }

    #[test]
    fn the_evaluation_is_the_dot_product_and_each_weight_moves_it() {
        let text = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wG1 \\wQ;bG2 bQ/";
        let pos = Position::from_game_string(text).unwrap();
        let features = Features::of(&pos);
        let weights = Weights::default();
        let by_hand: i32 = Feature::ALL.iter().map(|&f| weights.get(f) * features.get(f)).sum();
        assert_eq!(eval(&pos), by_hand);
        for feature in Feature::ALL {
            let mut changed = weights;
            changed.set(feature, weights.get(feature) + 1);
            assert_eq!(
                evaluate(&pos, &changed) - eval(&pos),
                features.get(feature),
                "{feature:?}"
            );
        }
        // A weight large enough to pass the bound is clamped to it.
        let mut huge = weights;
        huge.set(Feature::Tempo, 10 * MAX_EVAL);
        assert_eq!(evaluate(&pos, &huge), MAX_EVAL);
    }
}
