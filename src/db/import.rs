//! Adding games to a database: in batches, each batch one transaction, so that a crash, a kill or Ctrl-C at any
//! moment leaves every game either wholly in (its row in `games`, its positions in `reached`, its moves counted
//! in `moves`) or wholly out, and the file readable. A batch holds whole games only. A game already in the
//! database (the same game type, moves, players and date) is not added again, and a file already read whole is
//! known by its content and need not be read again.
//!
//! Within a batch the counts of each (position, move) pair are summed first and written in key order, so that the
//! start position, which every game passes, is written once a batch and the B-trees are walked in order.
//!
//! Owns the writing; the games are made ready by `entry`.

use std::collections::{HashMap, HashSet};

use rusqlite::{params, TransactionBehavior};

use super::entry::NewGame;
use super::{Database, DbError};
use crate::rules::position::GameState;

/// Games a batch (a transaction) holds: large enough that a commit's cost is shared by many games, small enough
/// that Ctrl-C is answered within a fraction of a second and little work is lost to a crash.
const BATCH: usize = 2_000;

/// The page cache an import keeps, in KiB (SQLite's negative `cache_size`): the tables' pages that the batches
/// touch stay in memory.
const IMPORT_CACHE_KIB: i64 = 512 * 1024;

/// What an import has written so far (committed: in the file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Added {
    /// Games added.
    pub games: usize,
    /// Games passed over because the database had them already.
    pub copies: usize,
    /// Files recorded as read whole.
    pub files: usize,
}

/// A file read whole, waiting for its last games to be committed.
struct FileRead {
    digest: i64,
    path: String,
    games: usize,
    refused: usize,
}

/// Adds games to a database, a batch at a time; dropping it without [`Importer::finish`] loses the games of the
/// batch not yet committed (and only those).
pub struct Importer<'a> {
    database: &'a mut Database,
    pending: Vec<NewGame>,
    files: Vec<FileRead>,
    added: Added,
    known_files: HashSet<i64>,
}

impl Database {
    /// An importer into this database.
    pub fn importer(&mut self) -> Result<Importer<'_>, DbError> {
        self.connection
            .execute_batch(&format!("PRAGMA cache_size = -{IMPORT_CACHE_KIB}"))
            .map_err(|e| self.error(e))?;
        let known_files = self.files_read()?;
        Ok(Importer {
            database: self,
            pending: Vec::with_capacity(BATCH),
            files: Vec::new(),
            added: Added::default(),
            known_files,
        })
    }

    /// The digests ([`file_digest`]) of the files read whole into this database.
    pub fn files_read(&self) -> Result<HashSet<i64>, DbError> {
        let mut statement = self
            .connection
            .prepare("SELECT digest FROM files")
            .map_err(|e| self.error(e))?;
        let digests = statement
            .query_map([], |row| row.get(0))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.error(e));
        digests
    }

    /// Add one game now (a batch of its own): whether it was new.
    pub fn add_game(&mut self, game: NewGame) -> Result<bool, DbError> {
        let mut importer = self.importer()?;
        importer.add(game)?;
        Ok(importer.finish()?.games == 1)
    }
}

/// The digest of a file's content, by which a file read whole before is known again.
pub fn file_digest(bytes: &[u8]) -> i64 {
    super::key::digest(bytes)
}

impl Importer<'_> {
    /// Whether a file with this content (its [`file_digest`]) was read whole into the database before.
    pub fn knows_file(&self, digest: i64) -> bool {
        self.known_files.contains(&digest)
    }

    /// Add `game`; the batch is committed when full.
    pub fn add(&mut self, game: NewGame) -> Result<(), DbError> {
        self.pending.push(game);
        if self.pending.len() >= BATCH {
            self.commit()?;
        }
        Ok(())
    }

    /// Record that the file `path` with content `digest` has been read whole (`games` read, `refused` not), once
    /// its last game is committed: a later import passes over the same content.
    pub fn file_read(&mut self, digest: i64, path: &str, games: usize, refused: usize) {
        if self.known_files.insert(digest) {
            self.files.push(FileRead {
                digest,
                path: path.to_string(),
                games,
                refused,
            });
        }
    }

    /// What has been committed so far.
    pub fn added(&self) -> Added {
        self.added
    }

    /// Commit what is pending and say what the import wrote in all.
    pub fn finish(mut self) -> Result<Added, DbError> {
        self.commit()?;
        Ok(self.added)
    }

    /// Write the pending games and files in one transaction.
    pub fn commit(&mut self) -> Result<(), DbError> {
        if self.pending.is_empty() && self.files.is_empty() {
            return Ok(());
        }
        let path = self.database.path.clone();
        let fail = |e: rusqlite::Error| DbError::sql(&path, e);
        let transaction = self
            .database
            .connection
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(fail)?;
        let (mut games, mut copies) = (0, 0);
        // (position, child) → games that went on by that move, by result: White, draw, Black, unfinished.
        let mut moves: HashMap<(i64, i64), [i64; 4]> = HashMap::new();
        let mut reached: Vec<(i64, i64, usize)> = Vec::new();
        {
            let mut insert = transaction
                .prepare_cached(
                    "INSERT OR IGNORE INTO games (identity, game_type, white, black, white_elo, black_elo, date, \
                     event, site, time_control, result, ending, plies, moves, source) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                )
                .map_err(fail)?;
            let mut seen = HashSet::new();
            for game in self.pending.drain(..) {
                let inserted = insert
                    .execute(params![
                        game.identity,
                        game.game_type,
                        game.white,
                        game.black,
                        game.white_elo,
                        game.black_elo,
                        game.date,
                        game.event,
                        game.site,
                        game.time_control,
                        game.result.map(GameState::name),
                        game.ending.name(),
                        game.plies as i64,
                        game.moves,
                        game.source,
                    ])
                    .map_err(fail)?;
                if inserted == 0 {
                    copies += 1;
                    continue;
                }
                games += 1;
                let id = transaction.last_insert_rowid();
                let column = match game.result {
                    Some(GameState::WhiteWins) => 0,
                    Some(GameState::Draw) => 1,
                    Some(GameState::BlackWins) => 2,
                    _ => 3,
                };
                // A position the game comes back to counts once, with the move that first left it.
                seen.clear();
                for (ply, &key) in game.keys.iter().enumerate() {
                    if !seen.insert(key) {
                        continue;
                    }
                    reached.push((key, id, ply));
                    if let Some(&child) = game.keys.get(ply + 1) {
                        moves.entry((key, child)).or_default()[column] += 1;
                    }
                }
            }
        }
        let mut moves: Vec<_> = moves.into_iter().collect();
        moves.sort_unstable_by_key(|&(pair, _)| pair);
        reached.sort_unstable();
        {
            let mut count = transaction
                .prepare_cached(
                    "INSERT INTO moves (position, child, white, draw, black, unfinished) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
                     ON CONFLICT (position, child) DO UPDATE SET white = white + excluded.white, \
                     draw = draw + excluded.draw, black = black + excluded.black, \
                     unfinished = unfinished + excluded.unfinished",
                )
                .map_err(fail)?;
            for ((position, child), [white, draw, black, unfinished]) in moves {
                count
                    .execute(params![position, child, white, draw, black, unfinished])
                    .map_err(fail)?;
            }
            let mut reach = transaction
                .prepare_cached("INSERT OR IGNORE INTO reached (position, game, ply) VALUES (?1, ?2, ?3)")
                .map_err(fail)?;
            for (position, game, ply) in reached {
                reach.execute(params![position, game, ply as i64]).map_err(fail)?;
            }
            let mut file = transaction
                .prepare_cached("INSERT OR IGNORE INTO files (digest, path, games, refused) VALUES (?1, ?2, ?3, ?4)")
                .map_err(fail)?;
            for read in &self.files {
                file.execute(params![read.digest, read.path, read.games as i64, read.refused as i64])
                    .map_err(fail)?;
            }
        }
        transaction.commit().map_err(fail)?;
        self.added.games += games;
        self.added.copies += copies;
        self.added.files += std::mem::take(&mut self.files).len();
        Ok(())
    }
}
