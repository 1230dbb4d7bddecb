//! `waggle web` as a process, driven over HTTP by a minimal client written here: every API route with good and
//! bad input (the explorer answering as `waggle db explore --json` prints), the page's files, the Host and Origin
//! check, the pool of engines (searches beyond the engines wait; a search whose reader leaves ends), idle
//! connections that must not keep a visitor out, and Ctrl-C.
//!
//! The long run (1,000 idle connections and 16 thinking clients) is ignored: `cargo test --test web -- --ignored`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Child;
use std::thread;
use std::time::{Duration, Instant};

mod common;

use common::Waggle;
use serde_json::{json, Value};
use waggle::record::read_pgn;

/// A middle game of Base+MLP, White to move.
const GAME: &str = "Base+MLP;InProgress;White[4];wS1;bP wS1-;wQ -wS1;bQ bP-;wA1 wQ/;bB1 bQ\\";

/// The running server, killed when dropped (also when a test fails).
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    /// A server started with these flags besides its address.
    fn start_with(flags: &[&str]) -> Server {
        let (child, addr) = Waggle::new(["web", "--listen", "127.0.0.1:0"]).args(flags).serve_at();
        Server { child, addr }
    }

    fn host(&self) -> String {
        self.addr.to_string()
    }

    fn get(&self, path: &str) -> Reply {
        send(self.addr, "GET", path, &[("Host", &self.host())], None)
    }

    fn post(&self, path: &str, body: &Value) -> Reply {
        let host = self.host();
        let origin = format!("http://{host}");
        let headers = [
            ("Host", host.as_str()),
            ("Origin", origin.as_str()),
            ("Content-Type", "application/json"),
        ];
        send(self.addr, "POST", path, &headers, Some(body.to_string().as_bytes()))
    }

    fn status(&self) -> Value {
        self.get("/api/status").json()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response: status, headers (names in lower case) and body.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {} {}", self.status, self.body))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The error of a 4xx or 5xx answer, checked to be JSON with a message.
    fn error(&self, status: u16) -> String {
        assert_eq!(self.status, status, "{}", self.body);
        let message = self.json()["error"].as_str().expect("an error message").to_string();
        assert!(!message.is_empty());
        message
    }
}

/// Write one request and read its whole response (the connection closes after it).
fn send(addr: SocketAddr, method: &str, path: &str, headers: &[(&str, &str)], body: Option<&[u8]>) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    if let Some(body) = body {
        stream.write_all(body).unwrap();
    }
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("a response");
    parse(&raw)
}

fn parse(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no head: {text}"));
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers.iter().any(|(n, v)| n == "transfer-encoding" && v == "chunked");
    let body = if chunked { dechunk(body) } else { body.to_string() };
    Reply { status, headers, body }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].strip_prefix("\r\n").unwrap_or(&rest[size..]);
    }
    out
}

/// The events of a whole Server-Sent Events body: (name, data).
fn events(body: &str) -> Vec<(String, Value)> {
    body.split("\n\n")
        .filter_map(|block| {
            let name = block.lines().find_map(|l| l.strip_prefix("event: "))?;
            let data = block.lines().find_map(|l| l.strip_prefix("data: "))?;
            Some((name.to_string(), serde_json::from_str(data).ok()?))
        })
        .collect()
}

/// An event stream left open: read event by event.
struct Stream {
    reader: BufReader<TcpStream>,
}

impl Stream {
    fn open(server: &Server, path: &str, body: &Value) -> Stream {
        let mut stream = TcpStream::connect(server.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let body = body.to_string();
        write!(
            stream,
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            server.host(),
            body.len()
        )
        .unwrap();
        Stream {
            reader: BufReader::new(stream),
        }
    }

    /// The next event's name (heartbeats and chunk framing skipped).
    fn next_event(&mut self) -> Option<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if let Some(name) = line.trim().strip_prefix("event: ") {
                return Some(name.to_string());
            }
        }
    }
}

/// Every legal move of a position the server described (its `legal` object: the moves of each piece), as
/// MoveStrings.
fn legal_moves(state: &Value) -> Vec<String> {
    state["legal"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|moves| {
            moves
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["move"].as_str().unwrap().to_string())
        })
        .collect()
}

/// Wait until `done` holds, for `limit` at most; whether it did.
fn within(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let since = Instant::now();
    while since.elapsed() < limit {
        if done() {
            return true;
        }
        thread::sleep(Duration::from_millis(20));
    }
    done()
}

#[test]
fn the_page_and_its_files_are_served() {
    let server = Server::start();
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page.header("content-type").unwrap().starts_with("text/html"));
    assert!(page.body.contains("<title>Waggle</title>"));
    assert!(page
        .header("content-security-policy")
        .unwrap()
        .contains("default-src 'self'"));
    let script = server.get("/main.js");
    assert_eq!(script.status, 200);
    assert!(script.header("content-type").unwrap().starts_with("text/javascript"));
    server.get("/nothing-here").error(404);
    let refused = send(server.addr, "DELETE", "/", &[("Host", &server.host())], None);
    refused.error(405);
    let info = server.get("/api/info").json();
    assert_eq!(info["game_types"].as_array().unwrap().len(), 8);
    server.post("/api/info", &json!({})).error(405);
    let status = server.status();
    assert_eq!(
        (status["running"].as_u64(), status["waiting"].as_u64()),
        (Some(0), Some(0))
    );
    server.post("/api/status", &json!({})).error(405);
}

#[test]
fn positions_moves_and_undo_come_from_the_rules() {
    let server = Server::start();
    let state = server.post("/api/position", &json!({"game": GAME})).json();
    assert_eq!(
        (state["ply"].as_u64(), state["to_move"].as_str()),
        (Some(6), Some("White"))
    );
    assert_eq!(state["moves"].as_array().unwrap().len(), 6);
    let legal = legal_moves(&state);
    let mv = legal.first().expect("a legal move").clone();
    let after = server.post("/api/play", &json!({"game": GAME, "move": mv})).json();
    assert_eq!(after["ply"], 7);
    assert_eq!(after["last"]["move"], json!(mv));
    let back = server
        .post("/api/undo", &json!({"game": after["game"], "plies": 1}))
        .json();
    assert_eq!(back["game"], state["game"]);

    // Bad input: each gets a 4xx and a message.
    let illegal = server
        .post("/api/play", &json!({"game": "Base", "move": "wQ"}))
        .error(422);
    assert!(illegal.contains("Queen"), "{illegal}");
    server
        .post("/api/play", &json!({"game": GAME, "move": "not a move"}))
        .error(422);
    server.post("/api/undo", &json!({"game": GAME, "plies": 7})).error(422);
    server
        .post("/api/undo", &json!({"game": GAME, "plies": "x"}))
        .error(400);
    server.post("/api/play", &json!({"game": GAME})).error(400);
    let broken = server
        .post("/api/position", &json!({"game": "Base;InProgress;White[2];wS1;wS2"}))
        .error(422);
    assert!(!broken.is_empty());
    server.post("/api/position", &json!({"game": "Chess"})).error(422);
    server.post("/api/position", &json!({"gme": GAME})).error(400);
    server.post("/api/position", &json!([1, 2])).error(400);
    let origin = format!("http://{}", server.host());
    let headers = [
        ("Host", server.host()),
        ("Origin", origin.clone()),
        ("Content-Type", "application/json".into()),
    ];
    let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
    send(server.addr, "POST", "/api/position", &headers, Some(b"{not json")).error(400);
    let text = [("Host", server.host()), ("Content-Type", "text/plain".into())];
    let text: Vec<(&str, &str)> = text.iter().map(|(n, v)| (*n, v.as_str())).collect();
    send(
        server.addr,
        "POST",
        "/api/position",
        &text,
        Some(br#"{"game": "Base"}"#),
    )
    .error(415);
    let huge = json!({"game": "x".repeat(300 * 1024)});
    server.post("/api/position", &huge).error(413);
    server.get("/api/position").error(405);
    let won = "Base;InProgress;White[7];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;wA2 \\wQ;\
               bA2 \\bG1;wG2 wQ/;bG1 wG2\\";
    let over = server.post("/api/position", &json!({"game": won})).json();
    assert_eq!(over["state"], "BlackWins");
    assert!(over["legal"].as_object().unwrap().is_empty());
    server
        .post("/api/play", &json!({"game": won, "move": "pass"}))
        .error(422);
}

#[test]
fn games_are_imported_and_exported() {
    let server = Server::start();
    let exported = server.post("/api/export", &json!({"game": GAME, "white": "Ann", "black": "Bob"}));
    assert_eq!(exported.status, 200);
    let games = read_pgn(&exported.body).expect("a .pgn Mzinga reads");
    assert_eq!(games[0].record.moves.len(), 6);
    assert_eq!(games[0].tag("White"), Some("Ann"));
    let imported = server.post("/api/import", &json!({"text": exported.body})).json();
    assert_eq!(imported["state"]["moves"].as_array().unwrap().len(), 6);
    assert_eq!(
        (imported["white"].as_str(), imported["games"].as_u64()),
        (Some("Ann"), Some(1))
    );
    let plain = server.post("/api/import", &json!({"text": GAME})).json();
    assert_eq!(plain["state"]["game"], imported["state"]["game"]);
    server.post("/api/import", &json!({"text": ""})).error(422);
    server
        .post(
            "/api/import",
            &json!({"text": "[GameType \"Base\"]\n\n1. wQ\n2. wS1 wQ-\n"}),
        )
        .error(422);
    server.post("/api/import", &json!({"text": "nonsense"})).error(422);
    server
        .post("/api/export", &json!({"game": "Base;InProgress;Black[1];wM"}))
        .error(422);
    // A game from before the tournament opening (its Queen first) is replayed as it was played, in every route.
    let old = server.post("/api/export", &json!({"game": "Base;InProgress;White[2];wQ;bQ wQ-"}));
    assert_eq!(old.status, 200, "{}", old.body);
    let position = server.post(
        "/api/play",
        &json!({"game": "Base;InProgress;White[2];wQ;bQ wQ-", "move": "wS1 -wQ"}),
    );
    assert_eq!(
        position.json()["moves"].as_array().map(Vec::len),
        Some(3),
        "{}",
        position.body
    );
    server.post("/api/export", &json!({"gam": GAME})).error(400);
    server.post("/api/import", &json!({"text": 5})).error(400);
}

/// The page's explorer answers with the objects `waggle db explore --json` prints for the same position: its moves
/// with `same`, its games with every field but the file on the server each was read from (`source`), and without
/// the position's GameString, which the page sent.
#[cfg(feature = "db")]
#[test]
fn the_explorer_answers_as_waggle_db_explore_does() {
    let scratch = common::Scratch::new("web-explorer");
    let path = scratch.path("games.sqlite");
    let games_file = format!("{}/tests/data/review/games.txt", env!("CARGO_MANIFEST_DIR"));
    assert!(Waggle::new(["db", "add", &games_file, "--db", &path]).run().success());
    let server = Server::start_with(&["--db", &path]);
    for position in ["Base+MLP", "Base;InProgress;Black[1];wB1"] {
        let answer = server
            .post("/api/explore", &json!({"game": position, "games": 20}))
            .json();
        let printed = Waggle::new(["db", "explore", position, "--json", "--db", &path]).run();
        let mut printed: Value = serde_json::from_str(&printed.stdout).unwrap();
        printed.as_object_mut().unwrap().remove("position");
        for game in printed["games"].as_array_mut().unwrap() {
            assert!(game.as_object_mut().unwrap().remove("source").is_some(), "{game}");
        }
        assert!(!printed["games"].as_array().unwrap().is_empty(), "{printed}");
        assert_eq!(answer, printed, "{position}");
        assert!(answer["moves"][0]["same"].is_array(), "{answer}");
    }
}

/// A BoardSpace record is imported as a `.pgn` is, an older one opening with the Queens too; a broken one gets a
/// message naming its action.
#[test]
fn boardspace_records_are_imported() {
    let server = Server::start();
    let records = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records");
    let text = std::fs::read_to_string(format!("{records}/HV-gina-hugo-2019-10-03-0001.sgf")).unwrap();
    let imported = server.post("/api/import", &json!({"text": text})).json();
    assert_eq!(imported["state"]["moves"].as_array().map(Vec::len), Some(30));
    assert_eq!(
        (
            imported["white"].as_str(),
            imported["black"].as_str(),
            imported["games"].as_u64()
        ),
        (Some("hugo"), Some("gina"), Some(1))
    );
    let old = std::fs::read_to_string(format!("{records}/U!HV-carl-dora-2008-10-28-0130.sgf")).unwrap();
    let imported = server.post("/api/import", &json!({"text": old})).json();
    let game = imported["state"]["game"].as_str().unwrap().to_string();
    assert!(game.starts_with("Base;WhiteWins;Black[11];wQ;bQ wQ-;"), "{game}");
    // Taken back to where the game was going on, it is played on under the opening it began with.
    let back = server.post("/api/undo", &json!({"game": game, "plies": 20})).json();
    assert_eq!(back["legal"]["bQ"].as_array().map(Vec::len), Some(6), "{back}");
    let broken = std::fs::read_to_string(format!("{records}/refused/broken_turn.sgf")).unwrap();
    let message = server.post("/api/import", &json!({"text": broken})).error(422);
    assert!(message.contains("P0[7 Dropb wQ M 13 -wS1]"), "{message}");
}

#[test]
fn the_engine_moves_analyses_and_reviews() {
    let server = Server::start();
    let state = server.post("/api/position", &json!({"game": GAME})).json();
    let answer = server
        .post("/api/bestmove", &json!({"game": GAME, "level": 10, "depth": 2}))
        .json();
    let mv = answer["move"].as_str().unwrap();
    let piece = mv.split(' ').next().unwrap();
    assert!(
        state["legal"][piece]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["move"] == mv),
        "{mv} is legal"
    );
    assert_eq!(answer["state"]["ply"], 7);
    let weak = server
        .post("/api/bestmove", &json!({"game": GAME, "level": 1, "time": 0.2}))
        .json();
    assert_eq!(weak["state"]["ply"], 7);
    server
        .post("/api/bestmove", &json!({"game": GAME, "level": 11}))
        .error(400);
    server
        .post("/api/bestmove", &json!({"game": GAME, "time": 1, "depth": 2}))
        .error(400);
    server
        .post("/api/bestmove", &json!({"game": GAME, "time": -1}))
        .error(400);
    let clock = json!({"white": {"remaining": 5, "increment": 1}, "black": {"remaining": 5, "increment": 1}});
    let clocked = server
        .post("/api/bestmove", &json!({"game": GAME, "clock": clock}))
        .json();
    assert_eq!(clocked["state"]["ply"], 7);

    let analysis = server.post("/api/analyse", &json!({"game": GAME, "lines": 2, "time": 0.3}));
    assert_eq!(analysis.status, 200);
    assert_eq!(analysis.header("content-type"), Some("text/event-stream"));
    let analysed = events(&analysis.body);
    assert!(analysed.iter().any(|(name, _)| name == "info"), "{}", analysis.body);
    let (last, data) = analysed.last().unwrap();
    assert_eq!(last, "done");
    assert_eq!(data["lines"].as_array().unwrap().len(), 2);
    let chance = data["lines"][0]["win_chance"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&chance));
    server
        .post("/api/analyse", &json!({"game": GAME, "lines": 9}))
        .error(400);
    server
        .post("/api/analyse", &json!({"game": "Base;InProgress;White[2];wS1;wS2"}))
        .error(422);

    let review = server.post("/api/review", &json!({"game": GAME, "depth": 1}));
    assert_eq!(review.status, 200);
    let judged = events(&review.body);
    let plies: Vec<&Value> = judged.iter().filter(|(n, _)| n == "ply").map(|(_, d)| d).collect();
    assert_eq!(plies.len(), 6, "{}", review.body);
    assert_eq!(plies[0]["move"], "wS1");
    let (last, summary) = judged.last().unwrap();
    assert_eq!(last, "done");
    assert_eq!(summary["reviewed"], 6);
    server.post("/api/review", &json!({"game": "Base"})).error(422);
    server
        .post("/api/review", &json!({"game": GAME, "depth": 99}))
        .error(400);
}

/// The puzzle routes: the built-in set listed and filtered, a puzzle solved move by move, a wrong move's
/// refutation, a hint and the solution, a puzzle file read, a game's marked moves that are no puzzles.
#[test]
fn puzzles_are_listed_judged_and_read() {
    let server = Server::start();
    let list = server.post("/api/puzzles", &json!({"per_page": 5})).json();
    let total = list["total"].as_u64().unwrap();
    assert!(total > 0 && list["set"] == total, "{list}");
    assert_eq!(list["puzzles"].as_array().unwrap().len(), 5);
    assert_eq!(list["game_types"].as_array().unwrap().len(), 8);
    let win = server
        .post(
            "/api/puzzles",
            &json!({"kind": "win", "min_rating": 900, "max_rating": 1500, "per_page": 50}),
        )
        .json();
    let records = win["puzzles"].as_array().unwrap();
    assert!(!records.is_empty(), "{win}");
    for record in records {
        let rating = record["rating"].as_u64().unwrap();
        assert!(record["kind"] == "win" && (900..=1500).contains(&rating), "{record}");
    }
    server.post("/api/puzzles", &json!({"theme": "nothing"})).error(400);
    server.post("/api/puzzles", &json!({"per_page": 500})).error(400);

    // A win solved move by move: each right move answered by the record's reply.
    let puzzle = records
        .iter()
        .find(|p| p["plies"].as_u64() >= Some(3))
        .unwrap_or(&records[0])
        .clone();
    let solution: Vec<String> = serde_json::from_value(puzzle["solution"].clone()).unwrap();
    let mut moves: Vec<String> = Vec::new();
    for (i, mv) in solution.iter().enumerate().step_by(2) {
        let answer = server
            .post(
                "/api/puzzles/move",
                &json!({"puzzle": puzzle, "moves": moves, "move": mv}),
            )
            .json();
        assert_eq!(answer["right"], true, "{answer}");
        let done = i + 1 >= solution.len();
        assert_eq!(answer["solved"], done, "{answer}");
        if !done {
            assert_eq!(answer["reply"], solution[i + 1].as_str(), "{answer}");
        }
        moves = serde_json::from_value(answer["moves"].clone()).unwrap();
    }
    assert_eq!(moves, solution);
    // Another first move is wrong, and its refutation told; nothing is played.
    let first = server.post("/api/position", &json!({"game": puzzle["game"]})).json();
    let other = legal_moves(&first).into_iter().find(|m| m != &solution[0]).unwrap();
    let wrong = server
        .post("/api/puzzles/move", &json!({"puzzle": puzzle, "move": other}))
        .json();
    assert_eq!(wrong["right"], false, "{wrong}");
    assert_eq!(wrong["tried"], other.as_str());
    assert_eq!(wrong["moves"], json!([]));
    let hint = server
        .post("/api/puzzles/help", &json!({"puzzle": puzzle, "what": "hint"}))
        .json();
    assert_eq!(hint["piece"], solution[0].split(' ').next().unwrap());
    let rest = server
        .post("/api/puzzles/help", &json!({"puzzle": puzzle, "what": "solution"}))
        .json();
    assert_eq!(rest["line"], json!(solution));
    server
        .post("/api/puzzles/move", &json!({"puzzle": puzzle, "move": "zz"}))
        .error(422);
    server
        .post("/api/puzzles/move", &json!({"puzzle": {"id": "x"}, "move": "wQ"}))
        .error(422);

    // A file of two records and a line that is none.
    let text = format!("{}\n{}\nnot a puzzle\n", puzzle, records.last().unwrap());
    let read = server.post("/api/puzzles/read", &json!({"text": text})).json();
    assert_eq!(read["puzzles"].as_array().unwrap().len(), 2);
    assert!(read["refused"][0].as_str().unwrap().starts_with("line 3: "), "{read}");
    server.post("/api/puzzles/read", &json!({"text": "nothing"})).error(422);
    // A game's marked moves that are no puzzles give none.
    let none = server
        .post("/api/puzzles/mistakes", &json!({"game": GAME, "plies": [1, 2, 99]}))
        .json();
    assert_eq!(none["puzzles"], json!([]));
}

/// Listening on an address other machines may reach is warned of; the loopback address is not.
#[test]
fn an_address_other_machines_may_reach_is_warned_of() {
    let warned = |listen: &str| {
        let mut child = Waggle::new(["web", "--listen", listen]).spawn();
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout piped"))
            .read_line(&mut first)
            .expect("the address line");
        let _ = child.kill();
        let _ = child.wait();
        let mut said = String::new();
        let _ = child.stderr.take().expect("stderr piped").read_to_string(&mut said);
        assert!(first.contains("http://"), "{first}");
        said.contains("warning: listening on")
    };
    assert!(warned("0.0.0.0:0"), "no warning on 0.0.0.0");
    assert!(!warned("127.0.0.1:0"), "a warning on 127.0.0.1");
}

#[test]
fn only_this_server_s_own_pages_may_use_it() {
    let server = Server::start();
    // A browser is shown a page that names the flag that lets the name in; a script gets the same as JSON.
    let rebound = send(server.addr, "GET", "/", &[("Host", "attacker.example:8080")], None);
    assert_eq!(rebound.status, 403);
    assert!(rebound.header("content-type").unwrap().starts_with("text/html"));
    assert!(
        rebound.body.contains("--allow-host attacker.example") && rebound.body.contains("attacker.example:8080"),
        "{}",
        rebound.body
    );
    let api = send(
        server.addr,
        "GET",
        "/api/info",
        &[("Host", "attacker.example:8080")],
        None,
    )
    .error(403);
    assert!(api.contains("--allow-host"), "{api}");
    let body = br#"{"game": "Base"}"#;
    let other = [
        ("Host", server.host()),
        ("Origin", "http://attacker.example".to_string()),
        ("Content-Type", "application/json".to_string()),
    ];
    let other: Vec<(&str, &str)> = other.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let refused = send(server.addr, "POST", "/api/position", &other, Some(body)).error(403);
    assert!(refused.contains("attacker.example"), "{refused}");
    let port = server.addr.port().to_string();
    let named = format!("localhost:{port}");
    let own = [
        ("Host", named.clone()),
        ("Origin", format!("http://{named}")),
        ("Content-Type", "application/json".to_string()),
    ];
    let own: Vec<(&str, &str)> = own.iter().map(|(n, v)| (*n, v.as_str())).collect();
    assert_eq!(send(server.addr, "POST", "/api/position", &own, Some(body)).status, 200);
}

/// Listening on every interface (to play from a tablet on the same network), the server answers to the machine's
/// own addresses and names: 127.0.0.1, localhost and [::1], the address a request came in by, the host name; not
/// to another name.
#[test]
fn every_interface_answers_to_the_machine_s_own_addresses() {
    let (child, url) = Waggle::new(["web", "--listen", "0.0.0.0:0"]).serve();
    let port: u16 = url.trim_end_matches('/').rsplit(':').next().unwrap().parse().unwrap();
    let server = Server {
        child,
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
    };
    let mut hosts = vec![format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    if let Ok(name) = std::fs::read_to_string("/proc/sys/kernel/hostname") {
        let name = name.trim();
        if !name.is_empty() && name != "localhost" {
            hosts.push(format!("{name}:{port}"));
            hosts.push(format!("{name}.local:{port}"));
        }
    }
    for host in &hosts {
        let origin = format!("http://{host}");
        let headers = [
            ("Host", host.as_str()),
            ("Origin", origin.as_str()),
            ("Content-Type", "application/json"),
        ];
        let reply = send(
            server.addr,
            "POST",
            "/api/position",
            &headers,
            Some(br#"{"game": "Base"}"#),
        );
        assert_eq!(reply.status, 200, "{host}: {}", reply.body);
    }
    send(
        server.addr,
        "GET",
        "/",
        &[("Host", &format!("attacker.example:{port}"))],
        None,
    );
    let refused = send(
        server.addr,
        "GET",
        "/api/status",
        &[("Host", &format!("10.1.2.3:{port}"))],
        None,
    );
    refused.error(403);
}

/// A pooled engine starts every request with the options that request asked for: a level set by one visitor
/// does not carry over to the next (who asks for none, so full strength: a search to the depth asked for).
#[test]
fn a_level_set_by_one_visitor_does_not_carry_over() {
    let server = Server::start();
    let engines = server.get("/api/info").json()["engines"].as_u64().unwrap();
    // Every engine of the pool plays a move at level 1 (a random move, or a search capped at 10 nodes: the node
    // that goes past the cap ends the search and is counted, so 11 at most, as tests/levels.rs allows) ...
    for _ in 0..engines * 2 {
        let weak = server
            .post("/api/bestmove", &json!({"game": GAME, "level": 1, "depth": 3}))
            .json();
        assert!(
            weak["nodes"].as_u64().unwrap() <= 11,
            "level 1 searches 10 nodes and the one past the cap at most: {weak}"
        );
    }
    // ... and the next visitors, on the same engines, get full strength.
    for _ in 0..engines * 2 {
        let full = server.post("/api/bestmove", &json!({"game": GAME, "depth": 3})).json();
        assert_eq!(full["depth"], 3, "{full}");
        assert!(full["nodes"].as_u64().unwrap() > 20, "{full}");
    }
}

#[test]
fn searches_beyond_the_engines_wait_and_a_search_nobody_reads_ends() {
    let server = Server::start();
    let engines = server.get("/api/info").json()["engines"].as_u64().unwrap() as usize;
    let mut streams: Vec<Stream> = (0..engines)
        .map(|_| {
            let mut stream = Stream::open(&server, "/api/analyse", &json!({"game": GAME}));
            assert_eq!(stream.next_event().as_deref(), Some("started"));
            stream
        })
        .collect();
    let mut late = Stream::open(&server, "/api/analyse", &json!({"game": GAME}));
    assert_eq!(late.next_event().as_deref(), Some("waiting"));
    let status = server.status();
    assert_eq!(
        (status["running"].as_u64(), status["waiting"].as_u64()),
        (Some(engines as u64), Some(1))
    );
    assert!(status["built"].as_u64().unwrap() <= engines as u64, "{status}");
    // One reader leaves: its search ends, and the one that waited starts.
    drop(streams.pop());
    assert_eq!(late.next_event().as_deref(), Some("started"));
    drop(streams);
    drop(late);
    assert!(
        within(Duration::from_secs(5), || server.status()["running"] == 0),
        "every search ended once nobody read it: {}",
        server.status()
    );
    assert_eq!(
        server.status()["built"].as_u64(),
        Some(engines as u64),
        "engines are reused"
    );
}

/// Connections that sit idle (after an answer, or in the middle of a head) do not keep a new visitor out.
/// Past 64 searches waiting for an engine, a search is told the server is busy (503) instead of joining the queue:
/// a stream too, before its answer starts.
#[test]
fn past_sixty_four_waiting_searches_the_server_is_busy() {
    let server = Server::start();
    let engines = server.get("/api/info").json()["engines"].as_u64().unwrap() as usize;
    let streams: Vec<Stream> = (0..engines + 64)
        .map(|i| {
            let mut stream = Stream::open(&server, "/api/analyse", &json!({"game": GAME}));
            let first = if i < engines { "started" } else { "waiting" };
            assert_eq!(stream.next_event().as_deref(), Some(first), "search {i}");
            stream
        })
        .collect();
    assert_eq!(server.status()["waiting"], 64);
    let busy = server
        .post("/api/bestmove", &json!({"game": GAME, "time": 0.1}))
        .error(503);
    assert!(!busy.is_empty());
    server.post("/api/analyse", &json!({"game": GAME})).error(503);
    server
        .post("/api/review", &json!({"game": GAME, "depth": 1}))
        .error(503);
    drop(streams);
    assert!(
        within(Duration::from_secs(5), || server.status()["running"] == 0),
        "every search ended: {}",
        server.status()
    );
}

/// A search request that leaves while it waits for an engine gives its place in the queue back: 70 requests sent
/// and dropped while every engine is busy must not leave the server busy for good (they once did, at 64 waiting).
#[test]
fn searches_that_leave_while_they_wait_give_their_places_back() {
    let server = Server::start();
    let engines = server.get("/api/info").json()["engines"].as_u64().unwrap() as usize;
    let mut busy: Vec<Stream> = (0..engines)
        .map(|_| {
            let mut stream = Stream::open(&server, "/api/analyse", &json!({"game": GAME}));
            assert_eq!(stream.next_event().as_deref(), Some("started"));
            stream
        })
        .collect();
    let request = |time: f64| {
        let body = json!({"game": GAME, "time": time}).to_string();
        let mut stream = TcpStream::connect(server.addr).unwrap();
        write!(
            stream,
            "POST /api/bestmove HTTP/1.1\r\nConnection: close\r\nHost: {host}\r\nOrigin: http://{host}\r\nContent-Type: \
             application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len(),
            host = server.host(),
        )
        .unwrap();
        stream
    };
    for round in 0..2 {
        let left: Vec<TcpStream> = (0..70).map(|_| request(4.0)).collect();
        assert!(
            within(Duration::from_secs(10), || server.status()["waiting"] == 64),
            "round {round}: {}",
            server.status()
        );
        drop(left);
        assert!(
            within(Duration::from_secs(10), || server.status()["waiting"] == 0),
            "round {round}: the requests that left still hold their places: {}",
            server.status()
        );
    }
    // The queue takes a new request, which is answered once an engine is free.
    let mut late = request(0.05);
    assert!(within(Duration::from_secs(10), || server.status()["waiting"] == 1));
    drop(busy.pop());
    late.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut raw = Vec::new();
    let _ = late.read_to_end(&mut raw);
    let reply = parse(&raw);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.json()["move"].is_string(), "{}", reply.body);
}

#[test]
fn idle_connections_do_not_keep_visitors_out() {
    let server = Server::start();
    let idle: Vec<TcpStream> = (0..300)
        .map(|i| {
            let mut stream = TcpStream::connect(server.addr).unwrap();
            if i % 2 == 0 {
                write!(stream, "GET / HTTP/1.1\r\nHost: {}\r\n", server.host()).unwrap();
            }
            stream
        })
        .collect();
    for _ in 0..5 {
        assert_eq!(server.get("/").status, 200);
        assert_eq!(server.post("/api/position", &json!({"game": GAME})).status, 200);
    }
    drop(idle);
}

#[test]
fn ctrl_c_ends_every_search_and_the_server() {
    let mut server = Server::start();
    let mut stream = Stream::open(&server, "/api/analyse", &json!({"game": GAME}));
    assert_eq!(stream.next_event().as_deref(), Some("started"));
    // SAFETY: kill only sends a signal to the child this test started.
    unsafe {
        libc::kill(server.child.id() as i32, libc::SIGINT);
    }
    let ended = within(Duration::from_secs(10), || {
        matches!(server.child.try_wait(), Ok(Some(_)))
    });
    assert!(ended, "the server exited after Ctrl-C");
    while stream.next_event().is_some() {}
}

/// The long run: 1,000 idle connections (half after an answer, half in the middle of a head) and 16 clients asking
/// for moves for 30 s, while a visitor asks for the page and a position every 100 ms: every visitor is answered.
/// `benches/http_load.py` measures the same with figures (docs/web.md).
#[test]
#[ignore]
fn a_thousand_idle_connections_and_sixteen_thinking_clients() {
    let server = Server::start();
    let addr = server.addr;
    let idle: Vec<TcpStream> = (0..1000)
        .map(|i| {
            let mut stream = TcpStream::connect(addr).unwrap();
            if i % 2 == 0 {
                write!(stream, "GET / HTTP/1.1\r\nHost: {addr}\r\n").unwrap();
            }
            stream
        })
        .collect();
    let until = Instant::now() + Duration::from_secs(30);
    let clients: Vec<_> = (0..16)
        .map(|_| {
            thread::spawn(move || {
                let mut answered = 0;
                while Instant::now() < until {
                    let body = json!({"game": GAME, "time": 0.7}).to_string();
                    let host = addr.to_string();
                    let headers = [("Host", host.as_str()), ("Content-Type", "application/json")];
                    let reply = send(addr, "POST", "/api/bestmove", &headers, Some(body.as_bytes()));
                    assert!(reply.status == 200 || reply.status == 503, "{}", reply.body);
                    answered += 1;
                }
                answered
            })
        })
        .collect();
    let mut worst = Duration::ZERO;
    while Instant::now() < until {
        let since = Instant::now();
        assert_eq!(server.get("/").status, 200);
        assert_eq!(server.post("/api/position", &json!({"game": GAME})).status, 200);
        worst = worst.max(since.elapsed());
        thread::sleep(Duration::from_millis(100));
    }
    let answered: usize = clients.into_iter().map(|c| c.join().unwrap()).sum();
    println!(
        "visitors: worst {} ms; thinking clients: {answered} answers",
        worst.as_millis()
    );
    drop(idle);
}
