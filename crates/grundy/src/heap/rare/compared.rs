//! Options through rare heaps compared with a few candidates instead of
//! stored one by one.
//!
//! The block marks ([`super::pipeline::block_marks`]) store each option
//! through a rare heap as a byte in its heap's row, and the processor
//! commits those stores about one a cycle: on Officers, 1,583 options a
//! heap. But the marks serve only to find the smallest common value no
//! option makes. Once the options through some of the rare heaps are
//! marked, each heap has a few unmarked common values left below that mex
//! (4 on average after 800 of Officers' 1,583 rare heaps, 300 heaps near
//! 10^6); those *candidates* are the only values the other rare heaps' options
//! must be compared with. A block's heaps pair with a rare heap through
//! consecutive partners, so its options are one run of the table, and a
//! candidate is compared with 64 heaps' options in a few vector
//! instructions.
//!
//! The comparison is in bytes, which is exact under the same condition as
//! the packed tables ([`super::packed`]): the split's mask has bit 8, every
//! value is below 512, and every partner is common. An option through a
//! rare heap is then common, and a common value is its low byte.
//!
//! A heap's marks are exact below its *limit*: the value after its last
//! candidate (or everywhere, when it had fewer). A heap whose smallest
//! unmarked value reaches its limit is marked again in full
//! ([`super::pipeline::block_value`]); with a candidate list long enough,
//! that is a heap in some hundreds.

use super::packed::{bytes_hold, decode};
use super::{Bits, RareSplit};
use crate::heap::simd::Path;

/// Candidates per heap.
pub(super) const CANDIDATES: usize = 32;

/// Candidates compared at once: their running minima stay in registers.
const AT_ONCE: usize = 4;

/// The options of one rare heap for the `LANES` heaps at hand, as bytes:
/// its partners start at `old[at]`, its value's low byte is `value`.
#[derive(Clone, Copy)]
struct Run {
    at: usize,
    value: u8,
}

/// What [`compare`] keeps between groups of heaps, so that a block's groups
/// allocate once: the deferred rare heaps' runs, and their options as
/// bytes where a path reads them so.
#[derive(Default)]
pub(super) struct Scratch {
    runs: Vec<Run>,
    options: Vec<[u8; LANES]>,
}

/// Heaps whose candidates [`made_by`] compares together on `path`: a
/// vector register's bytes (all 64 with AVX-512).
fn chunk(path: Path) -> usize {
    match path {
        Path::Portable => 16,
        Path::Avx2 => 32,
        Path::Avx512 => LANES,
    }
}

/// Which candidates of `group` (bit i of entry j: heap i's) some option of
/// `runs` makes, for the heaps of `active` (whole chunks of [`chunk`]; the
/// others' bits say nothing).
#[inline(always)]
fn made_by(
    path: Path,
    old: &[u16],
    runs: &[Run],
    options: &mut Vec<[u8; LANES]>,
    group: &[[u8; LANES]; AT_ONCE],
    active: u64,
) -> [u64; AT_ONCE] {
    // The options as bytes, once: every group of candidates reads them.
    if options.len() != runs.len() {
        options.clear();
        options.extend(runs.iter().map(|run| {
            let at = run.at;
            let partners: &[u16; LANES] = old[at..at + LANES].try_into().expect("a whole run");
            std::array::from_fn(|i| partners[i] as u8 ^ run.value)
        }));
    }
    #[cfg(target_arch = "x86_64")]
    if path.avx512() && crate::heap::simd::available() {
        // SAFETY: the features were just checked.
        return unsafe { made_avx512(options, group) };
    }
    // Heaps a vector register at a time, so that their candidates and
    // least XORs stay in registers while every option goes by.
    // The same widths as [`chunk`], which decides which heaps sit out.
    match chunk(path) {
        32 => made_in_chunks::<32>(options, group, active),
        _ => made_in_chunks::<16>(options, group, active),
    }
}

/// [`made_by`] without AVX-512, `C` heaps at a time (a vector register's
/// bytes), the chunks of `active` only: the least XOR of each candidate with the options, 0 where one
/// of them is the candidate.
#[inline(always)]
fn made_in_chunks<const C: usize>(
    options: &[[u8; LANES]],
    group: &[[u8; LANES]; AT_ONCE],
    active: u64,
) -> [u64; AT_ONCE] {
    let mut made = [0u64; AT_ONCE];
    for c in (0..LANES).step_by(C).filter(|c| active >> c & 1 != 0) {
        let mut candidates = [[0u8; C]; AT_ONCE];
        for (candidates, group) in candidates.iter_mut().zip(group) {
            candidates.copy_from_slice(&group[c..c + C]);
        }
        let mut least = [[u8::MAX; C]; AT_ONCE];
        for option in options {
            let option: &[u8; C] = (&option[c..c + C]).try_into().expect("a chunk");
            for j in 0..AT_ONCE {
                min_xor(&mut least[j], option, &candidates[j]);
            }
        }
        for (made, least) in made.iter_mut().zip(&least) {
            let mut bits = 0u64;
            for (i, &l) in least.iter().enumerate() {
                bits |= u64::from(l == 0) << i;
            }
            *made |= bits << c;
        }
    }
    made
}

/// `least[i] = min(least[i], option[i] ^ candidate[i])` in each lane.
#[inline(always)]
fn min_xor<const C: usize>(least: &mut [u8; C], option: &[u8; C], candidate: &[u8; C]) {
    for i in 0..C {
        least[i] = least[i].min(option[i] ^ candidate[i]);
    }
}

/// [`made_by`] with AVX-512: each heap's candidate kept alive until an
/// option equals it (one masked comparison of 64 bytes).
///
/// # Safety
/// AVX-512F and BW must be available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn made_avx512(options: &[[u8; LANES]], group: &[[u8; LANES]; AT_ONCE]) -> [u64; AT_ONCE] {
    use std::arch::x86_64::*;
    // SAFETY: 64 bytes each.
    let candidates: [__m512i; AT_ONCE] =
        std::array::from_fn(|j| unsafe { _mm512_loadu_si512(group[j].as_ptr() as *const _) });
    let mut alive = [!0u64; AT_ONCE];
    for option in options {
        // SAFETY: 64 bytes.
        let option = unsafe { _mm512_loadu_si512(option.as_ptr() as *const _) };
        for (alive, &candidate) in alive.iter_mut().zip(&candidates) {
            *alive = _mm512_mask_cmpneq_epu8_mask(*alive, option, candidate);
        }
    }
    alive.map(|alive| !alive)
}

/// Heaps compared at once: one run of partners.
pub(super) const LANES: usize = 64;

/// Rare heaps below this many are all marked: too few to gain.
const MIN_RARE: usize = 512;

/// The rare heaps whose options are marked (the last ones of the list), of
/// `rare` in all: three fifths. With fewer, more heaps have more unmarked
/// values below their mex than there are candidates; with more, more
/// options are stored.
fn marked(rare: usize) -> usize {
    rare * 3 / 5
}

/// The rare heaps (a range of `context`'s list) whose options the rows
/// `low..low + LANES` may compare with candidates instead of marking,
/// given the table `old` below the block (`cut = old.len()`) and the last
/// rare heap of the whole table below the block: the first ones of those
/// that pair with every row through a partner below `cut`. Empty when
/// the conditions of exact byte comparison do not hold (see the module).
pub(super) fn deferred(
    context: &RareSplit,
    low: usize,
    cut: usize,
    last_rare: usize,
) -> std::ops::Range<usize> {
    let (rules, split, rare) = (context.rules, context.split, context.rare);
    // The class is the parity alone, for every heap alike.
    let plain = !split.domain && split.shift == 0;
    if !plain || !bytes_hold(&split) || rules.splits.len() != 1 || rules.unequal || rare.is_empty()
    {
        return 0..0;
    }
    let k = rules.splits[0];
    let last = rare[rare.len() - 1] as usize;
    // Every partner lies past the last rare heap (so it is common), and
    // each rare heap from `whole` on pairs with every row through a
    // partner below `cut`.
    if low <= last + k + last_rare {
        return 0..0;
    }
    let whole = rare.partition_point(|&r| r as usize + k + cut < low + LANES);
    let all = rare.len() - whole;
    if all < MIN_RARE {
        return 0..0;
    }
    whole..whole + all - marked(all)
}

/// The candidates of heaps `low..low + LANES`, whose `marks` hold the options
/// through all rare heaps but those of `deferred` (in `context`'s list):
/// compares those with each heap's first unmarked common values, a few at
/// a time, marks the ones some option makes, and sets each heap's limit.
/// `old` is the table below the block. Returns the options compared.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn compare<const W: usize>(
    context: &RareSplit,
    low: usize,
    old: &[u16],
    deferred: std::ops::Range<usize>,
    marks: &mut [Bits<W>],
    limits: &mut [u32],
    scratch: &mut Scratch,
    (path, most): (Path, usize),
) -> u64 {
    assert!(marks.len() == LANES && limits.len() == LANES && W * 64 >= 512);
    let k = context.rules.splits[0];
    let low_mask = context.split.mask as u8;
    let odd = context.odd;
    let Scratch { runs, options } = scratch;
    runs.clear();
    runs.extend(
        context.rare[deferred.clone()]
            .iter()
            .zip(&context.rare_values[deferred.clone()])
            .map(|(&r, &value)| {
                let at = low - k - r as usize;
                assert!(at + LANES <= old.len(), "a whole run");
                Run {
                    at,
                    value: value as u8,
                }
            }),
    );
    options.clear();
    // Each heap's unmarked common values not yet taken as candidates, a
    // word at a time: candidates are taken in increasing order, so each
    // heap has a word (8: none left) and the values of it still free.
    // The marks of words past it do not change meanwhile (only candidates
    // taken are marked).
    let next_word = |marks: &Bits<W>, mut w: usize| {
        while w < 8 && !marks.0[w] & odd[w] == 0 {
            w += 1;
        }
        let free = if w < 8 { !marks.0[w] & odd[w] } else { 0 };
        (w, free)
    };
    let mut word = [0usize; LANES];
    let mut free = [0u64; LANES];
    for i in 0..LANES {
        (word[i], free[i]) = next_word(&marks[i], 0);
    }
    // Candidates are taken and compared a few at a time, smallest first,
    // until every heap has one that no option makes (its smallest is the
    // mex of the options through rare heaps), or has none left. Lane i of
    // `group[j]` is heap i's; `last[i]` is the last it took. Heaps that
    // have settled take more too: their comparisons are free while others'
    // go on, and their limits rise.
    let mut last = [0u8; LANES];
    let mut settled = 0u64;
    let mut compared = 0;
    let chunk = chunk(path);
    while settled != !0 && compared < most.min(CANDIDATES) {
        // The heaps of a chunk whose heaps have all settled sit the round
        // out: they take no candidate and their options are not compared.
        let mut active = 0u64;
        for c in (0..LANES).step_by(chunk) {
            let lanes = (!0u64 >> (LANES - chunk)) << c;
            if settled & lanes != lanes {
                active |= lanes;
            }
        }
        let mut group = [[0u8; LANES]; AT_ONCE];
        let mut valid = [0u64; AT_ONCE];
        for i in (0..LANES).filter(|i| active >> i & 1 != 0) {
            for (j, group) in group.iter_mut().enumerate() {
                // With no value left, the lane repeats its last.
                let w = word[i];
                if w < 8 {
                    let b = free[i].trailing_zeros();
                    free[i] &= free[i] - 1;
                    if free[i] == 0 {
                        (word[i], free[i]) = next_word(&marks[i], w + 1);
                    }
                    last[i] = (64 * w as u32 + b) as u8;
                    valid[j] |= 1 << i;
                }
                group[i] = last[i];
            }
        }
        let found = made_by(path, old, runs, options, &group, active);
        for j in 0..AT_ONCE {
            // Candidates some option makes are marked; one that none makes
            // settles its heap.
            let mut hit = found[j] & valid[j];
            while hit != 0 {
                let i = hit.trailing_zeros() as usize;
                hit &= hit - 1;
                marks[i].set(decode(group[j][i], low_mask));
            }
            settled |= valid[j] & !found[j];
        }
        // Heaps without values left settle too.
        for (i, &w) in word.iter().enumerate() {
            settled |= u64::from(w == 8) << i;
        }
        compared += AT_ONCE;
    }
    for i in 0..LANES {
        // Exact below the last candidate compared, or everywhere once no
        // unmarked value is left.
        limits[i] = if word[i] == 8 {
            u32::MAX
        } else {
            decode(last[i], low_mask) + 1
        };
    }
    (deferred.len() * LANES) as u64
}
