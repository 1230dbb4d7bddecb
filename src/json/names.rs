//! The API's words for cells, colours and bugs: `"x,y"` on its doubled-width hex grid, `"White"`/`"Black"` and
//! the bug names (`"Queen Bee"`, `"Soldier Ant"` …), each a small type that reads and writes its text (serde goes
//! through the text, so the types also serve as keys of JSON objects).
//!
//! Owns the syntax only: whether a cell holds anything, or a bug is in the game, is for the board to say.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::rules::piece::{Bug, Color};
use crate::rules::setup::Cell;

/// A cell of the API's grid: `"x,y"`, where `x + y` is even and the neighbours of `(x, y)` are `(x ± 2, y)` and
/// `(x ± 1, y ± 1)` (a doubled-width layout of pointy-topped hexes: `y` counts rows to the south).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CellName {
    /// Half-cells to the east.
    pub x: i32,
    /// Rows to the south.
    pub y: i32,
}

/// A cell name that names no cell.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum CellError {
    #[error("'{0}' is not a cell: expected \"x,y\" with two whole numbers, such as \"-1,1\"")]
    Syntax(String),
    #[error("'{0}' is not a cell of the grid: x + y must be even")]
    OffGrid(String),
    #[error("'{0}' is too far away: coordinates go from -{limit} to {limit}", limit = CellName::LIMIT)]
    TooFar(String),
}

impl CellName {
    /// The largest coordinate accepted (either sign): far more room than a hive of 28 pieces needs, and small
    /// enough that no arithmetic on cells can overflow.
    pub const LIMIT: i32 = 1_000_000;

    /// The cell at axial coordinates `(q, r)` (`q` to the east, `r` to the south-east): `x = 2q + r`, `y = r`.
    pub fn from_axial((q, r): Cell) -> CellName {
        CellName {
            x: q.saturating_mul(2).saturating_add(r),
            y: r,
        }
    }

    /// The cell's axial coordinates `(q, r)`: `r = y`, `q = (x - y) / 2`.
    pub fn axial(self) -> Cell {
        ((self.x - self.y).div_euclid(2), self.y)
    }
}

/// Reading order: north to south, then west to east.
impl Ord for CellName {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}

impl PartialOrd for CellName {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl FromStr for CellName {
    type Err = CellError;

    /// Accepts only the written form: two whole numbers without signs `+`, leading zeros or spaces, so that two
    /// different texts never name one cell (the keys of a JSON object are distinct texts).
    fn from_str(text: &str) -> Result<CellName, CellError> {
        let syntax = || CellError::Syntax(text.chars().take(40).collect());
        let (x, y) = text.split_once(',').ok_or_else(syntax)?;
        let (x, y) = (coordinate(x).ok_or_else(syntax)?, coordinate(y).ok_or_else(syntax)?);
        if x.abs() > i64::from(CellName::LIMIT) || y.abs() > i64::from(CellName::LIMIT) {
            return Err(CellError::TooFar(text.chars().take(40).collect()));
        }
        if (x + y) % 2 != 0 {
            return Err(CellError::OffGrid(text.to_string()));
        }
        // Both are within the limit, which fits an i32.
        Ok(CellName {
            x: x as i32,
            y: y as i32,
        })
    }
}

/// A coordinate in its written form (`0`, `12`, `-3`; not `+3`, `03` or `-0`); longer numbers are read as far as
/// it takes to see that they are too far away.
fn coordinate(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let written = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && text != "-0";
    if !written {
        return None;
    }
    // Eleven digits are past the limit already; saturate rather than read a thousand digits.
    let magnitude = if digits.len() > 11 {
        i64::MAX / 2
    } else {
        digits.parse::<i64>().ok()?
    };
    Some(if text.starts_with('-') { -magnitude } else { magnitude })
}

impl TryFrom<String> for CellName {
    type Error = CellError;

    fn try_from(text: String) -> Result<CellName, CellError> {
        text.parse()
    }
}

impl From<CellName> for String {
    fn from(cell: CellName) -> String {
        cell.to_string()
    }
}

/// A bug by its name in the API: `"Queen Bee"`, `"Spider"`, `"Beetle"`, `"Grasshopper"`, `"Soldier Ant"`,
/// `"Mosquito"`, `"Ladybug"` or `"Pillbug"` (as [`Bug::name`] writes them; read in any case).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct BugName(pub Bug);

/// A name that is no bug of Hive.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "'{name}' is not a piece type: expected Queen Bee, Spider, Beetle, Grasshopper, Soldier Ant, Mosquito, Ladybug or \
     Pillbug"
)]
pub struct BugError {
    /// The name read (its first 40 characters).
    pub name: String,
}

impl FromStr for BugName {
    type Err = BugError;

    fn from_str(text: &str) -> Result<BugName, BugError> {
        Bug::ALL
            .into_iter()
            .find(|bug| bug.name().eq_ignore_ascii_case(text))
            .map(BugName)
            .ok_or_else(|| BugError {
                name: text.chars().take(40).collect(),
            })
    }
}

impl TryFrom<String> for BugName {
    type Error = BugError;

    fn try_from(text: String) -> Result<BugName, BugError> {
        text.parse()
    }
}

impl From<BugName> for String {
    fn from(bug: BugName) -> String {
        bug.0.name().to_string()
    }
}

impl fmt::Display for BugName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }
}

/// A side by its name in the API: `"White"` or `"Black"` (read in any case).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ColorName(pub Color);

/// A name that is no side.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("'{name}' is not a colour: expected White or Black")]
pub struct ColorError {
    /// The name read (its first 40 characters).
    pub name: String,
}

impl FromStr for ColorName {
    type Err = ColorError;

    fn from_str(text: &str) -> Result<ColorName, ColorError> {
        Color::ALL
            .into_iter()
            .find(|color| color.name().eq_ignore_ascii_case(text))
            .map(ColorName)
            .ok_or_else(|| ColorError {
                name: text.chars().take(40).collect(),
            })
    }
}

impl TryFrom<String> for ColorName {
    type Error = ColorError;

    fn try_from(text: String) -> Result<ColorName, ColorError> {
        text.parse()
    }
}

impl From<ColorName> for String {
    fn from(color: ColorName) -> String {
        color.0.name().to_string()
    }
}

impl fmt::Display for ColorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_their_written_form_only() {
        let cell: CellName = "-1,-1".parse().unwrap();
        assert_eq!(cell, CellName { x: -1, y: -1 });
        assert_eq!(cell.to_string(), "-1,-1");
        assert_eq!(cell.axial(), (0, -1));
        assert_eq!(CellName::from_axial(cell.axial()), cell);
        assert_eq!("1,1".parse::<CellName>().unwrap().axial(), (0, 1));
        assert_eq!("2,0".parse::<CellName>().unwrap().axial(), (1, 0));
        assert_eq!("-1,1".parse::<CellName>().unwrap().axial(), (-1, 1));
        for bad in [
            "", "1", "1,", ",1", "1,1,1", " 1,1", "+1,1", "01,1", "-0,0", "a,b", "1.0,1",
        ] {
            assert!(matches!(bad.parse::<CellName>(), Err(CellError::Syntax(_))), "{bad}");
        }
        assert!(matches!("1,0".parse::<CellName>(), Err(CellError::OffGrid(_))));
        assert!(matches!("2000000,0".parse::<CellName>(), Err(CellError::TooFar(_))));
        let huge = format!("{},0", "9".repeat(500));
        assert!(matches!(huge.parse::<CellName>(), Err(CellError::TooFar(_))));
    }

    #[test]
    fn bugs_and_colours_read_their_names() {
        for bug in Bug::ALL {
            assert_eq!(bug.name().parse::<BugName>(), Ok(BugName(bug)));
            assert_eq!(String::from(BugName(bug)), bug.name());
        }
        assert_eq!("soldier ant".parse::<BugName>(), Ok(BugName(Bug::Ant)));
        assert!("Ant".parse::<BugName>().is_err());
        assert_eq!("Black".parse::<ColorName>(), Ok(ColorName(Color::Black)));
        assert!("Green".parse::<ColorName>().is_err());
    }
}
