//! Choosing the turn to answer a Choose Turn request: Waggle's own best move when the request offers it, else the
//! best of the offered turns Waggle knows, else the first offered turn; a Forfeit only when nothing is offered.
//! Where the offered turns and Waggle's rules disagree, a note says so (the front end prints it on stderr).
//!
//! Owns the thinking time taken from the request's timestamps and the matching of Waggle's moves with the offered
//! turns. The thinking is an [`Engine`]'s, asked of the request's [`EngineSource`] only when there is a choice to
//! think about; the board is `board`'s.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use crate::engine::Engine;
use crate::rules::moves::Move;
use crate::rules::position::{GameState, Position};
use crate::rules::setup::Cell;
use crate::search::Limits;

use super::board::position_of;
use super::carries::ability_users;
use super::error::RequestError;
use super::messages::{PossibleTurns, Turn};
use super::request::ChooseTurn;
use super::turns::{offered_turns, TurnKey, WaggleTurns};
use super::EngineSource;

/// Thinking time when the request gives no deadline.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(1);
/// The least thinking time, however close the deadline.
pub const MIN_BUDGET: Duration = Duration::from_millis(10);
/// The most thinking time, however far the deadline.
pub const MAX_BUDGET: Duration = Duration::from_secs(10);

/// How many examples of each kind of disagreement a note names.
const EXAMPLES: usize = 3;

/// The turn chosen, and what was noticed on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The turn to answer: one of the offered turns, or a Forfeit when none is offered.
    pub turn: Turn,
    /// Disagreements between the request and Waggle's rules, each a line for a person.
    pub notes: Vec<String>,
}

/// The thinking time for a request sent at `request_timestamp` and due at `response_deadline` (milliseconds
/// since the epoch, by the sender's clock, so only their difference counts): 80 % of the time between them less
/// 100 ms for the way back, between [`MIN_BUDGET`] and [`MAX_BUDGET`]; [`DEFAULT_BUDGET`] without both.
pub fn budget(request_timestamp: Option<f64>, response_deadline: Option<f64>) -> Duration {
    let (Some(sent), Some(due)) = (request_timestamp, response_deadline) else {
        return DEFAULT_BUDGET;
    };
    let millis = 0.8 * (due - sent) - 100.0;
    if millis.is_nan() {
        return DEFAULT_BUDGET;
    }
    let millis = millis.clamp(MIN_BUDGET.as_secs_f64() * 1e3, MAX_BUDGET.as_secs_f64() * 1e3);
    Duration::from_secs_f64(millis / 1e3)
}

/// The answer to a Choose Turn request: the position read from its board (an error when the board is no
/// position, or the game is over), then the turn chosen within the time the request allows, less `waited` (the
/// time it waited for an engine).
pub fn choose_turn(
    request: &ChooseTurn,
    engines: &mut dyn EngineSource,
    waited: Duration,
) -> Result<Choice, RequestError> {
    let state = &request.game_state;
    if state.game_over {
        return Err(RequestError::GameOver);
    }
    let read = position_of(state)?;
    match read.position.state() {
        GameState::WhiteWins => return Err(RequestError::Finished("Black's Queen Bee is surrounded: White has won")),
        GameState::BlackWins => return Err(RequestError::Finished("White's Queen Bee is surrounded: Black has won")),
        GameState::Draw => return Err(RequestError::Finished("both Queen Bees are surrounded: a draw")),
        GameState::NotStarted | GameState::InProgress => {}
    }
    let time = budget(request.request_timestamp, request.response_deadline)
        .saturating_sub(waited)
        .max(MIN_BUDGET);
    let mut choice = choose(&read.position, read.corner, &state.possible_turns, time, engines);
    choice.notes.splice(0..0, read.notes);
    Ok(choice)
}

/// Choose among the turns `possible` offers in `pos` (whose hive has its north-west corner at the axial cell
/// `corner` of the request's grid), thinking for about `time` with an engine of `engines`.
pub fn choose(
    pos: &Position,
    corner: Cell,
    possible: &PossibleTurns,
    time: Duration,
    engines: &mut dyn EngineSource,
) -> Choice {
    let waggle = WaggleTurns::of(pos, corner);
    let offered = offered_turns(possible);
    let mut notes = Vec::new();
    let known: HashMap<TurnKey, Move> = waggle.moves.iter().copied().collect();
    let offered_keys: HashSet<TurnKey> = offered.iter().filter_map(|&t| TurnKey::of(t)).collect();
    let unknown: Vec<TurnKey> = offered
        .iter()
        .filter_map(|&t| TurnKey::of(t))
        .filter(|key| !known.contains_key(key))
        .collect();
    let missing: Vec<TurnKey> = waggle
        .moves
        .iter()
        .map(|&(key, _)| key)
        .filter(|key| !offered_keys.contains(key))
        .collect();
    if !unknown.is_empty() || !missing.is_empty() {
        notes.push(disagreement(&unknown, &missing));
    }
    let Some(&first) = offered.first() else {
        return Choice {
            turn: Turn::Forfeit,
            notes,
        };
    };
    // Each move Waggle knows, with the offered turns that make it, best kind first.
    let mut offers: HashMap<Move, Vec<Turn>> = HashMap::new();
    for &turn in &offered {
        if let Some(&mv) = TurnKey::of(turn).and_then(|key| known.get(&key)) {
            offers.entry(mv).or_default().push(turn);
        }
    }
    for (mv, turns) in offers.iter_mut() {
        turns.sort_by_cached_key(|&turn| preference(pos, &waggle, *mv, turn));
    }
    let ranked = if offers.is_empty() {
        Vec::new()
    } else {
        engines
            .engine()
            .map(|engine| ranked_moves(engine, pos, time, missing.is_empty()))
            .unwrap_or_default()
    };
    let turn = ranked
        .iter()
        .find_map(|mv| offers.get(mv).and_then(|turns| turns.first().copied()))
        .or_else(|| {
            offered
                .iter()
                .copied()
                .find(|&t| TurnKey::of(t).is_some_and(|k| known.contains_key(&k)))
        })
        .unwrap_or(first);
    Choice { turn, notes }
}

/// Waggle's moves of `pos`, best first, as far as `time` allows: only the best when every legal move is offered
/// (`all_offered`); otherwise every move ranked by an analysis, so that the best offered one can be found. None
/// when the engine fails.
fn ranked_moves(engine: &mut Engine, pos: &Position, time: Duration, all_offered: bool) -> Vec<Move> {
    engine.set_up(pos.clone());
    let limits = Limits::time(time);
    if all_offered {
        return engine
            .best_move(&limits, |_| {})
            .map(|t| t.report.best)
            .into_iter()
            .collect();
    }
    let count = pos.legal_moves().len();
    engine
        .analyze(count, &limits, |_| {})
        .unwrap_or_default()
        .into_iter()
        .map(|t| t.report.best)
        .collect()
}

/// How well `turn` describes Waggle's move `mv` (lower is better): a Movement for one's own piece, a Special
/// Ability for the opponent's; among Special Abilities, those whose ability user Waggle agrees could carry it.
fn preference(pos: &Position, waggle: &WaggleTurns, mv: Move, turn: Turn) -> u8 {
    let own = mv.piece().is_some_and(|p| p.color() == pos.to_move());
    match turn {
        Turn::Placement { .. } | Turn::Forfeit => 0,
        Turn::Movement { .. } => {
            if own {
                0
            } else {
                3
            }
        }
        Turn::SpecialAbility {
            ability_user,
            source,
            destination,
        } => {
            let hexes = (
                waggle.frame.hex(ability_user),
                waggle.frame.hex(source),
                waggle.frame.hex(destination),
            );
            let agreed = match hexes {
                (Some(user), Some(from), Some(to)) => ability_users(pos, from, to).contains(&user),
                _ => false,
            };
            if agreed {
                1
            } else {
                2
            }
        }
    }
}

/// One line on how the offered turns differ from Waggle's legal moves.
fn disagreement(unknown: &[TurnKey], missing: &[TurnKey]) -> String {
    let examples = |keys: &[TurnKey]| {
        let mut text: Vec<String> = keys.iter().take(EXAMPLES).map(|k| k.to_string()).collect();
        if keys.len() > EXAMPLES {
            text.push("…".into());
        }
        text.join(", ")
    };
    let mut parts = Vec::new();
    if !unknown.is_empty() {
        parts.push(format!(
            "{} offered turn(s) that Waggle finds illegal ({})",
            unknown.len(),
            examples(unknown)
        ));
    }
    if !missing.is_empty() {
        parts.push(format!(
            "{} legal turn(s) not offered ({})",
            missing.len(),
            examples(missing)
        ));
    }
    format!("the offered turns differ from Waggle's rules: {}", parts.join("; "))
}
