//! The network evaluation: a small network learnt from Waggle's own games (docs/eval.md has the drawing and how the
//! shipped net was made).
//!
//! Each side's view of the position ([`inputs`]) turns on a few dozen of 2,548 features; the sum of their rows of
//! input weights is that side's accumulator of [`HIDDEN`] neurons, kept up to date move by move
//! ([`accumulator`]). The side to move's neurons and then the other side's, each clipped to `[0, 1]` and squared,
//! are weighed by one output layer per game type into a score in the search's units, to which the hand-written
//! evaluation's features (mobility, pinned pieces, the Queens' neighbours … : what a piece's place alone does not
//! show) add a learnt weighted sum, the skip. Everything is integer: the weights were trained as floats and rounded
//! with the scales of [`layers`], where the shape is written once for the engine, the net file and the trainer.

pub(crate) mod accumulator;
mod file;
pub(crate) use file::fnv1a;
pub(crate) mod inputs;
pub(crate) mod layers;
mod refresh;
mod simd;

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

pub(crate) use file::write as write_file;
pub use file::NetError;

use crate::eval::Features;
use crate::rules::game_type::GameType;
use crate::rules::hex::Hex;
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::position::Position;
use inputs::{FeatureSet, Inputs};
use layers::{clipped_bound, Part, BUCKETS, DENSE, HIDDEN, INPUTS, QA, QB, QD, QS, SCALE, SKIP_INPUTS};

/// Bytes on a 64-byte boundary, so that the built-in net's weights can be read where they lie.
#[repr(C, align(64))]
struct Aligned<Bytes: ?Sized>(Bytes);

/// The net built into Waggle: made by `waggle train` from Waggle's own games (docs/eval.md).
static BUILTIN_FILE: &Aligned<[u8]> = &Aligned(*include_bytes!("waggle.nnue"));
static BUILTIN_BYTES: &[u8] = &BUILTIN_FILE.0;

/// The built-in net, read once.
static BUILTIN: LazyLock<Result<Arc<Network>, NetError>> =
    LazyLock::new(|| file::read_builtin(BUILTIN_BYTES).map(Arc::new));

/// A side's hidden neurons, before clipping.
pub(crate) type Neurons = [i16; HIDDEN];

/// The integer network.
pub struct Network {
    /// One row of [`HIDDEN`] weights for each input: the built-in net's where they lie in the binary.
    input_weights: Cow<'static, [Neurons]>,
    input_biases: Neurons,
    /// For each game type: the side to move's neurons' weights, then the other side's.
    output_weights: Box<[[i16; 2 * HIDDEN]; BUCKETS]>,
    output_biases: [i32; BUCKETS],
    /// For each game type: each hand-written feature's weight, in the search's units times [`QS`].
    skip_weights: [[i32; SKIP_INPUTS]; BUCKETS],
    /// The dense layer: each neuron's weights for the hand-written features, ×`QA`·`QD`, and its bias, ×`QA`.
    dense_weights: Box<[[i32; SKIP_INPUTS]; DENSE]>,
    dense_biases: [i32; DENSE],
    /// For each game type: the dense neurons' output weights, ×`QB`.
    dense_output: [[i32; DENSE]; BUCKETS],
    /// The dense weights again, as `simd::dense` takes them: for each pair of features, each neuron's two weights.
    dense_pairs: Box<[[i16; 2 * DENSE]; PAIRS]>,
    /// The FNV-1a hash of its file: its name.
    hash: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({:016x})", self.hash)
    }
}

impl Network {
    /// The net built into Waggle.
    pub fn builtin() -> Result<Arc<Network>, NetError> {
        BUILTIN.clone()
    }

    /// The net in the bytes of a net file, every check passed (the magic, the version, the shape, the length and
    /// the hash).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        file::read(bytes)
    }

    /// The bytes of the built-in net's file, as `waggle train` wrote it: a start for a net of one's own, or a
    /// file to give `EvalFile`.
    pub fn builtin_file() -> &'static [u8] {
        BUILTIN_BYTES
    }

    /// The bytes of the net's file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let flat = |values: &mut dyn Iterator<Item = i32>| values.collect::<Vec<i32>>();
        write_file(|part| match part {
            Part::InputWeights => flat(&mut self.input_weights.iter().flatten().map(|&w| i32::from(w))),
            Part::InputBiases => flat(&mut self.input_biases.iter().map(|&w| i32::from(w))),
            Part::OutputWeights => flat(&mut self.output_weights.iter().flatten().map(|&w| i32::from(w))),
            Part::OutputBiases => self.output_biases.to_vec(),
            Part::Skip => flat(&mut self.skip_weights.iter().flatten().copied()),
            Part::DenseWeights => flat(&mut self.dense_weights.iter().flatten().copied()),
            Part::DenseBiases => self.dense_biases.to_vec(),
            Part::DenseOutput => flat(&mut self.dense_output.iter().flatten().copied()),
        })
    }

    /// The hash of the net's file, which names it.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The net of the rows of input weights `rows` and the other blocks' values (`blocks`, in the order of
    /// [`Part::ALL`], each as long as its block: the net file checked that), named `hash`.
    fn from_blocks(rows: Cow<'static, [Neurons]>, blocks: &[Vec<i32>; Part::ALL.len()], hash: u64) -> Network {
        debug_assert_eq!(rows.len(), INPUTS);
        let block = |part: Part| &blocks[part as usize][..];
        Network {
            input_weights: rows,
            input_biases: array(block(Part::InputBiases), |v| v as i16),
            // Kept within what training gives them, on which the output's sums rest (a file made otherwise could
            // overflow them).
            output_weights: Box::new(rows_of(block(Part::OutputWeights), |v| {
                v.clamp(-clipped_bound(QB), clipped_bound(QB)) as i16
            })),
            output_biases: array(block(Part::OutputBiases), |v| v),
            skip_weights: rows_of(block(Part::Skip), |v| v),
            dense_pairs: pairs_of(&rows_of(block(Part::DenseWeights), |v| v)),
            dense_weights: Box::new(rows_of(block(Part::DenseWeights), |v| v)),
            dense_biases: array(block(Part::DenseBiases), |v| {
                v.clamp(-clipped_bound(QA), clipped_bound(QA))
            }),
            dense_output: rows_of(block(Part::DenseOutput), |v| {
                v.clamp(-clipped_bound(QB), clipped_bound(QB))
            }),
            hash,
        }
    }

    /// The row of input weights of `feature`.
    #[inline]
    fn row(&self, feature: u16) -> &Neurons {
        &self.input_weights[usize::from(feature)]
    }

    /// `side`'s neurons for `pos`, computed from scratch.
    fn refresh(&self, pos: &Position, side: Color) -> Neurons {
        let frame = frame_of(pos, side);
        let mut neurons = self.input_biases;
        let mut features = Vec::with_capacity(Inputs::MAX_ACTIVE);
        Inputs::active(
            &frame,
            placed(pos),
            pos.pieces_in_hand(Color::White)
                .iter()
                .chain(pos.pieces_in_hand(Color::Black).iter()),
            &mut features,
        );
        simd::accumulate(
            &mut neurons,
            features.iter().map(|&feature| self.row(feature)),
            std::iter::empty(),
        );
        neurons
    }

    /// The score for the side to move of a position of `game_type` whose sides' neurons are `neurons` (White's
    /// first) and whose hand-written features are `features`.
    #[inline]
    fn output(&self, neurons: &[Neurons; 2], to_move: Color, game_type: GameType, features: &Features) -> i32 {
        let bucket = bucket(game_type);
        let weights = &self.output_weights[bucket];
        let (own, other) = (&neurons[to_move.index()], &neurons[to_move.opponent().index()]);
        let mut sum = simd::squared_clipped_dot([own, other], weights);
        let mut pairs = [0i32; PAIRS];
        for (pair, two) in pairs.iter_mut().zip(features.0.chunks(2)) {
            // Two features as two 16-bit halves (they are counts, far below 2^15).
            let high = two.get(1).map_or(0, |&f| f as i16);
            *pair = i32::from(two[0] as i16 as u16) | i32::from(high) << 16;
        }
        sum += simd::dense(
            &self.dense_pairs,
            &pairs,
            &self.dense_biases,
            &self.dense_output[bucket],
        );
        let scaled = sum / i64::from(QA) + i64::from(self.output_biases[bucket]);
        let skip: i64 = self.skip_weights[bucket]
            .iter()
            .zip(&features.0)
            .map(|(&w, &f)| w.wrapping_mul(f))
            .sum::<i32>()
            .into();
        (scaled * i64::from(SCALE) / i64::from(QA * QB) + skip / i64::from(QS)) as i32
    }

    /// The score of `pos` for the side to move, with its neurons brought up to date in `accumulators`, which follow
    /// the line that led to it.
    #[inline]
    pub(crate) fn evaluate_along(&self, accumulators: &mut accumulator::Accumulators, pos: &Position) -> i32 {
        let features = Features::of(pos);
        let neurons = accumulators.neurons(self, pos);
        self.output(neurons, pos.to_move(), pos.game_type(), &features)
    }

    /// The score of `pos` for the side to move, computed from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let neurons = [self.refresh(pos, Color::White), self.refresh(pos, Color::Black)];
        self.output(&neurons, pos.to_move(), pos.game_type(), &Features::of(pos))
    }
}

/// The first `N` of `values`, each turned by `to` (the net file checked their number).
fn array<T: Copy + Default, const N: usize>(values: &[i32], to: impl Fn(i32) -> T) -> [T; N] {
    std::array::from_fn(|i| values.get(i).map_or_else(T::default, |&v| to(v)))
}

/// `values` as `R` rows of `N`, each turned by `to`.
fn rows_of<T: Copy + Default, const N: usize, const R: usize>(values: &[i32], to: impl Fn(i32) -> T) -> [[T; N]; R] {
    std::array::from_fn(|r| array(values.get(r * N..).unwrap_or_default(), &to))
}

/// Pairs of hand-written features, the last one alone.
pub(crate) const PAIRS: usize = SKIP_INPUTS.div_ceil(2);

/// The dense weights as pairs for [`simd::dense`]: for pair `p`, neuron `k`'s weights of features `2p` and `2p + 1`
/// side by side (0 past the last feature), each within what training gives them, [`clipped_bound`]`(QA · QD)`,
/// which fits an `i16`.
fn pairs_of(weights: &[[i32; SKIP_INPUTS]; DENSE]) -> Box<[[i16; 2 * DENSE]; PAIRS]> {
    let mut pairs = Box::new([[0i16; 2 * DENSE]; PAIRS]);
    for (p, pair) in pairs.iter_mut().enumerate() {
        for (k, neuron) in weights.iter().enumerate() {
            for half in 0..2 {
                let w = neuron.get(2 * p + half).copied().unwrap_or(0);
                pair[2 * k + half] = w.clamp(-clipped_bound(QA * QD), clipped_bound(QA * QD)) as i16;
            }
        }
    }
    pairs
}

/// The output bucket of `game_type`: its expansions as bits (Mosquito 1, Ladybug 2, Pillbug 4), as training
/// records keep them.
pub(crate) fn bucket(game_type: GameType) -> usize {
    usize::from(game_type.includes(Bug::Mosquito))
        | usize::from(game_type.includes(Bug::Ladybug)) << 1
        | usize::from(game_type.includes(Bug::Pillbug)) << 2
}

/// `side`'s frame in `pos`.
pub(crate) fn frame_of(pos: &Position, side: Color) -> <Inputs as FeatureSet>::View {
    Inputs::view(side, [pos.queen_hex(Color::White), pos.queen_hex(Color::Black)])
}

/// The pieces on the board of `pos`, each with its cell and its height in its stack.
pub(crate) fn placed(pos: &Position) -> impl Iterator<Item = (Piece, Hex, u8)> + '_ {
    let board = pos.board();
    board.on_board().iter().map(move |piece| {
        let hex = board.hex_of_unchecked(piece);
        (piece, hex, height_of(pos, piece, hex))
    })
}

/// The height of `piece` in its stack at `hex` (1 on the ground).
#[inline]
pub(crate) fn height_of(pos: &Position, piece: Piece, hex: Hex) -> u8 {
    let board = pos.board();
    let height = board.height(hex);
    if height == 1 || board.top(hex) == Some(piece) {
        return height;
    }
    height - board.stack(hex).take_while(|&p| p != piece).count() as u8
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A network of random weights in the ranges a trained one has.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let bytes = write_file(|part| {
            let len = part.block().len as i32;
            match part {
                Part::InputWeights => (0..len).map(|_| rng.gen_range(-200..=200)).collect(),
                Part::InputBiases => (0..len).map(|_| rng.gen_range(-100..=100)).collect(),
                Part::OutputWeights => (0..len).map(|_| rng.gen_range(-127..=127)).collect(),
                Part::OutputBiases => (0..len).map(|b| b * 1000 - 3000).collect(),
                _ => (0..len).map(|_| rng.gen_range(-800..=800)).collect(),
            }
        });
        file::read(&bytes).unwrap_or_else(|e| panic!("{e}"))
    }
}
