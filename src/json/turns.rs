//! Turns both ways between Waggle's moves and the API's `possible_turns`, compared without their kind: a
//! placement is a bug and a cell; any other turn takes the piece on top of one cell to another (a Movement and a
//! Special Ability that carry the same piece to the same cell are the same turn, as Waggle lists it once).
//!
//! Owns the [`TurnKey`], Waggle's moves as keys, the offered turns in the order the request lists them, and
//! `possible_turns` built from Waggle's moves. Choosing among them is `choose`'s business.

use std::collections::{BTreeMap, HashSet};
use std::fmt;

use crate::rules::moves::Move;
use crate::rules::piece::Bug;
use crate::rules::position::Position;
use crate::rules::setup::Cell;

use super::carries::ability_users;
use super::frame::Frame;
use super::messages::{PlacementOptions, PossibleTurns, Turn};
use super::names::{BugName, CellName};

/// A turn without its kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum TurnKey {
    /// A piece of `bug` from the hand goes to `to`.
    Place {
        /// The bug placed.
        bug: Bug,
        /// Where it goes.
        to: CellName,
    },
    /// The piece on top at `from` goes to `to`, by itself or carried.
    Shift {
        /// Where the piece stands.
        from: CellName,
        /// Where it goes.
        to: CellName,
    },
}

impl TurnKey {
    /// The key of a turn of the API; none for a Forfeit.
    pub fn of(turn: Turn) -> Option<TurnKey> {
        match turn {
            Turn::Placement {
                piece_type,
                destination,
            } => Some(TurnKey::Place {
                bug: piece_type.0,
                to: destination,
            }),
            Turn::Movement { source, destination }
            | Turn::SpecialAbility {
                source, destination, ..
            } => Some(TurnKey::Shift {
                from: source,
                to: destination,
            }),
            Turn::Forfeit => None,
        }
    }
}

impl fmt::Display for TurnKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnKey::Place { bug, to } => write!(f, "place a {} on {to}", bug.name()),
            TurnKey::Shift { from, to } => write!(f, "move {from} to {to}"),
        }
    }
}

/// Waggle's legal moves of a position on the API's grid.
#[derive(Clone, Debug)]
pub struct WaggleTurns {
    /// The names of the position's cells and of the cells its moves reach.
    pub frame: Frame,
    /// Each legal move but a pass, with its key, in the generator's order.
    pub moves: Vec<(TurnKey, Move)>,
}

impl WaggleTurns {
    /// The legal moves of `pos`, its hive placed with its north-west corner on the axial cell `corner`.
    pub fn of(pos: &Position, corner: Cell) -> WaggleTurns {
        let legal = pos.legal_moves();
        let reached: Vec<_> = legal.iter().filter_map(|m| m.to()).collect();
        let board = pos.board();
        let frame = Frame::new(board, &reached, corner);
        let moves = legal
            .iter()
            .filter_map(|&mv| {
                let key = match mv {
                    Move::Place { piece, to } => TurnKey::Place {
                        bug: piece.bug(),
                        to: frame.name(to)?,
                    },
                    Move::Move { piece, to } => TurnKey::Shift {
                        from: frame.name(board.hex_of(piece)?)?,
                        to: frame.name(to)?,
                    },
                    Move::Pass => return None,
                };
                Some((key, mv))
            })
            .collect();
        WaggleTurns { frame, moves }
    }
}

/// The turns `possible_turns` offers, in the order it lists them: each piece type at each position (each type
/// and position once), then the movements, then the special abilities.
pub fn offered_turns(possible: &PossibleTurns) -> Vec<Turn> {
    let mut bugs: Vec<BugName> = Vec::new();
    for &bug in &possible.placement.piece_types {
        if !bugs.contains(&bug) {
            bugs.push(bug);
        }
    }
    let mut seen = HashSet::new();
    let positions: Vec<CellName> = possible
        .placement
        .positions
        .iter()
        .copied()
        .filter(|&cell| seen.insert(cell))
        .collect();
    let mut turns: Vec<Turn> = Vec::new();
    for &piece_type in &bugs {
        turns.extend(positions.iter().map(|&destination| Turn::Placement {
            piece_type,
            destination,
        }));
    }
    for (&source, destinations) in &possible.movement {
        turns.extend(
            destinations
                .iter()
                .map(|&destination| Turn::Movement { source, destination }),
        );
    }
    for (&ability_user, sources) in &possible.special_ability {
        for (&source, destinations) in sources {
            turns.extend(destinations.iter().map(|&destination| Turn::SpecialAbility {
                ability_user,
                source,
                destination,
            }));
        }
    }
    turns
}

/// `possible_turns` for Waggle's moves of `pos`: placements as the bugs times the cells (Waggle allows every bug
/// it may place on every cell it may place on); a move of a piece that a Pillbug or Mosquito could carry there as
/// a Special Ability under each such carrier (whether the piece could also go there by itself is not asked); any
/// other move as a Movement.
pub fn possible_turns_of(pos: &Position, turns: &WaggleTurns) -> PossibleTurns {
    let board = pos.board();
    let mut possible = PossibleTurns::default();
    let PlacementOptions { piece_types, positions } = &mut possible.placement;
    for &(key, mv) in &turns.moves {
        match (key, mv) {
            (TurnKey::Place { bug, to }, _) => {
                if !piece_types.contains(&BugName(bug)) {
                    piece_types.push(BugName(bug));
                }
                if !positions.contains(&to) {
                    positions.push(to);
                }
            }
            (TurnKey::Shift { from, to }, Move::Move { piece, to: hex }) => {
                let users: Vec<CellName> = board
                    .hex_of(piece)
                    .map(|at| ability_users(pos, at, hex))
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|user| turns.frame.name(user))
                    .collect();
                if users.is_empty() {
                    possible.movement.entry(from).or_default().push(to);
                }
                for user in users {
                    let sources: &mut BTreeMap<_, Vec<_>> = possible.special_ability.entry(user).or_default();
                    sources.entry(from).or_default().push(to);
                }
            }
            (TurnKey::Shift { .. }, _) => {}
        }
    }
    piece_types.sort();
    positions.sort();
    for destinations in possible.movement.values_mut() {
        destinations.sort();
    }
    for sources in possible.special_ability.values_mut() {
        for destinations in sources.values_mut() {
            destinations.sort();
        }
    }
    possible
}
