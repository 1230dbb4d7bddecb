//! The date of a game as the database keeps it, `yyyy-mm-dd` (or `yyyy` alone when the record says no more), so
//! that a range of dates is a range of text: read from the ways records write it: Mzinga's `2024.02.10` (with
//! `??` for what is not known), ISO's `2024-02-10`, hivegame.com's `11-May-2023_09:57:24`, and words (`May 11,
//! 2023`).
//!
//! Owns the reading of a date; nothing else.

use crate::record::sgf::MONTHS;

/// The date `text` names, as `yyyy-mm-dd`, or `yyyy` when only the year is known; `None` when it names none.
pub(crate) fn normal_date(text: &str) -> Option<String> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '?')
        .filter(|w| !w.is_empty())
        .collect();
    let number = |word: &str, digits: std::ops::RangeInclusive<usize>| {
        (digits.contains(&word.len()) && word.bytes().all(|b| b.is_ascii_digit()))
            .then(|| word.parse::<u32>().ok())
            .flatten()
    };
    let month_named = |word: &str| {
        let lower = word.to_ascii_lowercase();
        (lower.len() >= 3)
            .then(|| MONTHS.iter().position(|m| m.starts_with(&lower)))
            .flatten()
            .map(|i| i as u32 + 1)
    };
    let year_at = words.iter().position(|w| number(w, 4..=4).is_some())?;
    let year = number(words[year_at], 4..=4)?;
    if !(1000..=9999).contains(&year) {
        return None;
    }
    let (month, day) = if let Some(named) = words.iter().position(|w| month_named(w).is_some()) {
        // A month in words: the day is the other short number, before or after it.
        let day = words
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != year_at && i != named)
            .find_map(|(_, w)| number(w, 1..=2));
        (month_named(words[named]), day)
    } else if year_at == 0 {
        // Year first: then the month, then the day (Mzinga's and ISO's order).
        (
            words.get(1).and_then(|w| number(w, 1..=2)),
            words.get(2).and_then(|w| number(w, 1..=2)),
        )
    } else {
        (None, None)
    };
    match (
        month.filter(|m| (1..=12).contains(m)),
        day.filter(|d| (1..=31).contains(d)),
    ) {
        (Some(month), Some(day)) => Some(format!("{year:04}-{month:02}-{day:02}")),
        _ => Some(format!("{year:04}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_records_write_them() {
        for (written, normal) in [
            ("2024.02.10", Some("2024-02-10")),
            ("2024-2-1", Some("2024-02-01")),
            ("11-May-2023_09:57:24", Some("2023-05-11")),
            ("October 2, 2019", Some("2019-10-02")),
            ("2019.??.??", Some("2019")),
            ("????.??.??", None),
            ("", None),
            ("2024.13.40", Some("2024")),
            ("yesterday", None),
        ] {
            assert_eq!(normal_date(written).as_deref(), normal, "{written}");
        }
    }
}
