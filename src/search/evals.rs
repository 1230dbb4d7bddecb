//! A per-thread memory of leaf values by position hash: the leaves of one iteration come back in the next, and
//! transposed move orders reach the same leaf. Forgotten at the start of each search, so that it never mixes the
//! evaluations of two weight sets.

use super::pages::Pages;

/// Entries (16 bytes each): 4 MB a thread, room for most of the leaves of a search of a second or less.
const SLOTS: usize = 1 << 18;

/// The memory of the entries, for the report of an allocation that failed.
const LAYOUT: std::alloc::Layout = match std::alloc::Layout::from_size_align(SLOTS * 16, 8) {
    Ok(layout) => layout,
    Err(_) => panic!("the leaf memory's size"),
};

pub(crate) struct Evals {
    /// Keys (a position's hash mixed with the salt) and values. An unused entry is zero, a key that a position
    /// matches with a chance of one in 2^64.
    entries: Pages<(u64, i32)>,
    /// Mixed into every key: a new search takes a new salt, and the entries of earlier searches no longer match,
    /// so that forgetting them costs nothing (a search of a few milliseconds would spend much of its time wiping
    /// the entries).
    salt: u64,
}

impl Evals {
    pub fn new() -> Evals {
        // Read at random at every leaf: huge pages spare it the misses of the processor's list of pages. Made
        // once for a searcher's life and only ever written over, so the pages are gathered once.
        let entries = Pages::new(SLOTS).unwrap_or_else(|| std::alloc::handle_alloc_error(LAYOUT));
        entries.use_huge_pages();
        Evals {
            entries,
            salt: 0x9e37_79b9_7f4a_7c15,
        }
    }

    /// Forget every value.
    pub fn clear(&mut self) {
        // An odd constant step visits every salt before it repeats; a key matches an old entry only by a 64-bit
        // coincidence.
        self.salt = self.salt.wrapping_add(0x9e37_79b9_7f4a_7c15);
    }

    /// Start bringing the entry for `hash` into the processor's cache, for a look soon after.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        crate::rules::prefetch::prefetch(&self.entries[hash as usize & (SLOTS - 1)]);
    }

    /// The value remembered for the position with this hash, if any.
    #[inline]
    pub fn get(&self, hash: u64) -> Option<i32> {
        let entry = self.entries[hash as usize & (SLOTS - 1)];
        (entry.0 == hash ^ self.salt).then_some(entry.1)
    }

    /// Remember `value` for the position with this hash, in place of whatever shared its entry.
    #[inline]
    pub fn put(&mut self, hash: u64, value: i32) {
        self.entries[hash as usize & (SLOTS - 1)] = (hash ^ self.salt, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_found_under_its_own_hash_only_until_cleared() {
        let mut evals = Evals::new();
        assert_eq!(evals.get(0), None, "an empty entry is not the empty board's");
        evals.put(7, 42);
        assert_eq!(evals.get(7), Some(42));
        assert_eq!(evals.get(7 + SLOTS as u64), None, "same entry, other position");
        evals.put(7 + SLOTS as u64, -5);
        assert_eq!((evals.get(7), evals.get(7 + SLOTS as u64)), (None, Some(-5)));
        evals.clear();
        assert_eq!(evals.get(7 + SLOTS as u64), None);
    }
}
