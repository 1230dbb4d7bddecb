//! The flags that shape an engine, and the one way every subcommand builds its [`Engine`] from them: the same flag
//! means the same thing everywhere. Each flag (or pair of flags always taken together) is a group of its own that a
//! subcommand flattens into its arguments when it uses it (`waggle play --threads 2`), so that clap itself lists,
//! completes and refuses them; the bare UHP engine takes them all (`waggle --threads 2`). Each subcommand gives its
//! own defaults (the JSON API and self-play use smaller tables, self-play no book).

use std::ffi::OsStr;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::Args;
use waggle::{Engine, EngineOption, HelperThreads, OptionKind, Options, WeightSets};

/// The heading the engine's flags stand under in each `--help`, apart from the subcommand's own.
const HEADING: &str = "Engine flags";

/// The table and the search threads: every subcommand whose engine searches in earnest.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = HEADING)]
pub struct TableFlags {
    #[command(flatten)]
    hash: HashFlag,
    /// Search threads, the first included (UHP option MaxHelperThreads: threads − 1 helpers); 0 for one per core.
    #[arg(long, value_name = "N", value_parser = threads)]
    threads: Option<HelperThreads>,
}

/// The table's size alone.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = HEADING)]
pub struct HashFlag {
    #[arg(long, value_name = "MB", value_parser = OptionValue(EngineOption::MaxHashSize),
          help = about(EngineOption::MaxHashSize, "Transposition table size in MB"))]
    max_hash_size: Option<String>,
}

/// The evaluation: the network (the built-in net or another) or the hand-written one with its weights.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = HEADING)]
pub struct EvalFlags {
    #[arg(long, value_name = "KIND", value_parser = OptionValue(EngineOption::Evaluation),
          help = about(EngineOption::Evaluation, "The evaluation: the network, or the hand-written one for comparison"))]
    eval: Option<String>,
    /// Evaluate with the net in this file (as `waggle train` writes them) instead of the built-in one (UHP option
    /// EvalFile).
    #[arg(long, value_name = "FILE")]
    eval_file: Option<String>,
    /// Evaluate with the hand-written evaluation and the weights in this file (`name value` lines, as `waggle tune`
    /// writes them; a `[GameType]` header starts a set for that game type). Implies `--eval classic`.
    #[arg(long, value_name = "FILE")]
    weights: Option<PathBuf>,
}

/// The opening book.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = HEADING)]
pub struct BookFlag {
    #[arg(long, value_name = "BOOL", value_parser = OptionValue(EngineOption::OpeningBook),
          help = about(EngineOption::OpeningBook, "Play the opening book's moves where it has one"))]
    opening_book: Option<String>,
}

/// The repetition rule.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = HEADING)]
pub struct ThreefoldFlag {
    #[arg(long, help = about(EngineOption::ThreefoldRepetitionDraw,
                             "End the game as a draw when a position occurs for the third time"))]
    threefold_repetition_draw: bool,
}

/// The playing level.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = HEADING)]
pub struct LevelFlag {
    #[arg(long, value_name = "N", value_parser = OptionValue(EngineOption::Level),
          help = about(EngineOption::Level, "Playing level: the lowest a beginner can beat, the highest is full strength"))]
    level: Option<String>,
}

/// How a game against the engine is played: the level, or the reference player the levels are measured against.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = HEADING)]
pub struct StrengthFlags {
    #[command(flatten)]
    level: LevelFlag,
    /// Play as the reference player the levels are calibrated against: a random legal move, unless one wins at once.
    #[arg(long)]
    reference_player: bool,
}

/// What only the UHP engine takes: its reports while thinking, and thinking while idle.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = HEADING)]
pub struct SessionFlags {
    #[arg(long, help = about(EngineOption::ReportIntermediateBestMoves, "Print `Move;Depth;Score;PV…` lines while thinking"))]
    report_intermediate_best_moves: bool,
    #[arg(long, value_name = "MODE", value_parser = OptionValue(EngineOption::PonderDuringIdle),
          help = about(EngineOption::PonderDuringIdle, "Think while waiting for a command"))]
    ponder_during_idle: Option<String>,
    #[arg(long, value_name = "BOOL", value_parser = OptionValue(EngineOption::TournamentOpening),
          help = about(EngineOption::TournamentOpening, "Forbid the Queen on a side's first turn (False: allow it, as before the rule)"))]
    tournament_opening: Option<String>,
    /// Also print each completed depth's search information to stderr.
    #[arg(long)]
    pub verbose: bool,
}

/// Every engine flag: those of the UHP engine, and of `waggle play` but the session's.
#[derive(Args, Debug, Default)]
pub struct EngineFlags {
    #[command(flatten)]
    pub table: TableFlags,
    #[command(flatten)]
    pub weights: EvalFlags,
    #[command(flatten)]
    pub book: BookFlag,
    #[command(flatten)]
    pub threefold: ThreefoldFlag,
    #[command(flatten)]
    pub strength: StrengthFlags,
}

impl EngineFlags {
    /// Lay the flags given over `options`.
    pub fn set(&self, options: &mut Options) -> Result<()> {
        self.table.set(options)?;
        self.book.set(options)?;
        self.threefold.set(options);
        self.strength.set(options)
    }
}

impl TableFlags {
    /// Lay the flags given over `options`.
    pub fn set(&self, options: &mut Options) -> Result<()> {
        self.hash.set(options)?;
        if let Some(helpers) = self.threads {
            options.max_helper_threads = helpers;
        }
        Ok(())
    }
}

impl HashFlag {
    /// Lay the flag, if given, over `options`.
    pub fn set(&self, options: &mut Options) -> Result<()> {
        set(options, EngineOption::MaxHashSize, &self.max_hash_size)
    }
}

impl BookFlag {
    /// Lay the flag, if given, over `options`.
    pub fn set(&self, options: &mut Options) -> Result<()> {
        set(options, EngineOption::OpeningBook, &self.opening_book)
    }
}

impl ThreefoldFlag {
    /// Lay the flag, if given, over `options`.
    pub fn set(&self, options: &mut Options) {
        options.threefold_repetition_draw |= self.threefold_repetition_draw;
    }
}

impl LevelFlag {
    /// Lay the flag, if given, over `options`.
    pub fn set(&self, options: &mut Options) -> Result<()> {
        set(options, EngineOption::Level, &self.level)
    }
}

impl StrengthFlags {
    /// Lay the flags given over `options`.
    pub fn set(&self, options: &mut Options) -> Result<()> {
        options.reference_player |= self.reference_player;
        self.level.set(options)
    }
}

impl SessionFlags {
    /// Lay the flags given over `options`.
    pub fn set(&self, options: &mut Options) -> Result<()> {
        options.report_intermediate_best_moves |= self.report_intermediate_best_moves;
        set(options, EngineOption::TournamentOpening, &self.tournament_opening)?;
        set(options, EngineOption::PonderDuringIdle, &self.ponder_during_idle)
    }
}

impl EvalFlags {
    /// The evaluation weights: those of `--weights`, else the built-in ones.
    pub fn weights(&self) -> Result<WeightSets> {
        let Some(path) = &self.weights else {
            return Ok(WeightSets::default());
        };
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        WeightSets::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }

    /// Lay the flags given over `options`: the evaluation, its net file (read and checked now), and the
    /// hand-written evaluation when weights are given without `--eval`.
    pub fn set(&self, options: &mut Options) -> Result<()> {
        let eval = match (&self.eval, &self.weights) {
            (None, Some(_)) => Some("Classic".to_string()),
            (eval, _) => eval.clone(),
        };
        set(options, EngineOption::Evaluation, &eval)?;
        set(options, EngineOption::EvalFile, &self.eval_file)
    }

    /// The engine: `options` (the other flags already laid over them) with these.
    pub fn build(&self, mut options: Options) -> Result<Engine> {
        self.set(&mut options)?;
        let mut engine = Engine::new(options).context("starting the engine")?;
        engine.set_weights(self.weights()?);
        Ok(engine)
    }
}

/// `option` set to `value`, if given (already checked by [`OptionValue`], so an error here is only a safeguard).
fn set(options: &mut Options, option: EngineOption, value: &Option<String>) -> Result<()> {
    if let Some(value) = value {
        *options = options.with(option, value)?;
    }
    Ok(())
}

/// `--threads N`: the helpers of a search of N threads in all (0: one per core).
fn threads(text: &str) -> Result<HelperThreads, String> {
    let threads = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of threads"))?;
    HelperThreads::for_threads(threads).map_err(|e| e.to_string())
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
