//! The flags that shape an engine, and the one way every subcommand builds its [`Engine`] from them: the same flag
//! means the same thing everywhere, and its value is read by the same words as the UHP option's
//! (`waggle::uhp::parse_value`). Each flag (or pair of flags always taken together) is a group of its own; a
//! subcommand names the groups it takes once, with [`engine_flags!`], which flattens them into its arguments
//! (`waggle play --threads 2`), so that clap itself lists, completes and refuses them, and lays them over the
//! subcommand's own defaults in one call (the JSON API and self-play use smaller tables, self-play no book).

use std::ffi::OsStr;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::builder::{PossibleValue, TypedValueParser};
use clap::Args;
use waggle::uhp::{option_kind, parse_value, OptionKind};
use waggle::{Engine, EngineOption, HelperThreads, OptionValue, Options, WeightSets};

/// The heading the engine's flags stand under in each `--help`, apart from the subcommand's own.
const HEADING: &str = "Engine flags";

/// A group of engine flags: it lays the flags given over options.
pub trait Flags {
    /// Lay the flags given over `options` (those not given leave them as they are).
    fn lay_over(&self, options: &mut Options) -> Result<()>;

    /// The evaluation's flags, if the group has them.
    fn eval(&self) -> Option<&EvalFlags> {
        None
    }

    /// `defaults` (a subcommand's own) with the flags given laid over them.
    fn options(&self, defaults: Options) -> Result<Options> {
        let mut options = defaults;
        self.lay_over(&mut options)?;
        Ok(options)
    }

    /// The hand-written evaluation's weights: `--weights`', else the built-in ones.
    fn weights(&self) -> Result<WeightSets> {
        self.eval().map_or(Ok(WeightSets::default()), EvalFlags::weights)
    }

    /// The engine of these flags laid over `defaults`, with its weights.
    fn build(&self, defaults: Options) -> Result<Engine> {
        let mut engine = Engine::new(self.options(defaults)?).context("starting the engine")?;
        // The engine starts with the built-in weights: only `--weights` changes them (reading the built-in ones
        // again would cost a start a quarter of a million instructions).
        if self.eval().is_some_and(|eval| eval.weights.is_some()) {
            engine.set_weights(self.weights()?);
        }
        Ok(engine)
    }
}

/// Declare the engine flags a subcommand takes (or a group of groups): a struct of the groups named, each
/// flattened into the subcommand's arguments, which is a group of [`Flags`] itself.
macro_rules! engine_flags {
    ($(#[$meta:meta])* $vis:vis struct $name:ident { $($field:ident: $group:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(clap::Args, Debug, Default)]
        $vis struct $name {
            $(#[command(flatten)] $vis $field: $group,)*
        }

        impl $crate::cli::engine::Flags for $name {
            fn lay_over(&self, options: &mut waggle::Options) -> anyhow::Result<()> {
                $($crate::cli::engine::Flags::lay_over(&self.$field, options)?;)*
                Ok(())
            }

            fn eval(&self) -> Option<&$crate::cli::engine::EvalFlags> {
                None$(.or_else(|| $crate::cli::engine::Flags::eval(&self.$field)))*
            }
        }
    };
}
pub(crate) use engine_flags;

engine_flags! {
    /// The flags of an engine that plays games (the UHP engine's, `waggle play`'s, `waggle web`'s): its table and
    /// threads, its evaluation, its book and the repetition rule.
    pub struct GameFlags {
        table: TableFlags,
        eval: EvalFlags,
        book: BookFlag,
        threefold: ThreefoldFlag,
    }
}

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
    #[arg(long, value_name = "MB", value_parser = OptionValueParser(EngineOption::MaxHashSize),
          help = about(EngineOption::MaxHashSize, "Transposition table size in MB"))]
    max_hash_size: Option<OptionValue>,
}

/// The evaluation: the network (the built-in net or another) or the hand-written one with its weights.
#[derive(Args, Debug, Default)]
#[command(next_help_heading = HEADING)]
pub struct EvalFlags {
    #[arg(long, value_name = "KIND", value_parser = OptionValueParser(EngineOption::Evaluation),
          help = about(EngineOption::Evaluation, "The evaluation: the network, or the hand-written one for comparison"))]
    eval: Option<OptionValue>,
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
    #[arg(long, value_name = "BOOL", value_parser = OptionValueParser(EngineOption::OpeningBook),
          help = about(EngineOption::OpeningBook, "Play the opening book's moves where it has one"))]
    opening_book: Option<OptionValue>,
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
    #[arg(long, value_name = "N", value_parser = OptionValueParser(EngineOption::Level),
          help = about(EngineOption::Level, "Playing level: the lowest a beginner can beat, the highest is full strength"))]
    level: Option<OptionValue>,
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
    #[arg(long, value_name = "MODE", value_parser = OptionValueParser(EngineOption::PonderDuringIdle),
          help = about(EngineOption::PonderDuringIdle, "Think while waiting for a command"))]
    ponder_during_idle: Option<OptionValue>,
    #[arg(long, value_name = "BOOL", value_parser = OptionValueParser(EngineOption::TournamentOpening),
          help = about(EngineOption::TournamentOpening, "Forbid the Queen on a side's first turn (False: allow it, as before the rule)"))]
    tournament_opening: Option<OptionValue>,
    /// Also print each completed depth's search information to stderr.
    #[arg(long)]
    pub verbose: bool,
}

/// Lay the values given over `options`.
fn lay(options: &mut Options, values: impl IntoIterator<Item = Option<OptionValue>>) {
    for value in values.into_iter().flatten() {
        *options = options.with(value);
    }
}

impl Flags for TableFlags {
    fn lay_over(&self, options: &mut Options) -> Result<()> {
        self.hash.lay_over(options)?;
        lay(options, [self.threads.map(OptionValue::MaxHelperThreads)]);
        Ok(())
    }
}

impl Flags for HashFlag {
    fn lay_over(&self, options: &mut Options) -> Result<()> {
        lay(options, [self.max_hash_size.clone()]);
        Ok(())
    }
}

impl Flags for BookFlag {
    fn lay_over(&self, options: &mut Options) -> Result<()> {
        lay(options, [self.opening_book.clone()]);
        Ok(())
    }
}

impl Flags for ThreefoldFlag {
    fn lay_over(&self, options: &mut Options) -> Result<()> {
        options.threefold_repetition_draw |= self.threefold_repetition_draw;
        Ok(())
    }
}

impl Flags for LevelFlag {
    fn lay_over(&self, options: &mut Options) -> Result<()> {
        lay(options, [self.level.clone()]);
        Ok(())
    }
}

impl Flags for StrengthFlags {
    fn lay_over(&self, options: &mut Options) -> Result<()> {
        options.reference_player |= self.reference_player;
        self.level.lay_over(options)
    }
}

impl Flags for SessionFlags {
    fn lay_over(&self, options: &mut Options) -> Result<()> {
        options.report_intermediate_best_moves |= self.report_intermediate_best_moves;
        lay(
            options,
            [self.tournament_opening.clone(), self.ponder_during_idle.clone()],
        );
        Ok(())
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
}

impl Flags for EvalFlags {
    fn eval(&self) -> Option<&EvalFlags> {
        Some(self)
    }

    /// The evaluation, its net file (read and checked now), and the hand-written evaluation when weights are given
    /// without `--eval`.
    fn lay_over(&self, options: &mut Options) -> Result<()> {
        let eval = match (&self.eval, &self.weights) {
            (None, Some(_)) => Some(OptionValue::Evaluation(waggle::Evaluation::Classic)),
            (eval, _) => eval.clone(),
        };
        let file = match &self.eval_file {
            Some(path) => Some(parse_value(EngineOption::EvalFile, path, options)?),
            None => None,
        };
        lay(options, [eval, file]);
        Ok(())
    }
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
/// the others are listed by clap, from [`OptionValueParser`]).
fn about(option: EngineOption, text: &str) -> String {
    match option_kind(option, &Options::default()) {
        OptionKind::Int { min, max } => format!("{text} (UHP option {option}, {min} to {max})"),
        OptionKind::Bool | OptionKind::Enum(_) => format!("{text} (UHP option {option})"),
    }
}

/// The parser of a flag that sets an option: a value is read as `options set` reads it (the same words, bounds and
/// message), and the values of an option of a few are listed in the help and offered by the shell completions.
#[derive(Clone)]
pub struct OptionValueParser(pub EngineOption);

impl TypedValueParser for OptionValueParser {
    type Value = OptionValue;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<OptionValue, clap::Error> {
        let option = self.0;
        let read = move |text: &str| parse_value(option, text, &Options::default());
        read.parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        let values = match option_kind(self.0, &Options::default()) {
            OptionKind::Int { .. } => return None,
            OptionKind::Bool => vec!["True".to_string(), "False".to_string()],
            OptionKind::Enum(values) => values,
        };
        Some(Box::new(values.into_iter().map(PossibleValue::new)))
    }
}
