//! The progress bars of the long subcommands (`waggle review`'s moves judged, `waggle datagen`'s games, `waggle db
//! add`'s games read), on stderr, drawn in place when stderr is a terminal and hidden otherwise. Owns where and how
//! a bar is drawn; what is printed around it is the subcommand's.
//!
//! On a Unix terminal the bar is drawn through [`Line`] rather than indicatif's own terminal: indicatif pads the
//! bar's line with blanks to the terminal's last column, and the `^C` a terminal echoes for Ctrl-C then wraps onto a
//! line of its own, so that clearing the bar before the summary cleared that line and left the bar standing above
//! the summary.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar of `total` steps, its text after the bar drawn by `template` (indicatif's: `{pos}`, `{len}`,
/// `{eta}`, `{msg}` …).
pub fn progress_bar(total: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), target());
    if let Ok(style) = ProgressStyle::with_template(&format!("{{bar:40}} {template}")) {
        bar.set_style(style);
    }
    bar
}

/// A count of steps with no known end (`waggle db add`'s games), drawn by `template` (`{pos}`, `{per_sec}` …).
#[cfg(feature = "db")]
pub fn counter(template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, target());
    if let Ok(style) = ProgressStyle::with_template(&format!("{{spinner}} {template}")) {
        bar.set_style(style);
    }
    bar
}

/// Stderr when it is a terminal, drawn on without padding; nothing otherwise.
#[cfg(unix)]
fn target() -> ProgressDrawTarget {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::term_like_with_hz(Box::new(Line::default()), 20)
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// Stderr when it is a terminal (indicatif's own; a Windows console echoes nothing for Ctrl-C), nothing otherwise.
#[cfg(not(unix))]
fn target() -> ProgressDrawTarget {
    ProgressDrawTarget::stderr()
}

/// Stderr as the bar draws on it: ANSI sequences, written at each flush, and the blanks that would pad a line to
/// the terminal's edge left out, so that the cursor stays just after the bar's text.
#[cfg(unix)]
#[derive(Debug, Default)]
struct Line {
    pending: std::sync::Mutex<Vec<u8>>,
}

#[cfg(unix)]
impl Line {
    fn add(&self, bytes: &[u8]) -> std::io::Result<()> {
        match self.pending.lock() {
            Ok(mut pending) => {
                pending.extend_from_slice(bytes);
                Ok(())
            }
            Err(_) => Err(std::io::Error::other("the progress bar's buffer was poisoned")),
        }
    }

    /// The terminal's size in columns and rows, where stderr says.
    fn size() -> Option<(u16, u16)> {
        let mut size = libc::winsize {
            ws_row: 0,
            ws_col: 0,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: TIOCGWINSZ only writes the struct it is given, which lives on this stack frame; a failure
        // leaves it as it was and is checked.
        let asked = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) };
        (asked == 0 && size.ws_col > 0 && size.ws_row > 0).then_some((size.ws_col, size.ws_row))
    }
}

#[cfg(unix)]
impl indicatif::TermLike for Line {
    fn width(&self) -> u16 {
        Line::size().map_or(80, |(columns, _)| columns)
    }

    fn height(&self) -> u16 {
        Line::size().map_or(24, |(_, rows)| rows)
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.add(format!("\x1b[{n}A").as_bytes())
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.add(format!("\x1b[{n}B").as_bytes())
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.add(format!("\x1b[{n}C").as_bytes())
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.add(format!("\x1b[{n}D").as_bytes())
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.add(s.as_bytes())?;
        self.add(b"\n")
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        // indicatif writes the padding as a string of blanks of its own.
        if !s.is_empty() && s.bytes().all(|b| b == b' ') {
            return Ok(());
        }
        self.add(s.as_bytes())
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.add(b"\r\x1b[2K")
    }

    fn flush(&self) -> std::io::Result<()> {
        use std::io::Write;
        let bytes = match self.pending.lock() {
            Ok(mut pending) => std::mem::take(&mut *pending),
            Err(_) => return Err(std::io::Error::other("the progress bar's buffer was poisoned")),
        };
        let mut stderr = std::io::stderr();
        stderr.write_all(&bytes)?;
        stderr.flush()
    }
}
