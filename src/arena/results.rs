//! The results of a match: one line per finished game, written to a file as games end (so that shards played on
//! different machines can be merged), and the summary drawn from them: scores, pairs, times.
//!
//! Owns the results file's format and the arithmetic of the summary; the statistics are `stats`', the text the
//! user reads is `report`'s.

use std::fmt::Write as _;
use std::time::Duration;

use super::referee::MoveTimes;
use super::schedule::ScheduledGame;
use super::stats::{GameScore, Pentanomial, Score, SprtSettings};
use crate::rules::piece::Color;
use crate::rules::position::GameState;

/// The first line of a results file.
const HEADER: &str = "# waggle match results 1";

/// A finished game of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// Where it stood in the schedule.
    pub game: ScheduledGame,
    /// `WhiteWins`, `BlackWins` or `Draw`.
    pub state: GameState,
    /// The side that forfeited, if one did.
    pub forfeit: Option<Color>,
    /// Why the game ended.
    pub reason: String,
    /// Plies played, opening included.
    pub plies: usize,
    /// Move times of White and Black.
    pub times: [MoveTimes; 2],
    /// The referee's own time between `ok`s and the next commands, and how many such gaps.
    pub overhead: (Duration, u32),
    /// Under a clock, the time White and Black had left at the end.
    pub clock_left: Option<[Duration; 2]>,
}

impl Finished {
    /// The game's result for `engine`, if it played in it.
    pub fn score_for(&self, engine: usize) -> Option<GameScore> {
        let color = if engine == self.game.white {
            Color::White
        } else if engine == self.game.black {
            Color::Black
        } else {
            return None;
        };
        Some(match (self.state, color) {
            (GameState::WhiteWins, Color::White) | (GameState::BlackWins, Color::Black) => GameScore::Win,
            (GameState::WhiteWins, Color::Black) | (GameState::BlackWins, Color::White) => GameScore::Loss,
            _ => GameScore::Draw,
        })
    }

    /// The line the results file keeps for this game (tab-separated, without the line break).
    pub fn to_line(&self) -> String {
        let g = &self.game;
        let mut line = format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            g.number,
            g.pair,
            g.pairing,
            g.opening,
            g.white,
            g.black,
            self.state,
            self.forfeit.map_or("-", |c| c.name()),
            self.plies
        );
        for times in &self.times {
            let _ = write!(
                line,
                "\t{}\t{}\t{}",
                times.moves,
                times.total.as_micros(),
                times.worst.as_micros()
            );
        }
        let _ = write!(line, "\t{}\t{}", self.overhead.0.as_micros(), self.overhead.1);
        match self.clock_left {
            Some([white, black]) => {
                let _ = write!(line, "\t{}\t{}", white.as_micros(), black.as_micros());
            }
            None => line.push_str("\t-\t-"),
        }
        line.push('\t');
        line.push_str(&self.reason.replace(['\t', '\n', '\r'], " "));
        line
    }

    /// Read back a line written by [`Finished::to_line`].
    pub fn from_line(line: &str) -> Option<Finished> {
        let fields: Vec<&str> = line.splitn(20, '\t').collect();
        if fields.len() != 20 {
            return None;
        }
        let number = |i: usize| fields[i].parse::<u64>().ok();
        let micros = |i: usize| number(i).map(Duration::from_micros);
        let times = |at: usize| -> Option<MoveTimes> {
            Some(MoveTimes {
                moves: u32::try_from(number(at)?).ok()?,
                total: micros(at + 1)?,
                worst: micros(at + 2)?,
            })
        };
        let forfeit = match fields[7] {
            "-" => None,
            name => Some(*Color::ALL.iter().find(|c| c.name() == name)?),
        };
        let state = GameState::from_name(fields[6]).filter(|s| s.is_over())?;
        let clock_left = match (fields[17], fields[18]) {
            ("-", "-") => None,
            _ => Some([micros(17)?, micros(18)?]),
        };
        Some(Finished {
            game: ScheduledGame {
                number: number(0)? as usize,
                pair: number(1)? as usize,
                pairing: number(2)? as usize,
                opening: number(3)? as usize,
                white: number(4)? as usize,
                black: number(5)? as usize,
            },
            state,
            forfeit,
            plies: number(8)? as usize,
            times: [times(9)?, times(12)?],
            overhead: (micros(15)?, u32::try_from(number(16)?).ok()?),
            clock_left,
            reason: fields[19].to_string(),
        })
    }
}

/// The head of a results file: the engines' names (in the order their indices count), the SPRT settings when
/// the match ran one, and what names its run: the openings its schedule numbers (see [`ResultsFile::run`]).
pub fn file_header(engines: &[String], sprt: Option<&SprtSettings>, run: &str) -> String {
    let mut text = format!("{HEADER}\n");
    for (i, name) in engines.iter().enumerate() {
        let _ = writeln!(text, "# engine\t{i}\t{}", name.replace(['\t', '\n'], " "));
    }
    if let Some(sprt) = sprt {
        let _ = writeln!(text, "# sprt\t{sprt}");
    }
    let _ = writeln!(text, "# run\t{}", run.replace(['\t', '\n'], " "));
    text
}

/// What a results file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultsFile {
    /// The engines' names.
    pub engines: Vec<String>,
    /// The SPRT settings, if the match ran one.
    pub sprt: Option<SprtSettings>,
    /// What names the run the games belong to (the game type and the openings, say `Base+M random 1 seed 3`):
    /// files of one run are shards of one schedule, whose game numbers never repeat; files of other runs of the
    /// same engines (other openings) number their games alike, and are told apart by this. Empty in files
    /// written before runs were named.
    pub run: String,
    /// The finished games.
    pub games: Vec<Finished>,
}

/// A results file that cannot be read, or files that do not belong to the same match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResultsError {
    /// The file cannot be read.
    #[error("{path}: cannot be read: {why}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        why: String,
    },
    /// The file is not a results file.
    #[error("{path}: not a waggle match results file (it does not start with '{HEADER}')")]
    NotResults {
        /// The file.
        path: String,
    },
    /// A line that is not a game's result.
    #[error("{path}, line {line}: {why}")]
    Line {
        /// The file.
        path: String,
        /// The line, counted from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// A file of a match between other engines.
    #[error("{path} is from another match: its engines are {theirs:?}, not {ours:?}")]
    OtherMatch {
        /// The file.
        path: String,
        /// Its engines.
        theirs: Vec<String>,
        /// The engines of the files before it.
        ours: Vec<String>,
    },
    /// The same game in two files of one run (shards that overlap).
    #[error("game {number} of one run is in more than one file")]
    Twice {
        /// The game's number in the schedule.
        number: usize,
    },
}

/// Read the results file at `path`.
pub fn read_file(path: &str) -> Result<ResultsFile, ResultsError> {
    let text = std::fs::read_to_string(path).map_err(|e| ResultsError::Read {
        path: path.to_string(),
        why: e.to_string(),
    })?;
    let mut lines = text.lines().enumerate();
    if lines.next().map(|(_, l)| l.trim_end()) != Some(HEADER) {
        return Err(ResultsError::NotResults { path: path.to_string() });
    }
    let mut file = ResultsFile {
        engines: Vec::new(),
        sprt: None,
        run: String::new(),
        games: Vec::new(),
    };
    for (i, line) in lines {
        let bad = |why: String| ResultsError::Line {
            path: path.to_string(),
            line: i + 1,
            why,
        };
        if let Some(rest) = line.strip_prefix("# engine\t") {
            let (index, name) = rest
                .split_once('\t')
                .ok_or_else(|| bad("an engine line needs an index and a name".into()))?;
            if index.parse() != Ok(file.engines.len()) {
                return Err(bad(format!("engine {index} out of order")));
            }
            file.engines.push(name.to_string());
        } else if let Some(rest) = line.strip_prefix("# sprt\t") {
            file.sprt = Some(rest.parse().map_err(|e| bad(format!("{e}")))?);
        } else if let Some(rest) = line.strip_prefix("# run\t") {
            file.run = rest.trim_end().to_string();
        } else if line.starts_with('#') || line.trim().is_empty() {
            continue;
        } else {
            let game = Finished::from_line(line).ok_or_else(|| bad("not a game line".into()))?;
            if game.game.white.max(game.game.black) >= file.engines.len() {
                return Err(bad("a game of an engine the file does not name".into()));
            }
            file.games.push(game);
        }
    }
    Ok(file)
}

/// Merge the results files at `paths` into one: the shards of one run (their game numbers must not repeat), and
/// other runs of the same engines (other openings, another seed), whose games are numbered after those of the runs
/// before them so that each game and pair keeps its own number.
pub fn merge_files(paths: &[String]) -> Result<ResultsFile, ResultsError> {
    let mut files: Vec<ResultsFile> = Vec::new();
    for path in paths {
        let file = read_file(path)?;
        if let Some(first) = files.first() {
            if first.engines != file.engines {
                return Err(ResultsError::OtherMatch {
                    path: path.clone(),
                    theirs: file.engines,
                    ours: first.engines.clone(),
                });
            }
        }
        files.push(file);
    }
    let Some(first) = files.first() else {
        return Err(ResultsError::Read {
            path: String::new(),
            why: "no results file given".into(),
        });
    };
    let mut merged = ResultsFile {
        games: Vec::new(),
        ..first.clone()
    };
    // The runs in the order first met; each one's games numbered after those of the runs before it.
    let mut runs: Vec<&str> = Vec::new();
    for file in &files {
        if !runs.contains(&file.run.as_str()) {
            runs.push(&file.run);
        }
    }
    for run in &runs {
        let offsets = Offsets::after(&merged.games);
        let mut games: Vec<Finished> = Vec::new();
        for file in files.iter().filter(|f| f.run == *run) {
            games.extend(file.games.iter().cloned());
        }
        games.sort_by_key(|g| g.game.number);
        if let Some(twice) = games.windows(2).find(|w| w[0].game.number == w[1].game.number) {
            return Err(ResultsError::Twice {
                number: twice[0].game.number,
            });
        }
        for game in &mut games {
            offsets.apply(&mut game.game);
        }
        merged.games.extend(games);
    }
    merged.run = runs.join(" + ");
    Ok(merged)
}

/// How far the games of a later run are moved, so that their numbers follow those of the runs before.
#[derive(Clone, Copy)]
struct Offsets {
    number: usize,
    pair: usize,
    opening: usize,
}

impl Offsets {
    /// Past every game of `games` (game numbers count from 1, pairs and openings from 0).
    fn after(games: &[Finished]) -> Offsets {
        let last = |field: fn(&ScheduledGame) -> usize| games.iter().map(|g| field(&g.game)).max();
        Offsets {
            number: last(|g| g.number).unwrap_or(0),
            pair: last(|g| g.pair).map_or(0, |p| p + 1),
            opening: last(|g| g.opening).map_or(0, |o| o + 1),
        }
    }

    fn apply(self, game: &mut ScheduledGame) {
        game.number += self.number;
        game.pair += self.pair;
        game.opening += self.opening;
    }
}

/// The results of one pairing, from its first engine's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairingSummary {
    /// The engine results are counted for.
    pub first: usize,
    /// Its opponent.
    pub second: usize,
    /// Every game.
    pub score: Score,
    /// Games where `first` played White.
    pub as_white: Score,
    /// Complete pairs.
    pub pairs: Pentanomial,
}

/// Everything the summary of a match says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// One entry per pairing that played, in pairing order.
    pub pairings: Vec<PairingSummary>,
    /// Each engine's games against the whole field.
    pub totals: Vec<Score>,
    /// Each engine's move times.
    pub times: Vec<MoveTimes>,
    /// Games lost by forfeit, per engine.
    pub forfeits: Vec<u32>,
    /// The referee's own time per gap between an `ok` and the next command, summed, and the gaps counted.
    pub overhead: (Duration, u32),
    /// Moves played by the engines (not counting openings).
    pub moves: u32,
    /// Under a clock, the time each engine had left at the end of its games: the least, the sum and the games.
    pub clock_left: Vec<Option<(Duration, Duration, u32)>>,
}

/// Draw up the summary of `games` between `engines` engines.
pub fn summarize(engines: usize, games: &[Finished]) -> Summary {
    let mut summary = Summary {
        totals: vec![Score::default(); engines],
        times: vec![MoveTimes::default(); engines],
        forfeits: vec![0; engines],
        clock_left: vec![None; engines],
        ..Summary::default()
    };
    let mut sorted: Vec<&Finished> = games.iter().collect();
    sorted.sort_by_key(|g| (g.game.pairing, g.game.pair, g.game.number));
    for game in &sorted {
        let (white, black) = (game.game.white, game.game.black);
        let (first, second) = (white.min(black), white.max(black));
        let entry = match summary
            .pairings
            .iter()
            .position(|p| (p.first, p.second) == (first, second))
        {
            Some(i) => &mut summary.pairings[i],
            None => {
                summary.pairings.push(PairingSummary {
                    first,
                    second,
                    ..PairingSummary::default()
                });
                summary.pairings.last_mut().expect("just pushed")
            }
        };
        let Some(result) = game.score_for(first) else { continue };
        entry.score.record(result);
        if white == first {
            entry.as_white.record(result);
        }
        for (engine, color) in [(white, Color::White), (black, Color::Black)] {
            if let Some(score) = game.score_for(engine) {
                summary.totals[engine].record(score);
            }
            summary.times[engine].merge(game.times[color.index()]);
            summary.moves += game.times[color.index()].moves;
            if let Some(left) = game.clock_left.map(|l| l[color.index()]) {
                let entry = summary.clock_left[engine].get_or_insert((left, Duration::ZERO, 0));
                entry.0 = entry.0.min(left);
                entry.1 += left;
                entry.2 += 1;
            }
        }
        if let Some(color) = game.forfeit {
            let loser = if color == Color::White { white } else { black };
            summary.forfeits[loser] += 1;
        }
        summary.overhead.0 += game.overhead.0;
        summary.overhead.1 += game.overhead.1;
    }
    // Pairs whose two games both finished.
    for pair in sorted.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if a.game.pair == b.game.pair && a.game.number != b.game.number {
            let first = a.game.white.min(a.game.black);
            if let (Some(x), Some(y), Some(entry)) = (
                a.score_for(first),
                b.score_for(first),
                summary
                    .pairings
                    .iter_mut()
                    .find(|p| p.first == first && p.second == a.game.white.max(a.game.black)),
            ) {
                entry.pairs.add_pair(x, y);
            }
        }
    }
    summary
}

#[cfg(test)]
mod tests;
