//! The real binary driven over pipes, as Mzinga.Viewer, scripts and people drive it.

mod common;

use std::io::Write;
use std::thread;
use std::time::{Duration, Instant};

use common::Engine;
use waggle::{GameType, MoveString};

#[test]
fn every_command_and_error_path() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.ask("info").len(), 2);
    assert!(e.one("validmoves").starts_with("err No game in progress"));
    assert!(e.one("play wS1").starts_with("err No game in progress"));
    assert!(e.one("undo").starts_with("err No game in progress"));
    assert!(e.one("bestmove depth 1").starts_with("err No game in progress"));
    assert_eq!(e.one("newgame"), "Base;NotStarted;White[1]");
    assert_eq!(e.one("  NewGame   Base+MLP  \r"), "Base+MLP;NotStarted;White[1]");
    // a blank line gives no output at all: the next reply is the next command's
    e.send("");
    e.send("   \t ");
    assert_eq!(e.one("play wS1"), "Base+MLP;InProgress;Black[1];wS1");
    for bad in [
        "play bQ wS1-",
        "play xyz",
        "play wS2 wS1-",
        "play bS1 bQ-",
        "pass",
        "play wM",
        "play bS1",
    ] {
        let reply = e.one(bad);
        assert!(reply.starts_with("invalidmove "), "{bad}: {reply}");
        assert!(e.one("undo 0").starts_with("err"));
    }
    // nothing changed through all of that
    assert_eq!(e.one("play bS1 wS1-"), "Base+MLP;InProgress;White[2];wS1;bS1 wS1-");
    let moves = e.one("validmoves");
    assert_eq!(moves.split(';').count(), 24, "{moves}");
    assert!(e.one("undo 3").starts_with("err"));
    assert_eq!(e.one("undo 2"), "Base+MLP;NotStarted;White[1]");
    assert!(e.one("bestmove nonsense").starts_with("err"));
    assert!(e.one("bestmove time 5").starts_with("err"));
    assert!(e.one("frobnicate").starts_with("err"));
    assert_eq!(
        e.one("newgame Base;InProgress;White[2];wS1;bS1 wS1-"),
        "Base;InProgress;White[2];wS1;bS1 wS1-"
    );
    assert!(e.one("newgame Base;InProgress;White[2];wS1;bS1 wQ-").starts_with("err"));
    assert!(e.one("newgame Bogus").starts_with("err"));
    // the failed loads left the game as it was
    assert_eq!(e.one("play wQ -wS1"), "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1");
    assert!(e.ask("help").len() > 10);
    assert!(e.ask("board").len() >= 2);
    assert_eq!(e.ask("history").len(), 3);
    let mut pos = common::position("Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1").unwrap();
    let perft2 = e.ask("perft 2");
    assert!(
        perft2[0].starts_with(&format!("perft(1) = {} ", waggle::perft::perft(&mut pos, 1))),
        "{perft2:?}"
    );
    assert!(
        perft2[1].starts_with(&format!("perft(2) = {} ", waggle::perft::perft(&mut pos, 2))),
        "{perft2:?}"
    );
    assert_eq!(e.ask("options").len(), 10);
    // The evaluation: the network or the hand-written one; a net file that cannot be used is refused with why,
    // and the option stays as it was.
    assert_eq!(
        e.one("options set Evaluation Classic"),
        "Evaluation;enum;Classic;Net;Net;Classic"
    );
    let missing = e.one("options set EvalFile /no/such/file.nnue");
    assert!(missing.starts_with("err EvalFile /no/such/file.nnue: "), "{missing}");
    let not_a_net = e.one(&format!("options set EvalFile {}", file!()));
    assert!(
        not_a_net.ends_with("not a Waggle net file (it does not start with WAGGLENN)"),
        "{not_a_net}"
    );
    assert_eq!(e.one("options get EvalFile"), "EvalFile;enum;Builtin;Builtin;Builtin");
    assert_eq!(
        e.one("options set Evaluation Net"),
        "Evaluation;enum;Net;Net;Net;Classic"
    );
    assert_eq!(e.one("options get MaxHashSize"), "MaxHashSize;int;64;64;1;4096");
    // A level out of its range, or not a number, is refused with the range, and the level stays.
    for bad in ["0", "11", "eleven"] {
        assert_eq!(
            e.one(&format!("options set Level {bad}")),
            "err Level must be a whole number from 1 to 10"
        );
        assert_eq!(e.one("options get Level"), "Level;int;10;10;1;10");
    }
    assert_eq!(e.one("options set Level 3"), "Level;int;3;10;1;10");
    assert_eq!(e.one("options set Level 10"), "Level;int;10;10;1;10");
    assert!(e.one("options get Nope").starts_with("err"));
    assert!(e.one("options set MaxHashSize 0").starts_with("err"));
    assert!(e
        .one("options set ReportIntermediateBestMoves maybe")
        .starts_with("err"));
    assert_eq!(e.one("options get MaxHashSize"), "MaxHashSize;int;64;64;1;4096");
    assert_eq!(e.one("options set MaxHashSize 16"), "MaxHashSize;int;16;64;1;4096");
    assert_eq!(
        e.one("options set ThreefoldRepetitionDraw true"),
        "ThreefoldRepetitionDraw;bool;True;False"
    );
    // a finished game must say so, refuses moves but can be undone
    let moves = "wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 -wQ;bG1 bQ-;wA1 wG1\\;bA1 bQ\\;wA2 \\wQ;bA2 \\bG1;wG2 wQ/;bG1 wG2\\";
    let history = e.ask("history");
    assert_eq!(
        e.one("newgame Base;InProgress;White[2];wS1"),
        "err the GameString's turn field says White[2], but its moves give Black[1]"
    );
    assert_eq!(
        e.one("newgame Base+MLP;WhiteWins;White[2];wS1;bS1 wS1-"),
        "err the GameString's state field says WhiteWins, but its moves give InProgress"
    );
    assert_eq!(
        e.one(&format!("newgame Base;InProgress;White[7];{moves}")),
        "err the GameString's state field says InProgress, but its moves give BlackWins"
    );
    assert_eq!(e.ask("history"), history, "the game it had is kept");
    let loaded = e.one(&format!("newgame Base;BlackWins;White[7];{moves}"));
    assert!(loaded.starts_with("Base;BlackWins;White[7]"), "{loaded}");
    for cmd in ["play wB1 wG2/", "pass", "validmoves", "bestmove depth 1"] {
        let reply = e.one(cmd);
        assert!(reply.contains("game is over"), "{cmd}: {reply}");
    }
    assert!(e.one("undo").starts_with("Base;InProgress;Black[6]"));
    e.send("exit");
    let status = e.process.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn closing_stdin_ends_with_status_zero() {
    let mut e = Engine::start(&[]);
    e.one("newgame Base");
    e.process.close_input();
    let start = Instant::now();
    loop {
        if let Some(status) = e.process.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "engine still running after stdin closed"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// A game played the way Mzinga.Viewer plays one: validmoves after every change (every item must parse and
/// resolve), bestmove with a time limit, the last line played, `undo 2` now and then, and a reload by GameString.
#[test]
fn a_game_as_mzinga_viewer_plays_it() {
    let mut e = Engine::start(&[]);
    let mut game = e.one("newgame Base+MLP");
    for turn in 0..24 {
        let mut pos = common::position(&game).unwrap();
        if pos.state().is_over() {
            break;
        }
        let valid = e.one("validmoves");
        for item in valid.split(';') {
            let ms: MoveString = item.parse().unwrap_or_else(|err| panic!("{item}: {err}"));
            ms.to_move(&pos).unwrap_or_else(|err| panic!("{item}: {err}"));
        }
        let start = Instant::now();
        let reply = e.ask("bestmove time 00:00:00.1000000");
        let took = start.elapsed();
        assert!(took < Duration::from_millis(1100), "bestmove time 0.1 s took {took:?}");
        let best = reply.last().unwrap().clone();
        assert!(valid.split(';').any(|m| m == best), "{best} not in validmoves");
        game = e.one(&format!("play {best}"));
        pos.play(best.parse::<MoveString>().unwrap().to_move(&pos).unwrap())
            .unwrap();
        assert_eq!(game, pos.game_string());
        if turn % 7 == 6 {
            pos.undo();
            pos.undo();
            game = e.one("undo 2");
            assert_eq!(game, pos.game_string());
        }
        assert_eq!(e.one(&format!("newgame {game}")), game);
    }
}

/// Engine against itself in every game type, until the game ends or 100 moves.
#[test]
fn self_play_in_every_game_type() {
    for game_type in GameType::ALL {
        let mut e = Engine::start(&[]);
        let mut game = e.one(&format!("newgame {game_type}"));
        for _ in 0..100 {
            let pos = common::position(&game).unwrap();
            if pos.state().is_over() {
                assert!(e.one("validmoves").starts_with("err"));
                break;
            }
            let best = e.ask("bestmove depth 1").pop().unwrap();
            game = e.one(&format!("play {best}"));
            assert!(
                !game.starts_with("invalidmove") && !game.starts_with("err"),
                "{best}: {game}"
            );
        }
    }
}

#[test]
fn bestmove_time_answers_within_the_limit() {
    let mut e = Engine::start(&[]);
    e.one(&format!("newgame {}", common::data::game_string("selfplay40")));
    for limit_ms in [200u64, 500] {
        let start = Instant::now();
        let reply = e.ask(&format!("bestmove time 00:00:00.{limit_ms:03}0000"));
        let took = start.elapsed();
        eprintln!("bestmove time {limit_ms} ms answered in {took:?}");
        // Measured, not a timing test: the bound is generous so that a loaded machine cannot make it flake.
        assert!(took < Duration::from_millis(limit_ms + 1000), "{took:?}");
        assert_eq!(reply.len(), 1);
    }
}

#[test]
fn same_search_same_answer() {
    let mut answers = Vec::new();
    for _ in 0..2 {
        let mut e = Engine::start(&["--report-intermediate-best-moves"]);
        e.one("newgame Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
        answers.push(e.ask("bestmove depth 3"));
    }
    assert_eq!(answers[0].last(), answers[1].last());
    // intermediate lines start with a MoveString and a ';'
    for line in &answers[0][..answers[0].len() - 1] {
        let first = line.split(';').next().unwrap();
        first
            .parse::<MoveString>()
            .unwrap_or_else(|err| panic!("{line}: {err}"));
    }
}

#[cfg(unix)]
#[test]
fn sigint_during_a_search_still_gives_a_move() {
    // Without the book, which would answer the first move at once.
    let mut e = Engine::start(&["--opening-book", "False"]);
    e.one("newgame Base+MLP");
    e.send("bestmove depth 40");
    thread::sleep(Duration::from_millis(300));
    e.process.interrupt();
    let reply = e.reply();
    assert_eq!(reply.len(), 1, "{reply:?}");
    reply[0].parse::<MoveString>().unwrap();
    // still alive and answering
    assert_eq!(e.ask("info").len(), 2);
}

#[test]
fn a_line_that_is_not_utf8_is_an_error_not_the_end() {
    let mut e = Engine::start(&[]);
    e.one("newgame");
    let stdin = e.process.stdin.as_mut().unwrap();
    stdin.write_all(b"\xff\xfe play\n").unwrap();
    stdin.flush().unwrap();
    let reply = e.reply();
    assert_eq!(reply.len(), 1);
    assert!(reply[0].starts_with("err "), "{reply:?}");
    assert_eq!(e.one("play wS1"), "Base;InProgress;Black[1];wS1");
}

/// A hive that crosses the edge of the storage grid is drawn as it is: the 22 pieces of this line in one row,
/// with no piece torn off and no empty cells.
#[test]
fn board_draws_a_long_line_in_one_row() {
    let mut e = Engine::start(&[]);
    let line = "Base;InProgress;White[16];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wS2 -wQ;bS2 bQ-;wB1 -wS2;bB1 bS2-;wB2 -wB1;\
                bB2 bB1-;wG1 -wB2;bG1 bB2-;wG2 -wG1;bG2 bG1-;wG3 -wG2;bG3 bG2-;wA1 -wG3;bA1 bG3-;wA2 -wA1;bA2 bA1-;\
                wA3 -wA2;bA3 bA2-;wA3 bA3-;pass;wA2 wA3-;pass;wA1 wA2-;pass;wG3 wA1-;pass";
    e.one(&format!("newgame {line}"));
    e.one("play wG2 wG3-");
    let board = e.ask("board");
    // A header, then one row of hexes: its roofs, its names, its floors.
    assert_eq!(board.len(), 4, "{board:#?}");
    let cells: Vec<&str> = board[2].split('|').map(str::trim).filter(|c| !c.is_empty()).collect();
    assert_eq!(cells.len(), 22, "{board:#?}");
    assert_eq!(cells.first(), Some(&"wG1"));
    assert_eq!(cells.last(), Some(&"wG2"));
}

/// Game servers build GameStrings that end in `;`: one empty last field is forgiven; any other empty field is
/// named.
#[test]
fn a_game_string_ending_in_a_semicolon_loads() {
    let mut e = Engine::start(&[]);
    assert_eq!(
        e.one("newgame Base;InProgress;Black[1];wS1;"),
        "Base;InProgress;Black[1];wS1"
    );
    let reply = e.one("newgame Base;InProgress;White[2];wS1;;bS1 wS1-");
    assert!(
        reply.starts_with("err ") && reply.contains("field 5") && reply.contains("move 2"),
        "{reply}"
    );
    assert_eq!(e.one("play bS1 wS1-"), "Base;InProgress;White[2];wS1;bS1 wS1-");
}

/// The tournament opening holds for `newgame` and `play` unless `TournamentOpening` is off (by `options set` or
/// its flag), and a change of it applies from the next game.
#[test]
fn the_queen_on_a_first_turn_needs_the_tournament_opening_off() {
    let mut e = Engine::start(&[]);
    assert_eq!(
        e.one("options get TournamentOpening"),
        "TournamentOpening;bool;True;True"
    );
    e.one("newgame Base");
    assert_eq!(
        e.one("play wQ"),
        "invalidmove You can't play your Queen Bee on your first turn."
    );
    let old = "newgame Base;InProgress;White[2];wQ;bQ wQ-";
    assert!(e.one(old).contains("You can't play your Queen Bee on your first turn."));
    assert_eq!(
        e.one("options set TournamentOpening False"),
        "TournamentOpening;bool;False;True"
    );
    assert_eq!(
        e.one("play wQ"),
        "invalidmove You can't play your Queen Bee on your first turn.",
        "the game in progress keeps its opening"
    );
    assert_eq!(e.one(old), "Base;InProgress;White[2];wQ;bQ wQ-");
    e.one("newgame Base");
    assert_eq!(e.one("play wQ"), "Base;InProgress;Black[1];wQ");
    assert_eq!(
        e.ask("validmoves")[0]
            .split(';')
            .filter(|m| m.starts_with("bQ"))
            .count(),
        6
    );
    let mut flagged = Engine::start(&["--tournament-opening", "false"]);
    flagged.one("newgame Base+M");
    assert_eq!(flagged.one("play wQ"), "Base+M;InProgress;Black[1];wQ");
}

/// A table size the option offers but the machine cannot give is refused with `err`; the engine keeps its old
/// table and goes on playing.
#[cfg(target_os = "linux")]
#[test]
fn a_table_the_machine_cannot_give_is_refused() {
    // Ended by the end of input, which lets the search answer (an `exit` would end it without a move).
    let script = "options set MaxHashSize 4096\noptions get MaxHashSize\nnewgame Base+MLP\nbestmove depth 2\n";
    let output = common::Waggle::engine().ulimit("-v 2000000").input(script).run();
    assert!(output.success(), "{output:?}");
    let text = output.stdout;
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[3].starts_with("err ") && lines[3].contains("4096 MB"), "{text}");
    assert_eq!(lines[5], "MaxHashSize;int;64;64;1;4096", "{text}");
    assert_eq!(lines[7], "Base+MLP;NotStarted;White[1]", "{text}");
    lines[9].parse::<MoveString>().unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// The table is not written before the start-up block: a 1 GB table costs no resident memory (and so no time)
/// until a search uses it.
#[cfg(target_os = "linux")]
#[test]
fn a_big_table_is_not_touched_at_start_up() {
    let e = Engine::start(&["--max-hash-size", "1024"]);
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.process.child.id())).unwrap();
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS in /proc status");
    assert!(rss_kb < 64 * 1024, "{rss_kb} kB resident after start-up");
}

/// The repetition rule is fixed per game: switching the option on and off leaves a new game counting from one,
/// and with the option on the third occurrence of a position is a draw at once.
#[test]
fn threefold_repetition_is_a_draw_exactly_at_the_third_occurrence() {
    let mut e = Engine::start(&[]);
    e.one("options set ThreefoldRepetitionDraw True");
    e.one("options set ThreefoldRepetitionDraw False");
    e.one("options set ThreefoldRepetitionDraw True");
    e.one("newgame Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-");
    // Both Queens leave their first cells, then shuttle between two others each: the position after the second
    // move comes back after the sixth and the tenth, and no position comes back sooner.
    let moves = ["wQ \\wS1", "bQ bS1\\"]
        .into_iter()
        .chain(["wQ wS1/", "bQ /bS1", "wQ \\wS1", "bQ bS1\\"].repeat(2));
    for (i, mv) in moves.enumerate() {
        let game = e.one(&format!("play {mv}"));
        let expected = if i == 9 { "Base;Draw;" } else { "Base;InProgress;" };
        assert!(game.starts_with(expected), "move {}: {game}", i + 1);
    }
}

/// A position reached by placing the Queens and again by moving them back is the same position when nothing
/// either side can play differs (no Pillbug or Mosquito can act on the piece that just moved): with the option on,
/// its third occurrence, at ply 12, is a draw, as nokamute scores it.
#[test]
fn a_stun_that_changes_nothing_does_not_make_a_new_position() {
    let mut e = Engine::start(&["--threefold-repetition-draw"]);
    e.one("newgame Base;InProgress;White[3];wS1;bB1 wS1-;wQ \\wS1;bQ bB1\\");
    let shuttle = ["wQ -wS1", "bQ bB1-", "wQ \\wS1", "bQ bB1\\"];
    for (i, mv) in shuttle.iter().cycle().take(8).enumerate() {
        let game = e.one(&format!("play {mv}"));
        let ply = 5 + i;
        let expected = if ply == 12 { "Base;Draw;" } else { "Base;InProgress;" };
        assert!(game.starts_with(expected), "ply {ply}: {game}");
    }
}

/// A Mosquito throws only what a Pillbug beside it lets it copy: in Base+M, where there is no Pillbug, the enemy
/// piece resting beside a Mosquito changes nothing either side may play. From a game against nokamute (Base+M at
/// 0.2 s, game 36 of docs/strength.md's h8 rows): White's Ant and Black's Grasshopper go back and forth, the Ant
/// ending each of White's turns beside Black's Mosquito, and the position after ply 39 comes back after plies 43
/// and 47: a draw there, as nokamute scores it (Waggle once counted the resting Ant, and the referee gave the game
/// to Waggle when nokamute refused the next move).
#[test]
fn a_mosquito_without_a_pillbug_beside_it_throws_nothing() {
    let mut e = Engine::start(&["--threefold-repetition-draw"]);
    e.one(
        "newgame Base+M;InProgress;Black[20];wG1;bA1 wG1-;wQ \\wG1;bG1 bA1-;wA1 /wG1;bM \\bG1;wA1 bG1-;bQ \\bM;\
         wA2 /wG1;bS1 bQ/;wA2 bS1-;bA2 bA1\\;wA1 /bA2;bA3 bG1/;wA3 /wG1;bA3 \\wQ;wA3 bG1-;bB1 bA3/;wB1 /wG1;\
         bB1 bA3;wB1 wG1;bB2 -bS1;wA3 \\bB2;bG2 -bB1;wM -wA3;bB1 wQ;wB1 bB1;bG2 /bB2;wG1 bG1-;bA3 wB1\\;\
         wM bS1\\;bM bA3\\;wM bQ\\;bA2 -bG2;wB2 wG1/;bG3 /bA3;wB2 wG1;bG2 /wB1;wB2 bG1",
    );
    let moves = ["bG3 bA1\\", "wA1 /bM", "bG3 bG2\\", "wA1 bM\\"];
    for (i, mv) in moves.iter().cycle().take(8).enumerate() {
        let game = e.one(&format!("play {mv}"));
        let ply = 40 + i;
        let expected = if ply == 47 {
            "Base+M;Draw;"
        } else {
            "Base+M;InProgress;"
        };
        assert!(game.starts_with(expected), "ply {ply}: {game}");
    }
}

/// The line that tells a person at a terminal what the engine is goes nowhere near a pipe: a viewer or a bridge
/// that drives the engine reads nothing on stderr (tests/terminal.rs checks that a terminal gets it).
#[test]
fn a_pipe_hears_no_word_for_people() {
    let run = common::Waggle::engine().input("info\nexit\n").run();
    assert!(run.success(), "{}", run.stderr);
    assert_eq!(run.stderr, "", "nothing on stderr on a pipe");
    assert!(run.stdout.starts_with("id Waggle"), "{}", run.stdout);
}
