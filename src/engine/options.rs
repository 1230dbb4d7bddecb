//! The engine's options: their values, what each accepts, and setting one from text. Named as Mzinga names its
//! own where Waggle has the same option, so that Mzinga.Viewer's Engine Options dialog shows the familiar ones.
//!
//! Owns the values and their checks only; how an option reads on the wire (`Name;Type;Value;Default…`) is the
//! UHP vocabulary's (`crate::uhp`), and what a change does to a game or the table is the engine's.

/// What values an option takes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// A whole number from `min` to `max`.
    Int { min: i64, max: i64 },
    /// True or False.
    Bool,
    /// One of the listed words.
    Enum(Vec<String>),
}

/// How many threads a search may add to its own, as Mzinga's option MaxHelperThreads says it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HelperThreads {
    /// One helper per core but the first.
    Auto,
    /// No helper: one thread, and searches that can be repeated exactly.
    None,
    /// This many helpers.
    Count(usize),
}

impl HelperThreads {
    /// The helpers of a search of `threads` threads in all, the main one included (0: one thread per core).
    pub fn for_threads(threads: usize) -> Result<HelperThreads, OptionError> {
        match threads {
            0 => Ok(HelperThreads::Auto),
            1 => Ok(HelperThreads::None),
            n if n <= cores() => Ok(HelperThreads::Count(n - 1)),
            n => Err(OptionError::TooManyThreads {
                threads: n,
                cores: cores(),
            }),
        }
    }

    /// How many helper threads this means on this machine.
    pub fn count(self) -> usize {
        match self {
            HelperThreads::Auto => cores() - 1,
            HelperThreads::None => 0,
            HelperThreads::Count(n) => n,
        }
    }

    /// The option's values on this machine: `Auto`, `None`, `1` … cores − 1.
    fn values() -> Vec<String> {
        let mut values = vec!["Auto".to_string(), "None".to_string()];
        values.extend((1..cores()).map(|n| n.to_string()));
        values
    }

    fn text(self) -> String {
        match self {
            HelperThreads::Auto => "Auto".into(),
            HelperThreads::None => "None".into(),
            HelperThreads::Count(n) => n.to_string(),
        }
    }

    fn parse(value: &str) -> Option<HelperThreads> {
        let value = value.trim();
        if value.eq_ignore_ascii_case("auto") {
            Some(HelperThreads::Auto)
        } else if value.eq_ignore_ascii_case("none") || value == "0" {
            Some(HelperThreads::None)
        } else {
            value
                .parse()
                .ok()
                .filter(|n| (1..cores()).contains(n))
                .map(HelperThreads::Count)
        }
    }
}

/// Whether the engine thinks while it waits for a command, as Mzinga's option PonderDuringIdle says it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ponder {
    /// Never.
    Disabled,
    /// With one thread.
    SingleThreaded,
    /// With the threads MaxHelperThreads allows.
    MultiThreaded,
}

impl Ponder {
    const NAMES: [&'static str; 3] = ["Disabled", "SingleThreaded", "MultiThreaded"];
    const ALL: [Ponder; 3] = [Ponder::Disabled, Ponder::SingleThreaded, Ponder::MultiThreaded];

    fn text(self) -> String {
        Ponder::NAMES[self as usize].to_string()
    }

    fn parse(value: &str) -> Option<Ponder> {
        let i = Ponder::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(value.trim()))?;
        Some(Ponder::ALL[i])
    }
}

/// The cores of this machine (1 when it cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// One option as a front end shows it: name, kind, current and default value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OptionInfo {
    /// The option's name (`MaxHashSize`).
    pub name: &'static str,
    /// What values it takes.
    pub kind: OptionKind,
    /// Its value now, as text (`64`, `True`).
    pub value: String,
    /// Its default, as text.
    pub default: String,
}

/// An option that does not exist, or a value it does not take.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum OptionError {
    /// No option of that name.
    #[error("Unknown option '{0}'. Options are: {list}", list = NAMES.join(", "))]
    Unknown(String),
    /// A number out of the option's range, or no number.
    #[error("{name} must be a whole number from {min} to {max}")]
    NotInRange {
        /// The option.
        name: &'static str,
        /// Its least value.
        min: i64,
        /// Its greatest value.
        max: i64,
    },
    /// Not True or False.
    #[error("{0} must be True or False")]
    NotBool(&'static str),
    /// Not one of the option's values.
    #[error("{name} must be one of {values}")]
    NotAChoice {
        /// The option.
        name: &'static str,
        /// Its values, as a list for the message.
        values: String,
    },
    /// More search threads than the machine has cores.
    #[error("{threads} threads: this machine has {cores} cores")]
    TooManyThreads {
        /// The threads asked for.
        threads: usize,
        /// The machine's cores.
        cores: usize,
    },
}

/// The engine's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size, in MB.
    pub max_hash_size: usize,
    /// Report `Move;Depth;Score;PV…` after each completed depth while searching.
    pub report_intermediate_best_moves: bool,
    /// New games end as a draw when a position occurs for the third time.
    pub threefold_repetition_draw: bool,
    /// Threads a search adds to its own.
    pub max_helper_threads: HelperThreads,
    /// Whether to think while waiting for a command.
    pub ponder_during_idle: Ponder,
    /// Play the opening book's move, without a search, where it has one.
    pub opening_book: bool,
    /// The playing level, from 1 (a beginner can beat it) to 10 (full strength): fewer nodes a search below 10,
    /// and at the lowest levels now and then a random move; a win one move away is taken at every level.
    pub level: u8,
    /// Play as the reference player that level 1 is calibrated against: a random legal move, unless one wins at
    /// once. Not a UHP option (the engine flag `--reference-player` sets it).
    pub reference_player: bool,
}

/// The default table size, in MB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Bounds of `MaxHashSize`, in MB.
pub const HASH_RANGE: (usize, usize) = (1, 4096);
/// Bounds of `Level`.
pub const LEVEL_RANGE: (u8, u8) = (1, super::level::FULL);
/// The option names, in the order `options` lists them.
pub const NAMES: [&str; 7] = [
    "Level",
    "MaxHashSize",
    "MaxHelperThreads",
    "OpeningBook",
    "PonderDuringIdle",
    "ReportIntermediateBestMoves",
    "ThreefoldRepetitionDraw",
];

impl Default for Options {
    fn default() -> Self {
        Options {
            max_hash_size: DEFAULT_HASH_MB,
            report_intermediate_best_moves: false,
            threefold_repetition_draw: false,
            // One thread unless asked: searches repeat exactly, and engines sharing a machine (a match, a game
            // server) do not fight over its cores.
            max_helper_threads: HelperThreads::None,
            // Off unless asked, for the same reason: an engine that thinks on its opponent's time takes a core from
            // an opponent on the same machine.
            ponder_during_idle: Ponder::Disabled,
            opening_book: true,
            level: super::level::FULL,
            reference_player: false,
        }
    }
}

impl Options {
    /// Every option, in the order of `NAMES`.
    pub(crate) fn all(&self) -> Vec<OptionInfo> {
        NAMES.iter().filter_map(|name| self.info(name).ok()).collect()
    }

    /// The option called `name` (any case).
    pub(crate) fn info(&self, name: &str) -> Result<OptionInfo, OptionError> {
        let defaults = Options::default();
        let name = canonical(name)?;
        let (kind, value, default) = match name {
            "MaxHashSize" => (
                OptionKind::Int {
                    min: HASH_RANGE.0 as i64,
                    max: HASH_RANGE.1 as i64,
                },
                self.max_hash_size.to_string(),
                defaults.max_hash_size.to_string(),
            ),
            "Level" => (
                OptionKind::Int {
                    min: i64::from(LEVEL_RANGE.0),
                    max: i64::from(LEVEL_RANGE.1),
                },
                self.level.to_string(),
                defaults.level.to_string(),
            ),
            "MaxHelperThreads" => (
                OptionKind::Enum(HelperThreads::values()),
                self.max_helper_threads.text(),
                defaults.max_helper_threads.text(),
            ),
            "PonderDuringIdle" => (
                OptionKind::Enum(Ponder::NAMES.iter().map(|n| n.to_string()).collect()),
                self.ponder_during_idle.text(),
                defaults.ponder_during_idle.text(),
            ),
            "OpeningBook" => (
                OptionKind::Bool,
                bool_text(self.opening_book),
                bool_text(defaults.opening_book),
            ),
            "ReportIntermediateBestMoves" => (
                OptionKind::Bool,
                bool_text(self.report_intermediate_best_moves),
                bool_text(defaults.report_intermediate_best_moves),
            ),
            _ => (
                OptionKind::Bool,
                bool_text(self.threefold_repetition_draw),
                bool_text(defaults.threefold_repetition_draw),
            ),
        };
        Ok(OptionInfo {
            name,
            kind,
            value,
            default,
        })
    }

    /// These options with `name` (any case) set to `value`; an error, and nothing changed, for an unknown name or
    /// a value the option does not take.
    pub fn with(&self, name: &str, value: &str) -> Result<Options, OptionError> {
        let mut changed = self.clone();
        let name = canonical(name)?;
        match name {
            "MaxHashSize" => {
                let range = (HASH_RANGE.0 as i64, HASH_RANGE.1 as i64);
                changed.max_hash_size = whole_number(name, value, range)? as usize;
            }
            "Level" => {
                let range = (i64::from(LEVEL_RANGE.0), i64::from(LEVEL_RANGE.1));
                changed.level = whole_number(name, value, range)? as u8;
            }
            "MaxHelperThreads" => {
                changed.max_helper_threads = HelperThreads::parse(value).ok_or_else(|| OptionError::NotAChoice {
                    name,
                    values: HelperThreads::values().join(", "),
                })?
            }
            "PonderDuringIdle" => {
                changed.ponder_during_idle = Ponder::parse(value).ok_or_else(|| OptionError::NotAChoice {
                    name,
                    values: Ponder::NAMES.join(", "),
                })?
            }
            "OpeningBook" => changed.opening_book = parse_bool(name, value)?,
            "ReportIntermediateBestMoves" => changed.report_intermediate_best_moves = parse_bool(name, value)?,
            _ => changed.threefold_repetition_draw = parse_bool(name, value)?,
        }
        Ok(changed)
    }
}

/// The option's own spelling of `name`, given in any case.
fn canonical(name: &str) -> Result<&'static str, OptionError> {
    NAMES
        .iter()
        .find(|n| n.eq_ignore_ascii_case(name))
        .copied()
        .ok_or_else(|| OptionError::Unknown(name.to_string()))
}

/// The whole number `value` of option `name`, which must lie in `range` (both ends included).
fn whole_number(name: &'static str, value: &str, (min, max): (i64, i64)) -> Result<i64, OptionError> {
    value
        .trim()
        .parse()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or(OptionError::NotInRange { name, min, max })
}

fn bool_text(value: bool) -> String {
    if value { "True" } else { "False" }.to_string()
}

fn parse_bool(name: &'static str, value: &str) -> Result<bool, OptionError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::NotBool(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_found_in_any_case_and_refuse_bad_values() {
        let options = Options::default();
        assert_eq!(options.all().len(), NAMES.len());
        assert_eq!(options.info("maxhashsize").unwrap().value, "64");
        assert!(matches!(options.info("Nope"), Err(OptionError::Unknown(_))));
        let changed = options.with("THREEFOLDREPETITIONDRAW", "true").unwrap();
        assert!(changed.threefold_repetition_draw);
        assert_eq!(changed.info("ThreefoldRepetitionDraw").unwrap().value, "True");
        assert!(options.with("MaxHashSize", "0").is_err());
        assert!(options.with("MaxHashSize", "4097").is_err());
        assert!(options.with("ReportIntermediateBestMoves", "maybe").is_err());
        assert_eq!(options.with("MaxHashSize", "4096").unwrap().max_hash_size, 4096);
        let auto = options.with("maxhelperthreads", "auto").unwrap();
        assert_eq!(auto.max_helper_threads, HelperThreads::Auto);
        assert_eq!(auto.max_helper_threads.count(), cores() - 1);
        assert!(options.with("MaxHelperThreads", &cores().to_string()).is_err());
        assert_eq!(
            options
                .with("MaxHelperThreads", "None")
                .unwrap()
                .max_helper_threads
                .count(),
            0
        );
        assert_eq!(
            options
                .with("PonderDuringIdle", "singlethreaded")
                .unwrap()
                .ponder_during_idle,
            Ponder::SingleThreaded
        );
        assert!(options.with("PonderDuringIdle", "Sometimes").is_err());
        assert!(options.opening_book);
        assert!(!options.with("openingbook", "FALSE").unwrap().opening_book);
        assert!(options.with("OpeningBook", "no").is_err());
        assert_eq!(options.level, 10);
        assert_eq!(options.with("level", " 3 ").unwrap().level, 3);
        for bad in ["0", "11", "eleven", "", "-1", "2.5"] {
            let refused = options.with("Level", bad).unwrap_err();
            assert_eq!(
                refused.to_string(),
                "Level must be a whole number from 1 to 10",
                "{bad}"
            );
        }
    }
}
