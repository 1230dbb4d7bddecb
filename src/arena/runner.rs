//! A whole match: the engines started once to learn their names, the schedule dealt out to `concurrency`
//! workers (each with its own engine processes), results gathered as games end, written to the results file and
//! as PGN records, and the SPRT checked after each game so that the match stops once a bound is crossed.
//!
//! Owns the match's course; what happens within a game is the referee's, and the words are `report`'s, called
//! by the front end through [`Event`]s.

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use super::process::{EngineProcess, Fault};
use super::referee::{play_game, GameResult, GameSettings, Player};
use super::results::{file_header, summarize, Finished, Summary};
use super::schedule::{schedule, ScheduledGame, Shard};
use super::stats::{sprt, SprtSettings};
use crate::record::notation::GameString;
use crate::record::openings::random_openings;
use crate::record::pgn::GameRecord;
use crate::rules::game_type::GameType;

/// One engine of a match: its command line and, optionally, the name to report it under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line, split as a shell would.
    pub command: String,
    /// The name to use instead of the one in its `id` line.
    pub name: Option<String>,
}

/// Where the games start.
#[derive(Clone, Debug, PartialEq)]
pub enum Openings {
    /// Random openings of this many plies from this seed.
    Random {
        /// Random plies of each opening.
        plies: usize,
        /// The seed: the same seed gives the same openings.
        seed: u64,
    },
    /// These positions, in turn.
    Book(Vec<GameString>),
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines: two for a match, more for a round robin or a gauntlet.
    pub engines: Vec<EngineSpec>,
    /// The first engine against each of the others, instead of everyone against everyone.
    pub gauntlet: bool,
    /// Games per pairing (rounded up to whole pairs).
    pub games: usize,
    /// The game type of random openings.
    pub game_type: GameType,
    /// Where games start.
    pub openings: Openings,
    /// Limits, margins and adjudication.
    pub settings: GameSettings,
    /// Stop once this SPRT decides (two engines only).
    pub sprt: Option<SprtSettings>,
    /// Games played at once.
    pub concurrency: usize,
    /// The slice of the schedule to play.
    pub shard: Shard,
    /// Write one `.pgn` file per game here.
    pub pgn_dir: Option<PathBuf>,
    /// Append each game's result line here.
    pub results_file: Option<PathBuf>,
}

impl MatchConfig {
    /// What tells this match's run from other runs of the same engines in a results file: the game type and the
    /// openings (their plies and seed, or how many were given and a checksum of them).
    fn run_name(&self) -> String {
        match &self.openings {
            Openings::Random { plies, seed } => format!("{} random {plies} seed {seed}", self.game_type),
            Openings::Book(book) => {
                // FNV-1a over the openings' text: the same list gives the same name on any machine and build.
                let mut sum: u64 = 0xcbf2_9ce4_8422_2325;
                for byte in book
                    .iter()
                    .flat_map(|g| g.to_string().into_bytes().into_iter().chain([b'\n']))
                {
                    sum = (sum ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
                }
                format!("{} openings {sum:016x}", book.len())
            }
        }
    }
}

/// What the front end hears while a match runs.
pub enum Event<'a> {
    /// The engines are known; `games` games are to be played.
    Started { names: &'a [String], games: usize },
    /// A game ended; the summary so far.
    Finished {
        game: &'a Finished,
        summary: &'a Summary,
        done: usize,
        total: usize,
    },
    /// The SPRT decided; no new games will start.
    Decided,
}

/// A match that could not be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// Fewer than two engines.
    #[error("a match needs at least two engines")]
    TooFewEngines,
    /// An SPRT asked of a round robin.
    #[error("the SPRT compares two engines: give exactly two")]
    SprtNeedsTwo,
    /// An engine that could not be started (or whose start-up block was wrong).
    #[error("engine {index} ('{command}') {fault}")]
    Start {
        /// The engine, counted from 1 in the order given.
        index: usize,
        /// Its command line.
        command: String,
        /// What went wrong.
        fault: Fault,
    },
    /// Openings asked for that cannot be made (a game type and a number of plies with no playable opening).
    #[error("no opening could be made")]
    NoOpenings,
    /// A results file, a PGN record or the output that could not be written.
    #[error("{path}: {why}")]
    Output {
        /// What was written.
        path: String,
        /// Why it failed.
        why: String,
    },
}

/// What a finished match leaves: the engines' names, every finished game and the summary.
pub struct MatchOutcome {
    pub(crate) names: Vec<String>,
    pub(crate) games: Vec<Finished>,
    pub(crate) summary: Summary,
    /// Games of the schedule (or its shard) in all.
    pub(crate) scheduled: usize,
    /// Whether it was cut short from outside ([`MatchControl`]) before its schedule or the SPRT ended it.
    pub(crate) interrupted: bool,
    /// Games that were in progress when the match was abandoned: not counted, not written.
    pub(crate) abandoned: usize,
    /// Games the referee failed on (a panic: a bug in Waggle), with what the panic said: not counted, not
    /// written; the match went on.
    pub(crate) failed: Vec<(usize, String)>,
}

impl MatchOutcome {
    /// Whether the match was cut short from outside ([`MatchControl`]) before its schedule or its SPRT ended it.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }
}

/// How a game the workers took ended.
enum Ended {
    Played(Box<GameResult>),
    Abandoned,
    Failed(String),
}

/// A handle that cuts a running match short from another thread (Ctrl-C): first no new game starts, then the
/// games in progress are abandoned. Cheap to clone.
#[derive(Clone, Default)]
pub struct MatchControl {
    no_new_games: Arc<AtomicBool>,
    abandon: Arc<AtomicBool>,
}

impl MatchControl {
    /// Start no new game; the games in progress finish and count.
    pub fn finish_running_games(&self) {
        self.no_new_games.store(true, Ordering::SeqCst);
    }

    /// Start no new game and end the games in progress at once, uncounted (their engines are stopped).
    pub fn abandon_running_games(&self) {
        self.finish_running_games();
        self.abandon.store(true, Ordering::SeqCst);
    }

    fn interrupted(&self) -> bool {
        self.no_new_games.load(Ordering::SeqCst)
    }
}

/// Play the match `config` describes, telling `on_event` as it goes; `control` may cut it short.
pub fn run(
    config: &MatchConfig,
    control: &MatchControl,
    mut on_event: impl FnMut(Event),
) -> Result<MatchOutcome, MatchError> {
    if config.engines.len() < 2 {
        return Err(MatchError::TooFewEngines);
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        return Err(MatchError::SprtNeedsTwo);
    }
    let names = engine_names(&config.engines)?;
    let games: Vec<ScheduledGame> = schedule(config.engines.len(), config.gauntlet, config.games)
        .into_iter()
        .filter(|g| config.shard.contains(g))
        .collect();
    let openings = match &config.openings {
        Openings::Book(book) => book.clone(),
        Openings::Random { plies, seed } => {
            let rounds = config.games.div_ceil(2).max(1);
            random_openings(config.game_type, *plies, rounds, *seed)
        }
    };
    if openings.is_empty() {
        return Err(MatchError::NoOpenings);
    }
    let mut results_file = match &config.results_file {
        Some(path) => {
            let mut file = File::create(path).map_err(|e| output_error(path, e))?;
            file.write_all(file_header(&names, config.sprt.as_ref(), &config.run_name()).as_bytes())
                .map_err(|e| output_error(path, e))?;
            Some((path, file))
        }
        None => None,
    };
    if let Some(dir) = &config.pgn_dir {
        fs::create_dir_all(dir).map_err(|e| output_error(dir, e))?;
    }
    on_event(Event::Started {
        names: &names,
        games: games.len(),
    });

    let total = games.len();
    let queue = Arc::new(Mutex::new(games.into_iter().collect::<VecDeque<_>>()));
    let stop = Arc::new(AtomicBool::new(false));
    let (sender, results) = mpsc::channel::<(ScheduledGame, Ended)>();
    let mut workers = Vec::new();
    for _ in 0..config.concurrency.max(1).min(total.max(1)) {
        let (queue, stop, sender, control) = (queue.clone(), stop.clone(), sender.clone(), control.clone());
        let specs = config.engines.clone();
        let (settings, openings) = (config.settings.clone(), openings.clone());
        let names = names.clone();
        workers.push(thread::spawn(move || {
            let mut players: Vec<Player> = specs
                .iter()
                .zip(&names)
                .map(|(s, n)| {
                    let mut player = Player::new(n, &s.command);
                    player.give_up_on(control.abandon.clone());
                    if settings.threefold {
                        player.under_repetition_rule();
                    }
                    player
                })
                .collect();
            while !stop.load(Ordering::SeqCst) && !control.interrupted() {
                let Some(game) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
                    break;
                };
                let opening = &openings[game.opening % openings.len()];
                let (white, black) = two_mut(&mut players, game.white, game.black);
                let ended = match panic::catch_unwind(AssertUnwindSafe(|| play_game(white, black, opening, &settings)))
                {
                    Ok(Some(result)) => Ended::Played(Box::new(result)),
                    Ok(None) => Ended::Abandoned,
                    Err(panic) => {
                        // The engines may be mid-reply: both start afresh for their next game.
                        white.discard();
                        black.discard();
                        Ended::Failed(crate::failure::panic_message(panic.as_ref()))
                    }
                };
                if sender.send((game, ended)).is_err() {
                    break;
                }
            }
            for player in &mut players {
                player.discard();
            }
        }));
    }
    drop(sender);

    let mut finished: Vec<Finished> = Vec::new();
    let mut decided = false;
    let mut abandoned = 0;
    let mut failed = Vec::new();
    for (game, ended) in results {
        let result = match ended {
            Ended::Played(result) => *result,
            Ended::Abandoned => {
                abandoned += 1;
                continue;
            }
            Ended::Failed(message) => {
                failed.push((game.number, message));
                continue;
            }
        };
        let record = Finished {
            game,
            state: result.state,
            forfeit: result.forfeit,
            reason: result.reason.clone(),
            plies: result.record.moves.len(),
            times: result.times,
            overhead: result.overhead,
            clock_left: result.clock_left,
        };
        if let Some((path, file)) = results_file.as_mut() {
            writeln!(file, "{}", record.to_line()).map_err(|e| output_error(path, e))?;
        }
        if let Some(dir) = &config.pgn_dir {
            let path = dir.join(format!("game-{:05}.pgn", game.number));
            let text = pgn_record(&result, &names[game.white], &names[game.black], game.number).to_string();
            fs::write(&path, text).map_err(|e| output_error(&path, e))?;
        }
        finished.push(record);
        let summary = summarize(names.len(), &finished);
        on_event(Event::Finished {
            game: finished.last().expect("just pushed"),
            summary: &summary,
            done: finished.len(),
            total,
        });
        if let (Some(settings), false) = (&config.sprt, decided) {
            if let Some(pairing) = summary.pairings.first() {
                if sprt(settings, &pairing.pairs).verdict.is_some() {
                    decided = true;
                    stop.store(true, Ordering::SeqCst);
                    on_event(Event::Decided);
                }
            }
        }
    }
    for worker in workers {
        let _ = worker.join();
    }
    let summary = summarize(names.len(), &finished);
    Ok(MatchOutcome {
        names,
        interrupted: control.interrupted() && !decided && finished.len() < total,
        games: finished,
        summary,
        scheduled: total,
        abandoned,
        failed,
    })
}

/// The engines' names: the one given, or the `id` line of its start-up block (each engine is started once to
/// read it), made unique with ` (2)`, ` (3)` … when two are the same.
fn engine_names(engines: &[EngineSpec]) -> Result<Vec<String>, MatchError> {
    let mut names: Vec<String> = Vec::new();
    for (index, spec) in engines.iter().enumerate() {
        let (process, info) = EngineProcess::start(&spec.command).map_err(|fault| MatchError::Start {
            index: index + 1,
            command: spec.command.clone(),
            fault,
        })?;
        process.close();
        let id = info
            .iter()
            .find_map(|line| line.strip_prefix("id "))
            .map(|id| id.trim().to_string())
            .filter(|id| !id.is_empty());
        let base = spec.name.clone().or(id).unwrap_or_else(|| spec.command.clone());
        let mut name = base.clone();
        let mut n = 1;
        while names.contains(&name) {
            n += 1;
            name = format!("{base} ({n})");
        }
        names.push(name);
    }
    Ok(names)
}

/// The PGN record of a finished game, with the reason it ended and each move's comment.
fn pgn_record(result: &GameResult, white: &str, black: &str, number: usize) -> GameRecord {
    let mut pgn = GameRecord::new(result.record.clone(), white, black);
    pgn.set_tag("Event", "waggle match");
    pgn.set_tag("Round", &number.to_string());
    pgn.set_tag("Termination", &result.reason);
    pgn.comments = result.comments.clone();
    pgn.comments.resize(result.record.moves.len(), None);
    pgn
}

/// Mutable references to two different players.
fn two_mut(players: &mut [Player], a: usize, b: usize) -> (&mut Player, &mut Player) {
    debug_assert_ne!(a, b, "an engine never plays itself");
    if a < b {
        let (low, high) = players.split_at_mut(b);
        (&mut low[a], &mut high[0])
    } else {
        let (low, high) = players.split_at_mut(a);
        (&mut high[0], &mut low[b])
    }
}

fn output_error(path: &std::path::Path, e: std::io::Error) -> MatchError {
    MatchError::Output {
        path: path.display().to_string(),
        why: e.to_string(),
    }
}
