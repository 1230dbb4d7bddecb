//! The training loop: the positions shuffled each epoch (from the seed), cut into batches, each batch's gradient
//! worked out on several threads and summed in a fixed order (so that a seed gives the same net whatever the
//! threads), Adam's step with the learning rate of the schedule, every weight kept within the engine's range; after
//! each epoch the loss on the held-out positions, and the best net so far kept as its file's bytes.
//!
//! The loss of a position is the squared difference between the net's win chance (its score through the review's
//! curve) and the target: the search's score's chance and the game's result, blended (`Schedule::lambda`).
//!
//! A [`Trainer`] can be written to a checkpoint at any batch and resumed from it, to the same net as a run that
//! never stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::data::Dataset;
use super::data::Sample;
use super::model::{score_of, Inputs, Model, Pass, PARAMETERS};
use crate::eval::{win_chance, Features, WeightSets, MAX_EVAL, WIN_CURVE_SCALE};
use crate::record::training::TrainingPosition;

/// Each batch's positions are worked in this many fixed parts, whatever the threads.
const PARTS: usize = 8;

/// How a net is trained: written down with each net.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Passes over the positions.
    pub epochs: u32,
    /// Positions a step.
    pub batch: u32,
    /// Adam's learning rate at the start; it falls along a half cosine to `final_rate` of it at the end.
    pub learning_rate: f32,
    /// The learning rate at the end, as a share of the first.
    pub final_rate: f32,
    /// The share of the game's result in the target (the rest is the search's score's win chance).
    pub lambda: f32,
    /// Seed of the first weights and of the shuffles.
    pub seed: u64,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            epochs: 20,
            batch: 16_384,
            learning_rate: 0.001,
            final_rate: 0.01,
            lambda: 0.0,
            seed: 1,
        }
    }
}

/// What an epoch came to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// Its number, from 1.
    pub number: u32,
    /// The mean loss over the positions learnt from during the epoch.
    pub train_loss: f64,
    /// The mean loss over the held-out positions at its end.
    pub validation_loss: f64,
    /// Whether the net is the best so far on the held-out positions.
    pub best: bool,
    /// The learning rate at its end.
    pub learning_rate: f32,
    /// Positions a second learnt from during the epoch.
    pub positions_per_second: f64,
}

/// A net being trained: the model, the optimiser's state and where it is in the schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Trainer {
    pub(crate) schedule: Schedule,
    pub(crate) model: Model,
    /// Adam's moving averages of the gradient and of its square.
    pub(crate) first: Vec<f32>,
    pub(crate) second: Vec<f32>,
    /// Steps taken.
    pub(crate) steps: u64,
    /// Epochs finished, and batches of the next one done.
    pub(crate) epochs_done: u32,
    pub(crate) batches_done: u64,
    /// The loss of the current epoch so far (sum, positions).
    pub(crate) epoch_loss: (f64, u64),
    /// The best held-out loss so far and that net's file.
    pub(crate) best: Option<(f64, Vec<u8>)>,
}

impl Trainer {
    /// A new net with small random weights, to be trained on `schedule`.
    pub fn new(schedule: Schedule) -> Trainer {
        let mut rng = StdRng::seed_from_u64(schedule.seed);
        Trainer {
            schedule,
            model: Model::random(&mut rng),
            first: vec![0.0; PARAMETERS],
            second: vec![0.0; PARAMETERS],
            steps: 0,
            epochs_done: 0,
            batches_done: 0,
            epoch_loss: (0.0, 0),
            best: None,
        }
    }

    /// The schedule.
    pub fn schedule(&self) -> Schedule {
        self.schedule
    }

    /// Epochs finished.
    pub fn epochs_done(&self) -> u32 {
        self.epochs_done
    }

    /// Batches of the current epoch done.
    pub fn batches_done(&self) -> u64 {
        self.batches_done
    }

    /// Whether the schedule is done.
    pub fn finished(&self) -> bool {
        self.epochs_done >= self.schedule.epochs
    }

    /// The file of the net with the least held-out loss so far, and that loss.
    pub fn best(&self) -> Option<(f64, &[u8])> {
        self.best.as_ref().map(|(loss, net)| (*loss, net.as_slice()))
    }

    /// The file of the net as it is now.
    pub fn net(&self) -> Vec<u8> {
        self.model.to_net_file()
    }

    /// Batches in an epoch over `data`.
    pub fn batches_per_epoch(&self, data: &Dataset) -> u64 {
        (data.train.len() as u64).div_ceil(u64::from(self.schedule.batch.max(1)))
    }

    /// The mean loss of the current net over `positions`.
    pub(crate) fn loss(&self, positions: &[Sample], threads: usize) -> f64 {
        if positions.is_empty() {
            return f64::NAN;
        }
        let lambda = self.schedule.lambda;
        let parts: Vec<&[Sample]> = positions.chunks(positions.len().div_ceil(PARTS)).collect();
        let sums = on_threads(parts.len(), threads, |part| {
            let (mut inputs, mut pass) = (Inputs::default(), Pass::default());
            parts[part]
                .iter()
                .map(|sample| {
                    inputs.fill(sample);
                    self.model.forward(&inputs, &mut pass);
                    f64::from(loss(pass.output, target(&sample.record, lambda)).0)
                })
                .sum::<f64>()
        });
        sums.iter().sum::<f64>() / positions.len() as f64
    }

    /// The mean loss of the hand-written evaluation (Waggle's own weights) over `positions`, with this schedule's
    /// targets: what the net has to beat.
    pub(crate) fn classic_loss(&self, positions: &[Sample], threads: usize) -> f64 {
        if positions.is_empty() {
            return f64::NAN;
        }
        let lambda = self.schedule.lambda;
        let weights = WeightSets::default();
        let parts: Vec<&[Sample]> = positions.chunks(positions.len().div_ceil(PARTS)).collect();
        let sums = on_threads(parts.len(), threads, |part| {
            parts[part]
                .iter()
                .map(|sample| {
                    let features = Features(sample.classic.map(i32::from));
                    let weights = weights.for_game(sample.record.game_type);
                    let score = weights.score(&features).clamp(-MAX_EVAL, MAX_EVAL);
                    f64::from(loss(score as f32 / score_of(1.0), target(&sample.record, lambda)).0)
                })
                .sum::<f64>()
        });
        sums.iter().sum::<f64>() / positions.len() as f64
    }

    /// The mean loss over the held-out positions of `data`: of the net as it is now, and of the hand-written
    /// evaluation.
    pub fn held_out_losses(&self, data: &Dataset, threads: usize) -> (f64, f64) {
        (
            self.loss(&data.validation, threads),
            self.classic_loss(&data.validation, threads),
        )
    }

    /// Train on `data` with `threads` threads until the schedule is done or `stop` is raised (between batches).
    /// `on_batch` hears of each batch done (the batch of the epoch, from 1, and the batches an epoch has),
    /// `on_epoch` of each epoch's end, with the trainer as it is then (to write its checkpoint).
    pub fn train(
        &mut self,
        data: &Dataset,
        threads: usize,
        stop: &AtomicBool,
        mut on_batch: impl FnMut(u64, u64),
        mut on_epoch: impl FnMut(&Epoch, &Trainer),
    ) {
        let per_epoch = self.batches_per_epoch(data);
        let batch = self.schedule.batch.max(1) as usize;
        let mut gradients = vec![vec![0.0f32; PARAMETERS]; PARTS];
        while !self.finished() && !stop.load(Ordering::SeqCst) {
            let mut order: Vec<u32> = (0..data.train.len() as u32).collect();
            let seed = self.schedule.seed ^ (u64::from(self.epochs_done) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            order.shuffle(&mut StdRng::seed_from_u64(seed));
            let started = (Instant::now(), self.batches_done);
            while self.batches_done < per_epoch {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let start = self.batches_done as usize * batch;
                let chosen = &order[start..(start + batch).min(order.len())];
                self.step(data, chosen, threads, &mut gradients);
                self.batches_done += 1;
                on_batch(self.batches_done, per_epoch);
            }
            let seconds = started.0.elapsed().as_secs_f64().max(1e-9);
            let learnt = (self.batches_done - started.1) as f64 * batch as f64;
            let validation_loss = self.loss(&data.validation, threads);
            let best = self.best.as_ref().is_none_or(|(loss, _)| validation_loss < *loss);
            if best {
                self.best = Some((validation_loss, self.model.to_net_file()));
            }
            let epoch = Epoch {
                number: self.epochs_done + 1,
                train_loss: self.epoch_loss.0 / self.epoch_loss.1.max(1) as f64,
                validation_loss,
                best,
                learning_rate: self.learning_rate(),
                positions_per_second: learnt.min(data.train.len() as f64) / seconds,
            };
            self.epochs_done += 1;
            self.batches_done = 0;
            self.epoch_loss = (0.0, 0);
            on_epoch(&epoch, self);
        }
    }

    /// The learning rate of the step about to be taken.
    fn learning_rate(&self) -> f32 {
        let schedule = &self.schedule;
        let total = (f64::from(schedule.epochs)).max(1.0);
        let done = (f64::from(self.epochs_done)).min(total) / total;
        let fall = 0.5 * (1.0 + (std::f64::consts::PI * done).cos());
        let rate = f64::from(schedule.final_rate) + (1.0 - f64::from(schedule.final_rate)) * fall;
        schedule.learning_rate * rate as f32
    }

    /// One step on the positions `chosen` (indices into `data.train`).
    fn step(&mut self, data: &Dataset, chosen: &[u32], threads: usize, gradients: &mut [Vec<f32>]) {
        let lambda = self.schedule.lambda;
        let part_len = chosen.len().div_ceil(PARTS).max(1);
        let model = &self.model;
        let losses: Vec<f64> = thread::scope(|scope| {
            let mut parts: Vec<(usize, &mut Vec<f32>)> = gradients.iter_mut().enumerate().collect();
            let per_thread = PARTS.div_ceil(threads.max(1));
            let mut handles = Vec::new();
            while !parts.is_empty() {
                let mine: Vec<(usize, &mut Vec<f32>)> = parts.drain(..per_thread.min(parts.len())).collect();
                handles.push(scope.spawn(move || {
                    let (mut inputs, mut pass) = (Inputs::default(), Pass::default());
                    let mut losses = Vec::new();
                    for (part, gradient) in mine {
                        gradient.fill(0.0);
                        let mut sum = 0.0f64;
                        let indices = chosen.chunks(part_len).nth(part).unwrap_or(&[]);
                        for &index in indices {
                            let sample = &data.train[index as usize];
                            inputs.fill(sample);
                            model.forward(&inputs, &mut pass);
                            let (loss, d_output) = loss(pass.output, target(&sample.record, lambda));
                            sum += f64::from(loss);
                            model.backward(&inputs, &pass, d_output, gradient);
                        }
                        losses.push(sum);
                    }
                    losses
                }));
            }
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
                .collect()
        });
        self.epoch_loss.0 += losses.iter().sum::<f64>();
        self.epoch_loss.1 += chosen.len() as u64;
        // The parts' gradients summed in their order, into the first.
        let (first, rest) = gradients.split_at_mut(1);
        for other in rest.iter() {
            for (g, o) in first[0].iter_mut().zip(other) {
                *g += o;
            }
        }
        self.adam(&first[0], chosen.len());
    }

    /// Adam's step with the mean gradient `sum / count`.
    fn adam(&mut self, sum: &[f32], count: usize) {
        const BETA1: f32 = 0.9;
        const BETA2: f32 = 0.999;
        const EPSILON: f32 = 1e-8;
        self.steps += 1;
        let rate = self.learning_rate();
        let scale = 1.0 / count.max(1) as f32;
        let correction1 = 1.0 - BETA1.powi(self.steps.min(i32::MAX as u64) as i32);
        let correction2 = 1.0 - BETA2.powi(self.steps.min(i32::MAX as u64) as i32);
        let step = rate * correction2.sqrt() / correction1;
        for (((w, m), v), g) in self
            .model
            .weights
            .iter_mut()
            .zip(self.first.iter_mut())
            .zip(self.second.iter_mut())
            .zip(sum)
        {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= step * *m / (v.sqrt() + EPSILON);
        }
        self.model.clip();
    }
}

/// The target of `record`: the blend of its score's win chance and its game's result.
fn target(record: &TrainingPosition, lambda: f32) -> f32 {
    record.target(lambda, |score| win_chance(f64::from(score), WIN_CURVE_SCALE) as f32)
}

/// The loss of a network output against `target`, and its derivative by the output.
#[inline]
fn loss(output: f32, target: f32) -> (f32, f32) {
    let k = std::f32::consts::LN_10 / WIN_CURVE_SCALE as f32;
    let chance = 1.0 / (1.0 + (-score_of(output) * k).exp());
    let error = chance - target;
    (error * error, 2.0 * error * chance * (1.0 - chance) * k * score_of(1.0))
}

/// `work(part)` for each part `0..parts` on up to `threads` threads; the results in the parts' order.
fn on_threads<T: Send>(parts: usize, threads: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let per_thread = parts.div_ceil(threads.max(1)).max(1);
    thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = (0..parts)
            .step_by(per_thread)
            .map(|first| scope.spawn(move || (first..(first + per_thread).min(parts)).map(work).collect::<Vec<T>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::WeightSets;
    use crate::rules::game_type::GameType;
    use crate::train::{gather, CheckpointError, Datagen, Shard};

    /// Positions of a few quick self-play games of every game type.
    fn dataset() -> Dataset {
        let settings = Datagen {
            games: 16,
            game_types: GameType::ALL.to_vec(),
            opening_plies: 2..=6,
            nodes: 200,
            max_plies: 80,
            seed: 3,
            shard: Shard::ALL,
            options: Datagen::default_options(),
            weights: WeightSets::default(),
            random_moves: 0.1,
        };
        let mut records = Vec::new();
        gather(&settings, 2, &AtomicBool::new(false), |game| {
            records.extend(game.positions.into_iter().map(|(_, p)| p))
        });
        super::super::data::tests::dataset_of(records, 0.2)
    }

    fn schedule() -> Schedule {
        Schedule {
            epochs: 4,
            batch: 64,
            learning_rate: 0.003,
            ..Schedule::default()
        }
    }

    #[test]
    fn a_short_training_lowers_the_held_out_loss() {
        let data = dataset();
        assert!(
            data.train.len() > 300 && data.validation.len() > 50,
            "{}",
            data.train.len()
        );
        let mut trainer = Trainer::new(schedule());
        let before = trainer.loss(&data.validation, 2);
        let mut epochs = Vec::new();
        trainer.train(&data, 2, &AtomicBool::new(false), |_, _| {}, |e, _| epochs.push(*e));
        assert_eq!(epochs.len(), 4);
        let (best, net) = trainer.best().expect("a best net");
        assert!(best < before * 0.8, "{before} -> {best}");
        assert!(crate::eval::Network::from_bytes(net).is_ok());
    }

    #[test]
    fn a_seed_trains_the_same_net_whatever_the_threads_and_a_checkpoint_resumes_to_it() {
        let data = dataset();
        let go = AtomicBool::new(false);
        let mut straight = Trainer::new(schedule());
        straight.train(&data, 1, &go, |_, _| {}, |_, _| {});
        let mut two = Trainer::new(schedule());
        two.train(&data, 2, &go, |_, _| {}, |_, _| {});
        assert_eq!(straight.net(), two.net(), "two threads train what one does");
        // Stopped part-way through the second epoch, written out, read back and finished.
        let stop = AtomicBool::new(false);
        let mut halted = Trainer::new(schedule());
        let per_epoch = halted.batches_per_epoch(&data);
        halted.train(
            &data,
            2,
            &stop,
            |batch, _| {
                if batch == per_epoch / 2 {
                    stop.store(true, Ordering::SeqCst);
                }
            },
            |_, _| {},
        );
        assert!(!halted.finished());
        let mut resumed = Trainer::resume(&halted.checkpoint()).expect("the checkpoint reads");
        assert_eq!(resumed, halted);
        resumed.train(&data, 2, &go, |_, _| {}, |_, _| {});
        assert_eq!(
            resumed.net(),
            straight.net(),
            "the resumed run ends where the straight one did"
        );
        assert_eq!(resumed.best(), straight.best());
        // A damaged or foreign checkpoint is refused.
        let mut damaged = halted.checkpoint();
        damaged[100] ^= 1;
        assert_eq!(Trainer::resume(&damaged), Err(CheckpointError::Damaged));
        assert_eq!(Trainer::resume(b"WAGGLENN"), Err(CheckpointError::Foreign));
    }
}
