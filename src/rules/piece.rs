//! Colours, bugs and the 28 numbered pieces (`wQ`, `bS2`, `wM` …), with their UHP names.
//!
//! Owns identity only: where a piece stands and what it may do belong to the position and the move generator.

use std::fmt;

/// The two sides. White moves first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// White, who moves first.
    White,
    /// Black.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The letter that starts a piece name: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `White` or `Black`, as in TurnStrings.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// The kinds of bug.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Bug {
    /// The Queen Bee (`Q`).
    Queen,
    /// The Spider (`S`).
    Spider,
    /// The Beetle (`B`).
    Beetle,
    /// The Grasshopper (`G`).
    Grasshopper,
    /// The Soldier Ant (`A`).
    Ant,
    /// The Mosquito (`M`).
    Mosquito,
    /// The Ladybug (`L`).
    Ladybug,
    /// The Pillbug (`P`).
    Pillbug,
}

impl Bug {
    /// Every bug, base game first, in the order pieces are numbered.
    pub const ALL: [Bug; 8] = [
        Bug::Queen,
        Bug::Spider,
        Bug::Beetle,
        Bug::Grasshopper,
        Bug::Ant,
        Bug::Mosquito,
        Bug::Ladybug,
        Bug::Pillbug,
    ];

    /// Position in [`Bug::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this bug each side has.
    #[inline]
    pub const fn count(self) -> u8 {
        match self {
            Bug::Queen | Bug::Mosquito | Bug::Ladybug | Bug::Pillbug => 1,
            Bug::Spider | Bug::Beetle => 2,
            Bug::Grasshopper | Bug::Ant => 3,
        }
    }

    /// Bit `i` set for each piece of this bug and `color`, for [`crate::rules::piece_set::PieceSet`] masks.
    #[inline]
    pub(crate) const fn bits(self, color: Color) -> u32 {
        ((1 << self.count()) - 1) << (color.index() as u32 * 14 + self.first_slot() as u32)
    }

    /// Index of this bug's first piece among a side's fourteen.
    #[inline]
    const fn first_slot(self) -> u8 {
        match self {
            Bug::Queen => 0,
            Bug::Spider => 1,
            Bug::Beetle => 3,
            Bug::Grasshopper => 5,
            Bug::Ant => 8,
            Bug::Mosquito => 11,
            Bug::Ladybug => 12,
            Bug::Pillbug => 13,
        }
    }

    /// The letter in piece names: `Q S B G A M L P`.
    pub const fn letter(self) -> char {
        match self {
            Bug::Queen => 'Q',
            Bug::Spider => 'S',
            Bug::Beetle => 'B',
            Bug::Grasshopper => 'G',
            Bug::Ant => 'A',
            Bug::Mosquito => 'M',
            Bug::Ladybug => 'L',
            Bug::Pillbug => 'P',
        }
    }

    /// The bug named by a letter (either case).
    pub fn from_letter(letter: char) -> Option<Bug> {
        Bug::ALL.into_iter().find(|b| b.letter() == letter.to_ascii_uppercase())
    }

    /// The bug's English name.
    pub const fn name(self) -> &'static str {
        match self {
            Bug::Queen => "Queen Bee",
            Bug::Spider => "Spider",
            Bug::Beetle => "Beetle",
            Bug::Grasshopper => "Grasshopper",
            Bug::Ant => "Soldier Ant",
            Bug::Mosquito => "Mosquito",
            Bug::Ladybug => "Ladybug",
            Bug::Pillbug => "Pillbug",
        }
    }

    /// Whether the bug is one of the expansions (its name carries no number).
    pub const fn is_expansion(self) -> bool {
        matches!(self, Bug::Mosquito | Bug::Ladybug | Bug::Pillbug)
    }
}

const SLOT_BUG: [Bug; 14] = [
    Bug::Queen,
    Bug::Spider,
    Bug::Spider,
    Bug::Beetle,
    Bug::Beetle,
    Bug::Grasshopper,
    Bug::Grasshopper,
    Bug::Grasshopper,
    Bug::Ant,
    Bug::Ant,
    Bug::Ant,
    Bug::Mosquito,
    Bug::Ladybug,
    Bug::Pillbug,
];

/// The bug of each piece index, both colours (padded to 32 entries so that a masked index needs no bounds check).
const PIECE_BUG: [Bug; 32] = {
    let mut table = [Bug::Queen; 32];
    let mut i = 0;
    while i < 28 {
        table[i] = SLOT_BUG[i % 14];
        i += 1;
    }
    table
};

/// One of the 28 pieces: colour, bug and number (`bA2`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece(u8);

impl Piece {
    /// Number of distinct pieces.
    pub const COUNT: usize = 28;

    /// Every piece, White's fourteen then Black's.
    pub fn all() -> impl Iterator<Item = Piece> {
        (0..Self::COUNT as u8).map(Piece)
    }

    /// The `number`-th (from 1) piece of `bug` for `color`, if that piece exists.
    pub fn new(color: Color, bug: Bug, number: u8) -> Option<Piece> {
        (1..=bug.count())
            .contains(&number)
            .then(|| Piece(color.index() as u8 * 14 + bug.first_slot() + number - 1))
    }

    /// Index below [`Piece::COUNT`], for per-piece arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The piece with this index (below [`Piece::COUNT`]).
    #[inline]
    pub(crate) const fn from_index(index: usize) -> Piece {
        Piece(index as u8)
    }

    /// Whose piece it is.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 < 14 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// What bug it is.
    #[inline]
    pub const fn bug(self) -> Bug {
        // Looked up by the whole index (no division by 14): the search asks this of millions of pieces.
        PIECE_BUG[(self.0 & 31) as usize]
    }

    /// Its number among its colour's bugs of that kind, from 1.
    #[inline]
    pub const fn number(self) -> u8 {
        self.0 % 14 - self.bug().first_slot() + 1
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bug = self.bug();
        write!(f, "{}{}", self.color().letter(), bug.letter())?;
        if bug.count() > 1 {
            write!(f, "{}", self.number())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_agree() {
        let names: Vec<String> = Piece::all().map(|p| p.to_string()).collect();
        assert_eq!(names[0], "wQ");
        assert_eq!(names[2], "wS2");
        assert_eq!(names[10], "wA3");
        assert_eq!(names[13], "wP");
        assert_eq!(names[14], "bQ");
        assert_eq!(names[25], "bM");
        for p in Piece::all() {
            assert_eq!(Piece::new(p.color(), p.bug(), p.number()), Some(p));
        }
        assert_eq!(Piece::new(Color::White, Bug::Queen, 2), None);
        assert_eq!(Piece::new(Color::White, Bug::Ant, 0), None);
    }
}
