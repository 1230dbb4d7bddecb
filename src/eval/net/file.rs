//! The net file: a header that names the format and every number of the shape, the integer weights block by block
//! in the order of [`Part::ALL`], and a hash of all that. Little-endian throughout:
//!
//! | bytes | what |
//! |---|---|
//! | 0–7 | the magic `WAGGLENN` |
//! | 8–11 | the format's version, 4 |
//! | 12–51 | ten words, as [`SHAPE`] lists them: inputs, hidden neurons a side, output buckets, hand-written features, dense neurons, then the scales `QA`, `QB`, the score's, `QS` and `QD` |
//! | 52–63 | zeros, so that the rows of input weights start on a 64-byte boundary |
//! | 64– | the blocks of [`Part::ALL`], each as [`super::layers`] describes it |
//! | last 8 | FNV-1a (64-bit) of every byte before it |
//!
//! Version 3 files (a 40-byte header with seven of the words: no hand-written features, dense neurons or `QD`,
//! which were 33, 16 and 16) are still read. Owns reading (every check, with an error that says what is wrong)
//! and writing.

use std::borrow::Cow;

use super::layers::{Part, HIDDEN, INPUTS, SHAPE};
use super::{Network, Neurons};

const MAGIC: &[u8; 8] = b"WAGGLENN";
const VERSION: u32 = 4;
const HEADER: usize = 64;

/// The size of a net file of this build's shape.
pub(crate) const FILE_SIZE: usize = HEADER + Part::body_bytes() + 8;

/// Version 3's header: its length, and which of [`SHAPE`]'s words it holds (the others were fixed).
const V3_HEADER: usize = 40;
const V3_WORDS: [usize; 7] = [0, 1, 2, 5, 6, 7, 8];
const V3_FIXED: [(usize, u32); 3] = [(3, 33), (4, 16), (9, 16)];

/// A net file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a net file at all.
    #[error("not a Waggle net file (it does not start with WAGGLENN)")]
    Foreign,
    /// A version this build does not read.
    #[error("a net file of version {0}; this Waggle reads versions 3 and 4")]
    Version(u32),
    /// A shape or scale this build was not made for: the first number of the header that differs.
    #[error("a net whose {what} is {found}, where this Waggle's is {expected}")]
    Shape {
        /// Which number, as the header names it ("dense neurons", "accumulator scale (QA)", …).
        what: &'static str,
        /// The file's.
        found: u32,
        /// This build's.
        expected: u32,
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

/// A file whose header and length are those of this build's net: where its blocks start, its body (everything
/// before the hash) and the hash stored after it.
struct Checked<'a> {
    header: usize,
    body: &'a [u8],
    stored: u64,
}

/// The network in `bytes`, every check passed.
pub(crate) fn read(bytes: &[u8]) -> Result<Network, NetError> {
    let checked = check(bytes)?;
    if fnv1a(checked.body) != checked.stored {
        return Err(NetError::Hash);
    }
    let rows = rows_copied(&checked.body[checked.header..]);
    Ok(parse(bytes, &checked, Cow::Owned(rows)))
}

/// The built-in net, read in place: the rows of input weights (nearly all of the file) are the binary's own bytes,
/// not a copy, and the hash at the end is taken as the hash of what comes before it, unchecked. Both are what a bot
/// bridge's fresh process pays for before its first move; the unit test below checks the built-in file's hash.
pub(crate) fn read_builtin(bytes: &'static [u8]) -> Result<Network, NetError> {
    let checked = check(bytes)?;
    let weights = &bytes[checked.header..checked.body.len()];
    let rows = rows_in_place(weights).map_or_else(|| Cow::Owned(rows_copied(weights)), Cow::Borrowed);
    Ok(parse(bytes, &checked, rows))
}

/// The file's layout, once its header and length are those of this build's net.
fn check(bytes: &[u8]) -> Result<Checked<'_>, NetError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(NetError::Foreign);
    }
    let short = |header: usize| NetError::Length {
        found: bytes.len(),
        expected: header + Part::body_bytes() + 8,
    };
    if bytes.len() < 12 {
        return Err(short(HEADER));
    }
    let version = u32_at(bytes, 8);
    let (header, words): (usize, Vec<(usize, u32)>) = match version {
        4 if bytes.len() >= HEADER => (
            HEADER,
            (0..SHAPE.len()).map(|i| (i, u32_at(bytes, 12 + 4 * i))).collect(),
        ),
        3 if bytes.len() >= V3_HEADER => {
            let mut words: Vec<(usize, u32)> = V3_WORDS
                .iter()
                .enumerate()
                .map(|(at, &i)| (i, u32_at(bytes, 12 + 4 * at)))
                .collect();
            words.extend(V3_FIXED);
            words.sort_unstable();
            (V3_HEADER, words)
        }
        3 => return Err(short(V3_HEADER)),
        VERSION => return Err(short(HEADER)),
        _ => return Err(NetError::Version(version)),
    };
    for (i, found) in words {
        let (what, expected) = SHAPE[i];
        if found != expected {
            return Err(NetError::Shape { what, found, expected });
        }
    }
    let size = header + Part::body_bytes() + 8;
    if bytes.len() != size {
        return Err(short(header));
    }
    let (body, hash) = bytes.split_at(size - 8);
    let mut stored = [0; 8];
    stored.copy_from_slice(hash);
    Ok(Checked {
        header,
        body,
        stored: u64::from_le_bytes(stored),
    })
}

/// The rows of input weights at the start of `weights`, copied out.
fn rows_copied(weights: &[u8]) -> Vec<Neurons> {
    Part::InputWeights
        .block()
        .read(&weights[..Part::InputWeights.block().bytes()])
        .chunks_exact(HIDDEN)
        .map(|row| std::array::from_fn(|i| row[i] as i16))
        .collect()
}

/// The rows of input weights at the start of `weights` where they lie, if the machine is little-endian (as the
/// file is) and they start on a 2-byte boundary.
fn rows_in_place(weights: &'static [u8]) -> Option<&'static [Neurons]> {
    let start = weights.as_ptr();
    if cfg!(target_endian = "big")
        || !start.cast::<Neurons>().is_aligned()
        || weights.len() < Part::InputWeights.block().bytes()
    {
        return None;
    }
    // SAFETY: the bytes are 'static and never written; they start on a boundary `Neurons` (of `i16`s) may start
    // on and hold `INPUTS` rows of `2 * HIDDEN` bytes; any bytes are a valid `i16`, and this machine reads `i16`s
    // little-endian, as the file writes them.
    Some(unsafe { std::slice::from_raw_parts(start.cast::<Neurons>(), INPUTS) })
}

/// The network of a checked file whose body hashes to its stored hash, with its rows of input weights already
/// read.
fn parse(bytes: &[u8], checked: &Checked, rows: Cow<'static, [Neurons]>) -> Network {
    let blocks = Part::ALL.map(|part| match part {
        Part::InputWeights => Vec::new(),
        _ => {
            let at = checked.header + part.offset();
            part.block().read(&checked.body[at..at + part.block().bytes()])
        }
    });
    // The name is the FNV-1a of the whole file: of the body, which is the stored hash, and then of that hash's bytes.
    let name = fnv1a_on(checked.stored, &bytes[checked.body.len()..]);
    Network::from_blocks(rows, &blocks, name)
}

/// The bytes of the net file whose blocks, in the order of [`Part::ALL`], hold `values` (each block exactly as
/// long as its [`super::layers::Block`] says).
pub(crate) fn write(mut values: impl FnMut(Part) -> Vec<i32>) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(FILE_SIZE);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    for (_, word) in SHAPE {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    bytes.resize(HEADER, 0);
    for part in Part::ALL {
        part.block().write(values(part).into_iter(), &mut bytes);
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
        let good = Network::builtin_file().to_vec();
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
        // Each number of the shape is checked, and named when it differs.
        for (i, (what, expected)) in SHAPE.iter().enumerate() {
            let mut shape = good.clone();
            shape[12 + 4 * i..16 + 4 * i].copy_from_slice(&(expected * 2).to_le_bytes());
            assert_eq!(
                error(&shape),
                NetError::Shape {
                    what,
                    found: expected * 2,
                    expected: *expected
                }
            );
        }
        let mut dense = good.clone();
        dense[28..32].copy_from_slice(&32u32.to_le_bytes());
        assert_eq!(
            error(&dense).to_string(),
            "a net whose dense neurons is 32, where this Waggle's is 16"
        );
        let mut longer = good;
        longer.push(0);
        assert!(matches!(error(&longer), NetError::Length { .. }));
    }

    /// A file of version 3 (the header before it named every number) is read as the same net.
    #[test]
    fn a_version_3_file_reads_as_the_same_net() {
        let good = Network::builtin_file();
        let mut old = Vec::new();
        old.extend_from_slice(MAGIC);
        old.extend_from_slice(&3u32.to_le_bytes());
        for i in V3_WORDS {
            old.extend_from_slice(&SHAPE[i].1.to_le_bytes());
        }
        old.extend_from_slice(&good[HEADER..FILE_SIZE - 8]);
        let hash = fnv1a(&old);
        old.extend_from_slice(&hash.to_le_bytes());
        let net = read(&old).expect("a version 3 file reads");
        assert_eq!(net.to_bytes(), good, "and writes back as version 4");
        let mut cut = old.clone();
        cut.truncate(30);
        assert!(matches!(read(&cut), Err(NetError::Length { .. })));
    }
}
