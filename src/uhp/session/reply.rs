//! The session's words: a result or an error as a reply, and a search's line as Mzinga prints intermediate best
//! moves, with Waggle's own fields after it.

use crate::engine::{EngineError, SearchInfo, Thought};
use crate::uhp::{InfoLine, Reply};

/// The reply to the command `line`: its lines, or the error as `invalidmove` (a move that cannot be played) or
/// `err`. A failure (a bug) names the command as well as the position, so that the person can report both.
pub(super) fn answer(result: Result<Vec<String>, EngineError>, line: &str) -> Reply {
    match result {
        Ok(lines) => Reply::ok(lines),
        Err(EngineError::Move(e)) => Reply::invalid_move(e.to_string()),
        Err(e @ EngineError::NoGame) => Reply::err(format!("{e} Try 'newgame' to start a new game.")),
        Err(e @ EngineError::GameOver(_)) => Reply::err(format!("{e} Try 'undo' or 'newgame'.")),
        Err(e @ EngineError::Failed { .. }) => Reply::err(format!("{e} and the command '{line}'.")),
        Err(e) => Reply::err(e.to_string()),
    }
}

/// The search line of `thought`, with `info`'s figures when given: `nodes`, `nps`, `time` (in seconds), `seldepth`
/// and `hashfull` (in thousandths of the table).
pub(super) fn info_line(thought: &Thought, info: Option<&SearchInfo>) -> String {
    let report = &thought.report;
    let fields = match info {
        Some(info) => vec![
            ("nodes", report.nodes.to_string()),
            ("nps", info.nodes_per_second.to_string()),
            ("time", format!("{:.3}", info.elapsed.as_secs_f64())),
            ("seldepth", report.seldepth.to_string()),
            ("hashfull", info.table_permille.to_string()),
        ],
        None => Vec::new(),
    };
    InfoLine {
        best: thought.best.to_string(),
        depth: i64::from(report.depth),
        score: i64::from(report.score),
        pv: thought.pv.iter().map(|m| m.to_string()).collect(),
        fields: fields
            .into_iter()
            .map(|(name, value)| (name.to_string(), value))
            .collect(),
    }
    .to_string()
}
