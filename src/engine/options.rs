//! The engine's options, each value a type that holds only what the option takes: a [`Level`] from 1 to 10, a
//! [`HashSize`] from 1 to 4096 MB, helper threads that are never a count of none, a net already loaded
//! ([`NetFile`]). Named as Mzinga names its own where Waggle has the same option, so that Mzinga.Viewer's Engine
//! Options dialog shows the familiar ones.
//!
//! Owns the values and their bounds. Reading a value from text, and how an option reads on the wire
//! (`Name;Type;Value;Default…`), is the UHP layer's (`crate::uhp`) and the command line's; what a change does to a
//! game or the table is the engine's.

use std::fmt;
use std::num::NonZeroUsize;
use std::sync::Arc;

use super::level::Level;
use crate::eval::{NetError, Network};

/// The size of the transposition table, in MB: from 1 to 4096, no other.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct HashSize(u16);

impl HashSize {
    /// The smallest table, 1 MB.
    pub const MIN: HashSize = HashSize(1);
    /// The largest table, 4096 MB.
    pub const MAX: HashSize = HashSize(4096);

    /// A table of `mb` megabytes; an error unless it is from 1 to 4096.
    pub fn megabytes(mb: usize) -> Result<HashSize, OptionError> {
        let bounds = (HashSize::MIN.0.into(), HashSize::MAX.0.into());
        let mb_wide = i64::try_from(mb).unwrap_or(i64::MAX);
        in_range(EngineOption::MaxHashSize, mb_wide, bounds).map(|()| HashSize(mb as u16))
    }

    /// A size known to be in range, for the library's own constants: out of range, a constant made with it does
    /// not compile.
    pub(crate) const fn fixed(mb: usize) -> HashSize {
        assert!(
            mb >= HashSize::MIN.0 as usize && mb <= HashSize::MAX.0 as usize,
            "a table size is from 1 to 4096 MB"
        );
        HashSize(mb as u16)
    }

    /// The size in MB.
    pub const fn mb(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for HashSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// How many threads a search may add to its own, as Mzinga's option MaxHelperThreads says it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HelperThreads {
    /// One helper per core but the first.
    Auto,
    /// No helper: one thread, and searches that can be repeated exactly.
    None,
    /// This many helpers (never none: that is [`HelperThreads::None`]).
    Count(NonZeroUsize),
}

impl HelperThreads {
    /// The helpers of a search of `threads` threads in all, the main one included (0: one thread per core); an
    /// error for more threads than the machine has cores.
    pub fn for_threads(threads: usize) -> Result<HelperThreads, OptionError> {
        match threads {
            0 => Ok(HelperThreads::Auto),
            n if n > cores() => Err(OptionError::TooManyThreads {
                threads: n,
                cores: cores(),
            }),
            n => Ok(HelperThreads::helpers(n - 1)),
        }
    }

    /// `helpers` helper threads: [`HelperThreads::None`] for 0.
    pub fn helpers(helpers: usize) -> HelperThreads {
        NonZeroUsize::new(helpers).map_or(HelperThreads::None, HelperThreads::Count)
    }

    /// How many helper threads this means on this machine.
    pub fn count(self) -> usize {
        match self {
            HelperThreads::Auto => cores() - 1,
            HelperThreads::None => 0,
            HelperThreads::Count(n) => n.get(),
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
    /// Every value, in the order the option lists them.
    pub const ALL: [Ponder; 3] = [Ponder::Disabled, Ponder::SingleThreaded, Ponder::MultiThreaded];

    /// The value's name, as the option spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Ponder::Disabled => "Disabled",
            Ponder::SingleThreaded => "SingleThreaded",
            Ponder::MultiThreaded => "MultiThreaded",
        }
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
    /// Every value, in the order the option lists them.
    pub const ALL: [Evaluation; 2] = [Evaluation::Net, Evaluation::Classic];

    /// The value's name, as the option spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Evaluation::Net => "Net",
            Evaluation::Classic => "Classic",
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
    /// The net in the file at `path`, read and checked.
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

/// Nothing, when `value` of `option` lies from `min` to `max`; else the error that says so.
pub(super) fn in_range(option: EngineOption, value: i64, (min, max): (i64, i64)) -> Result<(), OptionError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(OptionError::NotInRange { option, min, max })
    }
}

/// The cores of this machine (1 when it cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// An option of the engine, by its UHP name. Every `match` on it names each option, so that an option added here
/// is one the compiler asks to be listed, read and set everywhere.
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

    /// The option's name, as UHP spells it (`MaxHashSize`).
    pub const fn name(self) -> &'static str {
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
}

impl fmt::Display for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An option with a value of its type: what [`Engine::set_option`](super::Engine::set_option) takes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionValue {
    /// `Level`.
    Level(Level),
    /// `MaxHashSize`.
    MaxHashSize(HashSize),
    /// `MaxHelperThreads`.
    MaxHelperThreads(HelperThreads),
    /// `OpeningBook`.
    OpeningBook(bool),
    /// `PonderDuringIdle`.
    PonderDuringIdle(Ponder),
    /// `ReportIntermediateBestMoves`.
    ReportIntermediateBestMoves(bool),
    /// `ThreefoldRepetitionDraw`.
    ThreefoldRepetitionDraw(bool),
    /// `TournamentOpening`.
    TournamentOpening(bool),
    /// `Evaluation`.
    Evaluation(Evaluation),
    /// `EvalFile`: a net loaded from a file, or `None` for the built-in net.
    EvalFile(Option<NetFile>),
}

impl OptionValue {
    /// The option this is a value of.
    pub fn option(&self) -> EngineOption {
        match self {
            OptionValue::Level(_) => EngineOption::Level,
            OptionValue::MaxHashSize(_) => EngineOption::MaxHashSize,
            OptionValue::MaxHelperThreads(_) => EngineOption::MaxHelperThreads,
            OptionValue::OpeningBook(_) => EngineOption::OpeningBook,
            OptionValue::PonderDuringIdle(_) => EngineOption::PonderDuringIdle,
            OptionValue::ReportIntermediateBestMoves(_) => EngineOption::ReportIntermediateBestMoves,
            OptionValue::ThreefoldRepetitionDraw(_) => EngineOption::ThreefoldRepetitionDraw,
            OptionValue::TournamentOpening(_) => EngineOption::TournamentOpening,
            OptionValue::Evaluation(_) => EngineOption::Evaluation,
            OptionValue::EvalFile(_) => EngineOption::EvalFile,
        }
    }
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
    /// Transposition table size.
    pub max_hash_size: HashSize,
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
    /// The playing level: fewer nodes a search below full strength, and at the lowest levels now and then a random
    /// move; a win one move away is taken at every level.
    pub level: Level,
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
            max_hash_size: HashSize(64),
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
            level: Level::FULL,
            reference_player: false,
            // The learned evaluation: it beat the hand-written one by SPRT (docs/strength.md).
            evaluation: Evaluation::Net,
            eval_file: None,
        }
    }
}

impl Options {
    /// The value of `option`.
    pub fn value(&self, option: EngineOption) -> OptionValue {
        match option {
            EngineOption::Level => OptionValue::Level(self.level),
            EngineOption::MaxHashSize => OptionValue::MaxHashSize(self.max_hash_size),
            EngineOption::MaxHelperThreads => OptionValue::MaxHelperThreads(self.max_helper_threads),
            EngineOption::OpeningBook => OptionValue::OpeningBook(self.opening_book),
            EngineOption::PonderDuringIdle => OptionValue::PonderDuringIdle(self.ponder_during_idle),
            EngineOption::ReportIntermediateBestMoves => {
                OptionValue::ReportIntermediateBestMoves(self.report_intermediate_best_moves)
            }
            EngineOption::ThreefoldRepetitionDraw => {
                OptionValue::ThreefoldRepetitionDraw(self.threefold_repetition_draw)
            }
            EngineOption::TournamentOpening => OptionValue::TournamentOpening(self.tournament_opening),
            EngineOption::Evaluation => OptionValue::Evaluation(self.evaluation),
            EngineOption::EvalFile => OptionValue::EvalFile(self.eval_file.clone()),
        }
    }

    /// These options with `value` set (and nothing else changed).
    pub fn with(&self, value: OptionValue) -> Options {
        let mut changed = self.clone();
        match value {
            OptionValue::Level(level) => changed.level = level,
            OptionValue::MaxHashSize(size) => changed.max_hash_size = size,
            OptionValue::MaxHelperThreads(helpers) => changed.max_helper_threads = helpers,
            OptionValue::OpeningBook(on) => changed.opening_book = on,
            OptionValue::PonderDuringIdle(ponder) => changed.ponder_during_idle = ponder,
            OptionValue::ReportIntermediateBestMoves(on) => changed.report_intermediate_best_moves = on,
            OptionValue::ThreefoldRepetitionDraw(on) => changed.threefold_repetition_draw = on,
            OptionValue::TournamentOpening(on) => changed.tournament_opening = on,
            OptionValue::Evaluation(evaluation) => changed.evaluation = evaluation,
            OptionValue::EvalFile(file) => changed.eval_file = file,
        }
        changed
    }

    /// The net the search evaluates with: none under the hand-written evaluation.
    pub fn net(&self) -> Option<Arc<Network>> {
        match (self.evaluation, &self.eval_file) {
            (Evaluation::Classic, _) => None,
            (Evaluation::Net, Some(file)) => Some(file.net.clone()),
            (Evaluation::Net, None) => Network::builtin().ok(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_thread_counts_hold_only_what_the_options_take() {
        assert_eq!(HashSize::megabytes(1), Ok(HashSize::MIN));
        assert_eq!(HashSize::megabytes(4096).map(HashSize::mb), Ok(4096));
        for bad in [0, 4097, usize::MAX] {
            assert_eq!(
                HashSize::megabytes(bad).unwrap_err().to_string(),
                "MaxHashSize must be a whole number from 1 to 4096"
            );
        }
        assert_eq!(HelperThreads::helpers(0), HelperThreads::None);
        assert_eq!(HelperThreads::helpers(2).count(), 2);
        assert_eq!(HelperThreads::for_threads(0), Ok(HelperThreads::Auto));
        assert_eq!(HelperThreads::for_threads(1), Ok(HelperThreads::None));
        assert_eq!(HelperThreads::Auto.count(), cores() - 1);
        assert_eq!(
            HelperThreads::for_threads(cores() + 1),
            Err(OptionError::TooManyThreads {
                threads: cores() + 1,
                cores: cores()
            })
        );
    }

    #[test]
    fn every_option_reads_back_and_setting_one_changes_no_other() {
        let defaults = Options::default();
        let others = [
            OptionValue::Level(Level::LOWEST),
            OptionValue::MaxHashSize(HashSize::MAX),
            OptionValue::MaxHelperThreads(HelperThreads::Auto),
            OptionValue::OpeningBook(false),
            OptionValue::PonderDuringIdle(Ponder::MultiThreaded),
            OptionValue::ReportIntermediateBestMoves(true),
            OptionValue::ThreefoldRepetitionDraw(true),
            OptionValue::TournamentOpening(false),
            OptionValue::Evaluation(Evaluation::Classic),
            OptionValue::EvalFile(Some(NetFile {
                path: "builtin.nnue".into(),
                net: Network::builtin().unwrap(),
            })),
        ];
        assert_eq!(others.each_ref().map(OptionValue::option), EngineOption::ALL);
        for value in others {
            let option = value.option();
            assert_ne!(defaults.value(option), value, "{option}: not the default");
            let changed = defaults.with(value.clone());
            for each in EngineOption::ALL {
                if each == option {
                    assert_eq!(changed.value(each), value);
                } else {
                    assert_eq!(
                        changed.value(each),
                        defaults.value(each),
                        "setting {option} changed {each}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_net_is_the_built_in_one_a_file_s_or_none() {
        let builtin = Network::builtin().unwrap();
        let net = Options::default();
        assert_eq!(
            net.net().map(|n| n.hash()),
            Some(builtin.hash()),
            "the built-in net by default"
        );
        let classic = net.with(OptionValue::Evaluation(Evaluation::Classic));
        assert_eq!(classic.net().map(|n| n.hash()), None);
        let missing = NetFile::load("/no/such/net.nnue").unwrap_err().to_string();
        assert!(missing.starts_with("EvalFile /no/such/net.nnue: "), "{missing}");
        let semicolon = NetFile::load("a;b").unwrap_err().to_string();
        assert!(semicolon.contains("';'"), "{semicolon}");
        let bytes = crate::eval::Network::builtin_file();
        let path = std::env::temp_dir().join(format!("waggle-options-{}.nnue", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let file = NetFile::load(&path.display().to_string()).unwrap();
        assert_eq!(
            net.with(OptionValue::EvalFile(Some(file))).net().map(|n| n.hash()),
            Some(builtin.hash())
        );
        std::fs::write(&path, &bytes[..1000]).unwrap();
        let cut = NetFile::load(&path.display().to_string()).unwrap_err().to_string();
        let _ = std::fs::remove_file(&path);
        assert!(cut.contains("cut short"), "{cut}");
    }
}
