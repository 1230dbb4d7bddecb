//! A game as every front end sees it: the position, the rules it is played under, and its record (each move in
//! canonical notation, named once when it is played). Moves come in as text or as [`Move`]s and are checked;
//! errors are typed and leave the game as it was.
//!
//! Owns the game's life: start, load, play, undo. Searching is the engine's; text output is the front ends'.

use crate::record::notation::{line, GameString, GameStringError, MoveString, NotationError};
use crate::rules::game_type::GameType;
use crate::rules::legality::IllegalMove;
use crate::rules::moves::Move;
use crate::rules::position::{GameState, Opening, Position, Rules};

/// A move that cannot be played: text that is not a MoveString, or a move the rules forbid.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum PlayError {
    /// Text that is not a MoveString.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A move the rules forbid here.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// More moves asked to be taken back than were played.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
#[error("Can't undo {asked} move{}: only {played} played.", if *.asked == 1 { "" } else { "s" })]
pub struct UndoError {
    /// Moves asked to be taken back.
    pub asked: usize,
    /// Moves played so far.
    pub played: usize,
}

/// A game: position, rules and record.
#[derive(Clone)]
pub struct Game {
    position: Position,
    /// The canonical MoveString of each move played, in order.
    record: Vec<MoveString>,
}

impl Game {
    /// A new game of `game_type` under `rules`.
    pub fn new(game_type: GameType, rules: Rules) -> Game {
        Game {
            position: Position::with_rules(game_type, rules),
            record: Vec::new(),
        }
    }

    /// The game `record` describes (a GameString, or a bare GameTypeString for a new game), replayed under `rules`
    /// with every move checked; its state and turn fields, where it has them, must be what the moves give
    /// ([`GameStringError::State`], [`GameStringError::Turn`]). The one way from a record's text
    /// (`text.parse::<GameString>()`, its syntax) to a game (its meaning).
    pub fn from_record(record: &GameString, rules: Rules) -> Result<Game, GameStringError> {
        Game::from_record_with(record, rules, Opening::Tournament)
    }

    /// [`Game::from_record`], opening as `opening` says: for a record of an older game, with the opening the
    /// record shows ([`GameString::opening`]).
    pub fn from_record_with(record: &GameString, rules: Rules, opening: Opening) -> Result<Game, GameStringError> {
        let game = Game::from_moves_with(record, rules, opening)?;
        let pos = &game.position;
        if let Some(written) = record.state.filter(|&state| state != pos.state()) {
            return Err(GameStringError::State {
                written,
                moves_give: pos.state(),
                repeated: pos.repetitions() >= 3,
            });
        }
        if let Some((color, number)) = record.turn.filter(|&turn| turn != (pos.to_move(), pos.turn_number())) {
            return Err(GameStringError::Turn {
                written: format!("{}[{number}]", color.name()),
                moves_give: format!("{}[{}]", pos.to_move().name(), pos.turn_number()),
            });
        }
        Ok(game)
    }

    /// The game whose moves `record` lists, replayed under `rules` with every move checked, its state and turn
    /// fields not looked at: for a record whose state is a result that the moves need not reach (a `.pgn`'s
    /// `Result` tag counts resignations and clocks, a games file's result adjudications) or whose writer's rules
    /// may differ (a draw by repetition).
    pub fn from_moves(record: &GameString, rules: Rules) -> Result<Game, GameStringError> {
        Game::from_moves_with(record, rules, Opening::Tournament)
    }

    /// [`Game::from_moves`], opening as `opening` says.
    pub fn from_moves_with(record: &GameString, rules: Rules, opening: Opening) -> Result<Game, GameStringError> {
        let position = Position::load(record, rules, opening)?;
        let record = line(
            &Position::with_opening(record.game_type, rules, opening),
            position.moves(),
        );
        Ok(Game { position, record })
    }

    /// A game from `position` as it stands, with no record of the moves that led there (a position set up from
    /// a description of its board).
    pub(crate) fn from_position(position: Position) -> Game {
        Game {
            position,
            record: Vec::new(),
        }
    }

    /// The same moves played under other rules (the states they reach may differ), with the same opening.
    pub fn with_rules(&self, rules: Rules) -> Game {
        let mut position = Position::with_opening(self.position.game_type(), rules, self.position.opening());
        for mv in self.position.moves() {
            position.play_unchecked(mv);
        }
        Game {
            position,
            record: self.record.clone(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Where the game stands.
    pub fn state(&self) -> GameState {
        self.position.state()
    }

    /// The canonical MoveStrings of the moves played, oldest first.
    pub fn record(&self) -> &[MoveString] {
        &self.record
    }

    /// The GameString of the game as it stands.
    pub fn game_string(&self) -> GameString {
        GameString::with_moves(&self.position, self.record.clone())
    }

    /// The move `text` names here (any MoveString that resolves to the destination is accepted), not yet
    /// checked for legality.
    pub fn resolve(&self, text: &str) -> Result<Move, PlayError> {
        let parsed: MoveString = text.parse()?;
        Ok(parsed.to_move(&self.position)?)
    }

    /// Play the move `text` names, if it is legal. Returns its canonical MoveString.
    pub fn play_text(&mut self, text: &str) -> Result<MoveString, PlayError> {
        let mv = self.resolve(text)?;
        Ok(self.play(mv)?)
    }

    /// Play `mv` if it is legal; otherwise the game stays as it was. Returns its canonical MoveString.
    pub fn play(&mut self, mv: Move) -> Result<MoveString, IllegalMove> {
        let name = MoveString::from_move(&self.position, mv);
        self.position.play(mv)?;
        self.record.push(name);
        Ok(name)
    }

    /// Take back the last `n` moves; none at all when fewer were played.
    pub fn undo(&mut self, n: usize) -> Result<(), UndoError> {
        let played = self.record.len();
        if n > played {
            return Err(UndoError { asked: n, played });
        }
        for _ in 0..n {
            self.position.undo();
        }
        self.record.truncate(played - n);
        Ok(())
    }

    /// The legal moves, in generation order.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.position.legal_moves().to_vec()
    }

    /// The canonical MoveString of `mv` in the current position.
    pub fn move_string(&self, mv: Move) -> MoveString {
        MoveString::from_move(&self.position, mv)
    }

    /// The canonical MoveStrings of a line of moves played from the current position (a principal variation).
    pub fn line(&self, moves: &[Move]) -> Vec<MoveString> {
        line(&self.position, moves.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_follows_play_and_undo() {
        let mut game = Game::new(GameType::BASE, Rules::default());
        assert_eq!(game.play_text("wS1").unwrap().to_string(), "wS1");
        // Any reference that names the destination is accepted; the record keeps the canonical one.
        assert_eq!(game.play_text("bS1 wS1-").unwrap().to_string(), "bS1 wS1-");
        assert_eq!(
            game.play_text("wQ bS1-").unwrap_err().to_string(),
            "You can't place wQ there: a new piece must touch your own pieces and none of your opponent's."
        );
        game.play_text("wQ -wS1").unwrap();
        assert_eq!(
            game.game_string().to_string(),
            "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1"
        );
        assert_eq!(game.undo(4), Err(UndoError { asked: 4, played: 3 }));
        game.undo(2).unwrap();
        assert_eq!(game.game_string().to_string(), "Base;InProgress;Black[1];wS1");
        assert!(matches!(
            game.play_text("bQ wS1-"),
            Err(PlayError::Illegal(IllegalMove::QueenOnFirstTurn))
        ));
        assert!(matches!(game.play_text("bX"), Err(PlayError::Notation(_))));
        assert_eq!(game.record().len(), 1);
    }

    #[test]
    fn a_record_whose_queen_comes_first_replays_without_the_tournament_rule() {
        let old: GameString = "Base;InProgress;White[3];wQ;bQ wQ-;wS1 -wQ;bS1 bQ-".parse().unwrap();
        assert_eq!(old.opening(), Opening::Free);
        assert!(matches!(
            Game::from_moves(&old, Rules::default()),
            Err(GameStringError::Illegal {
                number: 1,
                reason: IllegalMove::QueenOnFirstTurn,
                ..
            })
        ));
        let game = Game::from_record_with(&old, Rules::default(), old.opening()).unwrap();
        assert_eq!(game.position().opening(), Opening::Free);
        assert_eq!(game.game_string(), old);
        // The opening is the game's: taken back to the start, the Queen may come out again; the rules change keeps it.
        let mut fresh = game.with_rules(Rules { threefold_draw: true });
        fresh.undo(4).unwrap();
        assert!(fresh.legal_moves().contains(&Move::Place {
            piece: "wQ".parse().unwrap(),
            to: crate::rules::hex::Hex::ORIGIN
        }));
        // Black's Queen first is enough; a Queen on the third move is not.
        let black: GameString = "Base;InProgress;White[2];wS1;bQ wS1-".parse().unwrap();
        assert_eq!(black.opening(), Opening::Free);
        let later: GameString = "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1".parse().unwrap();
        assert_eq!(later.opening(), Opening::Tournament);
        assert_eq!(Game::new(GameType::BASE, Rules::default()).legal_moves().len(), 4);
        let mut free = Game::from_moves_with(&GameType::BASE.into(), Rules::default(), Opening::Free).unwrap();
        assert_eq!(free.legal_moves().len(), 5);
        assert_eq!(free.play_text("wQ").unwrap().to_string(), "wQ");
        assert_eq!(free.play_text("bQ wQ/").unwrap().to_string(), "bQ wQ/");
    }

    #[test]
    fn a_loaded_game_names_its_moves_canonically() {
        // A self-referencing MoveString, as in real game records.
        let record = "Base;InProgress;Black[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wQ wQ\\"
            .parse()
            .unwrap();
        let game = Game::from_record(&record, Rules::default()).unwrap();
        assert_eq!(game.record().last().unwrap().to_string(), "wQ /wS1");
        let same = Game::from_record(&game.game_string(), Rules::default()).unwrap();
        assert_eq!(same.game_string(), game.game_string());
    }
}
