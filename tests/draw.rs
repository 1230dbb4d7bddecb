//! `waggle draw`: the text picture and the SVG picture of real positions, the SVG read back as XML.

mod common;

use common::Waggle;

fn positions() -> Vec<String> {
    ["selfplay40", "beetle_gate", "long2", "pillbug_stun", "mosquito"]
        .iter()
        .map(|name| common::data::game_string(name))
        .collect()
}

fn draw(args: &[&str]) -> String {
    let output = Waggle::new(["draw"]).args(args).run();
    assert!(output.success(), "{output:?}");
    output.stdout
}

#[test]
fn the_svg_has_a_hexagon_per_occupied_cell_and_every_piece_name() {
    for game in positions() {
        let pos = common::position(&game).unwrap();
        let board = pos.board();
        let svg = draw(&["--svg", "-", &game]);
        let document = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{e}: {svg}"));
        let root = document.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        let class = |node: &roxmltree::Node, name: &str| node.attribute("class") == Some(name);
        let cells = root
            .descendants()
            .filter(|n| n.tag_name().name() == "polygon" && class(n, "cell"))
            .count();
        let occupied = board.on_board().iter().filter(|&p| board.is_top(p)).count();
        assert_eq!(cells, occupied, "{game}");
        // Each top piece is its bug's picture, the symbol of that bug in the document; the number shows where a
        // side has several of a bug; every piece of a stack is named in its tooltip.
        let drawn: Vec<&str> = root
            .descendants()
            .filter(|n| n.tag_name().name() == "use")
            .filter_map(|n| n.attribute("href"))
            .collect();
        assert_eq!(drawn.len(), occupied, "{game}");
        for top in board.on_board().iter().filter(|&p| board.is_top(p)) {
            let href = format!("#bug-{}", top.bug().letter());
            assert!(drawn.contains(&href.as_str()), "{top} not drawn in {game}");
            assert!(
                root.descendants()
                    .any(|n| n.tag_name().name() == "symbol" && n.attribute("id") == Some(&href[1..])),
                "no symbol for {top}"
            );
        }
        let titles: String = root
            .descendants()
            .filter(|n| n.tag_name().name() == "title")
            .filter_map(|n| n.text())
            .collect::<Vec<_>>()
            .join(" ");
        for piece in board.on_board() {
            assert!(
                titles.split_whitespace().any(|w| w == piece.to_string()),
                "{piece} missing in {game}"
            );
        }
        // The last move is highlighted: a movement also shows where it came from.
        let origins = root.descendants().filter(|n| class(n, "origin")).count();
        let moved = matches!(pos.last_move(), Some(waggle::Move::Move { .. }));
        // Where the moved piece stood before its move, if that cell is empty now.
        let from_empty = match pos.last_move() {
            Some(waggle::Move::Move { piece, .. }) => {
                let mut before = pos.clone();
                before.undo();
                before.board().hex_of(piece).is_some_and(|h| !board.is_occupied(h))
            }
            _ => false,
        };
        assert_eq!(origins, usize::from(moved && from_empty), "{game}");
    }
}

#[test]
fn the_text_names_every_top_piece_once_and_lists_the_stacks() {
    for game in positions() {
        let pos = common::position(&game).unwrap();
        let board = pos.board();
        // Not a terminal: plain text.
        let text = draw(&[&game]);
        assert!(!text.contains('\x1b'));
        let names: Vec<&str> = text
            .lines()
            .skip(1)
            .flat_map(|l| l.split('|'))
            .map(str::trim)
            .filter(|w| w.len() >= 2)
            .collect();
        for piece in board.on_board() {
            let shown = names.iter().filter(|&&w| w == piece.to_string()).count();
            assert_eq!(shown, usize::from(board.is_top(piece)), "{piece} in {text}");
        }
        let stacks = text.lines().filter(|l| l.starts_with("stack (top first): ")).count();
        let mut tall: Vec<waggle::Hex> = board
            .on_board()
            .iter()
            .filter_map(|piece| board.hex_of(piece))
            .filter(|&hex| board.height(hex) > 1)
            .collect();
        tall.sort_by_key(|hex| hex.index());
        tall.dedup();
        let tall = tall.len();
        assert_eq!(stacks, tall, "{text}");
    }
    let bad = Waggle::new(["draw", "Base;InProgress;White[1];bQ"]).run();
    assert!(!bad.success());
}

/// The picture in the README is the one `waggle draw --svg` makes of `selfplay40`, as the README says.
#[test]
fn the_readme_picture_is_what_the_command_draws() {
    let game = positions().remove(0);
    let drawn = draw(&["--svg", "-", &game]);
    let kept = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/pictures/selfplay40.svg"
    ))
    .unwrap();
    assert_eq!(drawn, kept, "regenerate it with the command in the README");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains("tests/data/pictures/selfplay40.svg"));
}
