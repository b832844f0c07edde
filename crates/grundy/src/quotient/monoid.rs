//! Finite commutative monoids with a P-portion ("bipartite monoids"), as
//! tables: the laws, the reduction by indistinguishability, and the
//! presentation in generators and relations.

use std::collections::HashMap;

/// A monoid law a table breaks, with the elements that show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Law {
    /// 0·x or x·0 is not x.
    Identity(u32),
    /// x·y != y·x.
    Commutative(u32, u32),
    /// (x·y)·z != x·(y·z).
    Associative(u32, u32, u32),
}

/// A finite commutative monoid with a P-portion. Element 0 is the identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Monoid {
    /// `table[x * order + y]` is x·y.
    pub table: Vec<u32>,
    /// Whether each element lies in the P-portion.
    pub p: Vec<bool>,
}

impl Monoid {
    /// The trivial monoid {1}, with an empty P-portion.
    pub fn trivial() -> Self {
        Monoid {
            table: vec![0],
            p: vec![false],
        }
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.p.len()
    }

    /// x·y.
    pub fn mul(&self, x: u32, y: u32) -> u32 {
        self.table[x as usize * self.order() + y as usize]
    }

    /// The first failure of the monoid laws (identity 0, commutativity,
    /// associativity), in words; None when they hold.
    pub fn law_failure(&self) -> Option<String> {
        let n = self.order() as u32;
        if self.table.len() != (n * n) as usize || self.table.iter().any(|v| *v >= n) {
            return Some("the table is not n x n with entries below n".into());
        }
        self.broken_law().map(|law| match law {
            Law::Identity(x) => format!("element 0 is not an identity for {x}"),
            Law::Commutative(x, y) => format!("{x}·{y} != {y}·{x}"),
            Law::Associative(x, y, z) => format!("({x}·{y})·{z} != {x}·({y}·{z})"),
        })
    }

    /// The first law the table breaks, in this order: element 0 an
    /// identity, commutativity, associativity.
    pub fn broken_law(&self) -> Option<Law> {
        let n = self.order() as u32;
        for x in 0..n {
            if self.mul(0, x) != x || self.mul(x, 0) != x {
                return Some(Law::Identity(x));
            }
            for y in 0..n {
                if self.mul(x, y) != self.mul(y, x) {
                    return Some(Law::Commutative(x, y));
                }
            }
        }
        for x in 0..n {
            for y in 0..n {
                let xy = self.mul(x, y);
                for z in 0..n {
                    if self.mul(xy, z) != self.mul(x, self.mul(y, z)) {
                        return Some(Law::Associative(x, y, z));
                    }
                }
            }
        }
        None
    }

    /// The classes of indistinguishability (x ~ y when xz and yz lie in P
    /// together for every z), as a class number per element, numbered in
    /// order of first element (so the identity's class is 0). `generators`
    /// generate the monoid: it is enough that the relation is stable under
    /// multiplying by them (Moore's partition refinement).
    pub fn indistinguishable(&self, generators: &[u32]) -> Vec<u32> {
        let n = self.order();
        let mut class: Vec<u32> = self.p.iter().map(|p| *p as u32).collect();
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
            let mut next = Vec::with_capacity(n);
            for x in 0..n as u32 {
                let mut key = Vec::with_capacity(generators.len() + 1);
                key.push(class[x as usize]);
                key.extend(generators.iter().map(|g| class[self.mul(x, *g) as usize]));
                let fresh = ids.len() as u32;
                next.push(*ids.entry(key).or_insert(fresh));
            }
            let done = ids.len() == class.iter().collect::<std::collections::HashSet<_>>().len();
            class = next;
            if done {
                return class;
            }
        }
    }

    /// The monoid of the classes `class` (a congruence, as
    /// [`Monoid::indistinguishable`] gives), numbered as there.
    pub fn quotient_by(&self, class: &[u32]) -> Monoid {
        let m = class.iter().max().map_or(0, |c| *c as usize + 1);
        let mut first = vec![u32::MAX; m];
        for (x, c) in class.iter().enumerate() {
            if first[*c as usize] == u32::MAX {
                first[*c as usize] = x as u32;
            }
        }
        let mut table = vec![0; m * m];
        for a in 0..m {
            for b in 0..m {
                table[a * m + b] = class[self.mul(first[a], first[b]) as usize];
            }
        }
        Monoid {
            table,
            p: first.iter().map(|x| self.p[*x as usize]).collect(),
        }
    }

    /// Whether no two elements are indistinguishable.
    pub fn is_reduced(&self, generators: &[u32]) -> bool {
        let class = self.indistinguishable(generators);
        class.iter().enumerate().all(|(x, c)| *c as usize == x)
    }

    /// Renumbers the elements by `order` (a permutation: new element i is
    /// old element `order[i]`).
    pub fn renumbered(&self, order: &[u32]) -> Monoid {
        let n = self.order();
        let mut new_of = vec![0u32; n];
        for (i, old) in order.iter().enumerate() {
            new_of[*old as usize] = i as u32;
        }
        let mut table = vec![0; n * n];
        for a in 0..n {
            for b in 0..n {
                table[a * n + b] = new_of[self.mul(order[a], order[b]) as usize];
            }
        }
        Monoid {
            table,
            p: order.iter().map(|x| self.p[*x as usize]).collect(),
        }
    }
}

/// A presentation: generators (in order) and the relations between their
/// monomials, each monomial a list of exponents, one per generator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presentation {
    /// Each element's normal form: the least monomial (by degree, then
    /// exponents read from the first generator) that equals it.
    pub normal: Vec<Vec<u32>>,
    /// `left = right`: `left` is a minimal monomial that is not a normal
    /// form, `right` the normal form of its value.
    pub relations: Vec<(Vec<u32>, Vec<u32>)>,
}

/// The presentation of `monoid` on `generators` (which must generate it):
/// monomials are enumerated by degree; the first to reach an element is its
/// normal form, and every monomial whose proper divisors are all normal
/// forms but which is not one itself is a relation. Every monomial reduces
/// to its normal form by the relations (a Gröbner-style basis of the
/// congruence).
pub fn presentation(monoid: &Monoid, generators: &[u32]) -> Presentation {
    let n = monoid.order();
    let k = generators.len();
    let mut normal: Vec<Option<Vec<u32>>> = vec![None; n];
    normal[0] = Some(vec![0; k]);
    let mut frontier: Vec<(Vec<u32>, u32)> = vec![(vec![0; k], 0)];
    let mut relations = Vec::new();
    let mut seen_relation: std::collections::HashSet<Vec<u32>> = Default::default();
    let mut normals: std::collections::HashSet<Vec<u32>> = [vec![0; k]].into_iter().collect();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for (mono, value) in &frontier {
            // Extend by generators at or after the last one used, so that
            // each monomial is built once.
            let last = mono.iter().rposition(|e| *e > 0).unwrap_or(0);
            for (g, gen) in generators.iter().enumerate().skip(last) {
                let mut m = mono.clone();
                m[g] += 1;
                // Every proper divisor must be a normal form.
                let divisors_normal = (0..k).filter(|i| m[*i] > 0).all(|i| {
                    let mut d = m.clone();
                    d[i] -= 1;
                    normals.contains(&d)
                });
                if !divisors_normal {
                    continue;
                }
                let v = monoid.mul(*value, *gen);
                match &normal[v as usize] {
                    None => {
                        normals.insert(m.clone());
                        normal[v as usize] = Some(m.clone());
                        next.push((m, v));
                    }
                    Some(nf) => {
                        if seen_relation.insert(m.clone()) {
                            relations.push((m, nf.clone()));
                        }
                    }
                }
            }
        }
        frontier = next;
    }
    Presentation {
        normal: normal
            .into_iter()
            .map(|nf| nf.expect("the generators generate the monoid"))
            .collect(),
        relations,
    }
}

/// A monomial in the papers' notation: generators a, b, c, ... (then a1,
/// b1, ... past z), exponents as `^k`, the empty monomial `1`.
pub fn monomial(exponents: &[u32]) -> String {
    let mut out = String::new();
    for (i, e) in exponents.iter().enumerate() {
        if *e == 0 {
            continue;
        }
        out.push_str(&generator_name(i));
        if *e > 1 {
            out.push_str(&format!("^{e}"));
        }
    }
    if out.is_empty() {
        out.push('1');
    }
    out
}

/// The name of generator `i`: a, b, ..., z, a1, b1, ...
pub fn generator_name(i: usize) -> String {
    let letter = (b'a' + (i % 26) as u8) as char;
    if i < 26 {
        letter.to_string()
    } else {
        format!("{letter}{}", i / 26)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// T_2 = <a, b | a^2 = 1, b^3 = b, ...>: misère Nim's quotient of heaps
    /// up to 3, built by hand with elements 1, a, b, ab, b^2, ab^2.
    fn t2() -> Monoid {
        // (i, j): a^i b^j with b^3 = b and b^2 a^... ; P = {a, b^2}.
        let elems = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2)];
        let index = |(i, j): (u32, u32)| {
            let j = if j >= 3 { j - 2 * ((j - 1) / 2) } else { j };
            elems.iter().position(|e| *e == (i % 2, j)).unwrap() as u32
        };
        let mut table = Vec::new();
        for x in elems {
            for y in elems {
                table.push(index((x.0 + y.0, x.1 + y.1)));
            }
        }
        Monoid {
            table,
            p: elems.iter().map(|e| *e == (1, 0) || *e == (0, 2)).collect(),
        }
    }

    #[test]
    fn t2_is_a_reduced_monoid_with_the_papers_presentation() {
        let m = t2();
        assert_eq!(m.law_failure(), None);
        assert!(m.is_reduced(&[1, 2]));
        let p = presentation(&m, &[1, 2]);
        let relations: Vec<String> = p
            .relations
            .iter()
            .map(|(l, r)| format!("{} = {}", monomial(l), monomial(r)))
            .collect();
        assert_eq!(relations, ["a^2 = 1", "b^3 = b"]);
    }

    #[test]
    fn indistinguishable_elements_are_merged() {
        // Z/4 with P = {2}: 1 and 3 are indistinguishable? No: 1·1 = 1, 3·1
        // = 3, 1·2... check against the definition by brute force.
        let n = 4u32;
        let m = Monoid {
            table: (0..n * n).map(|i| (i / n + i % n) % n).collect(),
            p: vec![false, false, true, false],
        };
        let class = m.indistinguishable(&[1]);
        for x in 0..n {
            for y in 0..n {
                let same = (0..n).all(|z| m.p[m.mul(x, z) as usize] == m.p[m.mul(y, z) as usize]);
                assert_eq!(same, class[x as usize] == class[y as usize]);
            }
        }
    }
}
