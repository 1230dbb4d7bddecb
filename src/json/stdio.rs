//! Serving the API one request a line: read a line, answer it with one line, flush. Lines are read as bytes with
//! a length limit, so that a line that is not UTF-8 or never ends gets an Error response (or, at the end of the
//! input, none) instead of ending the loop or filling the memory.

use std::io::{self, BufRead, ErrorKind, Write};
use std::sync::atomic::{AtomicU64, Ordering};

use super::error::RequestError;
use super::request::Ids;
use super::{error_body, error_response, failure, respond_with, EngineSource, Engines, Thinking};

/// The longest request line read, in bytes (16 MiB): far more than any game needs. The rest of a longer line is
/// skipped, and the line gets an Error response.
pub const MAX_LINE: usize = 16 << 20;

/// What reading a line found.
enum Line {
    /// A line, without its end.
    Read,
    /// A line longer than the limit, skipped to its end.
    TooLong,
    /// The end of the input.
    End,
}

/// Answer each line of `input` with one line on `output`, skipping blank lines, until the input ends; `answered`
/// counts the responses written. One engine, built for the first request that thinks, serves them all.
pub fn serve(input: impl BufRead, output: impl Write, answered: &AtomicU64, thinking: &Thinking) -> io::Result<()> {
    serve_with(input, output, answered, thinking, |text, engines, waited| {
        respond_with(text, engines, waited, &thinking.notes)
    })
}

/// [`serve`], each request answered by `responder` ([`respond_with`], or a stand-in in tests).
fn serve_with(
    mut input: impl BufRead,
    mut output: impl Write,
    answered: &AtomicU64,
    thinking: &Thinking,
    responder: impl Fn(&str, &mut dyn EngineSource, std::time::Duration) -> String,
) -> io::Result<()> {
    let mut engines = Engines::new(thinking);
    let mut line = Vec::new();
    loop {
        let response = match read_line(&mut input, &mut line, MAX_LINE)? {
            Line::End => return Ok(()),
            Line::TooLong => error_response(&Ids::default(), &RequestError::TooLong(MAX_LINE)),
            Line::Read => match std::str::from_utf8(&line) {
                Ok(text) if text.trim().is_empty() => continue,
                // A request that panics is answered with an Error (its engine, perhaps half-changed, is thrown
                // away), and the next line is read.
                Ok(text) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    responder(text, &mut engines, std::time::Duration::ZERO)
                }))
                .unwrap_or_else(|panic| {
                    engines.forget();
                    error_body(&failure(panic.as_ref()))
                }),
                Err(_) => error_response(&Ids::default(), &RequestError::NotText),
            },
        };
        output.write_all(response.as_bytes())?;
        output.write_all(b"\n")?;
        output.flush()?;
        answered.fetch_add(1, Ordering::Relaxed);
    }
}

/// Read the next line of `input` into `line` (cleared first, without its `\n` or `\r\n`), keeping at most `max`
/// bytes of it.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<Line> {
    line.clear();
    let (mut any, mut too_long) = (false, false);
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        any = true;
        let (chunk, used, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], end + 1, true),
            None => (buffer, buffer.len(), false),
        };
        if line.len() + chunk.len() > max {
            too_long = true;
            line.clear();
        } else if !too_long {
            line.extend_from_slice(chunk);
        }
        input.consume(used);
        if done {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(match (any, too_long) {
        (false, _) => Line::End,
        (true, true) => Line::TooLong,
        (true, false) => Line::Read,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_skipped_to_their_end() {
        let mut input = io::Cursor::new(b"abcdefgh\nxy\r\n\nlast".to_vec());
        let mut line = Vec::new();
        assert!(matches!(read_line(&mut input, &mut line, 4).unwrap(), Line::TooLong));
        assert!(matches!(read_line(&mut input, &mut line, 4).unwrap(), Line::Read));
        assert_eq!(line, b"xy");
        assert!(matches!(read_line(&mut input, &mut line, 4).unwrap(), Line::Read));
        assert_eq!(line, b"");
        assert!(matches!(read_line(&mut input, &mut line, 4).unwrap(), Line::Read));
        assert_eq!(line, b"last");
        assert!(matches!(read_line(&mut input, &mut line, 4).unwrap(), Line::End));
    }

    #[test]
    fn every_line_but_blank_ones_is_answered() {
        let input = "{\"request_type\": \"Greetings\"}\n\n   \n[\n\u{0}\n";
        let mut output = Vec::new();
        let answered = AtomicU64::new(0);
        serve(io::Cursor::new(input), &mut output, &answered, &Thinking::default()).unwrap();
        let text = String::from_utf8(output).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(answered.load(Ordering::Relaxed), 3);
        assert!(lines[0].contains("\"Greetings\""));
        assert!(lines[1].contains("\"Error\"") && lines[2].contains("\"Error\""));
    }

    #[test]
    fn a_request_that_panics_gets_an_error_and_the_next_line_is_answered() {
        let input = "boom\n{\"request_type\": \"Greetings\"}\n";
        let mut output = Vec::new();
        let responder = |text: &str, engines: &mut dyn EngineSource, waited| {
            if text == "boom" {
                panic!("a fault made on purpose");
            }
            respond_with(text, engines, waited, &Default::default())
        };
        let thinking = Thinking::default();
        serve_with(
            io::Cursor::new(input),
            &mut output,
            &AtomicU64::new(0),
            &thinking,
            responder,
        )
        .unwrap();
        let text = String::from_utf8(output).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].contains("\"Error\"") && lines[0].contains("(a fault made on purpose)"),
            "{text}"
        );
        assert!(lines[1].contains("\"Greetings\""), "{text}");
    }
}
