//! The network as the trainer holds it: every weight a float in one flat list (so that the optimiser and the
//! checkpoints see one list), the forward pass that gives a position's score, the backward pass that gives the
//! gradient of the loss, and the rounding into the integer net file the engine reads.
//!
//! The shape and the scales are the engine's (`crate::eval::net`); so is the input function, which the trainer
//! calls on training records.

use rand::rngs::StdRng;
use rand::Rng;

use crate::eval::net::inputs::{FeatureSet, Inputs as InputSet};
use crate::eval::net::layers::{Part, DENSE, HIDDEN, INPUTS, SCALE};
use crate::eval::net::{bucket, write_file};
use crate::eval::{WeightSets, FEATURE_COUNT};
use crate::rules::game_type::GameType;
use crate::rules::piece::{Bug, Color, Piece};
use crate::train::data::Sample;

/// The floats of `part` in the flat list: its block's, but for the input weights, which are followed by the shared
/// rows of the input set (`FeatureSet::factors`) that are folded into them when the net is written.
const fn floats(part: Part) -> usize {
    match part {
        Part::InputWeights => (INPUTS + InputSet::FACTORS) * HIDDEN,
        _ => part.block().len,
    }
}

/// Where `part` starts in the flat list: the blocks in the order of the net file.
const fn start(part: Part) -> usize {
    let mut at = 0;
    let mut i = 0;
    while Part::ALL[i] as u8 != part as u8 {
        at += floats(Part::ALL[i]);
        i += 1;
    }
    at
}

const INPUT_WEIGHTS: usize = start(Part::InputWeights);
const INPUT_BIASES: usize = start(Part::InputBiases);
const OUTPUT_WEIGHTS: usize = start(Part::OutputWeights);
const OUTPUT_BIASES: usize = start(Part::OutputBiases);
const SKIP: usize = start(Part::Skip);
const DENSE_WEIGHTS: usize = start(Part::DenseWeights);
const DENSE_BIASES: usize = start(Part::DenseBiases);
const DENSE_OUTPUT: usize = start(Part::DenseOutput);
/// Every weight and bias.
pub(crate) const PARAMETERS: usize = DENSE_OUTPUT + floats(Part::DenseOutput);

/// A position's inputs: the features each side turns on, the side to move and the output bucket.
#[derive(Clone, Debug)]
pub(crate) struct Inputs {
    /// White's features then Black's, `split` apart.
    features: Vec<u16>,
    split: usize,
    to_move: usize,
    bucket: usize,
    /// The hand-written evaluation's features.
    classic: [f32; FEATURE_COUNT],
}

impl Default for Inputs {
    fn default() -> Self {
        Inputs {
            features: Vec::with_capacity(8 * InputSet::MAX_ACTIVE),
            split: 0,
            to_move: 0,
            bucket: 0,
            classic: [0.0; FEATURE_COUNT],
        }
    }
}

impl Inputs {
    /// The inputs of `record`, into `self` (its lists reused).
    pub(crate) fn fill(&mut self, sample: &Sample) {
        let record = &sample.record;
        self.classic = sample.classic.map(f32::from);
        let queen = |color: Color| {
            let piece = Piece::new(color, Bug::Queen, 1).unwrap_or(Piece::from_index(0));
            record.places[piece.index()].map(|(hex, _)| hex)
        };
        let queens = [queen(Color::White), queen(Color::Black)];
        let placed = || record.placed().map(|p| (p.piece, p.hex, p.height));
        let in_hand =
            || Piece::all().filter(|p| record.game_type.includes(p.bug()) && record.places[p.index()].is_none());
        self.features.clear();
        InputSet::active(
            &InputSet::view(Color::White, queens),
            placed(),
            in_hand(),
            &mut self.features,
        );
        with_factors(&mut self.features, 0);
        self.split = self.features.len();
        InputSet::active(
            &InputSet::view(Color::Black, queens),
            placed(),
            in_hand(),
            &mut self.features,
        );
        with_factors(&mut self.features, self.split);
        self.to_move = record.to_move.index();
        self.bucket = bucket(record.game_type);
    }

    fn side(&self, color: usize) -> &[u16] {
        if color == 0 {
            &self.features[..self.split]
        } else {
            &self.features[self.split..]
        }
    }
}

/// Append to `features` the shared rows of each of its features from `start` on.
fn with_factors(features: &mut Vec<u16>, start: usize) {
    for i in start..features.len() {
        let (shared, count) = InputSet::factors(features[i]);
        features.extend(shared[..count].iter().map(|&f| INPUTS as u16 + f));
    }
}

/// What the forward pass leaves for the backward pass.
pub(crate) struct Pass {
    /// Each side's neurons before clipping, White's first.
    neurons: [[f32; HIDDEN]; 2],
    /// The dense layer's neurons before clipping.
    dense: [f32; DENSE],
    /// The network's output (a score of `output · SCALE`).
    pub(crate) output: f32,
}

impl Default for Pass {
    fn default() -> Self {
        Pass {
            neurons: [[0.0; HIDDEN]; 2],
            dense: [0.0; DENSE],
            output: 0.0,
        }
    }
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Model {
    pub(crate) weights: Vec<f32>,
}

/// `x` clipped to `[0, 1]` and squared: the neurons' activation.
#[inline]
fn activation(x: f32) -> f32 {
    let clipped = x.clamp(0.0, 1.0);
    clipped * clipped
}

impl Model {
    /// Small random weights from `rng`, and the skip weights of the hand-written evaluation (Waggle's own, each game
    /// type's): the net starts as that evaluation and learns what it misses.
    pub(crate) fn random(rng: &mut StdRng) -> Model {
        let mut weights = vec![0.0; PARAMETERS];
        let input = 1.0 / (InputSet::MAX_ACTIVE as f32).sqrt();
        let output = 1.0 / ((2 * HIDDEN) as f32).sqrt();
        for w in &mut weights[INPUT_WEIGHTS..INPUT_BIASES] {
            *w = rng.gen_range(-input..input);
        }
        for w in &mut weights[OUTPUT_WEIGHTS..OUTPUT_BIASES] {
            *w = rng.gen_range(-output..output);
        }
        for w in &mut weights[DENSE_WEIGHTS..DENSE_BIASES] {
            *w = rng.gen_range(-0.05..0.05);
        }
        for w in &mut weights[DENSE_OUTPUT..] {
            *w = rng.gen_range(-output..output);
        }
        let classic = WeightSets::default();
        for (bucket, skip) in weights[SKIP..DENSE_WEIGHTS].chunks_exact_mut(FEATURE_COUNT).enumerate() {
            let game_type = GameType::new(bucket & 1 != 0, bucket & 2 != 0, bucket & 4 != 0);
            for (w, &c) in skip.iter_mut().zip(&classic.for_game(game_type).0) {
                *w = c as f32 / SCALE as f32;
            }
        }
        Model { weights }
    }

    /// The forward pass of `inputs` into `pass`.
    #[inline]
    pub(crate) fn forward(&self, inputs: &Inputs, pass: &mut Pass) {
        let biases = &self.weights[INPUT_BIASES..INPUT_BIASES + HIDDEN];
        for color in 0..2 {
            let neurons = &mut pass.neurons[color];
            neurons.copy_from_slice(biases);
            for &feature in inputs.side(color) {
                let row = &self.weights[usize::from(feature) * HIDDEN..][..HIDDEN];
                for (n, w) in neurons.iter_mut().zip(row) {
                    *n += w;
                }
            }
        }
        let out = &self.weights[OUTPUT_WEIGHTS + inputs.bucket * 2 * HIDDEN..][..2 * HIDDEN];
        let (own, other) = (inputs.to_move, 1 - inputs.to_move);
        let mut sum = self.weights[OUTPUT_BIASES + inputs.bucket];
        let skip = &self.weights[SKIP + inputs.bucket * FEATURE_COUNT..][..FEATURE_COUNT];
        sum += skip.iter().zip(&inputs.classic).map(|(w, f)| w * f).sum::<f32>();
        for i in 0..HIDDEN {
            sum += activation(pass.neurons[own][i]) * out[i] + activation(pass.neurons[other][i]) * out[HIDDEN + i];
        }
        let dense_out = &self.weights[DENSE_OUTPUT + inputs.bucket * DENSE..][..DENSE];
        for (k, (neuron, out)) in pass.dense.iter_mut().zip(dense_out).enumerate() {
            let row = &self.weights[DENSE_WEIGHTS + k * FEATURE_COUNT..][..FEATURE_COUNT];
            let z = self.weights[DENSE_BIASES + k] + row.iter().zip(&inputs.classic).map(|(w, f)| w * f).sum::<f32>();
            *neuron = z;
            sum += activation(z) * out;
        }
        pass.output = sum;
    }

    /// Add to `gradient` the gradient of the loss for `inputs` given `d_output`, the loss's derivative by the
    /// output, after [`Model::forward`] left `pass`.
    #[inline]
    pub(crate) fn backward(&self, inputs: &Inputs, pass: &Pass, d_output: f32, gradient: &mut [f32]) {
        let at = OUTPUT_WEIGHTS + inputs.bucket * 2 * HIDDEN;
        let out = &self.weights[at..at + 2 * HIDDEN];
        gradient[OUTPUT_BIASES + inputs.bucket] += d_output;
        let skip = &mut gradient[SKIP + inputs.bucket * FEATURE_COUNT..][..FEATURE_COUNT];
        for (g, f) in skip.iter_mut().zip(&inputs.classic) {
            *g += d_output * f;
        }
        for k in 0..DENSE {
            let z = pass.dense[k];
            let out_at = DENSE_OUTPUT + inputs.bucket * DENSE + k;
            let d_z = if z > 0.0 && z < 1.0 {
                d_output * self.weights[out_at] * 2.0 * z
            } else {
                0.0
            };
            gradient[out_at] += d_output * activation(z);
            gradient[DENSE_BIASES + k] += d_z;
            if d_z != 0.0 {
                let row = &mut gradient[DENSE_WEIGHTS + k * FEATURE_COUNT..][..FEATURE_COUNT];
                for (g, f) in row.iter_mut().zip(&inputs.classic) {
                    *g += d_z * f;
                }
            }
        }
        let (own, other) = (inputs.to_move, 1 - inputs.to_move);
        let mut d_neurons = [[0.0f32; HIDDEN]; 2];
        for (half, color) in [(0, own), (HIDDEN, other)] {
            for i in 0..HIDDEN {
                let n = pass.neurons[color][i];
                gradient[at + half + i] += d_output * activation(n);
                d_neurons[color][i] = if n > 0.0 && n < 1.0 {
                    d_output * out[half + i] * 2.0 * n
                } else {
                    0.0
                };
            }
        }
        for (color, d) in d_neurons.iter().enumerate() {
            let biases = &mut gradient[INPUT_BIASES..INPUT_BIASES + HIDDEN];
            for (g, d) in biases.iter_mut().zip(d) {
                *g += d;
            }
            for &feature in inputs.side(color) {
                let row = &mut gradient[usize::from(feature) * HIDDEN..][..HIDDEN];
                for (g, d) in row.iter_mut().zip(d) {
                    *g += d;
                }
            }
        }
    }

    /// Keep every weight of the blocks that are clipped within their bound ([`crate::eval::net::layers::CLIP`]).
    pub(crate) fn clip(&mut self) {
        for part in Part::ALL {
            let block = part.block();
            if block.clipped {
                let bound = crate::eval::net::layers::CLIP;
                for w in &mut self.weights[start(part)..start(part) + floats(part)] {
                    *w = w.clamp(-bound, bound);
                }
            }
        }
    }

    /// The bytes of the integer net file of this model, each block rounded by its own scale.
    pub(crate) fn to_net_file(&self) -> Vec<u8> {
        let row = |index: usize| &self.weights[INPUT_WEIGHTS + index * HIDDEN..][..HIDDEN];
        write_file(|part| {
            let block = part.block();
            match part {
                // Each feature's row with its shared rows folded in.
                Part::InputWeights => (0..INPUTS)
                    .flat_map(|feature| {
                        let (shared, count) = InputSet::factors(feature as u16);
                        (0..HIDDEN).map(move |i| {
                            let shared_sum: f32 =
                                shared[..count].iter().map(|&f| row(INPUTS + usize::from(f))[i]).sum();
                            block.quantise(row(feature)[i] + shared_sum)
                        })
                    })
                    .collect(),
                _ => self.weights[start(part)..start(part) + block.len]
                    .iter()
                    .map(|&w| block.quantise(w))
                    .collect(),
            }
        })
    }
}

/// The score, in the search's units, of a network output.
pub(crate) fn score_of(output: f32) -> f32 {
    output * SCALE as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Network;
    use crate::record::training::{Outcome, TrainingPosition};
    use crate::rules::game_type::GameType;
    use crate::rules::position::Position;
    use rand::SeedableRng;

    /// The integer net the engine reads scores positions as the float model does, to within the rounding of the
    /// weights: over the positions of random games of every game type, the scores differ by 4 units on average and
    /// by at most 32 units and 5 % (a clear edge is about 100 units).
    #[test]
    fn the_integer_net_agrees_with_the_float_model() {
        let mut rng = StdRng::seed_from_u64(9);
        let mut model = Model::random(&mut rng);
        // Weights as large as training makes them, so that the neurons reach their clipping.
        for w in &mut model.weights {
            *w *= 3.0;
        }
        model.clip();
        let net = Network::from_bytes(&model.to_net_file()).unwrap();
        let (mut inputs, mut pass) = (Inputs::default(), Pass::default());
        let (mut total, mut checked) = (0.0f64, 0);
        for game in 0..40 {
            let mut pos = Position::new(GameType::ALL[game % 8]);
            for _ in 0..rng.gen_range(5..80) {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.state().is_over() {
                    break;
                }
                pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                let sample = Sample::new(TrainingPosition::of(&pos, 0, Outcome::Draw));
                inputs.fill(&sample);
                model.forward(&inputs, &mut pass);
                let float = score_of(pass.output);
                let integer = net.evaluate(&pos) as f32;
                let difference = (float - integer).abs();
                assert!(difference <= 32.0 + float.abs() * 0.05, "{float} {integer}");
                total += f64::from(difference);
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked}");
        assert!(
            total / f64::from(checked) < 4.0,
            "mean difference {}",
            total / f64::from(checked)
        );
    }
}
