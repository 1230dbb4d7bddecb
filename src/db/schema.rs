//! The tables of a games database and their version. docs/db.md shows them to users of the `sqlite3` shell; this
//! file is what they are. A database says it is Waggle's by SQLite's `application_id` and gives its schema's
//! version in `user_version`: one this Waggle knows is read (an older one upgraded first, each step in a
//! transaction), any other refused with the reason, never guessed at.
//!
//! Owns the SQL that makes and upgrades the tables; the queries are `import`'s, `explore`'s and `list`'s.

use rusqlite::Connection;

use super::DbError;

/// `application_id` of a Waggle games database: "Wgdb" in ASCII.
pub(crate) const APPLICATION_ID: i32 = 0x5767_6462;

/// The schema this Waggle writes.
pub const SCHEMA_VERSION: i32 = 1;

/// The tables of version 1 (docs/db.md explains each column).
const TABLES: &str = "
CREATE TABLE files (
    digest INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    games INTEGER NOT NULL,
    refused INTEGER NOT NULL
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    identity INTEGER NOT NULL UNIQUE,
    game_type TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    white_elo INTEGER,
    black_elo INTEGER,
    date TEXT,
    event TEXT NOT NULL,
    site TEXT NOT NULL,
    time_control TEXT NOT NULL,
    result TEXT,
    ending TEXT NOT NULL,
    plies INTEGER NOT NULL,
    moves TEXT NOT NULL,
    source TEXT NOT NULL
);
CREATE INDEX games_by_white ON games (white COLLATE NOCASE);
CREATE INDEX games_by_black ON games (black COLLATE NOCASE);
CREATE TABLE moves (
    position INTEGER NOT NULL,
    child INTEGER NOT NULL,
    white INTEGER NOT NULL,
    draw INTEGER NOT NULL,
    black INTEGER NOT NULL,
    unfinished INTEGER NOT NULL,
    PRIMARY KEY (position, child)
) WITHOUT ROWID;
CREATE TABLE reached (
    position INTEGER NOT NULL,
    game INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    PRIMARY KEY (position, game)
) WITHOUT ROWID;
";

/// The steps from each older version to the next: `UPGRADES[i]` takes version `i + 1` to `i + 2`. Version 1 is
/// the first, so there are none yet; a change to the tables adds its step here and raises [`SCHEMA_VERSION`].
const UPGRADES: &[&str] = &[];

/// Make the tables of an empty database, or check (and upgrade) those of a Waggle database; refuse any other.
pub(crate) fn prepare(connection: &mut Connection, path: &str) -> Result<(), DbError> {
    let pragma = |name: &str| -> Result<i32, DbError> {
        connection
            .query_row(&format!("PRAGMA {name}"), [], |row| row.get(0))
            .map_err(|e| DbError::sql(path, e))
    };
    let (application, version) = (pragma("application_id")?, pragma("user_version")?);
    let tables: i64 = connection
        .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
        .map_err(|e| DbError::sql(path, e))?;
    if application == 0 && version == 0 && tables == 0 {
        let transaction = connection.transaction().map_err(|e| DbError::sql(path, e))?;
        transaction
            .execute_batch(&format!(
                "{TABLES}\nPRAGMA application_id = {APPLICATION_ID};\nPRAGMA user_version = {SCHEMA_VERSION};"
            ))
            .map_err(|e| DbError::sql(path, e))?;
        return transaction.commit().map_err(|e| DbError::sql(path, e));
    }
    if application != APPLICATION_ID {
        return Err(DbError::NotWaggle { path: path.to_string() });
    }
    if version > SCHEMA_VERSION || version < 1 {
        return Err(DbError::Version {
            path: path.to_string(),
            version,
        });
    }
    for (from, step) in UPGRADES.iter().enumerate().skip(version as usize - 1) {
        let transaction = connection.transaction().map_err(|e| DbError::sql(path, e))?;
        transaction
            .execute_batch(&format!("{step}\nPRAGMA user_version = {};", from + 2))
            .map_err(|e| DbError::sql(path, e))?;
        transaction.commit().map_err(|e| DbError::sql(path, e))?;
    }
    Ok(())
}
