//! The engine's options: their values, what each accepts, and setting one from text. Named as Mzinga names its
//! own where Waggle has the same option, so that Mzinga.Viewer's Engine Options dialog shows the familiar ones.
//!
//! Owns the values and their checks only; how an option reads on the wire (`Name;Type;Value;Default…`) is the
//! UHP vocabulary's (`crate::uhp`), and what a change does to a game or the table is the engine's.

/// What values an option takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// A whole number from `min` to `max`.
    Int { min: i64, max: i64 },
    /// True or False.
    Bool,
    /// One of the listed words.
    Enum(&'static [&'static str]),
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
    #[error("Unknown option '{0}'. Options are: {list}", list = NAMES.join(", "))]
    Unknown(String),
    #[error("{name} must be a whole number from {min} to {max}")]
    NotInRange { name: &'static str, min: i64, max: i64 },
    #[error("{0} must be True or False")]
    NotBool(&'static str),
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
}

/// The default table size, in MB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Bounds of `MaxHashSize`, in MB.
pub const HASH_RANGE: (usize, usize) = (1, 4096);
/// The option names, in the order `options` lists them.
pub const NAMES: [&str; 3] = ["MaxHashSize", "ReportIntermediateBestMoves", "ThreefoldRepetitionDraw"];

impl Default for Options {
    fn default() -> Self {
        Options {
            max_hash_size: DEFAULT_HASH_MB,
            report_intermediate_best_moves: false,
            threefold_repetition_draw: false,
        }
    }
}

impl Options {
    /// Every option, in the order of [`NAMES`].
    pub fn all(&self) -> Vec<OptionInfo> {
        NAMES.iter().filter_map(|name| self.info(name).ok()).collect()
    }

    /// The option called `name` (any case).
    pub fn info(&self, name: &str) -> Result<OptionInfo, OptionError> {
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
                changed.max_hash_size = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|v| (HASH_RANGE.0..=HASH_RANGE.1).contains(v))
                    .ok_or(OptionError::NotInRange {
                        name,
                        min: HASH_RANGE.0 as i64,
                        max: HASH_RANGE.1 as i64,
                    })?
            }
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
    }
}
