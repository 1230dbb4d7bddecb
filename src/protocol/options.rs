//! Engine options, in the `Name;Type;Value;Default[;Min;Max]` lines Mzinga.Viewer parses.

/// The options and their values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size, in MB.
    pub max_hash_size: usize,
    /// Print `Move;Depth;Score;PV…` after each completed depth while searching.
    pub report_intermediate_best_moves: bool,
    /// A position occurring for the third time ends the game as a draw.
    pub threefold_repetition_draw: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_hash_size: DEFAULT_HASH,
            report_intermediate_best_moves: false,
            threefold_repetition_draw: false,
        }
    }
}

const DEFAULT_HASH: usize = 64;
/// Bounds of `MaxHashSize`.
pub const HASH_RANGE: (usize, usize) = (1, 4096);
/// The option names, in the order `options` lists them.
pub const NAMES: [&str; 3] = ["MaxHashSize", "ReportIntermediateBestMoves", "ThreefoldRepetitionDraw"];

impl Options {
    /// The line describing option `name`, or `None` for an unknown name (any case accepted).
    pub fn line(&self, name: &str) -> Option<String> {
        let name = NAMES.iter().find(|n| n.eq_ignore_ascii_case(name))?;
        Some(match *name {
            "MaxHashSize" => format!(
                "MaxHashSize;int;{};{DEFAULT_HASH};{};{}",
                self.max_hash_size, HASH_RANGE.0, HASH_RANGE.1
            ),
            "ReportIntermediateBestMoves" => {
                format!(
                    "ReportIntermediateBestMoves;bool;{};False",
                    bool_text(self.report_intermediate_best_moves)
                )
            }
            _ => format!(
                "ThreefoldRepetitionDraw;bool;{};False",
                bool_text(self.threefold_repetition_draw)
            ),
        })
    }

    /// Set option `name` to `value`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let Some(name) = NAMES.iter().find(|n| n.eq_ignore_ascii_case(name)) else {
            return Err(format!("Unknown option '{name}'. Options are: {}", NAMES.join(", ")));
        };
        match *name {
            "MaxHashSize" => {
                self.max_hash_size = value
                    .parse()
                    .ok()
                    .filter(|v| (HASH_RANGE.0..=HASH_RANGE.1).contains(v))
                    .ok_or_else(|| {
                        format!(
                            "MaxHashSize must be a whole number of MB from {} to {}",
                            HASH_RANGE.0, HASH_RANGE.1
                        )
                    })?
            }
            "ReportIntermediateBestMoves" => self.report_intermediate_best_moves = parse_bool(name, value)?,
            _ => self.threefold_repetition_draw = parse_bool(name, value)?,
        }
        Ok(())
    }
}

fn bool_text(value: bool) -> &'static str {
    if value {
        "True"
    } else {
        "False"
    }
}

fn parse_bool(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{name} must be True or False")),
    }
}
