//! `waggle review`: every move of one or more games judged by the engine: a line a move on stdout (or JSON
//! lines with `--json`), each side's marks and accuracy, the turning points; the game with the judgements as
//! commentary (`--pgn`) and a chart of the win chance (`--svg`). The first Ctrl-C stops the review and prints
//! (and writes) what was judged so far; a second quits at once.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use indicatif::ProgressBar;
use waggle::record::GameRecord;
use waggle::review::{Ply, Review};
use waggle::{Limits, Options};

use super::bar::progress_bar;
use super::engine::{engine_flags, EvalFlags, Flags, TableFlags, ThreefoldFlag};
use super::input::{self, Source};
use super::{interrupt, parse_seconds};

engine_flags! {
    /// The engine flags of `waggle review`.
    struct EngineFlags {
        table: TableFlags,
        eval: EvalFlags,
        threefold: ThreefoldFlag,
    }
}

/// The exit status for input that cannot be reviewed (a file that does not exist, an illegal move, …).
const BAD_INPUT: u8 = 2;

#[derive(ClapArgs)]
pub struct Args {
    /// The games: GameStrings, BoardSpace .sgf files, .pgn files (Mzinga's, hivegame.com's, other programs'), games
    /// files (as `waggle selfplay` writes them), directories of .pgn and .sgf files, or `-` for standard input. A
    /// game that cannot be read is refused with the reason, and the others reviewed.
    #[arg(value_name = "GAME", required = true)]
    games: Vec<String>,
    /// Seconds of search for each position (the default: 0.5).
    #[arg(long, value_name = "SECONDS", group = "budget", value_parser = parse_search_time)]
    time: Option<Duration>,
    /// Nodes of search for each position.
    #[arg(long, value_name = "N", group = "budget", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Depth of search for each position.
    #[arg(long, value_name = "D", group = "budget", value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Write the games with the judgements as move comments to this Mzinga .pgn file (Mzinga.Viewer shows them).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Write a chart of White's win chance to this SVG file (FILE-1.svg, FILE-2.svg, … for several games).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Print one JSON object a move and one with the summary, instead of text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    engine: EngineFlags,
}

/// The time of each position's search: more than none, which would judge every move by the first one generated.
fn parse_search_time(text: &str) -> Result<Duration, String> {
    match parse_seconds(text)? {
        time if time.is_zero() => Err("a review needs some time for each position: give more than 0 seconds".into()),
        time => Ok(time),
    }
}

impl Args {
    /// The limits of each position's search, and how to say them.
    fn budget(&self) -> (Limits, String) {
        if let Some(nodes) = self.nodes {
            (Limits::nodes(nodes), format!("{nodes} nodes a position"))
        } else if let Some(depth) = self.depth {
            (Limits::depth(depth), format!("depth {depth} a position"))
        } else {
            let time = self.time.unwrap_or(Duration::from_millis(500));
            (Limits::time(time), format!("{} s a position", time.as_secs_f64()))
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    // The book's moves are not judged: a review searches every position.
    let mut engine = args.engine.build(Options {
        opening_book: false,
        ..Options::default()
    })?;
    let input = input::read_all(&args.games, engine.rules());
    for refusal in &input.refused {
        eprintln!("waggle review: {refusal}");
    }
    if input.sources.is_empty() {
        return Ok(ExitCode::from(BAD_INPUT));
    }
    let sources = &input.sources;
    if let Some(path) = args.svg.as_deref().filter(|path| path.is_dir()) {
        return bad_input(&format!("{}: is a directory, not a file to write", path.display()));
    }
    let charts = chart_paths(args.svg.as_deref(), sources.len());
    for path in args.pgn.iter().chain(&charts) {
        if let Err(message) = check_writable(path) {
            return bad_input(&message);
        }
    }
    let (limits, budget) = args.budget();
    let stop = Arc::new(AtomicBool::new(false));
    let (flag, stopper) = (stop.clone(), engine.stopper());
    interrupt::on_press(move |presses| {
        if presses == 1 {
            flag.store(true, Ordering::SeqCst);
            stopper.stop();
        } else {
            eprintln!("\nwaggle review: interrupted");
            std::process::exit(i32::from(interrupt::INTERRUPTED));
        }
    })?;
    let total: usize = sources.iter().map(|source| source.record.moves.len()).sum();
    let bar = progress_bar(total as u64, "{pos}/{len} moves judged, {eta} left");
    let mut out = Printer {
        stdout: io::stdout().lock(),
        bar: &bar,
        gone: false,
        failure: None,
    };
    let files = args.pgn.is_some() || args.svg.is_some();
    let mut reviews = Vec::new();
    for (index, source) in sources.iter().enumerate() {
        // Whoever read stdout has gone (`| head`): the files asked for are still written, or else nothing is left
        // to do.
        if stop.load(Ordering::SeqCst) || out.failure.is_some() || (out.gone && !files) {
            break;
        }
        let number = index + 1;
        if !args.json {
            let heading = format!(
                "Game {number} of {}: {} · {} · {} moves · {budget}",
                sources.len(),
                source.label,
                source.record.game_type,
                source.record.moves.len()
            );
            out.print(&format!("{heading}\n{}\n", Ply::HEADING));
        }
        let reviewed = Review::of(&mut engine, &source.record, &limits, &stop, |ply| {
            bar.inc(1);
            let line = if args.json {
                ply.to_json(number)
            } else {
                ply.to_string()
            };
            out.print(&format!("{line}\n"));
        })
        .with_context(|| format!("reviewing {}", source.label))?;
        let summary = if args.json {
            format!("{}\n", reviewed.summary_json(number))
        } else {
            format!("{}\n", reviewed.summary_text())
        };
        out.print(&summary);
        reviews.push(reviewed);
    }
    bar.finish_and_clear();
    if let Some(e) = out.failure.take() {
        return Err(e).context("writing the review");
    }
    write_files(&args, sources, &reviews, &charts, &budget)?;
    // A batch ends with what was read and what was refused, and why.
    if args.json {
        if !input.refused.is_empty() {
            let refused = serde_json::json!({"read": sources.len(), "refused": input.refused});
            out.print(&format!("{refused}\n"));
        }
    } else if sources.len() + input.refused.len() > 1 {
        out.print(&format!("\n{}", input.summary()));
    }
    if let Some(e) = out.failure.take() {
        return Err(e).context("writing the review");
    }
    if stop.load(Ordering::SeqCst) {
        let judged: usize = reviews.iter().map(|review| review.plies.len()).sum();
        eprintln!("waggle review: interrupted: {judged} of {total} moves judged");
        return Ok(interrupt::exit_code());
    }
    if !input.refused.is_empty() {
        return Ok(ExitCode::from(BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}

/// Standard output, written around the progress bar; a reader that has gone (a closed pipe) ends the printing
/// but not the review.
struct Printer<'a> {
    stdout: io::StdoutLock<'static>,
    bar: &'a ProgressBar,
    /// The reader has gone: print nothing more.
    gone: bool,
    /// A failure to write other than the reader gone.
    failure: Option<io::Error>,
}

impl Printer<'_> {
    /// Print `text` (and flush), unless the reader has gone or writing failed before.
    fn print(&mut self, text: &str) {
        if self.gone || self.failure.is_some() {
            return;
        }
        let stdout = &mut self.stdout;
        match self
            .bar
            .suspend(|| stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()))
        {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => self.gone = true,
            Err(e) => self.failure = Some(e),
        }
    }
}

/// Say why the input cannot be reviewed, and end with [`BAD_INPUT`].
fn bad_input(message: &str) -> Result<ExitCode> {
    eprintln!("waggle review: {message}");
    Ok(ExitCode::from(BAD_INPUT))
}

/// The chart files: `path` itself for one game, `stem-1.svg`, `stem-2.svg`, … for several.
fn chart_paths(path: Option<&Path>, games: usize) -> Vec<PathBuf> {
    let Some(path) = path else {
        return Vec::new();
    };
    if games <= 1 {
        return vec![path.to_path_buf()];
    }
    let stem = path
        .file_stem()
        .map_or("review".into(), |s| s.to_string_lossy().into_owned());
    (1..=games)
        .map(|n| path.with_file_name(format!("{stem}-{n}.svg")))
        .collect()
}

/// What a chart's title calls the game: its players when its record names them, its file, or for a GameString
/// (too long for a title) its type and length.
fn chart_name(source: &Source) -> String {
    let players = source.pgn.as_ref().and_then(|game| {
        let (white, black) = (game.tag("White")?.trim(), game.tag("Black")?.trim());
        (!white.is_empty() && !black.is_empty()).then(|| format!("{white} vs {black}"))
    });
    match players {
        Some(players) => players,
        None if source.typed => format!(
            "A {} game of {} moves",
            source.record.game_type,
            source.record.moves.len()
        ),
        None => source.label.clone(),
    }
}

/// The temporary file that `path` is written to before it is renamed.
fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or("review".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

/// Whether a file can be written at `path`: tried before any search, so that a bad path costs no time.
fn check_writable(path: &Path) -> Result<(), String> {
    if path.is_dir() {
        return Err(format!("{}: is a directory, not a file to write", path.display()));
    }
    let trial = temporary(path);
    std::fs::File::create(&trial).map_err(|e| format!("{}: cannot be written: {e}", path.display()))?;
    let _ = std::fs::remove_file(&trial);
    Ok(())
}

/// Write `text` to `path` whole or not at all: to a temporary file beside it, then renamed.
fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let trial = temporary(path);
    let written = std::fs::write(&trial, text).and_then(|()| std::fs::rename(&trial, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&trial);
    }
    written.with_context(|| format!("writing {}", path.display()))
}

/// The `.pgn` and chart files of the games reviewed (those a Ctrl-C left unreviewed are left out).
fn write_files(args: &Args, sources: &[Source], reviews: &[Review], charts: &[PathBuf], budget: &str) -> Result<()> {
    if let Some(path) = &args.pgn {
        let mut text = String::new();
        for (source, review) in sources.iter().zip(reviews) {
            let mut game = source
                .pgn
                .clone()
                .unwrap_or_else(|| GameRecord::new(source.record.clone(), "", ""));
            game.comments.resize(game.record.moves.len(), None);
            for (comment, judged) in game.comments.iter_mut().zip(review.comments()) {
                *comment = Some(judged);
            }
            game.set_tag(
                "Annotator",
                &format!("waggle review {} ({budget})", env!("CARGO_PKG_VERSION")),
            );
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&game.to_string());
        }
        write_atomically(path, &text)?;
    }
    for ((path, source), review) in charts.iter().zip(sources).zip(reviews) {
        let title = format!("{}: White's win chance", chart_name(source));
        write_atomically(path, &review.chart(&title))?;
    }
    Ok(())
}
