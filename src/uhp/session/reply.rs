//! The session's words: a result or an error as a reply, and a search's line as Mzinga prints intermediate best
//! moves, with Waggle's own fields after it.

use crate::engine::{EngineError, SearchInfo, Thought};
use crate::uhp::Reply;

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

/// `Move;Depth;Score;PV…` as Mzinga prints an intermediate best move (the PV one move a field, starting with the
/// move), then, when `info` is given, `nodes=N;nps=N;time=S;seldepth=N;hashfull=N` (`time` in seconds,
/// `hashfull` in thousandths of the table): fields with `=`, which no MoveString has, so a reader finds them
/// after the PV whatever its length.
pub(super) fn info_line(thought: &Thought, info: Option<&SearchInfo>) -> String {
    let report = &thought.report;
    let mut fields = vec![
        thought.best.to_string(),
        report.depth.to_string(),
        report.score.to_string(),
    ];
    fields.extend(thought.pv.iter().map(|m| m.to_string()));
    if let Some(info) = info {
        fields.push(format!("nodes={}", report.nodes));
        fields.push(format!("nps={}", info.nodes_per_second));
        fields.push(format!("time={:.3}", info.elapsed.as_secs_f64()));
        fields.push(format!("seldepth={}", report.seldepth));
        fields.push(format!("hashfull={}", info.table_permille));
    }
    fields.join(";")
}
