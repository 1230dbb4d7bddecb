//! The pictures of the bugs: one SVG symbol for each of the eight (`bugs.svg`, drawn for Waggle), head up, in a
//! box from -50 to 50, the body in its bug's colour and the legs and feelers in the ink of the tile it lies on.
//! The only picture of a piece in the project: `waggle draw --svg` puts the symbols it needs in its document, and
//! the page (`waggle web`) is served the same file.

use std::fmt::Write as _;

use crate::rules::piece::{Bug, Color, Piece};

/// Every symbol, as one SVG document (served to the page as it is).
pub const BUGS_SVG: &str = include_str!("bugs.svg");

/// The tile of each side and the ink on it.
pub(crate) const fn tile(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => ("#f7f1de", "#2b2b2b"),
        Color::Black => ("#2b2b2b", "#f7f1de"),
    }
}

/// The `<symbol>` of `bug`, as `bugs.svg` has it.
pub(crate) fn symbol(bug: Bug) -> &'static str {
    let open = format!("<symbol id=\"bug-{}\"", bug.letter());
    let Some(start) = BUGS_SVG.find(&open) else {
        return "";
    };
    let end = BUGS_SVG[start..]
        .find("</symbol>")
        .map_or(BUGS_SVG.len(), |end| start + end + "</symbol>".len());
    &BUGS_SVG[start..end]
}

/// `piece` drawn on a tile of radius `radius` centred at (`x`, `y`): its bug's symbol in the ink of its side, and
/// its number small in a corner where a player has several of its bug.
pub(crate) fn piece(out: &mut String, piece: Piece, x: f64, y: f64, radius: f64) {
    let (fill, ink) = tile(piece.color());
    let size = radius * 1.42;
    let _ = write!(
        out,
        r##"<use href="#bug-{}" x="{:.1}" y="{:.1}" width="{size:.1}" height="{size:.1}" color="{ink}"/>"##,
        piece.bug().letter(),
        x - size / 2.0,
        y - size / 2.0,
    );
    if piece.bug().count() > 1 {
        let _ = write!(
            out,
            r#"<text class="number" x="{:.1}" y="{:.1}" font-size="{:.0}" font-weight="bold" text-anchor="middle" fill="{ink}" stroke="{fill}" stroke-width="3" paint-order="stroke">{}</text>"#,
            x + radius * 0.52,
            y + radius * 0.62,
            radius * 0.34,
            piece.number()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bug_has_its_symbol() {
        for bug in Bug::ALL {
            let symbol = symbol(bug);
            assert!(symbol.starts_with("<symbol id=\"bug-"), "{bug:?}");
            assert!(symbol.ends_with("</symbol>"), "{bug:?}");
            assert!(symbol.contains("viewBox=\"-50 -50 100 100\""), "{bug:?}");
        }
        assert_eq!(BUGS_SVG.matches("<symbol ").count(), Bug::ALL.len());
    }
}
