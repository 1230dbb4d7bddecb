//! Fuzzing `waggle web` with what a hostile visitor might send: random and real paths, every method and some that
//! are none, Hosts and Origins of its own and of others (or none), Content-Types right and wrong, lying and huge
//! Content-Lengths, broken chunking, bodies of random bytes, of JSON cut short, of the routes' own fields with the
//! wrong types or values out of range, deep nesting; sent whole, a byte at a time with pauses, or with the
//! client's side shut after the request (half-closed), or left before the answer. Every request that the client
//! waits for gets a clear status (never 500, Waggle's own fault), an API error has a JSON body that says what is
//! wrong, and the server goes on: between rounds, and at the end, the page and `/api/info` are served, and no
//! search is left running or waiting.
//!
//! A short run is part of `cargo test`; the long one is ignored: `cargo test --test fuzz_web -- --ignored`.

mod common;

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::Child;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

use common::Waggle;

/// A middle game of Base+MLP, White to move.
const GAME: &str = "Base+MLP;InProgress;White[4];wS1;bP wS1-;wQ -wS1;bQ bP-;wA1 wQ/;bB1 bQ\\";

/// The statuses a request may get: what the server answers, and hyper's refusals of what is not HTTP.
const CLEAR: [u16; 12] = [200, 400, 403, 404, 405, 408, 413, 415, 422, 431, 501, 503];

/// The running server, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start() -> Server {
        // A small table and one thread: the fuzz asks for many short searches.
        let (child, addr) = Waggle::new(["web", "--listen", "127.0.0.1:0", "--max-hash-size", "4"]).serve_at();
        Server { child, addr }
    }

    /// A plain GET with this server's Host, its status and body.
    fn get(&self, path: &str) -> (u16, String) {
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        let raw = exchange(self.addr, request.as_bytes(), Delivery::Whole, Duration::from_secs(30));
        let (status, body) = split(&raw).unwrap_or_else(|| panic!("no answer to GET {path}"));
        (status, body)
    }

    /// Check that the server still serves, and that the searches the fuzz started have ended.
    fn check_alive(&self) {
        let (status, page) = self.get("/");
        assert_eq!(status, 200, "the page after the fuzz");
        assert!(page.contains("<html"), "the page: {page}");
        let (status, info) = self.get("/api/info");
        assert_eq!(status, 200, "{info}");
        let since = Instant::now();
        loop {
            let (_, status) = self.get("/api/status");
            let status: Value = serde_json::from_str(&status).unwrap();
            if status["waiting"] == 0 && status["running"] == 0 {
                break;
            }
            assert!(
                since.elapsed() < Duration::from_secs(30),
                "searches left behind by the fuzz: {status}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How the bytes of a request go out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Delivery {
    /// All at once, then wait for the answer.
    Whole,
    /// A few bytes at a time with short pauses.
    Slow,
    /// All at once, the client's sending side then shut (half-closed), then wait for the answer.
    HalfClosed,
    /// Sent, and the client leaves without reading.
    Leave,
}

/// Send `request` as `delivery` says and read what comes back within `limit` (nothing when the client leaves).
fn exchange(addr: SocketAddr, request: &[u8], delivery: Delivery, limit: Duration) -> Vec<u8> {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let sent = match delivery {
        Delivery::Slow => request.chunks(97).try_for_each(|piece| {
            std::thread::sleep(Duration::from_millis(3));
            stream.write_all(piece)
        }),
        _ => stream.write_all(request),
    };
    if delivery == Delivery::Leave {
        return Vec::new();
    }
    if delivery == Delivery::HalfClosed {
        let _ = stream.shutdown(Shutdown::Write);
    }
    // The server may refuse and close before the whole request is written; what it answered is still read.
    let _ = sent;
    let mut raw = Vec::new();
    let since = Instant::now();
    let mut buffer = [0; 16 * 1024];
    while since.elapsed() < limit {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => {
                raw.extend_from_slice(&buffer[..n]);
                // A stream of events goes on: its head and first events are enough.
                if raw.len() > 64 * 1024 || is_stream(&raw) && raw.windows(4).any(|w| w == b"\n\n\r\n") {
                    break;
                }
                if complete(&raw, request.starts_with(b"HEAD ")) {
                    break;
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if is_stream(&raw) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    raw
}

/// `text` without the interim answers before the final one (`100 Continue`, to a request that said
/// `Expect: 100-continue`).
fn final_answer(text: &str) -> &str {
    let mut text = text;
    while text.starts_with("HTTP/1.1 1") {
        match text.split_once("\r\n\r\n") {
            Some((_, rest)) => text = rest,
            None => return "",
        }
    }
    text
}

/// Whether `raw` holds a whole response: its head, and as much body as its Content-Length says (none for a HEAD).
fn complete(raw: &[u8], head_only: bool) -> bool {
    let text = String::from_utf8_lossy(raw);
    let Some((head, body)) = final_answer(&text).split_once("\r\n\r\n") else {
        return false;
    };
    if head_only {
        return true;
    }
    head.lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())
                .flatten()
        })
        .is_some_and(|length| body.len() >= length)
}

fn is_stream(raw: &[u8]) -> bool {
    String::from_utf8_lossy(raw).contains("text/event-stream")
}

/// The status and body of the first response, if one came (a request that left bytes of its own unread, as one
/// whose Content-Length says less than it sent, may get a second answer after it).
fn split(raw: &[u8]) -> Option<(u16, String)> {
    let text = String::from_utf8_lossy(raw);
    let text = final_answer(&text);
    let rest = text
        .strip_prefix("HTTP/1.1 ")
        .or_else(|| text.strip_prefix("HTTP/1.0 "))?;
    let status = rest.get(..3)?.parse().ok()?;
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((text, ""));
    let length = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())
            .flatten()
    });
    let body = match length {
        Some(length) => body.get(..length).unwrap_or(body),
        None => body,
    };
    Some((status, body.to_string()))
}

/// A random path: a real route or file, one of the page's files under another name, or junk.
fn path(rng: &mut StdRng) -> String {
    const ROUTES: [&str; 19] = [
        "/",
        "/index.html",
        "/main.js",
        "/style.css",
        "/api/info",
        "/api/status",
        "/api/position",
        "/api/play",
        "/api/undo",
        "/api/import",
        "/api/export",
        "/api/bestmove",
        "/api/analyse",
        "/api/review",
        "/api/puzzles",
        "/api/puzzles/read",
        "/api/puzzles/move",
        "/api/puzzles/help",
        "/api/puzzles/mistakes",
    ];
    match rng.gen_range(0..10) {
        0..=5 => ROUTES.choose(rng).unwrap().to_string(),
        6 => format!("{}?{}", ROUTES.choose(rng).unwrap(), junk_text(rng, 40)),
        7 => [
            "/../../etc/passwd",
            "/api/",
            "/api//play",
            "/%2e%2e/",
            "//",
            "/API/INFO",
            "/api/play/",
        ]
        .choose(rng)
        .unwrap()
        .to_string(),
        8 => format!("/{}", "a".repeat(rng.gen_range(1..20_000))),
        _ => format!("/{}", junk_text(rng, 60)),
    }
}

/// Printable junk that may stand in a request line or a header (no spaces, no line breaks).
fn junk_text(rng: &mut StdRng, most: usize) -> String {
    (0..rng.gen_range(0..most))
        .map(|_| char::from(rng.gen_range(b'!'..=b'~')))
        .collect()
}

/// A puzzle record (a win at once for White, from a self-play game), whole or damaged.
fn puzzle(rng: &mut StdRng) -> Value {
    let mut record = json!({
        "id": "ca85bf57e93c61bb", "game_type": "Base+MLP",
        "game": "Base+MLP;InProgress;White[18];wP;bS1 -wP;wL wP/;bG1 \\bS1;wM wL\\;bP bG1/;wQ wP\\;bQ \\bP;wA1 wM\\;\
                 bA1 /bS1;wM -bQ;bB1 bA1\\;wA1 /bB1;bA2 -bG1;wB1 \\wM;bA2 -wB1;wB2 /wM;bM /bA2;wB2 wM;bA3 bQ/;wB2 bQ;\
                 bM wQ-;wG1 /wM;bB2 bM\\;wG1 -bA3;bB2 wQ\\;wA2 \\wG1;bM wQ;wA1 bA3\\;bA3 wL/;wG2 \\wA1;wA1 bP\\;\
                 wA2 wG2\\;bS2 bB2/",
        "to_move": "White", "kind": "win", "plies": 1, "solution": ["wB2 wM\\"], "defences": [],
        "themes": ["surround"], "rating": 800, "level": 1, "source": {"index": 1, "ply": 34},
    });
    match rng.gen_range(0..6) {
        0 => record["solution"] = json!(["wQ"]),
        1 => record["game"] = json!("Base+MLP"),
        2 => record["plies"] = json!(0),
        3 => record["defences"] = json!([{"ply": 9, "line": ["wS1"]}]),
        4 => record = json!("not a record"),
        _ => {}
    }
    record
}

/// A random body: the fields a route takes, right or wrong, or something that is no JSON at all.
fn body(rng: &mut StdRng) -> Vec<u8> {
    let game = [
        json!(GAME),
        json!("Base+MLP"),
        json!("Base;InProgress;White[2];wS1;bS1 -wS1"),
        json!("Base;InProgress;White[2];wS1;bQ wS1-;wQ bQ"),
        json!("Chess"),
        json!(""),
        json!(7),
        json!(null),
        json!(["Base"]),
        json!(format!(
            "Base;InProgress;White[1];{}",
            "wS1;".repeat(rng.gen_range(1..400))
        )),
    ];
    let value = [
        json!(1),
        json!(0),
        json!(-1),
        json!(3),
        json!(1e308),
        json!(0.05),
        json!("1"),
        json!(null),
        json!(true),
        json!({"white": {"remaining": 0.5}, "black": {"remaining": 0.5}}),
        json!({"white": {"remaining": -5, "increment": 1e9}}),
    ];
    match rng.gen_range(0..12) {
        0..=6 => {
            let mut fields = serde_json::Map::new();
            if rng.gen_bool(0.9) {
                fields.insert("game".into(), game.choose(rng).unwrap().clone());
            }
            for name in [
                "move",
                "plies",
                "level",
                "time",
                "depth",
                "nodes",
                "clock",
                "lines",
                "text",
                "white",
                "bogus",
                "puzzle",
                "moves",
                "what",
                "kind",
                "theme",
                "page",
                "per_page",
                "min_rating",
            ] {
                if rng.gen_bool(0.2) {
                    let field = match name {
                        "move" => json!(["wS1", "bS1 wS1-", "pass", "wQ", "zz", "", "wB2 wM\\"]
                            .choose(rng)
                            .unwrap()),
                        "text" => game.choose(rng).unwrap().clone(),
                        "puzzle" => puzzle(rng),
                        "moves" => [json!([]), json!(["wB2 wM\\"]), json!(["wS1"]), json!(["zz"])]
                            .choose(rng)
                            .unwrap()
                            .clone(),
                        "what" => json!(["hint", "solution", "all", ""].choose(rng).unwrap()),
                        "kind" => json!(["win", "defend", "draw"].choose(rng).unwrap()),
                        "theme" => json!(["surround", "gate", "nothing"].choose(rng).unwrap()),
                        "plies" if rng.gen_bool(0.5) => json!([1, 32, 33, 1000, -1]),
                        _ => value.choose(rng).unwrap().clone(),
                    };
                    fields.insert(name.into(), field);
                }
            }
            // Searches kept short: a request that would think for long is cut to a depth.
            if rng.gen_bool(0.8) {
                fields.insert("depth".into(), json!(1));
                fields.remove("time");
                fields.remove("nodes");
                fields.remove("clock");
            }
            Value::Object(fields).to_string().into_bytes()
        }
        7 => {
            let text = json!({"game": GAME, "move": "wS1"}).to_string();
            text.as_bytes()[..rng.gen_range(0..text.len())].to_vec()
        }
        8 => format!(
            "{}1{}",
            "[".repeat(rng.gen_range(1..5000)),
            "]".repeat(rng.gen_range(0..5000))
        )
        .into_bytes(),
        9 => (0..rng.gen_range(0..3000)).map(|_| rng.gen()).collect(),
        10 => Vec::new(),
        _ => format!("{{\"game\": \"{GAME}\", \"game\": 1}}").into_bytes(),
    }
}

/// One random request, as bytes.
fn request(rng: &mut StdRng, host: &str) -> Vec<u8> {
    let method = *[
        "GET", "GET", "POST", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE", "BREW",
        "G\u{e9}T", "",
    ]
    .choose(rng)
    .unwrap();
    let version = *[
        "HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/9", "junk",
    ]
    .choose(rng)
    .unwrap();
    let mut head = format!("{method} {} {version}\r\n", path(rng));
    match rng.gen_range(0..10) {
        0 => {}
        1 => head.push_str("Host: attacker.example\r\n"),
        2 => head.push_str(&format!("Host: {host}\r\nHost: attacker.example\r\n")),
        3 => head.push_str(&format!("Host: {}\r\n", junk_text(rng, 300))),
        _ => head.push_str(&format!("Host: {host}\r\n")),
    }
    match rng.gen_range(0..6) {
        0 => head.push_str("Origin: http://attacker.example\r\n"),
        1 => head.push_str("Origin: null\r\n"),
        2 | 3 => head.push_str(&format!("Origin: http://{host}\r\n")),
        _ => {}
    }
    match rng.gen_range(0..8) {
        0 => head.push_str("Content-Type: text/plain\r\n"),
        1 => head.push_str("Content-Type: application/x-www-form-urlencoded\r\n"),
        2 => {}
        _ => head.push_str("Content-Type: application/json\r\n"),
    }
    for _ in 0..rng.gen_range(0..4) {
        match rng.gen_range(0..6) {
            0 => head.push_str(&format!(
                "X-{}: {}\r\n",
                junk_text(rng, 20).replace(':', ""),
                junk_text(rng, 200)
            )),
            1 => head.push_str(&format!("X-Long: {}\r\n", "v".repeat(rng.gen_range(1..40_000)))),
            2 => head.push_str("Expect: 100-continue\r\n"),
            3 => head.push_str("Connection: keep-alive\r\n"),
            4 => head.push_str("Accept: text/html\r\n"),
            _ => head.push_str(&format!("{}\r\n", junk_text(rng, 80))),
        }
    }
    let body = body(rng);
    let mut bytes = head.into_bytes();
    match rng.gen_range(0..10) {
        0 => {
            // Chunked, the chunks maybe lying about their sizes.
            bytes.extend_from_slice(b"Transfer-Encoding: chunked\r\n\r\n");
            for piece in body.chunks(rng.gen_range(1..200)) {
                let size = if rng.gen_bool(0.1) {
                    piece.len() + 7
                } else {
                    piece.len()
                };
                bytes.extend_from_slice(format!("{size:x}\r\n").as_bytes());
                bytes.extend_from_slice(piece);
                bytes.extend_from_slice(b"\r\n");
            }
            if rng.gen_bool(0.8) {
                bytes.extend_from_slice(b"0\r\n\r\n");
            }
        }
        1 => {
            // A length that lies: more than is sent (the server waits for the rest; the body timeout is long, so
            // the client leaves or shuts its side) or less.
            let length = if rng.gen_bool(0.5) {
                body.len() + 10
            } else {
                body.len() / 2
            };
            bytes.extend_from_slice(format!("Content-Length: {length}\r\n\r\n").as_bytes());
            bytes.extend_from_slice(&body);
        }
        2 => {
            bytes.extend_from_slice(b"Content-Length: 99999999999999999999\r\n\r\n");
            bytes.extend_from_slice(&body);
        }
        3 => bytes.extend_from_slice(b"Content-Length: -3\r\n\r\n"),
        4 => {
            bytes.extend_from_slice(b"Content-Length: 300000\r\n\r\n");
            bytes.extend(std::iter::repeat_n(b'{', 300_000));
        }
        _ => {
            bytes.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
            bytes.extend_from_slice(&body);
        }
    }
    bytes
}

/// Send `count` random requests, seeded by `seed`, and check every answer; then that the server goes on.
fn fuzz(server: &Server, seed: u64, count: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let host = server.addr.to_string();
    let mut answered = 0;
    for index in 0..count {
        let bytes = request(&mut rng, &host);
        let delivery = *[
            Delivery::Whole,
            Delivery::Whole,
            Delivery::Whole,
            Delivery::Slow,
            Delivery::HalfClosed,
            Delivery::Leave,
        ]
        .choose(&mut rng)
        .unwrap();
        // A body that lies about its length is waited for: a client that waits gives up after a while.
        let limit = Duration::from_secs(if delivery == Delivery::HalfClosed { 5 } else { 3 });
        let raw = exchange(server.addr, &bytes, delivery, limit);
        let shown = || String::from_utf8_lossy(&bytes[..bytes.len().min(600)]).to_string();
        if raw.is_empty() {
            // Left before the answer, a body still awaited when the client gave up, or a connection hyper closed
            // on junk it could not read as HTTP.
            continue;
        }
        let Some((status, body)) = split(&raw) else {
            panic!(
                "seed {seed}, request {index} ({delivery:?}): not an HTTP answer: {:?}\nrequest: {}",
                String::from_utf8_lossy(&raw[..raw.len().min(300)]),
                shown()
            );
        };
        assert!(
            CLEAR.contains(&status),
            "seed {seed}, request {index} ({delivery:?}): status {status}: {body}\nrequest: {}",
            shown()
        );
        let text = String::from_utf8_lossy(&raw);
        let text = final_answer(&text);
        // A HEAD gets the head alone.
        if status >= 400 && text.contains("application/json") && !bytes.starts_with(b"HEAD ") {
            let error: Value = serde_json::from_str(body.trim()).unwrap_or_else(|e| {
                panic!(
                    "seed {seed}, request {index}: an error that is not JSON ({e}): {body}\nrequest: {}",
                    shown()
                )
            });
            let message = error["error"].as_str().unwrap_or("");
            assert!(!message.is_empty(), "seed {seed}, request {index}: no message: {body}");
        }
        answered += 1;
        if index % 100 == 99 {
            server.check_alive();
        }
    }
    assert!(answered > count / 3, "seed {seed}: only {answered} of {count} answered");
    server.check_alive();
}

#[test]
fn hostile_requests_get_a_clear_status_and_the_server_goes_on() {
    let server = Server::start();
    fuzz(&server, 1, 250);
}

#[test]
#[ignore]
fn long_fuzz_of_the_server() {
    let server = Server::start();
    for seed in 0..20 {
        fuzz(&server, 100 + seed, 1000);
    }
}
