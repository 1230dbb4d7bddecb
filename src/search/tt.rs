//! The transposition table: what earlier searches learnt about a position, keyed by `Position::hash()`.
//!
//! Owns storage (one flat allocation, sized in megabytes, made only when the size changes), the replacement policy
//! and the ply adjustment of win scores. It does not decide what to search or trust its moves blindly: a stored
//! move is only a hint that the caller finds among the generated moves.

use crate::moves::Move;

use super::{MAX_PLY, WIN};

/// What a stored score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (no move beat alpha).
    Upper,
}

/// One slot. Twelve bytes: the index comes from the hash's high bits, `check` holds its low 32 bits.
#[derive(Clone, Copy, Default)]
struct Entry {
    check: u32,
    best: Option<Move>,
    score: i16,
    depth: u8,
    /// Bits 0–1: bound (0 for an empty slot); bits 2–7: the search generation that wrote it.
    meta: u8,
}

impl Entry {
    fn bound(self) -> Option<Bound> {
        match self.meta & 3 {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }

    fn generation(self) -> u8 {
        self.meta >> 2
    }
}

/// What the table knows about a position, scores already adjusted to the probing ply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub best: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub bound: Bound,
}

/// A fixed-size hash table of search results.
pub(crate) struct Table {
    entries: Vec<Entry>,
    generation: u8,
}

impl Table {
    /// A table of about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> Table {
        let slots = (mb.saturating_mul(1 << 20) / std::mem::size_of::<Entry>()).max(1);
        Table {
            entries: vec![Entry::default(); slots],
            generation: 0,
        }
    }

    /// Forget everything.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Start a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3f;
    }

    #[inline]
    fn slot(&self, hash: u64) -> usize {
        // Multiply-shift maps the hash onto any table length without a power-of-two size or a division.
        ((u128::from(hash) * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `hash`, if it is there, with its score seen from `ply`.
    #[inline]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        let entry = self.entries[self.slot(hash)];
        let bound = entry.bound()?;
        (entry.check == hash as u32).then(|| Hit {
            best: entry.best,
            score: score_from_table(i32::from(entry.score), ply),
            depth: u32::from(entry.depth),
            bound,
        })
    }

    /// Remember a result for `hash` searched to `depth` at `ply`. A slot is taken over unless it holds a deeper
    /// result for another position from this same search.
    #[inline]
    pub fn store(&mut self, hash: u64, ply: usize, depth: u32, bound: Bound, score: i32, best: Option<Move>) {
        let index = self.slot(hash);
        let old = self.entries[index];
        let check = hash as u32;
        let depth = depth.min(u32::from(u8::MAX)) as u8;
        let same = old.check == check && old.bound().is_some();
        if !same && old.bound().is_some() && old.generation() == self.generation && old.depth > depth {
            return;
        }
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        self.entries[index] = Entry {
            check,
            // A fail-low knows no best move; keep the one an earlier search of this position found.
            best: best.or(if same { old.best } else { None }),
            score: score_to_table(score, ply) as i16,
            depth,
            meta: self.generation << 2 | bound_bits,
        };
    }
}

/// Win scores count plies from the root; in the table they count from the stored position, so that the same
/// position reached at another ply reads back the right distance to the win.
#[inline]
fn score_to_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN - MAX_PLY as i32 {
        score + ply
    } else if score <= -(WIN - MAX_PLY as i32) {
        score - ply
    } else {
        score
    }
}

#[inline]
fn score_from_table(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score >= WIN - MAX_PLY as i32 {
        score - ply
    } else if score <= -(WIN - MAX_PLY as i32) {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_with_win_distance_moved_to_the_probing_ply() {
        let mut table = Table::new(1);
        let hash = 0x1234_5678_9abc_def0;
        table.store(hash, 3, 5, Bound::Exact, WIN - 7, Some(Move::Pass));
        let hit = table.probe(hash, 1).expect("stored");
        assert_eq!(hit.score, WIN - 5);
        assert_eq!(hit.depth, 5);
        assert_eq!(hit.bound, Bound::Exact);
        assert_eq!(hit.best, Some(Move::Pass));
        assert!(table.probe(hash ^ 1, 1).is_none());
        table.clear();
        assert!(table.probe(hash, 1).is_none());
    }

    #[test]
    fn a_deeper_entry_of_this_search_is_kept_and_a_fail_low_keeps_the_move() {
        let mut table = Table::new(0);
        table.store(1, 0, 6, Bound::Lower, 10, Some(Move::Pass));
        table.store(2, 0, 2, Bound::Exact, 20, None);
        assert_eq!(table.probe(1, 0).map(|h| h.score), Some(10));
        table.store(1, 0, 7, Bound::Upper, 5, None);
        assert_eq!(table.probe(1, 0).and_then(|h| h.best), Some(Move::Pass));
        table.new_search();
        table.store(2, 0, 2, Bound::Exact, 20, None);
        assert_eq!(table.probe(2, 0).map(|h| h.score), Some(20));
    }
}
