//! The set operations of the rules' small sets, written once: a set of members (pieces, directions) kept as the
//! bits of one word, bit `i` for the member of index `i`, so that every operation is an instruction or two. Each
//! set is a newtype of its own (`PieceSet`, `Directions`); this macro gives it its constants, its methods, its
//! operators and its iterator.

/// Give the newtype `$set` (a tuple struct of one `$word`) the operations of a set of the `$count` members of type
/// `$member` (which has `const fn index(self) -> usize` and `fn from_index(usize) -> Self`), iterated by the new
/// type `$iter`, lowest index first.
macro_rules! bit_set {
    ($set:ident, $iter:ident, $member:ty, $word:ty, $count:expr) => {
        impl $set {
            /// No member.
            pub const EMPTY: $set = $set(0);
            /// Every member.
            pub const ALL: $set = $set(((1 as $word) << ($count - 1) << 1).wrapping_sub(1));

            /// The set with bit `i` for the member with index `i` (bits beyond the last member are ignored).
            #[inline]
            pub const fn from_bits(bits: $word) -> $set {
                $set(bits & $set::ALL.0)
            }

            /// Bit `i` set for each member with index `i` in the set.
            #[inline]
            pub const fn bits(self) -> $word {
                self.0
            }

            /// The set holding only `member`.
            #[inline]
            pub const fn only(member: $member) -> $set {
                $set(1 << member.index())
            }

            /// Whether `member` is in the set.
            #[inline]
            pub const fn contains(self, member: $member) -> bool {
                self.0 & (1 << member.index()) != 0
            }

            /// Add `member`.
            #[inline]
            pub fn insert(&mut self, member: $member) {
                self.0 |= 1 << member.index();
            }

            /// Take `member` out.
            #[inline]
            pub fn remove(&mut self, member: $member) {
                self.0 &= !(1 << member.index());
            }

            /// Whether the set is empty.
            #[inline]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// How many members are in the set.
            #[inline]
            pub const fn len(self) -> u32 {
                self.0.count_ones()
            }

            /// The member with the lowest index, if any.
            #[inline]
            pub fn first(self) -> Option<$member> {
                (self.0 != 0).then(|| <$member>::from_index(self.0.trailing_zeros() as usize))
            }

            /// The members, lowest index first.
            #[inline]
            pub fn iter(self) -> $iter {
                $iter(self.0)
            }
        }

        /// The members of a set, lowest index first.
        #[derive(Clone)]
        pub struct $iter($word);

        impl Iterator for $iter {
            type Item = $member;

            #[inline]
            fn next(&mut self) -> Option<$member> {
                if self.0 == 0 {
                    return None;
                }
                let member = <$member>::from_index(self.0.trailing_zeros() as usize);
                self.0 &= self.0 - 1;
                Some(member)
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                let n = self.0.count_ones() as usize;
                (n, Some(n))
            }
        }

        impl ExactSizeIterator for $iter {}

        impl IntoIterator for $set {
            type Item = $member;
            type IntoIter = $iter;

            fn into_iter(self) -> $iter {
                self.iter()
            }
        }

        impl FromIterator<$member> for $set {
            fn from_iter<I: IntoIterator<Item = $member>>(members: I) -> $set {
                let mut set = $set::EMPTY;
                for member in members {
                    set.insert(member);
                }
                set
            }
        }

        impl std::ops::BitOr for $set {
            type Output = $set;
            #[inline]
            fn bitor(self, other: $set) -> $set {
                $set(self.0 | other.0)
            }
        }

        impl std::ops::BitAnd for $set {
            type Output = $set;
            #[inline]
            fn bitand(self, other: $set) -> $set {
                $set(self.0 & other.0)
            }
        }

        impl std::ops::Sub for $set {
            type Output = $set;
            /// The members of `self` not in `other`.
            #[inline]
            fn sub(self, other: $set) -> $set {
                $set(self.0 & !other.0)
            }
        }

        impl std::ops::Not for $set {
            type Output = $set;
            #[inline]
            fn not(self) -> $set {
                $set(!self.0 & $set::ALL.0)
            }
        }
    };
}

pub(crate) use bit_set;
