//! Proofs of forced wins: whether a side can surround the enemy Queen within N plies whatever the other side
//! plays, answered yes or no (or "not within the budget"), never from a score. An AND/OR search over the real move
//! generator: where the side trying to win (the attacker) is to move, one move must win; where the defender is,
//! every reply must lose, and a reply that surrounds the defender's own Queen loses at once. A move that surrounds
//! both Queens draws, and a draw is no win.
//!
//! What makes it fast enough to ask of every position of a game: a win on the spot is looked for first, by the
//! move generator's targeted test ([`Position::winning_move`]); a lower bound on the plies the defender's Queen
//! needs to be surrounded ends a line without generating its moves (`bound`); answers are remembered per position
//! and attacker (`table`), and moves are tried in the search's own order (pressure on a Queen first, then killers
//! and history), so that the move that proves a win, or the reply that refutes it, tends to come first.
//!
//! Two strengths of answer. [`Assume::Nothing`] is exact: "no win" means none exists. [`Assume::QuietDefence`]
//! also assumes that the defender is never forced to fill the cells around its own Queen, which is almost always
//! so in real games and cuts the search by orders of magnitude: its "win" is still a proof (every line was played
//! out), but its "no win" may miss a win that rests on the defender having no other move. A puzzle miner looks
//! with it and proves what it found without it.
//!
//! Owns the proofs and what they need (the bound, the memory); the puzzles themselves are `crate::puzzles`'.

mod bound;
mod table;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::rules::moves::{Move, MoveList};
use crate::rules::piece::{Bug, Color};
use crate::rules::position::{GameState, Position};

use super::ordering::{Heuristics, Ordered};
use bound::{Outlook, Reach};
use table::{Known, Table};

/// What a search may assume of the defender beyond the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Assume {
    /// Nothing: every answer is exact.
    Nothing,
    /// That the defender always has a move that does not fill a cell around its own Queen (nor moves her): only
    /// the attacker's plies then count towards surrounding her.
    QuietDefence,
}

/// Why a question got no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Halt {
    /// It needed more nodes than the budget.
    #[error("the proof needed more than {0} nodes")]
    Budget(u64),
    /// The stop flag was raised.
    #[error("stopped")]
    Stopped,
}

/// What a first move is asked to do in [`Prover::first_moves`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Aim {
    /// Force a win within the plies (the move itself is the first of them).
    Win,
    /// Leave the opponent no forced win within the plies (the move itself is the first of them).
    Hold,
}

/// Mixed into the key of a position when White is the attacker, so that the two questions about one position
/// ("can the side to move win?" and "can the other side?") are kept apart.
const WHITE_ATTACKS: u64 = 0x9e37_79b9_7f4a_7c15;

/// Look at the stop flag once per this many nodes.
const STOP_EVERY: u64 = 1024;

/// A proof searcher: its memory and limits. One per thread.
pub(crate) struct Prover {
    table: Table,
    heuristics: Heuristics,
    assume: Assume,
    /// The most nodes one question may visit.
    budget: Option<u64>,
    /// Nodes visited, over every question.
    nodes: u64,
    /// `nodes` when the current question started.
    started_at: u64,
    stop: Option<Arc<AtomicBool>>,
}

impl Prover {
    /// A prover whose memory keeps `2^bits` positions (24 bytes each), assuming nothing.
    pub(crate) fn new(bits: u32) -> Prover {
        Prover {
            table: Table::new(bits),
            heuristics: Heuristics::new(),
            assume: Assume::Nothing,
            budget: None,
            nodes: 0,
            started_at: 0,
            stop: None,
        }
    }

    /// Assume `assume` from now on (what was learnt under another assumption is forgotten).
    pub(crate) fn assume(&mut self, assume: Assume) {
        if assume != self.assume {
            self.assume = assume;
            self.forget();
        }
    }

    /// Give up a question after `nodes` nodes (none: never).
    pub(crate) fn set_budget(&mut self, nodes: Option<u64>) {
        self.budget = nodes;
    }

    /// Give up every question once `stop` is raised.
    pub(crate) fn set_stop(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    /// Forget what was learnt, so that what follows is answered as if it were asked first (the same nodes, the
    /// same moves found first): a miner does so before each position, whatever thread it runs on.
    pub(crate) fn forget(&mut self) {
        self.table.forget();
        self.heuristics.clear();
    }

    /// Nodes visited so far, over every question.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether `attacker` forces a win within `plies` plies from `position` (0: the game is already won).
    pub(crate) fn wins_within(&mut self, position: &Position, attacker: Color, plies: u32) -> Result<bool, Halt> {
        self.started_at = self.nodes;
        if position.state() == GameState::won_by(attacker) {
            return Ok(true);
        }
        if position.state().is_over() {
            return Ok(false);
        }
        let mut pos = position.clone();
        if pos.to_move() == attacker {
            self.attack(&mut pos, attacker, plies, 0)
        } else {
            self.defend(&mut pos, attacker, plies, 0)
        }
    }

    /// The fewest plies, up to `most`, within which `attacker` forces a win from `position`; `None` when there is
    /// no such win within `most`.
    pub(crate) fn distance(&mut self, position: &Position, attacker: Color, most: u32) -> Result<Option<u32>, Halt> {
        for plies in 0..=most {
            if self.wins_within(position, attacker, plies)? {
                return Ok(Some(plies));
            }
        }
        Ok(None)
    }

    /// The first moves of the side to move in `position` that do what `aim` asks within `plies` plies, in the
    /// order they are tried, stopping once `enough` are found. The budget is for the whole list.
    pub(crate) fn first_moves(
        &mut self,
        position: &Position,
        plies: u32,
        aim: Aim,
        enough: usize,
    ) -> Result<Vec<Move>, Halt> {
        self.started_at = self.nodes;
        let mut found = Vec::new();
        if position.state().is_over() || plies == 0 || enough == 0 {
            return Ok(found);
        }
        let mut pos = position.clone();
        let me = pos.to_move();
        let mut ordered = Ordered::new();
        // A win on the spot first: in a position with two, the second is then found soon after.
        let first = pos.winning_move();
        self.heuristics.generate_ordered(&pos, first, 0, &mut ordered);
        while let Some((mv, _)) = ordered.next() {
            self.tick()?;
            pos.play_unchecked(mv);
            let does = match (aim, pos.state()) {
                (Aim::Win, state) if state == GameState::won_by(me) => true,
                (Aim::Win, state) if state.is_over() => false,
                (Aim::Win, _) => self.defend(&mut pos, me, plies - 1, 1)?,
                (Aim::Hold, state) if state == GameState::won_by(me.opponent()) => false,
                (Aim::Hold, state) if state.is_over() => true,
                (Aim::Hold, _) => !self.attack(&mut pos, me.opponent(), plies - 1, 1)?,
            };
            pos.undo();
            if does {
                found.push(mv);
                if found.len() >= enough {
                    break;
                }
            }
        }
        Ok(found)
    }

    /// In `position`, with the defender to move and no win for `attacker` within `plies`: a reply that keeps it
    /// so (the refutation of the move that led here); `None` when every reply loses within `plies`.
    pub(crate) fn holding_reply(
        &mut self,
        position: &Position,
        attacker: Color,
        plies: u32,
    ) -> Result<Option<Move>, Halt> {
        self.started_at = self.nodes;
        if position.state().is_over() || position.to_move() == attacker {
            return Ok(None);
        }
        let mut pos = position.clone();
        if let Some(win) = pos.winning_move() {
            return Ok(Some(win));
        }
        let mut ordered = Ordered::new();
        self.heuristics.generate_ordered(&pos, None, 0, &mut ordered);
        while let Some((mv, _)) = ordered.next() {
            self.tick()?;
            pos.play_unchecked(mv);
            let holds = match pos.state() {
                state if state == GameState::won_by(attacker) => false,
                state if state.is_over() => true,
                _ => plies == 0 || !self.attack(&mut pos, attacker, plies.saturating_sub(1), 1)?,
            };
            pos.undo();
            if holds {
                return Ok(Some(mv));
            }
        }
        Ok(None)
    }

    /// Count a node; give up when the budget is spent or the stop flag is up.
    #[inline]
    fn tick(&mut self) -> Result<(), Halt> {
        self.nodes += 1;
        if let Some(budget) = self.budget {
            if self.nodes - self.started_at > budget {
                return Err(Halt::Budget(budget));
            }
        }
        if self.nodes.is_multiple_of(STOP_EVERY) && self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(Halt::Stopped);
        }
        Ok(())
    }

    /// The key of `pos` for the question of whether `attacker` wins.
    #[inline]
    fn key(pos: &Position, attacker: Color) -> u64 {
        pos.hash() ^ if attacker == Color::White { WHITE_ATTACKS } else { 0 }
    }

    /// What the bound says of `attacker` surrounding the enemy Queen within `plies` from `pos`.
    #[inline]
    fn outlook(&self, pos: &Position, attacker: Color, plies: u32) -> Outlook {
        let throws = pos.game_type().includes(Bug::Pillbug);
        let (counted, reach) = match self.assume {
            Assume::Nothing => (
                plies,
                Reach {
                    steps: true,
                    thrown_by: throws.then_some(None),
                },
            ),
            // The attacker's plies alone (the first of them now if the attacker is to move), and the Queen moves
            // only when the attacker throws her.
            Assume::QuietDefence => (
                (plies + u32::from(pos.to_move() == attacker)) / 2,
                Reach {
                    steps: false,
                    thrown_by: throws.then_some(Some(attacker)),
                },
            ),
        };
        bound::outlook(pos, attacker.opponent(), counted, reach)
    }

    /// The attacker to move: whether some move wins within `plies`.
    fn attack(&mut self, pos: &mut Position, attacker: Color, plies: u32, ply: usize) -> Result<bool, Halt> {
        if plies == 0 {
            return Ok(false);
        }
        let outlook = self.outlook(pos, attacker, plies);
        if outlook == Outlook::Hopeless {
            return Ok(false);
        }
        if plies == 1 {
            // The generator's own test answers at once: cheaper than the memory, whose slot is seldom in a cache.
            return Ok(pos.winning_move().is_some());
        }
        let key = Prover::key(pos, attacker);
        let hint = match self.table.probe(key, plies) {
            Known::Won => return Ok(true),
            Known::Safe => return Ok(false),
            Known::Open(hint) => hint,
        };
        if let Some(win) = pos.winning_move() {
            self.table.won(key, 1, Some(win));
            return Ok(true);
        }
        if let Outlook::Tight(gaps, count) = outlook {
            // Only a move onto one of her empty neighbours keeps the line alive: those alone are generated.
            let mut onto = MoveList::new();
            let mut moves = MoveList::new();
            for &gap in &gaps[..count] {
                pos.generate_moves_onto(gap, &mut onto);
                moves.extend(onto.iter().copied());
            }
            for mv in moves {
                if self.attack_by(pos, attacker, mv, plies, ply)? {
                    self.table.won(key, plies, Some(mv));
                    return Ok(true);
                }
            }
        } else {
            let mut ordered = Ordered::new();
            self.heuristics.generate_ordered(pos, hint, ply, &mut ordered);
            while let Some((mv, _)) = ordered.next() {
                if self.attack_by(pos, attacker, mv, plies, ply)? {
                    self.table.won(key, plies, Some(mv));
                    return Ok(true);
                }
            }
        }
        self.table.safe(key, plies, None);
        Ok(false)
    }

    /// Whether the attacker's `mv` wins within `plies` (itself the first of them).
    #[inline]
    fn attack_by(
        &mut self,
        pos: &mut Position,
        attacker: Color,
        mv: Move,
        plies: u32,
        ply: usize,
    ) -> Result<bool, Halt> {
        self.tick()?;
        pos.play_unchecked(mv);
        // No move wins at once (that was looked for), so a game that ended was lost or drawn.
        let wins = !pos.state().is_over() && self.defend(pos, attacker, plies - 1, ply + 1)?;
        pos.undo();
        if wins {
            self.heuristics.reward(mv, ply, plies);
        }
        Ok(wins)
    }

    /// The defender to move: whether every reply loses within `plies`.
    fn defend(&mut self, pos: &mut Position, attacker: Color, plies: u32, ply: usize) -> Result<bool, Halt> {
        if plies == 0 || self.outlook(pos, attacker, plies) == Outlook::Hopeless {
            return Ok(false);
        }
        let key = Prover::key(pos, attacker);
        let hint = match self.table.probe(key, plies) {
            Known::Won => return Ok(true),
            Known::Safe => return Ok(false),
            Known::Open(hint) => hint,
        };
        // The defender wins first.
        if let Some(win) = pos.winning_move() {
            self.table.safe(key, plies, Some(win));
            return Ok(false);
        }
        let won = GameState::won_by(attacker);
        let mut ordered = Ordered::new();
        self.heuristics.generate_ordered(pos, hint, ply, &mut ordered);
        while let Some((reply, _)) = ordered.next() {
            self.tick()?;
            pos.play_unchecked(reply);
            let loses = match pos.state() {
                state if state == won => true,
                state if state.is_over() => false,
                _ => self.attack(pos, attacker, plies - 1, ply + 1)?,
            };
            pos.undo();
            if !loses {
                self.heuristics.reward(reply, ply, plies);
                self.table.safe(key, plies, Some(reply));
                return Ok(false);
            }
        }
        self.table.won(key, plies, None);
        Ok(true)
    }
}

#[cfg(test)]
mod tests;
