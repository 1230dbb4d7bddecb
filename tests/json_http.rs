//! `waggle json --listen` as a process, driven over HTTP by a minimal HTTP/1.1 client written here: Greetings and
//! Choose Turn answered in POST bodies, two games at once from two threads (the quicker one answered first), an
//! Error for a malformed body and a refusal for anything but POST.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use waggle::json::{game_state_of, is_offered};
use waggle::{GameType, Position};

use common::{Running, Waggle};

/// The running server, killed when dropped (also when a test fails).
struct Server {
    /// Held for its `Drop`, which kills the server.
    _process: Running,
    addr: SocketAddr,
}

impl Server {
    fn start() -> Server {
        let process = Waggle::new(["json", "--listen", "127.0.0.1:0"]).start();
        // Notes on requests follow the listening line: `Running` reads them, so that the pipe never fills.
        let line = process.stderr.recv().unwrap_or_default();
        let addr = line
            .trim()
            .strip_prefix("waggle json: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .parse()
            .expect("an address");
        Server {
            _process: process,
            addr,
        }
    }
}

/// A response: status code, headers (names in lower case) and body.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Send one HTTP/1.1 request with `body` and read the whole response (the connection is closed after it).
fn send(addr: SocketAddr, method: &str, body: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "{method} / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: \
         close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    stream.flush().unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("the response");
    let text = String::from_utf8(raw).expect("UTF-8");
    let (head, rest) = text.split_once("\r\n\r\n").expect("a head and a body");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().expect("a status line");
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{status_line}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .expect("a Content-Length");
    assert!(rest.len() >= length, "a body cut short");
    Reply {
        status,
        headers,
        body: rest[..length].to_string(),
    }
}

/// A Choose Turn request for a position a few moves into a game of `game_type`, due `millis` after it is sent.
fn choose_request(game_type: GameType, id: &str, millis: u64) -> (String, Value) {
    let mut pos = Position::new(game_type);
    for _ in 0..6 {
        let moves = pos.legal_moves();
        pos.play_unchecked(moves[moves.len() / 2]);
    }
    let state = game_state_of(&pos);
    let request = json!({
        "request_type": "Choose Turn",
        "request_id": id,
        "game_id": format!("game {id}"),
        "request_timestamp": 1_000_000,
        "response_deadline": 1_000_000 + millis,
        "game_state": state,
    });
    (request.to_string(), state)
}

/// Assert that `reply` is a Choose Turn for request `id` with one of the turns `state` offers.
fn assert_offered(reply: &Reply, id: &str, state: &Value) {
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let response = reply.json();
    assert_eq!(response["response_type"], "Choose Turn", "{response}");
    assert_eq!(response["request_id"], id);
    assert_eq!(response["game_id"], format!("game {id}"));
    assert!(is_offered(state, &response), "{response}");
}

#[test]
fn requests_are_answered_over_http() {
    let server = Server::start();
    let reply = send(
        server.addr,
        "POST",
        r#"{"request_type": "Greetings", "request_id": "n6Vvi"}"#,
    );
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let response = reply.json();
    assert_eq!(response["response_type"], "Greetings");
    assert_eq!(response["response_id"], "n6Vvi");
    assert_eq!(response["name"], "waggle");

    let (request, state) = choose_request(GameType::MLP, "one", 300);
    assert_offered(&send(server.addr, "POST", &request), "one", &state);

    // Two games at once, from two threads: a long think and, sent while it goes on, a short one, which is
    // answered first.
    let games = [
        (GameType::BASE, "long", 3_000, 0),
        (GameType::new(false, false, true), "short", 30, 150),
    ];
    let threads: Vec<_> = games
        .into_iter()
        .map(|(game_type, id, millis, delay)| {
            let addr = server.addr;
            thread::spawn(move || {
                thread::sleep(Duration::from_millis(delay));
                let (request, state) = choose_request(game_type, id, millis);
                let reply = send(addr, "POST", &request);
                (reply, state, id, Instant::now())
            })
        })
        .collect();
    let mut finished = Vec::new();
    for thread in threads {
        let (reply, state, id, at) = thread.join().expect("a client");
        assert_offered(&reply, id, &state);
        finished.push(at);
    }
    assert!(finished[1] < finished[0], "the short think waited for the long one");

    let reply = send(
        server.addr,
        "POST",
        r#"{"request_type": "Choose Turn", "request_id": 9, "game_state": [}"#,
    );
    assert_eq!(reply.status, 200);
    let response = reply.json();
    assert_eq!(response["response_type"], "Error");
    assert!(response["message"].as_str().unwrap().contains("not JSON"), "{response}");

    let reply = send(server.addr, "GET", "");
    assert_eq!(reply.status, 405);
    assert_eq!(reply.json()["response_type"], "Error");

    // The server is still there after all that.
    let reply = send(
        server.addr,
        "POST",
        r#"{"request_type": "Greetings", "request_id": "last"}"#,
    );
    assert_eq!(reply.json()["request_id"], "last");
}

/// A request whose client vanishes while it waits for an engine holds its place only until its turn: the server
/// cannot tell a client that has gone from a game core that shut its side after writing (both are answered), but
/// a request whose deadline has passed while it waited thinks for no more than the least budget. So 64 requests
/// that fill the queue and have their connections reset leave it free again within a few seconds.
#[cfg(unix)]
#[test]
fn requests_whose_clients_vanish_while_they_wait_hold_their_places_only_until_their_turn() {
    let server = Server::start();
    let engines = thread::available_parallelism().map_or(1, |n| n.get());
    let open = |id: &str, millis: u64| {
        let (body, _) = choose_request(GameType::MLP, id, millis);
        let mut stream = TcpStream::connect(server.addr).expect("connect");
        let head = format!(
            "POST / HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: \
             close\r\n\r\n",
            server.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        stream
    };
    let busy: Vec<TcpStream> = (0..engines).map(|i| open(&format!("busy {i}"), 2_000)).collect();
    thread::sleep(Duration::from_millis(300));
    let queued: Vec<TcpStream> = (0..64).map(|i| open(&format!("queued {i}"), 1_000)).collect();
    thread::sleep(Duration::from_millis(300));
    let full = send(server.addr, "POST", &choose_request(GameType::MLP, "full", 100).0);
    assert_eq!(full.status, 503, "the queue was full: {}", full.body);
    for stream in queued {
        reset(stream);
    }
    drop(busy);
    let since = Instant::now();
    let (request, state) = choose_request(GameType::MLP, "after", 200);
    let answered = loop {
        let reply = send(server.addr, "POST", &request);
        if reply.status != 503 || since.elapsed() > Duration::from_secs(30) {
            break reply;
        }
        thread::sleep(Duration::from_millis(100));
    };
    assert_offered(&answered, "after", &state);
}

/// Close `stream` with a reset, as a client that vanishes does (a lost network, a killed process).
#[cfg(unix)]
fn reset(stream: TcpStream) {
    use std::os::fd::AsRawFd;
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: the descriptor is the open socket `stream` owns, and `linger` is a valid option value of its size.
    let set = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&linger as *const libc::linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        )
    };
    assert_eq!(set, 0, "SO_LINGER");
}
