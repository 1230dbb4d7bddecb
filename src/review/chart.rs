//! The chart of a review: White's win chance over the plies, as an SVG picture, in the colours of the board
//! pictures (`draw::svg`): ivory below the line for White, charcoal above it for Black, and a coloured circle on
//! each move the review blames. It draws what it is given; judging the moves is `mark`'s work.

use std::fmt::Write as _;

use super::Mark;
use crate::draw::escape;

/// One point of the chart: White's win chance after a ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ChartPoint {
    /// The ply the chance follows, counted from 1.
    pub(crate) ply: usize,
    /// White's win chance after this ply, from 0.0 to 1.0 (clamped when drawn; anything not finite counts as even).
    pub(crate) white_chance: f64,
    /// The mark the move earned, if any.
    pub(crate) mark: Option<Mark>,
}

/// The narrowest picture, in pixels.
const MIN_WIDTH: f64 = 720.0;
/// Room left of the plot for the percentages and the caption of the y axis.
const LEFT: f64 = 72.0;
/// Room right of the plot.
const RIGHT: f64 = 24.0;
/// Room above the plot for the title line and the legend line.
const PLOT_TOP: f64 = 72.0;
/// Height of the plot (0 to 100 %).
const PLOT_HEIGHT: f64 = 320.0;
/// Room under the plot for the ply numbers and the caption of the x axis.
const BOTTOM: f64 = 48.0;
/// Each ply gets at least this many pixels, so that a long game stays readable …
const PLY_WIDTH: f64 = 4.0;
/// … until the plot would be this wide; longer games are squeezed.
const MAX_PLOT_WIDTH: f64 = 4000.0;
/// Ply numbers on the x axis stand at least this far apart.
const TICK_SPACING: f64 = 36.0;

/// White's side of the plot, as in the board pictures.
const IVORY: &str = "#f7f1de";
/// Black's side of the plot and the ink of the text.
const CHARCOAL: &str = "#2b2b2b";
/// Frame, axes and the line of the chance.
const FRAME: &str = "#6b6459";
/// The 50 % line, a grey that shows on both sides.
const EVEN: &str = "#8a8478";

/// The marks that are drawn, in the order of the legend.
const DRAWN_MARKS: [Mark; 4] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder, Mark::MissedWin];

/// The SVG document: White's win chance (0 to 100 %) over the plies.
pub(crate) fn chart(title: &str, points: &[ChartPoint]) -> String {
    let mut points = points.to_vec();
    points.sort_by_key(|p| p.ply);
    // An empty game still gets a ply axis (0 to 1), and no scale divides by zero.
    let last_ply = points.last().map_or(1, |p| p.ply.max(1));
    let narrowest = (MIN_WIDTH - LEFT - RIGHT).max(legend_width());
    let plot_width = (last_ply as f64 * PLY_WIDTH).min(MAX_PLOT_WIDTH).max(narrowest);
    let (width, height) = (LEFT + plot_width + RIGHT, PLOT_TOP + PLOT_HEIGHT + BOTTOM);
    let bottom = PLOT_TOP + PLOT_HEIGHT;
    let x = |ply: usize| LEFT + ply as f64 / last_ply as f64 * plot_width;
    let y = |chance: f64| bottom - chance * PLOT_HEIGHT;

    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="Helvetica, Arial, sans-serif">"#
    );
    let title = escape(title);
    let _ = writeln!(out, "<title>{title}</title>");
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width:.1}" height="{height:.1}" fill="#e8e4d8"/>"##
    );
    let _ = writeln!(
        out,
        r#"<text class="title" x="{LEFT:.1}" y="28" font-size="16" font-weight="bold" fill="{CHARCOAL}">{title}</text>"#
    );
    legend(&mut out);

    if !points.is_empty() {
        // The game starts even: ply 0 at 50 %.
        let curve: Vec<(f64, f64)> = std::iter::once((x(0), y(0.5)))
            .chain(points.iter().map(|p| (x(p.ply), y(chance(p)))))
            .collect();
        let line = curve
            .iter()
            .map(|(px, py)| format!("{px:.1},{py:.1}"))
            .collect::<Vec<_>>()
            .join(" ");
        let (first, last) = (x(0), x(last_ply));
        let _ = writeln!(
            out,
            r#"<polygon class="black" points="{first:.1},{PLOT_TOP:.1} {line} {last:.1},{PLOT_TOP:.1}" fill="{CHARCOAL}"/>"#
        );
        let _ = writeln!(
            out,
            r#"<polygon class="white" points="{first:.1},{bottom:.1} {line} {last:.1},{bottom:.1}" fill="{IVORY}"/>"#
        );
        let _ = writeln!(
            out,
            r#"<polyline class="chance" points="{line}" fill="none" stroke="{FRAME}" stroke-width="1.5" stroke-linejoin="round"/>"#
        );
    }
    let _ = writeln!(
        out,
        r#"<line class="even" x1="{LEFT:.1}" y1="{even:.1}" x2="{right:.1}" y2="{even:.1}" stroke="{EVEN}" stroke-width="1.2" stroke-dasharray="6 4"/>"#,
        even = y(0.5),
        right = LEFT + plot_width
    );
    let _ = writeln!(
        out,
        r#"<rect class="plot" x="{LEFT:.1}" y="{PLOT_TOP:.1}" width="{plot_width:.1}" height="{PLOT_HEIGHT:.1}" fill="none" stroke="{FRAME}" stroke-width="1"/>"#
    );
    chance_axis(&mut out, y);
    ply_axis(&mut out, last_ply, plot_width, x);

    for point in &points {
        let Some(mark) = point.mark.filter(|m| m.is_error()) else {
            continue;
        };
        let _ = writeln!(
            out,
            r##"<circle class="mark" cx="{:.1}" cy="{:.1}" r="5.5" fill="{}" stroke="#ffffff" stroke-width="1.5"><title>Ply {}: {mark}</title></circle>"##,
            x(point.ply),
            y(chance(point)),
            colour(mark),
            point.ply
        );
    }
    out.push_str("</svg>\n");
    out
}

/// What the legend explains: the two sides of the plot, then the circle of each mark.
#[derive(Clone, Copy)]
enum Key {
    /// A side of the plot, by its fill.
    Side(&'static str),
    /// The circle of a mark.
    Mark(Mark),
}

/// The legend's entries, in order.
fn legend_keys() -> Vec<(String, Key)> {
    let sides = [("White's chance", IVORY), ("Black's chance", CHARCOAL)];
    let sides = sides
        .into_iter()
        .map(|(label, fill)| (label.to_string(), Key::Side(fill)));
    let marks = DRAWN_MARKS.into_iter().map(|mark| (mark.to_string(), Key::Mark(mark)));
    sides.chain(marks).collect()
}

/// Room for one entry of the legend: its key, its label and the gap after it. The browser cannot tell us how wide
/// the text is, so a generous 7 pixels a character at 12 pixels (Helvetica and Arial need about 6.5).
fn legend_entry_width(label: &str) -> f64 {
    20.0 + label.chars().count() as f64 * 7.0 + 14.0
}

/// How wide the legend is, so that the picture can make room for all of it.
fn legend_width() -> f64 {
    legend_keys()
        .iter()
        .map(|(label, _)| legend_entry_width(label))
        .sum::<f64>()
        - 14.0
}

/// The legend line under the title, from the left edge of the plot.
fn legend(out: &mut String) {
    const BASELINE: f64 = 54.0;
    let mut left = LEFT;
    for (label, key) in legend_keys() {
        match key {
            Key::Side(fill) => {
                let _ = writeln!(
                    out,
                    r#"<rect class="key" x="{left:.1}" y="{:.1}" width="14" height="10" fill="{fill}" stroke="{FRAME}" stroke-width="1"/>"#,
                    BASELINE - 10.0
                );
            }
            Key::Mark(mark) => {
                let _ = writeln!(
                    out,
                    r##"<circle class="key" cx="{:.1}" cy="{:.1}" r="5.5" fill="{}" stroke="#ffffff" stroke-width="1.5"/>"##,
                    left + 7.0,
                    BASELINE - 4.0,
                    colour(mark)
                );
            }
        }
        let _ = writeln!(
            out,
            r#"<text class="legend" x="{:.1}" y="{BASELINE:.1}" font-size="12" fill="{CHARCOAL}">{label}</text>"#,
            left + 20.0
        );
        left += legend_entry_width(&label);
    }
}

/// The y axis: 0 to 100 % in quarters, and its caption turned upright along the plot.
fn chance_axis(out: &mut String, y: impl Fn(f64) -> f64) {
    for percent in [0u32, 25, 50, 75, 100] {
        let tick = y(f64::from(percent) / 100.0);
        let _ = writeln!(
            out,
            r#"<line x1="{:.1}" y1="{tick:.1}" x2="{LEFT:.1}" y2="{tick:.1}" stroke="{FRAME}" stroke-width="1"/>"#,
            LEFT - 5.0
        );
        let _ = writeln!(
            out,
            r#"<text class="tick" x="{:.1}" y="{:.1}" font-size="12" text-anchor="end" fill="{CHARCOAL}">{percent}%</text>"#,
            LEFT - 8.0,
            tick + 4.0
        );
    }
    let middle = PLOT_TOP + PLOT_HEIGHT / 2.0;
    let _ = writeln!(
        out,
        r#"<text class="caption" x="20" y="{middle:.1}" font-size="13" text-anchor="middle" fill="{CHARCOAL}" transform="rotate(-90 20 {middle:.1})">White's win chance</text>"#
    );
}

/// The x axis: ply numbers at a round step that keeps them apart, and its caption.
fn ply_axis(out: &mut String, last_ply: usize, plot_width: f64, x: impl Fn(usize) -> f64) {
    let bottom = PLOT_TOP + PLOT_HEIGHT;
    let step = ply_step(plot_width / last_ply as f64);
    for ply in (0..=last_ply).step_by(step) {
        let tick = x(ply);
        let _ = writeln!(
            out,
            r#"<line x1="{tick:.1}" y1="{bottom:.1}" x2="{tick:.1}" y2="{:.1}" stroke="{FRAME}" stroke-width="1"/>"#,
            bottom + 5.0
        );
        let _ = writeln!(
            out,
            r#"<text class="tick" x="{tick:.1}" y="{:.1}" font-size="12" text-anchor="middle" fill="{CHARCOAL}">{ply}</text>"#,
            bottom + 18.0
        );
    }
    let _ = writeln!(
        out,
        r#"<text class="caption" x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="{CHARCOAL}">ply</text>"#,
        LEFT + plot_width / 2.0,
        bottom + 38.0
    );
}

/// The smallest step of 1, 2 or 5 times a power of ten that puts ply numbers `TICK_SPACING` apart.
fn ply_step(pixels_per_ply: f64) -> usize {
    let mut power = 1usize;
    loop {
        for step in [power, power.saturating_mul(2), power.saturating_mul(5)] {
            if step as f64 * pixels_per_ply >= TICK_SPACING || step == usize::MAX {
                return step;
            }
        }
        power = power.saturating_mul(10);
    }
}

/// White's win chance at `point`, within 0 to 1; a chance that is not a number counts as even.
fn chance(point: &ChartPoint) -> f64 {
    if point.white_chance.is_finite() {
        point.white_chance.clamp(0.0, 1.0)
    } else {
        0.5
    }
}

/// The colour of a mark's circle, from yellow for an inaccuracy to red for a blunder; purple for a missed win.
fn colour(mark: Mark) -> &'static str {
    match mark {
        Mark::Inaccuracy => "#e6b800",
        Mark::Mistake => "#e07000",
        Mark::Blunder => "#c00000",
        Mark::MissedWin => "#8040c0",
        // Never drawn: the move is not blamed.
        Mark::ForcedLoss => EVEN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

    fn point(ply: usize, white_chance: f64, mark: Option<Mark>) -> ChartPoint {
        ChartPoint {
            ply,
            white_chance,
            mark,
        }
    }

    /// The numeric attribute `name` of `node`.
    fn number(node: roxmltree::Node, name: &str) -> f64 {
        node.attribute(name)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no number in {name} of {node:?}"))
    }

    /// The elements of `doc` with the class `class`.
    fn of_class<'a, 'input>(doc: &'a roxmltree::Document<'input>, class: &str) -> Vec<roxmltree::Node<'a, 'input>> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .collect()
    }

    /// The top and bottom of the plot frame.
    fn plot_top_and_bottom(doc: &roxmltree::Document) -> (f64, f64) {
        let plot = of_class(doc, "plot");
        assert_eq!(plot.len(), 1);
        let top = number(plot[0], "y");
        (top, top + number(plot[0], "height"))
    }

    #[test]
    fn the_chart_is_an_svg_document() {
        let svg = chart("Game", &[point(1, 0.6, None), point(2, 0.4, Some(Mark::Mistake))]);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert_eq!(root.tag_name().namespace(), Some(SVG_NAMESPACE));
        assert!(root.attribute("viewBox").is_some());
        assert!(number(root, "width") >= 700.0);
        assert!(number(root, "height") > PLOT_HEIGHT);
    }

    #[test]
    fn the_legend_names_every_mark_drawn_and_fits() {
        let svg = chart("Legend", &[]);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let labels: Vec<&str> = of_class(&doc, "legend").iter().filter_map(|t| t.text()).collect();
        assert_eq!(
            labels,
            [
                "White's chance",
                "Black's chance",
                "Inaccuracy",
                "Mistake",
                "Blunder",
                "Missed win"
            ]
        );
        assert!(LEFT + legend_width() <= number(doc.root_element(), "width") - RIGHT);
        assert!(number(doc.root_element(), "width") <= MIN_WIDTH + 40.0);
    }

    #[test]
    fn the_title_is_escaped_and_reads_back() {
        let title = r#"Tom & Jerry <3 "final" > all"#;
        let svg = chart(title, &[point(1, 0.5, None)]);
        assert!(!svg.contains("Tom & Jerry"));
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let shown = of_class(&doc, "title");
        assert_eq!(shown.len(), 1);
        assert_eq!(shown[0].text(), Some(title));
        let tab = doc.root_element().first_element_child().expect("a first child");
        assert_eq!(tab.tag_name().name(), "title");
        assert_eq!(tab.text(), Some(title));
    }

    #[test]
    fn every_error_gets_a_circle_and_a_forced_loss_none() {
        let points = [
            point(1, 0.5, None),
            point(2, 0.45, Some(Mark::Inaccuracy)),
            point(3, 0.6, Some(Mark::Mistake)),
            point(4, 0.2, Some(Mark::Blunder)),
            point(5, 0.3, Some(Mark::ForcedLoss)),
            point(6, 0.9, Some(Mark::MissedWin)),
            point(25, 0.7, Some(Mark::Mistake)),
        ];
        let svg = chart("Marks", &points);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let circles = of_class(&doc, "mark");
        assert_eq!(circles.len(), 5);
        assert!(circles.iter().all(|c| c.tag_name().name() == "circle"));
        let tooltips: Vec<&str> = circles
            .iter()
            .map(|c| {
                c.children()
                    .find(|n| n.has_tag_name("title"))
                    .and_then(|t| t.text())
                    .unwrap_or("")
            })
            .collect();
        assert_eq!(
            tooltips,
            [
                "Ply 2: Inaccuracy",
                "Ply 3: Mistake",
                "Ply 4: Blunder",
                "Ply 6: Missed win",
                "Ply 25: Mistake"
            ]
        );
        let fills: Vec<&str> = circles.iter().filter_map(|c| c.attribute("fill")).collect();
        assert_eq!(fills, ["#e6b800", "#e07000", "#c00000", "#8040c0", "#e07000"]);
    }

    #[test]
    fn a_sure_win_is_at_the_top_and_a_sure_loss_at_the_bottom() {
        let points = [
            point(1, 1.0, Some(Mark::Blunder)),
            point(2, 0.0, Some(Mark::Blunder)),
            point(3, 0.5, Some(Mark::Blunder)),
            point(4, 7.0, Some(Mark::Blunder)),
            point(5, -3.0, Some(Mark::Blunder)),
        ];
        let svg = chart("Ends", &points);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let (top, bottom) = plot_top_and_bottom(&doc);
        assert!(bottom - top >= 300.0);
        let circles = of_class(&doc, "mark");
        let heights: Vec<f64> = circles.iter().map(|c| number(*c, "cy")).collect();
        assert_eq!(heights, [top, bottom, (top + bottom) / 2.0, top, bottom]);
        let across: Vec<f64> = circles.iter().map(|c| number(*c, "cx")).collect();
        assert!(
            across.windows(2).all(|w| w[0] < w[1]),
            "plies go left to right: {across:?}"
        );
    }

    #[test]
    fn an_empty_game_draws_the_axes_only() {
        let svg = chart("", &[]);
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        assert_eq!(doc.root_element().tag_name().namespace(), Some(SVG_NAMESPACE));
        assert!(of_class(&doc, "mark").is_empty());
        assert!(of_class(&doc, "white").is_empty());
        let plies: Vec<&str> = of_class(&doc, "tick").iter().filter_map(|t| t.text()).collect();
        assert_eq!(plies, ["0%", "25%", "50%", "75%", "100%", "0", "1"]);
    }

    #[test]
    fn a_chance_that_is_not_a_number_counts_as_even() {
        let points = [
            point(1, f64::NAN, Some(Mark::Mistake)),
            point(2, f64::INFINITY, Some(Mark::Blunder)),
            point(3, f64::NEG_INFINITY, None),
        ];
        let svg = chart("Odd numbers", &points);
        assert!(!svg.contains("NaN"));
        assert!(!svg.contains("inf"));
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let (top, bottom) = plot_top_and_bottom(&doc);
        for circle in of_class(&doc, "mark") {
            assert_eq!(number(circle, "cy"), (top + bottom) / 2.0);
        }
    }

    #[test]
    fn a_long_game_gets_four_pixels_a_ply() {
        let points: Vec<ChartPoint> = (1..=300)
            .map(|ply| point(ply, (ply as f64 / 40.0).sin() / 2.0 + 0.5, None))
            .collect();
        let svg = chart("Long", &points);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        assert!(number(doc.root_element(), "width") >= 300.0 * 4.0);
        let plot = of_class(&doc, "plot")[0];
        assert!(number(plot, "width") >= 300.0 * 4.0);
    }

    #[test]
    fn numbers_have_one_decimal_at_most() {
        let points: Vec<ChartPoint> = (1..=37)
            .map(|ply| point(ply, 1.0 / 3.0 + ply as f64 / 97.0, None))
            .collect();
        let svg = chart("Thirds", &points);
        let digits = longest_fraction(&svg);
        assert!(digits <= 1, "a number with {digits} decimals");
    }

    /// The most digits after a decimal point in `text`.
    fn longest_fraction(text: &str) -> usize {
        let bytes = text.as_bytes();
        let mut longest = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'.' && i > 0 && bytes[i - 1].is_ascii_digit() {
                let digits = bytes[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
                longest = longest.max(digits);
            }
        }
        longest
    }

    #[test]
    fn ply_numbers_stand_at_round_steps() {
        assert_eq!(ply_step(100.0), 1);
        assert_eq!(ply_step(15.9), 5);
        assert_eq!(ply_step(6.4), 10);
        assert_eq!(ply_step(4.0), 10);
        assert_eq!(ply_step(1.0), 50);
        assert!(ply_step(0.0) > 0);
    }
}
