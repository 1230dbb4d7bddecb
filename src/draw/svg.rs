//! The board as an SVG picture: pointy-topped hexagons, ivory and charcoal for the two sides, each top piece's bug
//! drawn (`glyphs`, the page's own pictures) with its number where a side has several of its bug, the height of
//! each stack (what lies under its top piece in the stack's tooltip), and the last move highlighted. For READMEs,
//! bug reports and tutorials.

use std::fmt::Write as _;

use super::glyphs::{self, tile};
use super::last_move;
use crate::rules::layout::Layout;
use crate::rules::piece::Bug;
use crate::rules::position::Position;

/// Radius of a hexagon (centre to corner), in pixels.
const SIZE: f64 = 32.0;
const MARGIN: f64 = 12.0;

/// The SVG document of `pos`, its last move highlighted (the destination outlined, the origin dashed), with
/// `caption` under the board.
pub fn svg(pos: &Position, caption: Option<&str>) -> String {
    let board = pos.board();
    let last = last_move(pos);
    let origin = last.and_then(|m| m.from).filter(|&hex| !board.is_occupied(hex));
    let layout = Layout::of(board, &origin.into_iter().collect::<Vec<_>>());
    let centre = |q: i32, r: i32| {
        let x = SIZE * 3f64.sqrt() * (f64::from(q) + f64::from(r) / 2.0);
        let y = SIZE * 1.5 * f64::from(r);
        (x, y)
    };
    let points: Vec<(f64, f64)> = layout.cells().iter().map(|c| centre(c.q, c.r)).collect();
    let half_width = SIZE * 3f64.sqrt() / 2.0;
    let mut min_x = points.iter().map(|p| p.0).fold(0.0f64, f64::min) - half_width - MARGIN;
    let min_y = points.iter().map(|p| p.1).fold(0.0f64, f64::min) - SIZE - MARGIN;
    let mut max_x = points.iter().map(|p| p.0).fold(0.0f64, f64::max) + half_width + MARGIN;
    // Room for the caption, about eight pixels a character, centred under the board.
    let caption_width = caption.map_or(0.0, |c| c.chars().count() as f64 * 8.0 + 2.0 * MARGIN);
    let widen = (caption_width - (max_x - min_x)).max(0.0) / 2.0;
    (min_x, max_x) = (min_x - widen, max_x + widen);
    let caption_room = if caption.is_some() { 28.0 } else { 0.0 };
    let max_y = points.iter().map(|p| p.1).fold(0.0f64, f64::max) + SIZE + MARGIN + caption_room;
    let (width, height) = (max_x - min_x, max_y - min_y);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="{min_x:.1} {min_y:.1} {width:.1} {height:.1}" font-family="Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(
        out,
        r##"<rect x="{min_x:.1}" y="{min_y:.1}" width="{width:.1}" height="{height:.1}" fill="#e8e4d8"/>"##
    );
    // The symbols of the bugs on top, once each.
    let mut bugs: Vec<Bug> = layout
        .cells()
        .iter()
        .filter_map(|cell| board.top(cell.hex))
        .map(|p| p.bug())
        .collect();
    bugs.sort_by_key(|bug| bug.index());
    bugs.dedup();
    out.push_str("<defs>\n");
    for bug in bugs {
        out.push_str(glyphs::symbol(bug));
        out.push('\n');
    }
    out.push_str("</defs>\n");
    let last_to = last.map(|m| m.to);
    let corners = |x: f64, y: f64| -> String {
        let corners: Vec<String> = (0..6)
            .map(|k| {
                let angle = (60.0 * f64::from(k) - 30.0).to_radians();
                format!("{:.1},{:.1}", x + SIZE * angle.cos(), y + SIZE * angle.sin())
            })
            .collect();
        corners.join(" ")
    };
    for (cell, &(x, y)) in layout.cells().iter().zip(&points) {
        let Some(top) = board.top(cell.hex) else {
            // The cell the last move came from.
            let _ = writeln!(
                out,
                r##"<polygon class="origin" points="{}" fill="none" stroke="#e07b00" stroke-width="2" stroke-dasharray="6 4"/>"##,
                corners(x, y)
            );
            continue;
        };
        let (fill, _) = tile(top.color());
        let last = Some(cell.hex) == last_to;
        let (stroke, stroke_width) = if last { ("#e07b00", 4.0) } else { ("#6b6459", 1.5) };
        // The whole stack, top first, as its tooltip.
        let stack: Vec<String> = board.stack(cell.hex).map(|p| p.to_string()).collect();
        let _ = write!(out, "<g class=\"stack\"><title>{}</title>", stack.join(" on "));
        let _ = write!(
            out,
            r#"<polygon class="cell" points="{}" fill="{fill}" stroke="{stroke}" stroke-width="{stroke_width}"/>"#,
            corners(x, y)
        );
        glyphs::piece(&mut out, top, x, y, SIZE);
        let height = board.height(cell.hex);
        if height > 1 {
            let _ = write!(
                out,
                r##"<circle cx="{:.1}" cy="{:.1}" r="8" fill="#c0392b" stroke="#ffffff" stroke-width="1.5"/><text class="height" x="{:.1}" y="{:.1}" font-size="10" font-weight="bold" text-anchor="middle" fill="#ffffff">{height}</text>"##,
                x + SIZE * 0.55,
                y - SIZE * 0.55,
                x + SIZE * 0.55,
                y - SIZE * 0.55 + 3.5
            );
        }
        out.push_str("</g>\n");
    }
    if let Some(caption) = caption {
        let _ = writeln!(
            out,
            r##"<text class="caption" x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#2b2b2b">{}</text>"##,
            (min_x + max_x) / 2.0,
            max_y - 10.0,
            escape(caption)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// `text` with the characters XML gives a meaning to escaped.
pub(crate) fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            // XML has no place for control characters (a file name may hold them): a space instead.
            c if c.is_control() || c == '\u{fffe}' || c == '\u{ffff}' => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    escaped
}
