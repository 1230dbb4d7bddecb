//! The moves other threads are searching right now, so that a thread can put them off (a simplified ABDADA:
//! "alpha-beta distribution with a delayed answer"). A thread that meets, at a node of depth enough, a move that
//! another thread has begun and not finished leaves it to the end of that node's list, searching the moves nobody
//! is on first; by the time it comes back the other thread has usually stored the answer in the table. Two threads
//! so split a tree between them instead of walking the same one, as shared-table helpers alone do.
//!
//! Owns a small table of (position, move) marks, written without locks: a mark lost to a collision or a race only
//! makes a thread search a move twice, or put one off for nothing, never search it wrong. The tree walk sees the
//! table through [`Split`], so that a test can hand it other answers (every move taken) without the table asking
//! anything more of itself.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::rules::moves::Move;

use super::tt::pack_move;

/// Slots in the table: enough for every node of depth enough on two threads' paths, with few collisions.
const SLOTS: usize = 1 << 14;

/// The nodes closer to the leaves than this many plies mark nothing: their subtrees are too small to share.
pub(crate) const SPLIT_DEPTH: u32 = 3;

/// How the threads of a search tell each other which moves they are on: the marks the tree walk asks about.
pub(crate) trait Split: Sync {
    /// Whether another thread is searching the move of `mark` (made by [`Busy::mark`]).
    fn taken(&self, mark: u64) -> bool;
    /// This thread begins the move of `mark`.
    fn begin(&self, mark: u64);
    /// This thread is done with the move of `mark`.
    fn end(&self, mark: u64);
}

/// Marks of the moves being searched, one search's threads sharing it.
pub(crate) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    /// No move marked.
    pub fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The mark of `mv` played in the position of hash `position`.
    #[inline]
    pub fn mark(position: u64, mv: Move) -> u64 {
        // Never 0, the empty slot.
        (position ^ u64::from(pack_move(Some(mv))).wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1
    }

    #[inline]
    fn slot(&self, mark: u64) -> &AtomicU64 {
        &self.slots[(mark >> 50) as usize & (SLOTS - 1)]
    }
}

impl Split for Busy {
    #[inline]
    fn taken(&self, mark: u64) -> bool {
        self.slot(mark).load(Relaxed) == mark
    }

    #[inline]
    fn begin(&self, mark: u64) {
        self.slot(mark).store(mark, Relaxed);
    }

    /// The slot is freed unless another mark took it meanwhile.
    #[inline]
    fn end(&self, mark: u64) {
        let _ = self.slot(mark).compare_exchange(mark, 0, Relaxed, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_begun_move_is_taken_until_it_ends() {
        let busy = Busy::new();
        let (a, b) = (
            Busy::mark(0x1234_5678_9abc_def0, Move::Pass),
            Busy::mark(0x0fed_cba9_8765_4321, Move::Pass),
        );
        assert_ne!(a, b);
        assert!(!busy.taken(a));
        busy.begin(a);
        assert!(busy.taken(a));
        assert!(!busy.taken(b));
        busy.end(a);
        assert!(!busy.taken(a));
    }
}
