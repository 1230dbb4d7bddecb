//! A trainer's checkpoint: its schedule, where it is in it, the model, Adam's state and the best net so far, in one
//! file that ends with a hash of the rest. Little-endian: the magic `WAGGLECK`, the version (1), the schedule
//! (epochs, batch, learning rate, final rate, lambda, seed), steps, epochs done, batches done, the epoch's loss so
//! far (sum, positions), the weights, the two moving averages, then the best held-out loss (NaN for none) and that
//! net's file with its length.
//!
//! The trainer knows nothing of its checkpoints: this file reads and writes its state (`Trainer::resume`,
//! `Trainer::checkpoint`).

use super::model::PARAMETERS;
use super::trainer::{Schedule, Trainer};
use crate::eval::net::fnv1a;
use crate::train::model::Model;

const MAGIC: &[u8; 8] = b"WAGGLECK";
const VERSION: u32 = 1;

/// A checkpoint that cannot be resumed from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// Not a checkpoint.
    #[error("not a Waggle training checkpoint (it does not start with WAGGLECK)")]
    Foreign,
    /// Another version, or another shape of net.
    #[error("a checkpoint of another version or net shape than this Waggle's")]
    Version,
    /// Cut short or damaged.
    #[error("the checkpoint is cut short or damaged (its hash does not match)")]
    Damaged,
}

impl Trainer {
    /// The trainer a checkpoint written by [`Trainer::checkpoint`] holds.
    pub fn resume(bytes: &[u8]) -> Result<Trainer, CheckpointError> {
        read(bytes)
    }

    /// Everything needed to go on later from here.
    pub fn checkpoint(&self) -> Vec<u8> {
        write(self)
    }
}

/// The bytes of `trainer`'s checkpoint.
fn write(trainer: &Trainer) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(12 * PARAMETERS + 1024);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(PARAMETERS as u64).to_le_bytes());
    let s = &trainer.schedule;
    bytes.extend_from_slice(&s.epochs.to_le_bytes());
    bytes.extend_from_slice(&s.batch.to_le_bytes());
    for value in [s.learning_rate, s.final_rate, s.lambda] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    for value in [s.seed, trainer.steps] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes.extend_from_slice(&trainer.epochs_done.to_le_bytes());
    bytes.extend_from_slice(&trainer.batches_done.to_le_bytes());
    bytes.extend_from_slice(&trainer.epoch_loss.0.to_le_bytes());
    bytes.extend_from_slice(&trainer.epoch_loss.1.to_le_bytes());
    for list in [&trainer.model.weights, &trainer.first, &trainer.second] {
        for value in list.iter() {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
    }
    let (loss, net) = trainer
        .best
        .as_ref()
        .map_or((f64::NAN, &[][..]), |(loss, net)| (*loss, net.as_slice()));
    bytes.extend_from_slice(&loss.to_le_bytes());
    bytes.extend_from_slice(&(net.len() as u64).to_le_bytes());
    bytes.extend_from_slice(net);
    let hash = fnv1a(&bytes);
    bytes.extend_from_slice(&hash.to_le_bytes());
    bytes
}

/// Reads the fields of a checkpoint in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], CheckpointError> {
        let slice = self.bytes.get(self.at..self.at + N).ok_or(CheckpointError::Damaged)?;
        self.at += N;
        slice.try_into().map_err(|_| CheckpointError::Damaged)
    }

    fn u32(&mut self) -> Result<u32, CheckpointError> {
        self.take().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, CheckpointError> {
        self.take().map(u64::from_le_bytes)
    }

    fn f32(&mut self) -> Result<f32, CheckpointError> {
        self.take().map(f32::from_le_bytes)
    }

    fn f64(&mut self) -> Result<f64, CheckpointError> {
        self.take().map(f64::from_le_bytes)
    }

    fn floats(&mut self, count: usize) -> Result<Vec<f32>, CheckpointError> {
        (0..count).map(|_| self.f32()).collect()
    }
}

/// The trainer in a checkpoint's `bytes`.
fn read(bytes: &[u8]) -> Result<Trainer, CheckpointError> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(CheckpointError::Foreign);
    }
    if bytes.len() < 16 {
        return Err(CheckpointError::Damaged);
    }
    let (body, hash) = bytes.split_at(bytes.len() - 8);
    let mut reader = Reader { bytes: body, at: 8 };
    if reader.u32()? != VERSION || reader.u64()? != PARAMETERS as u64 {
        return Err(CheckpointError::Version);
    }
    if fnv1a(body).to_le_bytes() != hash {
        return Err(CheckpointError::Damaged);
    }
    let schedule = Schedule {
        epochs: reader.u32()?,
        batch: reader.u32()?,
        learning_rate: reader.f32()?,
        final_rate: reader.f32()?,
        lambda: reader.f32()?,
        seed: reader.u64()?,
    };
    let steps = reader.u64()?;
    let epochs_done = reader.u32()?;
    let batches_done = reader.u64()?;
    let epoch_loss = (reader.f64()?, reader.u64()?);
    let weights = reader.floats(PARAMETERS)?;
    let first = reader.floats(PARAMETERS)?;
    let second = reader.floats(PARAMETERS)?;
    let loss = reader.f64()?;
    let length = reader.u64()? as usize;
    let net = body
        .get(reader.at..reader.at + length)
        .ok_or(CheckpointError::Damaged)?;
    Ok(Trainer {
        schedule,
        model: Model { weights },
        first,
        second,
        steps,
        epochs_done,
        batches_done,
        epoch_loss,
        best: (!loss.is_nan()).then(|| (loss, net.to_vec())),
    })
}
