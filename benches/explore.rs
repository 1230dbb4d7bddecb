//! How fast the opening explorer answers: an explorer query (the moves played from a position with their counts,
//! and the first 20 games that reached it) timed in the library (`Database::explore`), over HTTP (`POST
//! /api/explore` to `waggle web --db`, on one kept-alive connection) and from the terminal (`waggle db explore
//! GAMESTRING --json`, the whole process: start, open, query, print). The positions are those of the database's
//! own games at every ply up to the 30th, drawn with a fixed seed, with the start of each game type among them.
//! Each line gives the median, the 99th percentile and the worst; the goal is under 20 ms at the 99th percentile.
//!
//! `WAGGLE_DB_BENCH=PATH cargo bench --bench explore` measures the database at PATH (docs/db.md makes the
//! 100,000-game one); without it, a database of the repository's records is made and measured. `-- --quick`
//! times fewer queries. The bench checks its results: the HTTP answers and the command's name the same moves with
//! the same counts as the library's, and the start position's counts add up to the games that have a move.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use waggle::db::{Database, GameFilter};
use waggle::{Game, GameType, Rules};

const WAGGLE: &str = env!("CARGO_BIN_EXE_waggle");

/// The database to measure: `WAGGLE_DB_BENCH`, else one made of the repository's records.
fn database() -> PathBuf {
    if let Some(path) = std::env::var_os("WAGGLE_DB_BENCH") {
        return PathBuf::from(path);
    }
    let path = std::env::temp_dir().join(format!("waggle-explore-bench-{}.sqlite", std::process::id()));
    let root = env!("CARGO_MANIFEST_DIR");
    let status = Command::new(WAGGLE)
        .args([
            "db",
            "add",
            &format!("{root}/tests/data/records"),
            &format!("{root}/tests/data/review"),
        ])
        .arg(format!("{root}/tests/data/review/games.txt"))
        .arg("--db")
        .arg(&path)
        .stderr(Stdio::null())
        .status()
        .expect("run waggle db add");
    assert!(matches!(status.code(), Some(0 | 2)), "waggle db add: {status}");
    path
}

/// The positions to ask about: each game type's start, and positions of the database's games.
fn positions(database: &Database, count: usize) -> Vec<Game> {
    let mut rng = StdRng::seed_from_u64(60);
    let mut positions: Vec<Game> = GameType::ALL.iter().map(|&t| Game::new(t, Rules::default())).collect();
    let games = database
        .games(&GameFilter {
            limit: 5_000,
            ..GameFilter::default()
        })
        .unwrap();
    let mut seen = HashSet::new();
    for _ in 0..count * 4 {
        if positions.len() >= count {
            break;
        }
        let Some(row) = games.choose(&mut rng) else { break };
        let moves: Vec<&str> = row.moves.split(';').filter(|m| !m.is_empty()).collect();
        let plies = rand::Rng::gen_range(&mut rng, 0..=moves.len().min(30));
        let Ok(mut game) = row.game_type.parse().map(|t| Game::new(t, Rules::default())) else {
            continue;
        };
        if moves.iter().take(plies).all(|mv| game.play_text(mv).is_ok()) && seen.insert(game.game_string().to_string())
        {
            positions.push(game);
        }
    }
    positions
}

/// Median, 99th percentile and worst of `times`, in milliseconds.
fn summary(what: &str, mut times: Vec<Duration>) -> String {
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "{what:<26} {:>6} queries  median {:>7.2} ms  p99 {:>7.2} ms  worst {:>7.2} ms",
        times.len(),
        ms(at(0.5)),
        ms(at(0.99)),
        ms(*times.last().unwrap())
    )
}

/// The moves of an explorer answer, as (move, games, white, draw, black), in order.
fn moves_of(answer: &Value) -> Vec<(String, u64, u64, u64, u64)> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let n = |k: &str| m[k].as_u64().unwrap();
            (
                m["move"].as_str().unwrap().to_string(),
                n("games"),
                n("white"),
                n("draw"),
                n("black"),
            )
        })
        .collect()
}

/// A `waggle web --db` server and one kept-alive connection to it.
struct Server {
    child: Child,
    stream: BufReader<TcpStream>,
    host: String,
}

impl Server {
    fn start(path: &Path) -> Server {
        let mut child = Command::new(WAGGLE)
            .args(["web", "--listen", "127.0.0.1:0", "--db"])
            .arg(path)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start waggle web");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let host = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .expect("the address in the first line")
            .to_string();
        let stream = BufReader::new(TcpStream::connect(&host).unwrap());
        stream.get_ref().set_nodelay(true).unwrap();
        Server { child, stream, host }
    }

    /// POST `body` to `path` and read the JSON answer.
    fn post(&mut self, path: &str, body: &Value) -> Value {
        let body = body.to_string();
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nOrigin: http://{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.host,
            self.host,
            body.len()
        );
        self.stream.get_mut().write_all(request.as_bytes()).unwrap();
        let (mut length, mut status) = (0, String::new());
        loop {
            let mut line = String::new();
            self.stream.read_line(&mut line).unwrap();
            if status.is_empty() {
                status = line.trim().to_string();
            }
            let lower = line.to_ascii_lowercase();
            if let Some(value) = lower.strip_prefix("content-length:") {
                length = value.trim().parse().unwrap();
            }
            if line == "\r\n" {
                break;
            }
        }
        let mut bytes = vec![0; length];
        self.stream.read_exact(&mut bytes).unwrap();
        assert!(
            status.contains(" 200 "),
            "{status}: {}",
            String::from_utf8_lossy(&bytes)
        );
        serde_json::from_slice(&bytes).unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (queries, commands) = if quick { (200, 30) } else { (2_000, 200) };
    let path = database();
    let database = Database::open_existing(&path).unwrap();
    let count = database.count().unwrap();
    let positions = positions(&database, queries);
    println!("{}: {count} games; {} positions", path.display(), positions.len());

    // Every game with a move went on from its start, by one move.
    let with_moves: u64 = GameType::ALL
        .iter()
        .map(|&t| database.explore(&Game::new(t, Rules::default()), 0).unwrap().total())
        .sum();
    let started = database
        .games(&GameFilter {
            limit: usize::MAX,
            ..GameFilter::default()
        })
        .unwrap()
        .iter()
        .filter(|row| row.plies > 0)
        .count() as u64;
    assert_eq!(
        with_moves, started,
        "the starts' counts add up to the games with a move"
    );

    // Warm: the pages read once, as a running server or a second query has them.
    for game in positions.iter().take(50) {
        database.explore(game, 20).unwrap();
    }
    let mut library = Vec::new();
    let mut answers = Vec::new();
    for game in &positions {
        let since = Instant::now();
        let explored = database.explore(game, 20).unwrap();
        library.push(since.elapsed());
        answers.push(explored);
    }
    println!("{}", summary("library (Database::explore)", library));

    let mut server = Server::start(&path);
    let mut http = Vec::new();
    for (game, explored) in positions.iter().zip(&answers) {
        let body = json!({"game": game.game_string().to_string(), "games": 20});
        let since = Instant::now();
        let answer = server.post("/api/explore", &body);
        http.push(since.elapsed());
        let expected: Vec<_> = explored
            .moves
            .iter()
            .map(|m| (m.mv.to_string(), m.games, m.white, m.draw, m.black))
            .collect();
        assert_eq!(moves_of(&answer), expected, "{}", game.game_string());
        assert_eq!(answer["games"].as_array().unwrap().len(), explored.games.len());
    }
    println!("{}", summary("HTTP (POST /api/explore)", http));
    drop(server);

    let mut terminal = Vec::new();
    for (game, explored) in positions.iter().zip(&answers).take(commands) {
        let since = Instant::now();
        let output = Command::new(WAGGLE)
            .args(["db", "explore", &game.game_string().to_string(), "--json", "--db"])
            .arg(&path)
            .output()
            .expect("run waggle db explore");
        terminal.push(since.elapsed());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(moves_of(&answer).len(), explored.moves.len());
    }
    println!("{}", summary("terminal (waggle db explore)", terminal));
    if std::env::var_os("WAGGLE_DB_BENCH").is_none() {
        let _ = std::fs::remove_file(&path);
    }
}
