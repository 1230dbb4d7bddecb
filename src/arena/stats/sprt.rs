//! The sequential probability ratio test over game pairs (the pentanomial model of fishtest and fastchess): its
//! settings as `--sprt` reads them, the log-likelihood ratio, and the verdict.

use std::fmt;
use std::ops::AddAssign;
use std::str::FromStr;

use super::elo::ratio_from_elo;
use super::score::GameScore;

/// The count below which an empty pentanomial cell is replaced, as fishtest regularises its frequencies so that
/// a cell never seen still has a little weight (and the variance is never zero).
const EMPTY_CELL: f64 = 1e-3;

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

/// A match setting given as text that cannot be used: the SPRT's (`--sprt`) or a shard (`--shard`).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingError {
    /// `I/N` that is not a shard.
    #[error("'{0}' is not a shard: expected I/N with 1 <= I <= N, for example 2/3")]
    Shard(String),
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
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<SprtSettings, SettingError> {
        // Asked positively so that NaN, which compares false with everything, is refused too.
        let ordered = elo0.is_finite() && elo1.is_finite() && elo0 < elo1;
        if !ordered {
            return Err(SettingError::EloOrder { elo0, elo1 });
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            let in_range = value > 0.0 && value < 0.5;
            if !in_range {
                return Err(SettingError::Probability { name, value });
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
    type Err = SettingError;

    fn from_str(text: &str) -> Result<SprtSettings, SettingError> {
        const NAMES: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        let mut values: [Option<f64>; 4] = [None; 4];
        for item in text.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| SettingError::NotASetting(item.to_string()))?;
            let (name, value) = (name.trim(), value.trim());
            let index = NAMES
                .iter()
                .position(|&known| known == name)
                .ok_or_else(|| SettingError::UnknownName(name.to_string()))?;
            let number = value
                .parse::<f64>()
                .ok()
                .filter(|number| number.is_finite())
                .ok_or_else(|| SettingError::BadNumber {
                    name: NAMES[index],
                    value: value.to_string(),
                })?;
            if values[index].replace(number).is_some() {
                return Err(SettingError::Repeated(NAMES[index]));
            }
        }
        let mut given = [0.0; 4];
        for ((slot, value), name) in given.iter_mut().zip(values).zip(NAMES) {
            *slot = value.ok_or(SettingError::Missing(name))?;
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
    use crate::arena::stats::tests::*;

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
        assert_eq!(pairs.0.iter().sum::<u32>(), 7);
        pairs += Pentanomial([0, 0, 0, 0, 3]);
        assert_eq!(pairs, Pentanomial([1, 2, 2, 1, 4]));
        assert_eq!(pairs.0.iter().sum::<u32>(), 10);
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
        use SettingError as E;
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
