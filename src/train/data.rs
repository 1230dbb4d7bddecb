//! The training positions as the trainer holds them: the records of every file read, checked, each position kept
//! once, and split for good into the positions learnt from and those held out to measure the net on (by a hash of
//! the position, so that a position and its copies from other games land on the same side whatever the files'
//! order).

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::eval::{Features, FEATURE_COUNT};
use crate::record::training::{records_in, TrainingError, TrainingPosition, RECORD_SIZE};

/// A training position with the hand-written evaluation's features of it, counted once when it is read (the
/// network's skip weighs them).
#[derive(Clone, Debug)]
pub(crate) struct Sample {
    pub(crate) record: TrainingPosition,
    pub(crate) classic: [i8; FEATURE_COUNT],
}

impl Sample {
    pub(crate) fn new(record: TrainingPosition) -> Sample {
        let features = Features::of(&record.position());
        Sample {
            classic: features.0.map(|f| f.clamp(i8::MIN.into(), i8::MAX.into()) as i8),
            record,
        }
    }
}

/// A file of training records that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// It cannot be read.
    #[error("{path}: {why}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        why: std::io::Error,
    },
    /// It is not whole records.
    #[error("{path}: {why}")]
    Size {
        /// The file.
        path: PathBuf,
        /// Why.
        why: TrainingError,
    },
    /// A record in it is not a training position.
    #[error("{path}: record {record} (byte {}): {why}", record * RECORD_SIZE as u64)]
    Record {
        /// The file.
        path: PathBuf,
        /// The record, from 0.
        record: u64,
        /// Why.
        why: TrainingError,
    },
    /// No position at all.
    #[error("no training positions in the files given")]
    Empty,
}

/// The positions to learn from and those held out.
pub struct Dataset {
    /// Learnt from.
    pub(crate) train: Vec<Sample>,
    /// Held out: the loss on these says how well the net does on positions it has not seen.
    pub(crate) validation: Vec<Sample>,
    /// Positions left out because an earlier record had them.
    pub duplicates: u64,
}

impl Dataset {
    /// Positions learnt from.
    pub fn train_len(&self) -> usize {
        self.train.len()
    }

    /// Positions held out.
    pub fn validation_len(&self) -> usize {
        self.validation.len()
    }

    /// Every record of `files`, each position once, about `held_out` of them (a fraction) set aside.
    pub fn read(files: &[impl AsRef<Path>], held_out: f64) -> Result<Dataset, DataError> {
        let mut data = Dataset::empty();
        let mut seen = HashSet::new();
        let threshold = threshold(held_out);
        for path in files {
            let path = path.as_ref();
            let read_error = |why| DataError::Read {
                path: path.to_path_buf(),
                why,
            };
            let mut bytes = Vec::new();
            std::fs::File::open(path)
                .and_then(|mut file| file.read_to_end(&mut bytes))
                .map_err(read_error)?;
            records_in(bytes.len() as u64).map_err(|why| DataError::Size {
                path: path.to_path_buf(),
                why,
            })?;
            for (record, chunk) in bytes.chunks_exact(RECORD_SIZE).enumerate() {
                let chunk: &[u8; RECORD_SIZE] = chunk.try_into().unwrap_or(&[0; RECORD_SIZE]);
                let position = TrainingPosition::from_bytes(chunk).map_err(|why| DataError::Record {
                    path: path.to_path_buf(),
                    record: record as u64,
                    why,
                })?;
                data.add(position, key_of(chunk), &mut seen, threshold);
            }
        }
        if data.train.is_empty() && data.validation.is_empty() {
            return Err(DataError::Empty);
        }
        Ok(data)
    }

    fn empty() -> Dataset {
        Dataset {
            train: Vec::new(),
            validation: Vec::new(),
            duplicates: 0,
        }
    }

    /// Keep `position` (whose key is `key`) unless it was met before, among those held out when its key falls
    /// below `threshold`.
    fn add(&mut self, position: TrainingPosition, key: u64, seen: &mut HashSet<u64>, threshold: u64) {
        if !seen.insert(key) {
            self.duplicates += 1;
        } else if spread(key) < threshold {
            self.validation.push(Sample::new(position));
        } else {
            self.train.push(Sample::new(position));
        }
    }
}

/// The spread key below which a position is held out, for a share `held_out`.
fn threshold(held_out: f64) -> u64 {
    (held_out.clamp(0.0, 1.0) * u64::MAX as f64) as u64
}

/// What makes two records the same position: the pieces' places, the game type, the side to move, the rule and
/// the stunned piece (not the score, the result or the ply).
fn key_of(record: &[u8; RECORD_SIZE]) -> u64 {
    let mut hash = crate::eval::net::fnv1a(&record[..56]);
    for byte in [record[56] & 0b0100_1111, record[57]] {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// A key spread evenly over the `u64`s (FNV's low bits are not), to split by.
fn spread(mut key: u64) -> u64 {
    key ^= key >> 33;
    key = key.wrapping_mul(0xff51_afd7_ed55_8ccd);
    key ^= key >> 33;
    key = key.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    key ^ (key >> 33)
}

/// What the trainer's tests share.
#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The positions `records`, each once, about `held_out` of them set aside: as [`Dataset::read`] does with the
    /// same records in a file.
    pub(crate) fn dataset_of(records: Vec<TrainingPosition>, held_out: f64) -> Dataset {
        let mut data = Dataset::empty();
        let mut seen = HashSet::new();
        let threshold = threshold(held_out);
        for record in records {
            let key = key_of(&record.to_bytes());
            data.add(record, key, &mut seen, threshold);
        }
        data
    }
}
