//! Writing records as Mzinga.Viewer saves them: the tags in Mzinga's order, one numbered move a line, each
//! comment on a line of its own, the result line.

use std::fmt;

use super::GameRecord;

impl fmt::Display for GameRecord {
    /// The file text, lines ended by `\n`: the tags in order (`GameType` and `Result` with the game's values,
    /// first and last if the tags lack them), then, if there are moves, a blank line and one numbered move a line,
    /// each followed by its comment on a line of its own as Mzinga writes it; then, if the game has ended, a blank
    /// line and the result. Tag values are escaped (`\"`, `\\`) and kept on one line; comments lose any braces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tag("GameType").is_none() {
            write_tag(f, "GameType", self.record.game_type.name())?;
        }
        for (name, value) in self.tags() {
            write_tag(f, name, value)?;
        }
        if self.tag("Result").is_none() {
            write_tag(f, "Result", self.result_name())?;
        }
        if !self.record.moves.is_empty() {
            writeln!(f)?;
        }
        for (index, mv) in self.record.moves.iter().enumerate() {
            writeln!(f, "{}. {mv}", index + 1)?;
            let comment = self.comments.get(index).and_then(Option::as_deref);
            let comment = comment.map(|text| text.replace(['{', '}'], "")).unwrap_or_default();
            if !comment.trim().is_empty() {
                writeln!(f, "{{{}}}", comment.trim())?;
            }
        }
        if let Some(result) = self.result() {
            writeln!(f)?;
            writeln!(f, "{result}")?;
        }
        Ok(())
    }
}

/// One tag line, its value escaped and its line breaks made spaces.
fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    f.write_str("[")?;
    f.write_str(name)?;
    f.write_str(" \"")?;
    for c in value.trim().chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\r' | '\n' => f.write_str(" ")?,
            _ => write!(f, "{c}")?,
        }
    }
    f.write_str("\"]\n")
}

/// The date `unix_seconds` after 1970-01-01 00:00 UTC falls on, as Mzinga writes dates: `yyyy.MM.dd`.
pub fn mzinga_date(unix_seconds: u64) -> String {
    // Days to a civil date in the proleptic Gregorian calendar, counted in 400-year eras from 0000-03-01, so
    // that the leap day falls at the end of each counted year.
    let days = unix_seconds / 86_400 + 719_468;
    let era = days / 146_097;
    let day_of_era = days % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}
