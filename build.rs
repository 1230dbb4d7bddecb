//! The build script: the version `waggle --version` prints, with the commit the binary is built from when it is
//! built from a git checkout of Waggle (`0.2.0 (c40be84)`, `-dirty` when its sources differ from that commit), and
//! the version alone otherwise (a `cargo package` tarball, no git): it never names a commit it cannot vouch for.
//!
//! tests/command_line.rs includes this file to try `commit` on checkouts of its own making.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The files whose changes make another binary, and so decide `-dirty`.
const SOURCES: [&str; 4] = ["src", "Cargo.toml", "Cargo.lock", "build.rs"];

/// The commit a build of the crate in `dir` comes from.
#[derive(Debug, PartialEq, Eq)]
pub struct Commit {
    /// Its short hash.
    pub hash: String,
    /// Whether the sources differ from it.
    pub dirty: bool,
    /// The git files that move when another commit is checked out or made: HEAD, and the ref it points to.
    pub watch: Vec<PathBuf>,
}

/// The commit checked out in `dir`, if `dir` is the top of a git checkout (and not a folder inside some other
/// repository, as an unpacked tarball may be) and git runs.
pub fn commit(dir: &Path) -> Option<Commit> {
    let git = |args: &[&str]| -> Option<String> {
        let output = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
    };
    let top = PathBuf::from(git(&["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    let hash = git(&["rev-parse", "--short", "HEAD"])?;
    // Without taking the index's lock, which another git command in the same checkout may hold.
    let mut status = vec!["--no-optional-locks", "status", "--porcelain", "--"];
    status.extend(SOURCES);
    let dirty = !git(&status)?.is_empty();
    // In a worktree `.git` is a file, HEAD is in the worktree's own git folder and the branches in the shared one:
    // git says where each is.
    let path = |name: &str| git(&["rev-parse", "--git-path", name]).map(|p| dir.join(p));
    let mut watch = vec![path("HEAD")?];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        let loose = path(&branch)?;
        // A branch may be packed, and written loose again by the next commit: watch its folder until it is.
        if loose.exists() {
            watch.push(loose);
        } else if let Some(folder) = loose.parent() {
            watch.push(folder.to_path_buf());
        }
        watch.extend(path("packed-refs").filter(|p| p.exists()));
    }
    Some(Commit { hash, dirty, watch })
}

/// The version as `--version` gives it: `0.2.0 (c40be84)`, `0.2.0 (c40be84-dirty)`, or `0.2.0`.
pub fn version(package: &str, commit: Option<&Commit>) -> String {
    match commit {
        Some(Commit { hash, dirty: false, .. }) => format!("{package} ({hash})"),
        Some(Commit { hash, dirty: true, .. }) => format!("{package} ({hash}-dirty)"),
        None => package.to_string(),
    }
}

#[allow(dead_code)] // when tests/command_line.rs includes this file
fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let commit = commit(&dir);
    // Run again when the sources change (for `-dirty`) or another commit is checked out or made.
    for source in SOURCES {
        println!("cargo:rerun-if-changed={source}");
    }
    // Not in a checkout, nothing more: watching a `.git` that is missing would run this again at every build (and
    // a folder that becomes a checkout later just keeps saying the version alone, which is still true).
    for path in commit.iter().flat_map(|c| &c.watch) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let package = std::env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    println!("cargo:rustc-env=WAGGLE_VERSION={}", version(&package, commit.as_ref()));
}
