//! The binary at a pseudo-terminal ([`super::Waggle::start_at_terminal`]), as a person runs it in a terminal
//! window: the terminal is its controlling terminal and it is the terminal's foreground process group, its stdin,
//! stdout and stderr are the terminal, and Ctrl-C typed at the keyboard (`\x03` written to the terminal) makes the
//! terminal driver send SIGINT to that group, as a keypress does. What it prints can be read as bytes or as the
//! screen a terminal would show.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The terminal's width in columns.
pub const COLUMNS: u16 = 100;
/// The terminal's height in rows.
pub const ROWS: u16 = 40;

/// Everything the program wrote to the terminal (and the terminal echoed), and whether the terminal has closed.
#[derive(Default)]
struct Output {
    bytes: Vec<u8>,
    closed: bool,
}

/// How a program at a terminal ended.
pub struct Exit {
    /// Its status code (none when a signal ended it).
    pub code: Option<i32>,
    /// Everything shown, as [`Terminal::text`] gives it.
    pub text: String,
    /// The screen at the end, as [`Terminal::screen`] gives it.
    pub screen: Vec<String>,
    /// Whether the program left the terminal as a shell expects it: echoing what is typed and reading lines (a
    /// line editor turns both off while it reads).
    pub line_mode: bool,
}

/// A running `waggle` at a terminal.
pub struct Terminal {
    child: Child,
    /// The terminal's master side: what is written to it is typed, what is read from it was shown.
    keyboard: File,
    output: Arc<(Mutex<Output>, Condvar)>,
}

impl Terminal {
    /// Start `command` (from [`super::Waggle::start_at_terminal`]) at a new terminal.
    pub(super) fn start(mut command: Command) -> Terminal {
        let (master, slave) = open_terminal();
        command
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: between fork and exec the child only makes system calls that are async-signal-safe: setsid makes
        // it a session (and process group) of its own, and TIOCSCTTY makes its stdin, the terminal, that
        // session's controlling terminal, with the child as the foreground group.
        unsafe {
            command.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY as _, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("start waggle at a terminal");
        // The command keeps the slave's descriptors until it is dropped: once only the child holds them, reading
        // the master ends when the child and all it started have closed the terminal.
        drop(command);
        let keyboard = File::from(master.try_clone().unwrap());
        let output = Arc::new((Mutex::new(Output::default()), Condvar::new()));
        let shown = output.clone();
        thread::spawn(move || {
            let mut screen = File::from(master);
            let mut buffer = [0u8; 4096];
            loop {
                // Linux answers EIO once no process holds the terminal any more.
                let read = screen.read(&mut buffer).unwrap_or(0);
                let (lock, changed) = &*shown;
                let mut output = lock.lock().unwrap();
                if read == 0 {
                    output.closed = true;
                    changed.notify_all();
                    return;
                }
                output.bytes.extend_from_slice(&buffer[..read]);
                changed.notify_all();
            }
        });
        Terminal {
            child,
            keyboard,
            output,
        }
    }

    /// Type `keys` at the keyboard.
    pub fn type_keys(&mut self, keys: &str) {
        self.keyboard.write_all(keys.as_bytes()).unwrap();
        self.keyboard.flush().unwrap();
    }

    /// Type Ctrl-C.
    pub fn ctrl_c(&mut self) {
        self.type_keys("\x03");
    }

    /// Everything shown so far, as text, each `\r\n` the terminal turns a line break into read as `\n`.
    pub fn text(&self) -> String {
        let output = self.output.0.lock().unwrap();
        String::from_utf8_lossy(&output.bytes).replace("\r\n", "\n")
    }

    /// Wait up to `within` until `text` has been shown `times` times in all; whether it was.
    pub fn wait_for_times(&self, text: &str, times: usize, within: Duration) -> bool {
        self.wait_until(within, |shown| {
            shown.replace("\r\n", "\n").matches(text).count() >= times
        })
    }

    /// Wait up to `within` until the screen ([`Terminal::screen`]) has `times` lines that read `line` and nothing
    /// else; whether it has. Where a line editor prompts while the program prints (the engine reads `stop` while
    /// it searches), the editor's redrawing comes between the lines written, and only the screen shows them as
    /// a person reads them.
    pub fn wait_for_line_times(&self, line: &str, times: usize, within: Duration) -> bool {
        self.wait_until(within, |shown| {
            screen(shown, usize::from(COLUMNS))
                .iter()
                .filter(|shown| shown.as_str() == line)
                .count()
                >= times
        })
    }

    /// Wait up to `within` until `done` holds for everything shown so far (as written, escape sequences and
    /// all); whether it did.
    fn wait_until(&self, within: Duration, done: impl Fn(&str) -> bool) -> bool {
        let deadline = Instant::now() + within;
        let (lock, changed) = &*self.output;
        let mut output = lock.lock().unwrap();
        loop {
            if done(&String::from_utf8_lossy(&output.bytes)) {
                return true;
            }
            let now = Instant::now();
            if output.closed || now >= deadline {
                return false;
            }
            output = changed.wait_timeout(output, deadline - now).unwrap().0;
        }
    }

    /// Wait up to `within` until `text` has been shown; whether it was.
    pub fn wait_for(&self, text: &str, within: Duration) -> bool {
        self.wait_for_times(text, 1, within)
    }

    /// Wait for the exit (at most `within`, else the test fails), then its status code and everything shown.
    pub fn finish(mut self, within: Duration) -> Exit {
        let deadline = Instant::now() + within;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                let shown = self.text();
                panic!("still running {within:?} later; the terminal shows:\n{shown}");
            }
            thread::sleep(Duration::from_millis(10));
        };
        // What it printed last is still on its way through the terminal: read to the end, or for a moment when
        // something it started still holds the terminal.
        let (lock, changed) = &*self.output;
        let output = lock.lock().unwrap();
        drop(
            changed
                .wait_timeout_while(output, Duration::from_secs(5), |o| !o.closed)
                .unwrap(),
        );
        Exit {
            code: status.code(),
            text: self.text(),
            screen: self.screen(),
            line_mode: self.line_mode(),
        }
    }

    /// Whether the terminal echoes what is typed and reads whole lines (ECHO and ICANON).
    fn line_mode(&self) -> bool {
        // SAFETY: tcgetattr fills the zeroed termios it is given from the open descriptor of the terminal's master
        // side, whose settings are the terminal's.
        let mut settings: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(self.keyboard.as_raw_fd(), &mut settings) } != 0 {
            return false;
        }
        settings.c_lflag & (libc::ECHO | libc::ICANON) == (libc::ECHO | libc::ICANON)
    }

    /// The lines a terminal of [`COLUMNS`] columns shows after everything written so far, scrolled-off lines
    /// included, without their trailing blanks.
    pub fn screen(&self) -> Vec<String> {
        let output = self.output.0.lock().unwrap();
        screen(&String::from_utf8_lossy(&output.bytes), usize::from(COLUMNS))
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A new pseudo-terminal of [`COLUMNS`] × [`ROWS`], as the master and the slave side, neither inherited by other
/// programs this test process starts.
fn open_terminal() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (-1, -1);
    let size = libc::winsize {
        ws_row: ROWS,
        ws_col: COLUMNS,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes the two descriptors it opens into the integers given; the name and the terminal
    // settings may be null (the defaults: a terminal in cooked mode, echoing, with Ctrl-C as its interrupt key),
    // and the size is read from a struct on this stack frame.
    let opened = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), &size) };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: openpty has just opened both descriptors, and nothing else owns them.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    // A terminal throws away what was printed and not yet shown when Ctrl-C is typed (the driver flushes its output
    // queue just after it sends SIGINT), and so may lose what the program prints at once in answer, or a line
    // printed a moment before. A person's terminal shows output as it comes; this one's reader thread can lag
    // behind on a busy machine. NOFLSH keeps the queue, so that a test reads everything the program wrote.
    // SAFETY: tcgetattr fills the zeroed termios from the slave descriptor just opened, and tcsetattr reads it.
    unsafe {
        let mut settings: libc::termios = std::mem::zeroed();
        assert_eq!(libc::tcgetattr(slave.as_raw_fd(), &mut settings), 0, "tcgetattr");
        settings.c_lflag |= libc::NOFLSH;
        assert_eq!(
            libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &settings),
            0,
            "tcsetattr"
        );
    }
    for fd in [&master, &slave] {
        // SAFETY: FD_CLOEXEC on a descriptor this function owns changes nothing but whether exec keeps it.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    (master, slave)
}

/// What a terminal `columns` wide shows after `text`: the lines written (none scrolled away), each without its
/// trailing blanks. It knows what Waggle's output and a progress bar use: printable characters with the wrap at
/// the last column, carriage return, line feed, backspace, tab, and the ANSI cursor moves (up, down, right, left,
/// to a column) and erasures (of the line, of the screen below); other escape sequences change nothing shown.
pub fn screen(text: &str, columns: usize) -> Vec<String> {
    let mut lines: Vec<Vec<char>> = vec![Vec::new()];
    let (mut row, mut column) = (0usize, 0usize);
    // A character written in the last column leaves the cursor there until the next one, which starts a new line.
    let mut wrap_next = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => (column, wrap_next) = (0, false),
            '\n' => (row, wrap_next) = (row + 1, false),
            '\u{8}' => (column, wrap_next) = (column.saturating_sub(1), false),
            '\t' => column = ((column / 8 + 1) * 8).min(columns - 1),
            '\u{1b}' => {
                if chars.peek() != Some(&'[') {
                    chars.next();
                    continue;
                }
                chars.next();
                let mut parameters = String::new();
                let mut last = None;
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        last = Some(c);
                        break;
                    }
                    parameters.push(c);
                }
                let n = parameters.trim_start_matches('?').parse::<usize>().unwrap_or(0);
                wrap_next = false;
                let line = |lines: &mut Vec<Vec<char>>, row: usize| {
                    while lines.len() <= row {
                        lines.push(Vec::new());
                    }
                };
                match last {
                    Some('A') => row = row.saturating_sub(n.max(1)),
                    Some('B') => row += n.max(1),
                    Some('C') => column = (column + n.max(1)).min(columns - 1),
                    Some('D') => column = column.saturating_sub(n.max(1)),
                    Some('G') => column = n.max(1).min(columns) - 1,
                    Some('K') => {
                        line(&mut lines, row);
                        let cells = &mut lines[row];
                        match n {
                            0 => cells.truncate(column),
                            1 => cells.iter_mut().take(column + 1).for_each(|cell| *cell = ' '),
                            _ => cells.clear(),
                        }
                    }
                    Some('J') if n == 0 => {
                        line(&mut lines, row);
                        lines[row].truncate(column);
                        lines.truncate(row + 1);
                    }
                    _ => {}
                }
            }
            c if c.is_control() => {}
            c => {
                if wrap_next {
                    (row, column, wrap_next) = (row + 1, 0, false);
                }
                while lines.len() <= row {
                    lines.push(Vec::new());
                }
                let cells = &mut lines[row];
                while cells.len() <= column {
                    cells.push(' ');
                }
                cells[column] = c;
                if column + 1 == columns {
                    wrap_next = true;
                } else {
                    column += 1;
                }
            }
        }
    }
    let mut shown: Vec<String> = lines
        .into_iter()
        .map(|cells| cells.into_iter().collect::<String>().trim_end().to_string())
        .collect();
    while shown.last().is_some_and(String::is_empty) {
        shown.pop();
    }
    shown
}
