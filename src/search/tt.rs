//! The transposition table: what earlier searches learnt about a position, keyed by `Position::hash()`, shared by
//! every thread of a search.
//!
//! Owns storage (one flat allocation, sized in megabytes, taken from the allocator already zeroed: a table of the
//! usual sizes on huge pages where the system allows, brought in by a thread of its own from the start; a big one
//! costing nothing until it is used, on huge pages for a search with several threads; cleared by writing nothing
//! (a clear makes every earlier entry count as empty), and refused with an error rather than an abort when the
//! machine cannot give it), the replacement policy
//! and the ply adjustment of win scores. A slot is three 32-bit words written and read without locks; the first
//! word is the key mixed with the other two, so that a slot torn by two threads writing at once reads as a miss. A
//! stored move is only a hint that the caller finds among the generated moves.
//!
//! Replacement weighs depth against age: an entry from this search gives way only to a result at least as deep,
//! and one from an earlier search keeps its place only against results more than eight plies shallower for each
//! search since it was written (the previous search's deepest results survive the next search's leaves). Ages
//! count searches since the entry was written and never wrap: the search counter has 15 bits, and in the rare
//! search that would overflow it every entry is marked old instead.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};

use crate::rules::hex::Hex;
use crate::rules::moves::Move;
use crate::rules::piece::Piece;

use super::pages::{Pages, Zeroed};
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

/// One slot, twelve bytes: `key` is the hash's low 32 bits mixed with the other two words (the index comes from
/// its high bits); `best` a packed move (bits 0–16) and the search generation that wrote it (bits 17–31); `data`
/// the score (16 bits), depth (8) and bound (bits 24–25, 0 for an empty slot).
struct Slot {
    key: AtomicU32,
    best: AtomicU32,
    data: AtomicU32,
}

// SAFETY: three atomics holding 0 are a valid Slot (an empty one).
unsafe impl Zeroed for Slot {}

/// A slot's content, read out.
#[derive(Clone, Copy)]
struct Entry {
    check: u32,
    best: Option<Move>,
    score: i16,
    depth: u8,
    bound: u8,
    generation: u32,
}

impl Entry {
    fn bound(self) -> Option<Bound> {
        match self.bound {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// Bits of the `best` word that hold the move; the generation sits above them.
const MOVE_BITS: u32 = 17;
/// The largest search generation; the search after it marks every entry old and starts again above `OLD`.
const LAST_GENERATION: u32 = (1 << (32 - MOVE_BITS)) - 1;
/// The age every entry has after the generations start again: old enough to give way to anything.
const OLD: u32 = 32;
/// Plies of depth an entry loses in the replacement rule for each search since it was written.
const AGE_WEIGHT: u32 = 8;

/// What the table knows about a position, scores already adjusted to the probing ply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub best: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub bound: Bound,
}

/// The machine could not give the memory a table of the asked size needs.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("A {mb} MB transposition table does not fit in memory ({})", limit_words(*.available_mb))]
pub struct TableTooBig {
    /// The size asked for, in megabytes.
    pub mb: usize,
    /// About how many megabytes the process could still take when the table was refused, where the system says.
    pub available_mb: Option<usize>,
}

fn limit_words(available_mb: Option<usize>) -> String {
    match available_mb {
        Some(mb) => format!("about {mb} MB is available"),
        None => "the system refused it".to_string(),
    }
}

impl TableTooBig {
    fn new(mb: usize) -> TableTooBig {
        TableTooBig {
            mb,
            available_mb: available_mb(),
        }
    }
}

/// About how many megabytes this process could still allocate and use: the memory the system has available
/// (`MemAvailable`, which counts what can be reclaimed) and, under an address-space limit (`ulimit -v`), what is
/// left below it. `None` where the system does not say.
pub(crate) fn available_mb() -> Option<usize> {
    let field = |text: &str, name: &str| -> Option<usize> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse::<usize>()
            .ok()
    };
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| field(&text, "MemAvailable:"))
        .map(|kb| kb / 1024);
    memory.map(|memory| memory.min(address_space_left_mb().unwrap_or(usize::MAX)))
}

/// What is left below the address-space limit, when there is one.
fn address_space_left_mb() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct it is given, which lives on this stack frame.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0 || limit.rlim_cur == libc::RLIM_INFINITY {
            return None;
        }
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let used_kb: usize = status
            .lines()
            .find_map(|l| l.strip_prefix("VmSize:"))?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some((limit.rlim_cur as usize / 1024).saturating_sub(used_kb) / 1024)
    }
    #[cfg(not(target_os = "linux"))]
    None
}

/// A fixed-size hash table of search results.
pub(crate) struct Table {
    slots: Pages<Slot>,
    /// The current search's generation: one more for each search, never above `LAST_GENERATION`.
    generation: AtomicU32,
    /// The first generation whose entries count: a clear moves it past every entry written so far, which then
    /// read as empty slots, so that clearing writes nothing.
    valid_from: AtomicU32,
    /// Whether the first search is still to bring the whole table in.
    bring_in: AtomicBool,
}

/// The biggest table whose memory is all brought in when its first search starts (the default is 64 MB): a
/// bigger one is taken as the searches touch it, so that asking for gigabytes costs neither the memory nor the
/// time up front.
const BROUGHT_IN_MB: usize = 256;

impl Table {
    /// A table of about `mb` megabytes (at least one slot), or an error when the memory is not there. A size
    /// beyond the memory the system has available is refused before it is asked for: the allocator would
    /// promise it, and the system end the process once the table filled up.
    pub fn new(mb: usize) -> Result<Table, TableTooBig> {
        if available_mb().is_some_and(|available| mb > available) {
            return Err(TableTooBig::new(mb));
        }
        let count = (mb.saturating_mul(1 << 20) / std::mem::size_of::<Slot>()).max(1);
        let slots = Pages::new(count).ok_or_else(|| TableTooBig::new(mb))?;
        if mb <= BROUGHT_IN_MB {
            // Probed at random at nearly every node: on 4 KB pages most probes also walk the page tables (a tenth
            // of a one-thread search's time in `beetle_gate`, at the instruction after the probe's prefetch). On
            // huge pages brought in by a thread of their own once the first search starts (`new_search`), few
            // do, and the search takes almost no page fault.
            slots.use_huge_pages();
        }
        Ok(Table {
            slots,
            generation: AtomicU32::new(0),
            valid_from: AtomicU32::new(0),
            bring_in: AtomicBool::new(mb <= BROUGHT_IN_MB),
        })
    }

    /// Ask for the table's memory not yet in use to be backed by huge pages, where the system allows (Linux with
    /// transparent huge pages on `madvise` or `always`): its first touches then cost one page fault per 2 MB
    /// instead of one per 4 KB, and its probes seldom miss the processor's list of pages. For a big table (those of
    /// the usual sizes have them from the start) searched with helper threads, which take a fresh table's page
    /// faults in turn: on the development machine a fresh process searching `selfplay40` to depth 6 with 2 threads
    /// took 233–297 ms with them instead of 553–595 ms (whole process, see `31ca6e1`).
    pub fn use_huge_pages(&self) {
        self.slots.use_huge_pages();
    }

    /// Forget everything: every entry written so far reads as an empty slot from now on. Nothing is written (a
    /// table of gigabytes is cleared at once), and the memory stays the table's, its pages already there for
    /// the next search. Only when the generations have run out are the slots zeroed one by one.
    pub fn clear(&mut self) {
        let generation = *self.generation.get_mut();
        if generation < LAST_GENERATION {
            *self.valid_from.get_mut() = generation + 1;
            return;
        }
        for slot in self.slots.iter_mut() {
            *slot.key.get_mut() = 0;
            *slot.best.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        *self.generation.get_mut() = 0;
        *self.valid_from.get_mut() = 0;
    }

    /// Whether `entry` holds a result that counts: written, and since the last clear.
    #[inline]
    fn holds(&self, entry: Entry) -> bool {
        entry.bound().is_some() && entry.generation >= self.valid_from.load(Relaxed)
    }

    /// Start a new search: older entries become the first to be replaced. Called while no search runs.
    pub fn new_search(&self) {
        if self.bring_in.swap(false, Relaxed) {
            // The first search of a table of the usual sizes has a thread of its own bring all of it in, on huge
            // pages. A search of a few milliseconds waits for some of that zeroing; from depth 4 or so a fresh
            // process's search is sooner for it (docs/speed.md). Not before: a process that never searches (a
            // start and `exit`, perft, a viewer's questions) would wait at its end for pages it never used.
            self.slots.populate_in_background();
        }
        let current = self.generation.load(Relaxed);
        if current < LAST_GENERATION {
            self.generation.store(current + 1, Relaxed);
            return;
        }
        // Out of generations: every entry that counts becomes generation 0, one cleared away an empty slot, and the
        // count starts again `OLD` searches later, so that no entry ever looks newer than it is.
        for slot in self.slots.iter() {
            let entry = read(slot);
            if self.holds(entry) {
                write(
                    slot,
                    entry.check,
                    pack_move(entry.best),
                    0,
                    data_word(entry.score, entry.depth, entry.bound),
                );
            } else if entry.bound().is_some() {
                write(slot, 0, 0, 0, 0);
            }
        }
        self.valid_from.store(0, Relaxed);
        self.generation.store(OLD, Relaxed);
    }

    /// How many searches ago `entry` was written.
    fn age(&self, entry: Entry, current: u32) -> u32 {
        current.saturating_sub(entry.generation)
    }

    /// How full the table is, in thousandths, judged from its first thousand slots: those written by the
    /// current search count.
    pub fn fill_permille(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        let sample = &self.slots[..self.slots.len().min(1000)];
        let used = sample
            .iter()
            .filter(|slot| {
                let entry = read(slot);
                self.holds(entry) && entry.generation == generation
            })
            .count();
        (used * 1000 / sample.len()) as u32
    }

    /// Start bringing the entry for `hash` into the processor's cache, for a probe soon after.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        crate::rules::prefetch::prefetch(self.slot(hash));
    }

    #[inline]
    fn slot(&self, hash: u64) -> &Slot {
        // Multiply-shift maps the hash onto any table length without a power-of-two size or a division.
        &self.slots[((u128::from(hash) * self.slots.len() as u128) >> 64) as usize]
    }

    /// The entry for `hash`, if it is there, with its score seen from `ply`.
    #[inline]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        let entry = read(self.slot(hash));
        let bound = entry.bound()?;
        (entry.check == hash as u32 && entry.generation >= self.valid_from.load(Relaxed)).then(|| Hit {
            best: entry.best,
            score: score_from_table(i32::from(entry.score), ply),
            depth: u32::from(entry.depth),
            bound,
        })
    }

    /// Remember a result for `hash` searched to `depth` at `ply`. The same position's slot is always updated;
    /// another position's entry keeps its place while it is deeper than the new result, by `AGE_WEIGHT` plies
    /// less for each search since it was written.
    #[inline]
    pub fn store(&self, hash: u64, ply: usize, depth: u32, bound: Bound, score: i32, best: Option<Move>) {
        let slot = self.slot(hash);
        let old = read(slot);
        let check = hash as u32;
        let depth = depth.min(u32::from(u8::MAX)) as u8;
        let generation = self.generation.load(Relaxed);
        let held = self.holds(old);
        let same = old.check == check && held;
        if !same && held {
            let worth = u32::from(old.depth).saturating_sub(AGE_WEIGHT * self.age(old, generation).min(OLD));
            if worth > u32::from(depth) {
                return;
            }
        }
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        // A fail-low knows no best move; keep the one an earlier search of this position found.
        let best = pack_move(best.or(if same { old.best } else { None }));
        let data = data_word(score_to_table(score, ply) as i16, depth, bound_bits);
        write(slot, check, best, generation, data);
    }
}

/// The `data` word of an entry.
#[inline]
fn data_word(score: i16, depth: u8, bound: u8) -> u32 {
    u32::from(score as u16) | u32::from(depth) << 16 | u32::from(bound) << 24
}

/// Fill a slot: the key word last, mixed with the other two, so that a reader of a half-written slot sees a miss.
#[inline]
fn write(slot: &Slot, check: u32, best: u32, generation: u32, data: u32) {
    let best = best | generation << MOVE_BITS;
    slot.best.store(best, Relaxed);
    slot.data.store(data, Relaxed);
    slot.key.store(check ^ best ^ data, Relaxed);
}

/// Read a slot; a slot torn by a concurrent write gives a `check` that matches no position it could be probed for.
#[inline]
fn read(slot: &Slot) -> Entry {
    let key = slot.key.load(Relaxed);
    let best = slot.best.load(Relaxed);
    let data = slot.data.load(Relaxed);
    Entry {
        check: key ^ best ^ data,
        best: unpack_move(best & ((1 << MOVE_BITS) - 1)),
        score: data as u16 as i16,
        depth: (data >> 16) as u8,
        bound: (data >> 24) as u8 & 3,
        generation: best >> MOVE_BITS,
    }
}

/// A move in 32 bits, 0 for none: the kind in bits 0–1, the piece in bits 2–6, the cell in bits 7–16.
#[inline]
pub(super) fn pack_move(mv: Option<Move>) -> u32 {
    match mv {
        None => 0,
        Some(Move::Pass) => 3,
        Some(Move::Place { piece, to }) => 1 | (piece.index() as u32) << 2 | (to.index() as u32) << 7,
        Some(Move::Move { piece, to }) => 2 | (piece.index() as u32) << 2 | (to.index() as u32) << 7,
    }
}

/// The move packed by [`pack_move`]; anything that is not a packed move (a torn slot) reads as none.
#[inline]
fn unpack_move(bits: u32) -> Option<Move> {
    let index = (bits >> 2 & 0x1f) as usize;
    let piece = (index < Piece::COUNT).then(|| Piece::from_index(index))?;
    let to = Hex::from_index((bits >> 7) as usize);
    match bits & 3 {
        1 => Some(Move::Place { piece, to }),
        2 => Some(Move::Move { piece, to }),
        3 => Some(Move::Pass),
        _ => None,
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
    use crate::rules::piece::{Bug, Color};

    #[test]
    fn stores_and_finds_with_win_distance_moved_to_the_probing_ply() {
        let mut table = Table::new(1).unwrap();
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

    /// Clearing writes nothing (writing zeros over the slots touched every page): a big table that a search used
    /// a little is cleared without taking the whole of its memory.
    #[cfg(target_os = "linux")]
    #[test]
    fn clearing_a_big_table_touches_none_of_its_memory() {
        fn resident_mb() -> usize {
            let status = std::fs::read_to_string("/proc/self/status").unwrap();
            let kb = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).unwrap();
            kb.trim().trim_end_matches("kB").trim().parse::<usize>().unwrap() / 1024
        }
        let mut table = Table::new(1024).unwrap();
        let before = resident_mb();
        for hash in (0..64u64).map(|i| i << 58) {
            table.store(hash, 0, 5, Bound::Exact, 10, None);
        }
        table.clear();
        assert!(table.probe(1 << 58, 0).is_none());
        // Writing zeros over the table would have made a gigabyte resident; other tests running at once take far
        // less than the margin.
        let grown = resident_mb().saturating_sub(before);
        assert!(grown < 256, "clearing made {grown} MB resident");
    }

    #[test]
    fn a_deeper_entry_of_this_search_is_kept_and_a_fail_low_keeps_the_move() {
        let table = Table::new(0).unwrap();
        table.store(1, 0, 6, Bound::Lower, 10, Some(Move::Pass));
        table.store(2, 0, 2, Bound::Exact, 20, None);
        assert_eq!(table.probe(1, 0).map(|h| h.score), Some(10));
        table.store(1, 0, 7, Bound::Upper, 5, None);
        assert_eq!(table.probe(1, 0).and_then(|h| h.best), Some(Move::Pass));
        table.store(2, 0, 7, Bound::Exact, 20, None);
        assert_eq!(
            table.probe(2, 0).map(|h| h.score),
            Some(20),
            "as deep: the newer result"
        );
    }

    #[test]
    fn an_older_entry_gives_way_by_eight_plies_a_search() {
        let table = Table::new(0).unwrap();
        table.store(1, 0, 12, Bound::Exact, 10, None);
        table.new_search();
        // One search old, it is worth four plies: it stays against a depth-3 result and gives way to a depth-4 one.
        table.store(2, 0, 3, Bound::Exact, 20, None);
        assert_eq!(table.probe(1, 0).map(|h| h.score), Some(10));
        table.store(2, 0, 4, Bound::Exact, 20, None);
        assert_eq!(table.probe(2, 0).map(|h| h.score), Some(20));
        // A search later the depth-4 entry is worth nothing.
        table.new_search();
        table.store(3, 0, 0, Bound::Exact, 30, None);
        assert_eq!(table.probe(3, 0).map(|h| h.score), Some(30));
    }

    #[test]
    fn ages_never_wrap_into_fresh() {
        let table = Table::new(0).unwrap();
        table.store(1, 0, 40, Bound::Exact, 10, None);
        // Sixty-four searches later (a long game), the entry is old whatever a counter of a few bits would say.
        for _ in 0..64 {
            table.new_search();
        }
        table.store(2, 0, 1, Bound::Exact, 20, None);
        assert_eq!(table.probe(2, 0).map(|h| h.score), Some(20));
        // And when the generations run out, every entry is marked old rather than new.
        table.store(1, 0, 40, Bound::Exact, 10, Some(Move::Pass));
        table.generation.store(LAST_GENERATION, Relaxed);
        table.store(1, 0, 40, Bound::Exact, 10, Some(Move::Pass));
        table.new_search();
        assert_eq!(table.generation.load(Relaxed), OLD);
        let hit = table.probe(1, 0).expect("kept through the renumbering");
        assert_eq!((hit.score, hit.depth, hit.best), (10, 40, Some(Move::Pass)));
        table.store(2, 0, 0, Bound::Exact, 20, None);
        assert_eq!(table.probe(2, 0).map(|h| h.score), Some(20));
    }

    #[test]
    fn a_cleared_entry_stays_gone_however_the_generations_go_on() {
        // One slot: every position shares it.
        let mut table = Table::new(0).unwrap();
        table.new_search();
        table.store(1, 0, 40, Bound::Exact, 10, Some(Move::Pass));
        table.clear();
        assert!(table.probe(1, 0).is_none());
        // An empty slot to the replacement rule: a shallow result takes it, and a fail-low finds no move in it.
        table.new_search();
        table.store(1, 0, 1, Bound::Upper, 5, None);
        let hit = table.probe(1, 0).expect("stored over the cleared entry");
        assert_eq!((hit.depth, hit.best), (1, None));
        // Through the renumbering when the generations run out, an entry written before a clear stays gone and one
        // written since stays (a table of many slots, each position in its own).
        let mut table = Table::new(1).unwrap();
        let (a, b) = (1 << 58, 2 << 58);
        table.new_search();
        table.store(a, 0, 30, Bound::Exact, 20, None);
        table.clear();
        table.new_search();
        table.store(b, 0, 9, Bound::Lower, 30, None);
        table.generation.store(LAST_GENERATION, Relaxed);
        table.new_search();
        assert!(table.probe(a, 0).is_none());
        assert_eq!(table.probe(b, 0).map(|h| h.score), Some(30));
        assert_eq!(
            read(table.slot(a)).bound,
            0,
            "the cleared entry is zeroed by the renumbering"
        );
        // A clear with no generation left zeroes the slots.
        table.generation.store(LAST_GENERATION, Relaxed);
        table.clear();
        assert!(table.probe(b, 0).is_none());
        assert_eq!(table.generation.load(Relaxed), 0);
    }

    #[test]
    fn moves_survive_packing() {
        let piece = Piece::new(Color::Black, Bug::Pillbug, 1).unwrap();
        for mv in [
            None,
            Some(Move::Pass),
            Some(Move::Place {
                piece,
                to: Hex::from_index(1023),
            }),
            Some(Move::Move { piece, to: Hex::ORIGIN }),
        ] {
            assert_eq!(unpack_move(pack_move(mv)), mv);
        }
        assert_eq!(unpack_move(1 | 31 << 2), None, "no piece 31");
    }

    #[test]
    fn a_table_the_machine_cannot_give_is_an_error() {
        let refused = Table::new(usize::MAX).err().expect("refused");
        assert_eq!(refused.mb, usize::MAX);
        if cfg!(target_os = "linux") {
            let available = refused.available_mb.expect("Linux says how much memory is available");
            assert!(refused
                .to_string()
                .ends_with(&format!("(about {available} MB is available)")));
        }
    }
}
