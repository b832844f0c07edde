//! The plain method: every option of every heap, the reference and the
//! fallback when no split makes values sparse.

use super::{Marks, TakeBreak, Work};

/// The plain method with the engine's prepared buffers: the same loops as
/// [`TakeBreak::plain_value`], with unchecked-growth marking.
#[inline]
pub(super) fn fast_plain_value<T: Copy + Into<u32>>(
    rules: &TakeBreak,
    n: usize,
    table: &[T],
    work: &mut Work,
) -> u32 {
    let g = |i: usize| -> u32 { table[i].into() };
    let marks = &mut work.marks;
    marks.prepare(work.bound);
    for (k, &d) in rules.digits.iter().enumerate().take(n + 1) {
        if d & 1 != 0 && n == k {
            marks.set(0);
        }
        if d & 2 != 0 && n > k {
            marks.set(g(n - k));
        }
        if d & 4 != 0 && n >= k + 2 {
            let m = n - k;
            mark_splits(marks, &mut work.lanes, table, m, 1, rules.half(m) + 1);
        }
        if d & 8 != 0 && n >= k + 3 {
            let m = n - k;
            rules.for_each_triple(m, |a, b| marks.set(g(a) ^ g(b) ^ g(m - a - b)));
        }
    }
    marks.take_mex()
}

/// Marks `G(a) ^ G(m - a)` for `a` in `from..to`: the hot loop of the plain method.
///
/// Four bitsets take turns so that consecutive options do not wait on each
/// other's read-modify-write of the same word; they are merged at the end.
#[inline]
pub(super) fn mark_splits<T: Copy + Into<u32>>(
    marks: &mut Marks,
    lanes: &mut [Vec<u64>; 4],
    table: &[T],
    m: usize,
    from: usize,
    to: usize,
) {
    if from >= to {
        return;
    }
    let words = marks.dirty;
    for lane in lanes.iter_mut() {
        lane.clear();
        lane.resize(words, 0);
    }
    let [l0, l1, l2, l3] = lanes;
    let set = |lane: &mut Vec<u64>, x: u32| lane[(x >> 6) as usize] |= 1 << (x & 63);
    // lo[i] = G(from + i) pairs with hi[len - 1 - i] = G(m - from - i).
    let lo = &table[from..to];
    let hi = &table[m + 1 - to..m + 1 - from];
    for (l, h) in lo.chunks_exact(4).zip(hi.rchunks_exact(4)) {
        set(l0, l[0].into() ^ h[3].into());
        set(l1, l[1].into() ^ h[2].into());
        set(l2, l[2].into() ^ h[1].into());
        set(l3, l[3].into() ^ h[0].into());
    }
    let done = lo.len() / 4 * 4;
    for a in from + done..to {
        marks.set(table[a].into() ^ table[m - a].into());
    }
    for w in 0..words {
        marks.words[w] |= l0[w] | l1[w] | l2[w] | l3[w];
    }
}
