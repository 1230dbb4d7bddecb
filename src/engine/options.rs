//! The engine's options: their values, what each accepts, and setting one from text. Named as Mzinga names its
//! own where Waggle has the same option, so that Mzinga.Viewer's Engine Options dialog shows the familiar ones.
//!
//! Owns the values and their checks only; how an option reads on the wire (`Name;Type;Value;Default…`) is the
//! UHP vocabulary's (`crate::uhp`), and what a change does to a game or the table is the engine's.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use crate::eval::{NetError, Network};

/// What values an option takes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// A whole number from `min` to `max`.
    Int {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
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

/// Which evaluation the search uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Evaluation {
    /// The network (the built-in one, or the EvalFile option's).
    Net,
    /// The hand-written weighted sum of features, for comparison.
    Classic,
}

impl Evaluation {
    const NAMES: [&'static str; 2] = ["Net", "Classic"];

    fn text(self) -> String {
        Evaluation::NAMES[self as usize].to_string()
    }

    fn parse(value: &str) -> Option<Evaluation> {
        match value.trim().to_ascii_lowercase().as_str() {
            "net" => Some(Evaluation::Net),
            "classic" => Some(Evaluation::Classic),
            _ => None,
        }
    }
}

/// A net loaded from a file, in place of the built-in one.
#[derive(Clone, Debug)]
pub struct NetFile {
    /// The file, as it was named.
    pub path: String,
    /// The net it holds.
    pub net: Arc<Network>,
}

impl PartialEq for NetFile {
    fn eq(&self, other: &NetFile) -> bool {
        self.path == other.path && self.net.hash() == other.net.hash()
    }
}

impl Eq for NetFile {}

impl NetFile {
    /// The value of EvalFile that means the built-in net.
    const BUILTIN: &'static str = "Builtin";

    /// The net in the file at `path`, checked.
    pub fn load(path: &str) -> Result<NetFile, OptionError> {
        let failed = |why: String| OptionError::NetFile {
            path: path.to_string(),
            why,
        };
        if path.contains([';', '\n', '\r']) {
            return Err(failed(
                "a file name for EvalFile may not hold ';' or a line break".into(),
            ));
        }
        let bytes = std::fs::read(path).map_err(|e| failed(e.to_string()))?;
        let net = Network::from_bytes(&bytes).map_err(|e: NetError| failed(e.to_string()))?;
        Ok(NetFile {
            path: path.to_string(),
            net: Arc::new(net),
        })
    }
}

/// The cores of this machine (1 when it cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// An option of the engine, by its UHP name. Every `match` on it names each option, so that an option added here
/// is one the compiler asks to be listed, checked and set everywhere.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EngineOption {
    /// `Level`: the playing level, 1 to 10.
    Level,
    /// `MaxHashSize`: the transposition table's size, in MB.
    MaxHashSize,
    /// `MaxHelperThreads`: the threads a search adds to its own.
    MaxHelperThreads,
    /// `OpeningBook`: play the book's move where it has one.
    OpeningBook,
    /// `PonderDuringIdle`: think while waiting for a command.
    PonderDuringIdle,
    /// `ReportIntermediateBestMoves`: report each completed depth while searching.
    ReportIntermediateBestMoves,
    /// `ThreefoldRepetitionDraw`: a position occurring for the third time draws the game.
    ThreefoldRepetitionDraw,
    /// `TournamentOpening`: neither side may place its Queen on its first turn.
    TournamentOpening,
    /// `Evaluation`: the network or the hand-written evaluation.
    Evaluation,
    /// `EvalFile`: the net the network evaluation uses, `Builtin` or a file.
    EvalFile,
}

impl EngineOption {
    /// Every option, in the order `options` lists them.
    pub const ALL: [EngineOption; 10] = [
        EngineOption::Level,
        EngineOption::MaxHashSize,
        EngineOption::MaxHelperThreads,
        EngineOption::OpeningBook,
        EngineOption::PonderDuringIdle,
        EngineOption::ReportIntermediateBestMoves,
        EngineOption::ThreefoldRepetitionDraw,
        EngineOption::TournamentOpening,
        EngineOption::Evaluation,
        EngineOption::EvalFile,
    ];

    /// The bounds of `Level`.
    const LEVELS: (i64, i64) = (1, super::level::FULL as i64);
    /// The bounds of `MaxHashSize`, in MB.
    const HASH_MB: (i64, i64) = (1, 4096);

    /// The option's name, as UHP spells it (`MaxHashSize`).
    pub fn name(self) -> &'static str {
        match self {
            EngineOption::Level => "Level",
            EngineOption::MaxHashSize => "MaxHashSize",
            EngineOption::MaxHelperThreads => "MaxHelperThreads",
            EngineOption::OpeningBook => "OpeningBook",
            EngineOption::PonderDuringIdle => "PonderDuringIdle",
            EngineOption::ReportIntermediateBestMoves => "ReportIntermediateBestMoves",
            EngineOption::ThreefoldRepetitionDraw => "ThreefoldRepetitionDraw",
            EngineOption::TournamentOpening => "TournamentOpening",
            EngineOption::Evaluation => "Evaluation",
            EngineOption::EvalFile => "EvalFile",
        }
    }

    /// What values the option takes. With the bounds and choices it reads, this is the one definition of each
    /// option's values that the UHP `options` reply, the check of a new value ([`Options::with`]) and the command
    /// line's flags all use.
    pub fn kind(self) -> OptionKind {
        let int = |(min, max)| OptionKind::Int { min, max };
        match self {
            EngineOption::Level => int(EngineOption::LEVELS),
            EngineOption::MaxHashSize => int(EngineOption::HASH_MB),
            EngineOption::MaxHelperThreads => OptionKind::Enum(HelperThreads::values()),
            EngineOption::PonderDuringIdle => OptionKind::Enum(Ponder::NAMES.iter().map(|n| n.to_string()).collect()),
            EngineOption::Evaluation => OptionKind::Enum(Evaluation::NAMES.iter().map(|n| n.to_string()).collect()),
            // Any file may be named; the values listed are the built-in net and the file loaded, if any
            // (`Options::info`): Mzinga.Viewer knows no option of free text.
            EngineOption::EvalFile => OptionKind::Enum(vec![NetFile::BUILTIN.to_string()]),
            EngineOption::OpeningBook
            | EngineOption::ReportIntermediateBestMoves
            | EngineOption::ThreefoldRepetitionDraw
            | EngineOption::TournamentOpening => OptionKind::Bool,
        }
    }
}

impl fmt::Display for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EngineOption {
    type Err = OptionError;

    /// The option of this name, in any case (`maxhashsize`).
    fn from_str(name: &str) -> Result<EngineOption, OptionError> {
        EngineOption::ALL
            .into_iter()
            .find(|option| option.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::Unknown(name.to_string()))
    }
}

/// One option as a front end shows it: the option, its kind, current and default value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OptionInfo {
    /// The option.
    pub option: EngineOption,
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
    #[error("Unknown option '{0}'. Options are: {list}", list = option_names())]
    Unknown(String),
    /// A number out of the option's range, or no number.
    #[error("{option} must be a whole number from {min} to {max}")]
    NotInRange {
        /// The option.
        option: EngineOption,
        /// Its least value.
        min: i64,
        /// Its greatest value.
        max: i64,
    },
    /// Not True or False.
    #[error("{0} must be True or False")]
    NotBool(EngineOption),
    /// Not one of the option's values.
    #[error("{option} must be one of {values}")]
    NotAChoice {
        /// The option.
        option: EngineOption,
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
    /// A net file that cannot be read or used.
    #[error("EvalFile {path}: {why}")]
    NetFile {
        /// The file, as it was named.
        path: String,
        /// Why it cannot be used.
        why: String,
    },
}

/// The options' names, in the order `options` lists them, for a message.
fn option_names() -> String {
    EngineOption::ALL.map(EngineOption::name).join(", ")
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
    /// New games are played under the tournament opening rule (no Queen on a side's first turn); off, a side may
    /// open with its Queen, as in games played before the rule.
    pub tournament_opening: bool,
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
    /// Which evaluation the search uses.
    pub evaluation: Evaluation,
    /// The net file the network evaluation uses; `None` for the built-in net.
    pub eval_file: Option<NetFile>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_hash_size: 64,
            report_intermediate_best_moves: false,
            threefold_repetition_draw: false,
            tournament_opening: true,
            // One thread unless asked: searches repeat exactly, and engines sharing a machine (a match, a game
            // server) do not fight over its cores.
            max_helper_threads: HelperThreads::None,
            // Off unless asked, for the same reason: an engine that thinks on its opponent's time takes a core from
            // an opponent on the same machine.
            ponder_during_idle: Ponder::Disabled,
            opening_book: true,
            level: super::level::FULL,
            reference_player: false,
            // The learned evaluation: it beat the hand-written one by SPRT (docs/strength.md).
            evaluation: Evaluation::Net,
            eval_file: None,
        }
    }
}

impl Options {
    /// Every option, in the order of [`EngineOption::ALL`].
    pub(crate) fn all(&self) -> Vec<OptionInfo> {
        EngineOption::ALL.into_iter().map(|option| self.info(option)).collect()
    }

    /// The option `option`: its kind, value and default.
    pub fn info(&self, option: EngineOption) -> OptionInfo {
        let kind = match (option, &self.eval_file) {
            (EngineOption::EvalFile, Some(file)) => OptionKind::Enum(vec![NetFile::BUILTIN.into(), file.path.clone()]),
            _ => option.kind(),
        };
        OptionInfo {
            option,
            kind,
            value: self.value(option),
            default: Options::default().value(option),
        }
    }

    /// The value of `option`, as text.
    fn value(&self, option: EngineOption) -> String {
        match option {
            EngineOption::Level => self.level.to_string(),
            EngineOption::MaxHashSize => self.max_hash_size.to_string(),
            EngineOption::MaxHelperThreads => self.max_helper_threads.text(),
            EngineOption::OpeningBook => bool_text(self.opening_book),
            EngineOption::PonderDuringIdle => self.ponder_during_idle.text(),
            EngineOption::ReportIntermediateBestMoves => bool_text(self.report_intermediate_best_moves),
            EngineOption::ThreefoldRepetitionDraw => bool_text(self.threefold_repetition_draw),
            EngineOption::TournamentOpening => bool_text(self.tournament_opening),
            EngineOption::Evaluation => self.evaluation.text(),
            EngineOption::EvalFile => self
                .eval_file
                .as_ref()
                .map_or(NetFile::BUILTIN.to_string(), |file| file.path.clone()),
        }
    }

    /// The net the search evaluates with: none under the hand-written evaluation.
    pub fn net(&self) -> Option<Arc<Network>> {
        match (self.evaluation, &self.eval_file) {
            (Evaluation::Classic, _) => None,
            (Evaluation::Net, Some(file)) => Some(file.net.clone()),
            (Evaluation::Net, None) => Network::builtin().ok(),
        }
    }

    /// These options with `option` set to `value` (words in any case); an error, and nothing changed, for a value
    /// the option does not take.
    pub fn with(&self, option: EngineOption, value: &str) -> Result<Options, OptionError> {
        let mut changed = self.clone();
        match option {
            EngineOption::Level => changed.level = whole_number(option, value, EngineOption::LEVELS)? as u8,
            EngineOption::MaxHashSize => {
                changed.max_hash_size = whole_number(option, value, EngineOption::HASH_MB)? as usize
            }
            EngineOption::MaxHelperThreads => {
                changed.max_helper_threads = HelperThreads::parse(value).ok_or_else(|| OptionError::NotAChoice {
                    option,
                    values: HelperThreads::values().join(", "),
                })?
            }
            EngineOption::PonderDuringIdle => {
                changed.ponder_during_idle = Ponder::parse(value).ok_or_else(|| OptionError::NotAChoice {
                    option,
                    values: Ponder::NAMES.join(", "),
                })?
            }
            EngineOption::OpeningBook => changed.opening_book = parse_bool(option, value)?,
            EngineOption::ReportIntermediateBestMoves => {
                changed.report_intermediate_best_moves = parse_bool(option, value)?
            }
            EngineOption::ThreefoldRepetitionDraw => changed.threefold_repetition_draw = parse_bool(option, value)?,
            EngineOption::TournamentOpening => changed.tournament_opening = parse_bool(option, value)?,
            EngineOption::Evaluation => {
                changed.evaluation = Evaluation::parse(value).ok_or_else(|| OptionError::NotAChoice {
                    option,
                    values: Evaluation::NAMES.join(", "),
                })?
            }
            EngineOption::EvalFile => {
                let value = value.trim();
                changed.eval_file = if value.eq_ignore_ascii_case(NetFile::BUILTIN) {
                    None
                } else if self.eval_file.as_ref().is_some_and(|file| file.path == value) {
                    self.eval_file.clone()
                } else {
                    Some(NetFile::load(value)?)
                };
            }
        }
        Ok(changed)
    }
}

/// The whole number `value` of `option`, which must lie from `min` to `max`.
fn whole_number(option: EngineOption, value: &str, (min, max): (i64, i64)) -> Result<i64, OptionError> {
    value
        .trim()
        .parse()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or(OptionError::NotInRange { option, min, max })
}

fn bool_text(value: bool) -> String {
    if value { "True" } else { "False" }.to_string()
}

fn parse_bool(option: EngineOption, value: &str) -> Result<bool, OptionError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::NotBool(option)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_found_in_any_case_and_refuse_bad_values() {
        use EngineOption::*;
        let options = Options::default();
        assert_eq!(options.all().len(), EngineOption::ALL.len());
        assert_eq!("maxhashsize".parse(), Ok(MaxHashSize));
        assert_eq!(options.info(MaxHashSize).value, "64");
        let changed = options
            .with("THREEFOLDREPETITIONDRAW".parse().unwrap(), "true")
            .unwrap();
        assert!(changed.threefold_repetition_draw);
        assert_eq!(changed.info(ThreefoldRepetitionDraw).value, "True");
        assert!(options.with(MaxHashSize, "0").is_err());
        assert!(options.with(MaxHashSize, "4097").is_err());
        assert!(options.with(ReportIntermediateBestMoves, "maybe").is_err());
        assert_eq!(options.with(MaxHashSize, "4096").unwrap().max_hash_size, 4096);
        let auto = options.with(MaxHelperThreads, "auto").unwrap();
        assert_eq!(auto.max_helper_threads, HelperThreads::Auto);
        assert_eq!(auto.max_helper_threads.count(), cores() - 1);
        assert!(options.with(MaxHelperThreads, &cores().to_string()).is_err());
        assert_eq!(
            options
                .with(MaxHelperThreads, "None")
                .unwrap()
                .max_helper_threads
                .count(),
            0
        );
        assert_eq!(
            options
                .with(PonderDuringIdle, "singlethreaded")
                .unwrap()
                .ponder_during_idle,
            Ponder::SingleThreaded
        );
        assert!(options.with(PonderDuringIdle, "Sometimes").is_err());
        assert!(options.opening_book);
        assert!(!options.with(OpeningBook, "FALSE").unwrap().opening_book);
        assert!(options.with(OpeningBook, "no").is_err());
        assert_eq!(options.level, 10);
        assert_eq!(options.with(Level, " 3 ").unwrap().level, 3);
        for bad in ["0", "11", "eleven", "", "-1", "2.5"] {
            let refused = options.with(Level, bad).unwrap_err();
            assert_eq!(
                refused.to_string(),
                "Level must be a whole number from 1 to 10",
                "{bad}"
            );
        }
    }

    #[test]
    fn every_option_reads_back_from_its_name_and_sets_only_itself() {
        let defaults = Options::default();
        for (i, option) in EngineOption::ALL.into_iter().enumerate() {
            assert_eq!(option.name().parse(), Ok(option));
            assert_eq!(option.name().to_lowercase().parse(), Ok(option));
            assert_eq!(option.to_string(), option.name());
            assert!(!EngineOption::ALL[..i].contains(&option), "{option} listed twice");
            // A value other than the default, as the option's kind offers it, changes this option and no other.
            let other = match option.kind() {
                OptionKind::Int { min, max } => if defaults.info(option).value == min.to_string() {
                    max
                } else {
                    min
                }
                .to_string(),
                OptionKind::Bool => bool_text(defaults.info(option).value == "False"),
                // Any net file may be named, beside the built-in net the option lists.
                OptionKind::Enum(_) if option == EngineOption::EvalFile => net_file("every"),
                OptionKind::Enum(values) => values.into_iter().find(|v| *v != defaults.info(option).value).unwrap(),
            };
            let changed = defaults.with(option, &other).unwrap();
            for each in EngineOption::ALL {
                let (before, after) = (defaults.info(each).value, changed.info(each).value);
                if each == option {
                    assert_eq!(after.to_lowercase(), other.to_lowercase(), "{option}");
                } else {
                    assert_eq!(before, after, "setting {option} changed {each}");
                }
            }
        }
        assert_eq!(
            "Nope".parse::<EngineOption>().unwrap_err().to_string(),
            "Unknown option 'Nope'. Options are: Level, MaxHashSize, MaxHelperThreads, OpeningBook, PonderDuringIdle, \
             ReportIntermediateBestMoves, ThreefoldRepetitionDraw, TournamentOpening, Evaluation, EvalFile"
        );
    }

    /// The built-in net written to a file of its own, named.
    /// A copy of the built-in net in a file of its own for the test `name` (tests run side by side in one process,
    /// and one removes its file at the end).
    fn net_file(name: &str) -> String {
        let path = std::env::temp_dir().join(format!("waggle-options-{name}-{}.nnue", std::process::id()));
        std::fs::write(&path, crate::eval::Network::builtin_file()).unwrap();
        path.display().to_string()
    }

    #[test]
    fn a_net_file_is_read_when_named_and_a_bad_one_refused_with_why() {
        let net = Options::default();
        let builtin = Network::builtin().unwrap();
        assert_eq!(
            net.net().map(|n| n.hash()),
            Some(builtin.hash()),
            "the built-in net by default"
        );
        let classic = net.with(EngineOption::Evaluation, "classic").unwrap();
        assert_eq!(classic.net().map(|n| n.hash()), None);
        let path = net_file("read");
        let file = net.with(EngineOption::EvalFile, &path).unwrap();
        assert_eq!(file.info(EngineOption::EvalFile).value, path);
        assert_eq!(
            file.info(EngineOption::EvalFile).kind,
            OptionKind::Enum(vec!["Builtin".into(), path.clone()])
        );
        assert_eq!(file.net().map(|n| n.hash()), Some(builtin.hash()));
        assert_eq!(file.with(EngineOption::EvalFile, "builtin").unwrap().eval_file, None);
        let missing = net
            .with(EngineOption::EvalFile, "/no/such/net.nnue")
            .unwrap_err()
            .to_string();
        assert!(missing.starts_with("EvalFile /no/such/net.nnue: "), "{missing}");
        let cut = std::env::temp_dir().join(format!("waggle-options-cut-{}.nnue", std::process::id()));
        std::fs::write(&cut, &crate::eval::Network::builtin_file()[..1000]).unwrap();
        let cut = cut.display().to_string();
        let short = net.with(EngineOption::EvalFile, &cut).unwrap_err().to_string();
        assert!(short.contains("cut short"), "{short}");
        let semicolon = net.with(EngineOption::EvalFile, "a;b").unwrap_err().to_string();
        assert!(semicolon.contains("';'"), "{semicolon}");
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&cut);
    }
}
