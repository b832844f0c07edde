//! Predicting a misère quotient from monoids alone, then proving it.
//!
//! This is the construction of A. Siegel's MisereSolver (described in T. E.
//! Plambeck and A. N. Siegel, "Misère quotients for impartial games",
//! J. Combin. Theory Ser. A 115 (2008), section 6, and in Siegel's notes to
//! MisereSolver), in our own form; every candidate it makes is checked by
//! [`super::learn::verify`], the exact proof, so a wrong prediction costs
//! time, never a wrong answer.
//!
//! **Candidates.** When heap n is not a conservative extension, its element
//! is new. The candidate is the product of the quotient so far with a
//! cyclic monoid ⟨t | t^(i+p) = t^i⟩ in which heap n is t. More generally a
//! candidate is a product B × C_1 × ... × C_k of a proved or predicted
//! monoid B (for the heaps it keeps) and cyclic monoids, one for each heap
//! set *free* (its element is the generator of its own cyclic factor).
//!
//! **P-portion.** Words (sums of heaps) are visited in colex order, the
//! largest heap's count most significant, and each element of the product
//! takes its outcome from the first word reaching it: P when that word has
//! a move and none of its options' elements is P. An option replaces a heap
//! by smaller heaps, so it comes earlier in colex order. A word w is left
//! out when a word made of w's heaps from some size up already reached the
//! same element: if u' came before u, then u' + r came before u + r for
//! every r of smaller heaps, so by induction every element of an option has
//! its outcome when it is needed. The elements reached form the submonoid
//! the heaps generate; indistinguishable elements are then merged (Moore's
//! partition refinement on the heaps' actions).
//!
//! **Recalibration.** When the proof finds a lightest sum w that the
//! candidate answers wrongly, some heaps of w must act differently: for
//! sets of w's heaps, smallest first, those heaps are set free over the
//! candidate (which keeps the other heaps), with a cyclic factor long
//! enough to hold w's count of the heap, until the new candidate answers w
//! rightly (its outcome then follows from lighter sums, which the candidate
//! answered rightly). If no candidate can be found within bounds, the
//! caller falls back to learning from exact outcomes ([`super::learn`]).

use super::learn::{verify, Proved, Rules, Sum};
use super::monoid::Monoid;
use crate::error::{Error, Result};

/// The most elements a product candidate may have before reduction.
const MAX_PRODUCT: usize = 1 << 22;

/// The most recalibrations tried for one heap before giving up.
const MAX_ROUNDS: usize = 400;

/// A heap set free: its cyclic factor ⟨t | t^(index+period) = t^index⟩.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Free {
    heap: u32,
    index: u32,
    period: u32,
}

/// B × C_1 × ... × C_k, elements numbered b + |B|·(e_1 + s_1·(e_2 + ...)).
struct Product<'a> {
    base: &'a Monoid,
    free: &'a [Free],
    /// |B|, then |B|·s_1, |B|·s_1·s_2, ...
    strides: Vec<usize>,
    size: usize,
}

impl<'a> Product<'a> {
    fn new(base: &'a Monoid, free: &'a [Free]) -> Option<Self> {
        let mut strides = vec![base.order()];
        let mut size = base.order();
        for f in free {
            size = size.checked_mul((f.index + f.period) as usize)?;
            if size > MAX_PRODUCT {
                return None;
            }
            strides.push(size);
        }
        Some(Product {
            base,
            free,
            strides,
            size,
        })
    }

    fn mul(&self, x: u32, y: u32) -> u32 {
        let (x, y) = (x as usize, y as usize);
        let b = self.strides[0];
        let mut z = self.base.mul((x % b) as u32, (y % b) as u32) as usize;
        for (k, f) in self.free.iter().enumerate() {
            let s = (f.index + f.period) as usize;
            let (ex, ey) = (x / self.strides[k] % s, y / self.strides[k] % s);
            let mut e = ex + ey;
            if e >= s {
                let i = f.index as usize;
                e = i + (e - i) % f.period as usize;
            }
            z += e * self.strides[k];
        }
        z as u32
    }

    /// The element of free heap k's generator.
    fn generator(&self, k: usize) -> u32 {
        self.strides[k] as u32
    }
}

/// The candidate of `base` (whose heap map covers the heaps not set free)
/// with the heaps of `free` set free, for heaps up to n; None when the
/// product is too large or the prediction breaks down.
fn candidate(
    rules: &Rules,
    base: &Monoid,
    base_map: &[u32],
    free: &[Free],
    n: u32,
    max_elements: usize,
    check: &mut dyn FnMut() -> Result<()>,
) -> Result<Option<Proved>> {
    let Some(product) = Product::new(base, free) else {
        return Ok(None);
    };
    // The element of each heap in the product.
    let mut image = vec![0u32; n as usize + 1];
    for h in 1..=n {
        if rules.options[h as usize].is_empty() {
            continue;
        }
        image[h as usize] = match free.iter().position(|f| f.heap == h) {
            Some(k) => product.generator(k),
            None => match base_map.get(h as usize) {
                Some(x) => *x,
                None => return Ok(None),
            },
        };
    }
    let element = |sum: &[u32]| {
        sum.iter()
            .fold(0, |x, h| product.mul(x, image[*h as usize]))
    };
    // Heaps with a move, largest first; heaps acting alike (same element,
    // same option elements) once, as the smallest of them (so that a heap
    // in an option, replaced by the one that stands for it, is still
    // smaller than the heap moved).
    let mut heaps: Vec<(u32, Vec<u32>)> = Vec::new();
    for h in 1..=n {
        let options = &rules.options[h as usize];
        if options.is_empty() {
            continue;
        }
        let mut opts: Vec<u32> = options.iter().map(|o| element(o)).collect();
        opts.sort_unstable();
        opts.dedup();
        if !heaps
            .iter()
            .any(|(g, o)| image[*g as usize] == image[h as usize] && *o == opts)
        {
            heaps.push((h, opts));
        }
    }
    heaps.reverse();
    // The colex visit, as an explicit stack: (depth, element, option
    // elements of the word, whether the word has a move).
    let mut marked = vec![false; product.size];
    let mut p = vec![false; product.size];
    let mut reached: Vec<u32> = Vec::new();
    let mut broken = false;
    struct Frame {
        depth: usize,
        elem: u32,
        tr: Vec<u32>,
        moves: bool,
        started: bool,
    }
    let mut stack = vec![Frame {
        depth: 0,
        elem: 0,
        tr: Vec::new(),
        moves: false,
        started: false,
    }];
    while let Some(top) = stack.last_mut() {
        if top.depth == heaps.len() {
            // A word: its element takes its outcome.
            let frame = stack.pop().expect("a frame");
            if marked[frame.elem as usize] {
                broken = true;
                break;
            }
            let mut is_p = frame.moves;
            for t in &frame.tr {
                if !marked[*t as usize] {
                    broken = true;
                }
                if p[*t as usize] {
                    is_p = false;
                }
            }
            if broken {
                break;
            }
            marked[frame.elem as usize] = true;
            p[frame.elem as usize] = is_p;
            reached.push(frame.elem);
            if reached.len().is_multiple_of(65_536) {
                check()?;
            }
            continue;
        }
        if !top.started {
            // First the word with none of this heap.
            top.started = true;
            let child = Frame {
                depth: top.depth + 1,
                elem: top.elem,
                tr: top.tr.clone(),
                moves: top.moves,
                started: false,
            };
            stack.push(child);
            continue;
        }
        // One more of this heap.
        let (h, opts) = &heaps[top.depth];
        let g = image[*h as usize];
        let next = product.mul(top.elem, g);
        if marked[next as usize] {
            stack.pop();
            continue;
        }
        let mut tr: Vec<u32> = top.tr.iter().map(|t| product.mul(*t, g)).collect();
        tr.extend(opts.iter().map(|o| product.mul(top.elem, *o)));
        tr.sort_unstable();
        tr.dedup();
        top.elem = next;
        top.tr = tr.clone();
        top.moves = true;
        let child = Frame {
            depth: top.depth + 1,
            elem: next,
            tr,
            moves: true,
            started: false,
        };
        stack.push(child);
    }
    if broken {
        return Ok(None);
    }
    // Merge indistinguishable elements: refine the partition by P under
    // the heaps' actions.
    let gens: Vec<u32> = {
        let mut g: Vec<u32> = heaps.iter().map(|(h, _)| image[*h as usize]).collect();
        g.sort_unstable();
        g.dedup();
        g
    };
    let mut index = vec![u32::MAX; product.size];
    for (i, x) in reached.iter().enumerate() {
        index[*x as usize] = i as u32;
    }
    let r = reached.len();
    // acts[i * k + j]: index of reached[i] · gens[j].
    let k = gens.len();
    let mut acts = vec![0u32; r * k];
    for (i, x) in reached.iter().enumerate() {
        for (j, g) in gens.iter().enumerate() {
            let y = index[product.mul(*x, *g) as usize];
            if y == u32::MAX {
                return Ok(None);
            }
            acts[i * k + j] = y;
        }
    }
    let mut class: Vec<u32> = reached.iter().map(|x| p[*x as usize] as u32).collect();
    let mut classes = class.iter().copied().max().map_or(0, |c| c as usize + 1);
    loop {
        let mut ids: rustc_hash::FxHashMap<Vec<u32>, u32> = Default::default();
        let mut next = Vec::with_capacity(r);
        let mut key = Vec::with_capacity(k + 1);
        for i in 0..r {
            key.clear();
            key.push(class[i]);
            key.extend(acts[i * k..(i + 1) * k].iter().map(|y| class[*y as usize]));
            let fresh = ids.len() as u32;
            let id = match ids.get(&key) {
                Some(id) => *id,
                None => {
                    ids.insert(key.clone(), fresh);
                    fresh
                }
            };
            next.push(id);
        }
        let count = ids.len();
        class = next;
        if count == classes {
            break;
        }
        classes = count;
        check()?;
    }
    // The reduced monoid: products of the first member of each class, in
    // a table of classes² entries, so bounded.
    if classes > max_elements {
        return Err(Error::TooLarge(format!(
            "the quotient of heaps up to {n} has more than {} elements (--max-order)",
            max_elements / 4
        )));
    }
    let mut first = vec![u32::MAX; classes];
    for (i, c) in class.iter().enumerate() {
        if first[*c as usize] == u32::MAX {
            first[*c as usize] = reached[i];
        }
    }
    // A table of many thousands of elements is gigabytes: it must fit.
    if !crate::memory::fits((classes * classes * 4) as u64) {
        return Err(Error::TooLarge(super::OUT_OF_MEMORY.into()));
    }
    let mut table = vec![0u32; classes * classes];
    for a in 0..classes {
        for b in 0..classes {
            let z = index[product.mul(first[a], first[b]) as usize];
            if z == u32::MAX {
                return Ok(None);
            }
            table[a * classes + b] = class[z as usize];
        }
    }
    let monoid = Monoid {
        table,
        p: first.iter().map(|x| p[*x as usize]).collect(),
    };
    let heap_map = image
        .iter()
        .map(|x| class[index[*x as usize] as usize])
        .collect();
    Ok(Some(Proved { monoid, heap_map }))
}

/// The index of x in a finite monoid: the least i with x^i = x^(i+p) for
/// some p > 0.
fn index_of(m: &Monoid, x: u32) -> u32 {
    let mut seen: Vec<u32> = vec![u32::MAX; m.order()];
    let (mut power, mut i) = (0u32, 0u32);
    loop {
        if seen[power as usize] != u32::MAX {
            return seen[power as usize];
        }
        seen[power as usize] = i;
        power = m.mul(power, x);
        i += 1;
    }
}

/// Every set of `size` items of `items`, in order.
fn subsets(items: &[u32], size: usize) -> Vec<Vec<u32>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, x) in items.iter().enumerate() {
        for mut rest in subsets(&items[i + 1..], size - 1) {
            rest.insert(0, *x);
            out.push(rest);
        }
    }
    out
}

/// The quotient of heaps up to n, from the one proved for heaps below n
/// (where heap n is not a conservative extension), predicted and proved;
/// None when the prediction does not succeed within its bounds.
pub fn extend(
    rules: &Rules,
    below: &Proved,
    n: u32,
    max_order: usize,
    check: &mut dyn FnMut() -> Result<()>,
) -> Result<Option<Proved>> {
    let free = [Free {
        heap: n,
        index: 2,
        period: 2,
    }];
    let Some(mut trial) = candidate(
        rules,
        &below.monoid,
        &below.heap_map,
        &free,
        n,
        max_order.saturating_mul(4),
        check,
    )?
    else {
        return Ok(None);
    };
    let too_large = || {
        Error::TooLarge(format!(
            "the quotient of heaps up to {n} has more than {max_order} elements (--max-order)"
        ))
    };
    for _ in 0..MAX_ROUNDS {
        check()?;
        // Candidates on the way may be larger than the quotient (Siegel
        // reports one of 848 elements on the way to 360): they are allowed
        // four times the bound, the quotient proved only the bound.
        if trial.monoid.order() > max_order.saturating_mul(4) {
            return Err(too_large());
        }
        let Some(failure) = verify(rules, &trial, n)? else {
            if trial.monoid.order() > max_order {
                return Err(too_large());
            }
            return Ok(Some(trial));
        };
        match recalibrate(rules, &trial, n, &failure, max_order, check)? {
            Some(next) => trial = next,
            None => return Ok(None),
        }
    }
    Ok(None)
}

/// A candidate that answers `failure` (a lightest sum `current` answers
/// wrongly) the other way, setting free some of its heaps.
fn recalibrate(
    rules: &Rules,
    current: &Proved,
    n: u32,
    failure: &Sum,
    max_order: usize,
    check: &mut dyn FnMut() -> Result<()>,
) -> Result<Option<Proved>> {
    let m = &current.monoid;
    let should_be_p = !m.p[current.element(failure) as usize];
    let mut involved: Vec<u32> = failure.clone();
    involved.sort_unstable();
    involved.dedup();
    for size in 1..=involved.len() {
        for heaps in subsets(&involved, size) {
            check()?;
            let free: Vec<Free> = heaps
                .iter()
                .map(|h| {
                    let count = failure.iter().filter(|g| *g == h).count() as u32;
                    let index = index_of(m, current.heap_map[*h as usize])
                        .max(count.saturating_sub(1))
                        .max(1);
                    let period = if index >= 6 { 2 * ((index - 4) / 2) } else { 2 };
                    Free {
                        heap: *h,
                        index,
                        period,
                    }
                })
                .collect();
            let Some(next) = candidate(
                rules,
                m,
                &current.heap_map,
                &free,
                n,
                max_order.saturating_mul(4),
                check,
            )?
            else {
                continue;
            };
            let x = next.element(failure);
            if next.monoid.p[x as usize] == should_be_p {
                return Ok(Some(next));
            }
        }
    }
    Ok(None)
}
