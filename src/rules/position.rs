//! A game in progress: the board, both hands, whose turn it is, the move history and the game state.
//!
//! Owns `play_unchecked` and `undo` by make/unmake, the incrementally kept hash, the hash of every position of the
//! game (for repetitions) and the rules a game is played under. Which moves are legal is the move generator's
//! business (`movegen`); the checked `play` and why a move is illegal are `legality`'s; notation is `notation`'s.

use std::fmt;

use crate::rules::board::{mix, zobrist, Board, THROWERS};
use crate::rules::game_type::GameType;
use crate::rules::hex::{Directions, Hex};
use crate::rules::moves::Move;
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::piece_set::PieceSet;

/// Where a game stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameState {
    /// No move yet.
    NotStarted,
    /// Moves played, and no end.
    InProgress,
    /// Both Queens surrounded at once (or a repetition, under that rule).
    Draw,
    /// Black's Queen is surrounded.
    WhiteWins,
    /// White's Queen is surrounded.
    BlackWins,
}

impl GameState {
    /// The state of a game won by `color`.
    pub(crate) fn won_by(color: Color) -> GameState {
        match color {
            Color::White => GameState::WhiteWins,
            Color::Black => GameState::BlackWins,
        }
    }

    /// Whether the game has ended.
    pub fn is_over(self) -> bool {
        matches!(self, GameState::Draw | GameState::WhiteWins | GameState::BlackWins)
    }

    /// The GameStateString.
    pub fn name(self) -> &'static str {
        match self {
            GameState::NotStarted => "NotStarted",
            GameState::InProgress => "InProgress",
            GameState::Draw => "Draw",
            GameState::WhiteWins => "WhiteWins",
            GameState::BlackWins => "BlackWins",
        }
    }

    /// The GameState named by a GameStateString (any case).
    pub fn from_name(name: &str) -> Option<GameState> {
        [
            GameState::NotStarted,
            GameState::InProgress,
            GameState::Draw,
            GameState::WhiteWins,
            GameState::BlackWins,
        ]
        .into_iter()
        .find(|s| s.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for GameState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rules a game is played under, beyond those every game shares. Fixed when the game is created.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    /// Whether a position occurring for the third time ends the game as a draw. Not a rule in Mzinga (whose rules
    /// Mzinga.Viewer applies), so off by default; nokamute and hivegame.com play with it on.
    pub threefold_draw: bool,
}

/// How a game opens: whether the tournament opening rule, no Queen on a side's first turn, is in force. Fixed when
/// the game is created; every game Waggle starts is played under the rule, and only a record of an older game
/// (whose Queen came out on a first turn) is replayed without it (docs/rules.md says how Waggle tells).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Opening {
    /// Neither side may place its Queen on its first turn: the rule of tournaments, of Mzinga and of UHP.
    #[default]
    Tournament,
    /// A side may place its Queen on its first turn, as games were played before the tournament rule.
    Free,
}

/// What `undo` needs to take a move back, and the repetition key of the position the move led to.
#[derive(Clone, Copy, Debug)]
struct Played {
    mv: Move,
    from: Hex,
    stunned: Option<Piece>,
    state: GameState,
    hash: u64,
    /// The board's keys before the move, put back by `undo`.
    keys: [u64; 2],
}

const SIDE_KEY: u64 = 0x2545_f491_4f6c_dd1d;

/// What a stunned piece standing at `hex` adds to the hash: it is named by its cell (it is on top there), so that
/// it does not matter which of alike pieces it is.
#[inline]
fn stun_key(hex: Hex) -> u64 {
    mix(0x6a09_e667_f3bc_c908 ^ hex.index() as u64)
}

/// Whether `piece` is a Pillbug or Mosquito of `color`: the bugs that may throw a neighbour for that side.
#[inline]
fn may_throw_for(piece: Piece, color: Color) -> bool {
    piece.color() == color && matches!(piece.bug(), Bug::Pillbug | Bug::Mosquito)
}

/// A position with its history, which `undo` walks back.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: Board,
    game_type: GameType,
    /// Bit `i` set when the piece with index `i` is in this game type.
    in_game: u32,
    to_move: Color,
    /// The piece that moved (by itself or carried by a Pillbug) on the last turn: it may not move now.
    stunned: Option<Piece>,
    state: GameState,
    history: Vec<Played>,
    /// Plies played before the first move of `history`: a position set up from its stacks (`crate::rules::setup`) starts
    /// part-way through a game.
    ply_base: usize,
    rules: Rules,
    opening: Opening,
}

impl Position {
    /// The start position of a game of `game_type` under the default [`Rules`].
    pub fn new(game_type: GameType) -> Position {
        Position::with_rules(game_type, Rules::default())
    }

    /// The start position of a game of `game_type` played under `rules`, with the tournament opening.
    pub fn with_rules(game_type: GameType, rules: Rules) -> Position {
        Position::with_opening(game_type, rules, Opening::Tournament)
    }

    /// The start position of a game of `game_type` played under `rules`, opening as `opening` says.
    pub fn with_opening(game_type: GameType, rules: Rules, opening: Opening) -> Position {
        Position {
            board: Board::default(),
            game_type,
            in_game: Piece::all()
                .filter(|p| game_type.includes(p.bug()))
                .fold(0, |mask, p| mask | 1 << p.index()),
            to_move: Color::White,
            stunned: None,
            state: GameState::NotStarted,
            history: Vec::with_capacity(128),
            ply_base: 0,
            rules,
            opening,
        }
    }

    /// The rules this game is played under.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether the tournament opening rule holds in this game.
    #[inline]
    pub fn opening(&self) -> Opening {
        self.opening
    }

    /// The pieces on the board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Which expansion pieces are in the game.
    #[inline]
    pub fn game_type(&self) -> GameType {
        self.game_type
    }

    /// Whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Plies (half-moves, passes included) played so far.
    #[inline]
    pub fn ply(&self) -> usize {
        self.ply_base + self.history.len()
    }

    /// The UHP turn number: 1 + plies / 2.
    #[inline]
    pub fn turn_number(&self) -> usize {
        1 + self.ply() / 2
    }

    /// Where the game stands.
    #[inline]
    pub fn state(&self) -> GameState {
        self.state
    }

    /// The piece that moved on the last turn and so may not move or be moved now.
    #[inline]
    pub fn stunned(&self) -> Option<Piece> {
        self.stunned
    }

    /// How many pieces of `bug` `color` still has in hand.
    #[inline]
    pub fn in_hand(&self, color: Color, bug: Bug) -> u8 {
        // A hand is the pieces of the game not on the board: no separate count to keep.
        (self.pieces_in_hand(color).bits() & bug.bits(color)).count_ones() as u8
    }

    /// The piece of `bug` that `color` would place next, if any is left in hand.
    #[inline]
    pub fn next_in_hand(&self, color: Color, bug: Bug) -> Option<Piece> {
        let left = self.in_hand(color, bug);
        if left == 0 {
            return None;
        }
        Piece::new(color, bug, bug.count() - left + 1)
    }

    /// The pieces of `color` still in hand.
    #[inline]
    pub fn pieces_in_hand(&self, color: Color) -> PieceSet {
        PieceSet::from_bits(self.in_game) & (PieceSet::of_color(color) - self.board.on_board())
    }

    /// Where `color`'s Queen stands, if she has been placed.
    #[inline]
    pub fn queen_hex(&self, color: Color) -> Option<Hex> {
        self.board.hex_of(queen(color))
    }

    /// The moves played so far, oldest first.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = Move> + ExactSizeIterator + '_ {
        self.history.iter().map(|p| p.mv)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|p| p.mv)
    }

    /// Hash of everything that decides the legal moves and the outcome from here, for the search's table: the
    /// arrangement, the side to move, and the stunned piece when a Pillbug or Mosquito of the side to move stands
    /// next to it (or it is that side's own). That errs on the side of a new position; the repetition rule asks
    /// exactly, in [`Position::repetitions`].
    #[inline]
    pub fn hash(&self) -> u64 {
        let stun = self.stunned.filter(|&p| self.stun_may_matter(p));
        self.key(stun)
    }

    /// The [`Position::hash`] of the position after `mv`, one of this position's moves, worked out without
    /// playing it: so that a search can ask the memory for what it keeps under the next position before it gets
    /// there.
    #[inline]
    pub(crate) fn hash_after(&self, mv: Move) -> u64 {
        let board = &self.board;
        let next = self.to_move.opponent();
        let (hash, stunned_at) = match mv {
            Move::Place { piece, to } => (board.hash() ^ zobrist(piece, to, board.height(to)), None),
            Move::Move { piece, to } => {
                let from = board.hex_of_unchecked(piece);
                let hash =
                    board.hash() ^ zobrist(piece, from, board.height(from) - 1) ^ zobrist(piece, to, board.height(to));
                // As `stun_may_matter` will judge it there: the cell left behind shows what stood under the piece.
                let may_matter = piece.color() == next || self.thrower_beside(next, to, Some((piece, from)));
                (hash, may_matter.then_some(to))
            }
            Move::Pass => (board.hash(), None),
        };
        let side = if next == Color::Black { SIDE_KEY } else { 0 };
        hash ^ side ^ stunned_at.map_or(0, stun_key)
    }

    /// What the repetition rule compares: as [`Position::hash`], with the stunned piece only when the stun changes
    /// what may be played. Two positions with the same key are the same position under the rule.
    #[inline]
    fn repetition_key(&self) -> u64 {
        let stun = self.stunned.filter(|&p| self.stun_matters(p));
        self.key(stun)
    }

    #[inline]
    fn key(&self, stun: Option<Piece>) -> u64 {
        let side = if self.to_move == Color::Black { SIDE_KEY } else { 0 };
        // Named by its cell (it is on top there), so that it does not matter which of alike pieces it is.
        let stunned = stun.map_or(0, |p| stun_key(self.board.hex_of_unchecked(p)));
        self.board.hash() ^ side ^ stunned
    }

    /// The piece that moved last turn, when its stun does change what may be played ([`Position::repetitions`]
    /// compares positions so): a position's identity must keep it, its hash aside.
    pub(crate) fn stun_that_matters(&self) -> Option<Piece> {
        self.stunned.filter(|&p| self.stun_matters(p))
    }

    /// Whether `stunned`, the piece that moved last turn, may change what the side to move may play: it is that
    /// side's own (carried by the other side's Pillbug, it may not move), or a Pillbug or Mosquito of that side
    /// stands next to it. In the base game, only the first.
    #[inline]
    fn stun_may_matter(&self, stunned: Piece) -> bool {
        if stunned.color() == self.to_move {
            return true;
        }
        self.thrower_beside(self.to_move, self.board.hex_of_unchecked(stunned), None)
    }

    /// Whether a piece that may throw for `color` (its Pillbug or Mosquito, [`may_throw_for`]) stands on top of a
    /// stack next to `hex`, on the board as it will be once `leaving` (a piece and the cell it leaves), if any, has
    /// left. Found from where those two pieces stand rather than by looking round `hex`: two tests at most
    /// instead of six, and none when they are not in play.
    #[inline]
    fn thrower_beside(&self, color: Color, hex: Hex, leaving: Option<(Piece, Hex)>) -> bool {
        let board = &self.board;
        let mut throwers = board.on_board().bits() & THROWERS & PieceSet::of_color(color).bits();
        while throwers != 0 {
            let thrower = Piece::from_index(throwers.trailing_zeros() as usize);
            throwers &= throwers - 1;
            let at = board.hex_of_unchecked(thrower);
            let top = match leaving {
                Some((piece, from)) if from == at => board.below(piece),
                _ => board.top(at),
            };
            if top == Some(thrower) && at.is_next_to(hex) {
                return true;
            }
        }
        false
    }

    /// Whether the stun of `stunned` does change what may be played (a narrower [`Position::stun_may_matter`]):
    /// the other side's piece can only be thrown when it is alone on its cell, by a Pillbug on the ground or by a
    /// Mosquito on the ground that touches a Pillbug (a Mosquito on a stack is a Beetle, and one without a Pillbug
    /// beside it has nothing to copy the throw from). Errs on the side of "it matters" (a gate or the hive's unity
    /// may still forbid the throw).
    #[inline]
    fn stun_matters(&self, stunned: Piece) -> bool {
        if stunned.color() == self.to_move {
            return true;
        }
        if !self.board.has_pillbug() {
            return false;
        }
        let hex = self.board.hex_of_unchecked(stunned);
        self.board.height(hex) == 1 && hex.neighbours().into_iter().any(|n| self.may_throw_from(n))
    }

    /// Whether the side to move has a piece on `hex` that can throw its neighbours this turn: a Pillbug on the
    /// ground, or a Mosquito on the ground beside a Pillbug of either colour.
    #[inline]
    fn may_throw_from(&self, hex: Hex) -> bool {
        if self.board.height(hex) != 1 {
            return false;
        }
        self.board.top(hex).is_some_and(|p| {
            may_throw_for(p, self.to_move) && (p.bug() == Bug::Pillbug || self.board.touches(hex, Bug::Pillbug))
        })
    }

    /// The same hash computed from scratch, for checking the incremental one.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut board = Board::default();
        let mut stacks: Vec<(Hex, Vec<Piece>)> = Vec::new();
        for piece in Piece::all() {
            if let Some(hex) = self.board.hex_of(piece) {
                if self.board.top(hex) == Some(piece) {
                    let mut stack: Vec<Piece> = self.board.stack(hex).collect();
                    stack.reverse();
                    stacks.push((hex, stack));
                }
            }
        }
        for (hex, stack) in stacks {
            for piece in stack {
                board.push(piece, hex);
            }
        }
        let mut copy = self.clone();
        copy.board = board;
        copy.hash()
    }

    /// Play `mv` without checking it, for search and perft. Contract: `mv` is one of the moves the generator
    /// lists in this position. Anything else leaves the position inconsistent (a debug build panics); input from
    /// outside goes through the checked [`Position::play`].
    pub fn play_unchecked(&mut self, mv: Move) {
        let mut from = Hex::ORIGIN;
        let keys = self.board.keys();
        let previous_stunned = self.stunned;
        match mv {
            Move::Place { piece, to } => {
                debug_assert!(!self.board.is_on_board(piece), "placed a piece already on the board");
                self.board.push(piece, to);
                self.stunned = None;
            }
            Move::Move { piece, to } => {
                debug_assert!(self.board.is_on_board(piece), "moved a piece in hand");
                from = self.board.hex_of_unchecked(piece);
                let lifted = self.board.pop(from);
                debug_assert_eq!(lifted, piece, "moved a covered piece");
                self.board.push(piece, to);
                self.stunned = Some(piece);
            }
            Move::Pass => self.stunned = None,
        }
        self.to_move = self.to_move.opponent();
        self.history.push(Played {
            mv,
            from,
            stunned: previous_stunned,
            state: self.state,
            hash: self.repetition_key(),
            keys,
        });
        self.state = self.judge();
    }

    /// How the last move changed the hive's shape (which cells are occupied): the shape hash before it, the cell it
    /// emptied (a piece that stood alone left it) and the cell it occupied (a piece landed on the ground); `None`
    /// after a pass or at the start. The move generator's cut-cell cache works out the new shape's cut cells from
    /// the old one's.
    #[inline]
    pub(crate) fn shape_change(&self) -> Option<(u64, Option<Hex>, Option<Hex>)> {
        let played = self.history.last()?;
        let (emptied, to) = match played.mv {
            Move::Place { to, .. } => (None, to),
            Move::Move { to, .. } => ((!self.board.is_occupied(played.from)).then_some(played.from), to),
            Move::Pass => return None,
        };
        let occupied = (self.board.height(to) == 1).then_some(to);
        Some((played.keys[1], emptied, occupied))
    }

    /// Take back the last move; `None` when there is none.
    pub fn undo(&mut self) -> Option<Move> {
        let played = self.history.pop()?;
        match played.mv {
            Move::Place { to, .. } => self.board.take_back(to, None, played.keys),
            Move::Move { to, .. } => self.board.take_back(to, Some(played.from), played.keys),
            Move::Pass => {}
        }
        self.stunned = played.stunned;
        self.state = played.state;
        self.to_move = self.to_move.opponent();
        Some(played.mv)
    }

    /// Become the position set up with `board`, the pieces `in_game` (on the board or in hand), `to_move`, the
    /// piece `stunned` by last turn's move and `ply` plies played: for `crate::rules::setup`, which has checked them.
    pub(crate) fn set_up(&mut self, board: Board, in_game: u32, to_move: Color, stunned: Option<Piece>, ply: usize) {
        self.board = board;
        self.in_game = in_game;
        self.to_move = to_move;
        self.stunned = stunned;
        self.history.clear();
        self.ply_base = ply;
        self.state = if ply == 0 && self.board.piece_count() == 0 {
            GameState::NotStarted
        } else {
            self.judge()
        };
    }

    /// Whether the Queen of `color` has all six neighbours occupied.
    pub fn is_surrounded(&self, color: Color) -> bool {
        self.queen_hex(color)
            .is_some_and(|q| self.board.occupied_around(q) == Directions::ALL)
    }

    /// How many times the current position has occurred in this game (1 the first time), whatever the rules.
    pub fn repetitions(&self) -> usize {
        1 + self.earlier_occurrences(usize::MAX)
    }

    /// Whether the current position occurred before in this game: under the repetition rule, a position the
    /// side that brought it back about can make occur a third time.
    #[inline]
    pub fn repeated(&self) -> bool {
        self.earlier_occurrences(1) > 0
    }

    /// How many earlier positions of this game are the current one, counted up to `enough`. A placement is never
    /// undone (a piece never goes back to its hand), so only the positions since the last one are looked at.
    #[inline]
    fn earlier_occurrences(&self, enough: usize) -> usize {
        let Some((now, earlier)) = self.history.split_last() else {
            return 0;
        };
        if matches!(now.mv, Move::Place { .. }) {
            return 0;
        }
        let mut found = 0;
        for past in earlier.iter().rev() {
            if past.hash == now.hash {
                found += 1;
                if found == enough {
                    break;
                }
            }
            if matches!(past.mv, Move::Place { .. }) {
                break;
            }
        }
        found
    }

    fn judge(&self) -> GameState {
        match (self.is_surrounded(Color::White), self.is_surrounded(Color::Black)) {
            (true, true) => GameState::Draw,
            (true, false) => GameState::BlackWins,
            (false, true) => GameState::WhiteWins,
            (false, false) if self.rules.threefold_draw && self.repetitions() >= 3 => GameState::Draw,
            (false, false) => GameState::InProgress,
        }
    }
}

/// The Queen of `color`.
#[inline]
pub(crate) fn queen(color: Color) -> Piece {
    Piece::from_index(color.index() * 14)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetitions_are_counted_under_any_rules_and_undone_with_the_moves() {
        for rules in [Rules::default(), Rules { threefold_draw: true }] {
            let mut pos = Position::with_rules(GameType::BASE, rules);
            assert_eq!(pos.repetitions(), 1);
            let mut moves = pos.legal_moves();
            pos.play_unchecked(moves[0]);
            assert_eq!(pos.repetitions(), 1);
            pos.undo();
            assert_eq!(pos.repetitions(), 1);
            // Two Queens shuttling: each position of the shuttle comes back four moves later, and the fourth is the
            // position before the shuttle (where the Queens had been placed rather than moved: nothing any side can
            // play differs, so it is the same position).
            for text in ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"] {
                let mv = crate::record::notation::MoveString::to_move(text.parse().unwrap(), &pos).unwrap();
                pos.play(mv).unwrap();
            }
            let shuttle = ["wQ \\wS1", "bQ bS1\\", "wQ -wS1", "bQ bS1-"];
            for (i, text) in shuttle.iter().cycle().take(8).enumerate() {
                let mv = crate::record::notation::MoveString::to_move(text.parse().unwrap(), &pos).unwrap();
                pos.play(mv).unwrap();
                let expected = 1 + i / 4 + usize::from(i % 4 == 3);
                assert_eq!(pos.repetitions(), expected, "after shuttle move {}", i + 1);
                assert_eq!(pos.repeated(), expected > 1, "after shuttle move {}", i + 1);
            }
            for _ in 0..5 {
                pos.undo();
            }
            assert_eq!(pos.repetitions(), 1, "back after the third shuttle move");
            moves = pos.legal_moves();
            assert!(moves.len() > 1);
        }
    }

    #[test]
    fn the_hash_after_a_move_is_the_hash_once_it_is_played() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(0x4a5f_0e11);
        let mut checked = 0;
        for game in 0..200 {
            let mut pos = Position::new(GameType::ALL[game % GameType::ALL.len()]);
            for _ in 0..rng.gen_range(20..120) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter() {
                    let expected = pos.hash_after(mv);
                    pos.play_unchecked(mv);
                    assert_eq!(expected, pos.hash(), "{mv:?} in game {game}");
                    pos.undo();
                    checked += 1;
                }
                pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(checked > 100_000, "{checked} moves checked");
    }
}
