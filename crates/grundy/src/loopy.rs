//! Loopy games: the generalised Sprague-Grundy function of a finite directed
//! graph whose cycles allow play to go on forever.
//!
//! Smith (1966) and Fraenkel and Yesha (1986, "The generalized Sprague-Grundy
//! function and its invariance under certain mappings") label every vertex
//! either with a finite value or with ∞(K), K the finite values among its
//! followers. Vertices with finite values behave like Nim heaps; an ∞ vertex
//! is a draw unless it can move to a position that wins (see [`crate::sum`]
//! for the sum rule). The labelling goes in rounds i = 0, 1, 2, ...:
//!
//! 1. while some unlabelled u has no follower labelled i, and every follower
//!    of u that is unlabelled or ∞ has a follower labelled i: label u with i;
//! 2. label ∞ every unlabelled vertex with no follower labelled i.
//!
//! Each round is done here with counters, as in retrograde analysis: linear
//! in the size of the graph, and there are at most (largest value + 2)
//! rounds. On an acyclic graph the result is the ordinary Grundy function.

/// A directed graph in compressed sparse rows, with its reverse.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    offsets: Vec<usize>,
    targets: Vec<u32>,
    reverse_offsets: Vec<usize>,
    sources: Vec<u32>,
}

impl Graph {
    /// A graph on `vertices` vertices with these edges (from, to).
    pub fn new(vertices: usize, edges: &[(u32, u32)]) -> Self {
        let csr = |key: fn(&(u32, u32)) -> (u32, u32)| -> (Vec<usize>, Vec<u32>) {
            let mut offsets = vec![0usize; vertices + 1];
            for e in edges {
                offsets[key(e).0 as usize + 1] += 1;
            }
            for v in 0..vertices {
                offsets[v + 1] += offsets[v];
            }
            let mut fill = offsets.clone();
            let mut targets = vec![0u32; edges.len()];
            for e in edges {
                let (from, to) = key(e);
                targets[fill[from as usize]] = to;
                fill[from as usize] += 1;
            }
            (offsets, targets)
        };
        let (offsets, targets) = csr(|&(a, b)| (a, b));
        let (reverse_offsets, sources) = csr(|&(a, b)| (b, a));
        Graph {
            offsets,
            targets,
            reverse_offsets,
            sources,
        }
    }

    /// Number of vertices.
    pub fn vertices(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Number of edges.
    pub fn edges(&self) -> usize {
        self.targets.len()
    }

    /// The followers of `v`.
    pub fn followers(&self, v: u32) -> &[u32] {
        &self.targets[self.offsets[v as usize]..self.offsets[v as usize + 1]]
    }

    /// The vertices with an edge to `v`.
    pub fn predecessors(&self, v: u32) -> &[u32] {
        &self.sources[self.reverse_offsets[v as usize]..self.reverse_offsets[v as usize + 1]]
    }
}

/// A generalised Sprague-Grundy value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Label {
    /// A finite value.
    Finite(u32),
    /// ∞(K): K, sorted, holds the finite values among the followers.
    Infinite(Vec<u32>),
}

const UNLABELLED: u32 = u32::MAX;
const INFINITE: u32 = u32::MAX - 1;

/// The generalised Sprague-Grundy value of every vertex.
pub fn label(graph: &Graph) -> Vec<Label> {
    label_with_order(graph).0
}

/// The values, and for each vertex the step at which it got its finite value
/// (`u32::MAX` for ∞). Moving to a follower of the wanted value with the
/// *earliest* step makes progress: a winner who picks any follower of the
/// right value could go round a cycle forever (Fraenkel's counter function).
pub fn label_with_order(graph: &Graph) -> (Vec<Label>, Vec<u32>) {
    let n = graph.vertices();
    let mut label = vec![UNLABELLED; n];
    // has[v] == round + 1: v has a follower labelled with this round's value.
    let mut has = vec![0u32; n];
    let mut count = vec![0u32; n];
    let mut queue: Vec<u32> = Vec::new();
    let mut unlabelled: Vec<u32> = (0..n as u32).collect();
    let mut order = vec![u32::MAX; n];
    let mut step = 0u32;
    let mut round = 0u32;
    while !unlabelled.is_empty() {
        let stamp = round + 1;
        // Followers that are unlabelled or ∞ (none has a follower labelled `round` yet).
        for &u in &unlabelled {
            count[u as usize] = graph
                .followers(u)
                .iter()
                .filter(|&&w| matches!(label[w as usize], UNLABELLED | INFINITE))
                .count() as u32;
            if count[u as usize] == 0 {
                queue.push(u);
            }
        }
        while let Some(u) = queue.pop() {
            let ui = u as usize;
            if label[ui] != UNLABELLED || has[ui] == stamp || count[ui] != 0 {
                continue;
            }
            label[ui] = round;
            order[ui] = step;
            step += 1;
            for &w in graph.predecessors(u) {
                let wi = w as usize;
                if has[wi] == stamp {
                    continue;
                }
                has[wi] = stamp;
                if matches!(label[wi], UNLABELLED | INFINITE) {
                    // w no longer blocks its unlabelled predecessors.
                    for &x in graph.predecessors(w) {
                        let xi = x as usize;
                        if label[xi] == UNLABELLED {
                            count[xi] -= 1;
                            if count[xi] == 0 && has[xi] != stamp {
                                queue.push(x);
                            }
                        }
                    }
                }
            }
        }
        unlabelled.retain(|&u| {
            let ui = u as usize;
            if label[ui] != UNLABELLED {
                return false;
            }
            if has[ui] != stamp {
                label[ui] = INFINITE;
                return false;
            }
            true
        });
        round += 1;
    }
    let labels = (0..n as u32)
        .map(|v| match label[v as usize] {
            INFINITE => {
                let mut finite: Vec<u32> = graph
                    .followers(v)
                    .iter()
                    .map(|&w| label[w as usize])
                    .filter(|&l| l < INFINITE)
                    .collect();
                finite.sort_unstable();
                finite.dedup();
                Label::Infinite(finite)
            }
            l => Label::Finite(l),
        })
        .collect();
    (labels, order)
}

/// Win, loss or draw for the player to move, in a game on a graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The player to move wins.
    Win,
    /// The player to move loses.
    Loss,
    /// Neither can force a win.
    Draw,
}

/// Retrograde analysis of a graph with the player who cannot move losing,
/// and infinite play a draw: the plain reference for [`label`].
pub fn retrograde(graph: &Graph) -> Vec<Outcome> {
    let n = graph.vertices();
    let mut outcome: Vec<Option<Outcome>> = vec![None; n];
    let mut remaining: Vec<usize> = (0..n as u32).map(|v| graph.followers(v).len()).collect();
    let mut queue: Vec<u32> = (0..n as u32)
        .filter(|&v| remaining[v as usize] == 0)
        .collect();
    for &v in &queue {
        outcome[v as usize] = Some(Outcome::Loss);
    }
    while let Some(v) = queue.pop() {
        let lost = outcome[v as usize] == Some(Outcome::Loss);
        for &u in graph.predecessors(v) {
            let ui = u as usize;
            if outcome[ui].is_some() {
                continue;
            }
            if lost {
                outcome[ui] = Some(Outcome::Win);
                queue.push(u);
            } else {
                remaining[ui] -= 1;
                if remaining[ui] == 0 {
                    outcome[ui] = Some(Outcome::Loss);
                    queue.push(u);
                }
            }
        }
    }
    outcome
        .into_iter()
        .map(|o| o.unwrap_or(Outcome::Draw))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_worked_example() {
        // A 2-cycle a <-> b with b -> c, c terminal: c = 0; b can move to 0,
        // so b = 1 unless... a's only follower is b (value 1): a = 0 would
        // need every ∞/unlabelled follower to reach 0 -- b reaches c (0).
        // Smith's rules give a = 0, b = 1, c = 0 (no draw: from a, the mover
        // must go to b, and b moves to c and wins).
        let g = Graph::new(3, &[(0, 1), (1, 0), (1, 2)]);
        assert_eq!(
            label(&g),
            [Label::Finite(0), Label::Finite(1), Label::Finite(0)]
        );
        // A pure 2-cycle is a draw from either end: ∞ with no finite follower.
        let g = Graph::new(2, &[(0, 1), (1, 0)]);
        assert_eq!(
            label(&g),
            [Label::Infinite(vec![]), Label::Infinite(vec![])]
        );
        // A vertex with a terminal follower and a cyclic one: ∞(0) -- the
        // mover wins by going to the terminal vertex.
        let g = Graph::new(3, &[(0, 1), (1, 0), (0, 2)]);
        let labels = label(&g);
        assert_eq!(labels[2], Label::Finite(0));
        assert_eq!(labels[0], Label::Finite(1));
    }

    fn graphs() -> impl Strategy<Value = (usize, Vec<(u32, u32)>)> {
        (1usize..9).prop_flat_map(|n| {
            (
                Just(n),
                proptest::collection::vec((0..n as u32, 0..n as u32), 0..(3 * n)),
            )
        })
    }

    /// Product-graph retrograde analysis of a sum of pebbles: the reference.
    fn sum_outcome(graph: &Graph, pebbles: &[u32]) -> Outcome {
        let n = graph.vertices() as u32;
        let k = pebbles.len() as u32;
        let states = n.pow(k);
        let decode = |mut s: u32| -> Vec<u32> {
            (0..k)
                .map(|_| {
                    let v = s % n;
                    s /= n;
                    v
                })
                .collect()
        };
        let encode = |vs: &[u32]| vs.iter().rev().fold(0, |acc, v| acc * n + v);
        let mut edges = Vec::new();
        for s in 0..states {
            let vs = decode(s);
            for (i, &v) in vs.iter().enumerate() {
                for &w in graph.followers(v) {
                    let mut next = vs.clone();
                    next[i] = w;
                    edges.push((s, encode(&next)));
                }
            }
        }
        retrograde(&Graph::new(states as usize, &edges))[encode(pebbles) as usize]
    }

    /// Smith's rule for a sum, from generalised values alone.
    fn smith(labels: &[Label], pebbles: &[u32]) -> Outcome {
        let mut xor = 0;
        let mut infinite = Vec::new();
        for &p in pebbles {
            match &labels[p as usize] {
                Label::Finite(v) => xor ^= v,
                Label::Infinite(k) => infinite.push(k.clone()),
            }
        }
        match infinite.as_slice() {
            [] if xor == 0 => Outcome::Loss,
            [] => Outcome::Win,
            [k] if k.contains(&xor) => Outcome::Win,
            _ => Outcome::Draw,
        }
    }

    proptest! {
        #[test]
        fn smith_rule_agrees_with_the_product_graph((n, edges) in graphs(), pebbles in proptest::collection::vec(0u32..8, 1..4)) {
            let graph = Graph::new(n, &edges);
            let pebbles: Vec<u32> = pebbles.into_iter().map(|p| p % n as u32).collect();
            let labels = label(&graph);
            prop_assert_eq!(smith(&labels, &pebbles), sum_outcome(&graph, &pebbles));
        }

        #[test]
        fn acyclic_graphs_get_ordinary_values((n, edges) in graphs()) {
            let edges: Vec<(u32, u32)> = edges.into_iter().filter(|(a, b)| a > b).collect();
            let graph = Graph::new(n, &edges);
            let labels = label(&graph);
            for v in 0..n as u32 {
                let expected = crate::nimber::mex(graph.followers(v).iter().map(|&w| match labels[w as usize] {
                    Label::Finite(x) => x as u64,
                    Label::Infinite(_) => unreachable!("acyclic"),
                }));
                prop_assert_eq!(&labels[v as usize], &Label::Finite(expected as u32));
            }
        }
    }
}
