//! The game graph of a small position: every position reachable from it, each
//! move an edge, each position with its Grundy value, so that a person can
//! see the mex rule at work (`grundy graph`, the page's Explain view).
//!
//! A node is a whole sum: a move changes one component, and a move that
//! splits a heap leaves two components where it had one (`3` becomes
//! `1 + 2`). Sums that differ only in the order of their components are one
//! node, so `1 + 2` and `2 + 1` are drawn once.
//!
//! The graph is written as text (one line a node), as Graphviz DOT, as JSON
//! and, through [`svg`], as a laid-out picture.

pub mod svg;

use crate::error::{Error, Result};
use crate::nimber::Value;
use crate::position::Position;
use crate::sum::{Component, Sum};
use rustc_hash::FxHashMap;
use serde_json::{json, Value as Json};
use std::fmt::Write as _;

/// How many positions a graph may have unless told otherwise (`--max-nodes`):
/// past a few dozen a picture is hard to read anyway.
pub const DEFAULT_MAX_NODES: usize = 100;

/// The most positions a graph may have whatever `--max-nodes` says: the
/// layout takes time that grows faster than the number of nodes.
pub const MOST_NODES: usize = 2000;

/// One position of the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The position as the command line writes it; the components of a sum
    /// joined with ` + `, and `(nothing)` when no component is left.
    pub position: String,
    /// The Grundy value of the whole position.
    pub grundy: Value,
    /// The nodes its moves lead to (indices into [`Graph::nodes`]), in the
    /// order of the family's moves, each once.
    pub options: Vec<usize>,
}

impl Node {
    /// Whether this is a P-position: value 0, the player to move loses.
    pub fn is_p_position(&self) -> bool {
        self.grundy.is_zero()
    }
}

/// The game graph of a position: its nodes (the given position first, then
/// the others in the order they are reached, breadth first) and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// The game, as the command line's words (`sub:1-3 7`).
    pub game: String,
    /// The positions, the given one first.
    pub nodes: Vec<Node>,
}

/// Builds the graph of every position reachable from `sum`'s position,
/// refusing with one clear error when there are more than `max_nodes`.
///
/// ```
/// use grundy::family::Settings;
/// use grundy::spec::parse_sum;
///
/// let words: Vec<String> = ["sub:1,2", "3"].iter().map(|w| w.to_string()).collect();
/// let mut sum = parse_sum(&words, Settings::default())?;
/// let graph = grundy::graph::build(&mut sum, 100)?;
/// let shown: Vec<String> = graph.nodes.iter().map(|n| format!("{}:{}", n.position, n.grundy)).collect();
/// assert_eq!(shown, ["3:0", "2:2", "1:1", "0:0"]);
/// assert_eq!(graph.edges(), [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3)]);
/// # Ok::<(), grundy::Error>(())
/// ```
pub fn build(sum: &mut Sum, max_nodes: usize) -> Result<Graph> {
    if max_nodes == 0 {
        return Err(Error::invalid(
            "--max-nodes must be at least 1: a graph has at least its own position",
        ));
    }
    if max_nodes > MOST_NODES {
        return Err(Error::invalid(format!(
            "--max-nodes is at most {MOST_NODES}: a larger graph cannot be laid out or read"
        )));
    }
    let game = crate::json::sum_text(sum);
    let start = sum.components().to_vec();
    let result = explore(sum, start.clone(), max_nodes, &game);
    // The sum is left as it was given, whatever happened.
    sum.set_components(start);
    result.map(|nodes| Graph { game, nodes })
}

/// One component of the given sum as play goes on: its family, and what is
/// left of it (several parts once a heap has split, none once it is gone).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Slot {
    family: usize,
    parts: Vec<Position>,
}

/// The breadth-first walk of [`build`]; it moves `sum` through the positions
/// it values.
fn explore(
    sum: &mut Sum,
    start: Vec<Component>,
    max_nodes: usize,
    game: &str,
) -> Result<Vec<Node>> {
    let mut index: FxHashMap<Vec<Slot>, usize> = FxHashMap::default();
    let mut positions: Vec<Vec<Slot>> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    // How each family writes a component that is gone: as its position with
    // no move (`0` for a heap), which is the same game as nothing.
    let mut gone: FxHashMap<usize, Option<String>> = FxHashMap::default();
    let too_many = || {
        Error::invalid(format!(
            "the graph of {game} has more than {max_nodes} positions: draw a smaller position, or raise the limit with --max-nodes"
        ))
    };
    let first: Vec<Slot> = start
        .into_iter()
        .map(|c| Slot {
            family: c.family,
            parts: vec![c.position],
        })
        .collect();
    index.insert(canonical(&first), 0);
    positions.push(first);
    let mut next = 0;
    while next < positions.len() {
        let slots = positions[next].clone();
        let components: Vec<Component> = slots
            .iter()
            .flat_map(|slot| {
                slot.parts.iter().map(|p| Component {
                    family: slot.family,
                    position: p.clone(),
                })
            })
            .collect();
        // A position that ends the game (three in a row in Treblecross) has
        // no move: the player to move has lost.
        let over = components
            .iter()
            .any(|c| sum.family(c.family).ends_game(&c.position));
        let grundy = if over {
            Value::zero()
        } else {
            sum.set_components(components);
            sum.analyze(0)?.nim_sum
        };
        let mut options = Vec::new();
        // A position that ends the game has no move.
        if !over {
            for (s, slot) in slots.iter().enumerate() {
                for (p, part) in slot.parts.iter().enumerate() {
                    for m in sum.family_mut(slot.family).moves(part)? {
                        let mut after = slots.clone();
                        let parts = &mut after[s].parts;
                        parts.splice(p..=p, m.to);
                        parts.sort();
                        let key = canonical(&after);
                        let target = match index.get(&key) {
                            Some(&found) => found,
                            None => {
                                if positions.len() == max_nodes {
                                    return Err(too_many());
                                }
                                let new = positions.len();
                                index.insert(key, new);
                                positions.push(after);
                                new
                            }
                        };
                        if !options.contains(&target) {
                            options.push(target);
                        }
                    }
                }
            }
        }
        let mut shown = Vec::new();
        for slot in &slots {
            if slot.parts.is_empty() {
                let written = gone
                    .entry(slot.family)
                    .or_insert_with(|| terminal_zero(sum.family_mut(slot.family)));
                shown.extend(written.clone());
            }
            shown.extend(slot.parts.iter().map(|p| sum.format(slot.family, p)));
        }
        let position = if shown.is_empty() {
            "(nothing)".to_string()
        } else {
            shown.join(" + ")
        };
        nodes.push(Node {
            position,
            grundy,
            options,
        });
        next += 1;
    }
    Ok(nodes)
}

/// How `family` writes the heap `0`, if `0` is one of its positions and has
/// no move (so that it is the same game as nothing).
fn terminal_zero(family: &mut dyn crate::family::Family) -> Option<String> {
    let zero = family.parse("0").ok()?;
    family
        .moves(&zero)
        .ok()
        .filter(|moves| moves.is_empty())
        .map(|_| family.format(&zero))
}

/// The slots in a fixed order, each with its parts sorted, so that a sum is
/// one node however its components were reached.
fn canonical(slots: &[Slot]) -> Vec<Slot> {
    let mut sorted: Vec<Slot> = slots
        .iter()
        .map(|slot| {
            let mut parts = slot.parts.clone();
            parts.sort();
            Slot {
                family: slot.family,
                parts,
            }
        })
        .collect();
    sorted.sort();
    sorted
}

impl Graph {
    /// Every move as (from, to), node indices, in the order of the nodes and
    /// of their options.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        self.nodes
            .iter()
            .enumerate()
            .flat_map(|(from, node)| node.options.iter().map(move |&to| (from, to)))
            .collect()
    }

    /// The plain-text listing of `grundy graph`: a heading, then one line a
    /// node with its value, `P` for a P-position, and its options.
    pub fn to_text(&self) -> String {
        let edges = self.edges().len();
        let mut text = format!(
            "{}: {} position{}, {} move{}; P marks value 0 (the player to move loses)\n",
            self.game,
            self.nodes.len(),
            if self.nodes.len() == 1 { "" } else { "s" },
            edges,
            if edges == 1 { "" } else { "s" },
        );
        let width = self
            .nodes
            .iter()
            .map(|n| n.position.chars().count())
            .max()
            .unwrap_or(0);
        let value_width = self
            .nodes
            .iter()
            .map(|n| n.grundy.to_string().len())
            .max()
            .unwrap_or(1);
        for node in &self.nodes {
            let options = if node.options.is_empty() {
                "no move".to_string()
            } else {
                let names: Vec<&str> = node
                    .options
                    .iter()
                    .map(|&o| self.nodes[o].position.as_str())
                    .collect();
                // Positions such as `3,1,2` hold commas themselves: then the
                // options are set apart by semicolons.
                let separator = if names.iter().any(|n| n.contains(',')) {
                    "; "
                } else {
                    ", "
                };
                format!("-> {}", names.join(separator))
            };
            let _ = writeln!(
                text,
                "  {:<width$}  grundy {:<value_width$}  {}  {options}",
                node.position,
                node.grundy.to_string(),
                if node.is_p_position() { "P" } else { " " },
            );
        }
        text
    }

    /// The graph in Graphviz's DOT language: P-positions filled and with a
    /// double border, as in the SVG picture.
    pub fn to_dot(&self) -> String {
        let mut dot = String::from("digraph grundy {\n");
        let _ = writeln!(dot, "  label={};", dot_string(&self.game));
        dot.push_str("  labelloc=t;\n");
        dot.push_str(
            "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"sans-serif\"];\n",
        );
        for (i, node) in self.nodes.iter().enumerate() {
            let label = format!(
                "<<b>{}</b><br/>grundy {}>",
                html(&node.position),
                html(&node.grundy.to_string())
            );
            if node.is_p_position() {
                let _ = writeln!(
                    dot,
                    "  n{i} [label={label}, fillcolor=\"{}\", peripheries=2];",
                    svg::P_FILL
                );
            } else {
                let _ = writeln!(dot, "  n{i} [label={label}];");
            }
        }
        for (from, to) in self.edges() {
            let _ = writeln!(dot, "  n{from} -> n{to};");
        }
        dot.push_str("}\n");
        dot
    }

    /// `{"game", "nodes": [{"position", "grundy"}], "edges": [[from, to], ...]}`:
    /// `grundy graph --json`, and the web's answer without its picture.
    pub fn to_json(&self) -> Json {
        let nodes: Vec<Json> = self
            .nodes
            .iter()
            .map(|n| json!({"position": n.position, "grundy": crate::json::value(&n.grundy)}))
            .collect();
        let edges: Vec<Json> = self
            .edges()
            .into_iter()
            .map(|(from, to)| json!([from, to]))
            .collect();
        json!({"game": self.game, "nodes": nodes, "edges": edges})
    }
}

/// A DOT string literal: quoted, with `"` and `\` escaped.
fn dot_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Text inside one of DOT's HTML-like labels: escaped as in the SVG.
fn html(text: &str) -> String {
    svg::escape(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Settings;
    use crate::spec::parse_sum;

    fn graph(words: &str, max: usize) -> Result<Graph> {
        let words: Vec<String> = words.split_whitespace().map(String::from).collect();
        let mut sum = parse_sum(&words, Settings::default())?;
        build(&mut sum, max)
    }

    #[test]
    fn a_subtraction_game_from_seven() {
        let g = graph("sub:1,2,3 7", 100).unwrap();
        let values: Vec<String> = g.nodes.iter().map(|n| n.grundy.to_string()).collect();
        assert_eq!(values, ["3", "2", "1", "0", "3", "2", "1", "0"]);
        assert_eq!(g.nodes[0].position, "7");
        assert_eq!(g.edges().len(), 3 * 5 + 2 + 1);
        assert!(g.nodes[3].is_p_position());
    }

    #[test]
    fn a_split_is_one_node_whatever_the_order() {
        let g = graph("kayles 4", 100).unwrap();
        let names: Vec<&str> = g.nodes.iter().map(|n| n.position.as_str()).collect();
        // 4 -> 1 + 2 and 4 -> 2 + 1 (a pin knocked down either side) are one move.
        assert_eq!(names, ["4", "3", "1 + 2", "2", "1 + 1", "1", "0"]);
        assert_eq!(g.nodes[0].options, [1, 2, 3, 4]);
    }

    #[test]
    fn a_game_without_a_zero_heap_never_writes_nothing_for_a_board() {
        let g = graph("treblecross ....", 100).unwrap();
        assert!(g.nodes.iter().all(|n| n.position != "(nothing)"));
    }

    proptest::proptest! {
        /// Each node's value is what the family's solver gives the position,
        /// and each node's options are exactly the family's moves.
        #[test]
        fn values_and_moves_are_the_familys(
            game in proptest::sample::select(vec!["sub:1,2,3", "sub:2,5", "0.07", "kayles", "0.137", "grundy", "div:2,3", "nim"]),
            heap in 0u64..14,
        ) {
            let g = graph(&format!("{game} {heap}"), 2000).unwrap();
            let mut family = crate::spec::parse_game(game, Settings::default()).unwrap();
            let find = |name: &str| g.nodes.iter().position(|n| n.position == name);
            for node in &g.nodes {
                let parts: Vec<Position> = node
                    .position
                    .split(" + ")
                    .map(|p| family.parse(p).unwrap())
                    .collect();
                let mut sum = 0u64;
                for p in &parts {
                    sum ^= family.value(p).unwrap().as_u64().unwrap();
                }
                proptest::prop_assert_eq!(node.grundy.as_u64(), Some(sum), "{}", node.position);
                if parts.len() == 1 {
                    let mut wanted: Vec<usize> = Vec::new();
                    for m in family.moves(&parts[0]).unwrap() {
                        let mut to: Vec<Position> = m.to.clone();
                        to.sort();
                        let name = if to.is_empty() {
                            "0".to_string()
                        } else {
                            to.iter().map(|p| family.format(p)).collect::<Vec<_>>().join(" + ")
                        };
                        let at = find(&name).unwrap();
                        if !wanted.contains(&at) {
                            wanted.push(at);
                        }
                    }
                    proptest::prop_assert_eq!(&node.options, &wanted, "{}", node.position);
                }
            }
        }
    }

    #[test]
    fn a_sum_of_two_families() {
        let g = graph("nim 2 + sub:1,2 2", 100).unwrap();
        assert_eq!(g.nodes[0].position, "2 + 2");
        assert!(g.nodes[0].is_p_position());
        assert_eq!(g.game, "nim 2 + sub:1,2 2");
    }

    #[test]
    fn too_many_positions_is_one_clear_error() {
        let e = graph("nim 200", 100).unwrap_err().to_string();
        assert!(e.contains("more than 100 positions"), "{e}");
        assert!(e.contains("--max-nodes"), "{e}");
        assert!(graph("nim 3", 0).is_err());
        assert!(graph("nim 3", MOST_NODES + 1).is_err());
    }

    #[test]
    fn dot_marks_p_positions() {
        let dot = graph("sub:1,2 3", 100).unwrap().to_dot();
        assert!(dot.starts_with("digraph grundy {"));
        assert!(dot.contains("n0 [label=<<b>3</b><br/>grundy 0>, fillcolor="));
        assert!(dot.contains("n0 -> n1;"));
    }
}
