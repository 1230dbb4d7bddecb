//! `waggle selfplay` then `waggle book`, as docs/tuning.md tells: games with random first plies become a book that
//! reads back and answers its positions.

mod common;

use waggle::book::Book;
use waggle::{Game, Rules};

fn waggle(args: &[&str]) -> String {
    let output = common::Waggle::new(args).run();
    assert!(output.success(), "{args:?}: {}", output.stderr);
    output.stdout
}

#[test]
fn self_play_games_make_a_book_that_reads_back() {
    let dir = std::env::temp_dir().join(format!("waggle-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.txt");
    let games = games.to_str().unwrap();
    waggle(&[
        "selfplay",
        "--games",
        "12",
        "--nodes",
        "200",
        "--openings",
        "1",
        "--game-type",
        "Base",
        "--max-plies",
        "30",
        "--out",
        games,
    ]);
    let text = waggle(&["book", games, "--plies", "1", "--min-games", "1"]);
    std::fs::remove_dir_all(&dir).unwrap();
    // One position, the start, with the best of Base's four first moves (the Queen may not open), the other
    // three as rivals.
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(lines[0].starts_with("Base;NotStarted;White[1]\t"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("#   rival: ")).count(),
        3,
        "{text}"
    );
    let book = Book::parse(&text).unwrap();
    let start = Game::new(waggle::GameType::BASE, Rules::default());
    let mv = book.choose(start.position()).unwrap();
    assert_eq!(
        lines[0].split('\t').nth(1),
        Some(start.move_string(mv).to_string().as_str())
    );
}
