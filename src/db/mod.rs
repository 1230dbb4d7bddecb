//! The games database: every game a player has, in one SQLite file they can also query with the `sqlite3` shell,
//! and the opening explorer over it: for any position, the moves played from it with how often each was played
//! and how those games ended, and the games that reached it. A position is found whatever the board's
//! orientation in the game that reached it (its key is the opening book's, up to the grid's symmetries).
//!
//! `waggle db` and `waggle web --db` are its front ends: a program opens a [`Database`], adds games through an
//! [`Importer`] (each game made ready by [`NewGame::of`], which needs no database and can run on other threads)
//! and asks it [`Database::explore`], [`Database::games`] and [`Database::stats`]. docs/db.md documents the
//! tables, the commands and the figures measured.
//!
//! Owns the file, its tables and the queries; reading records is `crate::record`'s, and printing the front ends'.

mod date;
mod entry;
mod explore;
mod import;
mod json;
mod key;
mod list;
mod schema;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

pub use entry::NewGame;
pub use explore::{Explored, ExploredMove};
pub use import::{file_digest, Added, Importer};
pub use key::position_key;
pub use list::{GameFilter, GameRow, Stats};
pub use schema::SCHEMA_VERSION;

/// Why a database cannot be opened, read or written.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The file is not a Waggle games database (another SQLite database, or not SQLite at all).
    #[error("{path} is not a Waggle games database (it was made by another program); choose another file")]
    NotWaggle {
        /// The file.
        path: String,
    },
    /// The file's schema is one this Waggle does not know: a newer Waggle's, or a damaged header.
    #[error(
        "{path} holds a games database of schema version {version}, which this Waggle cannot read (it reads \
         version {SCHEMA_VERSION} and upgrades older ones): use the Waggle that made it, or a newer one"
    )]
    Version {
        /// The file.
        path: String,
        /// The version it says it has.
        version: i32,
    },
    /// There is no database at the path, and none was to be made.
    #[error("there is no games database at {path}: make one with `waggle db add FILE… --db {path}`")]
    Missing {
        /// The file.
        path: String,
    },
    /// SQLite refused: the file is damaged, locked by another writer, on a full disk, …
    #[error("the games database {path}: {why}")]
    Sql {
        /// The file.
        path: String,
        /// SQLite's words.
        why: String,
    },
}

impl DbError {
    /// SQLite's error `error` on the file `path`, in words; "not a database" told as what it means.
    fn sql(path: &str, error: rusqlite::Error) -> DbError {
        if let rusqlite::Error::SqliteFailure(failure, _) = &error {
            if failure.code == rusqlite::ErrorCode::NotADatabase {
                return DbError::NotWaggle { path: path.to_string() };
            }
        }
        DbError::Sql {
            path: path.to_string(),
            why: error.to_string(),
        }
    }
}

/// A games database: one SQLite file.
pub struct Database {
    connection: Connection,
    path: String,
}

/// The most of the file read through a memory map.
const MMAP_BYTES: u64 = 1 << 30;

/// How long a reader or writer waits for another writer to finish before giving up.
const BUSY: Duration = Duration::from_secs(10);

impl Database {
    /// The database at `path`, made (with its folder) if there is none yet; an older schema is upgraded, a file
    /// that is not a Waggle database or is of a newer schema refused.
    pub fn open(path: &Path) -> Result<Database, DbError> {
        let name = path.display().to_string();
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|e| DbError::Sql {
                path: name.clone(),
                why: format!("its folder cannot be made: {e}"),
            })?;
        }
        let connection = Connection::open(path).map_err(|e| DbError::sql(&name, e))?;
        Database::ready(connection, name, true)
    }

    /// The database at `path`, for reading only; [`DbError::Missing`] if there is none.
    pub fn open_existing(path: &Path) -> Result<Database, DbError> {
        let name = path.display().to_string();
        if !path.is_file() {
            return Err(DbError::Missing { path: name });
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
        let connection = Connection::open_with_flags(path, flags).map_err(|e| DbError::sql(&name, e))?;
        Database::ready(connection, name, false)
    }

    /// `connection` checked (and, when writing, prepared) as a Waggle database.
    fn ready(mut connection: Connection, path: String, write: bool) -> Result<Database, DbError> {
        connection.busy_timeout(BUSY).map_err(|e| DbError::sql(&path, e))?;
        // Pages read through a memory map rather than copied into each connection's cache: a short-lived
        // `waggle db explore` reads what it needs straight from the operating system's cache of the file.
        connection
            .execute_batch(&format!("PRAGMA mmap_size = {MMAP_BYTES}"))
            .map_err(|e| DbError::sql(&path, e))?;
        if write {
            // WAL: readers (the explorer of a running `waggle web`) go on while an import writes, and a commit
            // is one append. synchronous=NORMAL keeps the file whole after a crash of the program or the machine
            // (a power cut may lose the last commits, never half of one).
            connection
                .execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
                .map_err(|e| DbError::sql(&path, e))?;
            schema::prepare(&mut connection, &path)?;
        } else {
            let application: i32 = connection
                .query_row("PRAGMA application_id", [], |row| row.get(0))
                .map_err(|e| DbError::sql(&path, e))?;
            let version: i32 = connection
                .query_row("PRAGMA user_version", [], |row| row.get(0))
                .map_err(|e| DbError::sql(&path, e))?;
            if application != schema::APPLICATION_ID {
                return Err(DbError::NotWaggle { path });
            }
            if version != SCHEMA_VERSION {
                // An older one is upgraded by the next `waggle db add`; reading it as it is would misread it.
                return Err(DbError::Version { path, version });
            }
        }
        Ok(Database { connection, path })
    }

    /// The file's path, as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Whether SQLite finds the file whole (`PRAGMA integrity_check`): `Ok(())`, or what it found wrong.
    pub fn check(&self) -> Result<(), DbError> {
        let mut statement = self
            .connection
            .prepare("PRAGMA integrity_check")
            .map_err(|e| self.error(e))?;
        let found: Vec<String> = statement
            .query_map([], |row| row.get(0))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.error(e))?;
        if found == ["ok"] {
            Ok(())
        } else {
            Err(DbError::Sql {
                path: self.path.clone(),
                why: format!("the file is damaged: {}", found.join("; ")),
            })
        }
    }

    /// SQLite's `error` on this file.
    fn error(&self, error: rusqlite::Error) -> DbError {
        DbError::sql(&self.path, error)
    }
}

/// Where `waggle db` keeps its database unless told: `games.sqlite` in Waggle's folder of the user's data
/// (`$XDG_DATA_HOME/waggle`, else `~/.local/share/waggle` on Linux and other Unixes; `~/Library/Application
/// Support/waggle` on macOS; `%APPDATA%\waggle` on Windows); `None` when the environment names no home.
pub fn default_path() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let folder = if cfg!(windows) {
        var("APPDATA")?
    } else if cfg!(target_os = "macos") {
        var("HOME")?.join("Library/Application Support")
    } else {
        var("XDG_DATA_HOME").or_else(|| var("HOME").map(|home| home.join(".local/share")))?
    };
    Some(folder.join("waggle").join("games.sqlite"))
}
