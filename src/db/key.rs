//! The integers the database keys its rows by: a position's (the opening book's key, the same for a position
//! however the hive lies, is turned or mirrored, reduced to 64 bits), a game's identity and a file's content, all
//! through one digest that is the same on every machine and in every version of Waggle (the standard library's
//! hasher promises neither), since a database outlives the binary that wrote it.
//!
//! Owns the digest; the key itself is `crate::book`'s.

use crate::book::key;
use crate::rules::position::Position;

/// The key of `position` in the database: the same for every position equal to it up to translation, rotation and
/// reflection of the board, with the same game type (so the same pieces in hand, since a piece once placed never
/// leaves the board) and the same side to move.
///
/// It is what the `position` columns of the tables `moves` and `reached` hold, so that a user of the `sqlite3`
/// shell can look a position up (`waggle db explore --json` prints it as `key`).
///
/// Two different positions share a key with a chance of about one in 2^64 for each pair: among ten million
/// positions, about one chance in 400,000 that any two do.
pub fn position_key(position: &Position) -> i64 {
    digest(key(position).bytes())
}

/// A 64-bit digest of `bytes`: its length, then each 8-byte word (the last one padded with zeros) folded in and
/// the whole mixed by the finaliser of SplitMix64, so that every bit of a word reaches every bit of the digest
/// before the next word comes (one multiplication a word would leave a change in a word's top bits for the next
/// word to cancel). Not for adversaries (a crafted file could make two games collide, and the second would be
/// taken for a copy of the first); for the records a player owns, a collision is as unlikely as the figures above.
pub(crate) fn digest(bytes: &[u8]) -> i64 {
    let mut hash = mix(0x243f_6a88_85a3_08d3 ^ bytes.len() as u64);
    for word in bytes.chunks(8) {
        let mut eight = [0u8; 8];
        eight[..word.len()].copy_from_slice(word);
        hash = mix(hash ^ u64::from_le_bytes(eight));
    }
    // SQLite's integers are signed: the same 64 bits, read as one.
    hash as i64
}

/// SplitMix64's finaliser: a bijection of 64 bits in which each input bit flips about half of the output bits.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::tests::position;

    #[test]
    fn the_digest_is_fixed_and_tells_close_inputs_apart() {
        // Fixed values: a database written by this version must be read by the next.
        assert_eq!(digest(b""), digest(b""));
        assert_eq!(
            digest(b"Base+MLP"),
            0x_2ac8_8d15_a270_a620_u64 as i64,
            "{:#x}",
            digest(b"Base+MLP") as u64
        );
        let mut seen = std::collections::HashSet::new();
        for length in 0..40usize {
            for flip in 0..length * 8 {
                let mut bytes = vec![7u8; length];
                bytes[flip / 8] ^= 1 << (flip % 8);
                seen.insert(digest(&bytes));
            }
            seen.insert(digest(&vec![7u8; length]));
            // A trailing zero byte is another input.
            seen.insert(digest(&[vec![7u8; length], vec![0]].concat()));
        }
        let inputs: usize = (0..40).map(|length| length * 8 + 2).sum();
        assert_eq!(seen.len(), inputs);
    }

    #[test]
    fn a_position_turned_mirrored_or_moved_keeps_its_key() {
        let a = position("Base;InProgress;Black[2];wG1;bS1 wG1-;wQ -wG1");
        let turned = position("Base;InProgress;Black[2];wG1;bS1 /wG1;wQ wG1/");
        let mirrored = position("Base;InProgress;Black[2];wG1;bS1 \\wG1;wQ wG1\\");
        assert_eq!(position_key(&a), position_key(&turned));
        assert_eq!(position_key(&a), position_key(&mirrored));
        // The same stones in another game type (other pieces in hand) are another position.
        let more_in_hand = position("Base+M;InProgress;Black[2];wG1;bS1 wG1-;wQ -wG1");
        assert_ne!(position_key(&a), position_key(&more_in_hand));
    }
}
