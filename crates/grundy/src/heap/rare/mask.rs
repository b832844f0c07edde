//! Choosing the rare/common split by a bit mask: a Walsh-Hadamard transform of
//! the value histogram counts the rare heaps of every mask at once.

use super::{Split, TakeBreak, MAX_RARE_BOUND};

/// The best split for heaps `0..len`, or `None` when values are not sparse.
///
/// For each mask, the number of heaps whose class is odd is read off a
/// Walsh-Hadamard transform of the histogram of values (split by heap parity
/// for the domain variant). A split is worth it when rare heaps are at most a
/// small fraction, since each costs one pairing per heap thereafter.
pub(super) fn choose_split(rules: &TakeBreak, counts: &ValueCounts) -> Option<Split> {
    let len = counts.counted;
    if len < 64 {
        return None;
    }
    // The rare-value path keeps its marks in registers: values below 1024.
    let max = counts.max()?;
    if max >= 1 << 10 {
        return None;
    }
    let size = (max as usize + 1).next_power_of_two().max(2);
    // Histograms of values at even and odd heaps (heap 0 excluded: never rare-paired).
    let histogram = |counts: &[u64]| -> Vec<i64> {
        (0..size)
            .map(|v| counts.get(v).map_or(0, |&c| c as i64))
            .collect()
    };
    let mut even = histogram(&counts.even);
    let mut odd = histogram(&counts.odd);
    walsh_hadamard(&mut even);
    walsh_hadamard(&mut odd);
    let (n_even, n_odd) = (even[0], odd[0]);
    // The domain variant needs every split size to have one parity.
    let split_parity = rules
        .splits
        .iter()
        .map(|k| (k & 1) as u32)
        .collect::<Vec<_>>();
    let domain_shift = if split_parity.iter().all(|p| *p == split_parity[0]) {
        Some(split_parity[0])
    } else {
        None
    };
    let mut best: Option<(i64, Split)> = None;
    for mask in 1..size as u32 {
        // transform[m] = #even-parity - #odd-parity among values at those heaps.
        let (e, o) = (even[mask as usize], odd[mask as usize]);
        // Range: common = odd parity.
        let rare_range = (n_even + e) / 2 + (n_odd + o) / 2;
        let candidate = Split {
            mask,
            free: 0,
            domain: false,
            shift: 0,
        };
        if best.is_none_or(|(r, _)| rare_range < r) {
            best = Some((rare_range, candidate));
        }
        if let Some(shift) = domain_shift {
            // class = parity ^ (heap & 1) ^ shift; rare when class is 0.
            let rare_domain = if shift == 0 {
                (n_even + e) / 2 + (n_odd - o) / 2
            } else {
                (n_even - e) / 2 + (n_odd + o) / 2
            };
            if best.is_none_or(|(r, _)| rare_domain < r) {
                best = Some((
                    rare_domain,
                    Split {
                        mask,
                        free: 0,
                        domain: true,
                        shift,
                    },
                ));
            }
        }
    }
    // Worth it only when pairing the rare heaps is far cheaper than a full scan.
    best.filter(|(rare, _)| (*rare as usize) * 8 < len)
        .map(|(_, split)| split)
}

/// How often each value occurs at the even and at the odd heaps of a
/// table's first `counted` heaps (heap 0 left out), brought up to date as
/// the table grows: choosing a split at each review then reads the new
/// heaps only. Reading the whole table twice at each review took 0.1777
/// to 10^7 on the portable path 0.568-0.578 s against 0.538-0.563 s now
/// (`GRUNDY_SIMD=portable octal_speed 01777 10000000 serial`, five runs
/// of each binary alternated, AMD EPYC Zen 4).
#[derive(Clone, Debug, Default)]
pub(super) struct ValueCounts {
    /// Heaps `1..counted` are counted.
    pub(super) counted: usize,
    /// Heaps with each value, at even and at odd heaps: values below
    /// [`MAX_RARE_BOUND`] only.
    pub(super) even: Vec<u64>,
    pub(super) odd: Vec<u64>,
    /// Some heap has a value of [`MAX_RARE_BOUND`] or more.
    pub(super) wide: bool,
}

impl ValueCounts {
    /// Counts heaps from the last counted up to `len` (afresh if the table
    /// is shorter than what was counted).
    pub(super) fn count(&mut self, len: usize, value: impl Fn(usize) -> u32) {
        if self.counted > len {
            *self = ValueCounts::default();
        }
        for i in self.counted.max(1)..len {
            let v = value(i);
            if v >= MAX_RARE_BOUND {
                self.wide = true;
                continue;
            }
            let side = if i % 2 == 0 {
                &mut self.even
            } else {
                &mut self.odd
            };
            if side.len() <= v as usize {
                side.resize(v as usize + 1, 0);
            }
            side[v as usize] += 1;
        }
        self.counted = self.counted.max(len);
    }

    /// How many of the counted heaps `rare(parity, value)` calls rare, with
    /// `parity` 0 for even heaps and 1 for odd ones (values below
    /// [`MAX_RARE_BOUND`] only).
    pub(super) fn heaps_where(&self, rare: impl Fn(usize, u32) -> bool) -> usize {
        [&self.even, &self.odd]
            .into_iter()
            .enumerate()
            .map(|(parity, side)| {
                (side.iter().enumerate())
                    .filter(|&(v, _)| rare(parity, v as u32))
                    .map(|(_, &count)| count as usize)
                    .sum::<usize>()
            })
            .sum()
    }

    /// The counts of heaps `1..len` of a table.
    pub(super) fn of(len: usize, value: impl Fn(usize) -> u32) -> ValueCounts {
        let mut counts = ValueCounts::default();
        counts.count(len, value);
        counts
    }

    /// The largest value counted (0 for none), or `None` when some value is
    /// [`MAX_RARE_BOUND`] or more.
    pub(super) fn max(&self) -> Option<u32> {
        if self.wide {
            return None;
        }
        let top = |counts: &[u64]| counts.iter().rposition(|&c| c > 0).unwrap_or(0);
        Some(top(&self.even).max(top(&self.odd)) as u32)
    }

    /// Heaps with value `v`.
    pub(super) fn heaps_with(&self, v: usize) -> u64 {
        self.even.get(v).copied().unwrap_or(0) + self.odd.get(v).copied().unwrap_or(0)
    }
}

/// In-place Walsh-Hadamard transform: `a[m] = sum_v h[v] * (-1)^parity(v & m)`.
pub(super) fn walsh_hadamard(a: &mut [i64]) {
    let mut h = 1;
    while h < a.len() {
        for i in (0..a.len()).step_by(h * 2) {
            for j in i..i + h {
                let (x, y) = (a[j], a[j + h]);
                a[j] = x + y;
                a[j + h] = x - y;
            }
        }
        h *= 2;
    }
}

/// Words whose bit `v` is the parity of `v & mask`, for values below [`MAX_RARE_BOUND`].
pub(super) fn parity_words(mask: u32) -> Vec<u64> {
    let mut words = vec![0u64; MAX_RARE_BOUND as usize / 64];
    for v in 0..MAX_RARE_BOUND {
        if (v & mask).count_ones() & 1 == 1 {
            words[(v >> 6) as usize] |= 1 << (v & 63);
        }
    }
    words
}
