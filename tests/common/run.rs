//! The `waggle` binary as the tests start it: the one place that does. A [`Waggle`] is the command (arguments,
//! text for its standard input, environment, working directory, a process group of its own, a shell's `ulimit`,
//! a timeout); run to its end it gives an [`Output`], started it is a [`Running`] process whose lines arrive as
//! they are printed. What the output must say is for each test to assert.

use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

/// The path of the binary under test, for command lines that another program runs (the arena's engines).
pub const WAGGLE: &str = env!("CARGO_BIN_EXE_waggle");

/// How long a run may take unless the test says otherwise: only a guard against a hang, never a measurement.
const PATIENCE: Duration = Duration::from_secs(600);

/// `waggle` with its arguments and surroundings, to run to its end ([`Waggle::run`]) or to start and drive
/// ([`Waggle::start`]).
#[derive(Clone, Debug)]
pub struct Waggle {
    args: Vec<OsString>,
    input: Vec<u8>,
    envs: Vec<(OsString, OsString)>,
    dir: Option<PathBuf>,
    ulimit: Option<String>,
    own_group: bool,
    timeout: Duration,
}

/// What a finished run left: its status and everything it printed.
#[derive(Debug)]
pub struct Output {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    /// The exit code, `None` when a signal ended it.
    pub fn code(&self) -> Option<i32> {
        self.status.code()
    }

    pub fn success(&self) -> bool {
        self.status.success()
    }
}

impl Waggle {
    /// `waggle ARGS`, with an empty standard input.
    pub fn new<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Waggle {
        Waggle {
            args: args.into_iter().map(|a| a.as_ref().to_owned()).collect(),
            input: Vec::new(),
            envs: Vec::new(),
            dir: None,
            ulimit: None,
            own_group: false,
            timeout: PATIENCE,
        }
    }

    /// `waggle` with no arguments: the UHP engine.
    pub fn engine() -> Waggle {
        Waggle::new::<[&str; 0], &str>([])
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Waggle {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Waggle {
        self.args.extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Bytes written to its standard input (from a thread, so that a large input cannot block on unread output),
    /// which is then closed: the end of input.
    pub fn input(mut self, bytes: impl AsRef<[u8]>) -> Waggle {
        self.input = bytes.as_ref().to_vec();
        self
    }

    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Waggle {
        self.envs.push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    /// Its working directory.
    pub fn dir(mut self, dir: impl AsRef<Path>) -> Waggle {
        self.dir = Some(dir.as_ref().to_owned());
        self
    }

    /// Started by `sh` after `ulimit LIMIT` (`-v KB`, `-n FILES`): a machine short of memory or files. The shell
    /// `exec`s the binary, so the process is still the binary's own.
    pub fn ulimit(mut self, limit: &str) -> Waggle {
        self.ulimit = Some(limit.to_string());
        self
    }

    /// In a process group of its own, as a terminal's foreground job is, so that [`Running::interrupt`] reaches
    /// it (and its children) as Ctrl-C does.
    pub fn own_group(mut self) -> Waggle {
        self.own_group = true;
        self
    }

    /// How long [`Waggle::run`] waits for the end (the default only guards against a hang).
    pub fn timeout(mut self, timeout: Duration) -> Waggle {
        self.timeout = timeout;
        self
    }

    fn command(&self) -> Command {
        let mut command = match &self.ulimit {
            None => Command::new(WAGGLE),
            Some(limit) => {
                let mut shell = Command::new("sh");
                shell
                    .arg("-c")
                    .arg(format!("ulimit {limit} && exec \"$0\" \"$@\""))
                    .arg(WAGGLE);
                shell
            }
        };
        command.args(&self.args).envs(self.envs.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        if self.own_group {
            std::os::unix::process::CommandExt::process_group(&mut command, 0);
        }
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command
    }

    /// The process with all three streams piped, its input (if any) written on a thread of its own and then
    /// closed, for a test that reads the streams its own way. Not killed when dropped: the test waits for it.
    pub fn spawn(&self) -> Child {
        let mut child = self
            .command()
            .spawn()
            .unwrap_or_else(|e| panic!("start waggle {:?}: {e}", self.args));
        let mut stdin = child.stdin.take().expect("stdin piped");
        let input = self.input.clone();
        if !input.is_empty() {
            // A process that ends without reading its input is for the test to judge, not a write error.
            thread::spawn(move || {
                let _ = stdin.write_all(&input);
            });
        }
        child
    }

    /// Start a server that prints its address first (`waggle web --listen 127.0.0.1:0`) and read that line: the
    /// process, its output read to its end by threads of their own, and the `http://…` URL it gave. The test kills
    /// it.
    pub fn serve(&self) -> (Child, String) {
        let mut child = self.spawn();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout piped"));
        let mut first = String::new();
        stdout.read_line(&mut first).expect("the address line");
        let url = first
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_string();
        let stderr = child.stderr.take().expect("stderr piped");
        read_all(stdout);
        read_all(stderr);
        (child, url)
    }

    /// [`Waggle::serve`], and the socket address of the URL it gave (`http://127.0.0.1:PORT/`).
    pub fn serve_at(&self) -> (Child, std::net::SocketAddr) {
        let (child, url) = self.serve();
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap_or_else(|_| panic!("no address in {url}"));
        (child, addr)
    }

    /// Run to the end and collect what it printed; panics if it has not ended within the timeout.
    pub fn run(&self) -> Output {
        self.run_within()
            .unwrap_or_else(|| panic!("waggle {:?} still running after {:?}", self.args, self.timeout))
    }

    /// Run to the end and collect what it printed, or `None` (the process killed) if it has not ended within the
    /// timeout.
    pub fn run_within(&self) -> Option<Output> {
        let mut child = self.spawn();
        let stdout = read_all(child.stdout.take().expect("stdout piped"));
        let stderr = read_all(child.stderr.take().expect("stderr piped"));
        let status = wait_within(&mut child, self.timeout);
        let Some(status) = status else {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        };
        let text = |bytes: thread::JoinHandle<Vec<u8>>, name: &str| {
            String::from_utf8(bytes.join().unwrap()).unwrap_or_else(|e| panic!("{name} is not UTF-8: {e}"))
        };
        Some(Output {
            status,
            stdout: text(stdout, "stdout"),
            stderr: text(stderr, "stderr"),
        })
    }

    /// Start it at a pseudo-terminal of its own, as a person runs it (its input, if any, is not sent: type it).
    #[cfg(unix)]
    pub fn start_at_terminal(&self) -> super::pty::Terminal {
        super::pty::Terminal::start(self.command())
    }

    /// Start it: its input (if any) sent, then left open for [`Running::send`]; its output read line by line.
    pub fn start(&self) -> Running {
        let mut child = self
            .command()
            .spawn()
            .unwrap_or_else(|e| panic!("start waggle {:?}: {e}", self.args));
        let mut stdin = child.stdin.take();
        if let Some(stdin) = stdin.as_mut() {
            stdin.write_all(&self.input).expect("input sent");
        }
        let stdout = lines(child.stdout.take().expect("stdout piped"));
        let stderr = lines(child.stderr.take().expect("stderr piped"));
        Running {
            child,
            stdin,
            stdout,
            stderr,
            own_group: self.own_group,
        }
    }
}

/// A started `waggle`, killed when dropped (also when a test fails).
pub struct Running {
    pub child: Child,
    /// Open until taken or [`Running::close_input`]: the end of input.
    pub stdin: Option<ChildStdin>,
    /// The lines of its standard output, as they are printed.
    pub stdout: Receiver<String>,
    /// The lines of its standard error, as they are printed.
    pub stderr: Receiver<String>,
    own_group: bool,
}

impl Running {
    /// Send `line` and a newline.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The end of input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The next line of standard output, if one comes within `wait`.
    pub fn line(&self, wait: Duration) -> Option<String> {
        self.stdout.recv_timeout(wait).ok()
    }

    /// SIGINT: to its whole process group if it has one of its own (Ctrl-C in a terminal), else to the process
    /// (a viewer cancelling a think).
    #[cfg(unix)]
    pub fn interrupt(&self) {
        let pid = libc::pid_t::try_from(self.child.id()).unwrap();
        let target = if self.own_group { -pid } else { pid };
        // SAFETY: kill only sends a signal, to the process or group this test started.
        assert_eq!(unsafe { libc::kill(target, libc::SIGINT) }, 0);
    }

    /// Its status if it ends within `within`.
    pub fn exits_within(&mut self, within: Duration) -> Option<ExitStatus> {
        wait_within(&mut self.child, within)
    }

    /// Wait for the end (at most `within`, else panic), then what it printed that was not yet read: the exit
    /// code, the rest of stdout and of stderr.
    pub fn finish(mut self, within: Duration) -> (Option<i32>, String, String) {
        let status = self
            .exits_within(within)
            .unwrap_or_else(|| panic!("still running {within:?} later"));
        let collect = |r: &Receiver<String>| r.iter().collect::<Vec<_>>().join("\n");
        (status.code(), collect(&self.stdout), collect(&self.stderr))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The lines of a stream, read on a thread of their own.
pub fn lines(stream: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, receiver) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    receiver
}

fn read_all(mut stream: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        bytes
    })
}

fn wait_within(child: &mut Child, within: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if Instant::now() > deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(5));
    }
}
