//! The Hive AI-module JSON API: the seed document's own examples, round trips of `game_state` over random games
//! of every game type (the turns Waggle offers, read back into a position, are the position's legal moves; a
//! Choose Turn answers one of them), and an Error response for each kind of bad request.

use std::collections::BTreeSet;

use super::board::{game_state_of, position_of};
use super::messages::{JsonGameState, Turn};
use super::names::CellName;
use super::turns::{offered_turns, TurnKey};
use super::{respond, Thinking};
use crate::rules::layout::Layout;
use crate::rules::setup::{corner, Setup};
use crate::{Bug, Color, GameType, Hex, Move, Position};

/// The answer to `request` with the default thinking.
fn answer_of(request: &str) -> super::Answer {
    super::answer_with_ids(
        request,
        &mut super::Engines::new(&Thinking::default()),
        std::time::Duration::ZERO,
    )
    .1
}
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

/// The seed's Greetings request.
const GREETINGS: &str = r#"{"request_type": "Greetings", "request_id": "n6Vvi", "system_version": "0.1.0"}"#;

/// The seed's Choose Turn request, exactly as written there (keys quoted, comments dropped).
const SEED_CHOOSE_TURN: &str = r#"{
  "request_type": "Choose Turn",
  "request_id": "7pNQ4",
  "game_id": "KqwSQ",
  "request_timestamp": 1405582952293,
  "response_deadline": 1405583012293,
  "game_state": {
    "board": {
      "pieces": {
        "0,0": [
          { "color": "White", "type": "Queen Bee" }
        ],
        "1,1": [
          { "color": "Black", "type": "Queen Bee" },
          { "color": "Black", "type": "Beetle" }
        ]
      }
    },
    "hands": {
      "White": { "Soldier Ant": 2, "Grasshopper": 1 },
      "Black": {}
    },
    "player_turn": "White",
    "turn_number": 2,
    "game_over": false,
    "winner": null,
    "is_draw": false,
    "creation_parameters": { "use_mosquito": false, "use_ladybug": false, "use_pillbug": false },
    "turn_history": [
      { "turn_type": "Placement", "piece_type": "Beetle", "destination": "0,0" },
      { "turn_type": "Placement", "piece_type": "Queen Bee", "destination": "1,-1" },
      { "turn_type": "Movement", "source": "1,-1", "destination": "-1,-1" }
    ],
    "possible_turns": {
      "Placement": {
        "piece_types": [ "Soldier Ant" ],
        "positions": [ "-2,0", "-1,-1", "1,-1" ]
      },
      "Movement": {
        "0,0": [ "2,0", "-1,1" ]
      },
      "Special Ability": {
        "0,0": {
          "1,1": [ "2,0" ]
        }
      }
    }
  }
}"#;

fn parse(text: &str) -> Value {
    assert!(!text.contains('\n'), "a response is one line: {text}");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The turn a Choose Turn response gives.
fn turn_of(response: &Value) -> Turn {
    serde_json::from_value(response.clone()).unwrap_or_else(|e| panic!("{response}: {e}"))
}

#[test]
fn greetings_are_answered_with_the_same_id() {
    let response = parse(&respond(GREETINGS, &Thinking::default()));
    assert_eq!(response["response_type"], "Greetings");
    assert_eq!(response["request_id"], "n6Vvi");
    assert_eq!(response["response_id"], "n6Vvi");
    assert_eq!(response["name"], "waggle");
    assert_eq!(response["active"], true);
    assert_eq!(response["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(response["long_name"], "Waggle");
    assert_eq!(response["language"], "Rust");
    assert!(response["description"].as_str().is_some_and(|d| !d.is_empty()));
    // A number is echoed as a number.
    let response = parse(&respond(
        r#"{"request_type": "Greetings", "request_id": 17}"#,
        &Thinking::default(),
    ));
    assert_eq!(response["response_id"], 17);
}

#[test]
fn the_seed_request_gets_one_of_its_offered_turns_and_a_note() {
    let request: Value = serde_json::from_str(SEED_CHOOSE_TURN).unwrap();
    let state: JsonGameState = serde_json::from_value(request["game_state"].clone()).unwrap();
    let offered = offered_turns(&state.possible_turns);
    assert_eq!(offered.len(), 6);
    let answered = answer_of(SEED_CHOOSE_TURN);
    let response = parse(&answered.response);
    assert_eq!(response["response_type"], "Choose Turn", "{response}");
    assert_eq!(response["request_id"], "7pNQ4");
    assert_eq!(response["game_id"], "KqwSQ");
    let turn = turn_of(&response);
    assert!(offered.contains(&turn), "{turn:?} is not offered");
    // Waggle knows neither the Special Ability (there is no Pillbug) nor why the Grasshopper may not be placed,
    // and its history ends on an empty cell: all three are noted.
    let notes = answered.notes.join("\n");
    assert!(notes.contains("move 1,1 to 2,0"), "{notes}");
    assert!(notes.contains("place a Grasshopper"), "{notes}");
    assert!(notes.contains("-1,-1"), "{notes}");
    // The Special Ability is the one turn Waggle finds illegal, so it is never the answer.
    assert!(!matches!(turn, Turn::SpecialAbility { .. }));
}

/// The legal moves of `pos` without piece numbers, as (colour, bug, from, to) on the API's grid with the hive's
/// north-west corner at axial (0, 0): found here through the public layout, independently of the JSON module.
fn described(pos: &Position) -> BTreeSet<(Color, Bug, Option<CellName>, CellName)> {
    let moves = pos.legal_moves();
    let board = pos.board();
    let targets: Vec<Hex> = moves.iter().filter_map(|m| m.to()).collect();
    let layout = Layout::of(board, &targets);
    let (q0, r0) = corner(&Layout::of(board, &[]));
    let at = |hex: Hex| {
        let (q, r) = layout.place_of(hex).expect("laid out");
        CellName::from_axial((q - q0, r - r0))
    };
    let all: BTreeSet<_> = moves
        .iter()
        .filter_map(|&m| match m {
            Move::Place { piece, to } => Some((piece.color(), piece.bug(), None, at(to))),
            Move::Move { piece, to } => Some((piece.color(), piece.bug(), board.hex_of(piece).map(at), at(to))),
            Move::Pass => None,
        })
        .collect();
    let passes = usize::from(moves.contains(&Move::Pass));
    assert_eq!(all.len() + passes, moves.len(), "two moves described alike");
    all
}

/// The turns `state` offers, described as [`described`] describes moves.
fn offered(state: &JsonGameState) -> BTreeSet<(Color, Bug, Option<CellName>, CellName)> {
    offered_turns(&state.possible_turns)
        .into_iter()
        .map(|turn| match turn {
            Turn::Placement {
                piece_type,
                destination,
            } => (state.player_turn.0, piece_type.0, None, destination),
            Turn::Movement { source, destination }
            | Turn::SpecialAbility {
                source, destination, ..
            } => {
                let top = state.board.pieces[&source].last().expect("a piece to move");
                (top.color.0, top.bug.0, Some(source), destination)
            }
            Turn::Forfeit => panic!("a Forfeit is never offered"),
        })
        .collect()
}

/// Whether two cells of the API's grid are neighbours.
fn touch(a: CellName, b: CellName) -> bool {
    let (dx, dy) = ((a.x - b.x).abs(), (a.y - b.y).abs());
    (dx, dy) == (2, 0) || (dx, dy) == (1, 1)
}

/// Each Movement moves a piece of the side to move; each Special Ability is done by its Pillbug, or by its
/// Mosquito next to a Pillbug, standing next to both the source and the destination.
fn check_kinds(state: &JsonGameState) {
    let me = state.player_turn.0;
    let top = |cell: &CellName| *state.board.pieces[cell].last().expect("a stack");
    for source in state.possible_turns.movement.keys() {
        assert_eq!(
            top(source).color.0,
            me,
            "a Movement of the opponent's piece at {source}"
        );
    }
    for (user, sources) in &state.possible_turns.special_ability {
        let carrier = top(user);
        assert_eq!(carrier.color.0, me, "{user}");
        assert_eq!(state.board.pieces[user].len(), 1, "a carrier on a stack at {user}");
        match carrier.bug.0 {
            Bug::Pillbug => {}
            Bug::Mosquito => assert!(state
                .board
                .pieces
                .iter()
                .any(|(cell, stack)| touch(*cell, *user) && stack.last().is_some_and(|p| p.bug.0 == Bug::Pillbug))),
            other => panic!("a {other:?} at {user} carries"),
        }
        for (source, destinations) in sources {
            assert!(touch(*source, *user), "{user} carries from {source}");
            assert!(
                destinations.iter().all(|d| touch(*d, *user)),
                "{user} carries to {destinations:?}"
            );
        }
    }
}

/// Play random games of `game_type`, calling `visit` on each position (the last one may be finished).
fn random_games(game_type: GameType, games: usize, plies: usize, seed: u64, mut visit: impl FnMut(&Position)) {
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..games {
        let mut pos = Position::new(game_type);
        for _ in 0..plies {
            visit(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
    }
}

#[test]
fn the_offered_turns_of_every_game_type_read_back_as_the_legal_moves() {
    let mut positions = 0;
    let mut carried = 0;
    for (i, game_type) in GameType::ALL.into_iter().enumerate() {
        random_games(game_type, 150, 70, 0x4a53_4f4e + i as u64, |pos| {
            positions += 1;
            let state = game_state_of(pos);
            let text = serde_json::to_string(&state).unwrap();
            let state: JsonGameState = serde_json::from_str(&text).unwrap();
            let moves = described(pos);
            assert_eq!(offered(&state), moves, "offered turns of {}", pos.game_string());
            carried += state.possible_turns.special_ability.len();
            check_kinds(&state);
            let read = position_of(&state).unwrap_or_else(|e| panic!("{e}: {text}"));
            assert!(read.notes.is_empty(), "{:?}", read.notes);
            assert_eq!(read.corner, (0, 0));
            assert_eq!(described(&read.position), moves, "read back: {}", pos.game_string());
            assert_eq!(Setup::of(&read.position), Setup::of(pos), "{}", pos.game_string());
            assert_eq!(read.position.state(), pos.state());
        });
    }
    assert!(positions > 50_000, "{positions}");
    assert!(carried > 100, "the Pillbug's power was hardly seen: {carried}");
}

/// A Choose Turn request for `state`, due 30 ms after it was sent.
fn choose_request(state: &JsonGameState, request_id: usize) -> String {
    json!({
        "request_type": "Choose Turn",
        "request_id": request_id,
        "game_id": format!("game {request_id}"),
        "request_timestamp": 1_700_000_000_000u64,
        "response_deadline": 1_700_000_000_030u64,
        "game_state": state,
    })
    .to_string()
}

#[test]
fn a_choose_turn_of_every_game_type_answers_an_offered_turn() {
    let mut asked = 0;
    for (i, game_type) in GameType::ALL.into_iter().enumerate() {
        let mut ply = 0;
        random_games(game_type, 12, 80, 0x4348_4f53 + i as u64, |pos| {
            ply += 1;
            if ply % 9 != 0 && !pos.state().is_over() {
                return;
            }
            asked += 1;
            let state = game_state_of(pos);
            let answered = answer_of(&choose_request(&state, asked));
            let response = parse(&answered.response);
            if pos.state().is_over() {
                assert_eq!(response["response_type"], "Error", "{response}");
                assert_eq!(response["request_id"], asked);
                return;
            }
            assert_eq!(response["response_type"], "Choose Turn", "{response}");
            assert_eq!(response["request_id"], asked);
            assert_eq!(response["game_id"], format!("game {asked}"));
            assert!(
                answered.notes.is_empty(),
                "Waggle disagrees with itself: {:?}",
                answered.notes
            );
            let turn = turn_of(&response);
            let offered = offered_turns(&state.possible_turns);
            if offered.is_empty() {
                assert_eq!(turn, Turn::Forfeit);
                assert_eq!(pos.legal_moves().as_slice(), &[Move::Pass]);
            } else {
                assert!(
                    offered.contains(&turn),
                    "{turn:?} is not offered in {}",
                    pos.game_string()
                );
                assert!(TurnKey::of(turn).is_some());
            }
        });
    }
    assert!(asked > 80, "{asked}");
}

/// A position from random play where the side to move wins at once, with its winning moves.
fn a_position_won_in_one() -> (Position, Vec<Move>) {
    let mut rng = StdRng::seed_from_u64(0x5749_4e31);
    loop {
        let mut pos = Position::new(GameType::BASE);
        while !pos.state().is_over() {
            let moves = pos.legal_moves();
            let me = pos.to_move();
            let winning: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    let mut after = pos.clone();
                    after.play_unchecked(mv);
                    after.is_surrounded(me.opponent()) && !after.is_surrounded(me)
                })
                .collect();
            if !winning.is_empty() && winning.len() < moves.len() {
                return (pos, winning);
            }
            pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
    }
}

#[test]
fn waggle_answers_its_best_move_when_offered_and_else_the_best_offered() {
    let (pos, winning) = a_position_won_in_one();
    let state = game_state_of(&pos);
    let waggle = super::turns::WaggleTurns::of(&pos, (0, 0));
    let winning_keys: Vec<TurnKey> = waggle
        .moves
        .iter()
        .filter(|(_, mv)| winning.contains(mv))
        .map(|&(key, _)| key)
        .collect();
    assert_eq!(winning_keys.len(), winning.len());
    let mut request: Value = serde_json::from_str(&choose_request(&state, 1)).unwrap();
    request["response_deadline"] = json!(1_700_000_000_400u64);
    let chosen = turn_of(&parse(&respond(&request.to_string(), &Thinking::default())));
    assert!(
        TurnKey::of(chosen).is_some_and(|k| winning_keys.contains(&k)),
        "{chosen:?} does not win"
    );
    // Offer everything but the winning turns: another offered turn is chosen, and the difference noted.
    let mut fewer = state.clone();
    let offered = &mut fewer.possible_turns;
    for key in &winning_keys {
        match *key {
            TurnKey::Shift { from, to } => {
                for sources in offered.special_ability.values_mut() {
                    sources.entry(from).or_default().retain(|&d| d != to);
                }
                offered.movement.entry(from).or_default().retain(|&d| d != to);
            }
            TurnKey::Place { .. } => panic!("a placement never surrounds a Queen of the other side"),
        }
    }
    let left = offered_turns(offered);
    assert!(!left.is_empty());
    request["game_state"] = serde_json::to_value(&fewer).unwrap();
    let answered = answer_of(&request.to_string());
    let other = turn_of(&parse(&answered.response));
    assert!(left.contains(&other), "{other:?} is not offered");
    assert!(
        answered.notes.iter().any(|n| n.contains("not offered")),
        "{:?}",
        answered.notes
    );
}

/// The seed's game state, a valid position to spoil one field at a time.
fn seed_state() -> Value {
    let mut request: Value = serde_json::from_str(SEED_CHOOSE_TURN).unwrap();
    request["game_state"].take()
}

/// A Choose Turn request with id `r1` for `state`, due soon.
fn request_for(state: Value) -> String {
    json!({
        "request_type": "Choose Turn",
        "request_id": "r1",
        "game_id": "g1",
        "request_timestamp": 0,
        "response_deadline": 30,
        "game_state": state,
    })
    .to_string()
}

/// Assert that `request` gets an Error response whose message contains `words` (and the id `r1` when `echoed`).
fn assert_error(request: &str, echoed: bool, words: &str) {
    let response = parse(&respond(request, &Thinking::default()));
    assert_eq!(response["response_type"], "Error", "{request}: {response}");
    let message = response["message"].as_str().expect("a message");
    assert!(message.contains(words), "{request}: '{message}' does not say '{words}'");
    assert!(!message.contains("JsonGameState"), "Rust names leak out: {message}");
    if echoed {
        assert_eq!(response["request_id"], "r1", "{request}: {response}");
    } else {
        assert!(response.get("request_id").is_none(), "{request}: {response}");
    }
}

#[test]
fn every_kind_of_bad_request_gets_an_error_with_its_id() {
    // Not JSON, not an object, no or unknown request_type.
    assert_error(r#"{"request_type": "Greetings""#, false, "not JSON");
    assert_error("Greetings", false, "not JSON");
    assert_error(&"[".repeat(100_000), false, "recursion limit");
    assert_error("[1, 2]", false, "not a JSON object");
    assert_error(r#""Choose Turn""#, false, "not a JSON object");
    assert_error(r#"{"request_id": "r1"}"#, true, "no request_type");
    assert_error(
        r#"{"request_id": "r1", "request_type": "Dance"}"#,
        true,
        "unknown request_type \"Dance\"",
    );
    assert_error(
        r#"{"request_id": "r1", "request_type": 7}"#,
        true,
        "unknown request_type 7",
    );
    assert_error(
        r#"{"request_id": {"a": 1}, "request_type": "Greetings"}"#,
        false,
        "request_id",
    );
    // Missing and mistyped fields.
    assert_error(
        r#"{"request_id": "r1", "request_type": "Choose Turn"}"#,
        true,
        "game_state is missing",
    );
    let spoiled = |path: &[&str], value: Value| {
        let mut state = seed_state();
        let (last, parents) = path.split_last().unwrap();
        let mut at = &mut state;
        for key in parents {
            at = &mut at[*key];
        }
        match value {
            Value::Null => drop(at.as_object_mut().unwrap().remove(*last)),
            value => at[*last] = value,
        }
        request_for(state)
    };
    assert_error(&request_for(json!(5)), true, "game_state: expected an object");
    assert_error(
        &spoiled(&["player_turn"], Value::Null),
        true,
        "missing field `player_turn`",
    );
    assert_error(&spoiled(&["player_turn"], json!(5)), true, "invalid type");
    assert_error(
        &spoiled(&["player_turn"], json!("Green")),
        true,
        "'Green' is not a colour",
    );
    assert_error(&spoiled(&["board"], Value::Null), true, "missing field `board`");
    assert_error(&spoiled(&["board", "pieces"], json!([])), true, "invalid type");
    assert_error(
        &spoiled(&["hands", "White", "Soldier Ant"], json!(-1)),
        true,
        "invalid value",
    );
    assert_error(
        &spoiled(&["hands", "White", "Ant"], json!(1)),
        true,
        "'Ant' is not a piece type",
    );
    assert_error(
        &spoiled(&["creation_parameters"], Value::Null),
        true,
        "creation_parameters",
    );
    assert_error(&spoiled(&["game_over"], json!("no")), true, "invalid type");
    assert_error(&spoiled(&["turn_history"], json!({})), true, "invalid type");
    assert_error(
        &spoiled(&["possible_turns", "Movement", "0,0"], json!(["2,1"])),
        true,
        "x + y must be even",
    );
    let odd = spoiled(
        &["board", "pieces", "1,0"],
        json!([{"color": "White", "type": "Spider"}]),
    );
    assert_error(&odd, true, "'1,0' is not a cell of the grid");
    let far = spoiled(
        &["board", "pieces", "99999999999,1"],
        json!([{"color": "White", "type": "Spider"}]),
    );
    assert_error(&far, true, "too far away");
    let unnamed = spoiled(
        &["board", "pieces", "2,0"],
        json!([{"color": "White", "type": "Dragon"}]),
    );
    assert_error(&unnamed, true, "'Dragon' is not a piece type");
    let mut late: Value = serde_json::from_str(&request_for(seed_state())).unwrap();
    late["request_timestamp"] = json!("now");
    assert_error(&late.to_string(), true, "request_timestamp");
    // Impossible boards.
    let apart = spoiled(
        &["board", "pieces", "6,0"],
        json!([{"color": "White", "type": "Spider"}]),
    );
    assert_error(&apart, true, "one hive: 6,0 is not connected");
    let ants = spoiled(&["hands", "White", "Soldier Ant"], json!(4));
    assert_error(&ants, true, "White has 4 Soldier Ant(s)");
    let stacked = spoiled(
        &["board", "pieces", "0,0"],
        json!([{"color": "White", "type": "Queen Bee"}, {"color": "White", "type": "Spider"}]),
    );
    assert_error(&stacked, true, "Spider is above the ground");
    let mosquito = spoiled(
        &["board", "pieces", "2,0"],
        json!([{"color": "White", "type": "Mosquito"}]),
    );
    assert_error(&mosquito, true, "the Mosquito is not in a Base game");
    let empty = spoiled(&["board", "pieces", "2,0"], json!([]));
    assert_error(&empty, true, "the cell 2,0 has an empty stack");
    let crowd: serde_json::Map<String, Value> = (0..29)
        .map(|i| (format!("{},0", 2 * i), json!([{"color": "White", "type": "Spider"}])))
        .collect();
    assert_error(&spoiled(&["board", "pieces"], Value::Object(crowd)), true, "at most 28");
    let tower: Vec<Value> = (0..30).map(|_| json!({"color": "White", "type": "Beetle"})).collect();
    assert_error(
        &spoiled(&["board", "pieces", "2,0"], Value::Array(tower)),
        true,
        "at most 28",
    );
    // A last turn that does not say where it went.
    let history = json!([{"turn_type": "Movement", "source": "0,0"}]);
    assert_error(&spoiled(&["turn_history"], history), true, "has no destination");
    let history = json!([{"turn_type": "Teleport", "destination": "0,0"}]);
    assert_error(&spoiled(&["turn_history"], history), true, "unknown variant `Teleport`");
    // Games that are over.
    assert_error(&spoiled(&["game_over"], json!(true)), true, "the game is over");
    let surrounded = json!({
        "0,0": [{"color": "White", "type": "Queen Bee"}],
        "2,0": [{"color": "Black", "type": "Queen Bee"}],
        "-2,0": [{"color": "Black", "type": "Spider"}],
        "1,1": [{"color": "Black", "type": "Spider"}],
        "-1,1": [{"color": "Black", "type": "Soldier Ant"}],
        "1,-1": [{"color": "Black", "type": "Soldier Ant"}],
        "-1,-1": [{"color": "Black", "type": "Soldier Ant"}],
    });
    let mut state = seed_state();
    state["board"]["pieces"] = surrounded;
    state["hands"] = json!({});
    state["turn_history"] = json!([]);
    assert_error(&request_for(state), true, "Black has won");
}

#[test]
fn nothing_offered_is_a_forfeit_and_a_first_turn_is_on_the_origin() {
    let mut state = seed_state();
    state["possible_turns"] = json!({});
    let response = parse(&respond(&request_for(state), &Thinking::default()));
    assert_eq!(response["turn_type"], "Forfeit", "{response}");
    assert_eq!(response["request_id"], "r1");
    // The empty board: Waggle places on 0,0, as the game core offers.
    let first = game_state_of(&Position::new(GameType::MLP));
    assert_eq!(
        first.possible_turns.placement.positions,
        vec!["0,0".parse::<CellName>().unwrap()]
    );
    let response = parse(&respond(&choose_request(&first, 3), &Thinking::default()));
    assert_eq!(response["destination"], "0,0", "{response}");
    assert_ne!(response["piece_type"], "Queen Bee");
}
