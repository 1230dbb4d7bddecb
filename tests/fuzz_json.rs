//! Fuzzing the JSON API with what a broken or hostile game core might send: random bytes, valid requests cut
//! short, deep nesting, huge numbers, every field given the wrong type or taken away, boards that break the One
//! Hive rule, duplicated keys, and valid requests among them. Every request gets exactly one response line (an
//! Error for the bad ones), both from `respond` and through the real `waggle json` process, which keeps serving:
//! a Greetings after the junk is still answered.
//!
//! Over HTTP (`waggle json --listen`), the same bodies go in POSTs framed every way HTTP/1.1 allows, among junk of
//! HTTP's own: wrong methods, missing, wrong, lying and huge Content-Lengths, bodies and heads over the size
//! limits, broken chunking, garbage request lines and headers, other versions of HTTP, unknown expectations,
//! requests cut short, several requests on one connection, from several connections at once, clients that stop
//! writing or leave before their answer. Every complete request gets exactly one response in time and in order,
//! with a JSON body (200 for what Waggle answers; 405, 408, 413 or 400 for what it refuses), except where hyper,
//! which reads the HTTP, cannot parse a request: Waggle never sees it, and hyper's refusal (400 or 431) has an
//! empty body. A response after which the server closes the connection says so, and nothing follows it; one that
//! does not, leaves the connection serving. Past its limits (open files, the time a head or body may take) the
//! server refuses or closes what is too much and keeps serving, with no connection or file left open; idle
//! connections, however many, never keep a new visitor out.
//!
//! A short run is part of `cargo test`; the long ones are ignored: `cargo test --test fuzz_json -- --ignored`.

mod common;

use std::io::{self, BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use waggle::json::{game_state_of, respond, Thinking};
use waggle::{GameType, Position};

use common::{Running, Waggle};

/// What a fuzzed request must get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// An Error response.
    Error,
    /// A response of this type.
    Kind(&'static str),
    /// Any response of the API.
    Any,
}

/// Valid requests to start from: Greetings, and Choose Turns of random positions of every game type, each due
/// 30 ms after it is sent.
fn valid_requests(rng: &mut StdRng) -> Vec<Value> {
    let mut requests = vec![json!({"request_type": "Greetings", "request_id": "hello", "system_version": "0.1.0"})];
    for (i, game_type) in GameType::ALL.into_iter().cycle().take(48).enumerate() {
        let mut pos = Position::new(game_type);
        for _ in 0..rng.gen_range(0..40) {
            let moves = pos.legal_moves();
            if pos.state().is_over() || moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
        requests.push(json!({
            "request_type": "Choose Turn",
            "request_id": format!("r{i}"),
            "game_id": i,
            "request_timestamp": 1_000,
            "response_deadline": 1_030,
            "game_state": game_state_of(&pos),
        }));
    }
    requests
}

/// Values of every JSON type, some of them awkward.
fn odd_value(rng: &mut StdRng) -> Value {
    match rng.gen_range(0..16) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(0),
        3 => json!(-1),
        4 => json!(1.5),
        5 => json!(1e300),
        6 => json!(u64::MAX),
        7 => json!(""),
        8 => json!("Queen Bee"),
        9 => json!("0,0"),
        10 => json!([]),
        11 => json!([1, "two", null]),
        12 => json!({}),
        13 => json!({"color": "White", "type": "Beetle"}),
        14 => Value::String("é".repeat(rng.gen_range(1..5000))),
        _ => json!(-0.0),
    }
}

/// Every path into `value` (object keys and array indices), up to a depth.
fn paths(value: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    if prefix.len() > 6 {
        return;
    }
    let children: Vec<(Value, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (json!(k), v)).collect(),
        Value::Array(items) => items.iter().enumerate().map(|(i, v)| (json!(i), v)).collect(),
        _ => return,
    };
    for (key, child) in children {
        prefix.push(key);
        out.push(prefix.clone());
        paths(child, prefix, out);
        prefix.pop();
    }
}

/// `value` with the thing at `path` replaced (or taken away, for `None`).
fn replaced(mut value: Value, path: &[Value], with: Option<Value>) -> Value {
    let (last, parents) = path.split_last().expect("a path");
    let mut at = &mut value;
    for key in parents {
        at = match key {
            Value::String(k) => &mut at[k.as_str()],
            _ => &mut at[key.as_u64().unwrap_or(0) as usize],
        };
    }
    match (at, last, with) {
        (Value::Object(map), Value::String(k), None) => drop(map.remove(k)),
        (Value::Object(map), Value::String(k), Some(v)) => drop(map.insert(k.clone(), v)),
        (Value::Array(items), i, None) => drop(items.remove(i.as_u64().unwrap_or(0) as usize)),
        (Value::Array(items), i, Some(v)) => items[i.as_u64().unwrap_or(0) as usize] = v,
        _ => {}
    }
    value
}

/// One request a careless or hostile sender might send, and what it must get.
fn random_request(rng: &mut StdRng, valid: &[Value]) -> (Vec<u8>, Expect) {
    let base = valid.choose(rng).expect("valid requests").clone();
    let text = base.to_string();
    match rng.gen_range(0..9) {
        0 => {
            let bytes: Vec<u8> = (0..rng.gen_range(1..200)).map(|_| rng.gen()).collect();
            (bytes, Expect::Error)
        }
        1 => {
            let cut = rng.gen_range(0..text.len());
            (text.as_bytes()[..cut].to_vec(), Expect::Error)
        }
        2 => {
            let depth = rng.gen_range(129..100_000);
            let deep = match rng.gen_range(0..3) {
                0 => "[".repeat(depth),
                1 => format!("{}1{}", "[".repeat(depth), "]".repeat(depth)),
                _ => format!(
                    r#"{{"request_type": "Greetings", "request_id": {}}}"#,
                    "{\"a\":".repeat(depth)
                ),
            };
            (deep.into_bytes(), Expect::Error)
        }
        3 => {
            let huge = [
                "1e999999",
                "-1e400",
                "123456789012345678901234567890",
                "1.7976931348623157e309",
                "-0",
            ];
            let number = huge.choose(rng).unwrap();
            let field = ["request_id", "game_id", "request_type"].choose(rng).unwrap();
            let text = format!(r#"{{"{field}": {number}, "request_type": "Greetings"}}"#);
            (text.into_bytes(), Expect::Any)
        }
        4 | 5 => {
            let mut all = Vec::new();
            paths(&base, &mut Vec::new(), &mut all);
            let path = all.choose(rng).expect("fields");
            let timing = path.len() == 1 && matches!(path[0].as_str(), Some("request_timestamp" | "response_deadline"));
            // A deadline taken away or moved far off makes Waggle think for seconds: give it a wrong type.
            let with = if timing {
                Some(json!("soon"))
            } else if rng.gen_bool(0.2) {
                None
            } else {
                Some(odd_value(rng))
            };
            (replaced(base, path, with).to_string().into_bytes(), Expect::Any)
        }
        6 => {
            let pieces = &base["game_state"]["board"]["pieces"];
            let Some(stacks) = pieces.as_object().filter(|s| s.len() >= 2) else {
                return (
                    b"{\"request_type\": \"Greetings\", \"request_id\": 1}".to_vec(),
                    Expect::Kind("Greetings"),
                );
            };
            let (cell, stack) = stacks.iter().nth(rng.gen_range(0..stacks.len())).unwrap();
            let (x, y) = cell.split_once(',').unwrap();
            let far = format!("{},{y}", x.parse::<i64>().unwrap() + 60);
            let mut broken = base.clone();
            let map = broken["game_state"]["board"]["pieces"].as_object_mut().unwrap();
            let stack = stack.clone();
            map.remove(cell);
            map.insert(far, stack);
            (broken.to_string().into_bytes(), Expect::Error)
        }
        7 => {
            let dup = match rng.gen_range(0..3) {
                0 => r#"{"request_type": "Choose Turn", "request_type": "Greetings", "request_id": 3}"#.to_string(),
                1 => text.replacen('{', r#"{"request_id": [1, 2], "#, 1),
                _ => text.replacen(r#""pieces":{"#, r#""pieces":{"0,0":[],"#, 1),
            };
            (dup.into_bytes(), Expect::Any)
        }
        _ => {
            let kind = if base["request_type"] == "Greetings" {
                "Greetings"
            } else if base["game_state"]["game_over"] == true {
                "Error"
            } else {
                "Choose Turn"
            };
            (text.into_bytes(), Expect::Kind(kind))
        }
    }
}

/// Check one response line against what its request must get.
fn check(request: &[u8], response: &str, expect: Expect) {
    let shown = || String::from_utf8_lossy(&request[..request.len().min(300)]).into_owned();
    assert!(!response.contains('\n'), "two lines for {}", shown());
    let value: Value = serde_json::from_str(response).unwrap_or_else(|e| panic!("{e}: {response}"));
    let kind = value["response_type"]
        .as_str()
        .unwrap_or_else(|| panic!("no response_type: {response}"));
    assert!(["Greetings", "Choose Turn", "Error"].contains(&kind), "{response}");
    if kind == "Error" {
        let message = value["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "an Error without a message: {response}");
    }
    match expect {
        Expect::Error => assert_eq!(kind, "Error", "{} got {response}", shown()),
        Expect::Kind(wanted) => assert_eq!(kind, wanted, "{} got {response}", shown()),
        Expect::Any => {}
    }
}

fn fuzz_respond(seed: u64, count: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let valid = valid_requests(&mut rng);
    for _ in 0..count {
        let (request, expect) = random_request(&mut rng, &valid);
        let text = String::from_utf8_lossy(&request);
        check(&request, &respond(&text, &Thinking::default()), expect);
    }
}

/// Whether `waggle json` skips `line` without an answer (it is blank).
fn is_blank(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|t| t.trim().is_empty())
}

fn fuzz_process(seed: u64, count: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let valid = valid_requests(&mut rng);
    let mut sent: Vec<(Vec<u8>, Expect)> = Vec::new();
    for _ in 0..count {
        let (mut line, expect) = random_request(&mut rng, &valid);
        for byte in &mut line {
            if *byte == b'\n' {
                *byte = b' ';
            }
        }
        if line.last() == Some(&b'\r') || is_blank(&line) {
            line.push(b'x');
        }
        sent.push((line, expect));
    }
    sent.push((b"\xff\xfe not UTF-8".to_vec(), Expect::Error));
    sent.push((vec![b'['; waggle::json::MAX_LINE + 10], Expect::Error));
    let greetings = br#"{"request_type": "Greetings", "request_id": "after the junk"}"#.to_vec();
    sent.push((greetings, Expect::Kind("Greetings")));

    let mut process = Waggle::new(["json"]).start();
    let received = &process.stdout;
    let mut stdin = process.stdin.take().expect("stdin");
    let to_send: Vec<Vec<u8>> = sent.iter().map(|(line, _)| line.clone()).collect();
    let writer = thread::spawn(move || {
        for line in to_send {
            stdin.write_all(&line)?;
            stdin.write_all(b"\n")?;
        }
        stdin.flush()
        // Dropping stdin ends the input: the process answers what it has and exits.
    });
    for (i, (line, expect)) in sent.iter().enumerate() {
        let response = received
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no response to line {i} of {}", sent.len()));
        check(line, &response, *expect);
    }
    writer.join().expect("writer").expect("lines sent");
    let status = process.child.wait().expect("waggle json exits");
    assert!(status.success(), "{status}");
    assert!(
        received.recv_timeout(Duration::from_secs(5)).is_err(),
        "a line too many"
    );
}

#[test]
fn junk_gets_error_responses_from_respond() {
    fuzz_respond(1, 3000);
}

#[test]
fn junk_gets_one_response_a_line_from_the_process() {
    fuzz_process(2, 600);
}

#[test]
#[ignore]
fn long_fuzz_of_respond() {
    // A million requests.
    for seed in 0..100 {
        fuzz_respond(100 + seed, 10_000);
    }
}

#[test]
#[ignore]
fn long_fuzz_of_the_process() {
    // A million lines.
    for seed in 0..100 {
        fuzz_process(200 + seed, 10_000);
    }
}

/// The server's limits, as `src/json/http.rs` and `src/http/` set them: the tests below check them from outside.
/// Open connections have no limit of their own (the system's open files are one): more than the 256 the server
/// once took are held idle below, each still served.
const IDLE_CONNECTIONS: usize = 300;
const MAX_WAITING: usize = 64;
const MAX_HEAD: usize = 64 * 1024;
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
const BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a response may take: far more than a 30 ms think, and well under [`HEAD_TIMEOUT`], so that a
/// connection the server should have closed at once is caught still open, not closed by that timeout.
const PATIENCE: Duration = Duration::from_secs(5);

/// `waggle json --listen` on a port of its own, killed when dropped (also when a test fails).
struct HttpServer {
    process: Running,
    addr: SocketAddr,
}

impl HttpServer {
    fn start() -> HttpServer {
        HttpServer::spawn(Waggle::new(["json", "--listen", "127.0.0.1:0"]))
    }

    /// The server, allowed `files` open files at most (by the shell's `ulimit`), so that connections can run it
    /// out of them before it reaches its own limit of connections.
    fn start_with_files(files: usize) -> HttpServer {
        HttpServer::spawn(Waggle::new(["json", "--listen", "127.0.0.1:0"]).ulimit(&format!("-n {files}")))
    }

    fn spawn(waggle: Waggle) -> HttpServer {
        let process = waggle.start();
        // Notes on requests follow the listening line: `Running` reads them, so that the pipe never fills.
        let line = process.stderr.recv().unwrap_or_default();
        let addr = line
            .trim()
            .strip_prefix("waggle json: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .parse()
            .expect("an address");
        HttpServer { process, addr }
    }

    /// How many files the server has open, where the system says (Linux).
    fn open_files(&self) -> Option<usize> {
        let files = std::fs::read_dir(format!("/proc/{}/fd", self.process.child.id())).ok()?;
        Some(files.count())
    }

    /// Assert that the server still runs, has closed every connection it was sent (within [`PATIENCE`], as
    /// requests still being thought about end), so that it holds no more files than `files_before`, and answers a
    /// Greetings on a new connection.
    fn assert_serving(&mut self, files_before: Option<usize>) {
        assert!(matches!(self.process.child.try_wait(), Ok(None)), "the server exited");
        if let Some(before) = files_before {
            let since = Instant::now();
            loop {
                let now = self.open_files().unwrap_or(0);
                if now <= before {
                    break;
                }
                assert!(since.elapsed() < PATIENCE, "{now} files open, {before} before");
                thread::sleep(Duration::from_millis(50));
            }
        }
        Connection::open(self.addr).exchange(&greetings("after the junk", Then::Closed));
        assert!(matches!(self.process.child.try_wait(), Ok(None)), "the server exited");
    }
}

/// What one HTTP request must get back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply {
    /// One response with this status and a JSON body that `check` accepts.
    Json(u16, Expect),
    /// One refusal with this status, for a request hyper cannot parse: its own, with an empty body (Waggle never
    /// sees the request), or a JSON Error.
    Refusal(u16),
    /// Nothing, or a 400 refusal: hyper closes the connection without a word on the preface of HTTP/2 (and
    /// refuses it as a request line it cannot parse when it has read only part of it).
    Dropped,
    /// At most one response, with a JSON body: a request the client cut short.
    AtMostOne,
}

/// What becomes of the connection after a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Then {
    /// It stays open for the next request: the response must not say that it closes.
    Open,
    /// The server closes it after its answer, which says so (`Connection: close`, or HTTP/1.0 without
    /// keep-alive), and sends nothing more.
    Closed,
    /// The client stops writing once the request is sent, then reads to the end.
    HalfClosed,
    /// The client closes it at once, reading nothing.
    Abandoned,
}

/// One request: the bytes sent, what they must get, and what becomes of the connection.
struct Exchange {
    bytes: Vec<u8>,
    reply: Reply,
    then: Then,
}

impl Exchange {
    /// The start of the request, for failure messages.
    fn shown(&self) -> String {
        String::from_utf8_lossy(&self.bytes[..self.bytes.len().min(300)]).into_owned()
    }
}

/// A Greetings, after which the connection is `then` (open, or closed by `Connection: close`).
fn greetings(id: &str, then: Then) -> Exchange {
    let body = json!({"request_type": "Greetings", "request_id": id}).to_string();
    let headers: &[&str] = if then == Then::Closed {
        &["Connection: close"]
    } else {
        &[]
    };
    Exchange {
        bytes: post(body.as_bytes(), headers),
        reply: Reply::Json(200, Expect::Kind("Greetings")),
        then,
    }
}

/// A request of `head` lines (the request line and headers) and `body`.
fn request(head: &[String], body: &[u8]) -> Vec<u8> {
    let mut bytes: Vec<u8> = head
        .iter()
        .flat_map(|line| [line.as_bytes(), b"\r\n"].concat())
        .collect();
    bytes.extend_from_slice(b"\r\n");
    bytes.extend_from_slice(body);
    bytes
}

/// A POST of `body` with its Content-Length and `headers`.
fn post(body: &[u8], headers: &[&str]) -> Vec<u8> {
    let mut head = vec!["POST / HTTP/1.1".to_string(), format!("Content-Length: {}", body.len())];
    head.extend(headers.iter().map(|h| h.to_string()));
    request(&head, body)
}

/// `body` in chunks of random sizes, as `Transfer-Encoding: chunked` sends it.
fn chunked(rng: &mut StdRng, body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let (chunk, after) = rest.split_at(rng.gen_range(1..=rest.len().min(5000)));
        bytes.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        bytes.extend_from_slice(chunk);
        bytes.extend_from_slice(b"\r\n");
        rest = after;
    }
    bytes.extend_from_slice(b"0\r\n\r\n");
    bytes
}

/// Whether `bytes`, followed by more blank lines, are blank lines only, which a server skips before a request
/// line as HTTP asks.
fn blank_lines(mut bytes: &[u8]) -> bool {
    while let Some(rest) = bytes.strip_prefix(b"\r\n").or_else(|| bytes.strip_prefix(b"\n")) {
        bytes = rest;
    }
    bytes.is_empty()
}

/// A request of the API (`body`, which must get `expect`) framed one of the ways HTTP allows.
fn api_exchange(rng: &mut StdRng, body: &[u8], expect: Expect) -> Exchange {
    let path = ["/", "/", "/api", "/choose?fast=1", "*", "http://waggle/"]
        .choose(rng)
        .unwrap();
    let mut head = vec![format!("POST {path} HTTP/1.1")];
    // Now and then a head close to the size limit, which must still be read.
    let bee = if rng.gen_bool(0.02) {
        MAX_HEAD - 1000
    } else {
        rng.gen_range(0..4000)
    };
    let extras = [
        "Host: waggle".to_string(),
        "Content-Type: application/json".to_string(),
        "Accept: */*".to_string(),
        "Connection: keep-alive".to_string(),
        format!("X-Bee: {}", "b".repeat(bee)),
    ];
    head.extend(extras.into_iter().filter(|_| rng.gen_bool(0.3)));
    let length = ["Content-Length", "content-length", "CONTENT-LENGTH"]
        .choose(rng)
        .unwrap();
    let mut then = Then::Open;
    let bytes = match rng.gen_range(0..6) {
        0 => {
            head.push("Transfer-Encoding: chunked".into());
            let body = chunked(rng, body);
            request(&head, &body)
        }
        1 => {
            // A 100-continue gets `100 Continue` before the body is read; any other expectation is taken as if
            // it were not there, as HTTP allows (it also allows refusing it with 417).
            let value = [
                "100-continue",
                "100-Continue",
                "bees",
                "",
                "200-ok",
                "100-continue, bees",
            ]
            .choose(rng)
            .unwrap();
            let at = rng.gen_range(1..=head.len());
            head.insert(at, format!("Expect: {value}"));
            head.push(format!("{length}: {}", body.len()));
            request(&head, body)
        }
        2 => {
            // `close` in any Connection header ends the connection after the answer, whatever the others say;
            // HTTP/1.0 ends it unless asked to keep it alive.
            then = Then::Closed;
            if rng.gen_bool(0.5) {
                head[0] = head[0].replace("HTTP/1.1", "HTTP/1.0");
                if head.iter().any(|h| h == "Connection: keep-alive") {
                    then = Then::Open;
                }
            } else {
                let at = rng.gen_range(1..=head.len());
                head.insert(at, "Connection: close".into());
            }
            head.push(format!("{length}: {}", body.len()));
            request(&head, body)
        }
        _ => {
            head.push(format!("{length}: {}", body.len()));
            request(&head, body)
        }
    };
    Exchange {
        bytes,
        reply: Reply::Json(200, expect),
        then,
    }
}

/// One request (or two, where the first one's bytes run into the next) of the junk HTTP allows: wrong methods,
/// missing, lying and huge Content-Lengths, garbage heads, heads over the size limit, other versions of HTTP,
/// broken chunking, requests cut short. Each is answered at once.
fn junk_exchanges(rng: &mut StdRng, valid: &[Value]) -> Vec<Exchange> {
    let (body, expect) = random_request(rng, valid);
    // Junk read as the head of a request: a few hundred bytes, well inside the size limit of a head.
    let small = &body[..body.len().min(900)];
    let one = |bytes, reply, then| vec![Exchange { bytes, reply, then }];
    let kind = rng.gen_range(0..21);
    match kind {
        0 | 1 => {
            let method = ["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW", "post"]
                .choose(rng)
                .unwrap();
            let mut head = vec![format!("{method} / HTTP/1.1")];
            if rng.gen_bool(0.5) {
                // The server leaves the body of a request it refuses unread, and so closes the connection (unless
                // the body is empty: then there is nothing to read).
                head.push(format!("Content-Length: {}", body.len()));
                let then = if body.is_empty() { Then::Open } else { Then::Closed };
                one(request(&head, &body), Reply::Json(405, Expect::Error), then)
            } else {
                if rng.gen_bool(0.5) {
                    head.push("Content-Length: 0".into());
                }
                one(request(&head, b""), Reply::Json(405, Expect::Error), Then::Open)
            }
        }
        2 => one(
            request(&["POST / HTTP/1.1".into()], b""),
            Reply::Json(200, Expect::Error),
            Then::Open,
        ),
        3 => {
            // No Content-Length: the body is empty, and what follows is no request of the connection's.
            let head = ["POST / HTTP/1.1".into(), "Connection: close".into()];
            one(request(&head, small), Reply::Json(200, Expect::Error), Then::Closed)
        }
        4 => {
            // A Content-Length that is none, or two that disagree: where the request ends is unknown.
            let (value, status) = [
                ("abc", 400),
                ("-1", 400),
                ("1e3", 400),
                ("0x10", 400),
                ("", 400),
                ("2 2", 400),
                ("1, 2", 400),
                ("1\r\nContent-Length: 2", 400),
                ("99999999999999999999999", 400),
                // Past the largest length hyper takes.
                ("18446744073709551615", 431),
            ]
            .choose(rng)
            .unwrap();
            let head = ["POST / HTTP/1.1".into(), format!("Content-Length: {value}")];
            one(request(&head, small), Reply::Refusal(*status), Then::Closed)
        }
        5 => {
            // A Content-Length short of the body: the rest of it is read as the next request's head.
            let cut = rng.gen_range(0..=small.len());
            let (read, rest) = small.split_at(cut);
            let first = Exchange {
                bytes: post(read, &[]),
                reply: Reply::Json(200, Expect::Any),
                then: Then::Open,
            };
            let next = [rest, b"\r\n\r\n"].concat();
            if blank_lines(&next) {
                let bytes = [first.bytes, next].concat();
                return one(bytes, Reply::Json(200, Expect::Any), Then::Open);
            }
            vec![
                first,
                Exchange {
                    bytes: next,
                    reply: Reply::Refusal(400),
                    then: Then::Closed,
                },
            ]
        }
        6 => {
            // A Content-Length past the body, and the client stops writing: the body cannot be read.
            let head = [
                "POST / HTTP/1.1".into(),
                format!("Content-Length: {}", body.len() + rng.gen_range(1..1000)),
            ];
            one(request(&head, &body), Reply::Json(400, Expect::Error), Then::HalfClosed)
        }
        7 => {
            let line = [
                "POST",
                "POST /",
                "POST / HTTP/1.2",
                "POST / HTTPS/1.1",
                "POST / http/1.1",
                "POST / HTTP/11",
                "POST\t/\tHTTP/1.1",
                "",
                "{\"request_type\": \"Greetings\"}",
            ]
            .choose(rng)
            .unwrap();
            let head = [line.to_string(), format!("Content-Length: {}", small.len())];
            one(request(&head, small), Reply::Refusal(400), Then::Closed)
        }
        8 => {
            // Other versions of HTTP: the server speaks HTTP/1.x only.
            if rng.gen_bool(0.25) {
                let preface = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
                return one(preface, Reply::Dropped, Then::Closed);
            }
            let line = [
                "POST / HTTP/2.0",
                "POST / HTTP/2",
                "GET / HTTP/2.0",
                "POST / HTTP/3.0",
                "POST / HTTP/3",
                "POST / HTTP/0.9",
            ]
            .choose(rng)
            .unwrap();
            let head = [line.to_string(), format!("Content-Length: {}", small.len())];
            one(request(&head, small), Reply::Refusal(400), Then::Closed)
        }
        9 => {
            let header = [
                "nocolon",
                "no colon here",
                "Bad Name: x",
                "Content Length: 2",
                "Bée: 1",
                " folded: x",
            ]
            .choose(rng)
            .unwrap();
            let head = ["POST / HTTP/1.1".into(), header.to_string()];
            one(request(&head, small), Reply::Refusal(400), Then::Closed)
        }
        10 => {
            // Bytes that are not ASCII in the target or a header's value are taken as they are.
            let head = if rng.gen_bool(0.5) {
                ["POST /ruche/é HTTP/1.1".into(), "Content-Length: 0".into()]
            } else {
                ["POST / HTTP/1.1".into(), "X-Bee: \u{1F41D}".into()]
            };
            one(request(&head, b""), Reply::Json(200, Expect::Error), Then::Open)
        }
        11 => {
            let mut head = vec!["POST / HTTP/1.1".into(), "Transfer-Encoding: chunked".into()];
            if rng.gen_bool(0.5) {
                head.push("Connection: close".into());
            }
            let broken = [&b"zz\r\n"[..], b"2\r\n{}\r\nnot hex\r\n", b"fffffffffffffffffff\r\n"]
                .choose(rng)
                .unwrap()
                .to_vec();
            one(request(&head, &broken), Reply::Json(400, Expect::Error), Then::Closed)
        }
        12 | 13 => {
            // A request cut short, the connection then half-closed or closed at once.
            let whole = post(&body, &[]);
            let cut = whole[..rng.gen_range(0..whole.len())].to_vec();
            let then = if rng.gen_bool(0.5) {
                Then::HalfClosed
            } else {
                Then::Abandoned
            };
            one(cut, Reply::AtMostOne, then)
        }
        14 => {
            // An upgrade the server does not take: it answers as usual, on the same connection.
            let mut head = vec!["POST / HTTP/1.1".into(), "Connection: upgrade".into()];
            if rng.gen_bool(0.5) {
                head.push("Upgrade: bees/1".into());
            }
            head.push(format!("Content-Length: {}", body.len()));
            one(request(&head, &body), Reply::Json(200, expect), Then::Open)
        }
        15 => {
            // A request after a `Connection: close` one must get nothing.
            let mut bytes = post(small, &["Connection: close"]);
            bytes.extend(post(b"{\"request_type\": \"Greetings\"}", &[]));
            let expect = if small.len() == body.len() { expect } else { Expect::Any };
            one(bytes, Reply::Json(200, expect), Then::Closed)
        }
        16 | 17 => {
            // A huge Content-Length: answered at once without reading the body (405 for a GET, 413 for a POST),
            // and the connection closed, whether the client then stops writing or sends part of the body and
            // waits.
            let (method, status) = if kind == 16 { ("GET", 405) } else { ("POST", 413) };
            let huge = [waggle::json::MAX_LINE as u64 + 1, 1 << 40, u64::MAX - 2]
                .choose(rng)
                .unwrap();
            let head = [format!("{method} / HTTP/1.1"), format!("Content-Length: {huge}")];
            if rng.gen_bool(0.5) {
                one(
                    request(&head, b""),
                    Reply::Json(status, Expect::Error),
                    Then::HalfClosed,
                )
            } else {
                let part = &body[..rng.gen_range(0..=body.len())];
                one(request(&head, part), Reply::Json(status, Expect::Error), Then::Closed)
            }
        }
        18 => {
            // Chunks and a Content-Length: the chunks frame the body, and as a request that two servers could
            // read two ways, it ends the connection.
            let head = [
                "POST / HTTP/1.1".into(),
                "Transfer-Encoding: chunked".into(),
                format!("Content-Length: {}", rng.gen_range(0..100)),
            ];
            let body = chunked(rng, &body);
            one(request(&head, &body), Reply::Json(200, expect), Then::Closed)
        }
        19 => {
            // A Transfer-Encoding that does not end in chunked, or one in HTTP/1.0, which has none.
            let (version, coding) = [
                ("1.1", "gzip"),
                ("1.1", "chunked, gzip"),
                ("1.1", "identity"),
                ("1.0", "chunked"),
            ]
            .choose(rng)
            .unwrap();
            let head = [format!("POST / HTTP/{version}"), format!("Transfer-Encoding: {coding}")];
            let body = chunked(rng, small);
            one(request(&head, &body), Reply::Refusal(400), Then::Closed)
        }
        _ => {
            // A head over the size limit, or with more header lines than hyper takes (100).
            let mut head = vec!["POST / HTTP/1.1".to_string()];
            if rng.gen_bool(0.5) {
                head.push(format!("X-Bee: {}", "b".repeat(rng.gen_range(MAX_HEAD..3 * MAX_HEAD))));
            } else {
                head.extend((0..101).map(|i| format!("X-Bee-{i}: b")));
            }
            one(request(&head, b""), Reply::Refusal(431), Then::Closed)
        }
    }
}

/// Requests to send at once on one connection: a few, of which only the last may end the connection.
fn batch(rng: &mut StdRng, valid: &[Value], api_share: f64) -> Vec<Exchange> {
    let size = rng.gen_range(1..=4);
    let mut batch: Vec<Exchange> = Vec::new();
    while batch.len() < size && batch.last().is_none_or(|e| e.then == Then::Open) {
        if rng.gen_bool(api_share) {
            let (body, expect) = random_request(rng, valid);
            batch.push(api_exchange(rng, &body, expect));
        } else {
            batch.extend(junk_exchanges(rng, valid));
        }
    }
    // Now and then the client stops writing after complete requests, which must all be answered still, or leaves
    // without waiting for the last answer, which must cost the server nothing it keeps.
    if let Some(last) = batch.last_mut().filter(|e| e.then == Then::Open) {
        match rng.gen_range(0..20) {
            0 => last.then = Then::HalfClosed,
            1 => last.then = Then::Abandoned,
            _ => {}
        }
    }
    batch
}

/// One response: its status, Content-Type and body, and whether it says that the connection closes after it.
struct Response {
    status: u16,
    content_type: Option<String>,
    body: Vec<u8>,
    closes: bool,
}

/// Check `response` (`None`: the connection ended first) against what `exchange` must get.
fn check_response(exchange: &Exchange, response: Option<Response>) {
    let json = |response: &Response, expect| {
        let content_type = response.content_type.as_deref();
        assert_eq!(content_type, Some("application/json"), "to {}", exchange.shown());
        let text = String::from_utf8(response.body.clone()).expect("a UTF-8 body");
        check(&exchange.bytes, &text, expect);
    };
    let status = |response: &Response, wanted| {
        let body = String::from_utf8_lossy(&response.body);
        assert_eq!(response.status, wanted, "{body} to {}", exchange.shown());
    };
    match (exchange.reply, &response) {
        (Reply::Json(wanted, expect), Some(response)) => {
            status(response, wanted);
            json(response, expect);
        }
        (Reply::Refusal(wanted), Some(response)) => {
            status(response, wanted);
            if !response.body.is_empty() {
                json(response, Expect::Error);
            }
        }
        (Reply::Dropped, Some(response)) => {
            status(response, 400);
            if !response.body.is_empty() {
                json(response, Expect::Error);
            }
        }
        (Reply::AtMostOne, Some(response)) => {
            let expect = if response.status == 200 {
                Expect::Any
            } else {
                Expect::Error
            };
            json(response, expect);
        }
        (Reply::Dropped | Reply::AtMostOne, None) => {}
        (_, None) => panic!("the connection ended without a response to {}", exchange.shown()),
    }
    if let Some(response) = response {
        match exchange.then {
            Then::Open => assert!(!response.closes, "the connection closes after {}", exchange.shown()),
            Then::Closed => assert!(response.closes, "no word of closing after {}", exchange.shown()),
            Then::HalfClosed | Then::Abandoned => {}
        }
    }
}

/// A connection to the server, read with [`PATIENCE`].
struct Connection {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Connection {
    fn open(addr: SocketAddr) -> Connection {
        let stream = TcpStream::connect(addr).expect("connect");
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        stream.set_write_timeout(Some(PATIENCE)).unwrap();
        let reader = BufReader::new(stream.try_clone().expect("a second handle"));
        Connection { stream, reader }
    }

    /// Send `bytes`. The server may close the connection before reading them all (after a refusal): what it
    /// answered is still checked.
    fn send(&mut self, bytes: &[u8]) {
        match self.stream.write_all(bytes) {
            Err(e) if !matches!(e.kind(), ErrorKind::BrokenPipe | ErrorKind::ConnectionReset) => {
                panic!("sending a request: {e}")
            }
            _ => {}
        }
    }

    /// The next response (after any `100 Continue`), or `None` if the connection ends first.
    fn response(&mut self) -> io::Result<Option<Response>> {
        loop {
            let mut status_line = String::new();
            match self.reader.read_line(&mut status_line) {
                Ok(0) => return Ok(None),
                Err(e) if e.kind() == ErrorKind::ConnectionReset => return Ok(None),
                Err(e) => return Err(e),
                Ok(_) => {}
            }
            let status: u16 = status_line
                .strip_prefix("HTTP/1.")
                .and_then(|rest| rest.split(' ').nth(1))
                .and_then(|code| code.parse().ok())
                .ok_or_else(|| io::Error::other(format!("not a status line: {status_line:?}")))?;
            let (mut length, mut content_type) = (0, None);
            let (mut close, mut keep_alive) = (false, false);
            loop {
                let mut header = String::new();
                if self.reader.read_line(&mut header)? == 0 {
                    return Err(io::Error::other("the connection ended in a response's head"));
                }
                let header = header.trim_end();
                if header.is_empty() {
                    break;
                }
                let Some((name, value)) = header.split_once(':') else {
                    continue;
                };
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().map_err(io::Error::other)?;
                } else if name.eq_ignore_ascii_case("content-type") {
                    content_type = Some(value.trim().to_string());
                } else if name.eq_ignore_ascii_case("connection") {
                    for option in value.split(',').map(str::trim) {
                        close |= option.eq_ignore_ascii_case("close");
                        keep_alive |= option.eq_ignore_ascii_case("keep-alive");
                    }
                }
            }
            if (100..200).contains(&status) {
                continue;
            }
            let mut body = vec![0; length];
            self.reader.read_exact(&mut body)?;
            return Ok(Some(Response {
                status,
                content_type,
                body,
                closes: close || (status_line.starts_with("HTTP/1.0") && !keep_alive),
            }));
        }
    }

    /// Read the response to `exchange` and check it.
    fn receive(&mut self, exchange: &Exchange) {
        let response = self
            .response()
            .unwrap_or_else(|e| panic!("no response in time ({e}) to {}", exchange.shown()));
        check_response(exchange, response);
    }

    /// Send `exchange` alone, check its response, and that the connection ends after it if it should.
    fn exchange(&mut self, exchange: &Exchange) {
        self.send(&exchange.bytes);
        self.receive(exchange);
        if exchange.then == Then::Closed {
            self.expect_end(exchange);
        }
    }

    /// Assert that the connection ends, with no response after the one to `exchange`.
    fn expect_end(&mut self, exchange: &Exchange) {
        match self.response() {
            Ok(None) => {}
            Ok(Some(response)) => panic!(
                "a response too many after {}: {} {}",
                exchange.shown(),
                response.status,
                String::from_utf8_lossy(&response.body)
            ),
            Err(e) => panic!("the connection did not end after {}: {e}", exchange.shown()),
        }
    }
}

/// Send at least `count` requests to `addr` (a share `api_share` of them requests of the API, the others HTTP's
/// junk), on connections of a few requests each, and check every reply; returns how many were sent.
fn http_client(addr: SocketAddr, seed: u64, count: u64, api_share: f64) -> u64 {
    let mut rng = StdRng::seed_from_u64(seed);
    let valid = valid_requests(&mut rng);
    let mut sent = 0;
    while sent < count {
        sent += converse(addr, &mut rng, &valid, api_share);
    }
    sent
}

/// Send a few batches of requests on a new connection, checking every reply, until one ends the connection or,
/// should it stay open, a Greetings with `Connection: close` does; returns how many requests were sent.
fn converse(addr: SocketAddr, rng: &mut StdRng, valid: &[Value], api_share: f64) -> u64 {
    let mut connection = Connection::open(addr);
    let mut sent = 0;
    for _ in 0..rng.gen_range(1..=8) {
        let batch = batch(rng, valid, api_share);
        let last = batch.last().expect("a request");
        connection.send(&batch.iter().flat_map(|e| e.bytes.clone()).collect::<Vec<u8>>());
        sent += batch.len() as u64;
        if last.then == Then::HalfClosed {
            let _ = connection.stream.shutdown(Shutdown::Write);
        }
        let answered = batch.len() - usize::from(last.then == Then::Abandoned);
        for exchange in &batch[..answered] {
            connection.receive(exchange);
        }
        match last.then {
            Then::Open => {}
            Then::Closed | Then::HalfClosed => {
                connection.expect_end(last);
                return sent;
            }
            // Dropping the connection closes it, whatever the server was about to say.
            Then::Abandoned => return sent,
        }
    }
    connection.exchange(&greetings("last", Then::Closed));
    sent + 1
}

/// Bodies at the size limit and past it: one of exactly [`waggle::json::MAX_LINE`] bytes is read and answered on
/// a connection that goes on serving; one byte more, declared, or a body past the limit sent in chunks, gets a
/// 413 and the connection closed. Returns how many requests were sent.
fn bodies_at_the_size_limit(addr: SocketAddr) -> u64 {
    let limit = waggle::json::MAX_LINE;
    let mut connection = Connection::open(addr);
    connection.exchange(&Exchange {
        bytes: post(&vec![b'['; limit], &[]),
        reply: Reply::Json(200, Expect::Error),
        then: Then::Open,
    });
    connection.exchange(&greetings("after 16 MiB", Then::Open));
    connection.exchange(&Exchange {
        bytes: post(&vec![b'['; limit + 1], &[]),
        reply: Reply::Json(413, Expect::Error),
        then: Then::Closed,
    });
    let head = ["POST / HTTP/1.1".into(), "Transfer-Encoding: chunked".into()];
    let chunks = chunked(&mut StdRng::seed_from_u64(0), &vec![b'['; limit + 1000]);
    Connection::open(addr).exchange(&Exchange {
        bytes: request(&head, &chunks),
        reply: Reply::Json(413, Expect::Error),
        then: Then::Closed,
    });
    4
}

/// Ways a client can hold a connection without finishing a request; the server must end each on its own.
#[derive(Clone, Copy, Debug)]
enum Stall {
    /// Connects and sends nothing.
    Silent,
    /// Sends part of a head, then nothing.
    PartHead,
    /// Sends a head a byte every half second, never ending it.
    Trickle,
    /// Gets an answer, then sends nothing more.
    IdleAfterAnswer,
    /// Sends a head and part of the body it declares, then nothing.
    PartBody,
}

impl Stall {
    /// Hold a connection to `addr` this way, and check that the server closes it without a word after the head
    /// timeout (counted from the connection or the last answer, however slowly bytes keep coming), or, for a body
    /// that stopped coming, answers 408 after the body timeout and closes it.
    fn check(self, addr: SocketAddr) {
        let mut connection = Connection::open(addr);
        connection
            .stream
            .set_read_timeout(Some(BODY_TIMEOUT + PATIENCE))
            .unwrap();
        let mut since = Instant::now();
        let mut timeout = HEAD_TIMEOUT;
        match self {
            Stall::Silent => {}
            Stall::PartHead => connection.send(b"POST / HTTP/1.1\r\nContent-Le"),
            Stall::Trickle => {
                connection.send(b"POST / HTTP/1.1\r\nX-Bee: ");
                connection
                    .stream
                    .set_read_timeout(Some(Duration::from_millis(500)))
                    .unwrap();
                loop {
                    assert!(
                        since.elapsed() < HEAD_TIMEOUT + PATIENCE,
                        "a trickled head held the connection"
                    );
                    match connection.reader.fill_buf() {
                        Ok([]) => break,
                        Ok(bytes) => panic!("{self:?}: an answer: {}", String::from_utf8_lossy(bytes)),
                        Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
                        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                            connection.send(b"b")
                        }
                        Err(e) => panic!("{self:?}: {e}"),
                    }
                }
            }
            Stall::IdleAfterAnswer => {
                connection.exchange(&greetings("then idle", Then::Open));
                since = Instant::now();
            }
            Stall::PartBody => {
                let head = [
                    "POST / HTTP/1.1".into(),
                    format!("Content-Length: {}", waggle::json::MAX_LINE),
                ];
                let late = Exchange {
                    bytes: request(&head, b"[[[["),
                    reply: Reply::Json(408, Expect::Error),
                    then: Then::Closed,
                };
                connection.send(&late.bytes);
                since = Instant::now();
                timeout = BODY_TIMEOUT;
                connection.receive(&late);
            }
        }
        match connection.response() {
            Ok(None) => {}
            Ok(Some(response)) => panic!("{self:?}: a response {}", response.status),
            Err(e) => panic!("{self:?}: the connection was not closed: {e}"),
        }
        let waited = since.elapsed();
        let early = timeout - Duration::from_millis(500);
        let late = timeout + Duration::from_secs(3);
        assert!(
            (early..late).contains(&waited),
            "{self:?}: closed after {waited:?}, not about {timeout:?}"
        );
    }
}

/// How many connections the HTTP fuzz keeps busy at once.
const CLIENTS: u64 = 4;

/// Fuzz one server with `count` requests from [`CLIENTS`] clients at once, and, if `stalls`, connections held
/// every way [`Stall`] knows meanwhile (each takes the server's timeout to end); returns how many requests were
/// sent and how many connections were held.
fn fuzz_http(seed: u64, count: u64, api_share: f64, stalls: bool) -> (u64, u64) {
    let mut server = HttpServer::start();
    let addr = server.addr;
    let files = server.open_files();
    let at_the_limit = bodies_at_the_size_limit(addr);
    let done = Arc::new(AtomicBool::new(false));
    let all = [
        Stall::Silent,
        Stall::PartHead,
        Stall::Trickle,
        Stall::IdleAfterAnswer,
        Stall::PartBody,
    ];
    let stalling: Vec<_> = all
        .into_iter()
        .filter(|_| stalls)
        .map(|stall| {
            let done = done.clone();
            thread::spawn(move || {
                let mut held = 0;
                while !done.load(Ordering::SeqCst) {
                    stall.check(addr);
                    held += 1;
                }
                held
            })
        })
        .collect();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|i| thread::spawn(move || http_client(addr, seed * 100 + i, count / CLIENTS, api_share)))
        .collect();
    let sent: u64 = clients.into_iter().map(|c| c.join().expect("a client")).sum();
    done.store(true, Ordering::SeqCst);
    let held: u64 = stalling
        .into_iter()
        .map(|s| s.join().expect("a stalled connection"))
        .sum();
    server.assert_serving(files);
    (at_the_limit + sent + 1, held)
}

#[test]
fn junk_gets_one_response_a_request_over_http() {
    let (sent, _) = fuzz_http(3, 2_000, 0.3, false);
    assert!(sent >= 2_000, "{sent}");
}

#[test]
#[ignore]
fn long_fuzz_over_http() {
    let start = Instant::now();
    // One server for them all: one that leaked connections, files or threads would stop serving on the way.
    let (sent, held) = fuzz_http(300, 1_000_000, 0.1, true);
    let seconds = start.elapsed().as_secs_f64();
    println!("{sent} requests over HTTP and {held} stalled connections in {seconds:.0} s");
}

/// Connections that send nothing, part of a head, a head too slowly, or nothing after an answer: each is closed
/// after the head timeout, and the server goes on.
#[test]
fn stalled_connections_are_closed_after_the_head_timeout() {
    let mut server = HttpServer::start();
    let files = server.open_files();
    let addr = server.addr;
    let stalls: Vec<_> = [Stall::Silent, Stall::PartHead, Stall::Trickle, Stall::IdleAfterAnswer]
        .into_iter()
        .map(|stall| thread::spawn(move || stall.check(addr)))
        .collect();
    for stall in stalls {
        stall.join().expect("a stalled connection closed in time");
    }
    server.assert_serving(files);
}

/// Many idle connections (more than the server once took at all): a new visitor is still answered at once, and so
/// is each idle connection when it finally sends its request; once they close, the server has its files back.
#[test]
fn idle_connections_do_not_keep_visitors_out() {
    let mut server = HttpServer::start();
    let files = server.open_files();
    let mut connections: Vec<Connection> = (0..IDLE_CONNECTIONS).map(|_| Connection::open(server.addr)).collect();
    let mut visitor = Connection::open(server.addr);
    visitor.exchange(&greetings("a new visitor", Then::Open));
    for (i, connection) in connections.iter_mut().enumerate() {
        connection.exchange(&greetings(&format!("connection {i}"), Then::Open));
    }
    drop(connections);
    drop(visitor);
    server.assert_serving(files);
}

/// More connections than the server may open files: it goes on serving the connections it has, takes the others
/// as files come free, and once they all close has its files back and answers a Greetings.
#[test]
fn running_out_of_files_does_not_stop_the_server() {
    const FILES: usize = 64;
    let mut server = HttpServer::start_with_files(FILES);
    let files = server.open_files();
    let mut connections: Vec<Connection> = (0..2 * FILES).map(|_| Connection::open(server.addr)).collect();
    let since = Instant::now();
    while server.open_files().is_some_and(|open| open < FILES) {
        assert!(since.elapsed() < PATIENCE, "the server did not take the connections");
        thread::sleep(Duration::from_millis(20));
    }
    connections[0].exchange(&greetings("out of files", Then::Open));
    drop(connections);
    server.assert_serving(files);
}

/// Clients that leave while their request is thought about (or waits for an engine): once the thinking is done,
/// the server has every place for a request back (were they lost, each new request would get 503).
#[test]
fn clients_that_leave_mid_think_cost_the_server_nothing() {
    let mut server = HttpServer::start();
    let files = server.open_files();
    let mut rng = StdRng::seed_from_u64(4);
    let valid = valid_requests(&mut rng);
    let mut choose = valid
        .iter()
        .find(|r| r["request_type"] == "Choose Turn" && r["game_state"]["game_over"] != true)
        .expect("a game going on")
        .clone();
    // Due 300 ms after it is sent, so that the server thinks for a while after the client has left.
    choose["response_deadline"] = json!(1_300);
    for _ in 0..2 * MAX_WAITING {
        let mut connection = Connection::open(server.addr);
        connection.send(&post(choose.to_string().as_bytes(), &[]));
        thread::sleep(Duration::from_millis(5));
        drop(connection);
    }
    let since = Instant::now();
    loop {
        let mut connection = Connection::open(server.addr);
        let greetings = greetings("after they left", Then::Closed);
        connection.send(&greetings.bytes);
        let response = connection.response().expect("a response in time");
        if response.as_ref().is_some_and(|r| r.status == 503) {
            assert!(since.elapsed() < PATIENCE, "still no place for a request");
            thread::sleep(Duration::from_millis(50));
            continue;
        }
        check_response(&greetings, response);
        break;
    }
    server.assert_serving(files);
}
