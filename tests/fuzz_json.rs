//! Fuzzing the JSON API with what a broken or hostile game core might send: random bytes, valid requests cut
//! short, deep nesting, huge numbers, every field given the wrong type or taken away, boards that break the One
//! Hive rule, duplicated keys, and valid requests among them. Every request gets exactly one response line (an
//! Error for the bad ones), both from `respond` and through the real `waggle json` process, which keeps serving:
//! a Greetings after the junk is still answered. A short run is part of `cargo test`; the long one is ignored:
//! `cargo test --release --test fuzz_json -- --ignored`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::thread;
use std::time::Duration;

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
