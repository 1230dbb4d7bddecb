//! The network evaluation: a small network learnt from Waggle's own games (docs/eval.md has the drawing and how the
//! shipped net was made).
//!
//! Each side's view of the position ([`inputs`]) turns on a few dozen of 2,548 features; the sum of their rows of
//! input weights is that side's accumulator of [`HIDDEN`] neurons, kept up to date move by move
//! ([`accumulator`]). The side to move's neurons and then the other side's, each clipped to `[0, 1]` and squared,
//! are weighed by one output layer per game type into a score in the search's units, to which the hand-written
//! evaluation's features (mobility, pinned pieces, the Queens' neighbours … : what a piece's place alone does not
//! show) add a learnt weighted sum, the skip. Everything is integer: the weights were trained as floats and rounded
//! with the scales [`QA`], [`QB`] and [`QS`], named once here for the trainer and the engine alike.

pub(crate) mod accumulator;
mod file;
pub(crate) use file::fnv1a;
pub(crate) mod inputs;
mod simd;

use std::borrow::Cow;
use std::sync::{Arc, LazyLock};

pub(crate) use file::write as write_file;
pub use file::NetError;

use crate::eval::{Features, FEATURE_COUNT};
use crate::rules::game_type::GameType;
use crate::rules::hex::Hex;
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::position::Position;
use inputs::{Frame, INPUTS};

/// Hidden neurons for each side.
pub(crate) const HIDDEN: usize = 128;
/// Output layers: one for each game type.
pub(crate) const BUCKETS: usize = 8;
/// The accumulator's scale: a float weight of 1 is `QA` in the file, and a neuron's range `[0, 1]` is `[0, QA]`.
pub(crate) const QA: i32 = 255;
/// The output weights' scale. The output layer multiplies in 32-bit lanes (a clipped neuron squared, times a
/// weight of at most 1.98 · QB: below 2^25), so its weights can be finer than a 16-bit product would allow; 64, the
/// usual scale of that product, rounded them coarsely enough to move a score by 20 units.
pub(crate) const QB: i32 = 256;
/// The score, in the search's units, of a network output of 1.
pub(crate) const SCALE: i32 = 400;
/// The skip weights' scale: a skip weight is a score in the search's units times `QS`.
pub(crate) const QS: i32 = 16;
/// Neurons of the small layer that the hand-written features feed, so that what they say (how free the pieces
/// are, how crowded a Queen is) combines before the output, not only adds to it.
pub(crate) const DENSE: usize = 16;
/// The dense layer's weights' scale beyond [`QA`]: a float weight of 1 is `QA · QD` (its inputs are counts, not
/// zeros and ones, and its weights small).
pub(crate) const QD: i32 = 16;

/// Bytes on a 64-byte boundary, so that the built-in net's weights can be read where they lie.
#[repr(C, align(64))]
struct Aligned<Bytes: ?Sized>(Bytes);

/// The net built into Waggle: made by `waggle train` from Waggle's own games (docs/eval.md).
static BUILTIN_FILE: &Aligned<[u8]> = &Aligned(*include_bytes!("waggle.nnue"));
static BUILTIN_BYTES: &[u8] = &BUILTIN_FILE.0;

/// The built-in net, read once.
static BUILTIN: LazyLock<Result<Arc<Network>, NetError>> =
    LazyLock::new(|| file::read_builtin(BUILTIN_BYTES).map(Arc::new));

/// The bytes of the built-in net's file.
#[cfg(test)]
pub(crate) fn builtin_bytes() -> &'static [u8] {
    BUILTIN_BYTES
}

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
    skip_weights: [[i32; FEATURE_COUNT]; BUCKETS],
    /// The dense layer: each neuron's weights for the hand-written features, ×`QA`·`QD`, and its bias, ×`QA`.
    dense_weights: Box<[[i32; FEATURE_COUNT]; DENSE]>,
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

    /// The bytes of the net's file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let input_weights: Vec<i16> = self.input_weights.iter().flatten().copied().collect();
        let output_weights: Vec<i16> = self.output_weights.iter().flatten().copied().collect();
        let mut skip: Vec<i32> = self.skip_weights.iter().flatten().copied().collect();
        skip.extend(self.dense_weights.iter().flatten());
        skip.extend(&self.dense_biases);
        skip.extend(self.dense_output.iter().flatten());
        write_file(
            &input_weights,
            &self.input_biases,
            &output_weights,
            &self.output_biases,
            &skip,
        )
    }

    /// The hash of the net's file, which names it.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    fn from_parts(
        rows: Cow<'static, [Neurons]>,
        input_biases: Vec<i16>,
        output_weights: Vec<i16>,
        output_biases: Vec<i32>,
        skip: Vec<i32>,
        hash: u64,
    ) -> Network {
        debug_assert_eq!(rows.len(), INPUTS);
        let mut outputs = Box::new([[0; 2 * HIDDEN]; BUCKETS]);
        for (bucket, weights) in outputs.iter_mut().zip(output_weights.chunks_exact(2 * HIDDEN)) {
            bucket.copy_from_slice(weights);
        }
        let mut biases = [0; BUCKETS];
        biases.copy_from_slice(&output_biases[..BUCKETS]);
        let mut skip_weights = [[0; FEATURE_COUNT]; BUCKETS];
        let (own_skip, dense) = skip.split_at(BUCKETS * FEATURE_COUNT);
        for (bucket, weights) in skip_weights.iter_mut().zip(own_skip.chunks_exact(FEATURE_COUNT)) {
            bucket.copy_from_slice(weights);
        }
        let (dense_rows, rest) = dense.split_at(DENSE * FEATURE_COUNT);
        let (dense_bias_values, dense_outputs) = rest.split_at(DENSE);
        let mut dense_weights = Box::new([[0; FEATURE_COUNT]; DENSE]);
        for (neuron, row) in dense_weights.iter_mut().zip(dense_rows.chunks_exact(FEATURE_COUNT)) {
            neuron.copy_from_slice(row);
        }
        let mut dense_biases = [0; DENSE];
        dense_biases.copy_from_slice(dense_bias_values);
        let mut dense_output = [[0; DENSE]; BUCKETS];
        for (bucket, row) in dense_output.iter_mut().zip(dense_outputs.chunks_exact(DENSE)) {
            bucket.copy_from_slice(row);
        }
        Network {
            input_weights: rows,
            input_biases: input_biases.try_into().unwrap_or([0; HIDDEN]),
            output_weights: outputs,
            output_biases: biases,
            skip_weights,
            dense_pairs: pairs_of(&dense_weights),
            dense_weights,
            dense_biases,
            dense_output,
            hash,
        }
    }

    /// The row of input weights of `feature`.
    #[inline]
    fn row(&self, feature: u16) -> &Neurons {
        &self.input_weights[usize::from(feature)]
    }

    /// `side`'s neurons for `pos`, computed from scratch.
    pub(crate) fn refresh(&self, pos: &Position, side: Color) -> Neurons {
        let frame = frame_of(pos, side);
        let mut neurons = self.input_biases;
        let mut features = Vec::with_capacity(inputs::MAX_ACTIVE);
        inputs::active(
            &frame,
            placed(pos),
            pos.pieces_in_hand(Color::White)
                .iter()
                .chain(pos.pieces_in_hand(Color::Black).iter()),
            &mut features,
        );
        simd::accumulate(&mut neurons, features.iter().map(|&feature| self.row(feature)));
        neurons
    }

    /// The score for the side to move of a position of `game_type` whose sides' neurons are `neurons` (White's
    /// first) and whose hand-written features are `features`.
    #[inline]
    pub(crate) fn output(
        &self,
        neurons: &[Neurons; 2],
        to_move: Color,
        game_type: GameType,
        features: &Features,
    ) -> i32 {
        let bucket = bucket(game_type);
        let weights = &self.output_weights[bucket];
        let (own, other) = (&neurons[to_move.index()], &neurons[to_move.opponent().index()]);
        let mut sum =
            simd::squared_clipped_dot(own, &weights[..HIDDEN]) + simd::squared_clipped_dot(other, &weights[HIDDEN..]);
        let mut pairs = [0i32; PAIRS];
        for (pair, two) in pairs.iter_mut().zip(features.0.chunks(2)) {
            // Two features as two 16-bit halves (they are counts, far below 2^15).
            let high = two.get(1).map_or(0, |&f| f as i16);
            *pair = i32::from(two[0] as i16 as u16) | i32::from(high) << 16;
        }
        let dense = simd::dense(&self.dense_pairs, &pairs);
        for ((&z, &bias), &out) in dense.iter().zip(&self.dense_biases).zip(&self.dense_output[bucket]) {
            let clipped = i64::from((z / QD + bias).clamp(0, QA));
            sum += clipped * clipped * i64::from(out);
        }
        let scaled = sum / i64::from(QA) + i64::from(self.output_biases[bucket]);
        let skip: i64 = self.skip_weights[bucket]
            .iter()
            .zip(&features.0)
            .map(|(&w, &f)| w.wrapping_mul(f))
            .sum::<i32>()
            .into();
        (scaled * i64::from(SCALE) / i64::from(QA * QB) + skip / i64::from(QS)) as i32
    }

    /// The score of `pos` for the side to move, computed from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let neurons = [self.refresh(pos, Color::White), self.refresh(pos, Color::Black)];
        self.output(&neurons, pos.to_move(), pos.game_type(), &Features::of(pos))
    }
}

/// Pairs of hand-written features, the last one alone.
pub(crate) const PAIRS: usize = FEATURE_COUNT.div_ceil(2);

/// The dense weights as pairs for [`simd::dense`]: for pair `p`, neuron `k`'s weights of features `2p` and `2p + 1`
/// side by side (0 past the last feature). A trained weight fits an `i16`: at most 1.98 · QA · QD = 8,078.
fn pairs_of(weights: &[[i32; FEATURE_COUNT]; DENSE]) -> Box<[[i16; 2 * DENSE]; PAIRS]> {
    let mut pairs = Box::new([[0i16; 2 * DENSE]; PAIRS]);
    for (p, pair) in pairs.iter_mut().enumerate() {
        for (k, neuron) in weights.iter().enumerate() {
            for half in 0..2 {
                let w = neuron.get(2 * p + half).copied().unwrap_or(0);
                pair[2 * k + half] = w.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
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
pub(crate) fn frame_of(pos: &Position, side: Color) -> Frame {
    Frame::new(side, [pos.queen_hex(Color::White), pos.queen_hex(Color::Black)])
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

/// What the unit tests of the network share.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A network of random weights in the ranges a trained one has.
    pub(crate) fn random_network(seed: u64) -> Network {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut small =
            |count: usize, range: i16| (0..count).map(|_| rng.gen_range(-range..=range)).collect::<Vec<_>>();
        let input_weights = small(INPUTS * HIDDEN, 200);
        let input_biases = small(HIDDEN, 100);
        let output_weights = small(BUCKETS * 2 * HIDDEN, 127);
        let output_biases: Vec<i32> = (0..BUCKETS as i32).map(|b| b * 1000 - 3000).collect();
        let skip: Vec<i32> = (0..BUCKETS * FEATURE_COUNT + DENSE * (FEATURE_COUNT + 1 + BUCKETS))
            .map(|_| rng.gen_range(-800..=800))
            .collect();
        let bytes = write_file(&input_weights, &input_biases, &output_weights, &output_biases, &skip);
        file::read(&bytes).unwrap_or_else(|e| panic!("{e}"))
    }
}
