//! Static evaluation: how good a position looks to the side to move, without searching.
//!
//! The evaluation is the dot product of a position's [`Features`] (pressure on each Queen, pieces free to move,
//! pieces covered or on top, pieces in hand) with a set of [`Weights`], clamped to `±MAX_EVAL`. Each game type
//! has its set ([`WeightSets`]), since what a feature is worth depends on the bugs in play. The weights are a
//! value the searcher holds, so that a tuner can fit them and a match can compare two sets. It does not look at the
//! game state: a finished game is scored by the search before it ever asks for an evaluation.

mod features;
mod line;
// What serves the trainer alone in the net (its file writing, quantising, factored inputs) is unused in a build
// without it.
#[cfg_attr(not(feature = "train"), allow(dead_code, unused_imports))]
pub(crate) mod net;

#[cfg(feature = "tune")]
pub(crate) use features::Neighbours;
pub use features::{Feature, Features, FEATURE_COUNT};
pub(crate) use line::{LineEvaluator, LineMemory};
pub use net::{NetError, Network};

use crate::rules::game_type::GameType;
use crate::rules::position::Position;

/// The largest magnitude `evaluate` returns, well below the search's win scores.
pub const MAX_EVAL: i32 = 20_000;

/// The scale of the win-chance curve: a score of `s` gives the side to move a win chance of
/// 1 / (1 + 10^(−s / WIN_CURVE_SCALE)). Fitted by `waggle tune --win-curve` to the results of Base+MLP self-play
/// games of the hand-written evaluation; the network is trained to predict results through it (the review has a
/// curve of its own, fitted to the net's games with a tempo: `review::score`).
#[cfg(feature = "train")]
pub(crate) const WIN_CURVE_SCALE: f64 = 322.0;

/// The scale S of the curve that reads a *searched* score as the side to move's chance of winning, for people (the
/// review, the page, the terminal game's hint): 1 / (1 + 10^(−(score − T) / S)). Fitted by `waggle tune
/// --win-curve` to 1,000 self-play games of the built-in net (docs/review.md, "Fitting the curve").
pub(crate) const SEARCHED_CURVE_SCALE: f64 = 349.0;

/// The tempo T of that curve: what a search's score gives the side to move for being on move, beyond what it wins.
pub(crate) const SEARCHED_CURVE_TEMPO: f64 = 7.0;

/// The chance of winning that a score of `score` stands for, on the logistic curve of scale `scale`:
/// 1 / (1 + 10^(−score / scale)). The one curve that turns the search's units into results, for the tuner (which
/// fits weights, or the scale, to it) and the review (which judges moves by it).
pub(crate) fn win_chance(score: f64, scale: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-score / scale))
}

/// One weight per feature of the evaluation, in the search's units.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights(pub(crate) [i32; FEATURE_COUNT]);

/// Waggle's weights, as [`WeightSets::parse`] reads them: for each game type with a section, those fitted by
/// `waggle tune` to its own self-play games (see docs/tuning.md); the hand-picked ones of v0.1.0 for the others.
const DEFAULT_WEIGHTS: &str = include_str!("weights.txt");

/// One set of [`Weights`] per game type, in [`GameType::index`] order: a search evaluates with the set of its
/// position's game type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct WeightSets([Weights; GameType::COUNT]);

impl Default for WeightSets {
    /// Waggle's own weights, from `weights.txt` (a test checks that the file reads).
    fn default() -> Self {
        WeightSets::parse(DEFAULT_WEIGHTS).unwrap_or(WeightSets::uniform(Weights([0; FEATURE_COUNT])))
    }
}

impl WeightSets {
    /// The same weights for every game type.
    pub fn uniform(weights: Weights) -> WeightSets {
        WeightSets([weights; GameType::COUNT])
    }

    /// The weights of `game_type`.
    pub fn for_game(&self, game_type: GameType) -> &Weights {
        &self.0[game_type.index()]
    }

    /// Weight sets from text: `name value` lines as [`Weights::parse`] reads them, in sections. The lines before
    /// any section header are the weights of every game type; a header `[GameType, …]` (for example
    /// `[Base+MLP]`) starts a set of its own, from zeros, for the game types it names.
    pub fn parse(text: &str) -> Result<WeightSets, WeightsError> {
        let mut common = Weights([0; FEATURE_COUNT]);
        let mut sections: Vec<(Vec<GameType>, Weights)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let at = |why: WeightLineError| WeightsError(i + 1, why);
            let trimmed = line.trim();
            if let Some(header) = trimmed.strip_prefix('[') {
                let names = header.strip_suffix(']').ok_or(at(WeightLineError::Header))?;
                let types = names
                    .split(',')
                    .map(|name| name.trim().parse::<GameType>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| at(WeightLineError::GameType(e)))?;
                sections.push((types, Weights([0; FEATURE_COUNT])));
            } else if let Some((feature, value)) = Weights::parse_line(trimmed).map_err(at)? {
                let target = sections.last_mut().map_or(&mut common, |(_, weights)| weights);
                target.set(feature, value);
            }
        }
        let mut sets = WeightSets::uniform(common);
        for (types, weights) in sections {
            for game_type in types {
                sets.0[game_type.index()] = weights;
            }
        }
        Ok(sets)
    }
}

/// A line of weights that does not read: the line (counted from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {0}: {1}")]
pub struct WeightsError(pub usize, WeightLineError);

/// What is wrong with a line of weights.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum WeightLineError {
    /// Not two words.
    #[error("expected a feature name and a whole number")]
    Shape,
    /// An unknown feature.
    #[error("'{0}' is not a feature")]
    Feature(String),
    /// A weight that is not a whole number.
    #[error("'{0}' is not a whole number")]
    Number(String),
    /// A section header without its `]`.
    #[error("a section header ends with ']'")]
    Header,
    /// A section header naming something that is not a game type.
    #[error(transparent)]
    GameType(#[from] crate::rules::game_type::GameTypeError),
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

    /// Each feature's name and weight, in the order of the evaluation's features.
    pub fn named(&self) -> impl Iterator<Item = (String, i32)> + '_ {
        Feature::ALL.iter().map(|&f| (f.name(), self.get(f)))
    }

    /// The weights as text, one `name value` line per feature (the names of [`Weights::named`]).
    pub fn to_text(&self) -> String {
        Feature::ALL
            .iter()
            .map(|&f| format!("{} {}\n", f.name(), self.get(f)))
            .collect()
    }

    /// Weights from text written by [`Weights::to_text`]: features not named weigh 0; blank lines and lines
    /// starting with `#` are skipped.
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut weights = Weights([0; FEATURE_COUNT]);
        for (i, line) in text.lines().enumerate() {
            if let Some((feature, value)) = Weights::parse_line(line.trim()).map_err(|why| WeightsError(i + 1, why))? {
                weights.set(feature, value);
            }
        }
        Ok(weights)
    }

    /// One trimmed line of weights text: a feature and its weight, or nothing for a blank line or a comment.
    fn parse_line(line: &str) -> Result<Option<(Feature, i32)>, WeightLineError> {
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let mut words = line.split_whitespace();
        let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(WeightLineError::Shape);
        };
        // The names written once: every engine reads the built-in weights' 300-odd lines at start-up.
        static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        let names = NAMES.get_or_init(|| Feature::ALL.iter().map(|f| f.name()).collect());
        let feature = names
            .iter()
            .position(|known| known == name)
            .map(|i| Feature::ALL[i])
            .ok_or_else(|| WeightLineError::Feature(name.to_string()))?;
        let value = value.parse().map_err(|_| WeightLineError::Number(value.to_string()))?;
        Ok(Some((feature, value)))
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

/// The evaluation a search scores its leaves with: the hand-written one with the weights of the position's game
/// type, or the network. The one place that chooses between them; a search thread asks it through a
/// [`LineEvaluator`], which follows the thread's line.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Evaluator<'a> {
    /// The weighted sum of features.
    Classic(&'a Weights),
    /// The network, its neurons kept up to date along the search's line (`net::accumulator`).
    Net(&'a Network),
}

impl Evaluator<'_> {
    /// The value of `pos` for the side to move, worked out from scratch (`±MAX_EVAL` at most).
    pub(crate) fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            Evaluator::Classic(weights) => evaluate(pos, weights),
            Evaluator::Net(net) => net.evaluate(pos).clamp(-MAX_EVAL, MAX_EVAL),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::features::Neighbours;
    use super::*;
    use crate::rules::game_type::GameType;
    use crate::rules::piece::Bug;

    /// The default weights of `pos`'s game type.
    fn weights_of(pos: &Position) -> Weights {
        *WeightSets::default().for_game(pos.game_type())
    }

    fn eval(pos: &Position) -> i32 {
        evaluate(pos, &weights_of(pos))
    }

    #[test]
    fn the_empty_board_is_level_but_for_the_tempo() {
        let pos = Position::new(GameType::MLP);
        assert_eq!(eval(&pos), weights_of(&pos).get(Feature::Tempo));
    }

    #[test]
    fn a_crowded_queen_is_bad_for_her_owner_whoever_is_to_move() {
        let tempo = weights_of(&Position::new(GameType::BASE)).get(Feature::Tempo);
        // Black's Queen has five neighbours, White's four (three of them free to step away).
        let white_to_move = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wG1 \\wQ;\
                             bG2 bQ/;wG2 /wQ;bG3 bQ\\;wS2 \\wG1;bA1 \\bQ";
        let black_to_move = format!("{};wB1 -wG2", white_to_move.replacen("White[7]", "Black[7]", 1));
        let pos = crate::record::tests::position(white_to_move);
        assert!(eval(&pos) > 2 * tempo, "{}", eval(&pos));
        let features = Features::of(&pos);
        assert_eq!(
            features.get(Feature::QueenNeighbours(Neighbours::ALL[5])),
            -1,
            "Black's Queen: {features:?}"
        );
        assert_eq!(
            features.get(Feature::QueenNeighbours(Neighbours::ALL[4])),
            1,
            "White's Queen: {features:?}"
        );
        let pos = crate::record::tests::position(&black_to_move);
        assert!(eval(&pos) < -2 * tempo, "{}", eval(&pos));
    }

    #[test]
    fn weights_read_back_from_their_text() {
        let mut weights = *WeightSets::default().for_game(GameType::MLP);
        weights.set(Feature::Free(Bug::Ant), 41);
        assert_eq!(Weights::parse(&weights.to_text()), Ok(weights));
        let mut only = Weights([0; FEATURE_COUNT]);
        only.set(Feature::Free(Bug::Ant), 41);
        assert_eq!(Weights::parse("# only one\nfree_soldier_ant 41\n"), Ok(only));
        assert!(Weights::parse("free_dragon 3").is_err());
        assert!(Weights::parse("tempo three").is_err());
    }

    #[test]
    fn the_default_weights_are_fitted_for_their_game_types_and_hand_picked_for_the_rest() {
        // The game types with a section of their own in weights.txt, each fitted to its own games (Base+M's moved
        // part of the way to its fit).
        const FITTED: [&str; 7] = [
            "Base+MLP", "Base+ML", "Base+MP", "Base+LP", "Base+L", "Base+P", "Base+M",
        ];
        let sets = WeightSets::parse(DEFAULT_WEIGHTS).expect("weights.txt reads");
        assert_eq!(sets, WeightSets::default());
        let common = DEFAULT_WEIGHTS.split("\n[").next().unwrap_or_default();
        let hand = Weights::parse(common).expect("the common weights read");
        assert_ne!(hand, Weights([0; FEATURE_COUNT]));
        let mut fitted = Vec::new();
        for game_type in GameType::ALL {
            let weights = *sets.for_game(game_type);
            if FITTED.contains(&game_type.to_string().as_str()) {
                assert!(weights != hand && !fitted.contains(&weights), "{game_type}");
                fitted.push(weights);
            } else {
                assert_eq!(weights, hand, "{game_type}");
            }
        }
        assert_eq!(fitted.len(), FITTED.len());
        // v0.1.0's weights, as its evaluation had them in its constants.
        assert_eq!(hand.get(Feature::QueenNeighbours(Neighbours::ALL[6])), -400);
        assert_eq!(hand.get(Feature::Free(Bug::Ant)), 30);
        assert_eq!(hand.get(Feature::Tempo), 8);
        assert_eq!(hand.get(Feature::Pinned), 0);
    }

    #[test]
    fn weight_sets_read_sections_per_game_type() {
        let text = "tempo 5\nfree_soldier_ant 7\n\n[Base+M, Base+L]\n# its own\ntempo 9\n[base+mlp]\non_top 3\n";
        let sets = WeightSets::parse(text).unwrap();
        let with = |pairs: &[(Feature, i32)]| {
            let mut weights = Weights([0; FEATURE_COUNT]);
            for &(feature, value) in pairs {
                weights.set(feature, value);
            }
            weights
        };
        let common = with(&[(Feature::Tempo, 5), (Feature::Free(Bug::Ant), 7)]);
        for game_type in GameType::ALL {
            let expected = match game_type.to_string().as_str() {
                "Base+M" | "Base+L" => with(&[(Feature::Tempo, 9)]),
                "Base+MLP" => with(&[(Feature::OnTop, 3)]),
                _ => common,
            };
            assert_eq!(*sets.for_game(game_type), expected, "{game_type}");
        }
        // Text without sections, as `waggle tune` writes it, is one set for every game type.
        assert_eq!(WeightSets::parse(&common.to_text()), Ok(WeightSets::uniform(common)));
        assert_eq!(
            WeightSets::parse("tempo 1\n[Base+X]\n").unwrap_err().to_string(),
            "line 2: 'Base+X' is not a game type: 'X' is no expansion; expected Base, or Base+ followed by any of M, L \
             and P (for example Base+MLP)"
        );
        assert_eq!(
            WeightSets::parse("[Base\n").unwrap_err().to_string(),
            "line 1: a section header ends with ']'"
        );
        assert_eq!(
            WeightSets::parse("[Base]\ntempo x").unwrap_err().to_string(),
            "line 2: 'x' is not a whole number"
        );
    }

    #[test]
    fn the_evaluation_is_the_dot_product_and_each_weight_moves_it() {
        let text = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bG1 bQ-;wG1 \\wQ;bG2 bQ/";
        let pos = crate::record::tests::position(text);
        let features = Features::of(&pos);
        let weights = weights_of(&pos);
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
