//! What `waggle --version` says it was built from: the version, and the commit when built from a git checkout
//! (`-dirty` when the sources differ from it), never a commit it cannot vouch for; and cargo builds again when
//! another commit is checked out or made. The build script is tried on checkouts made here (a worktree among them),
//! and a small crate built with it shows that cargo runs it again when HEAD moves.

#[allow(dead_code)]
#[path = "../build.rs"]
mod build_script;
mod common;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use build_script::{commit, version};
use common::{Scratch, Waggle};

/// Whether git runs here; if not, the test says loudly that it skips (past the harness's capture of `eprintln!`).
fn git_available(test: &str) -> bool {
    let runs = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !runs {
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIPPED {test}: `git` is not installed here (Debian: apt-get install git) ***\n"
        );
    }
    runs
}

/// `git ARGS` in `dir`, which must succeed; its output, trimmed.
fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=Waggle test", "-c", "user.email=test@waggle.invalid"])
        .args(["-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("run git");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_string()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn version_and_id_name_what_was_built() {
    let output = Waggle::new(["--version"]).run();
    assert!(output.success());
    let said = output.stdout;
    // What the build script finds now: the binary was built from this checkout just before the tests ran.
    let built = commit(Path::new(env!("CARGO_MANIFEST_DIR")));
    let expected = format!("waggle {}\n", version(env!("CARGO_PKG_VERSION"), built.as_ref()));
    assert_eq!(said, expected);
    if let Some(built) = &built {
        assert!(said.contains(&format!("({}", built.hash)), "{said}");
    }
    // The UHP engine, its input ended at once.
    let stdout = Waggle::engine().run().stdout;
    assert_eq!(
        stdout.lines().next(),
        Some(format!("id Waggle v{}", env!("CARGO_PKG_VERSION")).as_str())
    );
}

#[test]
fn the_commit_is_named_only_from_a_checkout_of_the_crate_itself() {
    if !git_available("the_commit_is_named_only_from_a_checkout_of_the_crate_itself") {
        return;
    }
    let scratch = Scratch::new("checkouts");
    // No repository: an unpacked tarball.
    let tarball = scratch.0.join("tarball");
    write(&tarball.join("src/main.rs"), "fn main() {}\n");
    assert_eq!(commit(&tarball), None);
    assert_eq!(version("1.2.3", None), "1.2.3");

    let repo = scratch.0.join("repo");
    write(&repo.join("Cargo.toml"), "[package]\n");
    write(&repo.join("src/main.rs"), "fn main() {}\n");
    write(&repo.join("README.md"), "A crate.\n");
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    let first = commit(&repo).expect("a checkout");
    assert_eq!(first.hash, git(&repo, &["rev-parse", "--short", "HEAD"]));
    assert!(!first.dirty);
    assert_eq!(version("1.2.3", Some(&first)), format!("1.2.3 ({})", first.hash));
    let head = repo.join(".git/HEAD");
    let branch = repo.join(".git/refs/heads/main");
    assert!(first.watch.iter().any(|p| same(p, &head)), "{:?}", first.watch);
    assert!(first.watch.iter().any(|p| same(p, &branch)), "{:?}", first.watch);

    // The docs changing is not another binary; a source changing is.
    write(&repo.join("README.md"), "A crate, changed.\n");
    assert!(!commit(&repo).unwrap().dirty);
    write(&repo.join("src/main.rs"), "fn main() { println!(); }\n");
    let changed = commit(&repo).unwrap();
    assert!(changed.dirty);
    assert_eq!(
        version("1.2.3", Some(&changed)),
        format!("1.2.3 ({}-dirty)", first.hash)
    );
    write(&repo.join("src/extra.rs"), "\n");
    git(&repo, &["checkout", "-q", "--", "src/main.rs"]);
    assert!(commit(&repo).unwrap().dirty, "a new, untracked source");
    std::fs::remove_file(repo.join("src/extra.rs")).unwrap();
    assert!(!commit(&repo).unwrap().dirty);

    // A crate unpacked inside some other repository is not that repository's commit.
    write(&repo.join("vendor/other/src/main.rs"), "fn main() {}\n");
    assert_eq!(commit(&repo.join("vendor/other")), None);
    std::fs::remove_dir_all(repo.join("vendor")).unwrap();

    // A worktree (as the developers work in): `.git` is a file, HEAD lives under the main repository's .git, the
    // branch in the shared refs; a packed branch is watched through its folder and packed-refs.
    let worktree = scratch.0.join("worktree");
    git(
        &repo,
        &["worktree", "add", "-q", "-b", "side", worktree.to_str().unwrap()],
    );
    assert!(worktree.join(".git").is_file());
    let side = commit(&worktree).expect("a worktree is a checkout");
    assert_eq!(side.hash, first.hash);
    assert!(!side.dirty);
    assert!(
        side.watch
            .iter()
            .any(|p| same(p, &repo.join(".git/worktrees/worktree/HEAD"))),
        "{:?}",
        side.watch
    );
    assert!(
        side.watch.iter().any(|p| same(p, &repo.join(".git/refs/heads/side"))),
        "{:?}",
        side.watch
    );
    git(&repo, &["pack-refs", "--all"]);
    let packed = commit(&worktree).unwrap();
    assert!(
        packed.watch.iter().any(|p| same(p, &repo.join(".git/refs/heads"))),
        "{:?}",
        packed.watch
    );
    assert!(
        packed.watch.iter().any(|p| same(p, &repo.join(".git/packed-refs"))),
        "{:?}",
        packed.watch
    );
}

/// Whether two paths name the same file.
fn same(a: &Path, b: &Path) -> bool {
    a.canonicalize().ok().is_some_and(|a| b.canonicalize().ok() == Some(a))
}

#[test]
fn cargo_builds_again_when_another_commit_is_checked_out_or_made() {
    if !git_available("cargo_builds_again_when_another_commit_is_checked_out_or_made") {
        return;
    }
    // A crate of no dependencies with Waggle's build script, which prints the version it was built with.
    let scratch = Scratch::new("rebuild");
    let repo = scratch.0.join("probe");
    write(
        &repo.join("Cargo.toml"),
        "[package]\nname = \"probe\"\nversion = \"1.2.3\"\nedition = \"2021\"\n",
    );
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/build.rs"), repo.join("build.rs")).unwrap();
    write(
        &repo.join("src/main.rs"),
        "fn main() { println!(\"{}\", env!(\"WAGGLE_VERSION\")); }\n",
    );
    write(&repo.join(".gitignore"), "/target\n");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target = scratch.0.join("target");
    let built = || {
        let status = Command::new(&cargo)
            .args(["build", "--quiet", "--offline", "--manifest-path"])
            .arg(repo.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", &target)
            .status()
            .unwrap();
        assert!(status.success());
        let output = Command::new(target.join("debug/probe")).output().unwrap();
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    };
    let hash = || git(&repo, &["rev-parse", "--short", "HEAD"]);

    // Cargo.lock is a source (a binary's dependencies): committed with the rest.
    let locked = Command::new(&cargo)
        .args(["generate-lockfile", "--offline", "--manifest-path"])
        .arg(repo.join("Cargo.toml"))
        .status()
        .unwrap();
    assert!(locked.success());
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    let first = hash();
    assert_eq!(built(), format!("1.2.3 ({first})"));
    write(
        &repo.join("src/main.rs"),
        "fn main() { println!(\"{}\", env!(\"WAGGLE_VERSION\")); }\n\n",
    );
    assert_eq!(built(), format!("1.2.3 ({first}-dirty)"));
    git(&repo, &["commit", "-q", "-am", "second"]);
    let second = hash();
    assert_ne!(first, second);
    assert_eq!(built(), format!("1.2.3 ({second})"), "a commit made");
    git(&repo, &["checkout", "-q", &first]);
    assert_eq!(
        built(),
        format!("1.2.3 ({first})"),
        "another commit checked out (a detached HEAD)"
    );
    git(&repo, &["checkout", "-q", "-b", "side"]);
    git(&repo, &["commit", "-q", "--allow-empty", "-m", "third"]);
    assert_eq!(built(), format!("1.2.3 ({})", hash()), "a commit on a new branch");
    git(&repo, &["pack-refs", "--all"]);
    git(&repo, &["commit", "-q", "--allow-empty", "-m", "fourth"]);
    assert_eq!(built(), format!("1.2.3 ({})", hash()), "a commit on a packed branch");
    git(&repo, &["reset", "-q", "--hard", &second]);
    assert_eq!(built(), format!("1.2.3 ({second})"), "a branch reset");
    // The git files gone (a copy of the folder without them): the version alone.
    std::fs::remove_dir_all(repo.join(".git")).unwrap();
    assert_eq!(built(), "1.2.3");
}
