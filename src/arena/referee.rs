//! One game between two engines, refereed as the Engine model of the remote-play proposal describes: both
//! engines get the same `newgame` and `play` commands, the side to move is asked for `bestmove`, every move is
//! checked with Waggle's own rules, and both engines must agree about the game after each move.
//!
//! Owns the game loop, the clocks and the reasons a game ends. An engine that crashes, hangs, answers `err`,
//! plays an illegal move, refuses a legal one, disagrees about the game or runs out of time loses the game; its
//! process is dropped and started afresh for its next game.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::process::{EngineProcess, Fault};
use crate::engine::EngineOption;
use crate::record::game::Game;
use crate::record::notation::{GameString, MoveString};
use crate::rules::piece::Color;
use crate::rules::position::{GameState, Rules};
use crate::search::{move_time, Clocks, SideClock};
use crate::uhp::{Command, InfoLine, Outcome, Reply, SearchLimit};

/// How long each move may take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveLimit {
    /// A fixed time per move (`bestmove time`).
    Time(Duration),
    /// A fixed depth (`bestmove depth`).
    Depth(u32),
    /// A fixed number of nodes (`bestmove nodes`, an extension of Waggle's): games that do not depend on the
    /// machine's speed or load.
    Nodes(u64),
    /// A chess clock: each side starts with `base` and gains `increment` after each of its moves.
    Clock {
        /// Each side's time at the start.
        base: Duration,
        /// The time each side gains after each of its moves.
        increment: Duration,
    },
}

/// The rules of play that are the referee's own.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSettings {
    /// How long each move may take.
    pub limit: MoveLimit,
    /// How late a reply may be past its time (or its clock) before it forfeits the game.
    pub margin: Duration,
    /// How long any other reply may take: `newgame`, `play`, and `bestmove` at a fixed depth.
    pub timeout: Duration,
    /// Adjudicate the game as a draw once this many plies have been played.
    pub max_plies: Option<usize>,
    /// Adjudicate the game as a draw when a position occurs for the third time.
    pub threefold: bool,
}

/// An engine taking part in a match: its name, its command line, and its process while it runs.
pub struct Player {
    /// The name results are reported under.
    pub name: String,
    command: String,
    process: Option<EngineProcess>,
    /// Raised when the match is abandoned: the engine's replies are no longer waited for.
    give_up: Option<Arc<AtomicBool>>,
    /// Whether the referee draws a game at a position's third occurrence, which the engine is told when it starts.
    repetition_rule: bool,
}

impl Player {
    /// A player that will run `command` (started when first needed).
    pub fn new(name: impl Into<String>, command: impl Into<String>) -> Player {
        Player {
            name: name.into(),
            command: command.into(),
            process: None,
            give_up: None,
            repetition_rule: false,
        }
    }

    /// The referee draws a game when a position occurs for the third time (`GameSettings::threefold`): each time
    /// the engine starts, if its `options` offer `ThreefoldRepetitionDraw` it is set on, so that its search knows
    /// the rule it plays under. An engine without that option plays on as it is.
    pub fn under_repetition_rule(&mut self) {
        self.repetition_rule = true;
    }

    /// Stop waiting for the engine's replies once `flag` is raised: the game in progress is abandoned.
    pub fn give_up_on(&mut self, flag: Arc<AtomicBool>) {
        self.give_up = Some(flag);
    }

    /// The running process, started first if need be.
    fn process(&mut self) -> Result<&mut EngineProcess, Fault> {
        if self.process.is_none() {
            let (mut process, _info) = EngineProcess::start(&self.command)?;
            if let Some(flag) = &self.give_up {
                process.give_up_on(flag.clone());
            }
            if self.repetition_rule {
                announce_repetition_rule(&mut process)?;
            }
            self.process = Some(process);
        }
        self.process.as_mut().ok_or(Fault::Closed)
    }

    /// Stop the process: after a fault, the engine starts afresh for its next game.
    pub fn discard(&mut self) {
        if let Some(process) = self.process.take() {
            process.close();
        }
    }

    /// The last lines the engine wrote to stderr, if it runs.
    fn stderr_tail(&self) -> Vec<String> {
        self.process
            .as_ref()
            .map(EngineProcess::stderr_tail)
            .unwrap_or_default()
    }
}

/// How long an engine may take to list its options and to set one.
const OPTIONS_TIMEOUT: Duration = Duration::from_secs(10);

/// Set `ThreefoldRepetitionDraw` on in an engine whose `options` list it. An engine that answers `options` with an
/// error (the command is optional in UHP) does not have it; one that lists it and then refuses it is at fault.
fn announce_repetition_rule(process: &mut EngineProcess) -> Result<(), Fault> {
    let option = EngineOption::ThreefoldRepetitionDraw;
    let listed = process.ask(&Command::Options, Instant::now() + OPTIONS_TIMEOUT)?;
    let offered = listed.outcome == Outcome::Ok
        && listed.lines.iter().any(|line| {
            line.split(';')
                .next()
                .is_some_and(|name| name.trim().eq_ignore_ascii_case(option.name()))
        });
    if !offered {
        return Ok(());
    }
    let set = Command::OptionsSet(option, "True".into());
    match process.ask(&set, Instant::now() + OPTIONS_TIMEOUT)?.outcome {
        Outcome::Ok => Ok(()),
        Outcome::Err(message) | Outcome::InvalidMove(message) => Err(Fault::Start(format!(
            "it lists {option} in its options but answered '{set}' with: {message}"
        ))),
    }
}

/// How long one side's moves took, from sending `bestmove` to reading its `ok`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTimes {
    /// Moves timed.
    pub moves: u32,
    /// Their total time.
    pub total: Duration,
    /// The longest.
    pub worst: Duration,
}

impl MoveTimes {
    fn add(&mut self, took: Duration) {
        self.moves += 1;
        self.total += took;
        self.worst = self.worst.max(took);
    }

    /// Add another side's times (of the same engine in another game).
    pub fn merge(&mut self, other: MoveTimes) {
        self.moves += other.moves;
        self.total += other.total;
        self.worst = self.worst.max(other.worst);
    }

    /// The mean time per move, if any move was timed.
    pub fn mean(&self) -> Option<Duration> {
        (self.moves > 0).then(|| self.total / self.moves)
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// `WhiteWins`, `BlackWins` or `Draw`.
    pub state: GameState,
    /// Why, in words: `Black's Queen is surrounded`, `White forfeits: …`, `adjudicated: 300 plies`.
    pub reason: String,
    /// The side that forfeited, if one did.
    pub forfeit: Option<Color>,
    /// The game as played, opening included (canonical MoveStrings).
    pub record: GameString,
    /// A comment for each move of the record (time and score of moves the engines chose; none for the opening).
    pub comments: Vec<Option<String>>,
    /// Move times of White (index 0) and Black (index 1).
    pub times: [MoveTimes; 2],
    /// The referee's own time between an engine's `ok` and its next command, and how many such gaps.
    pub overhead: (Duration, u32),
    /// Under a clock, the time White and Black had left at the end.
    pub clock_left: Option<[Duration; 2]>,
}

/// A game that stops early: one side loses, for a reason.
struct Forfeit {
    loser: Color,
    reason: String,
    /// Not a loss after all: the match was abandoned while the engine was thinking.
    abandoned: bool,
}

/// Play one game from `opening` (a position both engines are given with `newgame`) between `white` and `black`;
/// `None` when the match was abandoned before the game ended (the players' give-up flag).
pub fn play_game(
    white: &mut Player,
    black: &mut Player,
    opening: &GameString,
    settings: &GameSettings,
) -> Option<GameResult> {
    let rules = Rules {
        threefold_draw: settings.threefold,
    };
    let mut game = match Game::from_record(opening, rules) {
        Ok(game) => game,
        Err(e) => {
            // The schedule only gives playable openings; should one slip through, nobody is to blame.
            let mut record = opening.clone();
            record.state = Some(GameState::Draw);
            return Some(GameResult {
                state: GameState::Draw,
                reason: format!("the opening cannot be played: {e}"),
                forfeit: None,
                comments: vec![None; record.moves.len()],
                record,
                times: Default::default(),
                overhead: (Duration::ZERO, 0),
                clock_left: None,
            });
        }
    };
    let mut referee = Referee {
        players: [white, black],
        settings,
        comments: vec![None; game.record().len()],
        times: Default::default(),
        clocks: match settings.limit {
            MoveLimit::Clock { base, .. } => [base, base],
            _ => [Duration::ZERO; 2],
        },
        last_ok: None,
        overhead: (Duration::ZERO, 0),
        moves_text: game.record().iter().map(|m| format!(";{m}")).collect(),
    };
    let ended = referee.run(&mut game);
    let (state, reason, forfeit) = match ended {
        // A game the rules did not end was adjudicated: a draw.
        Ok(reason) if !game.state().is_over() => (GameState::Draw, reason, None),
        Ok(reason) => (game.state(), reason, None),
        Err(Forfeit { abandoned: true, .. }) => return None,
        Err(Forfeit { loser, reason, .. }) => {
            let state = match loser {
                Color::White => GameState::BlackWins,
                Color::Black => GameState::WhiteWins,
            };
            let name = &referee.players[loser.index()].name;
            let mut reason = format!("{} ({name}) forfeits: {reason}", loser.name());
            let tail = referee.players[loser.index()].stderr_tail();
            if !tail.is_empty() {
                reason.push_str(&format!(" [stderr: {}]", tail.join(" | ")));
            }
            referee.players[loser.index()].discard();
            (state, reason, Some(loser))
        }
    };
    let mut record = game.game_string();
    record.state = Some(state);
    let overhead = referee.overhead;
    let clock_left = matches!(settings.limit, MoveLimit::Clock { .. }).then_some(referee.clocks);
    Some(GameResult {
        state,
        reason,
        forfeit,
        record,
        comments: referee.comments,
        times: referee.times,
        overhead,
        clock_left,
    })
}

/// The state of one game in progress.
struct Referee<'a> {
    players: [&'a mut Player; 2],
    settings: &'a GameSettings,
    comments: Vec<Option<String>>,
    times: [MoveTimes; 2],
    /// Time left on each side's clock, under a clock.
    clocks: [Duration; 2],
    /// When the last reply was read: the referee's own time runs from there to its next command.
    last_ok: Option<Instant>,
    /// The referee's own time between a reply and the next command, summed, and the gaps counted.
    overhead: (Duration, u32),
    /// The moves of the game as its GameString ends, `;wS1;bS1 wS1-…`, kept as moves are played so that the
    /// GameString an engine should answer costs no replay.
    moves_text: String,
}

impl Referee<'_> {
    /// Play until the game ends: `Ok` with the reason the rules or the referee ended it, or the forfeit.
    fn run(&mut self, game: &mut Game) -> Result<String, Forfeit> {
        let opening = game.game_string();
        for color in Color::ALL {
            let command = Command::NewGame(Some(opening.clone()));
            let reply = self.ask(color, &command, self.settings.timeout)?;
            self.check_agreement(color, &reply, game, "newgame")?;
        }
        loop {
            if game.state().is_over() {
                return Ok(describe_end(game));
            }
            if self.settings.max_plies.is_some_and(|max| game.record().len() >= max) {
                return Ok(format!("adjudicated as a draw after {} plies", game.record().len()));
            }
            let mover = game.position().to_move();
            let played = self.ask_move(mover, game)?;
            for color in Color::ALL {
                let reply = self.ask(color, &Command::Play(played), self.settings.timeout)?;
                self.check_agreement(color, &reply, game, &format!("play {played}"))?;
            }
        }
    }

    /// Ask `mover` for its move, time it, check it and play it in `game`; returns its canonical MoveString.
    fn ask_move(&mut self, mover: Color, game: &mut Game) -> Result<MoveString, Forfeit> {
        let side = mover.index();
        let (limit, allowed) = match self.settings.limit {
            MoveLimit::Time(time) => (SearchLimit::Time(time), time),
            MoveLimit::Depth(depth) => (SearchLimit::Depth(depth), self.settings.timeout),
            MoveLimit::Nodes(nodes) => (SearchLimit::Nodes(nodes), self.settings.timeout),
            MoveLimit::Clock { increment, .. } => {
                let (left, theirs) = (self.clocks[side], self.clocks[1 - side]);
                let clock_aware = self.players[side].process().is_ok_and(|p| p.clock_aware());
                let limit = if clock_aware {
                    SearchLimit::Clock {
                        own: left,
                        own_increment: increment,
                        opponent: theirs,
                        opponent_increment: increment,
                    }
                } else {
                    SearchLimit::Time(time_from_clock(left, increment, theirs))
                };
                (limit, left)
            }
        };
        let timed = matches!(self.settings.limit, MoveLimit::Time(_) | MoveLimit::Clock { .. });
        let budget = if timed { allowed + self.settings.margin } else { allowed };
        let start = Instant::now();
        let reply = match self.ask(mover, &Command::BestMove(limit), budget) {
            Err(Forfeit { reason, .. }) if timed && reason.starts_with("did not answer") => {
                return Err(self.lost(
                    mover,
                    format!("lost on time: no move within {:.3} s", budget.as_secs_f64()),
                ));
            }
            other => other?,
        };
        let took = start.elapsed();
        self.times[side].add(took);
        if timed && took > budget {
            return Err(self.lost(
                mover,
                format!(
                    "lost on time: {:.3} s for a {:.3} s allowance",
                    took.as_secs_f64(),
                    allowed.as_secs_f64()
                ),
            ));
        }
        if let MoveLimit::Clock { increment, .. } = self.settings.limit {
            self.clocks[side] = self.clocks[side].saturating_sub(took) + increment;
        }
        let Some(text) = reply.last_line().map(str::to_string) else {
            return Err(self.lost(mover, "answered bestmove without a move".into()));
        };
        let mv = match game.resolve(&text) {
            Ok(mv) => mv,
            Err(e) => {
                return Err(self.lost(
                    mover,
                    format!("answered '{}', which is not a move here: {e}", clip(&text)),
                ))
            }
        };
        let played = match game.play(mv) {
            Ok(played) => played,
            Err(e) => return Err(self.lost(mover, format!("played the illegal move '{}': {e}", clip(&text)))),
        };
        self.comments.push(Some(move_comment(&reply, &text, took)));
        self.moves_text.push(';');
        self.moves_text.push_str(&played.to_string());
        Ok(played)
    }

    /// Send `command` to `color`'s engine and read a successful reply within `allowed`.
    fn ask(&mut self, color: Color, command: &Command, allowed: Duration) -> Result<Reply, Forfeit> {
        let process = self.players[color.index()].process();
        if let Some(read) = self.last_ok.take() {
            self.overhead.0 += read.elapsed();
            self.overhead.1 += 1;
        }
        let deadline = Instant::now() + allowed;
        let result = process.and_then(|process| process.ask(command, deadline));
        self.last_ok = Some(Instant::now());
        let reply = match result {
            Ok(reply) => reply,
            Err(Fault::Abandoned) => {
                return Err(Forfeit {
                    loser: color,
                    reason: Fault::Abandoned.to_string(),
                    abandoned: true,
                })
            }
            Err(fault) => return Err(self.lost(color, format!("{fault} (after '{}')", clip(&command.to_string())))),
        };
        match reply.outcome {
            Outcome::Ok => Ok(reply),
            Outcome::Err(ref message) | Outcome::InvalidMove(ref message) => {
                let kind = if matches!(reply.outcome, Outcome::Err(_)) {
                    "err"
                } else {
                    "invalidmove"
                };
                Err(self.lost(
                    color,
                    format!(
                        "answered '{}' with {kind} {}",
                        clip(&command.to_string()),
                        clip(message)
                    ),
                ))
            }
        }
    }

    /// Require the GameString that `color`'s engine answered `what` with to describe `game`.
    fn check_agreement(&mut self, color: Color, reply: &Reply, game: &Game, what: &str) -> Result<(), Forfeit> {
        let said = reply.lines.first().map(String::as_str).unwrap_or("");
        // Most engines print the GameString exactly as Waggle does: then there is nothing to replay.
        let pos = game.position();
        let (to_move, turn) = (pos.to_move().name(), pos.turn_number());
        let header = format!("{};{};{to_move}[{turn}]", pos.game_type(), pos.state());
        if said.strip_prefix(header.as_str()) == Some(self.moves_text.as_str()) {
            return Ok(());
        }
        match disagreement(said, game) {
            None => Ok(()),
            Some(why) => Err(self.lost(
                color,
                format!(
                    "disagrees about the game after '{}': answered '{}' ({why})",
                    clip(what),
                    clip(said)
                ),
            )),
        }
    }

    fn lost(&self, loser: Color, reason: String) -> Forfeit {
        Forfeit {
            loser,
            reason,
            abandoned: false,
        }
    }
}

/// Why the GameString `said` does not describe `game`, if it does not. The moves must be the same moves (any
/// notation that names them will do) and the state the same, except that a draw by repetition is the referee's
/// call: an engine that plays on, or that stops at a repetition the referee does not count, still agrees.
fn disagreement(said: &str, game: &Game) -> Option<String> {
    let parsed: GameString = match said.parse() {
        Ok(parsed) => parsed,
        Err(e) => return Some(format!("not a GameString: {e}")),
    };
    if parsed.game_type != game.position().game_type() {
        return Some(format!(
            "game type {} instead of {}",
            parsed.game_type,
            game.position().game_type()
        ));
    }
    let theirs = match Game::from_moves(&parsed, game.position().rules()) {
        Ok(theirs) => theirs,
        Err(e) => return Some(format!("its moves cannot be played: {e}")),
    };
    let (ours, theirs) = (game.record(), theirs.record());
    if let Some(i) = (0..ours.len().max(theirs.len())).find(|&i| ours.get(i) != theirs.get(i)) {
        let name = |moves: &[MoveString]| moves.get(i).map_or("nothing".to_string(), |m| format!("'{m}'"));
        return Some(format!(
            "move {} is {} where the game has {}",
            i + 1,
            name(theirs),
            name(ours)
        ));
    }
    let repetition = |state: Option<GameState>| matches!(state, Some(GameState::Draw | GameState::InProgress));
    match parsed.state {
        Some(state) if state != game.state() && !(repetition(Some(state)) && repetition(Some(game.state()))) => {
            Some(format!("state {state} instead of {}", game.state()))
        }
        _ => None,
    }
}

/// Why a game the rules ended is over.
fn describe_end(game: &Game) -> String {
    let pos = game.position();
    match (pos.is_surrounded(Color::White), pos.is_surrounded(Color::Black)) {
        (true, true) => "both Queens are surrounded".into(),
        (true, false) => "White's Queen is surrounded".into(),
        (false, true) => "Black's Queen is surrounded".into(),
        (false, false) => "threefold repetition".into(),
    }
}

/// The time per move the referee gives an engine that takes only `bestmove time`, under a clock with `left` on it
/// (and `theirs` on the opponent's): what Waggle's own search would give itself, in whole milliseconds, at least
/// one.
fn time_from_clock(left: Duration, increment: Duration, theirs: Duration) -> Duration {
    let side = |remaining| SideClock { remaining, increment };
    let clocks = Clocks {
        own: side(left),
        opponent: side(theirs),
    };
    Duration::from_millis((move_time(clocks).as_millis() as u64).max(1))
}

/// The PGN comment of a move: its time, and its depth and score when the engine reported them in a
/// `Move;Depth;Score;PV…` line for the move it played.
fn move_comment(reply: &Reply, played: &str, took: Duration) -> String {
    let mut comment = format!("{:.3} s", took.as_secs_f64());
    let report = reply.lines.iter().rev().skip(1).find_map(|line| {
        let info: InfoLine = line.parse().ok()?;
        (info.best == played.trim()).then_some((info.depth, info.score))
    });
    if let Some((depth, score)) = report {
        comment.push_str(&format!(", depth {depth}, score {score}"));
    }
    comment
}

/// At most 80 characters of `text`, for messages.
fn clip(text: &str) -> String {
    const MAX: usize = 80;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}

#[cfg(test)]
mod tests;
