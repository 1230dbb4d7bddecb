//! The syntax of BoardSpace's Hive actions, the values of a record's `P0[…]` and `P1[…]` properties: an optional
//! sequence number, a verb and its words, as `12 Dropb bB2 N 13 wQ/` or `3 pick w 2 G1`. Nothing here looks at the
//! board: the meaning of an action is the replay's.
//!
//! A move is made of actions: a piece picked up (`Pick` from a rack, `Pickb` from the board) and dropped on the
//! board (`Dropb`, or `Pdropb` when a Pillbug carries it), then `Done`; or in one action (`Move`, `PMove`, with
//! `MoveDone` and `PMoveDone` ending the turn as well). The words after a drop's cell (`wQ/`, `.`) are BoardSpace's
//! note of where the piece went, for people: the cell says it, and is what is read.

use std::fmt;

use super::error::ActionError;
use crate::rules::piece::{Bug, Color};

/// Columns (A to Z) and rows (1 to 26) of BoardSpace's older Hive board, which wraps round at its edges.
const SIDE: i64 = 26;

/// A cell of BoardSpace's board as an action writes it: a column letter and a row number (`N 13` is where a
/// game's first piece goes). The older board wraps round, its columns A to Z and rows 1 to 26; the later one grows
/// without end, its columns beyond Z written `1Z`, `2Z`, … and before A `1A`, `2A`, …, its rows any number. Both
/// come to the same [`Spot`]s, since a hive never spans the 26 cells that would make two of its cells one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct Cell {
    /// The column, 0 for A (−1 for `1A`, 26 for `1Z`).
    column: i32,
    /// The row as written.
    row: i32,
}

/// A cell of the older, wrapping board: where a cell of either board lies on it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct Spot {
    column: u8,
    row: u8,
}

impl Cell {
    /// Where the cell lies on the wrapping board.
    pub(super) fn spot(self) -> Spot {
        let wrap = |at: i32| i64::from(at).rem_euclid(SIDE) as u8;
        Spot {
            column: wrap(self.column),
            row: wrap(self.row - 1),
        }
    }
}

impl Spot {
    /// The cell of the wrapping board at this spot.
    pub(super) fn cell(self) -> Cell {
        Cell {
            column: i32::from(self.column),
            row: i32::from(self.row) + 1,
        }
    }

    /// The spot one step from this one by `(columns, rows)`, the board wrapping round.
    pub(super) fn step(self, (columns, rows): (i8, i8)) -> Spot {
        let wrap = |at: u8, by: i8| (i64::from(at) + i64::from(by)).rem_euclid(SIDE) as u8;
        Spot {
            column: wrap(self.column, columns),
            row: wrap(self.row, rows),
        }
    }
}

impl fmt::Display for Cell {
    /// As BoardSpace writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            column @ 0..=25 => write!(f, "{}", char::from(b'A' + column as u8))?,
            column if column < 0 => write!(f, "{}A", -i64::from(column))?,
            column => write!(f, "{}Z", i64::from(column) - 25)?,
        }
        write!(f, " {}", self.row)
    }
}

/// A piece as an action names it: its bug and number, and its colour when the name carries one (`wA2`; `A2` and
/// `a2` leave it to the rack or the player).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct PieceName {
    pub(super) color: Option<Color>,
    pub(super) bug: Bug,
    /// The number written, if any (`1` for a lone bug is allowed, as BoardSpace writes `wM1`).
    pub(super) number: Option<u8>,
}

/// One action of a player.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Action {
    /// `Start P0`: the game (re)starts with that player to act.
    Start,
    /// `Pick W 2 G1`: a piece taken from a rack.
    Pick { rack: Color, piece: PieceName },
    /// `Pickb N 13 bA1`: the top piece of a cell picked up.
    PickBoard { cell: Cell },
    /// `Drop W 2 G1`: the piece in hand put back on its rack.
    DropRack,
    /// `Dropb wA1 N 14 \wS1` (or `Pdropb`): the piece in hand dropped on a cell.
    DropBoard { cell: Cell },
    /// `Move W wA1 N 14 \wS1` (or `PMove`, `MoveDone`, `PMoveDone`): a piece picked and dropped at once, the turn
    /// ended too when `done`.
    Move {
        piece: PieceName,
        rack: Color,
        cell: Cell,
        done: bool,
    },
    /// `Pass` (`PassDone` ends the turn as well).
    Pass { done: bool },
    /// `Done`: the turn (or the answer to an offer) confirmed.
    Done,
    /// `Resign`: the player gives the game up when the turn is confirmed (a second `Resign` takes it back).
    Resign,
    /// `OfferDraw`.
    OfferDraw,
    /// `AcceptDraw`: the game is drawn when confirmed.
    AcceptDraw,
    /// `DeclineDraw`.
    DeclineDraw,
    /// `WinOnTime`: the player wins, the opponent's clock having run out.
    WinOnTime,
    /// `PlayWhite` or `PlayBlack`: the colour chosen in a game with the swap option.
    ChooseColor,
    /// `Edit`: the board set up by hand.
    Edit,
    /// `Undo` or `Reset`: actions taken back.
    Undo,
    /// `PleaseUndo`, `DontUndo`, `AllowUndo`, `Peek`: what BoardSpace's players say of taking back a move, which a
    /// finished record has already settled.
    Aside,
}

/// What a player's property value is: an action, or something else a record says of the player (`id "ann"`,
/// `ranking 1500`, `time 0:04:41`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum Value {
    /// An action.
    Action(Action),
    /// Not an action: the first word and what follows.
    About(String, String),
}

/// The verbs of BoardSpace's Hive, in lower case.
const VERBS: [&str; 29] = [
    "start",
    "pick",
    "pickb",
    "drop",
    "dropb",
    "pdropb",
    "move",
    "pmove",
    "movedone",
    "pmovedone",
    "pass",
    "passdone",
    "nullmove",
    "done",
    "resign",
    "offerdraw",
    "acceptdraw",
    "declinedraw",
    "winontime",
    "playwhite",
    "playblack",
    "edit",
    "swap",
    "undo",
    "reset",
    "pleaseundo",
    "dontundo",
    "allowundo",
    "peek",
];

/// Read a player's property value. A value that starts with a sequence number must be an action; one that does
/// not is an action if its first word is a verb, and otherwise something said of the player.
pub(super) fn read(value: &str) -> Result<Value, ActionError> {
    let mut words = value.split_whitespace().peekable();
    let numbered = words.next_if(|word| word.bytes().all(|b| b.is_ascii_digit())).is_some();
    let Some(verb) = words.next() else {
        return if numbered {
            Err(ActionError::Unknown(String::new()))
        } else {
            Ok(Value::About(String::new(), String::new()))
        };
    };
    let lower = verb.to_ascii_lowercase();
    if !VERBS.contains(&lower.as_str()) {
        if numbered {
            return Err(ActionError::Unknown(verb.to_string()));
        }
        let rest = value.trim_start().strip_prefix(verb).unwrap_or("").trim();
        return Ok(Value::About(lower, rest.to_string()));
    }
    let words: Vec<&str> = words.collect();
    let action = match lower.as_str() {
        "start" => Action::Start,
        "pick" => {
            let [rack, _index, piece, ..] = words[..] else {
                return Err(ActionError::Form("Pick W|B INDEX PIECE"));
            };
            let rack = self::rack(rack)?;
            Action::Pick {
                rack,
                piece: piece_name(piece)?,
            }
        }
        "pickb" => {
            let [column, row, ..] = words[..] else {
                return Err(ActionError::Form("Pickb COLUMN ROW PIECE"));
            };
            Action::PickBoard {
                cell: cell(column, row)?,
            }
        }
        "drop" => {
            if words.len() < 3 {
                return Err(ActionError::Form("Drop W|B INDEX PIECE"));
            }
            rack(words[0])?;
            Action::DropRack
        }
        "dropb" | "pdropb" => {
            let [piece, column, row, ..] = words[..] else {
                return Err(ActionError::Form("Dropb PIECE COLUMN ROW"));
            };
            piece_name(piece)?;
            Action::DropBoard {
                cell: cell(column, row)?,
            }
        }
        "move" | "pmove" | "movedone" | "pmovedone" => {
            let [rack, piece, column, row, ..] = words[..] else {
                return Err(ActionError::Form("Move W|B PIECE COLUMN ROW"));
            };
            Action::Move {
                rack: self::rack(rack)?,
                piece: piece_name(piece)?,
                cell: cell(column, row)?,
                done: lower.ends_with("done"),
            }
        }
        "pass" => Action::Pass { done: false },
        "passdone" | "nullmove" => Action::Pass { done: true },
        "done" => Action::Done,
        "resign" => Action::Resign,
        "offerdraw" => Action::OfferDraw,
        "acceptdraw" => Action::AcceptDraw,
        "declinedraw" => Action::DeclineDraw,
        "winontime" => Action::WinOnTime,
        "playwhite" | "playblack" => Action::ChooseColor,
        "edit" => Action::Edit,
        "undo" | "reset" => Action::Undo,
        "pleaseundo" | "dontundo" | "allowundo" | "peek" => Action::Aside,
        // `Swap` is in BoardSpace's list of words, but its Hive never plays it.
        _ => return Err(ActionError::Unknown(verb.to_string())),
    };
    Ok(Value::Action(action))
}

/// A rack: `W` or `B`, any case.
fn rack(word: &str) -> Result<Color, ActionError> {
    match word.to_ascii_lowercase().as_str() {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        _ => Err(ActionError::Rack(word.to_string())),
    }
}

/// The most cells a column or row may lie beyond BoardSpace's first board: far more than any hive reaches.
const REACH: i32 = 10_000;

/// A cell from its column (a letter, or a number and `A` or `Z`) and row number.
fn cell(column: &str, row: &str) -> Result<Cell, ActionError> {
    let bad = || ActionError::Cell(format!("{column} {row}"));
    let upper = column.to_ascii_uppercase();
    let column = match upper.as_bytes() {
        [letter] if letter.is_ascii_alphabetic() => i32::from(letter - b'A'),
        [digits @ .., edge @ (b'A' | b'Z')] if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) => {
            let beyond: i32 = upper[..digits.len()].parse().map_err(|_| bad())?;
            if *edge == b'A' {
                -beyond
            } else {
                25 + beyond
            }
        }
        _ => return Err(bad()),
    };
    let row: i32 = row.parse().map_err(|_| bad())?;
    if column.abs() > REACH || row.abs() > REACH {
        return Err(bad());
    }
    Ok(Cell { column, row })
}

/// A piece's name as BoardSpace writes it, in any case: `wA2`, `bQ`, `wM1`; or without a colour, `A2`, `q`, `b1`
/// (a Beetle: a name is read with its colour only when what follows the colour is itself a bug's name).
pub(super) fn piece_name(word: &str) -> Result<PieceName, ActionError> {
    let lower = word.to_ascii_lowercase();
    let bare = |text: &str| -> Option<(Bug, Option<u8>)> {
        let mut chars = text.chars();
        let bug = Bug::from_letter(chars.next()?.to_ascii_uppercase())?;
        let number = match chars.as_str() {
            "" => None,
            digits => Some(digits.parse::<u8>().ok()?),
        };
        let fits = match number {
            None => bug.count() == 1,
            Some(n) => n >= 1 && n <= bug.count(),
        };
        fits.then_some((bug, number))
    };
    let coloured = lower.strip_prefix('w').map(|rest| (Color::White, rest));
    let coloured = coloured.or_else(|| lower.strip_prefix('b').map(|rest| (Color::Black, rest)));
    if let Some((color, (bug, number))) = coloured.and_then(|(color, rest)| Some((color, bare(rest)?))) {
        return Ok(PieceName {
            color: Some(color),
            bug,
            number,
        });
    }
    let (bug, number) = bare(&lower).ok_or_else(|| ActionError::Piece(word.to_string()))?;
    Ok(PieceName {
        color: None,
        bug,
        number,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(value: &str) -> Action {
        match read(value) {
            Ok(Value::Action(action)) => action,
            other => panic!("{value}: {other:?}"),
        }
    }

    fn at(column: i32, row: i32) -> Cell {
        Cell { column, row }
    }

    #[test]
    fn every_verb_is_read_in_any_case_with_or_without_its_number() {
        assert_eq!(action("0 Start P0"), Action::Start);
        let g1 = PieceName {
            color: None,
            bug: Bug::Grasshopper,
            number: Some(1),
        };
        assert_eq!(
            action("1 pick w 2 G1"),
            Action::Pick {
                rack: Color::White,
                piece: g1
            }
        );
        assert_eq!(action("Pickb O 14 bP1"), Action::PickBoard { cell: at(14, 14) });
        assert_eq!(action("7 Drop B 1 bA1 ."), Action::DropRack);
        assert_eq!(action("4 Dropb bP1 O 14 wB1/"), Action::DropBoard { cell: at(14, 14) });
        assert_eq!(action("4 dropb g1 N 13"), Action::DropBoard { cell: at(13, 13) });
        assert_eq!(action("62 pdropb bP1 L 9 wM\\"), Action::DropBoard { cell: at(11, 9) });
        let wq = PieceName {
            color: Some(Color::White),
            bug: Bug::Queen,
            number: None,
        };
        for (text, done) in [("111 PMove W wQ K 12 /bG1", false), ("MOVEDONE w wQ k 12", true)] {
            assert_eq!(
                action(text),
                Action::Move {
                    rack: Color::White,
                    piece: wq,
                    cell: at(10, 12),
                    done
                }
            );
        }
        assert_eq!(action("168 Pass "), Action::Pass { done: false });
        assert_eq!(action("9 PassDone"), Action::Pass { done: true });
        assert_eq!(action("3 done"), Action::Done);
        for (text, expected) in [
            ("resign", Action::Resign),
            ("offerdraw", Action::OfferDraw),
            ("AcceptDraw", Action::AcceptDraw),
            ("declinedraw", Action::DeclineDraw),
            ("WinOnTime", Action::WinOnTime),
            ("PlayBlack", Action::ChooseColor),
            ("Edit", Action::Edit),
            ("Undo", Action::Undo),
            ("reset", Action::Undo),
            ("PleaseUndo", Action::Aside),
            ("peek", Action::Aside),
        ] {
            assert_eq!(action(&format!("12 {text}")), expected);
        }
    }

    #[test]
    fn what_is_not_an_action_is_said_of_the_player() {
        assert_eq!(
            read("id \"Dumbot\""),
            Ok(Value::About("id".into(), "\"Dumbot\"".into()))
        );
        assert_eq!(read("time 0:09:26 "), Ok(Value::About("time".into(), "0:09:26".into())));
        assert_eq!(read(""), Ok(Value::About(String::new(), String::new())));
        assert_eq!(read("12 Teleport"), Err(ActionError::Unknown("Teleport".into())));
        assert_eq!(read("12 swap"), Err(ActionError::Unknown("swap".into())));
        assert_eq!(read("12"), Err(ActionError::Unknown(String::new())));
    }

    #[test]
    fn pieces_are_named_as_boardspace_names_them() {
        let name = |word: &str| piece_name(word).map(|p| (p.color, p.bug, p.number));
        assert_eq!(name("wA2"), Ok((Some(Color::White), Bug::Ant, Some(2))));
        assert_eq!(name("bs2"), Ok((Some(Color::Black), Bug::Spider, Some(2))));
        assert_eq!(name("b1"), Ok((None, Bug::Beetle, Some(1))), "a Beetle, not a colour");
        assert_eq!(name("bb1"), Ok((Some(Color::Black), Bug::Beetle, Some(1))));
        assert_eq!(name("q"), Ok((None, Bug::Queen, None)));
        assert_eq!(name("wM1"), Ok((Some(Color::White), Bug::Mosquito, Some(1))));
        assert_eq!(name("bP"), Ok((Some(Color::Black), Bug::Pillbug, None)));
        for bad in ["wA", "wA4", "x1", "wQ2", "", "w", "bb", "wA0", "wOP1"] {
            assert_eq!(name(bad), Err(ActionError::Piece(bad.to_string())), "{bad}");
        }
    }

    #[test]
    fn cells_and_racks_are_checked() {
        for (text, bad) in [
            ("1 dropb wQ AA 13", "AA 13"),
            ("1 dropb wQ Z1 13", "Z1 13"),
            ("1 dropb wQ 2B 13", "2B 13"),
            ("1 dropb wQ 5 13", "5 13"),
            ("1 pickb N x", "N x"),
            ("1 pickb N 99999", "N 99999"),
        ] {
            assert_eq!(read(text), Err(ActionError::Cell(bad.to_string())), "{text}");
        }
        assert_eq!(read("1 pick X 2 G1"), Err(ActionError::Rack("X".into())));
        assert_eq!(read("1 dropb wQ N"), Err(ActionError::Form("Dropb PIECE COLUMN ROW")));
        assert_eq!(read("1 move W wQ"), Err(ActionError::Form("Move W|B PIECE COLUMN ROW")));
        assert_eq!(
            at(25, 1).spot().step((1, -1)),
            at(0, 26).spot(),
            "the board wraps round"
        );
        assert_eq!(at(13, 13).to_string(), "N 13");
        // The growing board's cells beyond the first: the same spots as the wrapping board's.
        assert_eq!(action("1 pickb 2Z 27"), Action::PickBoard { cell: at(27, 27) });
        assert_eq!(action("1 pickb 1a 0"), Action::PickBoard { cell: at(-1, 0) });
        assert_eq!(at(27, 27).spot(), at(1, 1).spot());
        assert_eq!(at(-1, 0).spot(), at(25, 26).spot());
        assert_eq!(at(-1, 0).to_string(), "1A 0");
        assert_eq!(at(27, -3).to_string(), "2Z -3");
    }
}
