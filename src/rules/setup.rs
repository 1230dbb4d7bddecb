//! A position set up from a description of the board instead of reached by moves: stacks of unnumbered pieces on
//! cells, what each side has in hand, whose turn it is and which piece moved last. Front ends that describe
//! boards (the Hive AI-module JSON API) start here; the reverse, a position's stacks with their cells, is
//! [`Setup::of`].
//!
//! Owns checking that such a description is a position Hive can reach (pieces that exist, one connected hive,
//! only climbers above the ground) and the choices it implies: pieces of a kind on the board take the lowest
//! numbers, and the turns each side has played follow from the pieces it placed before its Queen.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::rules::board::Board;
use crate::rules::game_type::GameType;
use crate::rules::hex::{Direction, Hex};
use crate::rules::layout::Layout;
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::position::{Position, Rules};

/// A cell as axial coordinates `(q, r)`: `q` grows to the east, `r` to the south-east.
pub type Cell = (i32, i32);

/// A stack on a cell, bottom first, its pieces by colour and bug.
pub type Stack = (Cell, Vec<(Color, Bug)>);

/// A board described piece by piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Which expansion bugs are in the game.
    pub game_type: GameType,
    /// Each occupied cell, as axial coordinates `(q, r)` (any origin), with its stack, bottom first.
    pub stacks: Vec<Stack>,
    /// What each side has in hand: how many of each bug (White's first). Bugs not listed have none.
    pub hands: [Vec<(Bug, u8)>; 2],
    /// Whose turn it is.
    pub to_move: Color,
    /// The cell where the piece that moved last turn (by itself or carried) now stands, on top: it may not move
    /// or be moved this turn. `None` after a placement or a pass.
    pub last_moved_to: Option<(i32, i32)>,
}

/// A description that is not a position of Hive.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("the {bug} is not in a {game_type} game")]
    NotInGame { bug: &'static str, game_type: GameType },
    #[error("{color} has {count} {bug}(s) on the board and in hand, but a side has {most}")]
    TooMany {
        color: &'static str,
        bug: &'static str,
        count: usize,
        most: u8,
    },
    #[error("the cell {0:?} is listed twice")]
    SameCell((i32, i32)),
    #[error("the cell {0:?} has an empty stack")]
    EmptyStack((i32, i32)),
    #[error("a {0} is above the ground: only Beetles and Mosquitoes climb")]
    Floating(&'static str),
    #[error("the pieces do not form one hive: {0:?} is not connected to the rest")]
    Disconnected((i32, i32)),
    #[error("the piece that moved last turn is said to stand at {0:?}, where there is none")]
    NoLastMover((i32, i32)),
}

impl Setup {
    /// The description of `pos`: its stacks with their cells laid out by walking the hive (`q` and `r` counted
    /// from the hive's western and northern edges, the stacks north to south and west to east, so that the same
    /// board is always described the same way), its hands, whose turn it is and where the piece that moved last
    /// stands.
    pub fn of(pos: &Position) -> Setup {
        let board = pos.board();
        let layout = Layout::of(board, &[]);
        let (min_q, min_r) = corner(&layout);
        let mut stacks: Vec<Stack> = layout
            .cells()
            .iter()
            .map(|cell| {
                let mut stack: Vec<(Color, Bug)> = board.stack(cell.hex).map(|p| (p.color(), p.bug())).collect();
                stack.reverse();
                ((cell.q - min_q, cell.r - min_r), stack)
            })
            .collect();
        stacks.sort_by_key(|&((q, r), _)| (r, q));
        let hands = Color::ALL.map(|color| {
            Bug::ALL
                .into_iter()
                .filter_map(|bug| Some((bug, pos.in_hand(color, bug))).filter(|&(_, n)| n > 0))
                .collect()
        });
        let last_moved_to = pos
            .stunned()
            .and_then(|p| board.hex_of(p))
            .and_then(|hex| layout.place_of(hex))
            .map(|(q, r)| (q - min_q, r - min_r));
        Setup {
            game_type: pos.game_type(),
            stacks,
            hands,
            to_move: pos.to_move(),
            last_moved_to,
        }
    }
}

impl Position {
    /// The position `setup` describes, played on under `rules`; an error when it is no position of Hive.
    ///
    /// Pieces of a kind on the board take the lowest numbers (the order among them is the order of the stacks);
    /// those in hand the next ones. The turns played follow from the pieces a side placed before its Queen (until
    /// the Queen is down, every turn is a placement), which is what the Queen rules of the first four turns need.
    pub fn from_setup(setup: &Setup, rules: Rules) -> Result<Position, SetupError> {
        check_connected(&setup.stacks)?;
        let mut numbered: HashMap<(Color, Bug), u8> = HashMap::new();
        let mut pos = Position::with_rules(setup.game_type, rules);
        let mut board = Board::default();
        let origin = setup.stacks.first().map_or((0, 0), |s| s.0);
        let mut last = None;
        for &((q, r), ref stack) in &setup.stacks {
            if stack.is_empty() {
                return Err(SetupError::EmptyStack((q, r)));
            }
            let hex = Hex::from_axial(q - origin.0, r - origin.1);
            for (level, &(color, bug)) in stack.iter().enumerate() {
                if !setup.game_type.includes(bug) {
                    return Err(SetupError::NotInGame {
                        bug: bug.name(),
                        game_type: setup.game_type,
                    });
                }
                if level > 0 && !matches!(bug, Bug::Beetle | Bug::Mosquito) {
                    return Err(SetupError::Floating(bug.name()));
                }
                let n = numbered.entry((color, bug)).or_insert(0);
                *n += 1;
                let piece = Piece::new(color, bug, *n).ok_or(SetupError::TooMany {
                    color: color.name(),
                    bug: bug.name(),
                    count: usize::from(*n),
                    most: bug.count(),
                })?;
                board.push(piece, hex);
                if setup.last_moved_to == Some((q, r)) {
                    last = Some(piece);
                }
            }
        }
        if let (Some(cell), None) = (setup.last_moved_to, last) {
            return Err(SetupError::NoLastMover(cell));
        }
        let mut in_game = board.on_board().bits();
        for (color, hand) in Color::ALL.into_iter().zip(&setup.hands) {
            for &(bug, count) in hand {
                if count == 0 {
                    continue;
                }
                if !setup.game_type.includes(bug) {
                    return Err(SetupError::NotInGame {
                        bug: bug.name(),
                        game_type: setup.game_type,
                    });
                }
                let placed = numbered.get(&(color, bug)).copied().unwrap_or(0);
                let total = usize::from(placed) + usize::from(count);
                if total > usize::from(bug.count()) {
                    return Err(SetupError::TooMany {
                        color: color.name(),
                        bug: bug.name(),
                        count: total,
                        most: bug.count(),
                    });
                }
                for n in placed + 1..=placed + count {
                    if let Some(piece) = Piece::new(color, bug, n) {
                        in_game |= 1 << piece.index();
                    }
                }
            }
        }
        let ply = plies_played(&board, setup.to_move);
        pos.set_up(board, in_game, setup.to_move, last, ply);
        Ok(pos)
    }
}

/// The north-west corner of the occupied cells of `layout`: the least `q` and the least `r`.
pub fn corner(layout: &Layout) -> (i32, i32) {
    let occupied = layout.cells();
    let q = occupied.iter().map(|c| c.q).min().unwrap_or(0);
    let r = occupied.iter().map(|c| c.r).min().unwrap_or(0);
    (q, r)
}

/// The plies played before this position: each side's turns follow from the pieces it has on the board while its
/// Queen is in hand (every such turn was a placement); with both Queens down, any count of the right parity will
/// do, and the pieces placed are a lower bound.
fn plies_played(board: &Board, to_move: Color) -> usize {
    let pieces = |color: Color| board.on_board().iter().filter(|p| p.color() == color).count();
    let exact = |color: Color| {
        board
            .hex_of(crate::rules::position::queen(color))
            .is_none()
            .then(|| pieces(color))
    };
    // White has played one turn more than Black when Black is to move, as many otherwise.
    let extra = usize::from(to_move == Color::Black);
    let rounds = match (exact(to_move), exact(to_move.opponent())) {
        // The side to move has played `rounds` turns either way.
        (Some(own), _) => own,
        (None, Some(other)) => other.saturating_sub(extra),
        (None, None) => {
            let (white, black) = (pieces(Color::White), pieces(Color::Black));
            black.max(white.saturating_sub(extra))
        }
    };
    2 * rounds + extra
}

/// Whether the occupied cells form one hive.
fn check_connected(stacks: &[Stack]) -> Result<(), SetupError> {
    let mut cells = HashSet::new();
    for &(cell, _) in stacks {
        if !cells.insert(cell) {
            return Err(SetupError::SameCell(cell));
        }
    }
    let Some(&(start, _)) = stacks.first() else {
        return Ok(());
    };
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some((q, r)) = queue.pop_front() {
        for (dq, dr) in Direction::ALL.map(Direction::axial) {
            let next = (q + dq, r + dr);
            if cells.contains(&next) && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    match stacks.iter().find(|(cell, _)| !seen.contains(cell)) {
        Some(&(cell, _)) => Err(SetupError::Disconnected(cell)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moves::Move;

    /// The legal moves without piece numbers: bug, colour, from and to, as cells counted from the hive's corner.
    fn described(pos: &Position) -> Vec<(Color, Bug, Option<Cell>, Cell)> {
        let moves = pos.legal_moves();
        let board = pos.board();
        let targets: Vec<Hex> = moves.iter().filter_map(|m| m.to()).collect();
        let layout = Layout::of(board, &targets);
        let (q0, r0) = corner(&Layout::of(board, &[]));
        let at = |hex: Hex| layout.place_of(hex).map(|(q, r)| (q - q0, r - r0)).expect("laid out");
        let mut all: Vec<_> = moves
            .iter()
            .filter_map(|&m| match m {
                Move::Place { piece, to } => Some((piece.color(), piece.bug(), None, at(to))),
                Move::Move { piece, to } => Some((piece.color(), piece.bug(), board.hex_of(piece).map(at), at(to))),
                Move::Pass => None,
            })
            .collect();
        all.sort();
        all
    }

    #[test]
    fn a_position_set_up_from_its_own_description_has_the_same_moves() {
        for text in [
            "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
            "Base;InProgress;Black[3];wS1;bS1 wS1-;wS2 -wS1;bS2 bS1-;wQ /wS2",
            include_str!("../../tests/data/positions/pillbug_stun.txt"),
            include_str!("../../tests/data/positions/beetle_gate.txt"),
            include_str!("../../tests/data/positions/selfplay40.txt"),
        ] {
            let pos = crate::record::tests::position(text.trim());
            let setup = Setup::of(&pos);
            let again = Position::from_setup(&setup, Rules::default()).unwrap();
            assert_eq!(described(&again), described(&pos), "{text}");
            assert_eq!(again.legal_moves().len(), pos.legal_moves().len(), "{text}");
            assert_eq!(again.to_move(), pos.to_move());
            assert_eq!(Setup::of(&again), setup);
        }
    }

    #[test]
    fn impossible_boards_are_refused() {
        let white = |bug| (Color::White, bug);
        let setup = |stacks: Vec<Stack>| Setup {
            game_type: GameType::BASE,
            stacks,
            hands: [vec![], vec![]],
            to_move: Color::White,
            last_moved_to: None,
        };
        let refuse = |s: Setup| Position::from_setup(&s, Rules::default()).err().expect("refused");
        assert!(matches!(
            refuse(setup(vec![
                ((0, 0), vec![white(Bug::Queen)]),
                ((3, 0), vec![white(Bug::Ant)])
            ])),
            SetupError::Disconnected(_)
        ));
        assert!(matches!(
            refuse(setup(vec![((0, 0), vec![white(Bug::Ant), white(Bug::Queen)])])),
            SetupError::Floating(_)
        ));
        assert!(matches!(
            refuse(setup(vec![
                ((0, 0), vec![white(Bug::Queen)]),
                ((1, 0), vec![white(Bug::Queen)])
            ])),
            SetupError::TooMany { .. }
        ));
        assert!(matches!(
            refuse(setup(vec![((0, 0), vec![white(Bug::Pillbug)])])),
            SetupError::NotInGame { .. }
        ));
        assert!(matches!(
            refuse(setup(vec![((0, 0), vec![])])),
            SetupError::EmptyStack(_)
        ));
        let mut twice = setup(vec![((0, 0), vec![white(Bug::Queen)]), ((0, 0), vec![white(Bug::Ant)])]);
        assert!(matches!(refuse(twice.clone()), SetupError::SameCell(_)));
        twice.stacks.pop();
        twice.hands[0] = vec![(Bug::Ant, 4)];
        assert!(matches!(refuse(twice.clone()), SetupError::TooMany { .. }));
        twice.hands[0] = vec![];
        twice.last_moved_to = Some((5, 5));
        assert!(matches!(refuse(twice), SetupError::NoLastMover(_)));
    }

    #[test]
    fn the_queen_rules_follow_from_the_pieces_placed() {
        // White has three pieces down and no Queen: its fourth turn, so the Queen must be placed now.
        let text = "Base;InProgress;White[4];wS1;bS1 wS1-;wS2 -wS1;bS2 bS1-;wG1 -wS2;bQ bS2-";
        let pos = crate::record::tests::position(text);
        let again = Position::from_setup(&Setup::of(&pos), Rules::default()).unwrap();
        assert!(again
            .legal_moves()
            .iter()
            .all(|m| m.piece().is_some_and(|p| p.bug() == Bug::Queen)));
        assert_eq!(described(&again), described(&pos));
        assert_eq!(again.turn_number(), 4);
        // A reduced hand offers only what it holds.
        let mut setup = Setup::of(&crate::record::tests::position("Base;InProgress;White[2];wS1;bS1 wS1-"));
        setup.hands[0] = vec![(Bug::Ant, 1)];
        let reduced = Position::from_setup(&setup, Rules::default()).unwrap();
        assert!(reduced
            .legal_moves()
            .iter()
            .all(|m| matches!(m, Move::Place { piece, .. } if piece.bug() == Bug::Ant)));
    }
}
