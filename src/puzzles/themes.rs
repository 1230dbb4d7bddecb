//! The motifs of a puzzle, named from its solution once it is proved: small functions, each deciding one motif from
//! the line played out, in the order docs/puzzles.md lists them. None of them takes part in finding or proving.

use crate::rules::hex::Hex;
use crate::rules::moves::Move;
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::position::{GameState, Position};

use super::Kind;

/// One move of the solution, with the position before it.
struct Step {
    before: Position,
    mv: Move,
    /// Whether the solver plays it.
    by_solver: bool,
}

/// The solution played out.
struct Played {
    kind: Kind,
    solver: Color,
    steps: Vec<Step>,
    /// The position after the last move.
    end: Position,
}

type Motif = fn(&Played) -> bool;

/// Each motif's name and the function that finds it.
const MOTIFS: &[(&str, Motif)] = &[
    ("surround", surround),
    ("suicide", suicide),
    ("beetle-climb", beetle_climb),
    ("pillbug-throw", pillbug_throw),
    ("ladybug-entry", ladybug_entry),
    ("mosquito-copy", mosquito_copy),
    ("pin", pin),
    ("gate", gate),
    ("queen-escape", queen_escape),
    ("counter-attack", counter_attack),
];

/// Every motif name, in the order a puzzle lists them.
pub fn names() -> impl Iterator<Item = &'static str> {
    MOTIFS.iter().map(|&(name, _)| name)
}

/// The motifs of the solution `line` of a puzzle of `kind` in `position`.
pub(crate) fn themes(position: &Position, kind: Kind, line: &[Move]) -> Vec<String> {
    let solver = position.to_move();
    let mut pos = position.clone();
    let mut steps = Vec::with_capacity(line.len());
    for &mv in line {
        steps.push(Step {
            before: pos.clone(),
            mv,
            by_solver: pos.to_move() == solver,
        });
        pos.play_unchecked(mv);
    }
    let played = Played {
        kind,
        solver,
        steps,
        end: pos,
    };
    MOTIFS
        .iter()
        .filter(|(_, motif)| motif(&played))
        .map(|&(name, _)| name.to_string())
        .collect()
}

impl Played {
    fn solver_steps(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(|step| step.by_solver)
    }

    fn won(&self) -> bool {
        self.end.state() == GameState::won_by(self.solver)
    }
}

/// Where `piece` stands in `pos`, if on the board.
fn at(pos: &Position, piece: Piece) -> Option<Hex> {
    pos.board().hex_of(piece)
}

/// The solver's own move fills the last cell around the enemy Queen.
fn surround(played: &Played) -> bool {
    played.won() && played.steps.last().is_some_and(|step| step.by_solver)
}

/// The opponent's last move surrounds its own Queen: it had no other.
fn suicide(played: &Played) -> bool {
    played.won() && played.steps.last().is_some_and(|step| !step.by_solver)
}

/// A Beetle (or a Mosquito) of the solver's climbs onto the hive.
fn beetle_climb(played: &Played) -> bool {
    played.solver_steps().any(|step| match step.mv {
        Move::Move { piece, to } => {
            piece.color() == played.solver
                && matches!(piece.bug(), Bug::Beetle | Bug::Mosquito)
                && step.before.board().is_occupied(to)
        }
        _ => false,
    })
}

/// The solver's Pillbug (or a Mosquito beside one) throws a piece: the opponent's, or one of the solver's own that
/// could not have made the jump itself (a one-step bug carried two cells over the thrower).
fn pillbug_throw(played: &Played) -> bool {
    played.solver_steps().any(|step| match step.mv {
        Move::Move { piece, .. } if piece.color() != played.solver => true,
        Move::Move { piece, to } => {
            let board = step.before.board();
            let Some(from) = at(&step.before, piece) else {
                return false;
            };
            let one_step = matches!(piece.bug(), Bug::Queen | Bug::Pillbug)
                || (piece.bug() == Bug::Beetle && board.height(from) == 1 && board.height(to) == 0);
            let thrower_between = from.neighbours().into_iter().any(|cell| {
                cell.is_next_to(to)
                    && board.height(cell) == 1
                    && board
                        .top(cell)
                        .is_some_and(|p| p.color() == played.solver && matches!(p.bug(), Bug::Pillbug | Bug::Mosquito))
            });
            one_step && from.distance(to) == 2 && thrower_between
        }
        _ => false,
    })
}

/// The solver's Ladybug comes down next to the enemy Queen.
fn ladybug_entry(played: &Played) -> bool {
    played.solver_steps().any(|step| match step.mv {
        Move::Move { piece, to } => {
            piece.color() == played.solver
                && piece.bug() == Bug::Ladybug
                && step
                    .before
                    .queen_hex(played.solver.opponent())
                    .is_some_and(|queen| queen.is_next_to(to))
        }
        _ => false,
    })
}

/// The solver's Mosquito moves, as the bug it copies.
fn mosquito_copy(played: &Played) -> bool {
    played.solver_steps().any(|step| {
        matches!(step.mv, Move::Move { piece, .. } if piece.color() == played.solver && piece.bug() == Bug::Mosquito)
    })
}

/// A move of the solver's pins a piece of the opponent's (it may no longer move without splitting the hive).
fn pin(played: &Played) -> bool {
    let theirs = |pos: &Position| {
        pos.pinned()
            .into_iter()
            .filter(|p| p.color() != played.solver)
            .collect::<Vec<_>>()
    };
    played.steps.iter().enumerate().any(|(i, step)| {
        let after = played.steps.get(i + 1).map_or(&played.end, |next| &next.before);
        step.by_solver && theirs(after).iter().any(|p| !theirs(&step.before).contains(p))
    })
}

/// With the opponent to move, its Queen has an empty neighbouring cell she cannot slide into: the two cells
/// beside the way are taken (a gate).
fn gate(played: &Played) -> bool {
    let opponent = played.solver.opponent();
    played.steps.iter().filter(|step| !step.by_solver).any(|step| {
        let board = step.before.board();
        let Some(queen) = step.before.queen_hex(opponent) else {
            return false;
        };
        crate::rules::hex::Direction::ALL.into_iter().any(|dir| {
            let cell = queen.step(dir);
            !board.is_occupied(cell)
                && board.is_occupied(queen.step(dir.clockwise()))
                && board.is_occupied(queen.step(dir.anticlockwise()))
        })
    })
}

/// A defence: the one move that holds moves the solver's own Queen.
fn queen_escape(played: &Played) -> bool {
    played.kind == Kind::Defend
        && played
            .steps
            .first()
            .is_some_and(|step| matches!(step.mv, Move::Move { piece, .. } if piece == queen_of(played.solver)))
}

/// A defence: the one move that holds puts a piece next to the enemy Queen.
fn counter_attack(played: &Played) -> bool {
    played.kind == Kind::Defend
        && played.steps.first().is_some_and(|step| {
            let queen = step.before.queen_hex(played.solver.opponent());
            step.mv.to().zip(queen).is_some_and(|(to, queen)| to.is_next_to(queen))
        })
}

/// The Queen of `color`.
fn queen_of(color: Color) -> Piece {
    crate::rules::position::queen(color)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::notation::MoveString;
    use crate::record::tests::position;

    fn line(pos: &Position, moves: &[&str]) -> Vec<Move> {
        let mut pos = pos.clone();
        moves
            .iter()
            .map(|text| {
                let mv = text.parse::<MoveString>().unwrap().to_move(&pos).unwrap();
                pos.play(mv).unwrap();
                mv
            })
            .collect()
    }

    #[test]
    fn a_win_by_a_climbing_beetle_is_named_so() {
        // White's Beetle climbs onto a Spider beside Black's Queen, then nothing: a line of one climbing move.
        let pos = position("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wQ;bA1 bQ-");
        let climb = line(&pos, &["wB1 wQ"]);
        let found = themes(&pos, Kind::Win, &climb);
        assert!(found.contains(&"beetle-climb".to_string()), "{found:?}");
        assert!(
            !found.contains(&"surround".to_string()),
            "the game is not won: {found:?}"
        );
        assert!(names().count() >= 8);
    }
}
