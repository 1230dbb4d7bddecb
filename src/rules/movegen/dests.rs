//! Sets of cells without allocation: a stamp per cell, bumped instead of cleared.

use crate::rules::hex::{Hex, GRID};

/// A set of cells that remembers insertion order; emptied in O(1).
#[derive(Clone)]
pub(crate) struct CellSet {
    stamp: [u32; GRID],
    epoch: u32,
    list: [Hex; GRID],
    len: usize,
}

impl Default for CellSet {
    fn default() -> Self {
        CellSet {
            stamp: [0; GRID],
            epoch: 1,
            list: [Hex::ORIGIN; GRID],
            len: 0,
        }
    }
}

impl CellSet {
    /// Empty the set.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        if self.epoch == u32::MAX {
            self.stamp = [0; GRID];
            self.epoch = 0;
        }
        self.epoch += 1;
    }

    /// Add `hex`; returns whether it was new.
    #[inline]
    pub(crate) fn insert(&mut self, hex: Hex) -> bool {
        let slot = &mut self.stamp[hex.index()];
        if *slot == self.epoch {
            return false;
        }
        *slot = self.epoch;
        self.list[self.len] = hex;
        self.len += 1;
        true
    }

    /// Add `hex`, known not to be in the set, without marking it: for lists built without repeats.
    #[inline]
    pub(crate) fn push(&mut self, hex: Hex) {
        self.list[self.len] = hex;
        self.len += 1;
    }

    /// Add `start` (not yet in the set) and then every cell reachable from an added cell through `next` (the cells one step on from a
    /// cell), breadth first. The list and its length stay in registers for the whole walk instead of going
    /// through `insert`, which the flood fill of every Soldier Ant pays for at each step.
    #[inline]
    pub(crate) fn flood<I: Iterator<Item = Hex>>(&mut self, start: Hex, mut next: impl FnMut(Hex) -> I) {
        let CellSet {
            stamp,
            epoch,
            list,
            len,
        } = self;
        let epoch = *epoch;
        let mut end = *len;
        let mut at = end;
        stamp[start.index()] = epoch;
        list[end & (GRID - 1)] = start;
        end += 1;
        while at < end {
            let cell = list[at & (GRID - 1)];
            at += 1;
            for to in next(cell) {
                let slot = &mut stamp[to.index()];
                if *slot != epoch {
                    *slot = epoch;
                    list[end & (GRID - 1)] = to;
                    end += 1;
                }
            }
        }
        *len = end;
    }

    /// Drop the first cell from the list (it stays marked as present).
    #[inline]
    pub(crate) fn remove_first(&mut self) {
        if self.len > 0 {
            self.len -= 1;
            self.list[0] = self.list[self.len];
        }
    }

    /// Number of cells in the set.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The cells, in the order they were added.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[Hex] {
        &self.list[..self.len]
    }
}
