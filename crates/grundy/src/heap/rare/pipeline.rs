//! The block path: the options of a block of heaps through old rare heaps
//! are marked block-wise, by a helper thread while this thread finishes the
//! block before, or by this thread alone.

use super::compared;
use super::search::{confirm, decide};
use super::single::take_marks;
use super::{without_equal, Bits, RareSplit, Scratch, Stats, BLOCK, BLOCK_ALONE, MAX_RARE_BOUND};
use crate::heap::simd::{self, Path};

/// Heaps of a block marked together in [`block_marks`], fewer when values
/// are wide: their byte rows, at most 32 KiB, stay in the first-level cache
/// while every rare heap writes into them, and an option's place in them
/// fits 16 bits. That is 64 rows for values below 512 and 32 below 1024
/// (`grundy seq 0.007 --to 100000` took 0.77 s against 0.81 s with 64 rows
/// of 1 KiB, on an AMD EPYC Zen 4).
const ROWS: usize = 64;

/// [`pair_marks`] with `partners_below: Some(old.len())` for every heap of
/// the block `first..first + marks.len()` at once: `marks[i]` gets the
/// options of heap `first + i` through rare heaps `r` whose partner
/// `m - r` is in `old`, the table below the block. Rare heap by rare heap
/// the partners of consecutive heaps are consecutive, so this reads `old`
/// in runs (no gather). Each option is one byte stored in its heap's row:
/// no read-modify-write of a bit word, so the stores do not wait on each
/// other. Four partners are read as one 64-bit word and their four places
/// (value and row) computed in its 16-bit lanes at once, in plain integer
/// code that every processor runs. The rows are then folded into bits.
/// With `compared`, the options through some rare heaps are compared with
/// each heap's candidates instead, where [`compared`] can, and each heap's
/// limit is set (its marks are exact below it). Returns how many options
/// were marked or compared.
#[inline(always)]
pub(super) fn block_marks<const W: usize>(
    context: &RareSplit,
    first: usize,
    old: &[u16],
    marks: &mut [Bits<W>],
    path: Path,
    mut compared: Option<Compared>,
) -> u64 {
    let width = 64 * W;
    let rows_at_once = ROWS.min(1 << 15 >> width.trailing_zeros());
    let cut = old.len();
    let end = first + marks.len();
    let top = width - 1;
    let mut rows = vec![0u8; rows_at_once * width];
    let mut scratch = compared::Scratch::default();
    let mut steps = 0;
    if let Some(compared) = compared.as_mut() {
        compared.limits.fill(u32::MAX);
    }
    for group in (first..end).step_by(compared::LANES) {
        let group_end = (group + compared::LANES).min(end);
        // The rare heaps whose options are compared with candidates
        // instead of marked (where `compared` can: see its module), for
        // all the rows of the group.
        let (deferred, lanes) = match &compared {
            Some(c) if group_end - group == compared::LANES => {
                compared::deferred(context, (group, cut), c.last_rare, path)
            }
            _ => (0..0, compared::Width::Words),
        };
        for low in (group..group_end).step_by(rows_at_once) {
            let high = (low + rows_at_once).min(group_end);
            // Heaps `from..to` of these rows, each paired through the rare heap
            // with value `value` whose partner for heap `from` is `old[partner]`.
            let run = |rows: &mut [u8], from: usize, to: usize, partner: usize, value: u16| {
                if from >= to {
                    return 0;
                }
                let partners = &old[partner..partner + (to - from)];
                let groups = partners.chunks_exact(4);
                let tail = groups.remainder();
                // Rows below `high - low <= rows_at_once` (`to <= high`).
                let rows = &mut rows[..rows_at_once * width];
                for (g, four) in groups.enumerate() {
                    mark_four(rows, four, value, (from - low + 4 * g, width));
                }
                let i = to - from - tail.len() + (from - low);
                for (j, &x) in tail.iter().enumerate() {
                    rows[(i + j) * width + (usize::from(x ^ value) & top)] = 1;
                }
                (to - from) as u64
            };
            let full = high - low == rows_at_once;
            for &k in &context.rules.splits {
                let (rare, values) = (context.rare, context.rare_values);
                // The rare heaps that pair with every row: r + k + 1 <= low
                // (from = low) and r + k + cut >= high (to = high). The rare
                // heaps are in increasing order, so these are one range of
                // them, taken in a loop of their own without the bounds of
                // each (for 16 or 32 rows, as wide values have, those had cost
                // about as much as the stores).
                let whole = match (full && !context.rules.unequal, low.checked_sub(k + 1)) {
                    (true, Some(last)) => {
                        let first = high.saturating_sub(k + cut);
                        rare.partition_point(|&r| (r as usize) < first)
                            ..rare.partition_point(|&r| r as usize <= last)
                    }
                    _ => 0..0,
                };
                // Every rare heap but the deferred ones: the two ranges around them.
                for kept in [0..deferred.start, deferred.end..rare.len()] {
                    // `whole` within `kept`, empty where they do not meet.
                    let start = whole.start.clamp(kept.start, kept.end);
                    let inner = start..whole.end.clamp(start, kept.end);
                    for i in (kept.start..inner.start).chain(inner.end..kept.end) {
                        let r = rare[i] as usize;
                        // Heap n pairs r with m - r = n - k - r: r < m and m - r < cut.
                        let from = low.max(r + k + 1);
                        let to = high.min(r + k + cut);
                        let equal = 2 * r + k;
                        // Values of rare heaps fit the table's cells.
                        let value = values[i] as u16;
                        let parted = context.rules.unequal && (from..to).contains(&equal);
                        if parted {
                            // Parts must differ: heap 2r + k has no split (r, r).
                            steps += run(&mut rows, from, equal, from - k - r, value);
                            steps += run(&mut rows, equal + 1, to, equal + 1 - k - r, value);
                        } else {
                            steps += run(&mut rows, from, to, from.saturating_sub(k + r), value);
                        }
                    }
                    // The usual case: every row pairs with these rare heaps,
                    // their partners `low - k - r..high - k - r` inside `old`.
                    let (rare, values) = (&rare[inner.clone()], &values[inner]);
                    steps += match rows_at_once {
                        64 => whole_runs::<64, W>(&mut rows, old, (rare, values), low - k),
                        32 => whole_runs::<32, W>(&mut rows, old, (rare, values), low - k),
                        16 => whole_runs::<16, W>(&mut rows, old, (rare, values), low - k),
                        _ => {
                            let mut steps = 0;
                            for (&r, &value) in rare.iter().zip(values) {
                                let from = low - k - r as usize;
                                steps += run(&mut rows, low, high, from, value as u16);
                            }
                            steps
                        }
                    };
                }
            }
            for (row, bits) in rows
                .chunks_exact_mut(width)
                .zip(&mut marks[low - first..high - first])
            {
                simd::fold_bytes(path, row, &mut bits.0);
            }
        }
        if let (Some(c), false) = (compared.as_mut(), deferred.is_empty()) {
            steps += compared::compare(
                context,
                group,
                old,
                (deferred, lanes),
                &mut marks[group - first..group_end - first],
                &mut c.limits[group - first..group_end - first],
                &mut scratch,
                (path, c.candidates),
            );
        }
    }
    steps
}

/// What [`block_marks`] needs to compare options with candidates
/// ([`compared`]) where it can: each heap's limit, below which its marks
/// are exact (`u32::MAX`: everywhere), and the last rare heap of the whole
/// table below the block.
pub(super) struct Compared<'a> {
    pub(super) limits: &'a mut [u32],
    pub(super) last_rare: usize,
    /// At most this many candidates a heap (rounded up to a few).
    pub(super) candidates: usize,
}

/// [`whole_run`] for each rare heap `rare[i]` (value `values[i]`), whose
/// partners are `old[base - r..base - r + N]`. Returns how many options
/// were marked.
#[inline(always)]
fn whole_runs<const N: usize, const W: usize>(
    rows: &mut [u8],
    old: &[u16],
    (rare, values): (&[u32], &[u32]),
    base: usize,
) -> u64 {
    for (&r, &value) in rare.iter().zip(values) {
        let at = base - r as usize;
        // Values of rare heaps fit the table's cells.
        whole_run::<N, W>(rows, &old[at..at + N], value as u16);
    }
    (N * rare.len()) as u64
}

/// The options of all `N` rows of [`block_marks`] (each `64 * W` bytes)
/// through one rare heap of value `value`, whose partners are `partners`
/// (one per row): a byte in each row, at the option's value. Without the
/// bounds of partial runs, with the loop's length and the rows' width
/// fixed, this is the bulk of the marking. Four options' values are
/// computed in the 16-bit lanes of one 64-bit word ([`values_four`]), as
/// in [`mark_four`], but each row's place is a constant of the store's
/// address rather than added in the word.
#[inline(always)]
fn whole_run<const N: usize, const W: usize>(rows: &mut [u8], partners: &[u16], value: u16) {
    let width = 64 * W;
    let partners: &[u16; N] = partners.try_into().expect("one partner per row");
    let rows: &mut [u8] = &mut rows[..N * width];
    let rows = rows.as_mut_ptr();
    for (g, four) in partners.chunks_exact(4).enumerate() {
        let at = values_four(four, value, width);
        // SAFETY: rows `4g..4g + 4` are below `N`, each lane below `width`:
        // inside the `N * width` bytes checked above.
        unsafe {
            let row = rows.add(4 * g * width);
            *row.add((at & 0xffff) as usize) = 1;
            *row.add(width + (at >> 16 & 0xffff) as usize) = 1;
            *row.add(2 * width + (at >> 32 & 0xffff) as usize) = 1;
            *row.add(3 * width + (at >> 48) as usize) = 1;
        }
    }
}

/// 1 in each 16-bit lane of a 64-bit word.
const LANES4: u64 = 0x0001_0001_0001_0001;

/// The options through a rare heap of value `value` whose partners are
/// `four` (four of them), each masked below `width` (a power of two), in
/// the 16-bit lanes of one 64-bit word: the four partners read as one
/// word, one XOR and one AND for the four.
#[inline(always)]
fn values_four(four: &[u16], value: u16, width: usize) -> u64 {
    let x = u64::from(four[0])
        | u64::from(four[1]) << 16
        | u64::from(four[2]) << 32
        | u64::from(four[3]) << 48;
    (x ^ (u64::from(value) * LANES4)) & ((width as u64 - 1) * LANES4)
}

/// Marks the options of rows `row..row + 4` of `rows` (each `width` bytes)
/// through a rare heap of value `value`, whose partners are `four`: the
/// four places (row and value) are computed in the 16-bit lanes of one
/// 64-bit word, then stored one by one. Extracting them from a vector
/// register instead took two instructions each, one of them on the port
/// that the x86 processors' other vector work needs too (`0.007` to
/// 300,000 took 3.63 s against 3.93 s on AVX2, medians of three runs of
/// each alternated, Intel Xeon, family 6 model 207).
#[inline(always)]
fn mark_four(rows: &mut [u8], four: &[u16], value: u16, (row, width): (usize, usize)) {
    assert!((row + 4) * width <= rows.len() && rows.len() <= 1 << 16 && four.len() == 4);
    let w = width as u64;
    // Row `row + j` in lane `j`.
    let place4 = (row as u64 * w) * LANES4 + (w << 16 | (2 * w) << 32 | (3 * w) << 48);
    // Each lane is below `rows.len() <= 2^16`: no carries.
    let at = values_four(four, value, width) + place4;
    let rows = rows.as_mut_ptr();
    // SAFETY: each lane is a row `row + j < rows.len() / width` (checked above)
    // times `width` plus a value below `width`: inside `rows`.
    unsafe {
        *rows.add((at & 0xffff) as usize) = 1;
        *rows.add((at >> 16 & 0xffff) as usize) = 1;
        *rows.add((at >> 32 & 0xffff) as usize) = 1;
        *rows.add((at >> 48) as usize) = 1;
    }
}

/// [`block_marks`], compiled for AVX2 and BMI2 on the x86 vector paths.
fn block_marks_on<const W: usize>(
    context: &RareSplit,
    first: usize,
    old: &[u16],
    marks: &mut [Bits<W>],
    compared: Option<Compared>,
) -> u64 {
    let path = context.vector.marks;
    #[cfg(target_arch = "x86_64")]
    if path != Path::Portable && simd::bmi2_available() {
        // SAFETY: the x86 vector paths run only where AVX2 is (checked
        // when the path is chosen), BMI2 was just checked.
        return unsafe { block_marks_bmi2(context, first, old, marks, path, compared) };
    }
    block_marks(context, first, old, marks, path, compared)
}

/// [`block_marks`] with AVX2 and BMI2.
///
/// # Safety
/// AVX2 and BMI2 must be available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
unsafe fn block_marks_bmi2<const W: usize>(
    context: &RareSplit,
    first: usize,
    old: &[u16],
    marks: &mut [Bits<W>],
    path: Path,
    compared: Option<Compared>,
) -> u64 {
    block_marks(context, first, old, marks, path, compared)
}

/// A pointer handed to the helper thread of [`pipeline`], which only reads
/// through it entries that the main thread no longer writes.
#[derive(Clone, Copy)]
pub(super) struct Shared<T>(*mut T);

// SAFETY: see `pipeline`: the threads never access the same entry while one writes it.
unsafe impl<T> Send for Shared<T> {}
unsafe impl<T> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// The first `len` entries.
    ///
    /// # Safety
    /// They must be initialized and not written while the slice lives.
    unsafe fn prefix<'a>(self, len: usize) -> &'a [T] {
        // SAFETY: as documented.
        unsafe { std::slice::from_raw_parts(self.0, len) }
    }
}

/// The block path of [`Engine::parallel_block`]: extends `table` from
/// its length up to `limit` (or fewer: it stops after a value reaching `bound`,
/// which needs wider marks) and returns the rare heaps found, with their values.
///
/// The options of a block of heaps through the rare heaps whose partners
/// are older than the block before it are marked block-wise
/// ([`block_marks`]: runs of the table, no gathers or scatters), the rest
/// heap by heap. With `helper`, one helper thread lives for the whole call:
/// while this thread computes block `i`, the helper marks for block `i + 1`
/// the options through rare heaps whose partner is below the start of block
/// `i`. Without it, this thread marks them itself once block `i` is done.
/// The table and the lists of
/// rare heaps are sized for the whole run up front and written through raw
/// pointers, so nothing moves; the helper only ever reads entries below the
/// start of the block being computed, which this thread no longer writes.
#[allow(clippy::too_many_arguments)]
pub(super) fn pipeline<const W: usize>(
    context: &RareSplit,
    table: &mut Vec<u16>,
    limit: usize,
    stats: &mut Stats,
    bound: u32,
    scratch: &mut Scratch,
    helper: bool,
    candidates: usize,
) -> Vec<(u32, u32)> {
    use std::sync::mpsc;
    let start = table.len();
    let first_rare = context.rare.len();
    let room = first_rare + (limit - start);
    let mut rare = context.rare.to_vec();
    rare.resize(room, 0);
    let mut rare_values = context.rare_values.to_vec();
    rare_values.resize(room, 0);
    table.resize(limit, 0);
    let (values_at, rare_at, rare_values_at) = (
        Shared(table.as_mut_ptr()),
        Shared(rare.as_mut_ptr()),
        Shared(rare_values.as_mut_ptr()),
    );
    // SAFETY (every `prefix` below): entries below `done` of the table and
    // below `count` of the rare lists are final, and nothing writes them.
    let view = |count: usize| RareSplit {
        rare: unsafe { rare_at.prefix(count) },
        rare_values: unsafe { rare_values_at.prefix(count) },
        ..*context
    };
    // Marks for `heaps` through the rare heaps `rare[heaps_of]` (all
    // final) whose partner is below `cut`; each heap's limit (its marks
    // are exact below it: see `compared`, used when `every` says that
    // `heaps_of` is every rare heap below `cut`); and the number of
    // options. With the helper, that is when it takes them all.
    let old_marks = |heaps: std::ops::Range<usize>,
                     cut: usize,
                     heaps_of: std::ops::Range<usize>,
                     every: bool| {
        let whole = view(heaps_of.end);
        let context = RareSplit {
            rare: &whole.rare[heaps_of.start..],
            rare_values: &whole.rare_values[heaps_of.start..],
            ..whole
        };
        let old = unsafe { values_at.prefix(cut) };
        let mut marks = vec![Bits::<W>([0; W]); heaps.len()];
        let mut limits = vec![u32::MAX; heaps.len()];
        let every = every && heaps_of.start == 0 && candidates > 0;
        let compared = match (every, whole.rare.last()) {
            (true, Some(&last)) => Some(Compared {
                limits: &mut limits,
                last_rare: last as usize,
                candidates,
            }),
            _ => None,
        };
        let steps = block_marks_on(&context, heaps.start, old, &mut marks, compared);
        (marks, limits, steps)
    };
    let mut count = first_rare;
    let mut done = start;
    std::thread::scope(|scope| {
        let (jobs, job_queue) =
            mpsc::channel::<(std::ops::Range<usize>, usize, std::ops::Range<usize>, bool)>();
        let (results, result_queue) = mpsc::channel();
        let old_marks = &old_marks;
        if helper {
            scope.spawn(move || {
                for (heaps, cut, heaps_of, every) in job_queue {
                    if results
                        .send(old_marks(heaps, cut, heaps_of, every))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        } else {
            drop((job_queue, results));
        }
        let block_len = if helper { BLOCK } else { BLOCK_ALONE };
        let first = start..(start + block_len).min(limit);
        let (mut pre, mut pre_limits, steps) = old_marks(first, start, 0..count, true);
        stats.pair_steps += steps;
        let mut cut = start;
        // The helper marks through the first `share` / 64 of the old rare
        // heaps, this thread through the rest once its block is done: the
        // share follows whichever thread waited for the other.
        let mut share = 64usize;
        while done < limit {
            let block = done..(done + block_len).min(limit);
            let next = block.end..(block.end + block_len).min(limit);
            let split = count * share / 64;
            let asked = !next.is_empty()
                && (!helper
                    || jobs
                        .send((next.clone(), block.start, 0..split, split == count))
                        .is_ok());
            let asked_count = count;
            let context = view(count);
            // The rare list is fixed for the block: cursors start afresh.
            let mut cursors = Cursors::new(context.rules.splits.len());
            let mut found = 0;
            for n in block.clone() {
                // SAFETY: the values below `n` are final.
                let known = unsafe { values_at.prefix(n) };
                let mut marks = pre[n - block.start];
                let limit = pre_limits[n - block.start];
                let block_found = (
                    unsafe { rare_at.0.add(count) as *const u32 },
                    unsafe { rare_values_at.0.add(count) as *const u32 },
                    found,
                );
                // SAFETY: this block's rare heaps, written below, not yet shared.
                let block_found = unsafe {
                    (
                        std::slice::from_raw_parts(block_found.0, block_found.2),
                        std::slice::from_raw_parts(block_found.1, block_found.2),
                    )
                };
                let value = block_value::<W>(
                    &context,
                    n,
                    known,
                    cut,
                    (&mut marks, limit),
                    block_found,
                    &mut cursors,
                    stats,
                    bound,
                    scratch,
                );
                // SAFETY: `n < limit`: inside the table, and no slice covers it.
                unsafe { values_at.0.add(n).write(value as u16) };
                if context.is_rare(n, value) {
                    // SAFETY: at most one rare heap per heap: inside `room`.
                    unsafe {
                        rare_at.0.add(count + found).write(n as u32);
                        rare_values_at.0.add(count + found).write(value);
                    }
                    found += 1;
                }
                done = n + 1;
                if value >= bound {
                    break;
                }
            }
            let later = asked.then(|| {
                if !helper {
                    // Alone, this thread marks the next block once this one
                    // is final: through every partner below it, this
                    // block's rare heaps included, which leaves only the
                    // partners inside the next block to mark heap by heap.
                    // (Unless a value reached `bound`: then nothing is kept.)
                    if done < block.end {
                        return (Vec::new(), Vec::new(), 0);
                    }
                    return old_marks(next.clone(), block.end, 0..asked_count + found, true);
                }
                let (mut mine, mut steps) = (None, 0);
                if split < asked_count {
                    let (marks, _, more) =
                        old_marks(next.clone(), block.start, split..asked_count, false);
                    mine = Some(marks);
                    steps = more;
                }
                let (mut marks, limits, helper_steps) = match result_queue.try_recv() {
                    Ok(result) => {
                        // The helper was done first: give it more.
                        share = (share + 1).min(64);
                        result
                    }
                    Err(_) => {
                        share = share.saturating_sub(1).max(8);
                        result_queue.recv().expect("helper thread")
                    }
                };
                if let Some(mine) = mine {
                    for (bits, own) in marks.iter_mut().zip(&mine) {
                        for (word, w) in bits.0.iter_mut().zip(own.0) {
                            *word |= w;
                        }
                    }
                }
                (marks, limits, helper_steps + steps)
            });
            count += found;
            if done < block.end {
                // A value reached `bound`: the next block's marks are too narrow.
                break;
            }
            if let Some((marks, limits, steps)) = later {
                stats.pair_steps += steps;
                pre = marks;
                pre_limits = limits;
            }
            cut = if helper { block.start } else { block.end };
        }
        drop(jobs);
    });
    table.truncate(done);
    rare[first_rare..count]
        .iter()
        .copied()
        .zip(rare_values[first_rare..count].iter().copied())
        .collect()
}

/// Where the rare heaps of each split size stand for the heap being
/// computed in [`block_value`]: `[low, high, end, here]`, the first rare
/// heap `r` with `r + cut > m`, with `r >= cut`, with `r >= m`, and the
/// first of the block's own with `r >= m`. One block's: its `cut` and its
/// list of older rare heaps stay the same, and heap by heap `m` grows by
/// one, so each place moves up a step or two instead of being found by
/// bisection again (three bisections of Officers' 1,583 rare heaps a heap).
pub(super) struct Cursors {
    /// Per split size: the places, once found.
    at: Vec<Option<[usize; 4]>>,
}

impl Cursors {
    /// Cursors for a new block.
    pub(super) fn new(splits: usize) -> Self {
        Cursors {
            at: vec![None; splits],
        }
    }

    /// The four places for split size number `split`, whose heaps split
    /// `m` (at least the `m` of the call before), among `rare` and
    /// `block_rare` (which only grows).
    #[inline(always)]
    fn advance(
        &mut self,
        split: usize,
        rare: &[u32],
        block_rare: &[u32],
        cut: usize,
        m: usize,
    ) -> [usize; 4] {
        let at = self.at[split].get_or_insert_with(|| {
            [
                rare.partition_point(|r| (*r as usize) + cut <= m),
                rare.partition_point(|r| (*r as usize) < cut),
                rare.partition_point(|r| (*r as usize) < m),
                block_rare.partition_point(|r| (*r as usize) < m),
            ]
        });
        let [low, _, end, here] = at;
        while *low < rare.len() && rare[*low] as usize + cut <= m {
            *low += 1;
        }
        while *end < rare.len() && (rare[*end] as usize) < m {
            *end += 1;
        }
        while *here < block_rare.len() && (block_rare[*here] as usize) < m {
            *here += 1;
        }
        *at
    }
}

/// G(n) on the block path: `marks` holds the options through rare heaps
/// whose partner is below `cut` (those in `context.rare`, all below `n`'s
/// block); this adds the rest (rare heaps up to `m - cut`, from `cut` on, and
/// `block_rare`, this block's, with their values), the take moves, and
/// searches as usual. `marks` is exact below `limit` only (options compared
/// with candidates, [`compared`]): if the smallest unmarked value reaches
/// it, the options through old rare heaps are all marked again first.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn block_value<const W: usize>(
    context: &RareSplit,
    n: usize,
    table: &[u16],
    cut: usize,
    (marks, limit): (&mut Bits<W>, u32),
    (block_rare, block_values): (&[u32], &[u32]),
    cursors: &mut Cursors,
    stats: &mut Stats,
    bound: u32,
    scratch: &mut Scratch,
) -> u32 {
    take_marks(context.rules, n, table, marks);
    let (rare, values) = (context.rare, context.rare_values);
    let top = 64 * W as u32 - 1;
    // The options through the rare heaps with partners inside the block
    // (a few dozen a heap on Officers) are set as bits one by one, on
    // every path: gathering and stamping them 16 at a time with AVX-512,
    // then folding the stamps, took Officers to 10^6 on one thread
    // 1.11-1.34 s of processor time against 1.04-1.21 s (medians 1.20 and
    // 1.095 s, eight runs of each alternated, `GRUNDY_SIMD=avx512
    // octal_speed 06 1000000 serial`, AMD EPYC Zen 4), and as long with
    // the helper thread.
    for (split, &k) in context.rules.splits.iter().enumerate() {
        if n < k + 2 {
            continue;
        }
        let m = n - k;
        let [low, high, end, here] = cursors.advance(split, rare, block_rare, cut, m);
        debug_assert!(low <= high, "blocks too long for the cut");
        let end = end.max(high);
        stats.pair_steps += (low + end - high) as u64;
        stats.pair_steps += here as u64;
        let older = without_equal(context.rules, rare, m, 0..low)
            .into_iter()
            .chain(without_equal(context.rules, rare, m, high..end))
            .map(|range| (rare, values, range));
        let newer = without_equal(context.rules, block_rare, m, 0..here)
            .into_iter()
            .map(|range| (block_rare, block_values, range));
        for (heaps, heap_values, range) in older.chain(newer) {
            for (&r, &v) in heaps[range.clone()].iter().zip(&heap_values[range]) {
                marks.set((v ^ u32::from(table[m - r as usize])) & top);
            }
        }
    }
    let (mut cheap_mex, mut want) = decide(context, n, marks, bound);
    if cheap_mex >= limit {
        // The options through old rare heaps were compared with too few
        // candidates: mark them all.
        stats.remarked += 1;
        let k = context.rules.splits[0];
        let m = n - k;
        for (&r, &v) in rare.iter().zip(values) {
            let r = r as usize;
            if r < m && m - r < cut {
                marks.set((v ^ u32::from(table[m - r])) & top);
            }
        }
        (cheap_mex, want) = decide(context, n, marks, bound);
    }
    let seen: &mut [u8; MAX_RARE_BOUND as usize] =
        (&mut scratch.seen[..]).try_into().expect("buffer size");
    match confirm::<u16, W>(context, n, table, stats, &want, (seen, &mut scratch.wanted)) {
        Some(missing) => missing,
        None => cheap_mex,
    }
}
