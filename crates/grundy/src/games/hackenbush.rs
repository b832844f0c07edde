//! Green Hackenbush: a graph drawn on the ground; a move deletes one edge,
//! and every edge no longer connected to the ground disappears with it.
//!
//! The graph is read from a file with one edge `U V` per line (`#`
//! comments); the vertex named `0` is the ground. Loops and repeated edges
//! are allowed. Edges are numbered 1, 2, ... in the order of the file (lines
//! without an edge are not counted), and a position is the set of edges
//! left: `all`, `none`, or edge numbers joined by commas. Edges that do not
//! reach the ground are not part of a position.
//!
//! Values come from two principles (E. R. Berlekamp, J. H. Conway, R. K. Guy,
//! *Winning Ways*, ch. 7; A. N. Siegel, *Combinatorial Game Theory*, 2013):
//! the *fusion principle* (the vertices of a cycle may be fused into one,
//! its edges becoming loops, and a loop plays as a single edge) and the
//! *colon principle* (branches meeting at a vertex may be replaced by one
//! stalk whose length is the nim-sum of theirs; an edge with a tree of value
//! g above it is worth g + 1). [`HackenbushGame`] is the same game for the
//! generic solver, from the rules alone, and the tests compare the two.

use crate::error::{Error, Result};
use crate::family::{Family, Move};
use crate::game::{Game, Parts};
use crate::nimber::Value;
use crate::position::Position;
use crate::search::Bits;
use std::collections::HashMap;

/// The most edges a graph may have.
pub const MAX_EDGES: usize = 128;

/// The members of a set of edges, in increasing order.
fn members(set: u128) -> impl Iterator<Item = usize> {
    set.members().map(|e| e as usize)
}

/// The graph: each edge's two ends, and each vertex's edges.
#[derive(Debug, Clone)]
pub struct Graph {
    ends: Vec<(usize, usize)>,
    incident: Vec<u128>,
    ground: usize,
}

impl Graph {
    /// A graph from its edges (vertices numbered from 0), `ground` the ground.
    pub fn new(ends: Vec<(usize, usize)>, ground: usize) -> Self {
        assert!(ends.len() <= MAX_EDGES);
        let vertices = ends
            .iter()
            .map(|&(a, b)| a.max(b) + 1)
            .max()
            .unwrap_or(0)
            .max(ground + 1);
        let mut incident = vec![0u128; vertices];
        for (e, &(a, b)) in ends.iter().enumerate() {
            incident[a] |= 1 << e;
            incident[b] |= 1 << e;
        }
        Graph {
            ends,
            incident,
            ground,
        }
    }

    /// Every edge of the graph.
    pub fn all(&self) -> u128 {
        if self.ends.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.ends.len()) - 1
        }
    }

    /// The edges of `set` still connected to the ground.
    pub fn prune(&self, set: u128) -> u128 {
        let mut kept = 0u128;
        let mut seen = vec![false; self.incident.len()];
        let mut stack = vec![self.ground];
        seen[self.ground] = true;
        while let Some(v) = stack.pop() {
            for e in members(self.incident[v] & set & !kept) {
                kept |= 1 << e;
                let (a, b) = self.ends[e];
                let w = if a == v { b } else { a };
                if !seen[w] {
                    seen[w] = true;
                    stack.push(w);
                }
            }
        }
        kept
    }

    /// What deleting edge `e` from `set` leaves.
    pub fn cut(&self, set: u128, e: usize) -> u128 {
        self.prune(set & !(1 << e))
    }

    /// The value of the edges `set` by the fusion and colon principles.
    pub fn value(&self, set: u128) -> u64 {
        let set = self.prune(set);
        if set == 0 {
            return 0;
        }
        let n = self.incident.len();
        // Bridges, by depth-first search (Tarjan): an edge is a bridge when
        // nothing below it reaches back above it. Parallel edges are told
        // apart by number, so a doubled edge is never a bridge.
        let mut order = vec![usize::MAX; n];
        let mut low = vec![0usize; n];
        let mut bridges = 0u128;
        let mut clock = 0;
        self.bridges(
            self.ground,
            None,
            set,
            &mut order,
            &mut low,
            &mut clock,
            &mut bridges,
        );
        // Fusion: the vertices joined by edges that are not bridges are one
        // vertex, and those edges are loops on it, each worth a stalk of one.
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], v: usize) -> usize {
            let mut r = v;
            while parent[r] != r {
                r = parent[r];
            }
            let mut v = v;
            while parent[v] != r {
                let next = parent[v];
                parent[v] = r;
                v = next;
            }
            r
        }
        for e in members(set & !bridges) {
            let (a, b) = self.ends[e];
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra] = rb;
        }
        let mut loops = vec![0u64; n];
        for e in members(set & !bridges) {
            let r = find(&mut parent, self.ends[e].0);
            loops[r] ^= 1;
        }
        let mut tree: Vec<Vec<usize>> = vec![Vec::new(); n];
        for e in members(bridges) {
            let (a, b) = self.ends[e];
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            tree[ra].push(rb);
            tree[rb].push(ra);
        }
        // Colon: a fused vertex is worth its loops and, for each branch
        // above it, one more than the branch's top.
        fn colon(v: usize, from: usize, tree: &[Vec<usize>], loops: &[u64]) -> u64 {
            tree[v]
                .iter()
                .filter(|&&w| w != from)
                .fold(loops[v], |acc, &w| acc ^ (colon(w, v, tree, loops) + 1))
        }
        let root = find(&mut parent, self.ground);
        colon(root, usize::MAX, &tree, &loops)
    }

    #[allow(clippy::too_many_arguments)]
    fn bridges(
        &self,
        v: usize,
        via: Option<usize>,
        set: u128,
        order: &mut [usize],
        low: &mut [usize],
        clock: &mut usize,
        bridges: &mut u128,
    ) {
        order[v] = *clock;
        low[v] = *clock;
        *clock += 1;
        for e in members(self.incident[v] & set) {
            let (a, b) = self.ends[e];
            if Some(e) == via || a == b {
                continue;
            }
            let w = if a == v { b } else { a };
            if order[w] == usize::MAX {
                self.bridges(w, Some(e), set, order, low, clock, bridges);
                low[v] = low[v].min(low[w]);
                if low[w] > order[v] {
                    *bridges |= 1 << e;
                }
            } else {
                low[v] = low[v].min(order[w]);
            }
        }
    }
}

/// Green Hackenbush for the generic solver: positions are sets of edges,
/// options the deletion of each edge (with what falls), from the rules alone.
#[derive(Debug, Clone)]
pub struct HackenbushGame(pub Graph);

impl Game for HackenbushGame {
    type Position = u128;

    fn options(&self, &set: &u128, out: &mut Vec<Parts<u128>>) {
        for e in members(set) {
            let mut parts = Parts::new();
            parts.push(self.0.cut(set, e));
            out.push(parts);
        }
    }
}

/// The family `hackenbush:FILE`.
#[derive(Debug, Clone)]
pub struct Hackenbush {
    spec: String,
    names: Vec<String>,
    graph: Graph,
}

impl Hackenbush {
    /// Reads the graph in `text` (`path` names it in the spec and errors).
    pub fn parse(path: &str, text: &str) -> Result<Self> {
        let mut names: Vec<String> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut ends = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            let tokens: Vec<&str> = line.split_whitespace().collect();
            match tokens.len() {
                0 => continue,
                2 => {}
                _ => {
                    return Err(Error::invalid(format!(
                        "{path}:{}: expected one edge `U V` (two vertex names; 0 is the ground), found {:?}",
                        number + 1,
                        line.trim()
                    )))
                }
            }
            if ends.len() == MAX_EDGES {
                return Err(Error::TooLarge(format!(
                    "{path}: Hackenbush graphs have at most {MAX_EDGES} edges"
                )));
            }
            let mut id = |t: &str| {
                *index.entry(t.to_string()).or_insert_with(|| {
                    names.push(t.to_string());
                    names.len() - 1
                })
            };
            let (a, b) = (id(tokens[0]), id(tokens[1]));
            ends.push((a, b));
        }
        if ends.is_empty() {
            return Err(Error::invalid(format!(
                "{path}: the graph has no edges (write one edge `U V` per line; 0 is the ground)"
            )));
        }
        let Some(&ground) = index.get("0") else {
            return Err(Error::invalid(format!(
                "{path}: no edge touches the ground, vertex 0"
            )));
        };
        Ok(Hackenbush {
            spec: format!("hackenbush:{path}"),
            names,
            graph: Graph::new(ends, ground),
        })
    }

    /// The graph.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    fn edges(&self) -> usize {
        self.graph.ends.len()
    }

    fn read_set(&self, text: &str) -> Result<u128> {
        let t = text.trim();
        match t {
            "all" => return Ok(self.graph.prune(self.graph.all())),
            "none" => return Ok(0),
            _ => {}
        }
        let mut set = 0u128;
        let mut at = 0;
        for item in t.split(',') {
            let number = item.trim();
            match number.parse::<usize>() {
                Ok(e) if (1..=self.edges()).contains(&e) => set |= 1 << (e - 1),
                _ => {
                    return Err(Error::syntax(
                        format!(
                            "{number:?} is not an edge of {}: a position is `all`, `none`, or edge numbers 1 to {} (in the order of the file) joined by commas",
                            self.spec,
                            self.edges()
                        ),
                        t,
                        Some(at),
                    ))
                }
            }
            at += item.chars().count() + 1;
        }
        Ok(self.graph.prune(set))
    }

    fn typed(&self, position: &Position) -> Result<u128> {
        let wrong = || {
            Error::invalid(format!(
                "{position} is not a position of {}: a position is a list of edge numbers from 1 to {}",
                self.spec,
                self.edges()
            ))
        };
        let number = |p: &Position| -> Result<u128> {
            match p.as_u64() {
                Some(e) if (1..=self.edges() as u64).contains(&e) => Ok(1 << (e - 1)),
                _ => Err(wrong()),
            }
        };
        let set = match position {
            Position::List(items) => items.iter().try_fold(0u128, |s, p| Ok(s | number(p)?))?,
            Position::Int(_) => number(position)?,
            Position::Text(text) => return self.read_set(text),
            Position::Opaque(_) => return Err(wrong()),
        };
        Ok(self.graph.prune(set))
    }

    fn position(&self, set: u128) -> Position {
        Position::List(members(set).map(|e| Position::from(e as u64 + 1)).collect())
    }

    fn edge(&self, e: usize) -> String {
        let (a, b) = self.graph.ends[e];
        format!("{} ({}-{})", e + 1, self.names[a], self.names[b])
    }
}

impl Family for Hackenbush {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(self.position(self.read_set(text)?))
    }

    fn format(&self, position: &Position) -> String {
        let Ok(set) = self.typed(position) else {
            return position.to_string();
        };
        if set == 0 {
            "none".into()
        } else if set == self.graph.prune(self.graph.all()) {
            "all".into()
        } else {
            members(set)
                .map(|e| (e + 1).to_string())
                .collect::<Vec<_>>()
                .join(",")
        }
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        Ok(Value::finite(self.graph.value(self.typed(position)?)))
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let set = self.typed(position)?;
        Ok(members(set)
            .map(|e| {
                let left = self.graph.cut(set, e);
                Move {
                    to: vec![self.position(left)],
                    value: Value::finite(self.graph.value(left)),
                }
            })
            .collect())
    }

    fn show(&self, position: &Position) -> String {
        let Ok(set) = self.typed(position) else {
            return position.to_string();
        };
        let edges: Vec<String> = members(set).map(|e| self.edge(e)).collect();
        if edges.is_empty() {
            "none".into()
        } else {
            format!("edges {}", edges.join(", "))
        }
    }

    fn describe_move(&self, from: &Position, to: &[Position]) -> Option<String> {
        let before = self.typed(from).ok()?;
        let after = self.typed(to.first()?).ok()?;
        let e = members(before & !after).find(|&e| self.graph.cut(before, e) == after)?;
        let fall: Vec<String> = members(before & !after & !(1 << e))
            .map(|f| (f + 1).to_string())
            .collect();
        let fall = match fall.len() {
            0 => String::new(),
            1 => format!(", edge {} falls", fall[0]),
            _ => format!(", edges {} fall", fall.join(",")),
        };
        Some(format!(
            "cut edge {}{fall}, leaving {}",
            self.edge(e),
            self.format(&to[0])
        ))
    }

    fn shorthand(&self, position: &Position, text: &str) -> Option<Vec<Position>> {
        let set = self.typed(position).ok()?;
        let t = text.trim();
        let t = t.strip_prefix("cut").unwrap_or(t).trim();
        let e: usize = t.strip_prefix("edge").unwrap_or(t).trim().parse().ok()?;
        (e >= 1 && e <= self.edges() && set >> (e - 1) & 1 == 1)
            .then(|| vec![self.position(self.graph.cut(set, e - 1))])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Solver;
    use proptest::prelude::*;

    fn brute(graph: &Graph, set: u128) -> u64 {
        let mut solver = Solver::new(HackenbushGame(graph.clone()));
        solver.value(&graph.prune(set)).unwrap()
    }

    #[test]
    fn stalks_trees_and_cycles() {
        // A stalk of three edges is nim 3.
        let stalk = Graph::new(vec![(0, 1), (1, 2), (2, 3)], 0);
        assert_eq!(stalk.value(stalk.all()), 3);
        // Two stalks of 1 and 2 on one vertex: 1 + 1 ^ 2 ... as one stalk of
        // 1 + (1 ^ 2) = 4.
        let tree = Graph::new(vec![(0, 1), (1, 2), (1, 3), (3, 4)], 0);
        assert_eq!(tree.value(tree.all()), 4);
        assert_eq!(brute(&tree, tree.all()), 4);
        // A triangle on the ground fuses to three loops: nim 1.
        let triangle = Graph::new(vec![(0, 1), (1, 2), (2, 0)], 0);
        assert_eq!(triangle.value(triangle.all()), 1);
        // Two parallel edges: two loops, nim 0; a loop alone is nim 1.
        assert_eq!(Graph::new(vec![(0, 1), (0, 1)], 0).value(3), 0);
        assert_eq!(Graph::new(vec![(0, 0)], 0).value(1), 1);
        // What does not touch the ground is not there.
        let floating = Graph::new(vec![(0, 1), (2, 3)], 0);
        assert_eq!(floating.prune(floating.all()), 1);
    }

    #[test]
    fn reads_files_and_positions() {
        let h = Hackenbush::parse("t.txt", "# a tree\n0 a\na b\na c # branch\n\nc c\n").unwrap();
        assert_eq!(h.format(&h.parse("all").unwrap()), "all");
        assert_eq!(h.format(&h.parse("1,2").unwrap()), "1,2");
        // Edge 2 without edge 1 is not connected to the ground.
        assert_eq!(h.format(&h.parse("2").unwrap()), "none");
        assert!(h.parse("5").is_err());
        assert!(h.parse("x").is_err());
        assert!(Hackenbush::parse("q", "0 1 2").is_err());
        assert!(Hackenbush::parse("q", "a b").is_err());
        assert!(Hackenbush::parse("q", "# nothing").is_err());
        let big: String = (0..129).map(|i| format!("0 v{i}\n")).collect();
        assert!(matches!(
            Hackenbush::parse("q", &big),
            Err(Error::TooLarge(_))
        ));
        let most: String = (0..128).map(|i| format!("0 v{i}\n")).collect();
        assert!(Hackenbush::parse("q", &most).is_ok());
        let mut h = h;
        let all = h.parse("all").unwrap();
        let moves = h.moves(&all).unwrap();
        assert_eq!(moves.len(), 4);
        assert_eq!(
            h.describe_move(&all, &moves[0].to).unwrap(),
            "cut edge 1 (0-a), edges 2,3,4 fall, leaving none"
        );
        assert_eq!(
            h.shorthand(&all, "cut 4"),
            Some(vec![h.parse("1,2,3").unwrap()])
        );
    }

    fn graphs() -> impl Strategy<Value = (Vec<(usize, usize)>, u128)> {
        proptest::collection::vec((0usize..6, 0usize..6), 1..11).prop_flat_map(|ends| {
            let n = ends.len();
            (Just(ends), 0u128..(1u128 << n))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn fusion_and_colon_agree_with_search((ends, set) in graphs()) {
            let graph = Graph::new(ends, 0);
            prop_assert_eq!(graph.value(set), brute(&graph, set));
            prop_assert_eq!(graph.value(graph.all()), brute(&graph, graph.all()));
        }
    }
}
