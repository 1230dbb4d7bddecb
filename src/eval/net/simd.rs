//! The network's arithmetic on rows of [`HIDDEN`] neurons: a side's neurons from the ones before a move and the
//! rows the move turns on and off, the sum of many rows (a side computed afresh), and the output layer's sum of
//! clipped, squared neurons times weights. On x86-64 processors with AVX2 (nearly every one since 2013) these run
//! with 256-bit integer instructions from `std::arch`, chosen when the program runs; everywhere else plain loops,
//! which the compiler vectorises as far as the target allows. Both give exactly the same numbers: the arithmetic
//! is on integers, and no sum can overflow (see [`squared_clipped_dot`]).

use super::layers::{DENSE, HIDDEN, QA, QD};
use super::{Neurons, PAIRS};

/// `neurons = before + Σ on − Σ off`. The numbers of rows are the arrays' lengths, known when compiling (a move
/// turns two rows on and two or one off), so that the loops over them unroll.
#[inline]
pub(super) fn update<const ON: usize, const OFF: usize>(
    neurons: &mut Neurons,
    before: &Neurons,
    on: &[&Neurons; ON],
    off: &[&Neurons; OFF],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { avx2::update(neurons, before, on, off) };
        return;
    }
    *neurons = *before;
    for row in on {
        for (n, w) in neurons.iter_mut().zip(row.iter()) {
            *n = n.wrapping_add(*w);
        }
    }
    for row in off {
        for (n, w) in neurons.iter_mut().zip(row.iter()) {
            *n = n.wrapping_sub(*w);
        }
    }
}

/// `neurons += Σ on − Σ off`, for many rows (a side computed afresh).
#[inline]
pub(super) fn accumulate<'a>(
    neurons: &mut Neurons,
    on: impl Iterator<Item = &'a Neurons>,
    off: impl Iterator<Item = &'a Neurons>,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        unsafe { avx2::accumulate(neurons, on, off) };
        return;
    }
    for row in on {
        for (n, w) in neurons.iter_mut().zip(row.iter()) {
            *n = n.wrapping_add(*w);
        }
    }
    for row in off {
        for (n, w) in neurons.iter_mut().zip(row.iter()) {
            *n = n.wrapping_sub(*w);
        }
    }
}

/// Σ clip(n)² · w over the neurons of both `sides` (the first's with the first `HIDDEN` weights, the second's with
/// the rest), clip to `[0, QA]`. A product is below 2^25 (a clipped neuron squared is at most `QA`² and a weight at
/// most [`clipped_bound`](super::layers::clipped_bound)`(QB)`), so a sum of 32 of them fits an `i32`; the whole sum
/// is an `i64`.
#[inline]
pub(super) fn squared_clipped_dot(sides: [&Neurons; 2], weights: &[i16; 2 * HIDDEN]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { avx2::squared_clipped_dot(sides, weights) };
    }
    portable_squared_clipped_dot(sides[0], &weights[..HIDDEN])
        + portable_squared_clipped_dot(sides[1], &weights[HIDDEN..])
}

/// The dense layer's part of the output: for each neuron `k`, its sum `z` (over pairs `p`, its two weights in
/// `weights[p]` times the two features packed in `features[p]`, the first in the low 16 bits), divided by `QD`
/// (rounded towards zero) plus its bias, clipped to `[0, QA]` and squared, times its output weight. Each product of
/// `z` is below 2^23 and 34 of them fit an `i32`; with biases within `clipped_bound(QA)` and output weights within
/// `clipped_bound(QB)` (as the net keeps them), each neuron's term is below 2^25 and sixteen of them fit an `i32`.
#[inline]
pub(super) fn dense(
    weights: &[[i16; 2 * DENSE]; PAIRS],
    features: &[i32; PAIRS],
    biases: &[i32; DENSE],
    outputs: &[i32; DENSE],
) -> i64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { avx2::dense(weights, features, biases, outputs) };
    }
    portable_dense(weights, features, biases, outputs)
}

fn portable_dense(
    weights: &[[i16; 2 * DENSE]; PAIRS],
    features: &[i32; PAIRS],
    biases: &[i32; DENSE],
    outputs: &[i32; DENSE],
) -> i64 {
    let mut sums = [0i32; DENSE];
    for (pair, &packed) in weights.iter().zip(features) {
        let (low, high) = (i32::from(packed as i16), i32::from((packed >> 16) as i16));
        for (k, sum) in sums.iter_mut().enumerate() {
            *sum += i32::from(pair[2 * k]) * low + i32::from(pair[2 * k + 1]) * high;
        }
    }
    sums.iter()
        .zip(biases)
        .zip(outputs)
        .map(|((&z, &bias), &out)| {
            let clipped = i64::from((z / QD + bias).clamp(0, QA));
            clipped * clipped * i64::from(out)
        })
        .sum()
}

fn portable_squared_clipped_dot(neurons: &Neurons, weights: &[i16]) -> i64 {
    let mut sum = 0i64;
    for (n, w) in neurons.chunks_exact(32).zip(weights[..HIDDEN].chunks_exact(32)) {
        let part: i32 = n
            .iter()
            .zip(w)
            .map(|(&n, &w)| {
                let clipped = i32::from(n).clamp(0, QA);
                clipped * clipped * i32::from(w)
            })
            .sum();
        sum += i64::from(part);
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::super::layers::{DENSE, HIDDEN, QA, QD};

    /// `QD` as a shift.
    const QD_SHIFT: i32 = QD.trailing_zeros() as i32;
    use super::super::Neurons;

    /// 16-bit neurons in a 256-bit register.
    const LANES: usize = 16;
    const REGISTERS: usize = HIDDEN / LANES;

    /// [`super::update`] with AVX2.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update<const ON: usize, const OFF: usize>(
        neurons: &mut Neurons,
        before: &Neurons,
        on: &[&Neurons; ON],
        off: &[&Neurons; OFF],
    ) {
        for r in 0..REGISTERS {
            let at = r * LANES;
            // SAFETY: every row is HIDDEN neurons long and `at + LANES <= HIDDEN`; the loads and the store are
            // unaligned ones.
            unsafe {
                let mut v = _mm256_loadu_si256(before.as_ptr().add(at).cast());
                for row in on {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(at).cast()));
                }
                for row in off {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(at).cast()));
                }
                _mm256_storeu_si256(neurons.as_mut_ptr().add(at).cast(), v);
            }
        }
    }

    /// [`super::accumulate`] with AVX2: the neurons stay in registers while the rows are added.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn accumulate<'a>(
        neurons: &mut Neurons,
        on: impl Iterator<Item = &'a Neurons>,
        off: impl Iterator<Item = &'a Neurons>,
    ) {
        // SAFETY: as in `update`: whole rows of HIDDEN neurons, unaligned loads and stores.
        unsafe {
            let mut v = [_mm256_setzero_si256(); REGISTERS];
            for (r, register) in v.iter_mut().enumerate() {
                *register = _mm256_loadu_si256(neurons.as_ptr().add(r * LANES).cast());
            }
            for row in on {
                for (r, register) in v.iter_mut().enumerate() {
                    *register = _mm256_add_epi16(*register, _mm256_loadu_si256(row.as_ptr().add(r * LANES).cast()));
                }
            }
            for row in off {
                for (r, register) in v.iter_mut().enumerate() {
                    *register = _mm256_sub_epi16(*register, _mm256_loadu_si256(row.as_ptr().add(r * LANES).cast()));
                }
            }
            for (r, register) in v.iter().enumerate() {
                _mm256_storeu_si256(neurons.as_mut_ptr().add(r * LANES).cast(), *register);
            }
        }
    }

    /// [`super::dense`] with AVX2: each pair of features broadcast, and `madd` gives eight neurons' two products
    /// summed at a time; the sums are then divided, clipped, squared and weighed eight at a time in 32-bit lanes.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn dense(
        weights: &[[i16; 2 * DENSE]; super::PAIRS],
        features: &[i32; super::PAIRS],
        biases: &[i32; DENSE],
        outputs: &[i32; DENSE],
    ) -> i64 {
        const { assert!(DENSE == 16 && QD == 1 << QD_SHIFT) };
        // SAFETY: each row of weights is 2 · DENSE = 32 values: two loads of 16 at 0 and 16; the biases and the
        // output weights are DENSE = 16 values: two loads of 8 at 0 and 8.
        unsafe {
            let (mut low, mut high) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            for (pair, &packed) in weights.iter().zip(features) {
                let both = _mm256_set1_epi32(packed);
                low = _mm256_add_epi32(low, _mm256_madd_epi16(_mm256_loadu_si256(pair.as_ptr().cast()), both));
                high = _mm256_add_epi32(
                    high,
                    _mm256_madd_epi16(_mm256_loadu_si256(pair.as_ptr().add(16).cast()), both),
                );
            }
            let (zero, top, round) = (_mm256_setzero_si256(), _mm256_set1_epi32(QA), _mm256_set1_epi32(QD - 1));
            let mut total = zero;
            for (z, at) in [(low, 0), (high, 8)] {
                // Divided by QD towards zero, as `/` does: negative sums are rounded up first.
                let rounded = _mm256_add_epi32(z, _mm256_and_si256(_mm256_srai_epi32::<31>(z), round));
                let biased = _mm256_add_epi32(
                    _mm256_srai_epi32::<QD_SHIFT>(rounded),
                    _mm256_loadu_si256(biases.as_ptr().add(at).cast()),
                );
                let clipped = _mm256_min_epi32(_mm256_max_epi32(biased, zero), top);
                let weighed = _mm256_mullo_epi32(
                    _mm256_mullo_epi32(clipped, clipped),
                    _mm256_loadu_si256(outputs.as_ptr().add(at).cast()),
                );
                total = _mm256_add_epi32(total, weighed);
            }
            let mut lanes = [0i32; 8];
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), total);
            lanes.iter().map(|&lane| i64::from(lane)).sum()
        }
    }

    /// [`super::squared_clipped_dot`] with AVX2, sixteen neurons at a time in 16-bit lanes, both sides into the
    /// same registers. A clipped neuron squared is below 2^16, exact in a 16-bit lane as an unsigned number; halved
    /// it is a positive `i16`, so that `madd` multiplies it by the signed weights and adds pairs into 32-bit lanes,
    /// and the halving's lost bit is added back by a second `madd` of zeros and ones. Each lane sums
    /// `2 · HIDDEN / 8` products of at most `QA² / 2 · clipped_bound(QB)`: below 2^30.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn squared_clipped_dot(sides: [&Neurons; 2], weights: &[i16; 2 * HIDDEN]) -> i64 {
        // SAFETY: each side's neurons are HIDDEN long and its weights the HIDDEN from `side * HIDDEN`; each load
        // reads 16 of them at `at + 16 <= HIDDEN`.
        unsafe {
            let (zero, top, one) = (
                _mm256_setzero_si256(),
                _mm256_set1_epi16(QA as i16),
                _mm256_set1_epi16(1),
            );
            let (mut halves, mut odd) = (zero, zero);
            for (side, neurons) in sides.into_iter().enumerate() {
                let weights = weights.as_ptr().add(side * HIDDEN);
                for at in (0..HIDDEN).step_by(LANES) {
                    let n = _mm256_loadu_si256(neurons.as_ptr().add(at).cast());
                    let w = _mm256_loadu_si256(weights.add(at).cast());
                    let clipped = _mm256_min_epi16(_mm256_max_epi16(n, zero), top);
                    let squared = _mm256_mullo_epi16(clipped, clipped);
                    halves = _mm256_add_epi32(halves, _mm256_madd_epi16(_mm256_srli_epi16(squared, 1), w));
                    odd = _mm256_add_epi32(odd, _mm256_madd_epi16(_mm256_and_si256(squared, one), w));
                }
            }
            let (mut high, mut low) = ([0i32; 8], [0i32; 8]);
            _mm256_storeu_si256(high.as_mut_ptr().cast(), halves);
            _mm256_storeu_si256(low.as_mut_ptr().cast(), odd);
            high.iter()
                .zip(&low)
                .map(|(&h, &l)| 2 * i64::from(h) + i64::from(l))
                .sum()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::net::layers::{clipped_bound, QB};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The vector code gives what the plain loops give (on a processor with AVX2; elsewhere both are the loops).
    #[test]
    fn the_vector_code_agrees_with_the_plain_loops() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut weight_rng = StdRng::seed_from_u64(12);
        let mut row = |range: i16| -> Neurons { std::array::from_fn(|_| rng.gen_range(-range..=range)) };
        for _ in 0..200 {
            let (before, a, b, c, d) = (row(2000), row(500), row(500), row(500), row(500));
            let mut fast = [0; HIDDEN];
            update(&mut fast, &before, &[&a, &b], &[&c, &d]);
            let slow: Neurons = std::array::from_fn(|i| before[i] + a[i] + b[i] - c[i] - d[i]);
            assert_eq!(fast, slow);
            let mut sum = before;
            accumulate(&mut sum, [&a, &b, &c].into_iter(), [&d].into_iter());
            let slow: Neurons = std::array::from_fn(|i| before[i] + a[i] + b[i] + c[i] - d[i]);
            assert_eq!(sum, slow);
            let (neurons, others) = (row(400), row(400));
            // Weights up to the bounds training keeps them in, where the sums come nearest to overflowing.
            let output_bound = clipped_bound(QB) as i16;
            let weights: [i16; 2 * HIDDEN] =
                std::array::from_fn(|_| weight_rng.gen_range(-output_bound..=output_bound));
            let both = [&neurons, &others];
            assert_eq!(
                squared_clipped_dot(both, &weights),
                portable_squared_clipped_dot(&neurons, &weights[..HIDDEN])
                    + portable_squared_clipped_dot(&others, &weights[HIDDEN..])
            );
            let dense_bound = clipped_bound(QA * QD) as i16;
            let dense_weights: Box<[[i16; 2 * DENSE]; PAIRS]> = Box::new(std::array::from_fn(|_| {
                std::array::from_fn(|_| weight_rng.gen_range(-dense_bound..=dense_bound))
            }));
            let features: [i32; PAIRS] = std::array::from_fn(|_| {
                let (a, b): (i16, i16) = (weight_rng.gen_range(-30..=30), weight_rng.gen_range(-30..=30));
                i32::from(a as u16) | i32::from(b) << 16
            });
            let biases: [i32; DENSE] =
                std::array::from_fn(|_| weight_rng.gen_range(-clipped_bound(QA)..=clipped_bound(QA)));
            let outputs: [i32; DENSE] =
                std::array::from_fn(|_| weight_rng.gen_range(-clipped_bound(QB)..=clipped_bound(QB)));
            assert_eq!(
                dense(&dense_weights, &features, &biases, &outputs),
                portable_dense(&dense_weights, &features, &biases, &outputs)
            );
            // Small weights and counts, so that the sums fall inside the clip, negative ones included, and their
            // division by QD is rounded.
            let small_weights: Box<[[i16; 2 * DENSE]; PAIRS]> = Box::new(std::array::from_fn(|_| {
                std::array::from_fn(|_| weight_rng.gen_range(-40..=40))
            }));
            let small_features: [i32; PAIRS] = std::array::from_fn(|_| {
                let (a, b): (i16, i16) = (weight_rng.gen_range(-2..=2), weight_rng.gen_range(-2..=2));
                i32::from(a as u16) | i32::from(b) << 16
            });
            let small_biases: [i32; DENSE] = std::array::from_fn(|_| weight_rng.gen_range(-20..=200));
            assert_eq!(
                dense(&small_weights, &small_features, &small_biases, &outputs),
                portable_dense(&small_weights, &small_features, &small_biases, &outputs)
            );
            let exact: i64 = neurons
                .iter()
                .chain(&others)
                .zip(&weights)
                .map(|(&n, &w)| i64::from(n.clamp(0, QA as i16)).pow(2) * i64::from(w))
                .sum();
            assert_eq!(squared_clipped_dot(both, &weights), exact);
        }
    }
}
