//! The flags that shape an engine, given before the subcommand (`waggle --threads 2 play`), and the one way every
//! subcommand builds its [`Engine`] from them: the same flag means the same thing everywhere. Each subcommand
//! gives its own defaults (the JSON API and self-play use smaller tables, self-play no book), and refuses the
//! flags it has no use for rather than ignore them.

use std::ffi::OsStr;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::Args;
use waggle::{Engine, EngineOption, HelperThreads, OptionKind, Options, WeightSets};

/// The engine's flags: every UHP option, the weights, and `--verbose`. Unset flags take the subcommand's defaults.
#[derive(Args, Debug, Default)]
pub struct EngineFlags {
    #[arg(long, value_name = "MB", value_parser = OptionValue(EngineOption::MaxHashSize),
          help = about(EngineOption::MaxHashSize, "Transposition table size in MB"))]
    max_hash_size: Option<String>,
    /// Print `Move;Depth;Score;PV…` lines while thinking (UHP option ReportIntermediateBestMoves).
    #[arg(long)]
    report_intermediate_best_moves: bool,
    /// End the game as a draw when a position occurs for the third time (UHP option ThreefoldRepetitionDraw).
    #[arg(long)]
    threefold_repetition_draw: bool,
    /// Search threads, the first included (UHP option MaxHelperThreads: threads − 1 helpers); 0 for one per core.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    #[arg(long, value_name = "MODE", value_parser = OptionValue(EngineOption::PonderDuringIdle),
          help = about(EngineOption::PonderDuringIdle, "Think while waiting for a command"))]
    ponder_during_idle: Option<String>,
    #[arg(long, value_name = "BOOL", value_parser = OptionValue(EngineOption::OpeningBook),
          help = about(EngineOption::OpeningBook, "Play the opening book's moves where it has one"))]
    opening_book: Option<String>,
    #[arg(long, value_name = "N", global = true, value_parser = OptionValue(EngineOption::Level),
          help = about(EngineOption::Level, "Playing level: the lowest a beginner can beat, the highest full strength. \
                                             May also follow the subcommand: `waggle play --level 3`"))]
    level: Option<String>,
    /// Play as the reference player the levels are calibrated against: a random legal move, unless one wins at once.
    #[arg(long)]
    reference_player: bool,
    /// Also print each completed depth's search information to stderr.
    #[arg(long)]
    pub verbose: bool,
    /// Evaluate with the weights in this file (`name value` lines, as `waggle tune` writes them; a `[GameType]`
    /// header starts a set for that game type).
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
}

/// The flags a subcommand that has no use for the others takes.
pub const HASH: &str = "--max-hash-size";
pub const THREADS: &str = "--threads";
pub const BOOK: &str = "--opening-book";
pub const THREEFOLD: &str = "--threefold-repetition-draw";
pub const WEIGHTS: &str = "--weights";
pub const LEVEL: &str = "--level";
pub const REFERENCE: &str = "--reference-player";

impl EngineFlags {
    /// The flags given, by name.
    fn given(&self) -> Vec<&'static str> {
        let flags = [
            ("--max-hash-size", self.max_hash_size.is_some()),
            ("--report-intermediate-best-moves", self.report_intermediate_best_moves),
            ("--threefold-repetition-draw", self.threefold_repetition_draw),
            ("--threads", self.threads.is_some()),
            ("--ponder-during-idle", self.ponder_during_idle.is_some()),
            ("--opening-book", self.opening_book.is_some()),
            ("--level", self.level.is_some()),
            ("--reference-player", self.reference_player),
            ("--verbose", self.verbose),
            ("--weights", self.weights.is_some()),
        ];
        flags
            .into_iter()
            .filter(|(_, given)| *given)
            .map(|(name, _)| name)
            .collect()
    }

    /// Refuse the flags given that `subcommand` has no use for (it takes those in `takes`).
    pub fn check(&self, subcommand: &str, takes: &[&str]) -> Result<()> {
        let refused: Vec<&str> = self.given().into_iter().filter(|flag| !takes.contains(flag)).collect();
        match refused.as_slice() {
            [] => Ok(()),
            [flag] => bail!("{flag} has no use in waggle {subcommand}"),
            flags => bail!("{} have no use in waggle {subcommand}", flags.join(", ")),
        }
    }

    /// The options: `defaults` with the flags given laid over them.
    pub fn options(&self, defaults: Options) -> Result<Options> {
        let mut options = defaults;
        let given = [
            (EngineOption::MaxHashSize, &self.max_hash_size),
            (EngineOption::PonderDuringIdle, &self.ponder_during_idle),
            (EngineOption::OpeningBook, &self.opening_book),
            (EngineOption::Level, &self.level),
        ];
        for (option, value) in given {
            if let Some(value) = value {
                options = options.with(option, value)?;
            }
        }
        if let Some(threads) = self.threads {
            options.max_helper_threads = HelperThreads::for_threads(threads).context("--threads")?;
        }
        options.reference_player |= self.reference_player;
        options.report_intermediate_best_moves |= self.report_intermediate_best_moves;
        options.threefold_repetition_draw |= self.threefold_repetition_draw;
        Ok(options)
    }

    /// The evaluation weights: those of `--weights`, else the built-in ones.
    pub fn weights(&self) -> Result<WeightSets> {
        let Some(path) = &self.weights else {
            return Ok(WeightSets::default());
        };
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        WeightSets::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }

    /// The engine: `defaults` with the flags laid over them, and the weights.
    pub fn build(&self, defaults: Options) -> Result<Engine> {
        let mut engine = Engine::new(self.options(defaults)?).context("starting the engine")?;
        engine.set_weights(self.weights()?);
        Ok(engine)
    }
}

/// The help of the flag that sets `option`: `text`, the option's name and, for a number, its bounds (the choices of
/// the others are listed by clap, from [`OptionValue`]).
fn about(option: EngineOption, text: &str) -> String {
    match option.kind() {
        OptionKind::Int { min, max } => format!("{text} (UHP option {option}, {min} to {max})"),
        OptionKind::Bool | OptionKind::Enum(_) => format!("{text} (UHP option {option})"),
    }
}

/// The parser of a flag that sets an option: a value is checked as `options set` checks it (the same bounds and
/// message), and the values of an option of a few are listed in the help and offered by the shell completions.
#[derive(Clone)]
struct OptionValue(EngineOption);

impl TypedValueParser for OptionValue {
    type Value = String;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<String, clap::Error> {
        let option = self.0;
        let check = move |text: &str| Options::default().with(option, text).map(|_| text.to_string());
        check.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let values = match self.0.kind() {
            OptionKind::Int { .. } => return None,
            OptionKind::Bool => vec!["True".to_string(), "False".to_string()],
            OptionKind::Enum(values) => values,
        };
        Some(Box::new(values.into_iter().map(PossibleValue::new)))
    }
}
