//! Fuzzing the JSON API with what a broken or hostile game core might send: random bytes, valid requests cut
//! short, deep nesting, huge numbers, every field given the wrong type or taken away, boards that break the One
//! Hive rule, duplicated keys, and valid requests among them. Every request gets exactly one response line (an
//! Error for the bad ones), both from `respond` and through the real `waggle json` process, which keeps serving:
//! a Greetings after the junk is still answered.
//!
//! Over HTTP (`waggle json --listen`), the same bodies go in POSTs framed every way HTTP allows, among junk of
//! HTTP's own: wrong methods, missing, wrong and lying Content-Lengths, bodies over the size limit, broken
//! chunking, garbage request lines and headers, requests cut short, several requests on one connection, from
//! several connections at once. Every complete request gets exactly one response in time, with a JSON body (200
//! for what Waggle answers, 405, 413 or 400 for what it refuses), and the server keeps serving, with no
//! connection left open. Where tiny_http refuses a request itself (a request line or header it cannot parse, an
//! `Expect` it does not know), Waggle never sees it: the refusal has the right status but an empty body, and a
//! head that is not ASCII gets the connection closed without a word.
//!
//! A short run is part of `cargo test`; the long ones are ignored: `cargo test --test fuzz_json -- --ignored`.

use std::io::{self, BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::thread;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use waggle::json::{game_state_of, respond};
use waggle::{GameType, Position};

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
        check(&request, &respond(&text), expect);
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

    let mut child = Command::new(env!("CARGO_BIN_EXE_waggle"))
        .arg("json")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start waggle json");
    let stdout = child.stdout.take().expect("stdout");
    let (lines, received) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().expect("stdin");
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
    let status = child.wait().expect("waggle json exits");
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
    for seed in 0..20 {
        fuzz_respond(100 + seed, 10_000);
    }
}

#[test]
#[ignore]
fn long_fuzz_of_the_process() {
    for seed in 0..5 {
        fuzz_process(200 + seed, 10_000);
    }
}

/// `waggle json --listen` on a port of its own, killed when dropped (also when a test fails).
struct HttpServer {
    child: Child,
    addr: SocketAddr,
}

impl HttpServer {
    fn start() -> HttpServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_waggle"))
            .args(["json", "--listen", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start waggle json --listen");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        stderr.read_line(&mut line).expect("the listening line");
        let addr = line
            .trim()
            .strip_prefix("waggle json: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .parse()
            .expect("an address");
        // Notes on requests follow: read them so that the pipe never fills.
        thread::spawn(move || io::copy(&mut stderr, &mut io::sink()));
        HttpServer { child, addr }
    }

    /// How many files the server has open, where the system says (Linux).
    fn open_files(&self) -> Option<usize> {
        let files = std::fs::read_dir(format!("/proc/{}/fd", self.child.id())).ok()?;
        Some(files.count())
    }

    /// Assert that the server still runs, has closed the connections it was sent (within a few seconds, as
    /// requests still being thought about end), and answers a Greetings on a new connection.
    fn assert_serving(&mut self, files_before: Option<usize>) {
        assert!(matches!(self.child.try_wait(), Ok(None)), "the server exited");
        if let Some(before) = files_before {
            let since = Instant::now();
            loop {
                // A connection is a socket and its duplicate: allow one closing as we look.
                let now = self.open_files().unwrap_or(0);
                if now <= before + 2 {
                    break;
                }
                assert!(since.elapsed() < PATIENCE, "{now} files open, {before} before the fuzz");
                thread::sleep(Duration::from_millis(50));
            }
        }
        Connection::open(self.addr).exchange(&greetings("after the junk", Then::Closed));
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How long a response may take: far more than a 10 ms think, so that only a hang fails.
const PATIENCE: Duration = Duration::from_secs(10);

/// What one HTTP request must get back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reply {
    /// One response with this status and a JSON body that `check` accepts.
    Json(u16, Expect),
    /// One refusal with this status, for a request tiny_http cannot read: its own, with an empty body (Waggle
    /// never sees the request), or a JSON Error.
    Refusal(u16),
    /// Nothing, or a 400 refusal: tiny_http drops the connection when the head has bytes that are not ASCII.
    Dropped,
    /// At most one response, with a JSON body: a request the client cut short.
    AtMostOne,
}

/// What becomes of the connection after a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Then {
    /// It stays open for the next request.
    Open,
    /// The server closes it after its answer.
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

/// A request of the API (`body`, which must get `expect`) framed one of the ways HTTP allows.
fn api_exchange(rng: &mut StdRng, body: &[u8], expect: Expect) -> Exchange {
    let path = ["/", "/", "/api", "/choose?fast=1", "*", "http://waggle/"]
        .choose(rng)
        .unwrap();
    let mut head = vec![format!("POST {path} HTTP/1.1")];
    let extras = [
        "Host: waggle".to_string(),
        "Content-Type: application/json".to_string(),
        "Accept: */*".to_string(),
        "Connection: keep-alive".to_string(),
        format!("X-Bee: {}", "b".repeat(rng.gen_range(0..4000))),
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
            head.push("Expect: 100-continue".into());
            head.push(format!("{length}: {}", body.len()));
            request(&head, body)
        }
        2 => {
            // tiny_http heeds the first Connection header only.
            then = Then::Closed;
            head.retain(|h| !h.starts_with("Connection"));
            if rng.gen_bool(0.5) {
                head[0] = head[0].replace("HTTP/1.1", "HTTP/1.0");
            } else {
                head.push("Connection: close".into());
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
/// lying Content-Lengths, garbage heads, broken chunking, requests cut short. Each is answered at once.
///
/// An `Expect` that tiny_http does not know is only sent `alone`, not behind other requests of the same batch:
/// tiny_http writes its 417 ahead of the answers to the requests before it.
fn junk_exchanges(rng: &mut StdRng, valid: &[Value], alone: bool) -> Vec<Exchange> {
    let (body, expect) = random_request(rng, valid);
    // Junk the server closes the connection on leaves some of it unread: a few hundred bytes, so that the server
    // has read them all when it closes, and the client gets the answer rather than a reset.
    let small = &body[..body.len().min(900)];
    let one = |bytes, reply, then| vec![Exchange { bytes, reply, then }];
    let kind = loop {
        let kind = rng.gen_range(0..16);
        if kind != 10 || alone {
            break kind;
        }
    };
    match kind {
        0 | 1 => {
            let method = ["GET", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "BREW", "post"]
                .choose(rng)
                .unwrap();
            let head = [
                format!("{method} / HTTP/1.1"),
                format!("Content-Length: {}", body.len()),
            ];
            one(request(&head, &body), Reply::Json(405, Expect::Error), Then::Open)
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
            let value = ["abc", "-1", "1e3", "0x10", "", "2 2", "99999999999999999999999"]
                .choose(rng)
                .unwrap();
            let head = [
                "POST / HTTP/1.1".into(),
                format!("Content-Length: {value}"),
                "Connection: close".into(),
            ];
            one(request(&head, small), Reply::Json(200, Expect::Error), Then::Closed)
        }
        5 => {
            // A Content-Length short of the body: the rest of it is read as the next request's line.
            let cut = rng.gen_range(0..=small.len());
            let (read, rest) = small.split_at(cut);
            // tiny_http ends a line at CR LF only.
            let line_end = rest.windows(2).position(|w| w == b"\r\n").unwrap_or(rest.len());
            let first_line = &rest[..line_end];
            let reply = if first_line.is_ascii() {
                Reply::Refusal(400)
            } else {
                Reply::Dropped
            };
            vec![
                Exchange {
                    bytes: post(read, &[]),
                    reply: Reply::Json(200, Expect::Any),
                    then: Then::Open,
                },
                Exchange {
                    bytes: [rest, b"\r\n\r\n"].concat(),
                    reply,
                    then: Then::Closed,
                },
            ]
        }
        6 => {
            // A Content-Length past the body, and the client stops writing.
            let head = [
                "POST / HTTP/1.1".into(),
                format!("Content-Length: {}", body.len() + rng.gen_range(1..1000)),
            ];
            one(request(&head, &body), Reply::AtMostOne, Then::HalfClosed)
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
            let header = ["nocolon", "no colon here", "Bad Name: x", "Content Length: 2"]
                .choose(rng)
                .unwrap();
            let head = ["POST / HTTP/1.1".into(), header.to_string()];
            one(request(&head, small), Reply::Refusal(400), Then::Closed)
        }
        9 => {
            let head = if rng.gen_bool(0.5) {
                ["POST /ruche/é HTTP/1.1".into(), "Content-Length: 0".into()]
            } else {
                ["POST / HTTP/1.1".into(), "X-Bee: \u{1F41D}".into()]
            };
            one(request(&head, b""), Reply::Dropped, Then::Closed)
        }
        10 => {
            let head = [
                "POST / HTTP/1.1".into(),
                format!("Content-Length: {}", small.len()),
                "Expect: bees".into(),
            ];
            one(request(&head, small), Reply::Refusal(417), Then::Closed)
        }
        11 => {
            let head = [
                "POST / HTTP/1.1".into(),
                "Transfer-Encoding: chunked".into(),
                "Connection: close".into(),
            ];
            let broken = [&b"zz\r\n"[..], b"2\r\n{}\r\nnot hex\r\n"]
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
            // An upgrade keeps the whole connection as the body: it ends when the client stops writing.
            let head = ["POST / HTTP/1.1".into(), "Connection: upgrade".into()];
            one(request(&head, &body), Reply::Json(200, Expect::Any), Then::HalfClosed)
        }
        _ => {
            // A request after a `Connection: close` one must get nothing.
            let mut bytes = post(small, &["Connection: close"]);
            bytes.extend(post(b"{\"request_type\": \"Greetings\"}", &[]));
            let expect = if small.len() == body.len() { expect } else { Expect::Any };
            one(bytes, Reply::Json(200, expect), Then::Closed)
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
            let alone = batch.is_empty();
            batch.extend(junk_exchanges(rng, valid, alone));
        }
    }
    batch
}

/// One response: its status, Content-Type and body.
struct Response {
    status: u16,
    content_type: Option<String>,
    body: Vec<u8>,
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
            loop {
                let mut header = String::new();
                if self.reader.read_line(&mut header)? == 0 {
                    return Err(io::Error::other("the connection ended in a response's head"));
                }
                let header = header.trim_end();
                if header.is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().map_err(io::Error::other)?;
                    } else if name.eq_ignore_ascii_case("content-type") {
                        content_type = Some(value.trim().to_string());
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
            }));
        }
    }

    /// Read the response to `exchange` and check it.
    fn receive(&mut self, exchange: &Exchange) {
        let response = self
            .response()
            .unwrap_or_else(|e| panic!("no response within {PATIENCE:?} ({e}) to {}", exchange.shown()));
        let json = |response: &Response, expect| {
            let content_type = response.content_type.as_deref();
            assert_eq!(content_type, Some("application/json"), "to {}", exchange.shown());
            let text = String::from_utf8(response.body.clone()).expect("a UTF-8 body");
            check(&exchange.bytes, &text, expect);
        };
        match (exchange.reply, response) {
            (Reply::Json(status, expect), Some(response)) => {
                assert_eq!(response.status, status, "to {}", exchange.shown());
                json(&response, expect);
            }
            (Reply::Refusal(status), Some(response)) => {
                assert_eq!(response.status, status, "to {}", exchange.shown());
                if !response.body.is_empty() {
                    json(&response, Expect::Error);
                }
            }
            (Reply::Dropped, Some(response)) => {
                assert_eq!(response.status, 400, "to {}", exchange.shown());
                if !response.body.is_empty() {
                    json(&response, Expect::Error);
                }
            }
            (Reply::AtMostOne, Some(response)) => {
                let expect = if response.status == 200 {
                    Expect::Any
                } else {
                    Expect::Error
                };
                json(&response, expect);
            }
            (Reply::Dropped | Reply::AtMostOne, None) => {}
            (_, None) => panic!("the connection ended without a response to {}", exchange.shown()),
        }
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

/// Bodies over the size limit, refused with 413: the connection still serves after the first, and is closed
/// after the second as it asks. Returns how many requests were sent.
fn oversized_bodies(addr: SocketAddr) -> u64 {
    let mut connection = Connection::open(addr);
    let oversized = |size, headers| Exchange {
        bytes: post(&vec![b'['; size], headers),
        reply: Reply::Json(413, Expect::Error),
        then: if headers.is_empty() { Then::Open } else { Then::Closed },
    };
    connection.exchange(&oversized(waggle::json::MAX_LINE + 1, &[]));
    connection.exchange(&greetings("after 16 MiB", Then::Open));
    connection.exchange(&oversized(waggle::json::MAX_LINE + 1000, &["Connection: close"]));
    3
}

/// How many connections the HTTP fuzz keeps busy at once.
const CLIENTS: u64 = 4;

/// Fuzz one server with `count` requests from [`CLIENTS`] clients at once; returns how many were sent.
fn fuzz_http(seed: u64, count: u64, api_share: f64) -> u64 {
    let mut server = HttpServer::start();
    let addr = server.addr;
    let files = server.open_files();
    let oversized = oversized_bodies(addr);
    let clients: Vec<_> = (0..CLIENTS)
        .map(|i| thread::spawn(move || http_client(addr, seed * 100 + i, count / CLIENTS, api_share)))
        .collect();
    let sent: u64 = clients.into_iter().map(|c| c.join().expect("a client")).sum();
    server.assert_serving(files);
    oversized + sent + 1
}

#[test]
fn junk_gets_one_response_a_request_over_http() {
    let sent = fuzz_http(3, 2_000, 0.3);
    assert!(sent >= 2_000, "{sent}");
}

#[test]
#[ignore]
fn long_fuzz_over_http() {
    let start = Instant::now();
    // One server for them all: one that leaked connections or threads would stop serving on the way.
    let sent = fuzz_http(300, 1_000_000, 0.1);
    println!("{sent} requests over HTTP in {:.0} s", start.elapsed().as_secs_f64());
}
