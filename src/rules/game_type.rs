//! Which expansion pieces a game uses: `Base`, `Base+M` … `Base+MLP`.

use std::fmt;
use std::str::FromStr;

use crate::rules::piece::Bug;

/// The set of expansion bugs in play. Base bugs are always in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct GameType {
    mosquito: bool,
    ladybug: bool,
    pillbug: bool,
}

/// A GameTypeString that names no game.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("'{0}' is not a game type: expected Base, or Base+ followed by any of M, L and P (for example Base+MLP)")]
pub struct GameTypeError(pub String);

impl GameType {
    /// The base game.
    pub const BASE: GameType = GameType::new(false, false, false);
    /// All three expansion pieces.
    pub const MLP: GameType = GameType::new(true, true, true);

    /// A game type with the chosen expansions.
    pub const fn new(mosquito: bool, ladybug: bool, pillbug: bool) -> GameType {
        GameType {
            mosquito,
            ladybug,
            pillbug,
        }
    }

    /// All eight game types, in the order `Base`, `Base+M`, `Base+L`, `Base+P`, `Base+ML`, `Base+MP`, `Base+LP`,
    /// `Base+MLP`.
    pub const ALL: [GameType; 8] = [
        GameType::new(false, false, false),
        GameType::new(true, false, false),
        GameType::new(false, true, false),
        GameType::new(false, false, true),
        GameType::new(true, true, false),
        GameType::new(true, false, true),
        GameType::new(false, true, true),
        GameType::new(true, true, true),
    ];

    /// Whether pieces of `bug` are in this game.
    pub const fn includes(self, bug: Bug) -> bool {
        match bug {
            Bug::Mosquito => self.mosquito,
            Bug::Ladybug => self.ladybug,
            Bug::Pillbug => self.pillbug,
            _ => true,
        }
    }
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Base")?;
        if self.mosquito || self.ladybug || self.pillbug {
            f.write_str("+")?;
            for (on, letter) in [(self.mosquito, "M"), (self.ladybug, "L"), (self.pillbug, "P")] {
                if on {
                    f.write_str(letter)?;
                }
            }
        }
        Ok(())
    }
}

impl FromStr for GameType {
    type Err = GameTypeError;

    /// Accepts any case and the expansion letters in any order, each at most once.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || GameTypeError(s.to_string());
        let trimmed = s.trim();
        let (base, extra) = match trimmed.split_once('+') {
            Some((base, extra)) if !extra.is_empty() => (base, Some(extra)),
            Some(_) => return Err(err()),
            None => (trimmed, None),
        };
        if !base.eq_ignore_ascii_case("Base") {
            return Err(err());
        }
        let mut game = GameType::BASE;
        for c in extra.unwrap_or("").chars() {
            let slot = match c.to_ascii_uppercase() {
                'M' => &mut game.mosquito,
                'L' => &mut game.ladybug,
                'P' => &mut game.pillbug,
                _ => return Err(err()),
            };
            if *slot {
                return Err(err());
            }
            *slot = true;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_eight_round_trip() {
        let names: Vec<String> = GameType::ALL.iter().map(|g| g.to_string()).collect();
        assert_eq!(
            names,
            ["Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"]
        );
        for g in GameType::ALL {
            assert_eq!(g.to_string().parse::<GameType>(), Ok(g));
        }
        assert_eq!("base+plm".parse::<GameType>(), Ok(GameType::MLP));
    }

    #[test]
    fn rejects_nonsense() {
        for bad in ["", "Base+", "Base+X", "Base+MM", "Extended", "Base+M+L"] {
            assert!(bad.parse::<GameType>().is_err(), "{bad}");
        }
    }
}
