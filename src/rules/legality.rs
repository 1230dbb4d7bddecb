//! Checked play: a move from outside is played only if the generator lists it; otherwise the reason it is
//! illegal, in words a player understands (modelled on Mzinga's), and the position stays as it was.

use crate::rules::game_type::GameType;
use crate::rules::moves::Move;
use crate::rules::piece::{Bug, Piece};
use crate::rules::position::{Opening, Position};

/// Why a move cannot be played.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalMove {
    /// The game is over.
    #[error("You can't play, the game is over.")]
    GameOver,
    /// A pass when the game is over.
    #[error("You can't pass, the game is over.")]
    PassGameOver,
    /// A pass when there are moves.
    #[error("You can't pass when you have valid moves.")]
    PassWithMoves,
    /// A piece of the side not to move.
    #[error("It's not that player's turn: {0} belongs to {color}.", color = .0.color().name())]
    NotYourTurn(Piece),
    /// A piece of an expansion the game does not use.
    #[error("That piece is not enabled in this game: {0} is not part of {1}.")]
    NotInGame(Piece, GameType),
    /// A piece given no reference after the first move.
    #[error("{0} needs a reference piece: only the first piece of the game is placed on its own.")]
    NeedsReference(Piece),
    /// A reference piece that is not on the board.
    #[error("The reference piece {0} is not on the board.")]
    ReferenceNotOnBoard(Piece),
    /// A first move with a reference.
    #[error("The first piece of the game must be placed on its own, without a reference.")]
    FirstPieceAlone,
    /// The Queen on a side's first turn.
    #[error("You can't play your Queen Bee on your first turn.")]
    QueenOnFirstTurn,
    /// Another piece when the Queen must be placed.
    #[error("You must play your Queen Bee on or before your fourth turn.")]
    QueenByFourthTurn,
    /// A movement before the Queen is placed.
    #[error("You can't move a piece in play until you've played your Queen Bee.")]
    QueenNotPlaced,
    /// A numbered piece before a lower-numbered one.
    #[error("When there are multiple pieces of the same bug type, you must play the pieces in order: place {expected} before {piece}.")]
    OutOfOrder {
        /// The piece given.
        piece: Piece,
        /// The piece to place first.
        expected: Piece,
    },
    /// A placement or step onto an occupied cell.
    #[error("You can't move there because a piece already exists at that position.")]
    Occupied,
    /// A placement touching the opponent, or not touching its own side.
    #[error("You can't place {0} there: a new piece must touch your own pieces and none of your opponent's.")]
    BadPlacement(Piece),
    /// A second piece not next to the first.
    #[error("The second piece of the game must be placed next to the first.")]
    SecondPieceApart,
    /// A piece with another on top of it.
    #[error("You can't move {0} because it has another piece on top of it.")]
    Covered(Piece),
    /// A movement that would split the hive.
    #[error("You can't move {0} because it will break the hive.")]
    BreaksHive(Piece),
    /// A piece the Pillbug moved last turn.
    #[error("You can't move {0}: it was moved last turn, so it must rest this turn.")]
    Stunned(Piece),
    /// A destination the piece's bug cannot reach.
    #[error("You can't move {0} there: a {bug} can't reach that position.", bug = .0.bug().name())]
    CannotReach(Piece),
    /// An opponent's piece moved without a Pillbug that can carry it.
    #[error("You can't move your opponent's {0} there: only your Pillbug (or a Mosquito next to one) can move it, onto itself and down into an empty neighbouring position.")]
    CannotCarry(Piece),
    /// A placement of a piece already on the board.
    #[error("{0} is already on the board, so it can't be placed; give a destination to move it.")]
    AlreadyPlaced(Piece),
    /// A movement of a piece still in hand.
    #[error("{0} is not on the board, so it can't be moved; place it instead.")]
    NotOnBoard(Piece),
}

impl Position {
    /// Play `mv` if it is legal; otherwise leave the position unchanged and say why not.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Whether `mv` is legal here, and if not, why.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.legal_moves().contains(&mv) {
            return Ok(());
        }
        Err(self.diagnose(mv))
    }

    /// Why `mv`, which the generator does not list, is illegal.
    fn diagnose(&self, mv: Move) -> IllegalMove {
        if self.state().is_over() {
            return match mv {
                Move::Pass => IllegalMove::PassGameOver,
                _ => IllegalMove::GameOver,
            };
        }
        let me = self.to_move();
        let (piece, to, placing) = match mv {
            Move::Pass => return IllegalMove::PassWithMoves,
            Move::Place { piece, to } => (piece, to, true),
            Move::Move { piece, to } => (piece, to, false),
        };
        if !self.game_type().includes(piece.bug()) {
            return IllegalMove::NotInGame(piece, self.game_type());
        }
        let own_turn = self.ply() / 2 + 1;
        let board = self.board();
        if placing {
            if piece.color() != me {
                return IllegalMove::NotYourTurn(piece);
            }
            if board.is_on_board(piece) {
                return IllegalMove::AlreadyPlaced(piece);
            }
            if let Some(expected) = self.next_in_hand(me, piece.bug()) {
                if expected != piece {
                    return IllegalMove::OutOfOrder { piece, expected };
                }
            }
            if piece.bug() == Bug::Queen && own_turn == 1 && self.opening() == Opening::Tournament {
                return IllegalMove::QueenOnFirstTurn;
            }
            if piece.bug() != Bug::Queen && own_turn == 4 && self.in_hand(me, Bug::Queen) > 0 {
                return IllegalMove::QueenByFourthTurn;
            }
            if board.is_occupied(to) {
                return IllegalMove::Occupied;
            }
            match board.piece_count() {
                0 => IllegalMove::FirstPieceAlone,
                1 => IllegalMove::SecondPieceApart,
                _ => IllegalMove::BadPlacement(piece),
            }
        } else {
            if !board.is_on_board(piece) {
                return IllegalMove::NotOnBoard(piece);
            }
            // With the Queen on the board, the fourth-turn rule cannot be what forbids a movement.
            if self.queen_hex(me).is_none() {
                return if piece.color() == me {
                    IllegalMove::QueenNotPlaced
                } else {
                    IllegalMove::NotYourTurn(piece)
                };
            }
            if !board.is_top(piece) {
                return IllegalMove::Covered(piece);
            }
            if self.stunned() == Some(piece) {
                return IllegalMove::Stunned(piece);
            }
            let from = board.hex_of_unchecked(piece);
            let climbs = matches!(piece.bug(), Bug::Beetle | Bug::Mosquito);
            // A climber may step onto a neighbouring stack; any other occupied destination is simply taken.
            let climbs_there = climbs && from.direction_to(to).is_some();
            if board.is_occupied(to) && !climbs_there {
                return IllegalMove::Occupied;
            }
            if piece.color() != me {
                return IllegalMove::CannotCarry(piece);
            }
            let alone = board.height(from) == 1;
            if alone && self.pinned().contains(piece) {
                return IllegalMove::BreaksHive(piece);
            }
            IllegalMove::CannotReach(piece)
        }
    }
}
