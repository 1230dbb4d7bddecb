//! What a BoardSpace record says about its game outside the moves: which game and variant (`GM`, `SU`), when
//! (`DT`, and the date in the game's name `GN`), who (`P0[id "…"]`, `P1[id "…"]`), the result (`RE`), and whether
//! it was a tournament or an unranked game (the `T!` and `U!` before a game's name).
//!
//! Owns the reading of those values; which player played which colour is the replay's to say.

use super::error::SgfError;
use crate::rules::game_type::GameType;

/// The kind of game the name of a record says it was.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    /// A ranked game.
    Ranked,
    /// `T!`: a tournament game.
    Tournament,
    /// `U!`: an unranked game.
    Unranked,
}

impl Kind {
    /// The kind a game's name (or a file's) says, from its prefix.
    pub(super) fn of_name(name: &str) -> Kind {
        let name = name.trim_start();
        if name.starts_with("T!") {
            Kind::Tournament
        } else if name.starts_with("U!") {
            Kind::Unranked
        } else {
            Kind::Ranked
        }
    }
}

/// The game type of a variant (`SU`): `hive`, then after a `-` the letters of its expansions in any order
/// (`hive-plm`; `hive-pielm` is PLM with the swap option); words after a blank are BoardSpace's settings of the
/// game and are not looked at.
pub(super) fn game_type(variant: &str) -> Result<GameType, SgfError> {
    let name = variant.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
    let Some(rest) = name.strip_prefix("hive") else {
        return Err(SgfError::NotHive {
            property: format!("SU[{variant}]"),
        });
    };
    let refuse = |reason: &str| SgfError::Variant {
        variant: variant.to_string(),
        reason: reason.to_string(),
    };
    let letters = match rest.strip_prefix('-') {
        None if rest.is_empty() => "",
        None => return Err(refuse("not a variant of Hive that BoardSpace plays")),
        Some("ultimate") => {
            return Err(refuse(
                "in Hive Ultimate each side chooses its own mix of bugs, which a UHP game type cannot describe",
            ))
        }
        Some("") => {
            return Err(refuse(
                "expected the letters of its expansions after hive-, as in hive-plm",
            ))
        }
        // `pielm`: the Pillbug's `p` with `ie` inserted, the swap option ("pie") of a game of all three.
        Some(letters) => match letters.strip_prefix("pie") {
            Some(after) => &format!("p{after}"),
            None => letters,
        },
    };
    let mut expansions = String::new();
    for letter in letters.chars() {
        let upper = letter.to_ascii_uppercase();
        if !matches!(upper, 'M' | 'L' | 'P') || expansions.contains(upper) {
            return Err(refuse(
                "expected hive, or hive- and the letters of its expansions (m, l, p), as in hive-plm",
            ));
        }
        expansions.push(upper);
    }
    if expansions.is_empty() {
        return Ok(GameType::BASE);
    }
    format!("Base+{expansions}")
        .parse()
        .map_err(|_| refuse("not a game type"))
}

/// A player's name from the value of its `id` property (`"Dumbot"`, quotes or not).
pub(super) fn player_name(rest: &str) -> String {
    let rest = rest.trim();
    rest.strip_prefix('"')
        .and_then(|inner| inner.strip_suffix('"'))
        .unwrap_or(rest)
        .trim()
        .to_string()
}

/// The date, as `yyyy.MM.dd`, that `DT` says (BoardSpace writes it in several forms: `Mon Jan 16 20:59:12 AST
/// 2023`, `28 October 2018`, `October 2, 2019`), or else the one in the game's name (`HV-ann-bob-2018-10-28-2007`,
/// the server's day, which may be a day apart from the players').
pub(super) fn date(written: Option<&str>, game_name: Option<&str>) -> Option<String> {
    written
        .and_then(date_in_words)
        .or_else(|| game_name.and_then(date_in_name))
}

/// The months' names, as records spell them in English (the games database reads dates with them too).
pub(crate) const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// A date written with its month's English name, a day and a year, in any order.
fn date_in_words(text: &str) -> Option<String> {
    let (mut year, mut month, mut day) = (None, None, None);
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == '.') {
        let lower = word.to_ascii_lowercase();
        if word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit()) {
            year = year.or(word.parse::<u32>().ok());
        } else if (1..=2).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_digit()) {
            day = day.or(word.parse::<u32>().ok().filter(|d| (1..=31).contains(d)));
        } else if lower.len() >= 3 {
            if let Some(index) = MONTHS.iter().position(|m| m.starts_with(&lower) || lower == m[..3]) {
                month = month.or(Some(index as u32 + 1));
            }
        }
    }
    Some(format!("{:04}.{:02}.{:02}", year?, month?, day?))
}

/// The date `yyyy-mm-dd` in a game's name.
fn date_in_name(name: &str) -> Option<String> {
    name.as_bytes().windows(10).find_map(|part| {
        let digits = |range: std::ops::Range<usize>| part[range].iter().all(u8::is_ascii_digit);
        let shaped = digits(0..4) && part[4] == b'-' && digits(5..7) && part[7] == b'-' && digits(8..10);
        // All ASCII, so the bytes are the characters.
        let text = |range: std::ops::Range<usize>| String::from_utf8_lossy(&part[range]).into_owned();
        shaped.then(|| format!("{}.{}.{}", text(0..4), text(5..7), text(8..10)))
    })
}

/// What a result (`RE`) says: the winner, as the index of the player (0 or 1) named in it, or a draw; `None` when
/// it says neither (in a language other than English, a draw is not recognised and the moves decide). `names`
/// are the players' names; a name found inside the other (`ann` in `joanne`) does not count where the longer one
/// stands.
pub(super) fn result(text: &str, names: [&str; 2]) -> Option<Outcome> {
    let named = |index: usize| {
        let name = names[index];
        let other = names[1 - index];
        !name.is_empty()
            && word_positions(text, name).any(|at| {
                // Inside a longer name that also stands there, the shorter does not count.
                !(other.len() > name.len()
                    && other.contains(name)
                    && word_positions(text, other).any(|o| o <= at && at < o + other.len()))
            })
    };
    match (named(0), named(1)) {
        (true, false) => Some(Outcome::Won(0)),
        (false, true) => Some(Outcome::Won(1)),
        _ if text.to_ascii_lowercase().contains("draw") => Some(Outcome::Draw),
        _ => None,
    }
}

/// How a record says its game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Outcome {
    /// The player of this index (0 for `P0`) won.
    Won(u8),
    /// A draw.
    Draw,
}

/// Where `word` stands in `text` as a word of its own (nothing alphanumeric just before or after it).
fn word_positions<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(word).map(|(at, _)| at).filter(move |&at| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_name_their_expansions() {
        let of = |su: &str| game_type(su).map(|t| t.to_string());
        assert_eq!(of("hive"), Ok("Base".to_string()));
        assert_eq!(of("Hive-PLM"), Ok("Base+MLP".to_string()));
        assert_eq!(of("hive-plm 2 0 101"), Ok("Base+MLP".to_string()));
        assert_eq!(of("hive-lm"), Ok("Base+ML".to_string()));
        assert_eq!(of("hive-p"), Ok("Base+P".to_string()));
        assert_eq!(of("hive-pielm"), Ok("Base+MLP".to_string()));
        assert_eq!(of("HIVE-M"), Ok("Base+M".to_string()));
        assert!(matches!(game_type("twixt"), Err(SgfError::NotHive { .. })));
        for bad in ["hive-ultimate", "hive-x", "hive-mm", "hivemind", "hive-"] {
            assert!(matches!(game_type(bad), Err(SgfError::Variant { .. })), "{bad}");
        }
        assert!(game_type("hive-ultimate")
            .unwrap_err()
            .to_string()
            .contains("each side chooses its own mix of bugs"));
    }

    #[test]
    fn dates_in_each_form_boardspace_writes() {
        assert_eq!(
            date(Some("Mon Jan 16 20:59:12 AST 2023"), None).as_deref(),
            Some("2023.01.16")
        );
        assert_eq!(date(Some("28 October 2018"), None).as_deref(), Some("2018.10.28"));
        assert_eq!(date(Some("3. November 2018"), None).as_deref(), Some("2018.11.03"));
        assert_eq!(date(Some("October 2, 2019"), None).as_deref(), Some("2019.10.02"));
        assert_eq!(
            date(Some("Sat Dec 12 08:47:45 CST 2020"), None).as_deref(),
            Some("2020.12.12")
        );
        let named = Some("T!HV-ann-bob-2021-12-11-1632");
        assert_eq!(date(Some("11 décembre 2021"), named).as_deref(), Some("2021.12.11"));
        assert_eq!(date(None, named).as_deref(), Some("2021.12.11"));
        assert_eq!(date(None, Some("HV-ann-bob")), None);
        assert_eq!(date(Some(""), Some("")), None);
        assert_eq!(date(None, Some("HV-é-2021-12-11-1632é")).as_deref(), Some("2021.12.11"));
        assert_eq!(date(None, Some("ééééé-12-11")), None);
    }

    #[test]
    fn results_name_a_player_or_a_draw() {
        let names = ["ann", "bob"];
        assert_eq!(result("Game won by ann", names), Some(Outcome::Won(0)));
        assert_eq!(result("bob vann spelet", names), Some(Outcome::Won(1)));
        assert_eq!(result("The game is a draw", names), Some(Outcome::Draw));
        assert_eq!(result("Partie gagnée par quelqu'un", names), None);
        assert_eq!(
            result("Game won by annabel", names),
            None,
            "a name inside a word is not the name"
        );
        assert_eq!(result("Game won by joanne", ["ann", "joanne"]), Some(Outcome::Won(1)));
        assert_eq!(result("Game won by ann", ["ann", "joanne"]), Some(Outcome::Won(0)));
        assert_eq!(result("Game won by guest", ["", "guest"]), Some(Outcome::Won(1)));
    }

    #[test]
    fn names_and_kinds() {
        assert_eq!(player_name(" \"Dumbot\" "), "Dumbot");
        assert_eq!(player_name("plain"), "plain");
        assert_eq!(Kind::of_name("T!HV-a-b-2020-12-12-1607"), Kind::Tournament);
        assert_eq!(Kind::of_name("U!HV-a-b"), Kind::Unranked);
        assert_eq!(Kind::of_name("HV-a-b"), Kind::Ranked);
    }
}
