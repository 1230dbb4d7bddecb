//! The arena's console: what `waggle match` prints while a match runs and when it ends. Finished games and the
//! summary go to the output; the live progress line goes to the progress stream (a terminal), rewritten in place.

use std::io::{self, Write};

use super::report::{game_line, progress_line, summary_lines};
use super::results::{merge_files, summarize, ResultsError};
use super::runner::{run, Event, MatchConfig, MatchError};

/// Play the match `config` describes, printing each game as it ends and the summary at the end to `out`, and a
/// progress line to `progress` when there is one.
pub fn play_match(
    config: &MatchConfig,
    out: &mut impl Write,
    mut progress: Option<&mut dyn Write>,
) -> Result<(), MatchError> {
    let mut names = Vec::new();
    let mut write_error: Option<io::Error> = None;
    let mut note = |result: io::Result<()>| {
        if let (Err(e), None) = (result, &write_error) {
            write_error = Some(e);
        }
    };
    let outcome = run(config, |event| match event {
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
            note(writeln!(out, "{}", game_line(game, &names)).and_then(|_| out.flush()));
            if let Some(stream) = progress.as_deref_mut() {
                note(write!(stream, "{}", progress_line(summary, &names, done, total)).and_then(|_| stream.flush()));
            }
        }
        Event::Decided => note(writeln!(out, "SPRT: a bound was crossed; no new game starts")),
    })?;
    if let Some(stream) = progress {
        note(writeln!(stream, "\r\x1b[K"));
    }
    for line in summary_lines(&outcome.summary, &outcome.names, config.sprt.as_ref()) {
        note(writeln!(out, "{line}"));
    }
    match write_error {
        Some(e) => Err(MatchError::Output {
            path: "standard output".into(),
            why: e.to_string(),
        }),
        None => Ok(()),
    }
}

/// Print the summary of the merged results files at `paths` (the shards of one match) to `out`.
pub fn merge(paths: &[String], out: &mut impl Write) -> Result<(), ResultsError> {
    let merged = merge_files(paths)?;
    let summary = summarize(merged.engines.len(), &merged.games);
    let lines = summary_lines(&summary, &merged.engines, merged.sprt.as_ref());
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    out.write_all(format!("Merged {} games from {} files\n{text}", merged.games.len(), paths.len()).as_bytes())
        .map_err(|e| ResultsError::Read {
            path: "standard output".into(),
            why: e.to_string(),
        })
}
