//! `waggle db add`: records imported into the database. The records are read and replayed on a thread of their own
//! (`input`'s walk, the same reading as `waggle review` and `waggle convert`) while this thread writes batches;
//! a bar on stderr shows the games read and how many a second. Ctrl-C stops the reading, commits the games read
//! so far and says what was done; a game is always wholly in or out.

use std::collections::HashSet;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::sync::Arc;
use std::thread;

use anyhow::Result;
use clap::Args as ClapArgs;
use waggle::db::{file_digest, Database, NewGame};
use waggle::Rules;

use super::super::bar::counter;
use super::super::input::{self, Source, Visitor};
use super::super::interrupt;
use super::DbPath;

/// The exit status when a game was refused (the others are still added).
const REFUSED: u8 = 2;

#[derive(ClapArgs)]
pub struct Args {
    /// The games: files (BoardSpace .sgf, .pgn, games files, GameStrings a line), directories of .pgn and .sgf
    /// files (sub-folders too), GameStrings, or `-` for standard input.
    #[arg(value_name = "FILE", required = true)]
    games: Vec<String>,
    #[command(flatten)]
    db: DbPath,
}

/// What the reading thread sends the writing one.
enum Read {
    /// A game ready to store.
    Game(Box<NewGame>),
    /// A game (or a file) that cannot be read, and why.
    Refused(String),
    /// A file read whole: its content's digest, its name, its games read and refused.
    FileDone(i64, String, usize, usize),
    /// A file passed over: the database has read the same content before.
    Known,
}

/// The reading side: each game made ready and sent on, until Ctrl-C.
struct Reader {
    send: SyncSender<Read>,
    known: HashSet<i64>,
    stop: Arc<AtomicBool>,
    /// The file being read: its digest and its games read and refused so far.
    file: Option<(i64, usize, usize)>,
}

impl Visitor for Reader {
    fn file(&mut self, _name: &str, bytes: &[u8]) -> bool {
        let digest = file_digest(bytes);
        if self.known.contains(&digest) {
            let _ = self.send.send(Read::Known);
            return false;
        }
        self.file = Some((digest, 0, 0));
        true
    }

    fn game(&mut self, read: Result<Source, String>) -> bool {
        let message = match read {
            Ok(source) => {
                let tags: Vec<(String, String)> = (source.pgn.iter())
                    .flat_map(|pgn| pgn.tags().map(|(name, value)| (name.to_string(), value.to_string())))
                    .collect();
                let game = NewGame::of(&source.game, &tags, source.result, &source.label);
                if let Some((_, games, _)) = self.file.as_mut() {
                    *games += 1;
                }
                Read::Game(Box::new(game))
            }
            Err(why) => {
                if let Some((_, _, refused)) = self.file.as_mut() {
                    *refused += 1;
                }
                Read::Refused(why)
            }
        };
        self.send.send(message).is_ok() && !self.stop.load(Ordering::SeqCst)
    }

    fn file_done(&mut self, name: &str) {
        if let Some((digest, games, refused)) = self.file.take() {
            let _ = self.send.send(Read::FileDone(digest, name.to_string(), games, refused));
        }
    }
}

pub fn run(args: Args) -> Result<ExitCode> {
    let path = args.db.path()?;
    let mut database = Database::open(&path)?;
    eprintln!("waggle db: adding to {}", path.display());
    let stop = interrupt::flag()?;
    let known = database.files_read()?;
    let mut importer = database.importer()?;
    let (send, receive) = sync_channel(1024);
    let mut reader = Reader {
        send,
        known,
        stop: stop.clone(),
        file: None,
    };
    let games = args.games.clone();
    let reading = thread::spawn(move || input::walk(&games, Rules::default(), &mut reader));
    let bar = counter("{pos} games read ({per_sec}), {elapsed}");
    let (mut refused, mut known) = (Vec::new(), 0);
    for read in receive {
        match read {
            Read::Game(game) => {
                bar.inc(1);
                importer.add(*game)?;
            }
            Read::Refused(why) => refused.push(why),
            // A file with a game refused is read again next time, to name it again (its other games are
            // passed over as copies).
            Read::FileDone(digest, name, games, 0) => importer.file_read(digest, &name, games, 0),
            Read::FileDone(..) => {}
            Read::Known => known += 1,
        }
    }
    let finished = reading.join().unwrap_or(false);
    let added = importer.finish()?;
    bar.finish_and_clear();
    let mut summary = format!(
        "waggle db: {} added to {} ({} already there",
        plural(added.games, "game"),
        path.display(),
        added.copies
    );
    if known > 0 {
        summary.push_str(&format!("; {} read before, passed over", plural(known, "file")));
    }
    summary.push_str(&format!("), refused {}", refused.len()));
    summary.push_str(if refused.is_empty() { "\n" } else { ":\n" });
    for why in &refused {
        summary.push_str(&format!("  {why}\n"));
    }
    eprint!("{summary}");
    if !finished {
        eprintln!(
            "waggle db: stopped by Ctrl-C: the games above are in; run the same command again to add the rest \
             (the games already in are passed over)"
        );
        return Ok(interrupt::exit_code());
    }
    Ok(if refused.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(REFUSED)
    })
}

/// `count` things, in words: `1 game`, `3 games`.
fn plural(count: usize, thing: &str) -> String {
    if count == 1 {
        format!("1 {thing}")
    } else {
        format!("{count} {thing}s")
    }
}
