//! The cut-cell cache: the cells whose removal would split the hive, kept by the hive's shape, and worked out from
//! the shape before the last move when that move only added a cell, so that the articulation-point pass runs
//! only for shapes it cannot tell.

use crate::rules::hex::Hex;
use crate::rules::position::Position;

use super::hive::{self, Tarjan};

/// Cut cells already found, by the hive's shape hash (which cells are occupied): whatever stands on them, the same
/// cells split the hive, so siblings that place different bugs on one cell, transpositions, and a node's move
/// generation and its evaluation share them. The pinned pieces are those standing alone on them.
pub(super) struct PinCache(Box<[PinEntry]>);

/// One shape's cut cells, when there are at most [`PIN_CELLS`] (`count` is `u8::MAX` when there were more): one
/// cache line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct PinEntry {
    key: u64,
    count: u8,
    cells: [Hex; PIN_CELLS],
}

/// Cut cells an entry keeps: as many as a line of every piece has (28 cells, 26 of them cut cells), so that a
/// long, stringy hive (the end of a game's hive is often one) is kept too.
const PIN_CELLS: usize = 27;

/// Entries of the cut-cell cache (64 bytes each, 512 KB): small enough to stay in the processor's second-level
/// cache.
const PIN_SLOTS: usize = 1 << 13;

impl Default for PinCache {
    fn default() -> Self {
        let empty = PinEntry {
            key: 0,
            count: 0,
            cells: [Hex::ORIGIN; PIN_CELLS],
        };
        PinCache(vec![empty; PIN_SLOTS].into_boxed_slice())
    }
}

impl Position {
    /// [`Position::pinned`] as bits, with the articulation-point pass's scratch space given.
    pub(super) fn pinned_with(&self, tarjan: &mut Tarjan, pins: &mut PinCache) -> u32 {
        // The empty board's shape hash is 0, the key of an unused entry, and it has no cut cell either.
        let key = self.board.shape_hash();
        let entry = &pins.0[key as usize & (PIN_SLOTS - 1)];
        if entry.key == key && usize::from(entry.count) <= PIN_CELLS {
            return hive::pinned_on(&self.board, &entry.cells[..usize::from(entry.count)]);
        }
        let mut cuts = [Hex::ORIGIN; hive::SLOTS];
        let count = match self.grown_cuts(pins, &mut cuts) {
            Some(count) => count,
            None => match self.board.on_board().first() {
                None => 0,
                Some(piece) => tarjan.cut_cells(&self.board, self.board.hex_of_unchecked(piece), &mut cuts),
            },
        };
        let entry = &mut pins.0[key as usize & (PIN_SLOTS - 1)];
        let cuts = &cuts[..count];
        entry.key = key;
        if count <= PIN_CELLS {
            entry.count = count as u8;
            entry.cells[..count].copy_from_slice(cuts);
        } else {
            // Too many to keep: the pass is run again for this shape.
            entry.count = u8::MAX;
        }
        hive::pinned_on(&self.board, cuts)
    }

    /// The cut cells of this position's shape worked out from the shape before the last move, when that move only
    /// added a ground cell touching one piece or two neighbouring ones and the cache still holds the shape before;
    /// their number, or `None`. The new cell is never a cut cell (without it the hive is the one before, whole).
    /// Its neighbours, when two, touch each other: the new cell joins nothing that was apart, and every cell cuts
    /// as it did. When one, that neighbour alone holds it to the hive, and becomes a cut cell unless it was the
    /// whole hive before; the other cells cut as they did.
    fn grown_cuts(&self, pins: &PinCache, cuts: &mut [Hex; hive::SLOTS]) -> Option<usize> {
        let (before, cell) = self.grown_by_one_cell()?;
        let around = self.board.occupied_bits(cell);
        if around.count_ones() > 2 || !hive::one_run(around) {
            return None;
        }
        let entry = &pins.0[before as usize & (PIN_SLOTS - 1)];
        let count = usize::from(entry.count);
        if entry.key != before || count > PIN_CELLS {
            return None;
        }
        cuts[..count].copy_from_slice(&entry.cells[..count]);
        if around.count_ones() == 2 {
            return Some(count);
        }
        let holder = cell.step_index(around.trailing_zeros() as usize);
        if self.board.occupied_bits(holder).count_ones() < 2 || cuts[..count].contains(&holder) {
            return Some(count);
        }
        if count == PIN_CELLS {
            return None;
        }
        cuts[count] = holder;
        Some(count + 1)
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::rules::game_type::GameType;

    /// After a move that only added a ground cell, the cut cells worked out from the shape before are those of a
    /// full pass, over random games of every game type; and the shortcut is taken often.
    #[test]
    fn cut_cells_grown_from_the_shape_before_are_those_of_a_full_pass() {
        let mut rng = StdRng::seed_from_u64(0x0043_5554);
        let (mut pins, mut tarjan) = (PinCache::default(), Tarjan::default());
        // Shapes grown, and those whose new cell touches one piece (a cut cell unless the hive was one cell).
        let (mut grown, mut held) = (0, 0);
        for game in GameType::ALL {
            for _ in 0..30 {
                let mut pos = Position::new(game);
                for _ in 0..90 {
                    // The shape before the move in the cache, as a node's move generation leaves it.
                    pos.pinned_with(&mut tarjan, &mut pins);
                    let moves = pos.legal_moves();
                    if pos.state().is_over() || moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                    let mut cuts = [Hex::ORIGIN; hive::SLOTS];
                    let Some(count) = pos.grown_cuts(&pins, &mut cuts) else {
                        continue;
                    };
                    let board = pos.board();
                    let mut full = [Hex::ORIGIN; hive::SLOTS];
                    let start = board.hex_of_unchecked(board.on_board().first().unwrap());
                    let full_count = tarjan.cut_cells(board, start, &mut full);
                    let (mut cuts, mut full) = (cuts[..count].to_vec(), full[..full_count].to_vec());
                    cuts.sort_by_key(|h| h.index());
                    full.sort_by_key(|h| h.index());
                    assert_eq!(cuts, full, "{}", pos.game_string());
                    grown += 1;
                    let (_, cell) = pos.grown_by_one_cell().unwrap();
                    held += usize::from(board.occupied_bits(cell).count_ones() == 1 && !full.is_empty());
                }
            }
        }
        assert!(
            grown > 3_000 && held > 1_000,
            "{grown} shapes grown, {held} by one piece"
        );
    }
}
