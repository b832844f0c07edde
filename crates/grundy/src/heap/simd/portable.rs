//! The search for wanted values in plain Rust, for any processor: the same
//! plan as [`super::avx2`] (the few values still wanted compared with 16
//! splits' values at a time) written over fixed-size arrays, which compilers
//! turn into vector code of whatever width the target has (SSE2, NEON).

use super::{Wanted, SIMD_BOUND};

/// At most this many wanted values are compared at once; with more, splits
/// are looked at one by one until enough are found.
const MAX_COMPARED: usize = 8;

/// Splits per step.
const STEP: usize = 16;

/// [`super::search_to`]'s loop without vector code: steps of 16 splits
/// from `a` while `a + 15 <= half`; returns the first split not looked at
/// (or one past the step whose hit emptied the set).
///
/// Panics unless `half <= m / 2` and `m <= table.len()`.
#[inline(always)]
pub fn search(table: &[u16], m: usize, mut a: usize, half: usize, want: &mut Wanted) -> usize {
    assert!(half <= m / 2 && m <= table.len());
    while want.count > 0 && a + STEP - 1 <= half {
        if want.count > MAX_COMPARED {
            a = probe(table, m, a, half, want);
            continue;
        }
        let mut values = [0u16; MAX_COMPARED];
        let count = want.list(&mut values);
        let values = &values[..count];
        a = match count {
            1 => compare::<1>(table, m, a, half, values, want),
            2 => compare::<2>(table, m, a, half, values, want),
            3 | 4 => compare::<4>(table, m, a, half, values, want),
            _ => compare::<8>(table, m, a, half, values, want),
        };
    }
    a
}

/// Steps of 16 splits looking each split's value up in a copy of the set
/// with a byte a value (reads only: a step's values are taken out one by one
/// only when one of them hits), until few values are left (returns the next
/// split) or `a + 15 > half` (returns `a`).
#[inline(always)]
pub(super) fn probe(table: &[u16], m: usize, a: usize, half: usize, want: &mut Wanted) -> usize {
    MIRROR.with_borrow_mut(|mirror| {
        if want.mirror == 0 || want.mirror != mirror.holder {
            mirror.hold(want);
        }
        probe_with(&mut mirror.bytes, table, m, a, half, want)
    })
}

/// The set as one byte a value for [`probe`]: a lookup is one load, where
/// a bit needs a shift by a variable amount, which SSE2 does not have.
///
/// The copy is filled for one set at a time, its holder, and kept between
/// calls: a heap's search probes its splits in many spans (the search
/// order's turns), and filling and clearing up to 4 KB for each span had
/// cost `0.007` a tenth of its time. Values the holder takes out in
/// [`probe`] are cleared here too; those it takes elsewhere stay, and are
/// only found again and checked exactly. The next set to probe clears what
/// the holder filled before it fills its own.
struct Mirror {
    bytes: [u8; SIMD_BOUND as usize],
    /// The holder's [`Wanted::mirror`] (0: none).
    holder: u64,
    /// The holder's words when it filled the copy, and how many bits.
    filled: [u16; 256],
    filled_count: usize,
}

impl Mirror {
    /// Makes `want` the holder.
    fn hold(&mut self, want: &mut Wanted) {
        if self.holder != 0 {
            super::set_bytes(&self.filled, self.filled_count, &mut self.bytes, 0);
        }
        super::set_bytes(&want.words, want.count, &mut self.bytes, 1);
        (self.filled, self.filled_count) = (want.words, want.count);
        // Unique across threads: a set that moved to another thread never
        // takes that thread's copy for its own.
        self.holder = FILLINGS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        want.mirror = self.holder;
    }
}

/// How many times a [`Mirror`] has been filled, on any thread.
static FILLINGS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

thread_local! {
    static MIRROR: std::cell::RefCell<Mirror> = const {
        std::cell::RefCell::new(Mirror {
            bytes: [0; SIMD_BOUND as usize],
            holder: 0,
            filled: [0; 256],
            filled_count: 0,
        })
    };
}

/// [`probe`] with the set's bytes at hand.
#[inline(always)]
fn probe_with(
    bytes: &mut [u8; SIMD_BOUND as usize],
    table: &[u16],
    m: usize,
    mut a: usize,
    half: usize,
    want: &mut Wanted,
) -> usize {
    while a + STEP - 1 <= half {
        let up: &[u16; STEP] = table[a..a + STEP].try_into().expect("16 values");
        let down: &[u16; STEP] = table[m - a - (STEP - 1)..=m - a]
            .try_into()
            .expect("16 values");
        let mut hit = 0u8;
        for i in 0..STEP {
            let v = up[i] ^ down[STEP - 1 - i];
            // Values of 4096 and more alias here: `take` checks exactly.
            hit |= bytes[usize::from(v) & (SIMD_BOUND as usize - 1)];
        }
        if hit != 0 {
            // The count in a register: through memory, each hit would wait
            // for the one before.
            let mut left = want.count;
            for i in 0..STEP {
                let v = up[i] ^ down[STEP - 1 - i];
                if want.take_uncounted(u32::from(v)) {
                    bytes[usize::from(v)] = 0;
                    left -= 1;
                }
            }
            want.count = left;
            if want.count <= MAX_COMPARED {
                return a + STEP;
            }
        }
        a += STEP;
    }
    a
}

/// Steps of 16 splits comparing each split's value with `values` (at most
/// `K`, repeated to fill `K`) until a step hits: its values are taken out
/// of `want` and the next split is returned (or `a` once `a + 15 > half`).
#[inline(always)]
fn compare<const K: usize>(
    table: &[u16],
    m: usize,
    mut a: usize,
    half: usize,
    values: &[u16],
    want: &mut Wanted,
) -> usize {
    let wanted: [u16; K] = std::array::from_fn(|i| values[i % values.len()]);
    while a + STEP - 1 <= half {
        // a + 15 <= half <= m - a - 15: both runs are inside the table.
        let up: &[u16; STEP] = table[a..a + STEP].try_into().expect("16 values");
        let down: &[u16; STEP] = table[m - a - (STEP - 1)..=m - a]
            .try_into()
            .expect("16 values");
        let mut hit = 0u16;
        for i in 0..STEP {
            let v = up[i] ^ down[STEP - 1 - i];
            for w in wanted {
                hit |= (v == w) as u16;
            }
        }
        if hit != 0 {
            for i in 0..STEP {
                want.take(u32::from(up[i] ^ down[STEP - 1 - i]));
            }
            return a + STEP;
        }
        a += STEP;
    }
    a
}
