//! What each API route reads from its JSON body, checked before any work: the game (a GameString, every move
//! replayed), a move, the limits of a search. Unknown fields are refused, so that a misspelt one is not silently
//! ignored; every error names the field and says what it should be.

use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::error::WebError;
use crate::record::game::Game;
use crate::record::notation::GameString;
use crate::rules::position::Rules;
use crate::search::{Clocks, Limits, SideClock};

/// The longest search the engine's move may be given, and the longest clock.
pub(crate) const MAX_TIME: f64 = 600.0;
/// The most lines an analysis shows.
pub(crate) const MAX_LINES: usize = 5;
/// The deepest search asked for.
pub(crate) const MAX_DEPTH: u32 = 40;
/// The longest game reviewed, in plies.
pub(crate) const MAX_REVIEW_PLIES: usize = 1000;
/// The longest an analysis runs without being asked again.
pub(crate) const MAX_ANALYSIS: Duration = Duration::from_secs(600);

/// `body` read as the request `T`.
pub(crate) fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, WebError> {
    serde_json::from_slice(body)
        .map_err(|e| WebError::BadRequest(format!("the request is not what the route takes: {e}")))
}

/// The game of a GameString: its syntax, then every move replayed under `rules` and the opening the record shows
/// (an imported game from before the tournament opening stays playable). The state and turn fields are not looked
/// at: the page names a position by its moves under a header of its own (it learns the state from the
/// answer), and every answer gives the canonical GameString the moves make.
pub(crate) fn game_of(text: &str, rules: Rules) -> Result<(GameString, Game), WebError> {
    let record: GameString = text
        .parse()
        .map_err(|e| WebError::Unprocessable(format!("the GameString cannot be read: {e}")))?;
    let game =
        Game::from_moves_with(&record, rules, record.opening()).map_err(|e| WebError::Unprocessable(e.to_string()))?;
    let canonical = game.game_string();
    Ok((canonical, game))
}

/// The game of a GameString a person gave (pasted or imported): as [`game_of`], and its state and turn fields
/// must be what its moves give, or the message says which is not.
pub(crate) fn given_game(text: &str, rules: Rules) -> Result<Game, WebError> {
    let record: GameString = text
        .parse()
        .map_err(|e| WebError::Unprocessable(format!("the GameString cannot be read: {e}")))?;
    Game::from_record_with(&record, rules, record.opening()).map_err(|e| WebError::Unprocessable(e.to_string()))
}

/// `{"game": …}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameRequest {
    /// A GameString (a bare game type starts a game).
    pub(crate) game: String,
}

/// `{"game": …, "move": …}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayRequest {
    pub(crate) game: String,
    /// A MoveString, as UHP takes it.
    #[serde(rename = "move")]
    pub(crate) mv: String,
}

/// `{"game": …, "plies": n}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct UndoRequest {
    pub(crate) game: String,
    /// Plies to take back (1 unless given).
    #[serde(default = "one")]
    pub(crate) plies: usize,
}

fn one() -> usize {
    1
}

/// A side's clock in seconds.
#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub(crate) struct SideClockRequest {
    pub(crate) remaining: f64,
    #[serde(default)]
    pub(crate) increment: f64,
}

/// Both clocks.
#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockRequest {
    pub(crate) white: SideClockRequest,
    pub(crate) black: SideClockRequest,
}

/// `{"game": …, "level": 1–10, "time" | "depth" | "nodes" | "clock": …}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BestMoveRequest {
    pub(crate) game: String,
    pub(crate) level: Option<u8>,
    pub(crate) time: Option<f64>,
    pub(crate) depth: Option<u32>,
    pub(crate) nodes: Option<u64>,
    pub(crate) clock: Option<ClockRequest>,
}

/// `{"game": …, "lines": 1–5, "time": seconds}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyseRequest {
    pub(crate) game: String,
    pub(crate) lines: Option<usize>,
    pub(crate) time: Option<f64>,
}

/// `{"game": …, "time" | "depth" | "nodes": a position}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReviewRequest {
    pub(crate) game: String,
    pub(crate) time: Option<f64>,
    pub(crate) depth: Option<u32>,
    pub(crate) nodes: Option<u64>,
}

/// `{"text": a GameString or a .pgn}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImportRequest {
    pub(crate) text: String,
}

/// `{"game": …, "white": name, "black": name}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExportRequest {
    pub(crate) game: String,
    #[serde(default)]
    pub(crate) white: String,
    #[serde(default)]
    pub(crate) black: String,
}

/// A number of seconds named `field`, from more than 0 up to `max`.
pub(crate) fn seconds(field: &str, value: f64, max: f64) -> Result<Duration, WebError> {
    if !(value > 0.0 && value <= max) {
        return Err(WebError::BadRequest(format!(
            "{field} must be a number of seconds above 0 and at most {max}"
        )));
    }
    Ok(Duration::from_secs_f64(value))
}

/// The limits of one search: at most one of a time, a depth, a node count or (for `clock`) a chess clock, seen
/// from `to_move`'s side; `default` when none is given.
pub(crate) fn limits(
    time: Option<f64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    clock: Option<(ClockRequest, crate::rules::piece::Color)>,
    default: Limits,
) -> Result<Limits, WebError> {
    let given = [time.is_some(), depth.is_some(), nodes.is_some(), clock.is_some()];
    if given.iter().filter(|&&g| g).count() > 1 {
        return Err(WebError::BadRequest(
            "give at most one of time, depth, nodes and clock".into(),
        ));
    }
    if let Some(time) = time {
        return Ok(Limits::time(seconds("time", time, MAX_TIME)?));
    }
    if let Some(depth) = depth {
        if !(1..=MAX_DEPTH).contains(&depth) {
            return Err(WebError::BadRequest(format!("depth must be from 1 to {MAX_DEPTH}")));
        }
        return Ok(Limits::depth(depth));
    }
    if let Some(nodes) = nodes {
        if !(1..=1_000_000_000).contains(&nodes) {
            return Err(WebError::BadRequest("nodes must be from 1 to 1000000000".into()));
        }
        return Ok(Limits::nodes(nodes));
    }
    if let Some((clock, to_move)) = clock {
        let side = |name: &str, side: SideClockRequest| -> Result<SideClock, WebError> {
            let remaining = seconds(&format!("clock.{name}.remaining"), side.remaining, MAX_TIME * 10.0)?;
            if !(0.0..=MAX_TIME).contains(&side.increment) {
                return Err(WebError::BadRequest(format!(
                    "clock.{name}.increment must be a number of seconds from 0 to {MAX_TIME}"
                )));
            }
            Ok(SideClock {
                remaining,
                increment: Duration::from_secs_f64(side.increment),
            })
        };
        let (white, black) = (side("white", clock.white)?, side("black", clock.black)?);
        let (own, opponent) = match to_move {
            crate::rules::piece::Color::White => (white, black),
            crate::rules::piece::Color::Black => (black, white),
        };
        return Ok(Limits::clocks(Clocks { own, opponent }));
    }
    Ok(default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_limit_at_most_and_each_in_range() {
        assert_eq!(limits(None, None, None, None, Limits::depth(2)), Ok(Limits::depth(2)));
        assert_eq!(
            limits(Some(0.5), None, None, None, Limits::default()),
            Ok(Limits::time(Duration::from_millis(500)))
        );
        assert!(limits(Some(0.5), Some(3), None, None, Limits::default()).is_err());
        assert!(limits(Some(-1.0), None, None, None, Limits::default()).is_err());
        assert!(limits(Some(f64::NAN), None, None, None, Limits::default()).is_err());
        assert!(limits(None, Some(0), None, None, Limits::default()).is_err());
        assert!(limits(None, None, Some(0), None, Limits::default()).is_err());
        let clock = ClockRequest {
            white: SideClockRequest {
                remaining: 60.0,
                increment: 1.0,
            },
            black: SideClockRequest {
                remaining: 30.0,
                increment: 0.0,
            },
        };
        let black = limits(
            None,
            None,
            None,
            Some((clock, crate::rules::piece::Color::Black)),
            Limits::default(),
        )
        .unwrap();
        assert_eq!(black.clocks.unwrap().own.remaining, Duration::from_secs(30));
        assert_eq!(black.clocks.unwrap().opponent.increment, Duration::from_secs(1));
    }

    #[test]
    fn a_game_is_replayed_and_named_canonically() {
        let (record, game) = game_of("Base;InProgress;White[2];wS1;bS1 -wS1", Rules::default()).unwrap();
        assert_eq!(game.record().len(), 2);
        assert_eq!(record.to_string(), game.game_string().to_string());
        assert!(matches!(
            game_of("Base;InProgress;White[2];wS1;bQ wS1-;wQ bQ", Rules::default()),
            Err(WebError::Unprocessable(_))
        ));
        assert!(matches!(
            game_of("Chess", Rules::default()),
            Err(WebError::Unprocessable(_))
        ));
        // The page's own header is not looked at; a GameString a person gives must agree with its moves.
        let placeholder = "Base;InProgress;White[1];wS1;bS1 -wS1";
        assert_eq!(
            game_of(placeholder, Rules::default()).unwrap().0.to_string(),
            record.to_string()
        );
        assert!(matches!(
            given_game(placeholder, Rules::default()),
            Err(WebError::Unprocessable(message)) if message.contains("turn field says White[1]")
        ));
        assert!(given_game(&record.to_string(), Rules::default()).is_ok());
    }
}
