//! Games out of the database: listed by player (either colour), game type, result, dates and a position they
//! reached, as rows that name their record (so that they can be written out as `.pgn` or GameStrings); and the
//! counts of games by type and by year.
//!
//! Owns those queries.

use std::collections::BTreeMap;

use rusqlite::types::Value as SqlValue;
use rusqlite::{params_from_iter, Row};

use super::key::position_key;
use super::{Database, DbError};
use crate::record::game::Game;
use crate::record::notation::GameString;
use crate::record::pgn::GameRecord;
use crate::rules::game_type::GameType;
use crate::rules::position::GameState;

/// The columns of `games` that a [`GameRow`] holds, in the order [`game_row`] reads them.
pub(crate) const GAME_COLUMNS: &str = "games.id, games.game_type, games.white, games.black, games.white_elo, \
     games.black_elo, games.date, games.event, games.site, games.time_control, games.result, games.ending, \
     games.plies, games.moves, games.source";

/// A game as the database holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Its number in the database (`games.id`).
    pub id: i64,
    /// The game type (`Base+MLP`).
    pub game_type: String,
    /// White's name, empty when the record gives none.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// White's rating, when the record gives one.
    pub white_elo: Option<i64>,
    /// Black's rating.
    pub black_elo: Option<i64>,
    /// The date, `yyyy-mm-dd` (or `yyyy`), when the record gives one.
    pub date: Option<String>,
    /// The event (`Club night`, `BoardSpace tournament`), maybe empty.
    pub event: String,
    /// Where it was played (`hivegame.com`), maybe empty.
    pub site: String,
    /// The time control, as the record writes it, maybe empty.
    pub time_control: String,
    /// The result (`WhiteWins`, `BlackWins`, `Draw`), or `None` for an unfinished game.
    pub result: Option<String>,
    /// How it ended: `surrounded`, `repetition`, `declared` (a result the moves do not reach) or `unfinished`.
    pub ending: String,
    /// Its length in plies.
    pub plies: usize,
    /// Its moves, canonical MoveStrings with `;` between them.
    pub moves: String,
    /// The file (and game of the file) it was read from.
    pub source: String,
}

impl GameRow {
    /// The game's record as a GameString, its state the one the moves reach (a resignation or a clock's result
    /// is not theirs: such a game is `InProgress`, as a GameString must say to be read back).
    pub fn game_string(&self) -> String {
        let mut text = self.game_type.clone();
        let on_the_board = matches!(self.ending.as_str(), "surrounded" | "repetition");
        let state = match self.result.as_deref() {
            Some(result) if on_the_board => result,
            _ => "InProgress",
        };
        if !self.moves.is_empty() {
            // The turn field as the moves give it: plies played, White's on even plies.
            let to_move = if self.plies.is_multiple_of(2) { "White" } else { "Black" };
            text = format!("{text};{state};{to_move}[{}];{}", self.plies / 2 + 1, self.moves);
        }
        text
    }

    /// The game as a Mzinga `.pgn` record, with the players, date, event, site and ratings it has.
    pub fn pgn(&self) -> Result<GameRecord, crate::record::notation::GameStringError> {
        let mut record: GameString = self.game_string().parse()?;
        record.state = self.result.as_deref().and_then(GameState::from_name);
        let mut pgn = GameRecord::new(record, &self.white, &self.black);
        pgn.set_tag("Date", &self.date.as_deref().unwrap_or("????.??.??").replace('-', "."));
        pgn.set_tag("Event", &self.event);
        pgn.set_tag("Site", &self.site);
        for (tag, elo) in [("WhiteElo", self.white_elo), ("BlackElo", self.black_elo)] {
            if let Some(elo) = elo {
                pgn.set_tag(tag, &elo.to_string());
            }
        }
        if !self.time_control.is_empty() {
            pgn.set_tag("TimeControl", &self.time_control);
        }
        Ok(pgn)
    }
}

/// The row `row` holds, in the order of [`GAME_COLUMNS`].
pub(crate) fn game_row(row: &Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: row.get(0)?,
        game_type: row.get(1)?,
        white: row.get(2)?,
        black: row.get(3)?,
        white_elo: row.get(4)?,
        black_elo: row.get(5)?,
        date: row.get(6)?,
        event: row.get(7)?,
        site: row.get(8)?,
        time_control: row.get(9)?,
        result: row.get(10)?,
        ending: row.get(11)?,
        plies: row.get::<_, i64>(12)? as usize,
        moves: row.get(13)?,
        source: row.get(14)?,
    })
}

/// Which games to list: each field that is set narrows the list.
#[derive(Clone, Default)]
pub struct GameFilter {
    /// A player, either colour (any case).
    pub player: Option<String>,
    /// The game type.
    pub game_type: Option<GameType>,
    /// The result; `InProgress` for the unfinished games.
    pub result: Option<GameState>,
    /// The first date (`yyyy-mm-dd`, `yyyy-mm` or `yyyy`), included.
    pub since: Option<String>,
    /// The last date, included.
    pub until: Option<String>,
    /// A position the games reached (up to the board's symmetries).
    pub reached: Option<Game>,
    /// The most games listed.
    pub limit: usize,
}

/// The counts of the games in a database.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// All games.
    pub games: u64,
    /// Games by game type.
    pub by_type: BTreeMap<String, u64>,
    /// Games by year (`?` for those without a date).
    pub by_year: BTreeMap<String, u64>,
    /// Games by result (`WhiteWins`, `Draw`, `BlackWins`, `unfinished`).
    pub by_result: BTreeMap<String, u64>,
    /// Files recorded as read whole.
    pub files: u64,
}

impl Database {
    /// The games `filter` asks for, the latest added first.
    pub fn games(&self, filter: &GameFilter) -> Result<Vec<GameRow>, DbError> {
        let mut conditions = Vec::new();
        let mut values: Vec<SqlValue> = Vec::new();
        let mut from = "games".to_string();
        if let Some(game) = &filter.reached {
            from = "reached JOIN games ON games.id = reached.game".to_string();
            values.push(SqlValue::Integer(position_key(game.position())));
            conditions.push(format!("reached.position = ?{}", values.len()));
        }
        if let Some(player) = &filter.player {
            values.push(SqlValue::Text(player.clone()));
            let n = values.len();
            conditions.push(format!(
                "(games.white = ?{n} COLLATE NOCASE OR games.black = ?{n} COLLATE NOCASE)"
            ));
        }
        if let Some(game_type) = filter.game_type {
            values.push(SqlValue::Text(game_type.to_string()));
            conditions.push(format!("games.game_type = ?{}", values.len()));
        }
        match filter.result {
            Some(result) if result.is_over() => {
                values.push(SqlValue::Text(result.name().to_string()));
                conditions.push(format!("games.result = ?{}", values.len()));
            }
            Some(_) => conditions.push("games.result IS NULL".to_string()),
            None => {}
        }
        if let Some(since) = &filter.since {
            values.push(SqlValue::Text(since.clone()));
            conditions.push(format!("games.date >= ?{}", values.len()));
        }
        if let Some(until) = &filter.until {
            // `2023` takes in every day of 2023: compared with what follows its last day.
            values.push(SqlValue::Text(format!("{until}\u{ffff}")));
            conditions.push(format!("games.date <= ?{}", values.len()));
        }
        let mut sql = format!("SELECT {GAME_COLUMNS} FROM {from}");
        if !conditions.is_empty() {
            sql.push_str(" WHERE ");
            sql.push_str(&conditions.join(" AND "));
        }
        values.push(SqlValue::Integer(filter.limit.min(i64::MAX as usize) as i64));
        sql.push_str(&format!(" ORDER BY games.id DESC LIMIT ?{}", values.len()));
        let mut statement = self.connection.prepare(&sql).map_err(|e| self.error(e))?;
        let rows = statement
            .query_map(params_from_iter(values), game_row)
            .and_then(|rows| rows.collect())
            .map_err(|e| self.error(e));
        rows
    }

    /// The game numbered `id`, if the database has it.
    pub fn game(&self, id: i64) -> Result<Option<GameRow>, DbError> {
        let mut statement = self
            .connection
            .prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))
            .map_err(|e| self.error(e))?;
        let mut rows = statement.query_map([id], game_row).map_err(|e| self.error(e))?;
        rows.next().transpose().map_err(|e| self.error(e))
    }

    /// How many games the database holds.
    pub fn count(&self) -> Result<u64, DbError> {
        self.connection
            .query_row("SELECT count(*) FROM games", [], |row| row.get(0))
            .map_err(|e| self.error(e))
    }

    /// The counts of games by type, year and result.
    pub fn stats(&self) -> Result<Stats, DbError> {
        let mut stats = Stats::default();
        let mut statement = self
            .connection
            .prepare(
                "SELECT game_type, coalesce(substr(date, 1, 4), '?'), coalesce(result, 'unfinished'), count(*) \
                 FROM games GROUP BY 1, 2, 3",
            )
            .map_err(|e| self.error(e))?;
        let rows: Vec<(String, String, String, u64)> = statement
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.error(e))?;
        for (game_type, year, result, count) in rows {
            stats.games += count;
            *stats.by_type.entry(game_type).or_default() += count;
            *stats.by_year.entry(year).or_default() += count;
            *stats.by_result.entry(result).or_default() += count;
        }
        stats.files = self
            .connection
            .query_row("SELECT count(*) FROM files", [], |row| row.get(0))
            .map_err(|e| self.error(e))?;
        Ok(stats)
    }
}
