//! Games on a directed graph read from a file: a pebble moves along an edge,
//! and several pebbles are a sum. Cycles are allowed: their positions get
//! generalised values (see [`crate::loopy`]) and may be draws.
//!
//! The file has one edge per line, `FROM TO`; names are any tokens without
//! spaces; `#` starts a comment; a line with one name declares a vertex with
//! no moves.

use crate::error::{Error, Result};
use crate::family::{Family, Move};
use crate::loopy::{label_with_order, Graph, Label};
use crate::nimber::Value;
use crate::position::Position;
use std::collections::HashMap;
use std::path::Path;

/// A game on a graph, with every vertex's value computed at load time.
#[derive(Debug)]
pub struct Dag {
    spec: String,
    path: String,
    names: Vec<String>,
    index: HashMap<String, u32>,
    graph: Graph,
    labels: Vec<Label>,
    /// When each vertex got its finite value: moves are listed earliest first.
    order: Vec<u32>,
}

impl Dag {
    /// Reads and solves the graph in the file at `path`.
    pub fn load(path: &str) -> Result<Self> {
        let text = std::fs::read_to_string(Path::new(path))
            .map_err(|e| Error::Io(format!("cannot read graph file {path}: {e}")))?;
        Self::parse(path, &text)
    }

    /// Parses and solves a graph given as text (`path` names it in errors).
    pub fn parse(path: &str, text: &str) -> Result<Self> {
        let mut index: HashMap<String, u32> = HashMap::new();
        let mut names: Vec<String> = Vec::new();
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut intern = |name: &str, index: &mut HashMap<String, u32>| -> u32 {
            if let Some(&i) = index.get(name) {
                return i;
            }
            let i = names.len() as u32;
            names.push(name.to_string());
            index.insert(name.to_string(), i);
            i
        };
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            let mut tokens = line.split_whitespace();
            match (tokens.next(), tokens.next(), tokens.next()) {
                (None, _, _) => {}
                (Some(vertex), None, _) => {
                    intern(vertex, &mut index);
                }
                (Some(from), Some(to), None) => {
                    let from = intern(from, &mut index);
                    let to = intern(to, &mut index);
                    edges.push((from, to));
                }
                (Some(_), Some(_), Some(extra)) => {
                    return Err(Error::invalid(format!(
                        "{path}:{}: expected `FROM TO` or one vertex name, found also {extra:?}",
                        number + 1
                    )))
                }
            }
        }
        if names.is_empty() {
            return Err(Error::invalid(format!("{path}: the graph has no vertices")));
        }
        if names.len() >= u32::MAX as usize - 2 {
            return Err(Error::TooLarge(format!("{path}: too many vertices")));
        }
        let graph = Graph::new(names.len(), &edges);
        let (labels, order) = label_with_order(&graph);
        Ok(Dag {
            spec: format!("dag:{path}"),
            path: path.to_string(),
            names,
            index,
            graph,
            labels,
            order,
        })
    }

    /// The vertex a position names (a name, or a number written as a name).
    fn vertex_of(&self, position: &Position) -> Result<u32> {
        match position {
            Position::Text(name) => self.vertex(name),
            Position::Int(n) => self.vertex(&n.to_string()),
            Position::List(_) | Position::Opaque(_) => Err(Error::invalid(format!(
                "{position} is not a vertex of {}",
                self.path
            ))),
        }
    }

    fn vertex(&self, name: &str) -> Result<u32> {
        self.index.get(name.trim()).copied().ok_or_else(|| {
            Error::invalid(format!(
                "unknown vertex {:?}: {} has no vertex of that name",
                name.trim(),
                self.path
            ))
        })
    }

    fn value_of(&self, v: u32) -> Value {
        match &self.labels[v as usize] {
            Label::Finite(x) => Value::finite(*x as u64),
            Label::Infinite(k) => Value::Infinite(k.iter().map(|x| *x as u64).collect()),
        }
    }
}

impl Family for Dag {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(Position::Text(
            self.names[self.vertex(text)? as usize].clone(),
        ))
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        Ok(self.value_of(self.vertex_of(position)?))
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let v = self.vertex_of(position)?;
        let mut followers: Vec<u32> = self.graph.followers(v).to_vec();
        followers.sort_unstable();
        followers.dedup();
        // Earliest-labelled first, so a winner who takes the first winning
        // move always makes progress instead of circling.
        followers.sort_by_key(|w| self.order[*w as usize]);
        Ok(followers
            .into_iter()
            .map(|w| Move {
                to: vec![Position::Text(self.names[w as usize].clone())],
                value: self.value_of(w),
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_parse_with_comments_and_lone_vertices() {
        let mut dag = Dag::parse("g.txt", "# a chain\na b\nb c # c has no moves\nd\n\n").unwrap();
        assert_eq!(dag.value(&"a".into()).unwrap(), Value::finite(0));
        assert_eq!(dag.value(&"b".into()).unwrap(), Value::finite(1));
        assert_eq!(dag.value(&"d".into()).unwrap(), Value::finite(0));
        assert!(dag
            .parse(" zz")
            .unwrap_err()
            .to_string()
            .contains("unknown vertex"));
        assert!(Dag::parse("g.txt", "a b c\n")
            .unwrap_err()
            .to_string()
            .contains("g.txt:1"));
        assert!(Dag::parse("g.txt", "# nothing\n").is_err());
    }

    #[test]
    fn cycles_are_draws() {
        let mut dag = Dag::parse("g", "a b\nb a\nb c\n").unwrap();
        assert_eq!(dag.value(&"c".into()).unwrap(), Value::finite(0));
        let mut loop_only = Dag::parse("g", "x y\ny x\n").unwrap();
        assert_eq!(
            loop_only.value(&"x".into()).unwrap(),
            Value::Infinite(vec![])
        );
        let _ = &mut dag;
    }
}
