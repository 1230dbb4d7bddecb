//! The meaning of a record's actions: each one followed on a position as BoardSpace's board follows it, the piece
//! picked up and dropped, the turn confirmed, and each confirmed move named in a canonical MoveString and played,
//! checked by the rules. BoardSpace's board is a grid of lettered columns and numbered rows that wraps round at its
//! edges (or, later, grows); a cell becomes one of Waggle's cells by the pieces beside it, so that a hive that
//! wanders, or reaches an edge, is followed wherever it goes.

use std::collections::HashMap;

use super::action::{Action, Cell, PieceName, Spot};
use super::error::ActionError;
use super::header::Outcome;
use crate::record::notation::MoveString;
use crate::rules::game_type::GameType;
use crate::rules::hex::{Direction, Hex};
use crate::rules::moves::Move;
use crate::rules::piece::{Bug, Color, Piece};
use crate::rules::position::{Opening, Position, Rules};

/// The step in BoardSpace's columns and rows that goes one cell in `direction`: its columns grow to the east and
/// its rows to the north-east, so that `N 14` is north-west of `N 13` and `O 14` north-east of it.
pub(super) fn grid_step(direction: Direction) -> (i8, i8) {
    match direction {
        Direction::NorthWest => (0, 1),
        Direction::NorthEast => (1, 1),
        Direction::East => (1, 0),
        Direction::SouthEast => (0, -1),
        Direction::SouthWest => (-1, -1),
        Direction::West => (-1, 0),
    }
}

/// A game followed action by action.
pub(super) struct Replay {
    position: Position,
    /// Waggle's cell of each occupied spot of BoardSpace's board.
    cells: HashMap<Spot, Hex>,
    moves: Vec<MoveString>,
    turn: Turn,
    /// For each colour, the player (0 for `P0`) who last moved for it: who played which colour.
    movers: [Option<u8>; 2],
    /// How the actions ended the game (a resignation, a clock, a draw agreed), if they did.
    ending: Option<Outcome>,
}

/// What has been done in the turn so far.
#[derive(Default)]
struct Turn {
    /// The piece picked up, and where from.
    held: Option<Held>,
    /// Where it was dropped.
    dropped: Option<Cell>,
    /// A pass said.
    pass: bool,
    /// An offer, an answer to one, a choice of colour, a resignation: something other than a move, which a `Done`
    /// confirms without passing.
    other: bool,
    /// A resignation, to take effect at `Done`.
    resign: bool,
    /// A draw accepted, to take effect at `Done`.
    accept: bool,
    /// The player who acted last in the turn.
    player: u8,
}

/// Where a piece picked up came from.
#[derive(Clone, Copy)]
enum Held {
    /// A rack: the next piece of that bug and colour.
    Hand(Color, Bug),
    /// A cell of the board: its top piece.
    Board(Cell),
}

impl Held {
    /// Whether the piece came from `cell`.
    fn is_from(self, cell: Cell) -> bool {
        matches!(self, Held::Board(from) if from.spot() == cell.spot())
    }
}

impl Replay {
    /// A game of `game_type` about to start. BoardSpace's early games allowed the Queen on a first turn, so the
    /// actions are followed without the tournament opening; a record whose first two moves place no Queen plays the
    /// same under it.
    pub(super) fn new(game_type: GameType) -> Replay {
        Replay {
            position: Position::with_opening(game_type, Rules::default(), Opening::Free),
            cells: HashMap::new(),
            moves: Vec::new(),
            turn: Turn::default(),
            movers: [None; 2],
            ending: None,
        }
    }

    /// Follow `action` by `player` (0 for `P0`).
    pub(super) fn act(&mut self, player: u8, action: Action) -> Result<(), ActionError> {
        self.turn.player = player;
        match action {
            Action::Start => self.turn = Turn::default(),
            Action::Pick { rack, piece } => {
                let color = piece.color.unwrap_or(rack);
                self.check_in_game(color, piece)?;
                self.turn.held = Some(Held::Hand(color, piece.bug));
                self.turn.dropped = None;
            }
            Action::PickBoard { cell } => {
                if self.turn.dropped.is_some_and(|dropped| dropped.spot() == cell.spot()) {
                    // The piece just dropped, taken back to be dropped elsewhere.
                    self.turn.dropped = None;
                    return Ok(());
                }
                if let Some(dropped) = self.turn.dropped {
                    return Err(ActionError::PickedElsewhere {
                        picked: cell.to_string(),
                        dropped: dropped.to_string(),
                    });
                }
                if !self.cells.contains_key(&cell.spot()) {
                    return Err(ActionError::EmptyCell(cell.to_string()));
                }
                self.turn.held = Some(Held::Board(cell));
            }
            Action::DropRack => {
                self.turn.held = None;
                self.turn.dropped = None;
            }
            Action::DropBoard { cell } => {
                let held = self.turn.held.ok_or(ActionError::NothingPicked)?;
                if let Some(dropped) = self.turn.dropped {
                    return Err(ActionError::DroppedTwice(dropped.to_string()));
                }
                if held.is_from(cell) {
                    // Put back where it was: no move.
                    self.turn.held = None;
                } else {
                    self.turn.dropped = Some(cell);
                }
            }
            Action::Move {
                piece,
                rack,
                cell,
                done,
            } => {
                let color = piece.color.unwrap_or(rack);
                let named = self.check_in_game(color, piece)?;
                let held = match self.position.board().hex_of(named) {
                    Some(hex) => Held::Board(self.cell_of(hex).ok_or(ActionError::EmptyCell(cell.to_string()))?),
                    None => Held::Hand(color, piece.bug),
                };
                self.turn.held = Some(held);
                self.turn.dropped = (!held.is_from(cell)).then_some(cell);
                if done {
                    self.done(player)?;
                }
            }
            Action::Pass { done } => {
                self.turn.pass = true;
                if done {
                    self.done(player)?;
                }
            }
            Action::Done => self.done(player)?,
            Action::Resign => {
                self.turn.resign = !self.turn.resign;
                self.turn.other = true;
            }
            Action::AcceptDraw => {
                self.turn.accept = !self.turn.accept;
                self.turn.other = true;
            }
            Action::OfferDraw | Action::DeclineDraw | Action::ChooseColor | Action::Aside => self.turn.other = true,
            Action::WinOnTime => {
                self.ending = Some(Outcome::Won(player));
                self.turn.other = true;
            }
            Action::Edit => return Err(ActionError::Edit),
            Action::Undo => return Err(ActionError::Undo),
        }
        Ok(())
    }

    /// The turn confirmed by `player`: its move played, or its pass (a turn confirmed with nothing done is a pass,
    /// as later records leave it), or what it said taking effect.
    fn done(&mut self, player: u8) -> Result<(), ActionError> {
        let turn = std::mem::take(&mut self.turn);
        if let Some(cell) = turn.dropped {
            let held = turn.held.ok_or(ActionError::NothingPicked)?;
            self.play_held(player, held, cell)?;
        } else if turn.pass {
            self.play(player, Move::Pass)?;
        } else if turn.held.is_some() && !turn.other {
            return Err(ActionError::Holding);
        } else if !turn.other && !self.position.state().is_over() {
            self.play(player, Move::Pass)?;
        }
        if turn.resign {
            self.ending = Some(Outcome::Won(1 - player));
        } else if turn.accept {
            self.ending = Some(Outcome::Draw);
        }
        Ok(())
    }

    /// The end of the record, perhaps in the middle of a turn (a clock ran out, the record was cut): as Mzinga.Viewer
    /// reads it, a move dropped or a pass said is played though not confirmed, and a resignation or a draw accepted
    /// takes effect; a piece picked up and not dropped is let go.
    pub(super) fn finish(&mut self) -> Result<(), ActionError> {
        let turn = std::mem::take(&mut self.turn);
        let over = self.position.state().is_over();
        if let (Some(cell), Some(held)) = (turn.dropped, turn.held) {
            if !over {
                self.play_held(turn.player, held, cell)?;
            }
        } else if turn.pass && !over {
            self.play(turn.player, Move::Pass)?;
        }
        if turn.resign {
            self.ending = Some(Outcome::Won(1 - turn.player));
        } else if turn.accept {
            self.ending = Some(Outcome::Draw);
        }
        Ok(())
    }

    /// The piece `held` put on `cell`.
    fn play_held(&mut self, player: u8, held: Held, cell: Cell) -> Result<(), ActionError> {
        let to = self.hex_of(cell)?;
        let mv = match held {
            Held::Hand(color, bug) => {
                let piece = self
                    .position
                    .next_in_hand(color, bug)
                    .ok_or(ActionError::NoneInHand(color.name(), bug.name()))?;
                Move::Place { piece, to }
            }
            Held::Board(from) => {
                let piece = self
                    .cells
                    .get(&from.spot())
                    .and_then(|&hex| self.position.board().top(hex))
                    .ok_or(ActionError::EmptyCell(from.to_string()))?;
                Move::Move { piece, to }
            }
        };
        self.play(player, mv)?;
        if let Held::Board(from) = held {
            let from = from.spot();
            if self
                .cells
                .get(&from)
                .is_some_and(|&hex| !self.position.board().is_occupied(hex))
            {
                self.cells.remove(&from);
            }
        }
        self.cells.insert(cell.spot(), to);
        Ok(())
    }

    /// Play `mv`, checked, and name it.
    fn play(&mut self, player: u8, mv: Move) -> Result<(), ActionError> {
        let mover = self.position.to_move();
        let name = MoveString::from_move(&self.position, mv);
        self.position.play(mv).map_err(|reason| ActionError::Illegal {
            number: self.moves.len() + 1,
            name: name.to_string(),
            reason,
        })?;
        self.moves.push(name);
        self.movers[mover.index()] = Some(player);
        Ok(())
    }

    /// The piece `name` stands for, which the game must have.
    fn check_in_game(&self, color: Color, name: PieceName) -> Result<Piece, ActionError> {
        let piece = Piece::new(color, name.bug, name.number.unwrap_or(1))
            .ok_or_else(|| ActionError::Piece(format!("{}{}", color.letter(), name.bug.letter())))?;
        if !self.position.game_type().includes(name.bug) {
            return Err(ActionError::NotInGame(piece.to_string()));
        }
        Ok(piece)
    }

    /// Waggle's cell for BoardSpace's `cell`: where it is already known, or found from the pieces beside it; the
    /// game's first piece goes to the origin.
    fn hex_of(&self, cell: Cell) -> Result<Hex, ActionError> {
        let spot = cell.spot();
        if let Some(&hex) = self.cells.get(&spot) {
            return Ok(hex);
        }
        if self.cells.is_empty() {
            return Ok(Hex::ORIGIN);
        }
        let mut found: Option<Hex> = None;
        for direction in Direction::ALL {
            let (columns, rows) = grid_step(direction);
            let Some(&beside) = self.cells.get(&spot.step((-columns, -rows))) else {
                continue;
            };
            let hex = beside.step(direction);
            match found {
                Some(other) if other != hex => return Err(ActionError::WrapsAround(cell.to_string())),
                _ => found = Some(hex),
            }
        }
        found.ok_or_else(|| ActionError::Apart(cell.to_string()))
    }

    /// BoardSpace's cell of an occupied `hex`.
    fn cell_of(&self, hex: Hex) -> Option<Cell> {
        self.cells
            .iter()
            .find(|&(_, &at)| at == hex)
            .map(|(&spot, _)| spot.cell())
    }

    /// The position reached.
    pub(super) fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in canonical MoveStrings.
    pub(super) fn into_moves(self) -> Vec<MoveString> {
        self.moves
    }

    /// The players of White and of Black (0 for `P0`): those who moved for each colour last, as a game with the
    /// swap option may change them after the first move; `P0` White when the moves cannot tell.
    pub(super) fn players(&self) -> [u8; 2] {
        match self.movers {
            [Some(white), Some(black)] if white != black => [white, black],
            [Some(white), _] => [white, 1 - white],
            [None, Some(black)] => [1 - black, black],
            [None, None] => [0, 1],
        }
    }

    /// How the actions ended the game, if they did.
    pub(super) fn ending(&self) -> Option<Outcome> {
        self.ending
    }
}
