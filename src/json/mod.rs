//! The Hive AI-module JSON API (being written).

use std::io::{self, BufRead, Write};
use std::net::SocketAddr;

/// The response to one request, both as JSON text.
pub fn respond(request: &str) -> String {
    let _ = request;
    String::new()
}

/// Serve requests from `input`, one JSON object a line, answering each with one line on `output`.
pub fn serve_lines(input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    for line in input.lines() {
        writeln!(output, "{}", respond(&line?))?;
    }
    Ok(())
}

/// Serve requests over HTTP on `addr`, one request per POST body; `on_ready` hears the address once listening.
pub fn serve_http(addr: &str, on_ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let _ = (addr, on_ready);
    Ok(())
}
