//! Records written as BoardSpace writes them, for the tests: a random game's moves in each of its styles, with
//! the header, the noise of a live game and the cells of its lettered grid.

use std::collections::HashMap;
use std::fmt::Write;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::record::notation::MoveString;
use crate::record::sgf::replay::grid_step;
use crate::rules::game_type::GameType;
use crate::rules::hex::{Direction, Hex};
use crate::rules::moves::Move;
use crate::rules::piece::{Bug, Piece};
use crate::rules::position::{Opening, Position, Rules};

/// How a record is written: BoardSpace has written its actions in several ways over the years.
#[derive(Clone, Copy, Debug)]
pub(super) struct Style {
    /// Each move in one action (`Move W wA1 N 14`), as its robots play; else picked up and dropped.
    pub(super) robot: bool,
    /// Lower-case verbs, pieces named without their colour, no note after a cell: the early records.
    pub(super) old: bool,
    /// Columns and rows kept on the wrapping board (A to Z, 1 to 26); else written as the growing board does.
    pub(super) wrap: bool,
    /// Passes said (`Pass`, then `Done`); else a bare `Done`, as later records leave them.
    pub(super) passes: bool,
    /// Changes of mind, draw offers declined, clocks: what a live game leaves in its record besides the moves.
    pub(super) noise: bool,
}

/// A record of `moves` (a random game's) in `style`, its first piece on `start`, and a header naming ann (P0,
/// White) and bob, `extra` added to it.
pub(super) fn record_of(
    game_type: GameType,
    moves: &[Move],
    style: Style,
    start: (i32, i32),
    extra: &str,
    seed: u64,
) -> String {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut text = format!(
        " (;\nGM[27]VV[1]\nSU[hive{}]\nDT[Fri Nov 02 09:01:07 EDT 2018]\nGN[HV-ann-bob-2018-11-02-1301]\n\
         P0[id \"ann\"]\nP1[id \"bob\"]\n{extra}",
        variant_of(game_type)
    );
    let mut number = 0;
    let mut say = |text: &mut String, player: usize, action: String| {
        let _ = writeln!(text, "; P{player}[{number} {action}]TM[{}]", number * 100);
        number += 1;
    };
    say(&mut text, 0, "Start P0".to_string());
    let mut position = Position::with_opening(game_type, Rules::default(), Opening::Free);
    let mut cells: HashMap<Hex, (i32, i32)> = HashMap::new();
    let verb = |word: &str| {
        if style.old {
            word.to_ascii_lowercase()
        } else {
            word.to_string()
        }
    };
    for (ply, &mv) in moves.iter().enumerate() {
        let player = ply % 2;
        let mover = position.to_move();
        let rack = if style.old {
            mover.letter().to_string()
        } else {
            mover.letter().to_ascii_uppercase().to_string()
        };
        let name = |piece: Piece| {
            if style.old && piece.color() == mover {
                piece.to_string()[1..].to_ascii_lowercase()
            } else {
                piece.to_string()
            }
        };
        let note = |mv: Move| {
            if style.old {
                return String::new();
            }
            match MoveString::from_move(&position, mv) {
                MoveString::Beside { piece, .. } => {
                    let written = MoveString::from_move(&position, mv).to_string();
                    format!(" {}", written[piece.to_string().len()..].trim())
                }
                _ => " .".to_string(),
            }
        };
        let written = |(column, row): (i32, i32)| {
            let (column, row) = if style.wrap {
                (column.rem_euclid(26), (row - 1).rem_euclid(26) + 1)
            } else {
                (column, row)
            };
            let column = match column {
                0..=25 => char::from(b'A' + column as u8).to_string(),
                c if c < 0 => format!("{}A", -c),
                c => format!("{}Z", c - 25),
            };
            format!("{column} {row}")
        };
        if style.noise && rng.gen_ratio(1, 12) {
            // An offer of a draw, declined: no move, no pass.
            say(&mut text, player, verb("OfferDraw"));
            say(&mut text, player, verb("Done"));
            say(&mut text, 1 - player, verb("DeclineDraw"));
            say(&mut text, 1 - player, verb("Done"));
        }
        match mv {
            Move::Pass => match (style.passes, rng.gen_range(0..3)) {
                (true, 0) => say(&mut text, player, verb("PassDone")),
                (true, 1) => say(&mut text, player, verb("NullMove")),
                (true, _) => {
                    say(&mut text, player, verb("Pass"));
                    say(&mut text, player, verb("Done"));
                }
                (false, _) => say(&mut text, player, verb("Done")),
            },
            Move::Place { piece, to } | Move::Move { piece, to } => {
                let cell = cell_for(&cells, to, start);
                let from = position.board().hex_of(piece).map(|hex| cells[&hex]);
                let carried = piece.color() != mover;
                if style.robot {
                    let word = match (carried, rng.gen_bool(0.5)) {
                        (true, true) => "PMoveDone",
                        (true, false) => "PMove",
                        (false, true) => "MoveDone",
                        (false, false) => "Move",
                    };
                    let colour = piece.color().letter().to_ascii_uppercase();
                    say(
                        &mut text,
                        player,
                        format!("{} {colour} {} {}{}", verb(word), name(piece), written(cell), note(mv)),
                    );
                    if !word.ends_with("Done") {
                        say(&mut text, player, verb("Done"));
                    }
                } else {
                    match from {
                        None => {
                            if style.noise && rng.gen_ratio(1, 6) {
                                // A piece taken from the rack and put back.
                                say(&mut text, player, format!("{} {rack} 3 {}", verb("Pick"), name(piece)));
                                say(&mut text, player, format!("{} {rack} 3 {}", verb("Drop"), name(piece)));
                            }
                            say(&mut text, player, format!("{} {rack} 1 {}", verb("Pick"), name(piece)));
                        }
                        Some(from) => {
                            if style.noise && rng.gen_ratio(1, 6) {
                                // Picked up and put back where it was.
                                say(
                                    &mut text,
                                    player,
                                    format!("{} {} {}", verb("Pickb"), written(from), name(piece)),
                                );
                                say(
                                    &mut text,
                                    player,
                                    format!("{} {} {}", verb("Dropb"), name(piece), written(from)),
                                );
                            }
                            say(
                                &mut text,
                                player,
                                format!("{} {} {}", verb("Pickb"), written(from), name(piece)),
                            );
                        }
                    }
                    let drop = if carried { "Pdropb" } else { "Dropb" };
                    if style.noise && rng.gen_ratio(1, 6) {
                        // Dropped on one cell, taken back and dropped on another.
                        let elsewhere = (cell.0 + 7, cell.1 - 5);
                        say(
                            &mut text,
                            player,
                            format!("{} {} {}", verb(drop), name(piece), written(elsewhere)),
                        );
                        say(
                            &mut text,
                            player,
                            format!("{} {} {}", verb("Pickb"), written(elsewhere), name(piece)),
                        );
                    }
                    say(
                        &mut text,
                        player,
                        format!("{} {} {}{}", verb(drop), name(piece), written(cell), note(mv)),
                    );
                    say(&mut text, player, verb("Done"));
                }
                if let Some(from) = position.board().hex_of(piece) {
                    if position.board().height(from) == 1 {
                        cells.remove(&from);
                    }
                }
                cells.insert(to, cell);
            }
        }
        position.play(mv).expect("a legal move");
    }
    text.push_str(";\nP0[time 0:04:41 ]\nP1[time 0:09:31 ]\n)\n");
    text
}

/// The `SU` letters of a game type.
fn variant_of(game_type: GameType) -> String {
    let name = game_type.to_string();
    match name.strip_prefix("Base+") {
        Some(letters) => format!("-{}", letters.to_ascii_lowercase()),
        None => String::new(),
    }
}

/// BoardSpace's cell (unwrapped column and row) for `to`, found from the cells of the pieces beside it; `start`
/// for the game's first piece.
fn cell_for(cells: &HashMap<Hex, (i32, i32)>, to: Hex, start: (i32, i32)) -> (i32, i32) {
    if let Some(&cell) = cells.get(&to) {
        return cell;
    }
    for direction in Direction::ALL {
        if let Some(&(column, row)) = cells.get(&to.step(direction.opposite())) {
            let (columns, rows) = grid_step(direction);
            return (column + i32::from(columns), row + i32::from(rows));
        }
    }
    start
}

/// A random game of `game_type` of at most `plies` plies, sometimes opened with a Queen.
pub(super) fn random_game(game_type: GameType, plies: usize, rng: &mut StdRng) -> Vec<Move> {
    let mut position = Position::with_opening(game_type, Rules::default(), Opening::Free);
    let mut moves = Vec::new();
    let queen_first = rng.gen_ratio(1, 4);
    while moves.len() < plies && !position.state().is_over() {
        let legal = position.legal_moves();
        let queen = legal
            .iter()
            .copied()
            .find(|mv| matches!(mv, Move::Place { piece, .. } if piece.bug() == Bug::Queen));
        let mv = match queen {
            Some(queen) if queen_first && position.ply() < 2 => queen,
            _ if position.ply() < 2 => {
                let others: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|mv| !matches!(mv, Move::Place { piece, .. } if piece.bug() == Bug::Queen))
                    .collect();
                others[rng.gen_range(0..others.len())]
            }
            _ => legal[rng.gen_range(0..legal.len())],
        };
        position.play(mv).expect("a legal move");
        moves.push(mv);
    }
    moves
}

/// The canonical MoveStrings of `moves`.
pub(super) fn names(game_type: GameType, moves: &[Move]) -> Vec<String> {
    let start = Position::with_opening(game_type, Rules::default(), Opening::Free);
    crate::record::notation::line(&start, moves.iter().copied())
        .iter()
        .map(ToString::to_string)
        .collect()
}
