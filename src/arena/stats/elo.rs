//! The Elo difference a score means, its 95 % margin (the trinomial, per game model of cutechess-cli), and the
//! likelihood of superiority.

use std::f64::consts::{FRAC_2_SQRT_PI, PI};

use super::score::Score;

/// The two-sided 95 % quantile of the standard normal distribution, Φ⁻¹(0.975).
const Z_95: f64 = 1.959963984540054;

/// An Elo difference with its 95 % error margin, the likelihood of superiority and the draw ratio, as
/// cutechess-cli prints them after a match (`Elo difference: 34.9 +/- 34.2, LOS: 97.7 %, DrawRatio: 50.0 %`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The logistic Elo difference, `+inf` when every point was won and `-inf` when none was.
    pub elo: f64,
    /// Half the width of the 95 % confidence interval, in Elo; `+inf` when the interval reaches a score of 0 or 1.
    pub margin: f64,
    /// The likelihood of superiority, in `0..=1`: see [`los`].
    pub los: f64,
    /// The share of games drawn, in `0..=1`.
    pub draw_ratio: f64,
}

/// The Elo estimate of a score under the trinomial (per game) model, as cutechess-cli computes it; `None` when no
/// game was played.
///
/// With `N` games, `W` wins, `D` draws, `L` losses and the score ratio `s = (W + D/2) / N`:
/// - the per-game variance is `var = (W (1-s)² + D (½-s)² + L (0-s)²) / N` and the standard error of `s` is
///   `sqrt(var / N)`;
/// - with `z = 1.959963984540054` (the 95 % quantile), the margin is
///   `(elo_from_ratio(s + z·stderr) - elo_from_ratio(s - z·stderr)) / 2` and the Elo is `elo_from_ratio(s)`;
/// - the draw ratio is `D / N` and the LOS is [`los`].
///
/// When every game was won (or every game lost) the Elo is `+inf` (or `-inf`) and the margin `+inf`, never `NaN`.
/// When one end of the interval passes a score of 0 or 1 the margin is `+inf` too: the data cannot bound the Elo.
pub fn elo_estimate(score: Score) -> Option<EloEstimate> {
    let s = score.ratio()?;
    let games = score.games_f64();
    let (wins, draws, losses) = (f64::from(score.wins), f64::from(score.draws), f64::from(score.losses));
    let variance = (wins * (1.0 - s).powi(2) + draws * (0.5 - s).powi(2) + losses * s.powi(2)) / games;
    let std_error = (variance / games).sqrt();
    let elo = elo_from_ratio(s);
    let margin = if elo.is_finite() {
        (elo_from_ratio(s + Z_95 * std_error) - elo_from_ratio(s - Z_95 * std_error)) / 2.0
    } else {
        // All wins or all losses: the variance is 0 and both ends of the interval are the same infinity, whose
        // difference would be NaN; the honest answer is that the margin is unbounded.
        f64::INFINITY
    };
    Some(EloEstimate {
        elo,
        margin,
        los: los(score),
        draw_ratio: draws / games,
    })
}

/// The logistic Elo difference that a score ratio `s` means: `-400 log10(1/s - 1)`.
///
/// Defined for `s` in `(0, 1)`; a ratio of 1 or more gives `+inf`, 0 or less `-inf` (so the ends of a confidence
/// interval that spill out of `[0, 1]` give an infinite margin rather than `NaN`); `NaN` gives `NaN`.
pub fn elo_from_ratio(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score ratio of a logistic Elo difference: `1 / (1 + 10^(-elo/400))`; the inverse of
/// [`elo_from_ratio`].
pub fn ratio_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The likelihood of superiority: the probability that the side is truly stronger, given its wins `W` and losses
/// `L` (draws say nothing about it): `0.5 (1 + erf((W - L) / sqrt(2 (W + L))))`, and 0.5 when `W + L = 0`.
pub fn los(score: Score) -> f64 {
    let (wins, losses) = (f64::from(score.wins), f64::from(score.losses));
    if wins + losses == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins - losses) / (2.0 * (wins + losses)).sqrt()))
}

/// The error function `erf(x) = 2/√π ∫₀ˣ e^(-t²) dt`, accurate to about 1e-15 (the standard library has none).
///
/// Below 2.5 it sums the series `erf(x) = 2/√π e^(-x²) Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))`, whose terms are all
/// positive (no cancellation, unlike the Taylor series); from 2.5 it takes `1 - erfc(x)` from the continued
/// fraction of `erfc`, which converges fast there; from 6 on `erf(x)` is 1 to double precision. Odd: `erf(-x) =
/// -erf(x)`.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        let x2 = x * x;
        let mut term = x;
        let mut sum = x;
        let mut n = 0u32;
        // About 40 terms at x = 2.5; the cap only guards against a loop that a bug could make endless.
        while term > sum * f64::EPSILON / 4.0 && n < 200 {
            n += 1;
            term *= 2.0 * x2 / f64::from(2 * n + 1);
            sum += term;
        }
        FRAC_2_SQRT_PI * (-x2).exp() * sum
    } else if x < 6.0 {
        1.0 - erfc_continued_fraction(x)
    } else {
        // erfc(6) ≈ 2e-17, less than half the gap between 1 and the float below it.
        1.0
    }
}

/// `erfc(x) = e^(-x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …)))))`, evaluated from the tail; 60 levels
/// reach full double precision for every `x >= 2.5`.
fn erfc_continued_fraction(x: f64) -> f64 {
    const LEVELS: u32 = 60;
    let mut tail = x;
    for k in (1..=LEVELS).rev() {
        tail = x + f64::from(k) / 2.0 / tail;
    }
    (-x * x).exp() / (PI.sqrt() * tail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::stats::tests::*;

    #[test]
    fn elo_and_ratio_convert_both_ways() {
        // s = 3/4: -400 log10(4/3 - 1) = 400 log10 3 = 400 × 0.47712125471966244 = 190.848501887865.
        assert_close(elo_from_ratio(0.75), 190.848501887865, 1e-9);
        assert_close(elo_from_ratio(0.25), -190.848501887865, 1e-9);
        assert_eq!(elo_from_ratio(0.5), 0.0);
        // 400 Elo: 1 / (1 + 10^-1) = 1 / 1.1 = 0.9090…; -400 Elo: 1 / (1 + 10) = 0.0909….
        assert_close(ratio_from_elo(400.0), 1.0 / 1.1, 1e-15);
        assert_close(ratio_from_elo(-400.0), 1.0 / 11.0, 1e-15);
        assert_close(ratio_from_elo(elo_from_ratio(0.6180)), 0.6180, 1e-12);
        assert_eq!(elo_from_ratio(1.0), f64::INFINITY);
        assert_eq!(elo_from_ratio(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_ratio(1.2), f64::INFINITY);
        assert_eq!(elo_from_ratio(-0.1), f64::NEG_INFINITY);
        assert_eq!(ratio_from_elo(f64::INFINITY), 1.0);
        assert_eq!(ratio_from_elo(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn erf_matches_known_values() {
        // Reference values of erf to 16 digits (as tabulated, e.g. by Python's math.erf).
        let known = [
            (0.0, 0.0),
            (1e-8, 1.1283791670955126e-8), // ≈ 2x/√π for small x
            (0.1, 0.1124629160182849),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (2.5, 0.999593047982555), // the switch from the series to the continued fraction
            (3.0, 0.9999779095030014),
            (4.0, 0.9999999845827421),
            (5.0, 0.9999999999984626),
            (7.0, 1.0),
        ];
        for (x, expected) in known {
            assert_close(erf(x), expected, 1e-14);
            assert_eq!(erf(-x), -erf(x), "erf is odd at {x}");
        }
        // Both sides of the switch agree.
        assert_close(erf(2.5 - 1e-12), erf(2.5), 1e-14);
        assert!(erf(f64::NAN).is_nan());
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert_eq!(erf(f64::NEG_INFINITY), -1.0);
    }

    #[test]
    fn estimate_of_a_won_match() {
        // W 60, L 40, D 100: N = 200, s = (60 + 50) / 200 = 0.55.
        // Elo = -400 log10(1/0.55 - 1) = -400 log10(0.8181…) = 400 × 0.08715017571890 = 34.86007028756.
        // var = (60 × 0.45² + 100 × 0.05² + 40 × 0.55²) / 200 = (12.15 + 0.25 + 12.1) / 200 = 0.1225;
        // stderr = sqrt(0.1225 / 200) = 0.35 / 14.142135623731 = 0.024748737341529;
        // z × stderr = 1.959963984540054 × 0.024748737341529 = 0.048506633852239;
        // ends 0.598506633852239 → 69.356237856722 Elo and 0.501493366147761 → 1.037700169527 Elo;
        // margin = (69.356237856722 - 1.037700169527) / 2 = 34.159268843597.
        // LOS = ½ (1 + erf(20 / sqrt(200))) = ½ (1 + erf(√2)) = Φ(2) = 0.977249868051821.
        let estimate = elo_estimate(score(60, 40, 100)).expect("games were played");
        assert_close(estimate.elo, 34.86007028756008, 1e-9);
        assert_close(estimate.margin, 34.159268843597225, 1e-9);
        assert_close(estimate.los, 0.9772498680518208, 1e-12);
        assert_close(estimate.draw_ratio, 0.5, 1e-15);
        // The loser's view mirrors it.
        let mirrored = elo_estimate(score(40, 60, 100)).expect("games were played");
        assert_close(mirrored.elo, -34.86007028756008, 1e-9);
        assert_close(mirrored.margin, 34.159268843597225, 1e-9);
        assert_close(mirrored.los, 1.0 - 0.9772498680518208, 1e-12);
    }

    #[test]
    fn estimate_of_an_even_match() {
        // W 30, L 30, D 40: s = 0.5 → 0 Elo; LOS = ½ (1 + erf(0)) = 0.5.
        // var = (30 × 0.25 + 40 × 0 + 30 × 0.25) / 100 = 0.15; stderr = sqrt(0.0015) = 0.038729833462074;
        // z × stderr = 0.075908978712900; the ends 0.575908978712900 and 0.424091021287100 are symmetric, so
        // margin = -400 log10(1/0.575908978712900 - 1) = -400 log10(0.736384…) = 53.157979780053.
        let estimate = elo_estimate(score(30, 30, 40)).expect("games were played");
        assert_eq!(estimate.elo, 0.0);
        assert_close(estimate.margin, 53.15797978005325, 1e-9);
        assert_eq!(estimate.los, 0.5);
        assert_close(estimate.draw_ratio, 0.4, 1e-15);
    }

    #[test]
    fn estimate_of_all_draws_has_no_margin() {
        // s = 0.5 with zero variance: 0 ± 0 Elo; no wins or losses, so LOS 0.5.
        let estimate = elo_estimate(score(0, 0, 12)).expect("games were played");
        assert_eq!(
            estimate,
            EloEstimate {
                elo: 0.0,
                margin: 0.0,
                los: 0.5,
                draw_ratio: 1.0
            }
        );
    }

    #[test]
    fn estimate_of_a_clean_sweep_is_infinite_not_nan() {
        // W 10: s = 1 → +inf Elo, margin +inf; LOS = ½ (1 + erf(10 / sqrt(20))) = ½ (1 + erf(√5)) = 0.99921729887.
        let sweep = elo_estimate(score(10, 0, 0)).expect("games were played");
        assert_eq!(sweep.elo, f64::INFINITY);
        assert_eq!(sweep.margin, f64::INFINITY);
        assert_close(sweep.los, 0.9992172988709987, 1e-12);
        assert_eq!(sweep.draw_ratio, 0.0);
        let whitewash = elo_estimate(score(0, 10, 0)).expect("games were played");
        assert_eq!(whitewash.elo, f64::NEG_INFINITY);
        assert_eq!(whitewash.margin, f64::INFINITY);
        assert_close(whitewash.los, 1.0 - 0.9992172988709987, 1e-12);
    }

    #[test]
    fn estimate_whose_interval_passes_a_full_score() {
        // W 1, D 1: s = 0.75 → 190.85 Elo; var = (1 × 0.25² + 1 × 0.25²) / 2 = 0.0625, stderr = sqrt(0.03125) =
        // 0.1767766952966; s + z × stderr = 1.0964759560874 > 1, so the margin is unbounded.
        // LOS = ½ (1 + erf(1 / √2)) = Φ(1) = 0.841344746068543.
        let estimate = elo_estimate(score(1, 0, 1)).expect("games were played");
        assert_close(estimate.elo, 190.848501887865, 1e-9);
        assert_eq!(estimate.margin, f64::INFINITY);
        assert_close(estimate.los, 0.8413447460685429, 1e-12);
    }

    #[test]
    fn no_games_no_estimate() {
        assert_eq!(elo_estimate(Score::default()), None);
        assert_eq!(los(Score::default()), 0.5);
    }
}
