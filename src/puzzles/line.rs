//! A puzzle's forced line, written out once it is proved: for a win, the solver's fastest move at each turn and
//! the opponent's longest defence, with the opponent's other replies that last as long (each with the solver's
//! answer, where it is not the solution's own next move); for a defence, the one move, and how soon every other
//! move loses. Moves are tried in the order of
//! their names, so that the same position always gives the same line. Every step is a question to the exact proof
//! search ([`Assume::Nothing`]).

use crate::record::notation::MoveString;
use crate::rules::moves::Move;
use crate::rules::piece::Color;
use crate::rules::position::{GameState, Position};
use crate::search::proof::{Assume, Halt, Prover};

use super::find::Found;
use super::Kind;

/// The most defences a record lists.
const MAX_DEFENCES: usize = 12;

/// The line of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lines {
    /// The forced line (a defence's one move).
    pub(crate) solution: Vec<Move>,
    /// The plies the puzzle is about: until the win, or within which every other move loses.
    pub(crate) plies: u32,
    /// The other defences: where each branches off the solution, and its moves from there.
    pub(crate) defences: Vec<(usize, Vec<Move>)>,
}

/// The line of the puzzle `found` in `position`, proved within `plies`.
pub(crate) fn lines(prover: &mut Prover, position: &Position, found: Found, plies: u32) -> Result<Lines, Halt> {
    prover.assume(Assume::Nothing);
    prover.forget();
    let me = position.to_move();
    let mut pos = position.clone();
    match found.kind {
        Kind::Win => {
            pos.play_unchecked(found.first);
            let rest = prover.distance(&pos, me, plies - 1)?.unwrap_or(0);
            let mut solution = vec![found.first];
            let mut defences = Vec::new();
            forced(prover, &mut pos, me, rest, &mut solution, Some(&mut defences))?;
            // A defence met by the solution's own next move needs no line of its own: a solver who plays that
            // move is right whichever of them was played. The rest are kept, up to a bound (the solvers ask the
            // proof search about any move off the record).
            defences.retain(|(ply, line): &(usize, Vec<Move>)| line.get(1) != solution.get(ply + 1));
            defences.truncate(MAX_DEFENCES);
            Ok(Lines {
                plies: 1 + rest,
                solution,
                defences,
            })
        }
        Kind::Defend => {
            let mut soonest = 1;
            for mv in by_name(&pos) {
                if mv == found.first {
                    continue;
                }
                pos.play_unchecked(mv);
                let loss = match pos.state() {
                    state if state == GameState::won_by(me.opponent()) => Some(0),
                    _ => prover.distance(&pos, me.opponent(), plies - 1)?,
                };
                pos.undo();
                soonest = soonest.max(1 + loss.unwrap_or(plies - 1));
            }
            Ok(Lines {
                solution: vec![found.first],
                plies: soonest,
                defences: Vec::new(),
            })
        }
    }
}

/// Extend `line` from `pos` (its moves played on `pos` as they are added), where `solver` wins in exactly
/// `plies`: the solver's first move that keeps the win shortest, the opponent's first reply that makes it
/// longest. With `defences`, each other reply as long is written out too, by where it branches off `line`.
fn forced(
    prover: &mut Prover,
    pos: &mut Position,
    solver: Color,
    mut plies: u32,
    line: &mut Vec<Move>,
    mut defences: Option<&mut Vec<(usize, Vec<Move>)>>,
) -> Result<(), Halt> {
    let won = GameState::won_by(solver);
    while plies > 0 && pos.state() != won {
        if pos.to_move() == solver {
            let mut chosen = None;
            for mv in by_name(pos) {
                pos.play_unchecked(mv);
                let keeps = prover.wins_within(pos, solver, plies - 1)?;
                pos.undo();
                if keeps {
                    chosen = Some(mv);
                    break;
                }
            }
            let Some(mv) = chosen else { break };
            pos.play_unchecked(mv);
            line.push(mv);
        } else {
            let mut longest: Vec<(Move, u32)> = Vec::new();
            for reply in by_name(pos) {
                pos.play_unchecked(reply);
                let lasts = if pos.state() == won {
                    0
                } else {
                    prover.distance(pos, solver, plies - 1)?.unwrap_or(0)
                };
                pos.undo();
                match longest.first() {
                    Some(&(_, best)) if lasts < best => {}
                    Some(&(_, best)) if lasts == best => longest.push((reply, lasts)),
                    _ => longest = vec![(reply, lasts)],
                }
            }
            let Some(&(reply, lasts)) = longest.first() else { break };
            if let Some(defences) = defences.as_deref_mut() {
                for &(other, _) in &longest[1..] {
                    pos.play_unchecked(other);
                    let mut branch = vec![other];
                    forced(prover, pos, solver, lasts, &mut branch, None)?;
                    for _ in 1..branch.len() {
                        pos.undo();
                    }
                    pos.undo();
                    defences.push((line.len(), branch));
                }
            }
            pos.play_unchecked(reply);
            line.push(reply);
            plies = lasts + 1;
        }
        plies -= 1;
    }
    Ok(())
}

/// The legal moves of `pos` in the order of their MoveStrings.
fn by_name(pos: &Position) -> Vec<Move> {
    let mut moves: Vec<(String, Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| (MoveString::from_move(pos, mv).to_string(), mv))
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves.into_iter().map(|(_, mv)| mv).collect()
}

/// The forced line from `position` in which `attacker` wins soonest and the defender lasts longest, if
/// `attacker` wins within `most` plies (empty otherwise): for a solver who has left the record's lines.
pub(crate) fn forced_line(
    prover: &mut Prover,
    position: &Position,
    attacker: Color,
    most: u32,
) -> Result<Vec<Move>, Halt> {
    let Some(plies) = prover.distance(position, attacker, most)? else {
        return Ok(Vec::new());
    };
    let mut pos = position.clone();
    let mut line = Vec::new();
    forced(prover, &mut pos, attacker, plies, &mut line, None)?;
    Ok(line)
}
