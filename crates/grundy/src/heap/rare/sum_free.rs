//! Choosing a sum-free set of common values, for codes whose values have no
//! sparse parity class (Treblecross, 0.007).

use super::mask::ValueCounts;
use super::{Split, MAX_RARE_BOUND};

/// A sum-free set of common values for codes with no sparse parity class
/// (Treblecross, 0.007): values taken greedily by frequency, each kept only
/// when no two kept values XOR to it, so that no two common heaps ever XOR
/// to a common value and common values again come only from rare heaps.
/// `None` unless the rare heaps are a minority.
pub(super) fn choose_sum_free(counts: &ValueCounts) -> Option<(Split, Vec<u64>)> {
    let len = counts.counted;
    if len < 64 || counts.wide {
        return None;
    }
    let size = MAX_RARE_BOUND as usize;
    let count: Vec<u64> = (0..size).map(|v| counts.heaps_with(v)).collect();
    let mut order: Vec<u32> = (1..size as u32)
        .filter(|v| count[*v as usize] > 0)
        .collect();
    order.sort_by_key(|v| (std::cmp::Reverse(count[*v as usize]), *v));
    let mut common: Vec<u32> = Vec::new();
    // Every XOR of two common values (0 included): a value there may not join.
    let mut sums = vec![false; size];
    sums[0] = true;
    let mut common_heaps = 0u64;
    for v in order {
        if sums[v as usize] {
            continue;
        }
        common.push(v);
        for c in &common {
            sums[(c ^ v) as usize] = true;
        }
        common_heaps += count[v as usize];
    }
    let rare = (len as u64 - 1) - common_heaps;
    // Each rare heap costs one pairing per heap: worth it up to about a third
    // (0.007 has a fifth).
    if rare as usize * 3 >= len {
        return None;
    }
    let mut words = vec![0u64; size / 64];
    for c in &common {
        words[(*c >> 6) as usize] |= 1 << (c & 63);
    }
    let split = Split {
        mask: 0,
        free: common.len() as u32,
        domain: false,
        shift: 0,
    };
    Some((split, words))
}
