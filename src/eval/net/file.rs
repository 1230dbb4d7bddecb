//! The net file: a header that names the format and the shape, the integer weights, and a hash of all that.
//! Little-endian throughout:
//!
//! | bytes | what |
//! |---|---|
//! | 0–7 | the magic `WAGGLENN` |
//! | 8–11 | the format's version, 3 |
//! | 12–15, 16–19, 20–23 | inputs (2,548), hidden neurons a side (`HIDDEN`), output buckets (8, one a game type) |
//! | 24–27, 28–31, 32–35, 36–39 | the scales: the accumulator's (`QA`), the output weights' (`QB`), the score's (`SCALE`), the skip's (`QS`) |
//! | 40– | the input weights (`i16`, input by input, `HIDDEN` each), the input biases (`i16`), the output weights (`i16`, bucket by bucket, own side's `HIDDEN` then the other's), the output biases (`i32`), the skip weights (`i32`, bucket by bucket, one for each of the hand-written evaluation's 33 features), then the dense layer (`i32`): its weights neuron by neuron (33 each, ×`QA`·`QD`, `QD` = 16), its biases (×`QA`), its output weights bucket by bucket (×`QB`) |
//! | last 8 | FNV-1a (64-bit) of every byte before it |
//!
//! Owns reading (every check, with an error that says what is wrong) and writing. The numbers are the
//! network's ([`super::Network`]).

use std::borrow::Cow;

use super::inputs::INPUTS;
use super::{Network, Neurons, BUCKETS, DENSE, HIDDEN, QA, QB, QS, SCALE};
use crate::eval::FEATURE_COUNT;

const MAGIC: &[u8; 8] = b"WAGGLENN";
const VERSION: u32 = 3;
const HEADER: usize = 40;

/// The size of a net file of this build's shape.
pub(crate) const FILE_SIZE: usize = HEADER
    + 2 * (INPUTS * HIDDEN + HIDDEN + BUCKETS * 2 * HIDDEN)
    + 4 * BUCKETS * (1 + FEATURE_COUNT)
    + 4 * DENSE_PART
    + 8;

/// The `i32`s of the dense layer: its weights, biases and output weights.
const DENSE_PART: usize = DENSE * (FEATURE_COUNT + 1 + BUCKETS);

/// A net file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a net file at all.
    #[error("not a Waggle net file (it does not start with WAGGLENN)")]
    Foreign,
    /// A version this build does not read.
    #[error("a net file of version {0}; this Waggle reads version 3")]
    Version(u32),
    /// A shape this build was not made for.
    #[error("a net of {inputs} inputs, {hidden} hidden neurons and {buckets} output buckets; this Waggle's has {INPUTS}, {HIDDEN} and {BUCKETS}")]
    Shape {
        /// Inputs in the file.
        inputs: u32,
        /// Hidden neurons a side in the file.
        hidden: u32,
        /// Output buckets in the file.
        buckets: u32,
    },
    /// Scales this build does not use.
    #[error("a net quantised with scales {qa}, {qb}, {scale} and {qs}; this Waggle uses {QA}, {QB}, {SCALE} and {QS}")]
    Scales {
        /// The accumulator's.
        qa: u32,
        /// The output weights'.
        qb: u32,
        /// The score's.
        scale: u32,
        /// The skip's.
        qs: u32,
    },
    /// Shorter or longer than its shape says.
    #[error("the file has {found} bytes where its header asks for {expected}: it is cut short or has bytes added")]
    Length {
        /// Bytes in the file.
        found: usize,
        /// Bytes the shape needs.
        expected: usize,
    },
    /// Its hash is not that of its contents.
    #[error("the file is damaged: its contents do not match the hash at its end")]
    Hash,
}

/// FNV-1a of `bytes`: the net's name, and the check of a file.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_on(0xcbf2_9ce4_8422_2325, bytes)
}

/// FNV-1a going on from `hash`, the FNV-1a of the bytes before `bytes`.
fn fnv1a_on(hash: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(hash, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The network in `bytes`, every check passed.
pub(crate) fn read(bytes: &[u8]) -> Result<Network, NetError> {
    let (body, stored) = checked_shape(bytes)?;
    if fnv1a(body) != stored {
        return Err(NetError::Hash);
    }
    Ok(parse(bytes, stored, Cow::Owned(rows_copied(&body[HEADER..]))))
}

/// The built-in net, read in place: the rows of input weights (nearly all of the file) are the binary's own bytes,
/// not a copy, and the hash at the end is taken as the hash of what comes before it, unchecked. Both are what a bot
/// bridge's fresh process pays for before its first move; the unit test below checks the built-in file's hash.
pub(crate) fn read_builtin(bytes: &'static [u8]) -> Result<Network, NetError> {
    let (body, stored) = checked_shape(bytes)?;
    let rows = rows_in_place(&body[HEADER..]).map_or_else(|| Cow::Owned(rows_copied(&body[HEADER..])), Cow::Borrowed);
    Ok(parse(bytes, stored, rows))
}

/// The file's body and the hash stored after it, once the header and the length are those of this build's net.
fn checked_shape(bytes: &[u8]) -> Result<(&[u8], u64), NetError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(NetError::Foreign);
    }
    if bytes.len() < HEADER {
        return Err(NetError::Length {
            found: bytes.len(),
            expected: FILE_SIZE,
        });
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(NetError::Version(version));
    }
    let (inputs, hidden, buckets) = (u32_at(bytes, 12), u32_at(bytes, 16), u32_at(bytes, 20));
    if (inputs as usize, hidden as usize, buckets as usize) != (INPUTS, HIDDEN, BUCKETS) {
        return Err(NetError::Shape {
            inputs,
            hidden,
            buckets,
        });
    }
    let (qa, qb, scale, qs) = (
        u32_at(bytes, 24),
        u32_at(bytes, 28),
        u32_at(bytes, 32),
        u32_at(bytes, 36),
    );
    if (qa, qb, scale, qs) != (QA as u32, QB as u32, SCALE as u32, QS as u32) {
        return Err(NetError::Scales { qa, qb, scale, qs });
    }
    if bytes.len() != FILE_SIZE {
        return Err(NetError::Length {
            found: bytes.len(),
            expected: FILE_SIZE,
        });
    }
    let (body, hash) = bytes.split_at(FILE_SIZE - 8);
    let mut stored = [0; 8];
    stored.copy_from_slice(hash);
    Ok((body, u64::from_le_bytes(stored)))
}

/// The rows of input weights at the start of `weights`, copied out.
fn rows_copied(weights: &[u8]) -> Vec<Neurons> {
    weights
        .chunks_exact(2 * HIDDEN)
        .take(INPUTS)
        .map(|row| {
            let mut neurons = [0; HIDDEN];
            for (neuron, pair) in neurons.iter_mut().zip(row.chunks_exact(2)) {
                *neuron = i16::from_le_bytes([pair[0], pair[1]]);
            }
            neurons
        })
        .collect()
}

/// The rows of input weights at the start of `weights` where they lie, if the machine is little-endian (as the
/// file is) and they start on a 2-byte boundary.
fn rows_in_place(weights: &'static [u8]) -> Option<&'static [Neurons]> {
    let start = weights.as_ptr();
    if cfg!(target_endian = "big") || !start.cast::<Neurons>().is_aligned() || weights.len() < INPUTS * 2 * HIDDEN {
        return None;
    }
    // SAFETY: the bytes are 'static and never written; they start on a boundary `Neurons` (of `i16`s) may start
    // on and hold `INPUTS` rows of `2 * HIDDEN` bytes; any bytes are a valid `i16`, and this machine reads `i16`s
    // little-endian, as the file writes them.
    Some(unsafe { std::slice::from_raw_parts(start.cast::<Neurons>(), INPUTS) })
}

/// The network of a file whose shape is checked and whose body hashes to `stored`, with its rows of input weights
/// already read.
fn parse(bytes: &[u8], stored: u64, rows: Cow<'static, [Neurons]>) -> Network {
    let body = &bytes[..FILE_SIZE - 8];
    let i16s = |from: usize, count: usize| -> Vec<i16> {
        body[from..from + 2 * count]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect()
    };
    let mut at = HEADER + 2 * INPUTS * HIDDEN;
    let input_biases = i16s(at, HIDDEN);
    at += 2 * HIDDEN;
    let output_weights = i16s(at, BUCKETS * 2 * HIDDEN);
    at += 2 * BUCKETS * 2 * HIDDEN;
    let i32s = |from: usize, count: usize| -> Vec<i32> {
        body[from..from + 4 * count]
            .chunks_exact(4)
            .map(|four| i32::from_le_bytes([four[0], four[1], four[2], four[3]]))
            .collect()
    };
    let output_biases = i32s(at, BUCKETS);
    let skip = i32s(at + 4 * BUCKETS, BUCKETS * FEATURE_COUNT + DENSE_PART);
    // The name is the FNV-1a of the whole file: of the body, which is the stored hash, and then of that hash's bytes.
    let name = fnv1a_on(stored, &bytes[FILE_SIZE - 8..]);
    Network::from_parts(rows, input_biases, output_weights, output_biases, skip, name)
}

/// The bytes of the net file of these weights (in the layout of [`read`]).
pub(crate) fn write(
    input_weights: &[i16],
    input_biases: &[i16],
    output_weights: &[i16],
    output_biases: &[i32],
    skip: &[i32],
) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(FILE_SIZE);
    bytes.extend_from_slice(MAGIC);
    for word in [
        VERSION,
        INPUTS as u32,
        HIDDEN as u32,
        BUCKETS as u32,
        QA as u32,
        QB as u32,
        SCALE as u32,
        QS as u32,
    ] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    for value in input_weights.iter().chain(input_biases).chain(output_weights) {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    for value in output_biases.iter().chain(skip) {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    let hash = fnv1a(&bytes);
    bytes.extend_from_slice(&hash.to_le_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_net_reads_and_a_bad_file_is_refused_with_what_is_wrong() {
        let builtin = Network::builtin().expect("the built-in net reads");
        let good = super::super::BUILTIN_BYTES.to_vec();
        assert_eq!(builtin.to_bytes(), good, "a net writes back the file it was read from");
        assert_eq!(builtin.hash(), fnv1a(&good));
        assert!(
            read(&good).is_ok(),
            "the built-in file's hash, unchecked at start-up, is that of its contents"
        );
        assert!(
            matches!(builtin.input_weights, Cow::Borrowed(_)) || cfg!(target_endian = "big"),
            "the built-in net's rows are read where they lie"
        );
        let error = |bytes: &[u8]| read(bytes).unwrap_err();
        assert_eq!(error(b"#!/bin/sh\necho not a net\n"), NetError::Foreign);
        assert_eq!(error(&[]), NetError::Foreign);
        assert_eq!(
            error(&good[..good.len() / 2]),
            NetError::Length {
                found: good.len() / 2,
                expected: FILE_SIZE
            }
        );
        assert!(error(&good[..20]).to_string().contains("cut short"));
        let mut damaged = good.clone();
        damaged[HEADER + 1000] ^= 1;
        assert_eq!(error(&damaged), NetError::Hash);
        let mut version = good.clone();
        version[8] = 1;
        assert_eq!(error(&version), NetError::Version(1));
        let mut shape = good.clone();
        shape[16] = 64;
        assert!(matches!(error(&shape), NetError::Shape { hidden: 64, .. }));
        assert!(error(&shape).to_string().contains("64 hidden neurons"));
        let mut longer = good;
        longer.push(0);
        assert!(matches!(error(&longer), NetError::Length { .. }));
    }
}
