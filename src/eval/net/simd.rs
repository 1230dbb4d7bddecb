//! The network's arithmetic on rows of [`HIDDEN`] neurons: adding and taking away rows of weights, and the output
//! layer's sum of clipped, squared neurons times weights. Plain loops that the compiler vectorises for any
//! processor.

use super::{Neurons, HIDDEN, QA};

/// `neurons += row`.
#[inline]
pub(super) fn add(neurons: &mut Neurons, row: &Neurons) {
    for (n, w) in neurons.iter_mut().zip(row) {
        *n = n.wrapping_add(*w);
    }
}

/// `neurons -= row`.
#[inline]
pub(super) fn sub(neurons: &mut Neurons, row: &Neurons) {
    for (n, w) in neurons.iter_mut().zip(row) {
        *n = n.wrapping_sub(*w);
    }
}

/// Σ clip(n)² · w over the neurons, clip to `[0, QA]`. Each product fits an `i32` (below 2^25 for the weights a
/// trained net has), and so does a sum of 32 of them; the whole sum is an `i64`.
#[inline]
pub(super) fn squared_clipped_dot(neurons: &Neurons, weights: &[i16]) -> i64 {
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
