//! The learned evaluation's programs as a user runs them: `waggle datagen` writes the same file from the same seed
//! whatever its threads, and shards that join into the whole run; `waggle train` learns a net from it that the
//! engine plays with; files that are not what they should be are refused with the file and the reason.

mod common;

use common::{Scratch, Waggle};

fn datagen(out: &str, extra: &[&str]) -> common::Output {
    let mut args = vec!["datagen", "--games", "8", "--nodes", "200", "--seed", "5", "--out", out];
    args.extend_from_slice(extra);
    Waggle::new(args).run()
}

#[test]
fn datagen_repeats_for_a_seed_and_its_shards_join_into_the_run() {
    let dir = Scratch::new("datagen-cli");
    let (one, two) = (dir.path("one.bin"), dir.path("two.bin"));
    let made = datagen(&one, &["--threads", "1"]);
    assert!(made.success(), "{}", made.stderr);
    assert!(
        made.stderr.contains("waggle datagen: 8 of 8 games, "),
        "{}",
        made.stderr
    );
    assert!(made.stderr.contains(" positions a second"), "{}", made.stderr);
    assert!(datagen(&two, &["--threads", "2"]).success());
    let bytes = std::fs::read(&one).unwrap();
    assert!(!bytes.is_empty() && bytes.len() % 64 == 0);
    assert_eq!(bytes, std::fs::read(&two).unwrap(), "two threads write what one does");
    // Two shards hold every position of the run between them (each file leaves out its own repeats only).
    let (a, b) = (dir.path("a.bin"), dir.path("b.bin"));
    assert!(datagen(&a, &["--shard", "1/2"]).success());
    assert!(datagen(&b, &["--shard", "2/2"]).success());
    let shards = std::fs::read(&a).unwrap().len() + std::fs::read(&b).unwrap().len();
    assert!(shards >= bytes.len(), "{shards} < {}", bytes.len());
    let bad = datagen(&dir.path("c.bin"), &["--shard", "3/2"]);
    assert!(
        !bad.success() && bad.stderr.contains("is not a shard I/N"),
        "{}",
        bad.stderr
    );
}

#[test]
fn a_net_is_trained_from_datagen_s_file_and_bad_files_are_refused() {
    let dir = Scratch::new("train-cli");
    let data = dir.path("positions.bin");
    assert!(datagen(&data, &[]).success());
    let net = dir.path("net.nnue");
    let trained = Waggle::new(["train", &data, "--out", &net, "--epochs", "2", "--batch", "64"]).run();
    assert!(trained.success(), "{}", trained.stderr);
    assert!(
        trained.stderr.contains("the hand-written evaluation "),
        "{}",
        trained.stderr
    );
    assert!(trained.stderr.contains("epoch   2/2: "), "{}", trained.stderr);
    let played = Waggle::new(["--eval", "net", "--eval-file", &net])
        .input("newgame Base+MLP\nplay wS1\nbestmove depth 2\noptions get EvalFile\n")
        .run();
    assert!(played.success(), "{}", played.stderr);
    assert!(!played.stdout.contains("err"), "{}", played.stdout);
    assert!(
        played
            .stdout
            .contains(&format!("EvalFile;enum;{net};Builtin;Builtin;{net}")),
        "{}",
        played.stdout
    );

    // A file cut in the middle of a record, and one that is not records at all.
    let cut = dir.path("cut.bin");
    let bytes = std::fs::read(&data).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 10]).unwrap();
    let refused = Waggle::new(["train", &cut, "--out", &dir.path("x.nnue")]).run();
    assert!(!refused.success());
    assert!(
        refused.stderr.contains(&cut) && refused.stderr.contains("cut short"),
        "{}",
        refused.stderr
    );
    let foreign = dir.path("foreign.bin");
    std::fs::write(&foreign, [7u8; 128]).unwrap();
    let refused = Waggle::new(["train", &foreign, "--out", &dir.path("x.nnue")]).run();
    assert!(
        refused
            .stderr
            .contains("record 0 (byte 0): not a Waggle training record"),
        "{}",
        refused.stderr
    );
    // A net file that is not one: the engine refuses to start, naming the file and why.
    let refused = Waggle::new(["--eval-file", &data]).input("").run();
    assert!(!refused.success());
    assert!(
        refused
            .stderr
            .contains(&format!("EvalFile {data}: not a Waggle net file")),
        "{}",
        refused.stderr
    );
}
