//! What the proof search remembers of the positions it has settled: for a position and the side trying to win,
//! the fewest plies within which a win was proved, the most within which it was shown not to exist, and the move
//! that proved it. Both stay true for other limits: a win within 3 is a win within 5, and no win within 5 is no
//! win within 3, so each answer serves every later question it settles.
//!
//! Owns storage and replacement (a flat array indexed by the key, the newer result taking the slot) and forgetting
//! (a new generation makes every slot of the old ones empty, so that the answers to one question do not depend on
//! the questions asked before it); nothing about how the answers were found.

use crate::rules::moves::Move;

/// One position's answers.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    /// The generation that wrote the slot: a slot of an older one is empty.
    generation: u32,
    /// The fewest plies within which a win is proved (0: none proved).
    won_within: u8,
    /// The most plies within which no win exists (0: nothing shown).
    safe_within: u8,
    /// The move that proved the win, or the reply that held.
    best: Option<Move>,
}

/// What the table knows of a position, for a question of `plies`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// A win within the plies is proved.
    Won,
    /// No win within the plies exists.
    Safe,
    /// Not settled; the move to try first, if any.
    Open(Option<Move>),
}

/// The table: a power of two of slots.
pub(crate) struct Table {
    slots: Box<[Slot]>,
    generation: u32,
}

impl Table {
    /// A table of `2^bits` slots (24 bytes each).
    pub(crate) fn new(bits: u32) -> Table {
        Table {
            slots: vec![Slot::default(); 1 << bits].into_boxed_slice(),
            generation: 1,
        }
    }

    /// Forget everything, at once: the slots written so far are of an older generation.
    pub(crate) fn forget(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After four billion questions the old generations' numbers come round again: wipe them.
            self.slots.fill(Slot::default());
            self.generation = 1;
        }
    }

    fn slot(&self, key: u64) -> usize {
        // The low bits index the slot; the whole key is kept to tell positions apart.
        key as usize & (self.slots.len() - 1)
    }

    /// What the table says of the position `key` for a question of `plies`.
    pub(crate) fn probe(&self, key: u64, plies: u32) -> Known {
        let slot = &self.slots[self.slot(key)];
        if slot.key != key || slot.generation != self.generation {
            return Known::Open(None);
        }
        if slot.won_within != 0 && u32::from(slot.won_within) <= plies {
            Known::Won
        } else if u32::from(slot.safe_within) >= plies {
            Known::Safe
        } else {
            Known::Open(slot.best)
        }
    }

    /// The slot of the position `key`, emptied for it first when it holds another position or an older
    /// generation's answers.
    fn claim(&mut self, key: u64) -> &mut Slot {
        let index = self.slot(key);
        let generation = self.generation;
        let slot = &mut self.slots[index];
        if slot.key != key || slot.generation != generation {
            *slot = Slot {
                key,
                generation,
                ..Slot::default()
            };
        }
        slot
    }

    /// A win within `plies`, by `best`.
    pub(crate) fn won(&mut self, key: u64, plies: u32, best: Option<Move>) {
        let slot = self.claim(key);
        let plies = plies as u8;
        if slot.won_within == 0 || plies < slot.won_within {
            slot.won_within = plies;
            slot.best = best.or(slot.best);
        }
    }

    /// No win within `plies`; `best` the reply that held, if the defender was to move.
    pub(crate) fn safe(&mut self, key: u64, plies: u32, best: Option<Move>) {
        let slot = self.claim(key);
        let plies = plies as u8;
        if plies > slot.safe_within {
            slot.safe_within = plies;
            if slot.won_within == 0 {
                slot.best = best.or(slot.best);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_serve_the_questions_they_settle() {
        let mut table = Table::new(4);
        assert_eq!(table.probe(7, 3), Known::Open(None));
        table.won(7, 3, Some(Move::Pass));
        assert_eq!(table.probe(7, 3), Known::Won);
        assert_eq!(table.probe(7, 5), Known::Won);
        assert_eq!(table.probe(7, 1), Known::Open(Some(Move::Pass)));
        table.safe(7, 1, None);
        assert_eq!(table.probe(7, 1), Known::Safe);
        // Another position in the same slot takes it over.
        table.safe(7 + 16, 5, None);
        assert_eq!(table.probe(7, 3), Known::Open(None));
        assert_eq!(table.probe(7 + 16, 4), Known::Safe);
        table.forget();
        assert_eq!(table.probe(7 + 16, 4), Known::Open(None));
        table.won(7 + 16, 9, None);
        assert_eq!(
            table.probe(7 + 16, 4),
            Known::Open(None),
            "nothing of the old generation is left"
        );
    }
}
