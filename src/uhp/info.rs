//! A search's line, as Mzinga prints an intermediate best move: `Move;Depth;Score;PV…`, the PV one move a field
//! and starting with the move; then, from Waggle, `name=value` fields (`nodes=N;nps=N;time=S;seldepth=N;
//! hashfull=N`), which no MoveString can be mistaken for, so that a reader finds them after a PV of any length.
//! The session writes these lines and the arena reads other engines' with the same type.

use std::fmt;
use std::str::FromStr;

/// One search line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoLine {
    /// The best move (a MoveString, as the engine wrote it).
    pub best: String,
    /// The depth searched.
    pub depth: i64,
    /// The score, from the side to move's point of view.
    pub score: i64,
    /// The principal variation, starting with the best move.
    pub pv: Vec<String>,
    /// Further `name=value` fields, in order.
    pub fields: Vec<(String, String)>,
}

impl fmt::Display for InfoLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};{};{}", self.best, self.depth, self.score)?;
        for mv in &self.pv {
            write!(f, ";{mv}")?;
        }
        for (name, value) in &self.fields {
            write!(f, ";{name}={value}")?;
        }
        Ok(())
    }
}

/// A line that is not `Move;Depth;Score…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAnInfoLine;

impl FromStr for InfoLine {
    type Err = NotAnInfoLine;

    /// Reads the leading fields strictly (a move, then whole numbers) and the rest leniently: fields with `=` are
    /// named fields, the others moves of the PV.
    fn from_str(line: &str) -> Result<InfoLine, NotAnInfoLine> {
        let mut parts = line.split(';').map(str::trim);
        let best = parts.next().filter(|m| !m.is_empty()).ok_or(NotAnInfoLine)?.to_string();
        let mut number = || parts.next().and_then(|n| n.parse::<i64>().ok()).ok_or(NotAnInfoLine);
        let (depth, score) = (number()?, number()?);
        let (mut pv, mut fields) = (Vec::new(), Vec::new());
        for part in parts.filter(|p| !p.is_empty()) {
            match part.split_once('=') {
                Some((name, value)) => fields.push((name.to_string(), value.to_string())),
                None => pv.push(part.to_string()),
            }
        }
        Ok(InfoLine {
            best,
            depth,
            score,
            pv,
            fields,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_as_written() {
        let line = "wA1 \\wS1;10;27;wA1 \\wS1;bM bS1\\;nodes=5000;time=0.125";
        let read: InfoLine = line.parse().unwrap();
        assert_eq!((read.best.as_str(), read.depth, read.score), ("wA1 \\wS1", 10, 27));
        assert_eq!(read.pv, ["wA1 \\wS1", "bM bS1\\"]);
        assert_eq!(read.fields[1], ("time".to_string(), "0.125".to_string()));
        assert_eq!(read.to_string(), line);
        assert_eq!("wQ".parse::<InfoLine>(), Err(NotAnInfoLine));
        assert_eq!("wQ;x;3".parse::<InfoLine>(), Err(NotAnInfoLine));
    }
}
