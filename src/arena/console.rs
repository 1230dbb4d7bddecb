//! The arena's console: what `waggle match` prints while a match runs and when it ends. Finished games and the
//! summary go to the output; the live progress line goes to the progress stream (a terminal), rewritten in place.

use std::io::{self, Write};

use super::report::{game_line, progress_line, running_line, summary_lines};
use super::results::{merge_files, summarize, ResultsError};
use super::runner::{run, Event, MatchConfig, MatchControl, MatchError, MatchOutcome};

/// Play the match `config` describes, printing each game as it ends with the running score, and the summary at
/// the end, to `out`, and a progress line to `progress` when there is one. A match cut short by `control`
/// still ends with the summary of the games it finished, and a line that says so.
pub fn play_match(
    config: &MatchConfig,
    control: &MatchControl,
    out: &mut impl Write,
    mut progress: Option<&mut dyn Write>,
) -> Result<MatchOutcome, MatchError> {
    let mut names = Vec::new();
    let mut write_error: Option<io::Error> = None;
    let mut note = |result: io::Result<()>| {
        if let (Err(e), None) = (result, &write_error) {
            write_error = Some(e);
        }
    };
    let outcome = run(config, control, |event| match event {
        Event::Started { names: engines, games } => {
            names = engines.to_vec();
            note(writeln!(out, "Match of {} ({games} games)", engines.join(", ")));
        }
        Event::Finished {
            game,
            summary,
            done,
            total,
        } => {
            if let Some(stream) = progress.as_deref_mut() {
                note(write!(stream, "\r\x1b[K"));
            }
            note(writeln!(out, "{}", game_line(game, &names)));
            if let Some(line) = running_line(summary, &names, game, config.sprt.as_ref()) {
                note(writeln!(out, "{line}"));
            }
            note(out.flush());
            if let Some(stream) = progress.as_deref_mut() {
                note(write!(stream, "{}", progress_line(summary, &names, done, total)).and_then(|_| stream.flush()));
            }
        }
        Event::Decided => note(writeln!(out, "SPRT: a bound was crossed; no new game starts")),
    })?;
    if let Some(stream) = progress {
        note(writeln!(stream, "\r\x1b[K"));
    }
    for (number, message) in &outcome.failed {
        note(writeln!(
            out,
            "Game {number} was not counted: the referee failed ({message}). This is a bug in Waggle: please report it."
        ));
    }
    if outcome.interrupted {
        let kept = match (&config.results_file, &config.pgn_dir) {
            (None, None) => String::new(),
            _ => "; the results file and PGN records hold the finished games".to_string(),
        };
        note(writeln!(
            out,
            "Interrupted: {} of {} games finished, {} abandoned{kept}",
            outcome.games.len(),
            outcome.scheduled,
            outcome.abandoned
        ));
    }
    for line in summary_lines(&outcome.summary, &outcome.names, config.sprt.as_ref()) {
        note(writeln!(out, "{line}"));
    }
    match write_error {
        Some(e) => Err(MatchError::Output {
            path: "standard output".into(),
            why: e.to_string(),
        }),
        None => Ok(outcome),
    }
}

/// Print the summary of the merged results files at `paths` (the shards of one match, or several runs of it) to
/// `out`.
pub fn merge(paths: &[String], out: &mut impl Write) -> Result<(), ResultsError> {
    let merged = merge_files(paths)?;
    let summary = summarize(merged.engines.len(), &merged.games);
    let lines = summary_lines(&summary, &merged.engines, merged.sprt.as_ref());
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let runs = match merged.run.split(" + ").count() {
        1 => String::new(),
        n => format!(" of {n} runs"),
    };
    out.write_all(
        format!(
            "Merged {} games{runs} from {} files\n{text}",
            merged.games.len(),
            paths.len()
        )
        .as_bytes(),
    )
    .map_err(|e| ResultsError::Read {
        path: "standard output".into(),
        why: e.to_string(),
    })
}
