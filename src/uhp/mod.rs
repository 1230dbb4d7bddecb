//! The Universal Hive Protocol: its vocabulary (commands, replies, search lines, times and option lines, each
//! readable and writable, which the arena also speaks to the engines it referees) and the [`Session`] that speaks it
//! for Waggle's engine.
//!
//! The vocabulary owns text only; what a command does is the engine's business, and the session's order of
//! things.

mod command;
mod info;
mod reply;
mod session;
mod time;

pub(crate) use command::{Command, CommandError, SearchLimit, CLOCK_CAPABILITY};
pub(crate) use info::InfoLine;
pub use reply::{Outcome, Reply, ReplyReader};
pub use session::{Event, Flow, Session};

use crate::engine::{OptionInfo, OptionKind};

/// An option as UHP lists it: `Name;Type;Value;Default`, then `;Min;Max` for an `int`, `;v1;v2;…` for an `enum`
/// and nothing more for a `bool` (the types Mzinga.Viewer accepts).
pub(crate) fn option_line(option: &OptionInfo) -> String {
    let head = |kind: &str| format!("{};{kind};{};{}", option.option, option.value, option.default);
    match &option.kind {
        OptionKind::Int { min, max } => format!("{};{min};{max}", head("int")),
        OptionKind::Bool => head("bool"),
        OptionKind::Enum(values) => format!("{};{}", head("enum"), values.join(";")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Options;

    #[test]
    fn option_lines_have_the_form_mzinga_viewer_parses() {
        let options = Options::default();
        let lines: Vec<String> = options.all().iter().map(option_line).collect();
        let threads: Vec<String> = (1..std::thread::available_parallelism().map_or(1, |n| n.get()))
            .map(|n| format!(";{n}"))
            .collect();
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
        let choice = OptionInfo {
            option: crate::engine::EngineOption::PonderDuringIdle,
            kind: OptionKind::Enum(vec!["Disabled".into(), "SingleThreaded".into()]),
            value: "Disabled".into(),
            default: "Disabled".into(),
        };
        assert_eq!(
            option_line(&choice),
            "PonderDuringIdle;enum;Disabled;Disabled;Disabled;SingleThreaded"
        );
    }
}
