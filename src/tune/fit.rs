//! Fitting the evaluation's weights to game results (the method known as Texel tuning): with the score of a
//! position turned into an expected result by a logistic curve, σ(s) = 1 / (1 + 10^(−k·s/400)), find the weights
//! that make the mean squared difference between expected and actual results least. First the scale `k` that
//! suits the weights one starts from, then the weights, by gradient descent (Adam) on the whole data at once.
//!
//! Owns the arithmetic only; the positions come from `data`, the features from `crate::eval`.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::eval::{win_chance, Feature, Neighbours, Weights, FEATURE_COUNT};

use super::samples::Sample;

/// How to fit.
#[derive(Clone, Debug, PartialEq)]
pub struct FitSettings {
    /// Steps of gradient descent.
    pub iterations: usize,
    /// Adam's step size, in the evaluation's units.
    pub learning_rate: f64,
    /// Weights that stay as they are (the tempo, a weight that must stay 0).
    pub fixed: Vec<Feature>,
}

impl Default for FitSettings {
    fn default() -> Self {
        FitSettings {
            iterations: 2000,
            learning_rate: 1.0,
            fixed: vec![Feature::QueenNeighbours(Neighbours::ALL[0])],
        }
    }
}

/// What a fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The fitted weights, rounded.
    pub weights: Weights,
    /// The scale of the logistic curve, fitted to the starting weights.
    pub scale: f64,
    /// Mean squared error with the starting weights.
    pub error_before: f64,
    /// Mean squared error with the fitted weights (rounded).
    pub error_after: f64,
    /// Steps of gradient descent taken: fewer than asked when the fit was stopped.
    pub iterations: usize,
}

/// The expected result of a score, for the side to move.
fn expected(score: f64, scale: f64) -> f64 {
    win_chance(scale * score, 400.0)
}

/// The score of `features` under `weights`.
fn score(weights: &[f64; FEATURE_COUNT], features: &[i32; FEATURE_COUNT]) -> f64 {
    weights.iter().zip(features).map(|(w, &f)| w * f64::from(f)).sum()
}

/// Mean squared error of `weights` with the curve's `scale` over `samples`.
pub fn error(samples: &[Sample], weights: &[f64; FEATURE_COUNT], scale: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - expected(score(weights, &s.features.0), scale)).powi(2))
        .sum();
    total / samples.len() as f64
}

/// The scale that makes `weights` fit `samples` best (golden-section search over 0.01 … 10).
pub fn best_scale(samples: &[Sample], weights: &[f64; FEATURE_COUNT]) -> f64 {
    let (mut low, mut high) = (0.01f64, 10.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = high - ratio * (high - low);
        let b = low + ratio * (high - low);
        if error(samples, weights, a) < error(samples, weights, b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

/// Fit weights to `samples`, starting from `start`.
pub fn fit(samples: &[Sample], start: &Weights, settings: &FitSettings, stop: &AtomicBool) -> Fit {
    let mut weights = start.0.map(f64::from);
    let scale = best_scale(samples, &weights);
    let error_before = error(samples, &weights, scale);
    let fixed: Vec<usize> = settings.fixed.iter().map(|f| f.index()).collect();
    let (mut m, mut v) = ([0.0; FEATURE_COUNT], [0.0; FEATURE_COUNT]);
    let (beta1, beta2, epsilon) = (0.9f64, 0.999f64, 1e-8);
    let slope = scale * 10f64.ln() / 400.0;
    let mut iterations = 0;
    for step in 1..=settings.iterations {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        iterations = step;
        let mut gradient = [0.0; FEATURE_COUNT];
        for sample in samples {
            let p = expected(score(&weights, &sample.features.0), scale);
            let common = -2.0 * (sample.result - p) * p * (1.0 - p) * slope;
            for (g, &f) in gradient.iter_mut().zip(&sample.features.0) {
                *g += common * f64::from(f);
            }
        }
        let n = samples.len().max(1) as f64;
        for j in 0..FEATURE_COUNT {
            if fixed.contains(&j) {
                continue;
            }
            let g = gradient[j] / n;
            m[j] = beta1 * m[j] + (1.0 - beta1) * g;
            v[j] = beta2 * v[j] + (1.0 - beta2) * g * g;
            let m_hat = m[j] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[j] / (1.0 - beta2.powi(step as i32));
            weights[j] -= settings.learning_rate * m_hat / (v_hat.sqrt() + epsilon);
        }
    }
    let rounded = Weights(weights.map(|w| w.round() as i32));
    let error_after = error(samples, &rounded.0.map(f64::from), scale);
    Fit {
        weights: rounded,
        scale,
        error_before,
        error_after,
        iterations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Features;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Samples whose results are exactly what known weights predict: a fit from other weights must find them.
    #[test]
    fn a_fit_on_synthetic_data_recovers_known_weights() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut truth = Weights([0; FEATURE_COUNT]);
        for (i, w) in truth.0.iter_mut().enumerate() {
            *w = (i as i32 % 7 - 3) * 12;
        }
        truth.set(Feature::QueenNeighbours(Neighbours::ALL[0]), 0);
        let truth_f = truth.0.map(f64::from);
        let samples: Vec<Sample> = (0..4000)
            .map(|_| {
                let mut features = [0i32; FEATURE_COUNT];
                for f in features.iter_mut() {
                    *f = rng.gen_range(-3..=3);
                }
                features[Feature::QueenNeighbours(Neighbours::ALL[0]).index()] = rng.gen_range(-1..=1);
                features[Feature::Tempo.index()] = 1;
                let result = expected(score(&truth_f, &features), 1.0);
                Sample {
                    features: Features(features),
                    result,
                }
            })
            .collect();
        assert!(best_scale(&samples, &truth_f) > 0.99 && best_scale(&samples, &truth_f) < 1.01);
        let settings = FitSettings {
            iterations: 3000,
            learning_rate: 0.5,
            fixed: vec![Feature::QueenNeighbours(Neighbours::ALL[0])],
        };
        // Start from weights off the truth by up to 15 each: the scale is fitted to them, and the weights found
        // must be the truth's divided by that scale.
        let mut start = truth;
        for (i, w) in start.0.iter_mut().enumerate() {
            if i != Feature::QueenNeighbours(Neighbours::ALL[0]).index() {
                *w += rng.gen_range(-15..=15);
            }
        }
        let found = fit(&samples, &start, &settings, &AtomicBool::new(false));
        assert!(found.error_after < found.error_before / 10.0, "{found:?}");
        // The weights and the scale trade off: compare the predictions, which must match the truth's.
        let predicted: f64 = samples
            .iter()
            .map(|s| (expected(score(&found.weights.0.map(f64::from), &s.features.0), found.scale) - s.result).abs())
            .fold(0.0, f64::max);
        // Rounding the weights to whole numbers costs a little: a few points of score on the sums of 32 features.
        assert!(predicted < 0.03, "worst prediction off by {predicted}");
        for (got, want) in found.weights.0.iter().zip(truth.0) {
            let want = f64::from(want) / found.scale;
            assert!(
                (f64::from(*got) - want).abs() <= 1.0 + want.abs() * 0.02,
                "{got} vs {want}: {found:?}"
            );
        }
    }
}
