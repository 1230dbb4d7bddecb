//! `waggle puzzles`: mine games for puzzles (every position of every game, or with `--from-review` the positions
//! before a player's mistakes) into a file of one JSON record a line. The puzzles are appended as each game is
//! mined, with the game's number in a progress file beside it (`OUT.progress`), and the whole file is written
//! again in the games' order, without repeats, at the end: the same games and flags give the same file. The
//! first Ctrl-C keeps what was found (the file and the progress file, which `--resume` goes on from); a second
//! quits at once.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args as ClapArgs;
use waggle::puzzles::{self, read_puzzles, GameToMine, MineOptions, Mined, Puzzle, Source, Summary};
use waggle::review::Review;
use waggle::{Limits, Options, Rules};

use super::bar::progress_bar;
use super::input::{self, Source as Input};
use super::interrupt;

/// The exit status for input that cannot be read (a file that does not exist, an illegal move, …).
const BAD_INPUT: u8 = 2;

#[derive(ClapArgs)]
pub struct Args {
    /// The games: .pgn and BoardSpace .sgf files, games files (as `waggle selfplay` writes them), GameStrings,
    /// directories of .pgn and .sgf files (and their folders), or `-` for standard input. A game that cannot be
    /// read is refused with the reason, and the others mined.
    #[arg(value_name = "GAME", required = true)]
    games: Vec<String>,
    /// Write the puzzles to this file, one JSON record a line (docs/puzzles.md).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// N: keep positions with exactly one move that forces a win (or escapes a forced loss) within N plies.
    #[arg(long, value_name = "N", default_value_t = puzzles::DEFAULT_PLIES,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(puzzles::MAX_PLIES)))]
    plies: u32,
    /// Games mined at once, one a thread.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Mine only the I-th of N shares of the games (games I, I+N, I+2N … counted from 1), for a cluster; the
    /// shares' files join with `waggle puzzles --join`.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// At most K puzzles from each game, and the positions along a puzzle's forced line not examined: for a set
    /// drawn from many games, varied rather than one long game's shuffles.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    per_game: Option<u32>,
    /// Mine only the first N games read (in the order the files are named, then the order within each file): a
    /// run cut short at game N, without the games after it that other threads had begun.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    first: Option<u32>,
    /// Go on from the file and its progress file, which an interrupted run of the same command left.
    #[arg(long)]
    resume: bool,
    /// Give up a position whose proof takes more than this many nodes (counted in the summary).
    #[arg(long, value_name = "NODES", default_value_t = MineOptions::default().budget)]
    budget: u64,
    /// Only the positions before the moves a review marks as turning a game that was not lost into a lost one
    /// (or letting a win go): a player's own mistakes. Each game is reviewed first.
    #[arg(long)]
    from_review: bool,
    /// With --from-review, only this player's mistakes (the name a record's White or Black tag gives).
    #[arg(long, value_name = "NAME", requires = "from_review")]
    player: Option<String>,
    /// With --from-review, the nodes of the review's search of each position.
    #[arg(long, value_name = "N", default_value_t = 50_000, requires = "from_review")]
    review_nodes: u64,
    /// Join puzzle files (the shares of a run) into --out instead of mining: in the games' order, repeats dropped.
    #[arg(long, conflicts_with_all = ["resume", "from_review", "shard", "first"])]
    join: bool,
}

/// `I/N`, with 1 <= I <= N.
fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{text}' is not a share: expected I/N, such as 2/4, with I from 1 to N");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || n == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

pub fn run(args: Args) -> Result<ExitCode> {
    if args.join {
        return join(&args);
    }
    let mut input = input::read_all(&args.games, Rules::default());
    if let Some(first) = args.first {
        input.sources.truncate(first as usize);
    }
    for refusal in &input.refused {
        eprintln!("waggle puzzles: {refusal}");
    }
    if input.sources.is_empty() {
        return Ok(ExitCode::from(BAD_INPUT));
    }
    let (share, shares) = args.shard.unwrap_or((1, 1));
    let progress_path = progress_path(&args.out);
    let header = format!(
        "# waggle puzzles progress: {} games, plies {}, budget {}{}, shard {share}/{shares}{}",
        input.sources.len(),
        args.plies,
        args.budget,
        args.per_game.map_or(String::new(), |k| format!(", {k} a game")),
        if args.from_review {
            format!(
                ", from review ({} nodes){}",
                args.review_nodes,
                args.player.as_deref().map_or(String::new(), |p| format!(" of {p}"))
            )
        } else {
            String::new()
        }
    );
    let (kept, done) = if args.resume {
        resumed(&args.out, &progress_path, &header)?
    } else {
        (Vec::new(), HashSet::new())
    };
    let games: Vec<GameToMine> = input
        .sources
        .iter()
        .enumerate()
        .filter(|(index, _)| index % shares == share - 1 && !done.contains(&(index + 1)))
        .map(|(index, source)| to_mine(index + 1, source))
        .collect();
    let mut files = Files::start(&args.out, &progress_path, &header, args.resume)?;

    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    interrupt::on_press(move |presses| {
        if presses == 1 {
            flag.store(true, Ordering::SeqCst);
        } else {
            eprintln!("\nwaggle puzzles: interrupted; the games mined so far are in the file and its progress file");
            std::process::exit(i32::from(interrupt::INTERRUPTED));
        }
    })?;
    let options = MineOptions {
        plies: args.plies,
        threads: args.threads as usize,
        budget: args.budget,
        per_game: args.per_game.map(|k| k as usize),
    };
    let started = Instant::now();
    let mut summary = Summary::default();
    let mut failure = None;
    if args.from_review {
        from_review(&args, &games, &options, &stop, &mut files, &mut summary, &mut failure)?;
    } else {
        let total: usize = games.iter().map(|g| g.game.record().len() + 1).sum();
        let bar = progress_bar(total as u64, "{pos}/{len} positions, {msg}, {eta} left");
        bar.set_message("0 puzzles");
        let found = Mutex::new(0usize);
        let mined = puzzles::mine(
            &games,
            &options,
            &stop,
            || bar.inc(1),
            |mined: Mined| {
                summary.add(&mined);
                if let Ok(mut found) = found.lock() {
                    *found += mined.puzzles.len();
                    bar.set_message(format!("{found} puzzles"));
                }
                if failure.is_none() {
                    failure = files.add(mined.index, &mined.puzzles).err();
                }
            },
        );
        bar.finish_and_clear();
        mined.context("mining")?;
    }
    if let Some(e) = failure {
        return Err(e);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let interrupted = stop.load(Ordering::SeqCst);
    let (written, repeats) = files.finish(kept, !interrupted)?;
    let rate = summary.positions as f64 / elapsed.max(1e-9);
    let kept = format!(
        "{} kept in {} ({} dropped)",
        count(written, "puzzle"),
        args.out.display(),
        count(repeats, "repeat")
    );
    if args.from_review {
        println!(
            "Reviewed {} of {} games ({} moves) in {elapsed:.1} s; {} in the positions before their mistakes, {kept}.",
            summary.games,
            games.len(),
            summary.positions,
            count(summary.puzzles, "puzzle")
        );
    } else {
        println!(
            "Mined {} of {} games ({}) in {elapsed:.1} s: {rate:.1} positions/s, {:.2} M proof nodes/s; {} found, \
             {kept}; {} given up (more than {} nodes).",
            summary.games,
            games.len(),
            count(summary.positions, "position"),
            summary.nodes as f64 / elapsed.max(1e-9) / 1e6,
            count(summary.puzzles, "puzzle"),
            count(summary.gave_up, "position"),
            args.budget
        );
    }
    if input.sources.len() + input.refused.len() > 1 {
        print!("{}", input.summary());
    }
    if interrupted {
        eprintln!(
            "waggle puzzles: interrupted: {} of {} games mined; the same command with --resume goes on",
            summary.games,
            games.len()
        );
        return Ok(interrupt::exit_code());
    }
    if !input.refused.is_empty() {
        return Ok(ExitCode::from(BAD_INPUT));
    }
    Ok(ExitCode::SUCCESS)
}

/// The game `source`, the `index`-th read, to mine.
fn to_mine(index: usize, source: &Input) -> GameToMine {
    let tag = |name: &str| {
        source
            .pgn
            .as_ref()
            .and_then(|pgn| pgn.tag(name))
            .map(str::trim)
            .filter(|value| !value.is_empty() && *value != "?")
            .map(String::from)
    };
    GameToMine {
        game: source.game.clone(),
        source: Source {
            file: source.file.clone(),
            game: Some(source.label.clone()),
            index,
            ply: 0,
            white: tag("White"),
            black: tag("Black"),
            date: tag("Date"),
            played: None,
        },
    }
}

/// `--from-review`: each game reviewed, then the positions before its turning mistakes examined.
fn from_review(
    args: &Args,
    games: &[GameToMine],
    options: &MineOptions,
    stop: &Arc<AtomicBool>,
    files: &mut Files,
    summary: &mut Summary,
    failure: &mut Option<anyhow::Error>,
) -> Result<()> {
    let mut engine = waggle::Engine::new(Options {
        opening_book: false,
        max_hash_size: waggle::HashSize::megabytes(32)?,
        ..Options::default()
    })?;
    let mut rater = puzzles::rating_engine()?;
    let total: usize = games.iter().map(|g| g.game.record().len()).sum();
    let bar = progress_bar(total as u64, "{pos}/{len} moves reviewed, {msg}, {eta} left");
    bar.set_message("0 puzzles");
    let mut found = 0;
    for mined in games {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let review = Review::of_game(
            &mut engine,
            &mined.game,
            &Limits::nodes(args.review_nodes),
            stop,
            |_| bar.inc(1),
        )?;
        if !review.is_complete() {
            break;
        }
        let player = match &args.player {
            None => None,
            Some(name) => {
                let named = |side: &Option<String>| side.as_deref().is_some_and(|s| s.eq_ignore_ascii_case(name));
                match (named(&mined.source.white), named(&mined.source.black)) {
                    (true, _) => Some(waggle::Color::White),
                    (_, true) => Some(waggle::Color::Black),
                    // Neither side is the player: nothing of theirs in this game.
                    _ => continue,
                }
            }
        };
        let puzzles = puzzles::from_review(&mut rater, &review, &mined.game, player, &mined.source, options, stop)?;
        if stop.load(Ordering::SeqCst) {
            break;
        }
        found += puzzles.len();
        bar.set_message(format!("{found} puzzles"));
        summary.add(&Mined {
            index: mined.source.index,
            positions: review.plies.len(),
            puzzles: puzzles.clone(),
            ..Mined::default()
        });
        if let Err(e) = files.add(mined.source.index, &puzzles) {
            *failure = Some(e);
            break;
        }
    }
    bar.finish_and_clear();
    Ok(())
}

/// `--join`: the puzzle files named as games joined into `--out`.
fn join(args: &Args) -> Result<ExitCode> {
    let mut all = Vec::new();
    let mut refused = 0;
    for name in &args.games {
        let text = std::fs::read_to_string(name).with_context(|| format!("reading {name}"))?;
        let read = read_puzzles(&text);
        for refusal in &read.refused {
            eprintln!("waggle puzzles: {name}, {refusal}");
        }
        refused += read.refused.len();
        all.extend(read.puzzles);
    }
    let (written, repeats) = write_in_order(&args.out, all)?;
    println!(
        "Joined {}: {} in {} ({} dropped).",
        count(args.games.len(), "file"),
        count(written, "puzzle"),
        args.out.display(),
        count(repeats, "repeat")
    );
    Ok(if refused > 0 {
        ExitCode::from(BAD_INPUT)
    } else {
        ExitCode::SUCCESS
    })
}

/// `1 puzzle`, `2 puzzles`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The progress file beside `out`.
fn progress_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

/// What an interrupted run left: the puzzles of its file and the games its progress file says were mined, when
/// the progress file was made by the same command (`header`).
fn resumed(out: &Path, progress: &Path, header: &str) -> Result<(Vec<Puzzle>, HashSet<usize>)> {
    let Ok(text) = std::fs::read_to_string(progress) else {
        bail!(
            "{}: there is nothing to resume from (no progress file: the run finished, or never started)",
            progress.display()
        );
    };
    let mut lines = text.lines();
    if lines.next() != Some(header) {
        bail!(
            "{}: made by a run with other games or flags; run the same command again to resume, or without \
             --resume to start afresh",
            progress.display()
        );
    }
    let done = lines.filter_map(|line| line.trim().parse().ok()).collect();
    let puzzles = match std::fs::read_to_string(out) {
        Ok(text) => read_puzzles(&text).puzzles,
        Err(_) => Vec::new(),
    };
    Ok((puzzles, done))
}

/// The output file and its progress file, appended to as games are mined.
struct Files {
    out: PathBuf,
    progress: PathBuf,
    appended: Vec<Puzzle>,
    out_file: std::fs::File,
    progress_file: std::fs::File,
}

impl Files {
    /// Open the files: afresh (the progress file starting with `header`), or to go on with `resume`.
    fn start(out: &Path, progress: &Path, header: &str, resume: bool) -> Result<Files> {
        if out.is_dir() {
            bail!("{}: is a directory, not a file to write", out.display());
        }
        let open = |path: &Path| {
            OpenOptions::new()
                .create(true)
                .append(resume)
                .write(true)
                .truncate(!resume)
                .open(path)
                .with_context(|| format!("{}: cannot be written", path.display()))
        };
        let out_file = open(out)?;
        let mut progress_file = open(progress)?;
        if !resume {
            writeln!(progress_file, "{header}").with_context(|| format!("writing {}", progress.display()))?;
        }
        Ok(Files {
            out: out.to_path_buf(),
            progress: progress.to_path_buf(),
            appended: Vec::new(),
            out_file,
            progress_file,
        })
    }

    /// The puzzles of the game numbered `index`, mined to its end.
    fn add(&mut self, index: usize, puzzles: &[Puzzle]) -> Result<()> {
        for puzzle in puzzles {
            writeln!(self.out_file, "{}", puzzle.to_json_line())
                .with_context(|| format!("writing {}", self.out.display()))?;
        }
        self.out_file.flush()?;
        writeln!(self.progress_file, "{index}").with_context(|| format!("writing {}", self.progress.display()))?;
        self.progress_file.flush()?;
        self.appended.extend_from_slice(puzzles);
        Ok(())
    }

    /// Write the file again with `kept` (from before a resume) and what was added, in order and without repeats;
    /// the progress file is removed when the run is `complete`. Returns the puzzles written and the repeats
    /// dropped.
    fn finish(self, mut kept: Vec<Puzzle>, complete: bool) -> Result<(usize, usize)> {
        kept.extend(self.appended);
        drop(self.out_file);
        drop(self.progress_file);
        let written = write_in_order(&self.out, kept)?;
        if complete {
            let _ = std::fs::remove_file(&self.progress);
        }
        Ok(written)
    }
}

/// Write `puzzles` to `path` in the games' order (then by ply), each position once (its first): whole or not at
/// all. Returns the puzzles written and the repeats dropped.
fn write_in_order(path: &Path, mut puzzles: Vec<Puzzle>) -> Result<(usize, usize)> {
    puzzles.sort_by_key(|p| {
        (
            p.source.index,
            p.source.ply,
            p.source.file.clone(),
            p.source.game.clone(),
        )
    });
    let mut seen = HashSet::new();
    let total = puzzles.len();
    puzzles.retain(|p| seen.insert(p.id.clone()));
    let mut text = String::new();
    for puzzle in &puzzles {
        text.push_str(&puzzle.to_json_line());
        text.push('\n');
    }
    let name = path
        .file_name()
        .map_or("puzzles".into(), |n| n.to_string_lossy().into_owned());
    let trial = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let written = std::fs::write(&trial, text).and_then(|()| std::fs::rename(&trial, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&trial);
    }
    written.with_context(|| format!("writing {}", path.display()))?;
    Ok((puzzles.len(), total - puzzles.len()))
}
