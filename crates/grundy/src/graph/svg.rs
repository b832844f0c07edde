//! The picture of a [`Graph`]: a layered (Sugiyama) layout by the `layout-rs`
//! crate, written as a small self-contained SVG, the same for the command
//! line, the guide and the page.
//!
//! The layout crate places boxes and routes edges; this module draws them:
//! each box with its position and Grundy value, P-positions filled and with
//! a double border, and a legend underneath. The layout depends only on the
//! graph (no clock, no random seed, no font on the machine: a box's size
//! comes from its number of characters), so the same graph always gives the
//! same bytes.

use super::Graph;
use crate::error::{Error, Result};
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::format::{ClipHandle, RenderBackend};
use layout::core::geometry::Point;
use layout::core::style::{LineStyleKind, StyleAttr};
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, ShapeKind};
use layout::topo::layout::VisualGraph;
use std::fmt::Write as _;

/// The fill of a P-position (value 0), in the picture and in DOT.
pub const P_FILL: &str = "#ffe08a";
/// The fill of an N-position.
const N_FILL: &str = "#ffffff";
/// Borders and arrows.
const LINE: &str = "#4a5568";
/// The border of a P-position.
const P_LINE: &str = "#8a6100";
/// Text.
const INK: &str = "#1a202c";

/// Font sizes of a box's two lines, in pixels.
const POSITION_FONT: f64 = 14.0;
const VALUE_FONT: f64 = 12.0;
/// The width of a character, as a share of its font size: generous for a
/// sans-serif face, so that text fits its box whatever font the viewer has.
const CHAR_WIDTH: f64 = 0.62;
/// A box's height and its text's margin.
const BOX_HEIGHT: f64 = 42.0;
const BOX_MARGIN: f64 = 18.0;
/// The scale the layout measures boxes in: it sizes a box as its label's
/// characters times this, plus 10 pixels (see [`proxy_label`]).
const LAYOUT_SCALE: usize = 4;
/// Space around the picture.
const MARGIN: f64 = 12.0;

/// The most layers that long moves may cross, counted over all moves, in a
/// picture: each crossing is a bend the layout places, and past this the
/// picture is a tangle, and its layout takes seconds (the time grows with
/// about the square of this count: `nim 15` crosses 560 layers, `nim 16` 680).
pub const MOST_CROSSINGS: usize = 600;

/// Draws `graph` as an SVG document, or says why it is too tangled to draw.
pub fn render(graph: &Graph) -> Result<String> {
    let order = Order::of(graph);
    let crossings = order.crossings(graph);
    if crossings > MOST_CROSSINGS {
        return Err(Error::invalid(format!(
            "the graph of {} is too tangled to draw: its {} moves cross {crossings} layers in all (at most {MOST_CROSSINGS}); draw a smaller position, or list it without --svg",
            graph.game,
            graph.edges().len()
        )));
    }
    let mut visual = VisualGraph::new(Orientation::TopToBottom);
    // The layout checks the whole graph after each edge when asked to
    // validate, which takes exponential time on long chains of moves.
    visual.dag.set_validate(false);
    let mut handles = Vec::with_capacity(graph.nodes.len());
    for (i, node) in graph.nodes.iter().enumerate() {
        let look = StyleAttr::new(Color::fast("black"), 1, None, 0, LAYOUT_SCALE);
        let (width, height) = box_size(&node.position, &node.grundy.to_string());
        let element = Element::create_with_properties(
            ShapeKind::new_box(&proxy_label(width, height)),
            look,
            Orientation::TopToBottom,
            Point::new(width, height),
            i.to_string(),
        );
        handles.push(visual.add_node(element));
    }
    // Edges are added with their sources in topological order, and a move
    // that closes a cycle (loopy games) reversed beforehand, so that the
    // layout's own cycle check finds nothing to walk.
    for &from in &order.topological {
        for &to in &graph.nodes[from].options {
            if order.is_back(from, to) {
                let arrow = Arrow::new(
                    LineEndKind::Arrow,
                    LineEndKind::None,
                    LineStyleKind::Normal,
                    "",
                    &StyleAttr::simple(),
                    &None,
                    &None,
                );
                visual.add_edge(arrow, handles[to], handles[from]);
            } else {
                visual.add_edge(Arrow::simple(""), handles[from], handles[to]);
            }
        }
    }
    let mut canvas = Canvas::default();
    visual.do_it(false, false, false, &mut canvas);
    Ok(canvas.write(graph))
}

/// The nodes in an order where every move goes down, but for moves that
/// close a cycle.
struct Order {
    /// The nodes, each before the nodes its moves lead to.
    topological: Vec<usize>,
    /// Each node's place in `topological`.
    place: Vec<usize>,
}

impl Order {
    fn of(graph: &Graph) -> Order {
        // Depth first from the given position (every node is reachable from
        // it): the reverse of the finishing order is topological once the
        // moves back onto the path are set aside.
        let n = graph.nodes.len();
        let mut state = vec![0u8; n]; // 0 new, 1 on the path, 2 done
        let mut finished = Vec::with_capacity(n);
        for root in 0..n {
            if state[root] != 0 {
                continue;
            }
            let mut stack = vec![(root, 0usize)];
            state[root] = 1;
            while let Some(top) = stack.last_mut() {
                let (node, next) = *top;
                if let Some(&to) = graph.nodes[node].options.get(next) {
                    top.1 += 1;
                    if state[to] == 0 {
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                } else {
                    state[node] = 2;
                    finished.push(node);
                    stack.pop();
                }
            }
        }
        finished.reverse();
        let mut place = vec![0; n];
        for (i, &node) in finished.iter().enumerate() {
            place[node] = i;
        }
        Order {
            topological: finished,
            place,
        }
    }

    /// Whether the move `from -> to` goes back up (closes a cycle).
    fn is_back(&self, from: usize, to: usize) -> bool {
        self.place[to] <= self.place[from]
    }

    /// How many layers the moves cross in all when each node is placed one
    /// layer below the lowest of the nodes that move to it.
    fn crossings(&self, graph: &Graph) -> usize {
        let mut layer = vec![0usize; graph.nodes.len()];
        for &from in &self.topological {
            for &to in &graph.nodes[from].options {
                if !self.is_back(from, to) {
                    layer[to] = layer[to].max(layer[from] + 1);
                }
            }
        }
        graph
            .edges()
            .into_iter()
            .map(|(from, to)| layer[from].abs_diff(layer[to]).saturating_sub(1))
            .sum()
    }
}

/// The size of a node's box: wide enough for its position and value lines.
fn box_size(position: &str, value: &str) -> (f64, f64) {
    let position = position.chars().count() as f64 * POSITION_FONT * CHAR_WIDTH;
    let value = (value.chars().count() + "grundy ".len()) as f64 * VALUE_FONT * CHAR_WIDTH;
    (position.max(value) + BOX_MARGIN, BOX_HEIGHT)
}

/// A stand-in label that the layout crate measures as a box of about
/// `width` by `height`: it sizes boxes by counting characters and lines, and
/// the real text is drawn here, in a font of our choosing.
fn proxy_label(width: f64, height: f64) -> String {
    let scale = LAYOUT_SCALE as f64;
    let columns = ((width - 10.0) / scale).ceil().max(1.0) as usize;
    let rows = ((height - 10.0) / scale).ceil().max(1.0) as usize;
    vec!["x".repeat(columns); rows].join("\n")
}

/// What the layout asked to draw, kept to be written once the whole extent
/// is known.
#[derive(Default)]
struct Canvas {
    /// (node index, top-left corner, size).
    boxes: Vec<(usize, Point, Point)>,
    /// Each edge as an SVG path's `d`, with its points for the extent, and
    /// whether its head is at its start.
    arrows: Vec<(String, Vec<Point>, bool)>,
}

impl RenderBackend for Canvas {
    fn draw_rect(
        &mut self,
        xy: Point,
        size: Point,
        _look: &StyleAttr,
        properties: Option<String>,
        _clip: Option<ClipHandle>,
    ) {
        if let Some(index) = properties.and_then(|p| p.parse().ok()) {
            self.boxes.push((index, xy, size));
        }
    }

    fn draw_line(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}

    fn draw_circle(&mut self, _: Point, _: Point, _: &StyleAttr, _: Option<String>) {}

    fn draw_text(&mut self, _: Point, _: &str, _: &StyleAttr) {}

    fn draw_arrow(
        &mut self,
        path: &[(Point, Point)],
        _dashed: bool,
        head: (bool, bool),
        _look: &StyleAttr,
        _properties: Option<String>,
        _text: &str,
    ) {
        // The layout gives the first point with its outgoing control point,
        // then each later point with its incoming one: a cubic Bézier, then
        // smooth continuations.
        if path.len() < 2 {
            return;
        }
        let mut d = format!(
            "M{} {}C{} {} {} {} {} {}",
            n(path[0].0.x),
            n(path[0].0.y),
            n(path[0].1.x),
            n(path[0].1.y),
            n(path[1].0.x),
            n(path[1].0.y),
            n(path[1].1.x),
            n(path[1].1.y)
        );
        for point in &path[2..] {
            let _ = write!(
                d,
                "S{} {} {} {}",
                n(point.0.x),
                n(point.0.y),
                n(point.1.x),
                n(point.1.y)
            );
        }
        let points = path.iter().flat_map(|(a, b)| [*a, *b]).collect();
        // A move drawn against the layout's direction has its head at the start.
        self.arrows.push((d, points, head.0));
    }

    fn create_clip(&mut self, _: Point, _: Point, _: usize) -> ClipHandle {
        0
    }
}

impl Canvas {
    fn write(mut self, graph: &Graph) -> String {
        self.boxes.sort_by_key(|b| b.0);
        let mut low = Point::new(f64::MAX, f64::MAX);
        let mut high = Point::new(f64::MIN, f64::MIN);
        let mut grow = |p: Point| {
            low = Point::new(low.x.min(p.x), low.y.min(p.y));
            high = Point::new(high.x.max(p.x), high.y.max(p.y));
        };
        for (_, xy, size) in &self.boxes {
            grow(*xy);
            grow(xy.add(*size));
        }
        for (_, points, _) in &self.arrows {
            points.iter().for_each(|p| grow(*p));
        }
        if self.boxes.is_empty() {
            low = Point::zero();
            high = Point::zero();
        }
        // Everything moves so that the picture starts at (MARGIN, MARGIN).
        let dx = MARGIN - low.x;
        let dy = MARGIN - low.y;
        let legend_top = high.y + dy + 16.0;
        let legend_width = 330.0;
        let width = (high.x - low.x + 2.0 * MARGIN).max(legend_width + 2.0 * MARGIN);
        let height = legend_top + 52.0;

        let mut svg = String::new();
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" font-family="sans-serif">"#,
            w = n(width),
            h = n(height)
        );
        let _ = writeln!(
            svg,
            "<title>Game graph of {}: every position reachable, each move an arrow, each position with its Grundy value</title>",
            escape(&graph.game)
        );
        let _ = writeln!(
            svg,
            r#"<defs><marker id="grundy-graph-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0L10 5L0 10z" fill="{LINE}"/></marker><marker id="grundy-graph-arrow-back" viewBox="0 0 10 10" refX="0" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M10 0L0 5L10 10z" fill="{LINE}"/></marker></defs>"#
        );
        let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="{N_FILL}"/>"#);
        let _ = writeln!(svg, r#"<g transform="translate({} {})">"#, n(dx), n(dy));
        let _ = writeln!(
            svg,
            r#"<g fill="none" stroke="{LINE}" stroke-width="1.3" marker-end="url(#grundy-graph-arrow)">"#
        );
        for (d, _, reversed) in &self.arrows {
            if *reversed {
                let _ = writeln!(
                    svg,
                    r#"<path d="{d}" marker-end="none" marker-start="url(#grundy-graph-arrow-back)"/>"#
                );
            } else {
                let _ = writeln!(svg, r#"<path d="{d}"/>"#);
            }
        }
        svg.push_str("</g>\n");
        for (index, xy, size) in &self.boxes {
            let node = &graph.nodes[*index];
            let value = node.grundy.to_string();
            let kind = if node.is_p_position() { "P" } else { "N" };
            let _ = writeln!(
                svg,
                "<g><title>{}: grundy {value}, {kind}-position</title>",
                escape(&node.position)
            );
            node_box(&mut svg, *xy, *size, node.is_p_position());
            let middle = xy.x + size.x / 2.0;
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{}" text-anchor="middle" font-size="{POSITION_FONT}" font-weight="bold" fill="{INK}">{}</text>"#,
                n(middle),
                n(xy.y + size.y / 2.0 - 3.0),
                escape(&node.position)
            );
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{}" text-anchor="middle" font-size="{VALUE_FONT}" fill="{INK}">grundy {}</text>"#,
                n(middle),
                n(xy.y + size.y / 2.0 + 13.0),
                escape(&value)
            );
            svg.push_str("</g>\n");
        }
        svg.push_str("</g>\n");
        legend(&mut svg, legend_top);
        svg.push_str("</svg>\n");
        svg
    }
}

/// A node's box: P-positions filled and with a double border.
fn node_box(svg: &mut String, xy: Point, size: Point, p_position: bool) {
    if p_position {
        let _ = writeln!(
            svg,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="{P_FILL}" stroke="{P_LINE}" stroke-width="1.5"/>"#,
            n(xy.x),
            n(xy.y),
            n(size.x),
            n(size.y)
        );
        let _ = writeln!(
            svg,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="none" stroke="{P_LINE}" stroke-width="1.5"/>"#,
            n(xy.x + 3.0),
            n(xy.y + 3.0),
            n(size.x - 6.0),
            n(size.y - 6.0)
        );
    } else {
        let _ = writeln!(
            svg,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="{N_FILL}" stroke="{LINE}" stroke-width="1.2"/>"#,
            n(xy.x),
            n(xy.y),
            n(size.x),
            n(size.y)
        );
    }
}

/// What the two kinds of box mean, under the graph.
fn legend(svg: &mut String, top: f64) {
    let _ = writeln!(svg, r#"<g font-size="12" fill="{INK}">"#);
    node_box(svg, Point::new(MARGIN, top), Point::new(26.0, 18.0), true);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}">grundy 0: P-position, the player to move loses</text>"#,
        n(MARGIN + 34.0),
        n(top + 13.0)
    );
    node_box(
        svg,
        Point::new(MARGIN, top + 26.0),
        Point::new(26.0, 18.0),
        false,
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}">grundy &gt; 0: N-position, the player to move wins</text>"#,
        n(MARGIN + 34.0),
        n(top + 39.0)
    );
    svg.push_str("</g>\n");
}

/// A coordinate, to a tenth of a pixel: short, and the same on every machine.
fn n(x: f64) -> String {
    let rounded = (x * 10.0).round() / 10.0;
    if rounded == 0.0 {
        "0".to_string()
    } else {
        format!("{rounded}")
    }
}

/// Text for SVG: `&`, `<`, `>` and `"` escaped.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Settings;
    use crate::spec::parse_sum;

    fn picture(words: &str) -> String {
        let words: Vec<String> = words.split_whitespace().map(String::from).collect();
        let mut sum = parse_sum(&words, Settings::default()).unwrap();
        render(&super::super::build(&mut sum, 100).unwrap()).unwrap()
    }

    #[test]
    fn every_node_is_drawn_once_with_its_value() {
        let svg = picture("sub:1,2,3 7");
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(svg.matches("<title>").count(), 1 + 8);
        // 18 moves and the two arrowheads (down, and back up a cycle).
        assert_eq!(svg.matches("<path d=\"M").count(), 18 + 2);
        assert!(!svg.contains("marker-start"));
        assert_eq!(svg.matches(&format!("fill=\"{P_FILL}\"")).count(), 2 + 1);
    }

    #[test]
    fn the_same_graph_gives_the_same_bytes() {
        assert_eq!(picture("kayles 5"), picture("kayles 5"));
    }

    #[test]
    fn a_move_that_closes_a_cycle_is_drawn_back_up() {
        let dag = "a b\nb c\nc a\nc d\n";
        let files = std::collections::BTreeMap::from([("g.txt".to_string(), dag.to_string())]);
        let words: Vec<String> = ["dag:g.txt", "a"].map(String::from).to_vec();
        let mut sum = crate::spec::parse_sum_from(
            &words,
            Settings::default(),
            &crate::spec::Sources::Given(&files),
        )
        .unwrap();
        let graph = super::super::build(&mut sum, 100).unwrap();
        assert_eq!(graph.edges(), [(0, 1), (1, 2), (2, 3), (2, 0)]);
        let svg = render(&graph).unwrap();
        assert_eq!(svg.matches("marker-start=").count(), 1);
        assert_eq!(svg.matches("<path d=\"M").count(), 4 + 2);
    }

    #[test]
    fn a_tangle_of_long_moves_is_refused() {
        let words: Vec<String> = ["nim", "16"].map(String::from).to_vec();
        let mut sum = parse_sum(&words, Settings::default()).unwrap();
        let graph = super::super::build(&mut sum, 100).unwrap();
        let e = render(&graph).unwrap_err().to_string();
        assert!(e.contains("cross 680 layers"), "{e}");
    }

    #[test]
    fn a_single_position_is_drawn() {
        let svg = picture("nim 0");
        assert!(svg.contains(">0</text>"));
    }
}
