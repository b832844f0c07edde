//! Node-Kayles: a move takes a vertex of a graph together with its
//! neighbours; whoever cannot move loses. Vertices left that no longer
//! touch are independent games.
//!
//! The graph is read from a file in the `dag:` format (`A B` per line, a
//! lone name for an isolated vertex, `#` comments), its edges undirected.
//! Positions are the sets of vertices left, up to 128 vertices.

use crate::error::{Error, Result};
use crate::position::Position;
use crate::search::family::{Engine, Kind};
use crate::search::{Bits, SearchGame, Searcher};
use std::collections::HashMap;

/// The most vertices.
pub const MAX_VERTICES: usize = 128;

/// Node-Kayles on one graph, positions in `B`.
#[derive(Debug, Clone)]
pub struct NodeKaylesGame<B: Bits> {
    /// Each vertex with its neighbours.
    closed: Vec<B>,
    /// Each vertex's neighbours.
    adj: Vec<B>,
}

impl<B: Bits> NodeKaylesGame<B> {
    /// The game on a graph given by its neighbour sets.
    pub fn new(adj: &[u128]) -> Self {
        let adj: Vec<B> = adj.iter().map(|&a| B::from_u128(a)).collect();
        let closed = adj
            .iter()
            .enumerate()
            .map(|(v, &a)| a | B::bit(v as u32))
            .collect();
        NodeKaylesGame { closed, adj }
    }
}

impl<B: Bits> SearchGame for NodeKaylesGame<B> {
    type Pos = B;

    fn split(&self, pos: B, out: &mut Vec<B>) {
        let mut rest = pos;
        while rest != B::ZERO {
            let mut comp = rest.lowest_bit();
            let mut frontier = comp;
            while frontier != B::ZERO {
                let v = frontier.lowest();
                frontier = frontier.clear_lowest();
                let new = self.adj[v as usize] & rest & !comp;
                comp |= new;
                frontier |= new;
            }
            rest &= !comp;
            out.push(comp);
        }
    }

    fn options(&self, pos: B, out: &mut Vec<B>) {
        for v in pos.members() {
            out.push(pos & !self.closed[v as usize]);
        }
    }
}

/// The family `nodekayles:FILE`.
#[derive(Debug, Clone)]
pub struct NodeKayles {
    spec: String,
    names: Vec<String>,
    index: HashMap<String, u32>,
    adj: Vec<u128>,
}

impl NodeKayles {
    /// Reads the graph in `text` (`path` names it in the spec and errors).
    pub fn parse(path: &str, text: &str) -> Result<Self> {
        let mut names: Vec<String> = Vec::new();
        let mut index: HashMap<String, u32> = HashMap::new();
        let mut edges = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.len() > 2 {
                return Err(Error::invalid(format!(
                    "{path}:{}: expected `A B` (an edge) or one vertex name, found also {:?}",
                    number + 1,
                    tokens[2]
                )));
            }
            let mut ids = Vec::new();
            for t in &tokens {
                if t.contains(',') || *t == "all" || *t == "none" {
                    return Err(Error::invalid(format!(
                        "{path}:{}: a vertex cannot be named {t:?} (positions list vertices with commas, and `all`/`none` mean every or no vertex)",
                        number + 1
                    )));
                }
                let id = match index.get(*t) {
                    Some(&i) => i,
                    None => {
                        if names.len() >= MAX_VERTICES {
                            return Err(Error::TooLarge(format!(
                                "{path}: Node-Kayles graphs have at most {MAX_VERTICES} vertices"
                            )));
                        }
                        let i = names.len() as u32;
                        names.push(t.to_string());
                        index.insert(t.to_string(), i);
                        i
                    }
                };
                ids.push(id);
            }
            if let [a, b] = ids[..] {
                edges.push((a, b));
            }
        }
        if names.is_empty() {
            return Err(Error::invalid(format!("{path}: the graph has no vertices")));
        }
        let mut adj = vec![0u128; names.len()];
        for (a, b) in edges {
            if a != b {
                adj[a as usize] |= 1 << b;
                adj[b as usize] |= 1 << a;
            }
        }
        Ok(NodeKayles {
            spec: format!("nodekayles:{path}"),
            names,
            index,
            adj,
        })
    }

    /// A graph from its neighbour sets, with vertices named 0, 1, 2, ...
    pub fn from_adjacency(spec: &str, adj: Vec<u128>) -> Self {
        let names: Vec<String> = (0..adj.len()).map(|i| i.to_string()).collect();
        let index = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i as u32))
            .collect();
        NodeKayles {
            spec: spec.into(),
            names,
            index,
            adj,
        }
    }

    fn all(&self) -> u128 {
        if self.names.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.names.len()) - 1
        }
    }
}

impl Kind for NodeKayles {
    type Shape = ();

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn parse(&self, text: &str) -> Result<((), u128)> {
        let t = text.trim();
        match t {
            "all" => return Ok(((), self.all())),
            "none" => return Ok(((), 0)),
            _ => {}
        }
        let mut set = 0u128;
        let mut at = 0;
        for name in t.split(',') {
            match self.index.get(name.trim()) {
                Some(&i) => set |= 1 << i,
                None => {
                    return Err(Error::syntax(
                        format!(
                            "{:?} is not a vertex of {} (a position is `all`, `none`, or vertices joined by commas)",
                            name.trim(),
                            self.spec
                        ),
                        t,
                        Some(at),
                    ))
                }
            }
            at += name.chars().count() + 1;
        }
        Ok(((), set))
    }

    fn read_position(&self, p: &Position) -> Option<((), u128)> {
        let mut set = 0u128;
        for v in p.as_list()? {
            set |= 1 << *self.index.get(v.as_text()?)?;
        }
        Some(((), set))
    }

    fn to_position(&self, _: (), pos: u128) -> Position {
        Position::List(
            pos.members()
                .map(|i| Position::text(self.names[i as usize].clone()))
                .collect(),
        )
    }

    fn format(&self, _: (), pos: u128) -> String {
        if pos == self.all() {
            "all".into()
        } else if pos == 0 {
            "none".into()
        } else {
            pos.members()
                .map(|i| self.names[i as usize].as_str())
                .collect::<Vec<_>>()
                .join(",")
        }
    }

    fn describe(&self, _: (), from: u128, to: u128) -> Option<String> {
        let gone = from & !to;
        // The vertex taken is the one whose neighbourhood (within `from`) is what went.
        let v = gone
            .members()
            .find(|&v| (self.adj[v as usize] | (1 << v)) & from == gone)?;
        Some(format!("take vertex {}", self.names[v as usize]))
    }

    fn shorthand(&self, _: (), pos: u128, text: &str) -> Option<u128> {
        let t = text.trim();
        let v = *self
            .index
            .get(t.strip_prefix("take vertex").unwrap_or(t).trim())?;
        (pos >> v & 1 == 1).then(|| pos & !(self.adj[v as usize] | (1 << v)))
    }

    fn engine_tag(&self, _: ()) -> String {
        self.spec.clone()
    }

    fn engine(&self, _: (), tt_bytes: usize, _max_states: usize) -> Result<Box<dyn Engine>> {
        Ok(if self.names.len() <= 64 {
            Box::new(Searcher::new(
                NodeKaylesGame::<u64>::new(&self.adj),
                tt_bytes,
            )?)
        } else {
            Box::new(Searcher::new(
                NodeKaylesGame::<u128>::new(&self.adj),
                tt_bytes,
            )?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_graphs_and_positions() {
        let g = NodeKayles::parse("p.txt", "a b\nb c # path\nd\n").unwrap();
        assert_eq!(g.parse("all").unwrap().1, 0b1111);
        assert_eq!(g.parse("a,c").unwrap().1, 0b101);
        assert_eq!(g.format((), 0b101), "a,c");
        assert!(g.parse("a,x").is_err());
        assert_eq!(g.describe((), 0b1111, 0b1000).unwrap(), "take vertex b");
        assert!(NodeKayles::parse("q", "a b c").is_err());
        assert!(NodeKayles::parse("q", "# nothing").is_err());
    }
}
