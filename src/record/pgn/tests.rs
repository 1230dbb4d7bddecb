//! Records both ways: exact text, round trips, real files from Mzinga.Viewer, and every error named.

use super::*;
use crate::record::notation::NotationError;
use crate::rules::piece::Color;

/// A Base game that Black wins on ply 10, in canonical MoveStrings.
const BLACK_WINS: &str = "Base;BlackWins;White[6];wG1;bB1 wG1\\;wQ wG1/;bQ bB1-;wS1 -wQ;bA1 bQ\\;wA1 wQ/;bA1 -wA1;\
                          wA2 wA1\\;bQ wQ\\";

fn record(text: &str) -> GameString {
    text.parse().expect("a valid GameString")
}

/// A record as `new` makes it, with a fixed date so that its text is known.
fn dated(text: &str, white: &str, black: &str) -> GameRecord {
    let mut game = GameRecord::new(record(text), white, black);
    game.set_tag("Date", "2024.05.17");
    game
}

fn round_trip(game: &GameRecord) {
    let text = game.to_string();
    assert_eq!(parse(&text), Ok(vec![game.clone()]), "{text}");
}

#[test]
fn the_text_of_a_known_game_is_exactly_mzingas() {
    let mut game = dated(BLACK_WINS, "Alice", "Waggle 0.1.0");
    game.comments[1] = Some("0.52s, score -0.31".to_string());
    game.comments[9] = Some("mate".to_string());
    let expected = "[GameType \"Base\"]\n\
                    [Date \"2024.05.17\"]\n\
                    [Event \"\"]\n\
                    [Site \"\"]\n\
                    [Round \"\"]\n\
                    [White \"Alice\"]\n\
                    [Black \"Waggle 0.1.0\"]\n\
                    [Result \"BlackWins\"]\n\
                    \n\
                    1. wG1\n\
                    2. bB1 wG1\\\n\
                    {0.52s, score -0.31}\n\
                    3. wQ wG1/\n\
                    4. bQ bB1-\n\
                    5. wS1 -wQ\n\
                    6. bA1 bQ\\\n\
                    7. wA1 wQ/\n\
                    8. bA1 -wA1\n\
                    9. wA2 wA1\\\n\
                    10. bQ wQ\\\n\
                    {mate}\n\
                    \n\
                    BlackWins\n";
    assert_eq!(game.to_string(), expected);
}

#[test]
fn an_unfinished_game_has_no_result_line_and_a_new_one_no_moves() {
    let game = dated("Base+MLP;InProgress;White[2];wS1;bG1 -wS1", "a", "b");
    let expected = "[GameType \"Base+MLP\"]\n[Date \"2024.05.17\"]\n[Event \"\"]\n[Site \"\"]\n[Round \"\"]\n\
                    [White \"a\"]\n[Black \"b\"]\n[Result \"InProgress\"]\n\n1. wS1\n2. bG1 -wS1\n";
    assert_eq!(game.to_string(), expected);
    let fresh = dated("Base+M", "a", "b");
    assert!(fresh.to_string().ends_with("[Result \"NotStarted\"]\n"), "{fresh}");
    round_trip(&game);
}

#[test]
fn new_writes_mzingas_tags_in_mzingas_order() {
    let game = GameRecord::new(record(BLACK_WINS), "w", "b");
    let names: Vec<&str> = game.tags().map(|(name, _)| name).collect();
    assert_eq!(
        names,
        ["GameType", "Date", "Event", "Site", "Round", "White", "Black", "Result"]
    );
    let date = game.tag("date").expect("a Date tag");
    let shape: String = date.chars().map(|c| if c.is_ascii_digit() { '9' } else { c }).collect();
    assert_eq!(shape, "9999.99.99");
    assert!(date.as_bytes() >= b"2024.01.01".as_slice(), "{date}");
    assert_eq!(game.tag("RESULT"), Some("BlackWins"));
    assert_eq!(game.result(), Some(GameState::BlackWins));
    assert_eq!(game.comments, vec![None; 10]);
    assert_eq!(game.tag("Annotator"), None);
}

#[test]
fn set_tag_replaces_in_place_appends_and_keeps_the_record_in_step() {
    let mut game = dated("Base;InProgress;Black[1];wS1", "w", "b");
    game.set_tag("white", "Carol");
    assert_eq!(game.tags().nth(5), Some(("White", "Carol")));
    game.set_tag("TimeControl", "300+5");
    assert_eq!(game.tags().last(), Some(("TimeControl", "300+5")));
    assert_eq!(game.tags().count(), 9);
    game.set_tag("Result", "Draw");
    assert_eq!(
        (game.result(), game.record.state),
        (Some(GameState::Draw), Some(GameState::Draw))
    );
    assert!(game
        .to_string()
        .ends_with("[TimeControl \"300+5\"]\n\n1. wS1\n\nDraw\n"));
    game.set_tag("GameType", "Base+P");
    assert_eq!(game.record.game_type, "Base+P".parse().unwrap());
    round_trip(&game);
    // A value that names no game type (or result) changes nothing: the record holds its type once.
    game.set_tag("GameType", "Chess");
    game.set_tag("Result", "Lunch");
    assert_eq!(
        (game.tag("GameType"), game.tag("Result")),
        (Some("Base+P"), Some("Draw"))
    );
    assert!(game.to_string().starts_with("[GameType \"Base+P\"]\n"));
}

#[test]
fn records_round_trip_through_their_text() {
    let mut finished = dated(BLACK_WINS, "Alice", "Waggle");
    finished.comments[0] = Some("book".to_string());
    finished.comments[4] = Some("1.5s 0.25\nsecond line".to_string());
    round_trip(&finished);

    let passing = dated("Base+MLP;InProgress;Black[2];wS1;bG1 -wS1;pass", "x", "y");
    assert!(passing.to_string().contains("\n3. pass\n"));
    round_trip(&passing);

    let mut escaped = dated("Base+L;Draw;White[2];wL;bL wL-", "Jon \"the Bee\" Q\\Hive", "b");
    escaped.set_tag("Event", "Cup \"2024\"");
    let text = escaped.to_string();
    assert!(text.contains("[White \"Jon \\\"the Bee\\\" Q\\\\Hive\"]\n"), "{text}");
    assert_eq!(escaped.result(), Some(GameState::Draw));
    round_trip(&escaped);
    assert_eq!(parse(&text).unwrap()[0].tag("white"), Some("Jon \"the Bee\" Q\\Hive"));
}

#[test]
fn comments_lose_their_braces_and_blank_ones_are_not_written() {
    let mut game = dated("Base;InProgress;White[2];wS1;bS1 wS1-", "w", "b");
    game.comments[0] = Some("{odd} text".to_string());
    game.comments[1] = Some("   ".to_string());
    let text = game.to_string();
    assert!(text.ends_with("1. wS1\n{odd text}\n2. bS1 wS1-\n"), "{text}");
    assert_eq!(parse(&text).unwrap()[0].comments, [Some("odd text".to_string()), None]);
}

#[test]
fn a_file_saved_by_mzinga_viewer_parses_and_replays() {
    let file = "[GameType \"Base\"]\r\n[Date \"2024.05.17\"]\r\n[Event \"\"]\r\n[Site \"\"]\r\n[Round \"\"]\r\n\
                [White \"alice\"]\r\n[Black \"Mzinga v0.15.2\"]\r\n[Result \"BlackWins\"]\r\n\r\n\
                1. wG1\r\n2. bB1 wG1\\\r\n{thought for 0.52s}\r\n3. wQ wG1/\r\n4. bQ bB1-\r\n5. wS1 -wQ\r\n\
                6. bA1 bQ\\\r\n7. wA1 wQ/\r\n8. bA1 -wA1\r\n9. wA2 wA1\\\r\n10. bQ wQ\\\r\n\r\nBlackWins\r\n";
    let games = parse(file).unwrap();
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.record, record(BLACK_WINS));
    assert_eq!(game.result(), Some(GameState::BlackWins));
    assert_eq!(game.tag("Black"), Some("Mzinga v0.15.2"));
    assert_eq!(game.tags().count(), 8);
    assert_eq!(game.comments[1].as_deref(), Some("thought for 0.52s"));
    assert_eq!(game.comments.iter().flatten().count(), 1);
    let played = Game::from_record(&game.record, Rules::default()).expect("every move legal");
    assert_eq!(played.state(), GameState::BlackWins);
    assert_eq!(played.game_string(), game.record);
    assert_eq!(
        game.replay(Rules::default()).map(|g| g.state()),
        Ok(GameState::BlackWins)
    );
    // Written back with CRLF line ends, it is the same file.
    assert_eq!(game.to_string().replace('\n', "\r\n"), file);
}

#[test]
fn two_games_in_one_file_written_loosely() {
    let file = "\u{feff}\n[GameType \"Base\"]\n[Result \"BlackWins\"]\n\n1. wG1\n2. bB1 wG1\\\n3. wQ wG1/\n\
                4. bQ bB1-\n5. wS1 -wQ\n6. bA1 bQ\\\n7. wA1 wQ/\n8. bA1 -wA1\n9. wA2 wA1\\\n10. bQ wQ\\\nBlackWins\n\
                \n\n[white \"Bo\"]\n\n[Annotator \"me\"]\n[gametype \"base+mlp\"]\n\n\
                1.wS1 {12.0s 0.10}\n2.   bG1 -wS1\n  3. wQ wS1-  {a comment\n   over two lines }\n4. bQ -bG1\n";
    let games = parse(file).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].record, record(BLACK_WINS));
    let second = &games[1];
    let expected = GameString {
        state: None, // neither a Result tag nor a result line
        ..record("Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wQ wS1-;bQ -bG1")
    };
    assert_eq!(second.record, expected);
    assert_eq!(second.result(), None);
    // The game type's tag keeps its place, and is the game's type (as it is written).
    assert_eq!(
        second.tags().collect::<Vec<_>>(),
        [("white", "Bo"), ("Annotator", "me"), ("GameType", "Base+MLP")]
    );
    assert_eq!(
        second.comments,
        [
            Some("12.0s 0.10".to_string()),
            None,
            Some("a comment\nover two lines".to_string()),
            None
        ]
    );
    assert_eq!(second.replay(Rules::default()).map(|g| g.record().len()), Ok(4));
    // Written out together and read back, both games are as they were read.
    let mut both = games.clone();
    both[1].set_tag("Result", "InProgress");
    both[1].set_tag("GameType", "Base+MLP"); // the tag is written as the record's type is
    let text = both.iter().map(GameRecord::to_string).collect::<Vec<_>>().join("\n");
    assert_eq!(parse(&text), Ok(both));
}

#[test]
fn the_result_line_wins_and_start_comments_are_dropped() {
    let file = "[GameType \"Base\"]\n[Result \"InProgress\"]\n{the start}\n1. wS1\n{one}\n{two}\n\nDraw {agreed}\n";
    let game = &parse(file).unwrap()[0];
    assert_eq!(game.result(), Some(GameState::Draw));
    assert_eq!(game.record.state, Some(GameState::Draw));
    assert_eq!(game.record.turn, Some((Color::Black, 1)));
    assert_eq!(game.comments, [Some("one\ntwo\nagreed".to_string())]);
    let bare = &parse("[GameType \"Base\"]\nwS1\nbS1 wS1-\n").unwrap()[0];
    assert_eq!(bare.record.moves.len(), 2, "Mzinga reads moves without numbers");
}

#[test]
fn a_game_without_moves_is_followed_by_the_next_when_a_tag_repeats() {
    let games = parse("[GameType \"Base\"]\n[Result \"NotStarted\"]\n[GameType \"Base+M\"]\n1. wM\n").unwrap();
    assert_eq!(games.len(), 2);
    assert!(games[0].record.moves.is_empty());
    assert_eq!(games[1].record.to_string(), "Base+M");
}

#[test]
fn each_error_names_its_line() {
    let cases: [(&str, PgnError); 9] = [
        (
            "\n[GameType \"Base+X\"]\n",
            PgnError::GameType {
                line: 2,
                reason: "Base+X".parse::<crate::rules::game_type::GameType>().unwrap_err(),
            },
        ),
        (
            "[GameType \"Base\"]\n\n1. wS1\n2. bG1 -wX1\n",
            PgnError::Move {
                line: 4,
                text: "bG1 -wX1".to_string(),
                reason: NotationError::Move("bG1 -wX1".to_string()),
            },
        ),
        (
            "[GameType \"Base\"]\n\n1. wS1\n3. bG1 -wS1\n",
            PgnError::MoveNumber {
                line: 4,
                expected: 2,
                found: "3".to_string(),
            },
        ),
        (
            "[GameType \"Base\"]\n[White Alice]\n",
            PgnError::Tag {
                line: 2,
                text: "[White Alice]".to_string(),
            },
        ),
        (
            "[GameType \"Base\"]\n1. wS1\nWhiteWins\n2. bS1 wS1-\n",
            PgnError::AfterResult {
                line: 4,
                text: "2. bS1 wS1-".to_string(),
            },
        ),
        (
            "[GameType \"Base\"]\n1. wS1\n{never\nclosed\n",
            PgnError::UnclosedComment { line: 3 },
        ),
        (
            "[GameType \"Base\"]\n1. wS1 {a\nb} 2. bS1 wS1-\n",
            PgnError::AfterComment {
                line: 3,
                text: "2. bS1 wS1-".to_string(),
            },
        ),
        ("", PgnError::NoGame),
        ("\u{feff}\r\n  \r\n{just a note}\r\n", PgnError::NoGame),
    ];
    for (text, expected) in cases {
        assert_eq!(parse(text), Err(expected), "{text:?}");
    }
}

#[test]
fn results_are_read_in_pgns_words_and_an_unknown_one_is_left_to_the_moves() {
    let with = |tag: &str, tail: &str| {
        let text = format!("[GameType \"Base\"]\n[Result \"{tag}\"]\n\n1. wS1\n2. bS1 wS1-\n{tail}");
        let game = parse(&text).unwrap_or_else(|e| panic!("{e}: {text}")).remove(0);
        (game.result(), game.record.state)
    };
    let won = |state| (Some(state), Some(state));
    assert_eq!(with("1-0", ""), won(GameState::WhiteWins));
    assert_eq!(with("0-1", ""), won(GameState::BlackWins));
    assert_eq!(with("1/2-1/2", ""), won(GameState::Draw));
    assert_eq!(with("½-½", ""), won(GameState::Draw));
    assert_eq!(with("blackwins", ""), won(GameState::BlackWins));
    assert_eq!(with("InProgress", ""), (None, Some(GameState::InProgress)));
    for unknown in [
        "*",
        "Unkown",
        "Unknown",
        "Adjudicated",
        "error parsing result",
        "",
        "2-0",
    ] {
        assert_eq!(with(unknown, ""), (None, None), "{unknown}");
    }
    // A line of its own wins over the tag, in any of the words; PGN's may end the last move's line.
    assert_eq!(with("*", "\n1-0\n"), won(GameState::WhiteWins));
    assert_eq!(with("1-0", "\nUnkown\n"), won(GameState::WhiteWins));
    assert_eq!(with("1-0", "\nDraw\n"), won(GameState::Draw));
    let text = "[GameType \"Base\"]\n\n1. wS1\n2. bS1 wS1- 0-1\n";
    let game = &parse(text).unwrap()[0];
    assert_eq!(
        (game.record.moves.len(), game.result()),
        (2, Some(GameState::BlackWins))
    );
    assert_eq!(
        parse("[GameType \"Base\"]\n\n1. wS1\n*\n2. bS1 wS1-\n"),
        Err(PgnError::AfterResult {
            line: 5,
            text: "2. bS1 wS1-".to_string()
        })
    );
    let mut set = dated("Base;InProgress;Black[1];wS1", "w", "b");
    set.set_tag("Result", "0-1");
    assert_eq!(set.result(), Some(GameState::BlackWins));
    assert!(
        set.to_string().contains("[Result \"BlackWins\"]"),
        "written in Mzinga's words"
    );
}

#[test]
fn a_numbered_lone_bug_is_read_and_written_back_without_its_number() {
    let text = "[GameType \"Base+MLP\"]\n\n1. wM1\n2. bL1 wM1/\n3. wP1 -wM1\n4. bQ bL1/\n";
    let game = &parse(text).unwrap()[0];
    let names: Vec<String> = game.record.moves.iter().map(ToString::to_string).collect();
    assert_eq!(names, ["wM", "bL wM/", "wP -wM", "bQ bL/"]);
    assert_eq!(game.replay(Rules::default()).map(|g| g.record().len()), Ok(4));
    assert!(game.to_string().contains("\n1. wM\n2. bL wM/\n"), "{game}");
    assert!(matches!(
        parse("[GameType \"Base+M\"]\n\n1. wM2\n"),
        Err(PgnError::Move { line: 3, .. })
    ));
}

/// A game as hivegame.com's download writes it: its own date, no Event or Round, a blank after a move that has no
/// reference, and the result on a line of its own.
#[test]
fn a_download_from_hivegame_com_is_read_as_it_is() {
    let file = "[GameType \"Base+MLP\"]\n[Date \"05-Feb-2025_18:03:41\"]\n[Site \"hivegame.com\"]\n\
                [White \"ann\"]\n[Black \"bob\"]\n[Result \"BlackWins\"]\n\n\
                1. wG1 \n2. bB1 wG1\\\n3. wQ wG1/\n4. bQ bB1-\n5. wS1 -wQ\n6. bA1 bQ\\\n7. wA1 wQ/\n\
                8. bA1 -wA1\n9. wA2 wA1\\\n10. bQ wQ\\\n\nBlackWins\n";
    let game = &parse(file).unwrap()[0];
    assert_eq!(game.record.moves.len(), 10);
    assert_eq!(game.tag("Date"), Some("05-Feb-2025_18:03:41"));
    assert_eq!(game.result(), Some(GameState::BlackWins));
    assert_eq!(
        game.replay(Rules::default()).map(|g| g.state()),
        Ok(GameState::BlackWins)
    );
    let unfinished = "[GameType \"Base\"]\n[Date \"05-Feb-2025_18:03:41\"]\n[Site \"hivegame.com\"]\n\
                      [White \"ann\"]\n[Black \"bob\"]\n[Result \"InProgress\"]\n\n1. wS1 \n2. pass \n";
    let game = &parse(unfinished).unwrap()[0];
    assert_eq!(game.record.to_string(), "Base;InProgress;White[2];wS1;pass");
    assert!(
        game.replay(Rules::default()).is_err(),
        "a pass with moves to play is read, and the replay refuses it"
    );
    let unknown = "[GameType \"Base\"]\n[Result \"Unkown\"]\n\n1. wS1 \n2. bS1 wS1-\n\nUnkown\n";
    let game = &parse(unknown).unwrap()[0];
    assert_eq!(
        (game.record.moves.len(), game.result(), game.record.state),
        (2, None, None)
    );
}

/// Without a GameType tag, a game is Base with each expansion whose bug it moves, as Mzinga.Viewer and hivegame.com
/// read it.
#[test]
fn a_game_without_a_game_type_is_base_with_the_bugs_it_moves() {
    let game_type = |text: &str| parse(text).map(|games| games[0].record.game_type.to_string());
    assert_eq!(game_type("[White \"x\"]\n\n1. wS1\n"), Ok("Base".to_string()));
    assert_eq!(
        game_type("[White \"x\"]\n\n1. wS1\n2. bP wS1-\n3. wL -wS1\n"),
        Ok("Base+LP".to_string())
    );
    assert_eq!(game_type("1. wM1\n2. bS1 wM1/\n"), Ok("Base+M".to_string()));
    let two = parse("[GameType \"Base\"]\n1. wS1\n\n[White \"y\"]\n1. wL\n").unwrap();
    assert_eq!(two[1].record.game_type.to_string(), "Base+L");
}

#[test]
fn bad_tags_are_refused() {
    for (line, text) in [
        "[White \"Alice]",
        "[White \"Alice\" extra]",
        "[White \"Alice\"",
        "[\"Alice\"]",
        "[White\"Alice\"]",
        "[Wh-ite \"Alice\"]",
        "[]",
    ]
    .into_iter()
    .enumerate()
    {
        let file = format!("[GameType \"Base\"]\n{}{text}\n", "\n".repeat(line));
        let err = parse(&file).unwrap_err();
        assert_eq!(
            err,
            PgnError::Tag {
                line: line + 2,
                text: text.to_string()
            }
        );
    }
}

#[test]
fn error_messages_read_as_sentences() {
    let message = |text: &str| parse(text).unwrap_err().to_string();
    assert_eq!(
        message("[GameType \"Base\"]\n1. wS1\n3. bS1 wS1-\n"),
        "line 3: move number 3 where 2 was expected: moves are numbered 1, 2, 3, … one per ply"
    );
    let bad_move = message("[GameType \"Base\"]\n1. wQ2\n");
    assert!(
        bad_move.starts_with("line 2: the move 'wQ2' cannot be read: 'wQ2' is not a piece"),
        "{bad_move}"
    );
    assert!(message("[GameType \"Hive\"]").starts_with("line 1: 'Hive' is not a game type"));
    assert!(message("").starts_with("no game in the file"));
    assert_eq!(
        message("[GameType \"Base\"]\n1. wS1\n{"),
        "line 3: the comment opened here is never closed with '}'"
    );
}

#[test]
fn dates_are_written_as_mzinga_writes_them() {
    assert_eq!(mzinga_date(0), "1970.01.01");
    assert_eq!(mzinga_date(951_782_400), "2000.02.29");
    assert_eq!(mzinga_date(1_709_251_199), "2024.02.29");
    assert_eq!(mzinga_date(4_102_444_800), "2100.01.01");
    assert_eq!(mzinga_date(253_402_300_799), "9999.12.31");
}
