//! The network described once: its layers in the order the net file keeps them, each knowing its shape, the
//! integer type its values are stored in, the scale that turns a trained float into that integer, and whether
//! training keeps it within [`CLIP`]. The net file reads and writes itself block by block from this list, the
//! trainer lays out its floats by it and quantises with it, and the engine's overflow bounds are derived from it.
//!
//! Owns the shape constants, the scales and the clip; not the arithmetic (`simd`), nor the meaning of the inputs
//! (`inputs`).

use super::inputs::{FeatureSet, Inputs};
use crate::eval::FEATURE_COUNT;

/// Hidden neurons for each side.
pub(crate) const HIDDEN: usize = 128;
/// Output layers: one for each game type.
pub(crate) const BUCKETS: usize = crate::rules::game_type::GameType::ALL.len();
/// The rows of input weights: one a feature of the input set.
pub(crate) const INPUTS: usize = Inputs::INPUTS;
/// The hand-written evaluation's features, which the skip and the dense layer read.
pub(crate) const SKIP_INPUTS: usize = FEATURE_COUNT;
/// Neurons of the small layer that the hand-written features feed, so that what they say (how free the pieces
/// are, how crowded a Queen is) combines before the output, not only adds to it.
pub(crate) const DENSE: usize = 16;

/// The accumulator's scale: a float weight of 1 is `QA` in the file, and a neuron's range `[0, 1]` is `[0, QA]`.
pub(crate) const QA: i32 = 255;
/// The output weights' scale. The output layer multiplies in 32-bit lanes (a clipped neuron squared, times a
/// weight of at most [`CLIP`] · QB: below 2^25), so its weights can be finer than a 16-bit product would allow; 64,
/// the usual scale of that product, rounded them coarsely enough to move a score by 20 units.
pub(crate) const QB: i32 = 256;
/// The score, in the search's units, of a network output of 1.
pub(crate) const SCALE: i32 = 400;
/// The skip weights' scale: a skip weight is a score in the search's units times `QS`.
pub(crate) const QS: i32 = 16;
/// The dense layer's weights' scale beyond [`QA`]: a float weight of 1 is `QA · QD` (its inputs are counts, not
/// zeros and ones, and its weights small).
pub(crate) const QD: i32 = 16;

/// The largest magnitude training gives a clipped weight: so that the rounded weights fit the engine's integers
/// and its sums cannot overflow (an input weight times `QA` in an `i16`, and a sum of every feature one side
/// turns on; an output weight times `QB` times a clipped neuron squared in an `i32` lane; a dense weight times
/// `QA · QD` in an `i16`).
pub(crate) const CLIP: f32 = 1.98;

/// The largest magnitude of a clipped weight of scale `scale` once rounded: `CLIP · scale`, rounded.
pub(crate) const fn clipped_bound(scale: i32) -> i32 {
    // Rounded to nearest (`f32::round` is not a const fn; the bound is positive).
    (CLIP * scale as f32 + 0.5) as i32
}

/// The integer type a block's values are stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Int {
    I16,
    I32,
}

impl Int {
    /// Bytes a value takes in the file.
    pub(crate) const fn bytes(self) -> usize {
        match self {
            Int::I16 => 2,
            Int::I32 => 4,
        }
    }
}

/// One block of values in the net file: a layer's weights or its biases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    /// How many values.
    pub(crate) len: usize,
    /// What each is stored as.
    pub(crate) int: Int,
    /// A float of 1 is stored as `scale`.
    pub(crate) scale: i32,
    /// Whether training keeps these values within [`CLIP`].
    pub(crate) clipped: bool,
}

impl Block {
    /// The bytes the block takes in the file.
    pub(crate) const fn bytes(self) -> usize {
        self.len * self.int.bytes()
    }

    /// The stored integer of the trained float `value`: clipped (if the block is), scaled, rounded, and kept
    /// within the block's integer type.
    pub(crate) fn quantise(self, value: f32) -> i32 {
        let value = if self.clipped { value.clamp(-CLIP, CLIP) } else { value };
        let scaled = (value * self.scale as f32).round();
        match self.int {
            Int::I16 => scaled.clamp(i16::MIN.into(), i16::MAX.into()) as i32,
            Int::I32 => scaled as i32,
        }
    }

    /// The block's values, little-endian, appended to `out`.
    pub(crate) fn write(self, values: impl Iterator<Item = i32>, out: &mut Vec<u8>) {
        let start = out.len();
        for value in values {
            match self.int {
                Int::I16 => out.extend_from_slice(&(value as i16).to_le_bytes()),
                Int::I32 => out.extend_from_slice(&value.to_le_bytes()),
            }
        }
        debug_assert_eq!(
            out.len() - start,
            self.bytes(),
            "a block written with the wrong number of values"
        );
    }

    /// The block's values read from `bytes` (exactly [`Block::bytes`] of them).
    pub(crate) fn read(self, bytes: &[u8]) -> Vec<i32> {
        match self.int {
            Int::I16 => bytes
                .chunks_exact(2)
                .map(|two| i32::from(i16::from_le_bytes([two[0], two[1]])))
                .collect(),
            Int::I32 => bytes
                .chunks_exact(4)
                .map(|four| i32::from_le_bytes([four[0], four[1], four[2], four[3]]))
                .collect(),
        }
    }
}

/// The blocks of the net, in the order of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// A row of [`HIDDEN`] weights for each input (`i16`, ×`QA`).
    InputWeights,
    /// The hidden neurons' biases (`i16`, ×`QA`).
    InputBiases,
    /// For each game type: the side to move's neurons' weights, then the other side's (`i16`, ×`QB`).
    OutputWeights,
    /// For each game type: the output's bias (`i32`, ×`QA`·`QB`).
    OutputBiases,
    /// For each game type: each hand-written feature's weight, a score in the search's units (`i32`, ×`QS`).
    Skip,
    /// The dense layer: each neuron's weights for the hand-written features (`i32`, ×`QA`·`QD`).
    DenseWeights,
    /// The dense neurons' biases (`i32`, ×`QA`).
    DenseBiases,
    /// For each game type: the dense neurons' output weights (`i32`, ×`QB`).
    DenseOutput,
}

impl Part {
    /// Every block, in the order of the file.
    pub(crate) const ALL: [Part; 8] = [
        Part::InputWeights,
        Part::InputBiases,
        Part::OutputWeights,
        Part::OutputBiases,
        Part::Skip,
        Part::DenseWeights,
        Part::DenseBiases,
        Part::DenseOutput,
    ];

    /// The block's shape, type, scale and clip.
    pub(crate) const fn block(self) -> Block {
        let (len, int, scale, clipped) = match self {
            Part::InputWeights => (INPUTS * HIDDEN, Int::I16, QA, true),
            Part::InputBiases => (HIDDEN, Int::I16, QA, true),
            Part::OutputWeights => (BUCKETS * 2 * HIDDEN, Int::I16, QB, true),
            Part::OutputBiases => (BUCKETS, Int::I32, QA * QB, false),
            Part::Skip => (BUCKETS * SKIP_INPUTS, Int::I32, SCALE * QS, false),
            Part::DenseWeights => (DENSE * SKIP_INPUTS, Int::I32, QA * QD, true),
            Part::DenseBiases => (DENSE, Int::I32, QA, true),
            Part::DenseOutput => (BUCKETS * DENSE, Int::I32, QB, true),
        };
        Block {
            len,
            int,
            scale,
            clipped,
        }
    }

    /// Where the block starts in the file's body (after the header).
    pub(crate) const fn offset(self) -> usize {
        let mut offset = 0;
        let mut i = 0;
        while Part::ALL[i] as u8 != self as u8 {
            offset += Part::ALL[i].block().bytes();
            i += 1;
        }
        offset
    }

    /// The bytes of every block together.
    pub(crate) const fn body_bytes() -> usize {
        let mut bytes = 0;
        let mut i = 0;
        while i < Part::ALL.len() {
            bytes += Part::ALL[i].block().bytes();
            i += 1;
        }
        bytes
    }
}

/// The shape and scales a net file's header records, each named, in the order of the header.
pub(crate) const SHAPE: [(&str, u32); 10] = [
    ("inputs", INPUTS as u32),
    ("hidden neurons a side", HIDDEN as u32),
    ("output buckets", BUCKETS as u32),
    ("hand-written features", SKIP_INPUTS as u32),
    ("dense neurons", DENSE as u32),
    ("accumulator scale (QA)", QA as u32),
    ("output scale (QB)", QB as u32),
    ("score scale", SCALE as u32),
    ("skip scale (QS)", QS as u32),
    ("dense scale (QD)", QD as u32),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_follow_each_other_and_the_clip_bound_is_the_clip_times_the_scale() {
        let mut offset = 0;
        for part in Part::ALL {
            assert_eq!(part.offset(), offset, "{part:?}");
            offset += part.block().bytes();
        }
        assert_eq!(Part::body_bytes(), offset);
        for scale in [QA, QB, QA * QD] {
            assert_eq!(clipped_bound(scale), (CLIP * scale as f32).round() as i32);
        }
        // The clipped blocks stored as i16 fit it with room for the sums the engine makes.
        assert!(clipped_bound(QA * QD) <= i32::from(i16::MAX));
        let dense = Part::DenseWeights.block();
        assert_eq!(dense.quantise(5.0), clipped_bound(QA * QD));
        assert_eq!(dense.quantise(-0.5), -(QA * QD) / 2);
        assert_eq!(Part::OutputBiases.block().quantise(5.0), 5 * QA * QB);
    }

    #[test]
    fn a_block_reads_back_what_it_wrote() {
        for part in [Part::InputBiases, Part::DenseBiases] {
            let block = part.block();
            let values: Vec<i32> = (0..block.len as i32).map(|i| i * 7 - 300).collect();
            let mut bytes = Vec::new();
            block.write(values.iter().copied(), &mut bytes);
            assert_eq!(bytes.len(), block.bytes());
            assert_eq!(block.read(&bytes), values);
        }
    }
}
