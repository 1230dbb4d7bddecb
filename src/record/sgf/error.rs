//! Why a text is not a BoardSpace Hive record, or cannot be followed: each error names where (the line, and for an
//! action the action itself as written) and why, in words for the person who has the file.

use crate::rules::legality::IllegalMove;

/// A BoardSpace `.sgf` record that cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    /// Text without an SGF game tree.
    #[error("no game in the file: a BoardSpace record starts with '(;'")]
    NoGameTree,
    /// Text that breaks SGF's syntax.
    #[error("line {line}: {reason}")]
    Syntax {
        /// The line where the fault was found.
        line: usize,
        /// What is wrong there.
        reason: String,
    },
    /// A record of another game than Hive.
    #[error("not a Hive game: {property} (BoardSpace's Hive records have GM[27] and SU[hive…])")]
    NotHive {
        /// The property that says so, as written (`GM[3]`).
        property: String,
    },
    /// A Hive variant that UHP cannot describe, or a variant not known.
    #[error("SU[{variant}]: {reason}")]
    Variant {
        /// The variant as written.
        variant: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// An action that cannot be read or followed.
    #[error("line {line}, {player}[{text}]: {reason}")]
    Action {
        /// The line of the action.
        line: usize,
        /// The player property it stands in (`P0`, `P1`).
        player: String,
        /// The action as written.
        text: String,
        /// Why.
        reason: ActionError,
    },
}

/// Why an action of a record cannot be read or followed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// A word that is no action of BoardSpace's Hive.
    #[error("'{0}' is not an action of BoardSpace's Hive (pick, pickb, drop, dropb, pdropb, move, pmove, movedone, pmovedone, pass, passdone, done, start, resign, offerdraw, acceptdraw, declinedraw, winontime, playwhite, playblack, pleaseundo, dontundo, allowundo, peek)")]
    Unknown(String),
    /// An action whose words are not the ones it takes.
    #[error("expected '{0}'")]
    Form(&'static str),
    /// A cell not on BoardSpace's board.
    #[error("'{0}' is not a cell of BoardSpace's board: a column A to Z and a row 1 to 26")]
    Cell(String),
    /// A rack that is neither side's.
    #[error("'{0}' is not a rack: W (White's) or B (Black's)")]
    Rack(String),
    /// A name that is not a bug's.
    #[error(
        "'{0}' is not a piece: a bug letter (Q A G B S M L P) with its number if it has one, as in wA2, bQ, G1, m"
    )]
    Piece(String),
    /// A piece of an expansion the game does not use.
    #[error("{0} is not in this game (its SU names the expansions)")]
    NotInGame(String),
    /// A drop with nothing in hand.
    #[error("a piece is dropped, but none was picked up")]
    NothingPicked,
    /// A second drop without picking the piece up again.
    #[error("a piece is dropped again without being picked up from {0}")]
    DroppedTwice(String),
    /// A pick from the board while another piece lies dropped.
    #[error("a piece is picked up at {picked} while the one dropped at {dropped} has not been taken back")]
    PickedElsewhere {
        /// The cell picked from.
        picked: String,
        /// The cell where the dropped piece lies.
        dropped: String,
    },
    /// A pick from an empty cell.
    #[error("there is no piece at {0} to pick up")]
    EmptyCell(String),
    /// The end of a turn with a piece in hand.
    #[error("the turn ends with a piece picked up and not dropped")]
    Holding,
    /// A destination that touches nothing.
    #[error("{0} is next to no piece of the hive")]
    Apart(String),
    /// A destination that two pieces place on two different cells: the hive spans BoardSpace's whole board.
    #[error("{0} cannot be placed: the hive reaches round BoardSpace's board, which wraps at its edges")]
    WrapsAround(String),
    /// A placement of a bug of which none is left in hand.
    #[error("{0} has no {1} left in hand")]
    NoneInHand(&'static str, &'static str),
    /// A move the rules forbid.
    #[error("move {number} ('{name}') cannot be played: {reason}")]
    Illegal {
        /// The move, counted from 1.
        number: usize,
        /// Its MoveString.
        name: String,
        /// Why it cannot be played.
        reason: IllegalMove,
    },
    /// A hand-made position.
    #[error("the board was set up by hand (Edit), which a record of moves cannot follow")]
    Edit,
    /// Actions taken back.
    #[error("actions are taken back (Undo), which a record of moves cannot follow")]
    Undo,
}
