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

/// A GameTypeString that names no game: the text, and what is wrong with it.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error(
    "'{text}' is not a game type: {fault}; expected Base, or Base+ followed by any of M, L and P (for example \
         Base+MLP)"
)]
pub struct GameTypeError {
    text: String,
    fault: GameTypeFault,
}

/// What is wrong with a GameTypeString.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameTypeFault {
    /// It does not start with `Base`.
    NotBase,
    /// A `+` with no expansion after it.
    NoExpansion,
    /// A letter after the `+` that is no expansion.
    NotAnExpansion(char),
    /// An expansion named twice.
    Repeated(char),
}

impl fmt::Display for GameTypeFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameTypeFault::NotBase => f.write_str("every game type starts with Base"),
            GameTypeFault::NoExpansion => f.write_str("no expansion follows the '+'"),
            GameTypeFault::NotAnExpansion(c) => write!(f, "'{c}' is no expansion"),
            GameTypeFault::Repeated(c) => write!(f, "'{c}' is named twice"),
        }
    }
}

impl GameTypeError {
    /// The text that was read.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What is wrong with it.
    pub fn fault(&self) -> GameTypeFault {
        self.fault
    }
}

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

    /// How many game types there are.
    pub const COUNT: usize = 8;

    /// All eight game types, in the order of their [`GameType::index`]: `Base`, `Base+M`, `Base+L`, `Base+ML`,
    /// `Base+P`, `Base+MP`, `Base+LP`, `Base+MLP`.
    pub const ALL: [GameType; GameType::COUNT] = {
        let mut all = [GameType::BASE; GameType::COUNT];
        let mut index = 0;
        while index < GameType::COUNT {
            all[index] = GameType::new(index & 1 != 0, index & 2 != 0, index & 4 != 0);
            index += 1;
        }
        all
    };

    /// The game type's number, 0 to 7, the one order every table kept by game type uses (the evaluation's weight
    /// sets, the net's output buckets): the expansions it has, counted in binary with the Mosquito as 1, the
    /// Ladybug as 2 and the Pillbug as 4.
    pub const fn index(self) -> usize {
        self.mosquito as usize | (self.ladybug as usize) << 1 | (self.pillbug as usize) << 2
    }

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

impl GameType {
    /// The GameTypeString: `Base`, or `Base+` and the expansions' letters in the order M, L, P.
    pub const fn name(self) -> &'static str {
        const NAMES: [&str; GameType::COUNT] = [
            "Base", "Base+M", "Base+L", "Base+ML", "Base+P", "Base+MP", "Base+LP", "Base+MLP",
        ];
        NAMES[self.index()]
    }
}

impl fmt::Display for GameType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameType {
    type Err = GameTypeError;

    /// Accepts any case and the expansion letters in any order, each at most once.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |fault| GameTypeError {
            text: s.to_string(),
            fault,
        };
        let trimmed = s.trim();
        let (base, extra) = match trimmed.split_once('+') {
            Some((base, extra)) if !extra.is_empty() => (base, Some(extra)),
            Some(_) => return Err(err(GameTypeFault::NoExpansion)),
            None => (trimmed, None),
        };
        if !base.eq_ignore_ascii_case("Base") {
            return Err(err(GameTypeFault::NotBase));
        }
        let mut game = GameType::BASE;
        for c in extra.unwrap_or("").chars() {
            let slot = match c.to_ascii_uppercase() {
                'M' => &mut game.mosquito,
                'L' => &mut game.ladybug,
                'P' => &mut game.pillbug,
                _ => return Err(err(GameTypeFault::NotAnExpansion(c))),
            };
            if *slot {
                return Err(err(GameTypeFault::Repeated(c)));
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
            ["Base", "Base+M", "Base+L", "Base+ML", "Base+P", "Base+MP", "Base+LP", "Base+MLP"]
        );
        for (index, g) in GameType::ALL.into_iter().enumerate() {
            assert_eq!(g.to_string().parse::<GameType>(), Ok(g));
            assert_eq!(g.index(), index, "{g}");
        }
        assert_eq!("base+plm".parse::<GameType>(), Ok(GameType::MLP));
    }

    #[test]
    fn rejects_nonsense() {
        let fault = |text: &str| text.parse::<GameType>().unwrap_err().fault();
        assert_eq!(fault(""), GameTypeFault::NotBase);
        assert_eq!(fault("Extended"), GameTypeFault::NotBase);
        assert_eq!(fault("Base+"), GameTypeFault::NoExpansion);
        assert_eq!(fault("Base+X"), GameTypeFault::NotAnExpansion('X'));
        assert_eq!(fault("Base+M+L"), GameTypeFault::NotAnExpansion('+'));
        assert_eq!(fault("Base+MLm"), GameTypeFault::Repeated('m'));
        assert_eq!(
            "Base+X".parse::<GameType>().unwrap_err().to_string(),
            "'Base+X' is not a game type: 'X' is no expansion; expected Base, or Base+ followed by any of M, L and P \
             (for example Base+MLP)"
        );
    }
}
