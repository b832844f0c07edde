//! Long tables at one byte a heap.
//!
//! When a split's mask has bit 8 and every value is below 512, a common
//! value `v` (an odd number of 1s in `v & mask`) is its low eight bits and
//! nothing more: bit 8 is whatever makes the parity odd. Past the rare heaps
//! the middle of a long table holds only common values, so it is kept as
//! those bytes, and the table's two-byte cells there are given back to the
//! system. The engine's loops read only the first heaps (the search's
//! first splits, the rare heaps) and the last ones (the partners of the rare
//! heaps, the search's splits from the top); both stay two bytes a heap. A
//! search that goes further reads the bytes ([`Far::value`]).

/// Heaps below this keep their two-byte cells.
pub(super) const PREFIX: usize = 1 << 22;

/// The last this many heaps keep their two-byte cells.
pub(super) const WINDOW: usize = 1 << 22;

/// Heaps are packed this many at a time, at least.
pub(super) const CHUNK: usize = 1 << 20;

/// A table whose cells `lo..hi` live as bytes.
#[derive(Debug, Clone)]
pub struct Packed {
    /// Every heap's two-byte cell at its own index; those of `lo..hi` are
    /// never read (their pages are given back where whole).
    pub(super) table: Vec<u16>,
    /// The first heap held as a byte.
    pub(super) lo: usize,
    /// The heap past the last one held as a byte.
    pub(super) hi: usize,
    /// The low eight bits of the values of heaps `lo..hi`.
    bytes: Vec<u8>,
    /// The low eight bits of the mask (bit 8 of the mask is set).
    mask: u8,
    /// Heaps packed at a time, at least.
    chunk: usize,
    /// The table's address and the heap up to which its pages were given
    /// back, to give them back again if the table moves.
    released: (usize, usize),
}

/// What a search needs to read the packed heaps.
#[derive(Debug, Clone, Copy)]
pub(super) struct Far<'a> {
    lo: usize,
    hi: usize,
    bytes: &'a [u8],
    mask: u8,
}

/// Whether a split's common values below 512 are their low bytes (see
/// the module): a parity split whose mask has bit 8.
pub(super) fn bytes_hold(split: &super::Split) -> bool {
    split.free == 0 && split.mask & 0x100 != 0
}

/// The value whose low bits are `b` and that is common under a mask with
/// bit 8 and low bits `mask`.
#[inline]
pub(super) fn decode(b: u8, mask: u8) -> u32 {
    u32::from(b) | ((!(b & mask).count_ones() & 1) << 8)
}

impl Far<'_> {
    /// The value of heap `i`, from `table` or the bytes.
    #[inline]
    pub(super) fn value(&self, table: &[u16], i: usize) -> u32 {
        if (self.lo..self.hi).contains(&i) {
            decode(self.bytes[i - self.lo], self.mask)
        } else {
            u32::from(table[i])
        }
    }

    /// The largest `a` (at least 0) such that the splits `(a', m - a')` for
    /// `a'` in `1..=a` read only two-byte cells.
    #[inline]
    pub(super) fn resident_half(&self, m: usize) -> usize {
        if m < self.lo {
            m
        } else if m < self.hi {
            // Not the engine's case (its heaps are far above `hi`): the
            // bytes for all of them.
            0
        } else {
            self.lo.saturating_sub(1).min(m - self.hi)
        }
    }
}

impl Packed {
    /// A table with nothing packed yet, from heap `lo` on.
    pub(super) fn new(table: Vec<u16>, lo: usize, mask: u16, chunk: usize) -> Self {
        debug_assert!(mask & 0x100 != 0);
        Packed {
            table,
            lo,
            hi: lo,
            bytes: Vec::new(),
            mask: mask as u8,
            chunk,
            released: (0, lo),
        }
    }

    /// The search's view.
    pub(super) fn far(&self) -> Far<'_> {
        Far {
            lo: self.lo,
            hi: self.hi,
            bytes: &self.bytes,
            mask: self.mask,
        }
    }

    /// The table's cells, to extend, and the search's view of the bytes.
    pub(super) fn parts(&mut self) -> (&mut Vec<u16>, Far<'_>) {
        let far = Far {
            lo: self.lo,
            hi: self.hi,
            bytes: &self.bytes,
            mask: self.mask,
        };
        (&mut self.table, far)
    }

    /// Number of heaps.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The value of heap `n`.
    #[inline]
    pub fn get(&self, n: usize) -> u32 {
        self.far().value(&self.table, n)
    }

    /// Packs heaps from `hi` up to `to` (exclusive) while `common` says
    /// their value is common and it round-trips through a byte; returns
    /// false at the first that does not (packing stops there).
    pub(super) fn extend(&mut self, to: usize, common: impl Fn(usize, u32) -> bool) -> bool {
        if to > self.hi {
            self.bytes.reserve(to - self.hi);
        }
        // A chunk at a time, its cells given back before the next: a table
        // read back from a checkpoint is packed whole at once, and should
        // not hold its cells and its bytes together.
        while self.hi < to {
            let end = to.min(self.hi + CHUNK);
            for heap in self.hi..end {
                let v = u32::from(self.table[heap]);
                if v >= 512 || !common(heap, v) || decode(v as u8, self.mask) != v {
                    self.hi = heap;
                    self.release();
                    return false;
                }
                self.bytes.push(v as u8);
            }
            self.hi = end;
            self.release();
        }
        true
    }

    /// Whether `to` is far enough past `hi` to pack now.
    pub(super) fn worth(&self, to: usize) -> bool {
        to >= self.hi + self.chunk
    }

    /// Gives back the pages of the table's cells `lo..hi` (whole pages
    /// only), again from `lo` if the table moved since the last time.
    fn release(&mut self) {
        let base = self.table.as_ptr() as usize;
        let from = if self.released.0 == base {
            self.released.1
        } else {
            self.lo
        };
        release_cells(&mut self.table, from, self.hi);
        self.released = (base, self.hi);
    }

    /// Spoils the cells of the packed heaps, so that a test sees any read
    /// of them.
    #[cfg(test)]
    pub(super) fn spoil_cells(&mut self) {
        for cell in &mut self.table[self.lo..self.hi] {
            *cell ^= 0x55;
        }
    }

    /// The whole table in two-byte cells again.
    pub(super) fn unpack(self) -> Vec<u16> {
        let mut table = self.table;
        for (cell, &b) in table[self.lo..self.hi].iter_mut().zip(&self.bytes) {
            *cell = decode(b, self.mask) as u16;
        }
        table
    }

    /// Keeps heaps `..len` only.
    pub(super) fn truncate(mut self, len: usize) -> super::Values {
        if len >= self.hi {
            self.table.truncate(len);
            return super::Values::Packed(Box::new(self));
        }
        let mut table = self.unpack();
        table.truncate(len);
        super::Values::Narrow(table)
    }
}

/// Gives back to the system the whole pages of `table[from..to]`; the
/// cells read 0 afterwards (where the system supports it; elsewhere they
/// stay as they were).
fn release_cells(table: &mut [u16], from: usize, to: usize) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        if from >= to {
            return;
        }
        let base = table.as_mut_ptr() as usize;
        let start = (base + 2 * from).next_multiple_of(PAGE);
        let end = (base + 2 * to) / PAGE * PAGE;
        if end > start {
            // SAFETY: the range lies inside `table`'s allocation, which
            // this function borrows mutably; MADV_DONTNEED on private
            // anonymous memory only replaces its contents with zeros.
            // (Should the allocation not be anonymous, the call fails and
            // the memory stays as it was; nothing depends on it.)
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (table, from, to);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_common_value_below_512_round_trips_through_its_byte() {
        for mask in [0x100u16, 0x1EE, 0x1FF, 0x101] {
            for v in 0..512u32 {
                let common = (u32::from(mask) & v).count_ones() % 2 == 1;
                assert_eq!(
                    decode(v as u8, mask as u8) == v,
                    common,
                    "mask {mask:#x}, value {v}"
                );
            }
        }
    }

    #[test]
    fn packed_cells_read_back_and_unpack() {
        // Officers' mask, 494: a value is common when v & 494 has an odd
        // number of 1s.
        let common = |v: u32| (v & 494).count_ones() % 2 == 1;
        let values: Vec<u16> = (0..3_000_000u32)
            .map(|i| (u64::from(i) * 7919 % 512) as u16)
            .map(|v| if common(u32::from(v)) { v } else { v ^ 2 })
            .collect();
        assert!(values.iter().all(|&v| common(u32::from(v))));
        let mut packed = Packed::new(values.clone(), 1000, 494, CHUNK);
        assert!(packed.extend(2_500_000, |_, v| common(v)));
        assert_eq!(packed.hi, 2_500_000);
        for i in (0..values.len())
            .step_by(997)
            .chain([999, 1000, 2_499_999, 2_500_000])
        {
            assert_eq!(packed.get(i), u32::from(values[i]), "heap {i}");
        }
        let far = packed.far();
        assert_eq!(far.resident_half(2_999_999), 999);
        assert_eq!(far.resident_half(2_500_500), 500);
        assert_eq!(packed.unpack(), values);
    }

    #[test]
    fn packing_stops_at_the_first_value_a_byte_cannot_hold() {
        let mut table = vec![1u16; 3000];
        table[2000] = 0;
        let mut packed = Packed::new(table, 10, 0x101, CHUNK);
        assert!(!packed.extend(3000, |_, v| v & 0x101 != 0 && (v & 0x101).count_ones() == 1));
        assert_eq!(packed.hi, 2000);
        assert_eq!(packed.get(2000), 0);
        assert_eq!(packed.get(1999), 1);
    }
}
