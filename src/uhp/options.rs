//! The engine's options as text: an option's name read in any case, a value read from the words UHP and the
//! command line use (`64`, `true`, `singlethreaded`, a net file's path, which is read then), each value written
//! back as UHP spells it, and an option's line in the `options` reply, with the values it takes. The one place
//! where option text becomes a typed [`OptionValue`], for the session's `options set` and the binary's engine
//! flags alike.

use std::fmt;

use crate::engine::{
    cores, EngineOption, Evaluation, HashSize, HelperThreads, Level, NetFile, OptionError, OptionValue, Options, Ponder,
};

/// The value of EvalFile that means the built-in net.
const BUILTIN: &str = "Builtin";

/// What values an option takes, as UHP lists them.
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

/// The option called `name`, in any case (`maxhashsize`).
pub fn parse_option(name: &str) -> Result<EngineOption, OptionError> {
    EngineOption::ALL
        .into_iter()
        .find(|option| option.name().eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::Unknown(name.to_string()))
}

/// The value `text` gives `option` (words in any case, spaces around ignored). A net file is read and checked
/// here, unless it is the one `current` already has loaded.
pub fn parse_value(option: EngineOption, text: &str, current: &Options) -> Result<OptionValue, OptionError> {
    let text = text.trim();
    let choice = |names: &[&str]| {
        let position = names.iter().position(|name| name.eq_ignore_ascii_case(text));
        position.ok_or_else(|| OptionError::NotAChoice {
            option,
            values: names.join(", "),
        })
    };
    let number = |(min, max): (i64, i64)| {
        text.parse::<i64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or(OptionError::NotInRange { option, min, max })
    };
    let truth = || match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(OptionError::NotBool(option)),
    };
    Ok(match option {
        EngineOption::Level => OptionValue::Level(Level::new(number(bounds(option))? as u8)?),
        EngineOption::MaxHashSize => OptionValue::MaxHashSize(HashSize::megabytes(number(bounds(option))? as usize)?),
        EngineOption::MaxHelperThreads => OptionValue::MaxHelperThreads(match text.to_ascii_lowercase().as_str() {
            "auto" => HelperThreads::Auto,
            "none" | "0" => HelperThreads::None,
            _ => match text.parse::<usize>() {
                Ok(n) if n < cores() => HelperThreads::helpers(n),
                _ => {
                    return Err(OptionError::NotAChoice {
                        option,
                        values: helper_values().join(", "),
                    })
                }
            },
        }),
        EngineOption::PonderDuringIdle => {
            OptionValue::PonderDuringIdle(Ponder::ALL[choice(&Ponder::ALL.map(Ponder::name))?])
        }
        EngineOption::Evaluation => {
            OptionValue::Evaluation(Evaluation::ALL[choice(&Evaluation::ALL.map(Evaluation::name))?])
        }
        EngineOption::OpeningBook => OptionValue::OpeningBook(truth()?),
        EngineOption::ReportIntermediateBestMoves => OptionValue::ReportIntermediateBestMoves(truth()?),
        EngineOption::ThreefoldRepetitionDraw => OptionValue::ThreefoldRepetitionDraw(truth()?),
        EngineOption::TournamentOpening => OptionValue::TournamentOpening(truth()?),
        EngineOption::EvalFile => OptionValue::EvalFile(if text.eq_ignore_ascii_case(BUILTIN) {
            None
        } else if let Some(file) = current.eval_file.as_ref().filter(|file| file.path == text) {
            Some(file.clone())
        } else {
            Some(NetFile::load(text)?)
        }),
    })
}

/// The bounds of an option of numbers.
fn bounds(option: EngineOption) -> (i64, i64) {
    match option {
        EngineOption::Level => (i64::from(Level::LOWEST.get()), i64::from(Level::FULL.get())),
        _ => (HashSize::MIN.mb() as i64, HashSize::MAX.mb() as i64),
    }
}

/// MaxHelperThreads' values on this machine: `Auto`, `None`, `1` … cores − 1.
fn helper_values() -> Vec<String> {
    let mut values = vec!["Auto".to_string(), "None".to_string()];
    values.extend((1..cores()).map(|n| n.to_string()));
    values
}

/// A value as UHP writes it (`64`, `True`, `SingleThreaded`, the net file's path).
pub struct ValueText<'a>(pub &'a OptionValue);

impl fmt::Display for ValueText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let truth = |on: bool| if on { "True" } else { "False" };
        match self.0 {
            OptionValue::Level(level) => write!(f, "{level}"),
            OptionValue::MaxHashSize(size) => write!(f, "{size}"),
            OptionValue::MaxHelperThreads(HelperThreads::Auto) => f.write_str("Auto"),
            OptionValue::MaxHelperThreads(HelperThreads::None) => f.write_str("None"),
            OptionValue::MaxHelperThreads(HelperThreads::Count(n)) => write!(f, "{n}"),
            OptionValue::PonderDuringIdle(ponder) => f.write_str(ponder.name()),
            OptionValue::Evaluation(evaluation) => f.write_str(evaluation.name()),
            OptionValue::OpeningBook(on)
            | OptionValue::ReportIntermediateBestMoves(on)
            | OptionValue::ThreefoldRepetitionDraw(on)
            | OptionValue::TournamentOpening(on) => f.write_str(truth(*on)),
            OptionValue::EvalFile(None) => f.write_str(BUILTIN),
            OptionValue::EvalFile(Some(file)) => f.write_str(&file.path),
        }
    }
}

/// What values `option` takes, as `options` lists them: for EvalFile, the built-in net and the file `options` has
/// loaded, if any (any file may be named, but Mzinga.Viewer knows no option of free text).
pub fn option_kind(option: EngineOption, options: &Options) -> OptionKind {
    let names = |names: &[&str]| OptionKind::Enum(names.iter().map(|name| name.to_string()).collect());
    match option {
        EngineOption::Level | EngineOption::MaxHashSize => {
            let (min, max) = bounds(option);
            OptionKind::Int { min, max }
        }
        EngineOption::MaxHelperThreads => OptionKind::Enum(helper_values()),
        EngineOption::PonderDuringIdle => names(&Ponder::ALL.map(Ponder::name)),
        EngineOption::Evaluation => names(&Evaluation::ALL.map(Evaluation::name)),
        EngineOption::EvalFile => {
            let loaded = options.eval_file.as_ref().map(|file| file.path.as_str());
            names(&[BUILTIN].into_iter().chain(loaded).collect::<Vec<_>>())
        }
        EngineOption::OpeningBook
        | EngineOption::ReportIntermediateBestMoves
        | EngineOption::ThreefoldRepetitionDraw
        | EngineOption::TournamentOpening => OptionKind::Bool,
    }
}

/// `option` as UHP lists it under `options`: `Name;Type;Value;Default`, then `;Min;Max` for an `int`, `;v1;v2;…`
/// for an `enum` and nothing more for a `bool` (the types Mzinga.Viewer accepts).
pub(crate) fn option_line(option: EngineOption, options: &Options) -> String {
    let (value, default) = (options.value(option), Options::default().value(option));
    let head = |kind: &str| format!("{option};{kind};{};{}", ValueText(&value), ValueText(&default));
    match option_kind(option, options) {
        OptionKind::Int { min, max } => format!("{};{min};{max}", head("int")),
        OptionKind::Bool => head("bool"),
        OptionKind::Enum(values) => format!("{};{}", head("enum"), values.join(";")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_have_the_form_mzinga_viewer_parses() {
        let options = Options::default();
        let lines: Vec<String> = EngineOption::ALL.map(|option| option_line(option, &options)).to_vec();
        let threads: Vec<String> = (1..cores()).map(|n| format!(";{n}")).collect();
        assert_eq!(
            lines,
            [
                "Level;int;10;10;1;10".to_string(),
                "MaxHashSize;int;64;64;1;4096".to_string(),
                format!("MaxHelperThreads;enum;None;None;Auto;None{}", threads.concat()),
                "OpeningBook;bool;True;True".to_string(),
                "PonderDuringIdle;enum;Disabled;Disabled;Disabled;SingleThreaded;MultiThreaded".to_string(),
                "ReportIntermediateBestMoves;bool;False;False".to_string(),
                "ThreefoldRepetitionDraw;bool;False;False".to_string(),
                "TournamentOpening;bool;True;True".to_string(),
                "Evaluation;enum;Net;Net;Net;Classic".to_string(),
                "EvalFile;enum;Builtin;Builtin;Builtin".to_string(),
            ]
        );
    }

    #[test]
    fn options_are_found_in_any_case_and_refuse_bad_values() {
        use EngineOption::*;
        let options = Options::default();
        let value = |option, text: &str| parse_value(option, text, &options);
        assert_eq!(parse_option("maxhashsize"), Ok(MaxHashSize));
        assert_eq!(
            parse_option("Nope").unwrap_err().to_string(),
            "Unknown option 'Nope'. Options are: Level, MaxHashSize, MaxHelperThreads, OpeningBook, PonderDuringIdle, \
             ReportIntermediateBestMoves, ThreefoldRepetitionDraw, TournamentOpening, Evaluation, EvalFile"
        );
        assert_eq!(
            value(ThreefoldRepetitionDraw, "true"),
            Ok(OptionValue::ThreefoldRepetitionDraw(true))
        );
        assert_eq!(value(OpeningBook, "FALSE"), Ok(OptionValue::OpeningBook(false)));
        assert_eq!(
            value(OpeningBook, "no").unwrap_err().to_string(),
            "OpeningBook must be True or False"
        );
        assert_eq!(value(MaxHashSize, "4096"), Ok(OptionValue::MaxHashSize(HashSize::MAX)));
        for bad in ["0", "4097", "lots"] {
            assert!(value(MaxHashSize, bad).is_err(), "{bad}");
        }
        assert_eq!(
            value(Level, " 3 "),
            Ok(OptionValue::Level(crate::engine::Level::new(3).unwrap()))
        );
        for bad in ["0", "11", "eleven", "", "-1", "2.5", "300"] {
            let refused = value(Level, bad).unwrap_err();
            assert_eq!(
                refused.to_string(),
                "Level must be a whole number from 1 to 10",
                "{bad}"
            );
        }
        assert_eq!(
            value(MaxHelperThreads, "auto"),
            Ok(OptionValue::MaxHelperThreads(HelperThreads::Auto))
        );
        assert_eq!(
            value(MaxHelperThreads, "0"),
            Ok(OptionValue::MaxHelperThreads(HelperThreads::None))
        );
        assert!(value(MaxHelperThreads, &cores().to_string()).is_err());
        assert_eq!(
            value(PonderDuringIdle, "singlethreaded"),
            Ok(OptionValue::PonderDuringIdle(Ponder::SingleThreaded))
        );
        assert_eq!(
            value(PonderDuringIdle, "Sometimes").unwrap_err().to_string(),
            "PonderDuringIdle must be one of Disabled, SingleThreaded, MultiThreaded"
        );
        assert_eq!(
            value(Evaluation, "classic"),
            Ok(OptionValue::Evaluation(crate::engine::Evaluation::Classic))
        );
        assert_eq!(value(EvalFile, "builtin"), Ok(OptionValue::EvalFile(None)));
    }

    #[test]
    fn every_value_reads_back_from_its_text() {
        let options = Options::default();
        for option in EngineOption::ALL {
            let texts = match option_kind(option, &options) {
                OptionKind::Int { min, max } => vec![min.to_string(), max.to_string()],
                OptionKind::Bool => vec!["True".to_string(), "False".to_string()],
                OptionKind::Enum(values) => values,
            };
            for text in texts {
                let value = parse_value(option, &text, &options).unwrap();
                assert_eq!(value.option(), option);
                assert_eq!(ValueText(&value).to_string(), text, "{option}");
            }
        }
    }

    #[test]
    fn a_net_file_is_read_when_named_and_listed_once_loaded() {
        let path = std::env::temp_dir().join(format!("waggle-uhp-options-{}.nnue", std::process::id()));
        std::fs::write(&path, crate::eval::Network::builtin_file()).unwrap();
        let path = path.display().to_string();
        let loaded = parse_value(EngineOption::EvalFile, &path, &Options::default()).unwrap();
        let _ = std::fs::remove_file(&path);
        let options = Options::default().with(loaded);
        assert_eq!(
            option_line(EngineOption::EvalFile, &options),
            format!("EvalFile;enum;{path};Builtin;Builtin;{path}")
        );
        // Named again, the file loaded is kept (it is gone from the disk now).
        let again = parse_value(EngineOption::EvalFile, &path, &options).unwrap();
        assert_eq!(options.with(again), options);
        let missing = parse_value(EngineOption::EvalFile, "/no/such/net.nnue", &options).unwrap_err();
        assert!(
            missing.to_string().starts_with("EvalFile /no/such/net.nnue: "),
            "{missing}"
        );
    }
}
