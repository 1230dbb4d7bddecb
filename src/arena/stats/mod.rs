//! The statistics of an engine match, computed the way chess engine testers (cutechess-cli, fastchess, fishtest)
//! compute them: the score, the Elo difference with its 95 % error margin, the likelihood of superiority, and a
//! sequential probability ratio test (SPRT) over game pairs.
//!
//! Pure functions and small types: this file plays no games, reads no files and prints nothing. Two models are
//! used, and each function says which:
//! - the *trinomial* (per game) model of cutechess-cli for the Elo estimate and its margin: every game is an
//!   independent win, draw or loss;
//! - the *pentanomial* (per game pair) model of fishtest and fastchess for the SPRT: the two games of an opening,
//!   played once with each colour, are one sample scoring 0, ½, 1, 1½ or 2 points.
//!
//! All Elo here is *logistic* Elo: a score ratio `s` means `-400 log10(1/s - 1)` Elo.

use std::f64::consts::{FRAC_2_SQRT_PI, PI};
use std::fmt;
use std::ops::AddAssign;
use std::str::FromStr;

/// The two-sided 95 % quantile of the standard normal distribution, Φ⁻¹(0.975).
const Z_95: f64 = 1.959963984540054;

/// The count below which an empty pentanomial cell is replaced, as fishtest regularises its frequencies so that
/// a cell never seen still has a little weight (and the variance is never zero).
const EMPTY_CELL: f64 = 1e-3;

/// The result of one game from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// The first engine won.
    Win,
    /// The game was drawn.
    Draw,
    /// The first engine lost.
    Loss,
}

impl GameScore {
    /// The points the first engine took from the game: 1, ½ or 0.
    pub fn points(self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }

    /// The same game seen by the other engine.
    pub fn reversed(self) -> GameScore {
        match self {
            GameScore::Win => GameScore::Loss,
            GameScore::Draw => GameScore::Draw,
            GameScore::Loss => GameScore::Win,
        }
    }

    /// The points in halves (2, 1 or 0), so that pairs of games add up exactly.
    fn half_points(self) -> u32 {
        match self {
            GameScore::Win => 2,
            GameScore::Draw => 1,
            GameScore::Loss => 0,
        }
    }
}

/// Games from one side's point of view: how many it won, lost and drew.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games this side won.
    pub wins: u32,
    /// Games this side lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Score {
    /// The number of games played (saturating at `u32::MAX` rather than overflowing).
    pub fn games(&self) -> u32 {
        self.wins.saturating_add(self.losses).saturating_add(self.draws)
    }

    /// The points taken: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The share of the points taken, in `0..=1`; `None` when no game was played.
    pub fn ratio(&self) -> Option<f64> {
        let games = self.games_f64();
        (games > 0.0).then(|| self.points() / games)
    }

    /// Adds the games of `other` to these (each count saturating at `u32::MAX`).
    pub fn add(&mut self, other: Score) {
        self.wins = self.wins.saturating_add(other.wins);
        self.losses = self.losses.saturating_add(other.losses);
        self.draws = self.draws.saturating_add(other.draws);
    }

    /// Counts one more game.
    pub fn record(&mut self, game: GameScore) {
        let count = match game {
            GameScore::Win => &mut self.wins,
            GameScore::Draw => &mut self.draws,
            GameScore::Loss => &mut self.losses,
        };
        *count = count.saturating_add(1);
    }

    /// The same games seen by the opponent: wins and losses swap places.
    pub fn reversed(&self) -> Score {
        Score {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// The number of games as a float, summed without the saturation of [`Score::games`].
    fn games_f64(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.losses) + f64::from(self.draws)
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.add(other);
    }
}

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

/// Game pairs (the same opening played twice with the colours swapped), counted by the points the pair gave the
/// first engine: index 0 = 0 points (lost both), 1 = ½, 2 = 1 (two draws, or a win and a loss), 3 = 1½, 4 = 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Counts the pair made of these two games, both scored for the first engine.
    pub fn add_pair(&mut self, first: GameScore, second: GameScore) {
        let cell = &mut self.0[(first.half_points() + second.half_points()) as usize];
        *cell = cell.saturating_add(1);
    }

    /// The number of pairs counted (saturating at `u32::MAX`).
    pub fn pairs(&self) -> u32 {
        self.0.iter().fold(0u32, |sum, &count| sum.saturating_add(count))
    }

    /// Adds the pairs of `other` to these (each count saturating at `u32::MAX`).
    pub fn add(&mut self, other: Pentanomial) {
        for (cell, count) in self.0.iter_mut().zip(other.0) {
            *cell = cell.saturating_add(count);
        }
    }
}

impl AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        self.add(other);
    }
}

/// SPRT settings that cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtSettingsError {
    /// An item without `=`.
    #[error("'{0}' is not an SPRT setting: expected name=value, as in elo0=0,elo1=5,alpha=0.05,beta=0.05")]
    NotASetting(String),
    /// A name other than elo0, elo1, alpha and beta.
    #[error("'{0}' is not an SPRT setting: expected elo0, elo1, alpha or beta")]
    UnknownName(String),
    /// The same name twice.
    #[error("the SPRT setting {0} is given twice")]
    Repeated(&'static str),
    /// A value that is not a finite number.
    #[error("the SPRT setting {name} is '{value}', which is not a number")]
    BadNumber {
        /// The setting's name.
        name: &'static str,
        /// The text given for it.
        value: String,
    },
    /// One of the four settings left out.
    #[error("the SPRT setting {0} is missing: expected elo0, elo1, alpha and beta, as in elo0=0,elo1=5,alpha=0.05,beta=0.05")]
    Missing(&'static str),
    /// `elo1` not above `elo0`.
    #[error("elo1 ({elo1}) must be greater than elo0 ({elo0})")]
    EloOrder {
        /// The Elo of the null hypothesis.
        elo0: f64,
        /// The Elo of the alternative hypothesis.
        elo1: f64,
    },
    /// An error probability outside `(0, 0.5)`.
    #[error("{name} is {value}, but an error probability must be greater than 0 and less than 0.5")]
    Probability {
        /// `alpha` or `beta`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
}

/// The settings of a sequential probability ratio test: is the first engine `elo1` (logistic) Elo stronger
/// (hypothesis H1) rather than `elo0` (hypothesis H0)? `alpha` is the chance of accepting H1 when H0 holds, `beta`
/// that of accepting H0 when H1 holds.
///
/// Written `elo0=0,elo1=5,alpha=0.05,beta=0.05`: all four, in any order, separated by commas (spaces around items
/// and an empty item, such as a trailing comma, are ignored); `elo1 > elo0` and `0 < alpha, beta < 0.5`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    /// The logistic Elo difference of the null hypothesis H0.
    pub elo0: f64,
    /// The logistic Elo difference of the alternative hypothesis H1.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 is true (a false positive).
    pub alpha: f64,
    /// The probability of accepting H0 when H1 is true (a false negative).
    pub beta: f64,
}

impl SprtSettings {
    /// Checked settings: `elo1 > elo0`, `0 < alpha < 0.5`, `0 < beta < 0.5`, all finite.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<SprtSettings, SprtSettingsError> {
        // Asked positively so that NaN, which compares false with everything, is refused too.
        let ordered = elo0.is_finite() && elo1.is_finite() && elo0 < elo1;
        if !ordered {
            return Err(SprtSettingsError::EloOrder { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            let in_range = value > 0.0 && value < 0.5;
            if !in_range {
                return Err(SprtSettingsError::Probability { name, value });
            }
        }
        Ok(SprtSettings {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The LLR bounds `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`: the test accepts H0 at or below the
    /// first and H1 at or above the second (Wald's approximation).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

impl FromStr for SprtSettings {
    type Err = SprtSettingsError;

    fn from_str(text: &str) -> Result<SprtSettings, SprtSettingsError> {
        const NAMES: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        let mut values: [Option<f64>; 4] = [None; 4];
        for item in text.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| SprtSettingsError::NotASetting(item.to_string()))?;
            let (name, value) = (name.trim(), value.trim());
            let index = NAMES
                .iter()
                .position(|&known| known == name)
                .ok_or_else(|| SprtSettingsError::UnknownName(name.to_string()))?;
            let number = value
                .parse::<f64>()
                .ok()
                .filter(|number| number.is_finite())
                .ok_or_else(|| SprtSettingsError::BadNumber {
                    name: NAMES[index],
                    value: value.to_string(),
                })?;
            if values[index].replace(number).is_some() {
                return Err(SprtSettingsError::Repeated(NAMES[index]));
            }
        }
        let mut given = [0.0; 4];
        for ((slot, value), name) in given.iter_mut().zip(values).zip(NAMES) {
            *slot = value.ok_or(SprtSettingsError::Missing(name))?;
        }
        let [elo0, elo1, alpha, beta] = given;
        SprtSettings::new(elo0, elo1, alpha, beta)
    }
}

impl fmt::Display for SprtSettings {
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05`: the form [`FromStr`] reads, with the shortest digits that read back
    /// to the same numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// What an SPRT decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The first engine is not `elo1` stronger: the change fails.
    AcceptH0,
    /// The first engine is `elo1` (rather than `elo0`) stronger: the change passes.
    AcceptH1,
}

/// Where an SPRT stands: the log-likelihood ratio, the bounds it is compared with, and the verdict once it crossed
/// one of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The log-likelihood ratio of H1 against H0 so far.
    pub llr: f64,
    /// The bound at or below which H0 is accepted.
    pub lower: f64,
    /// The bound at or above which H1 is accepted.
    pub upper: f64,
    /// The decision, or `None` while the test must go on.
    pub verdict: Option<Verdict>,
}

/// The SPRT over game pairs, in the pentanomial model: the generalized SPRT of fishtest, whose log-likelihood
/// ratio compares the maximum-likelihood pentanomial distributions with the mean score each hypothesis claims.
///
/// With `N` pairs, each scoring `a` in `{0, ¼, ½, ¾, 1}` (the pair's points / 2) with empirical frequency `p(a)`,
/// and `s0 = ratio_from_elo(elo0)`, `s1 = ratio_from_elo(elo1)`: the distribution closest to the observed one
/// (least Kullback–Leibler divergence) among those of mean `s` is `p(a) / (1 + λ (a - s))`, with `λ` the root
/// of `Σ p(a) (a - s) / (1 + λ (a - s)) = 0`, and
/// `LLR = N Σ p(a) ln[(1 + λ0 (a - s0)) / (1 + λ1 (a - s1))]`.
/// Unlike its normal approximation `N (s1 - s0)(2μ - s0 - s1) / (2σ²)`, it stays sane after a few identical pairs,
/// whose variance is next to nothing (four pairs of one point each, elo0 = -15, elo1 = 0: 0.17 here, 5.96 there).
///
/// As fishtest does, an empty cell counts as 1e-3 pairs when the frequencies are computed; `N` is the true number
/// of pairs. With no pairs the LLR is 0. The verdict is H1 when `llr >= upper`, H0 when `llr <= lower`, and none
/// in between.
pub fn sprt(settings: &SprtSettings, pairs: &Pentanomial) -> SprtState {
    let (lower, upper) = settings.bounds();
    let llr = pentanomial_llr(settings.elo0, settings.elo1, pairs);
    SprtState {
        llr,
        lower,
        upper,
        verdict: verdict(llr, lower, upper),
    }
}

/// The generalized log-likelihood ratio of `elo1` against `elo0` for these pairs (see [`sprt`]).
fn pentanomial_llr(elo0: f64, elo1: f64, pairs: &Pentanomial) -> f64 {
    let counted: f64 = pairs.0.iter().map(|&count| f64::from(count)).sum();
    if counted == 0.0 {
        return 0.0;
    }
    let weights = pairs
        .0
        .map(|count| if count == 0 { EMPTY_CELL } else { f64::from(count) });
    let total: f64 = weights.iter().sum();
    let frequencies = weights.map(|w| w / total);
    let (s0, s1) = (ratio_from_elo(elo0), ratio_from_elo(elo1));
    let (lambda0, lambda1) = (tilt(&frequencies, s0), tilt(&frequencies, s1));
    let score = |cell: usize| cell as f64 / 4.0;
    counted
        * frequencies
            .iter()
            .enumerate()
            .map(|(cell, p)| {
                let a = score(cell);
                p * ((1.0 + lambda0 * (a - s0)).ln() - (1.0 + lambda1 * (a - s1)).ln())
            })
            .sum::<f64>()
}

/// The `λ` that gives the frequencies `p` (over the pair scores 0, ¼, ½, ¾, 1) the mean `s`:
/// the root of `Σ p(a) (a - s) / (1 + λ (a - s)) = 0` in `(-1 / (1 - s), 1 / s)`, where every weight stays
/// positive. The sum falls as `λ` grows, so bisection finds it.
fn tilt(p: &[f64; 5], s: f64) -> f64 {
    let f = |lambda: f64| -> f64 {
        p.iter()
            .enumerate()
            .map(|(cell, p)| {
                let d = cell as f64 / 4.0 - s;
                p * d / (1.0 + lambda * d)
            })
            .sum()
    };
    // Just inside the open interval: the ends make a weight zero.
    let (mut low, mut high) = (-1.0 / (1.0 - s) * (1.0 - 1e-12), 1.0 / s * (1.0 - 1e-12));
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if f(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low + high) / 2.0
}

/// The decision of an LLR against its bounds; the bounds themselves decide.
fn verdict(llr: f64, lower: f64, upper: f64) -> Option<Verdict> {
    if llr >= upper {
        Some(Verdict::AcceptH1)
    } else if llr <= lower {
        Some(Verdict::AcceptH0)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not within {tolerance} of {expected}"
        );
    }

    fn score(wins: u32, losses: u32, draws: u32) -> Score {
        Score { wins, losses, draws }
    }

    fn settings_0_5() -> SprtSettings {
        SprtSettings {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn score_counts_points_and_reverses() {
        let mut total = score(3, 1, 2);
        assert_eq!(total.games(), 6);
        assert_eq!(total.points(), 4.0); // 3 + 2/2
        assert_eq!(total.ratio(), Some(4.0 / 6.0));
        assert_eq!(total.reversed(), score(1, 3, 2));
        assert_eq!(total.reversed().points(), 2.0); // 1 + 2/2: the two sides share the 6 points
        total += score(1, 0, 1);
        assert_eq!(total, score(4, 1, 3));
        total.record(GameScore::Loss);
        total.record(GameScore::Draw);
        assert_eq!(total, score(4, 2, 4));
        assert_eq!(Score::default().ratio(), None);
        assert_eq!(score(u32::MAX, 1, 0).games(), u32::MAX);
    }

    #[test]
    fn game_scores() {
        assert_eq!(GameScore::Win.points(), 1.0);
        assert_eq!(GameScore::Draw.points(), 0.5);
        assert_eq!(GameScore::Loss.points(), 0.0);
        assert_eq!(GameScore::Win.reversed(), GameScore::Loss);
        assert_eq!(GameScore::Draw.reversed(), GameScore::Draw);
    }

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

    #[test]
    fn pentanomial_cells_count_the_pair_points() {
        use GameScore::{Draw, Loss, Win};
        let mut pairs = Pentanomial::default();
        pairs.add_pair(Loss, Loss); // 0 → cell 0
        pairs.add_pair(Loss, Draw); // ½ → cell 1
        pairs.add_pair(Draw, Loss); // ½ → cell 1
        pairs.add_pair(Win, Loss); // 1 → cell 2
        pairs.add_pair(Draw, Draw); // 1 → cell 2
        pairs.add_pair(Draw, Win); // 1½ → cell 3
        pairs.add_pair(Win, Win); // 2 → cell 4
        assert_eq!(pairs, Pentanomial([1, 2, 2, 1, 1]));
        assert_eq!(pairs.pairs(), 7);
        pairs += Pentanomial([0, 0, 0, 0, 3]);
        assert_eq!(pairs, Pentanomial([1, 2, 2, 1, 4]));
        assert_eq!(pairs.pairs(), 10);
    }

    #[test]
    fn settings_parse_in_any_order() {
        let expected = settings_0_5();
        assert_eq!("elo0=0,elo1=5,alpha=0.05,beta=0.05".parse(), Ok(expected));
        assert_eq!("beta=0.05, alpha=0.05 ,elo1=5,elo0=0,".parse(), Ok(expected));
        assert_eq!(
            "elo0=-1.5,elo1=0.5,alpha=0.01,beta=0.1".parse(),
            Ok(SprtSettings {
                elo0: -1.5,
                elo1: 0.5,
                alpha: 0.01,
                beta: 0.1
            })
        );
    }

    #[test]
    fn settings_print_back_as_they_parse() {
        let settings = settings_0_5();
        assert_eq!(settings.to_string(), "elo0=0,elo1=5,alpha=0.05,beta=0.05");
        let odd = SprtSettings::new(-1.25, 0.75, 0.025, 0.1).expect("valid settings");
        assert_eq!(odd.to_string().parse(), Ok(odd));
    }

    #[test]
    fn settings_refuse_bad_text() {
        use SprtSettingsError as E;
        let parse = |text: &str| text.parse::<SprtSettings>();
        assert_eq!(parse("elo0=0,elo1=5,alpha=0.05"), Err(E::Missing("beta")));
        assert_eq!(parse(""), Err(E::Missing("elo0")));
        assert_eq!(
            parse("elo0=0,elo1=five,alpha=0.05,beta=0.05"),
            Err(E::BadNumber {
                name: "elo1",
                value: "five".to_string()
            })
        );
        assert_eq!(
            parse("elo0=0,elo1=inf,alpha=0.05,beta=0.05"),
            Err(E::BadNumber {
                name: "elo1",
                value: "inf".to_string()
            })
        );
        assert_eq!(
            parse("elo0=5,elo1=5,alpha=0.05,beta=0.05"),
            Err(E::EloOrder { elo0: 5.0, elo1: 5.0 })
        );
        assert_eq!(
            parse("elo0=5,elo1=0,alpha=0.05,beta=0.05"),
            Err(E::EloOrder { elo0: 5.0, elo1: 0.0 })
        );
        assert_eq!(
            parse("elo0=0,elo1=5,alpha=0,beta=0.05"),
            Err(E::Probability {
                name: "alpha",
                value: 0.0
            })
        );
        assert_eq!(
            parse("elo0=0,elo1=5,alpha=0.05,beta=0.5"),
            Err(E::Probability {
                name: "beta",
                value: 0.5
            })
        );
        assert_eq!(
            parse("elo0=0,elo1=5,alpha=0.05,gamma=1"),
            Err(E::UnknownName("gamma".to_string()))
        );
        assert_eq!(
            parse("elo0=0,elo1=5,alpha,beta=0.05"),
            Err(E::NotASetting("alpha".to_string()))
        );
        assert_eq!(
            parse("elo0=0,elo0=1,elo1=5,alpha=0.05,beta=0.05"),
            Err(E::Repeated("elo0"))
        );
        assert!(SprtSettings::new(0.0, f64::NAN, 0.05, 0.05).is_err());
        assert!(SprtSettings::new(0.0, 5.0, f64::NAN, 0.05).is_err());
    }

    #[test]
    fn settings_errors_read_well() {
        let message = |text: &str| match text.parse::<SprtSettings>() {
            Err(error) => error.to_string(),
            Ok(settings) => panic!("'{text}' parsed as {settings}"),
        };
        assert_eq!(
            message("elo0=0,elo1=5,alpha=0.05"),
            "the SPRT setting beta is missing: expected elo0, elo1, alpha and beta, as in \
             elo0=0,elo1=5,alpha=0.05,beta=0.05"
        );
        assert_eq!(
            message("elo0=0,elo1=x,alpha=0.05,beta=0.05"),
            "the SPRT setting elo1 is 'x', which is not a number"
        );
        assert_eq!(
            message("elo0=3,elo1=2,alpha=0.05,beta=0.05"),
            "elo1 (2) must be greater than elo0 (3)"
        );
        assert_eq!(
            message("elo0=0,elo1=5,alpha=0.7,beta=0.05"),
            "alpha is 0.7, but an error probability must be greater than 0 and less than 0.5"
        );
    }

    #[test]
    fn bounds_of_five_percent_errors() {
        // ln(0.05 / 0.95) = -ln 19 = -2.944438979166440; ln(0.95 / 0.05) = ln 19.
        let (lower, upper) = settings_0_5().bounds();
        assert_close(lower, -2.94443897916644, 1e-12);
        assert_close(upper, 2.94443897916644, 1e-12);
    }

    // The LLR values below come from an independent computation of the same definition (Newton's method for λ
    // in Python, each tilted distribution checked to sum to 1 and to have the hypothesis's mean), elo0 = 0 and
    // elo1 = 5 unless said: s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 0.5071950817090514.

    #[test]
    fn llr_of_no_pairs_is_zero() {
        let state = sprt(&settings_0_5(), &Pentanomial::default());
        assert_eq!(state.llr, 0.0);
        assert_eq!(state.verdict, None);
    }

    #[test]
    fn llr_of_an_even_pentanomial() {
        // [10, 20, 40, 20, 10]: mean 0.5, slightly nearer elo0 = 0 than elo1 = 5, so slightly negative.
        let state = sprt(&settings_0_5(), &Pentanomial([10, 20, 40, 20, 10]));
        assert_close(state.llr, -0.03450685095168476, 1e-10);
        assert_eq!(state.verdict, None);
    }

    #[test]
    fn llr_of_a_winning_pentanomial() {
        // [5, 15, 40, 25, 15]: mean 0.575, variance 0.069375 (the normal approximation would say 0.7405).
        let state = sprt(&settings_0_5(), &Pentanomial([5, 15, 40, 25, 15]));
        assert_close(state.llr, 0.6888652561228762, 1e-10);
        assert_eq!(state.verdict, None);
    }

    #[test]
    fn llr_regularises_an_empty_cell() {
        // [0, 10, 20, 15, 5], N = 50 pairs; the empty cell counts 0.001 in the frequencies, N stays 50.
        let state = sprt(&settings_0_5(), &Pentanomial([0, 10, 20, 15, 5]));
        assert_close(state.llr, 0.5331995459822073, 1e-10);
    }

    #[test]
    fn a_few_identical_pairs_decide_nothing() {
        // Four pairs of one point each: the normal approximation, with next to no variance, would accept H1.
        let settings: SprtSettings = "elo0=-15,elo1=0,alpha=0.05,beta=0.05".parse().unwrap();
        let state = sprt(&settings, &Pentanomial([0, 0, 4, 0, 0]));
        assert_close(state.llr, 0.1706368939980594, 1e-10);
        assert_eq!(state.verdict, None);
    }

    #[test]
    fn verdict_switches_at_the_bounds() {
        let settings = settings_0_5();
        // Scaling every cell by k scales the LLR by k (same frequencies): 0.68887 × 4 = 2.7555 < 2.9444 goes on,
        // 0.68887 × 5 = 3.4443 ≥ 2.9444 accepts H1.
        let going = sprt(&settings, &Pentanomial([20, 60, 160, 100, 60]));
        assert_close(going.llr, 2.7554610244915048, 1e-9);
        assert_eq!(going.verdict, None);
        let passed = sprt(&settings, &Pentanomial([25, 75, 200, 125, 75]));
        assert_close(passed.llr, 5.0 * 0.6888652561228762, 1e-9);
        assert_eq!(passed.verdict, Some(Verdict::AcceptH1));
        // The mirror [15, 25, 40, 15, 5]: × 3 = -2.2485 goes on, × 4 = -2.9980 ≤ -2.9444 accepts H0.
        let going = sprt(&settings, &Pentanomial([45, 75, 120, 45, 15]));
        assert_close(going.llr, -2.248526064583211, 1e-9);
        assert_eq!(going.verdict, None);
        let failed = sprt(&settings, &Pentanomial([60, 100, 160, 60, 20]));
        assert_close(failed.llr, -2.9980347527776146, 1e-9);
        assert_eq!(failed.verdict, Some(Verdict::AcceptH0));
        assert_eq!((failed.lower, failed.upper), settings.bounds());
        // Exactly on a bound decides; just inside does not.
        let (lower, upper) = settings.bounds();
        assert_eq!(verdict(upper, lower, upper), Some(Verdict::AcceptH1));
        assert_eq!(verdict(lower, lower, upper), Some(Verdict::AcceptH0));
        assert_eq!(verdict(upper - 1e-9, lower, upper), None);
        assert_eq!(verdict(lower + 1e-9, lower, upper), None);
    }
}
