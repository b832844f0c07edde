//! The transposition table of the search solver: what is known of each
//! component met so far, in a fixed memory budget.
//!
//! Each entry holds a component's canonical key and one word of knowledge:
//! its exact nimber if known, a mask of the small nimbers it is known *not*
//! to have (what a failed "is G + *k a second-player win?" test leaves), and
//! the rough amount of work the entry cost (log2 of the positions searched).
//! The table is open-addressed in buckets of four slots. It starts small and
//! doubles while under budget; once at its budget, a new entry replaces the
//! cheapest one in its bucket, so the most expensive knowledge survives and
//! memory never grows past what was allowed.
//!
//! Threads searching together share one table. Its words are atomics, and
//! once [`Table::set_shared`] is on, buckets are guarded by a seqlock per
//! stripe of buckets: a writer holds its stripe's lock (odd count) while it
//! changes a bucket; a reader reads without waiting and takes what it read
//! as unknown if the count was odd or changed meanwhile, so no torn entry is
//! ever believed (an unknown entry only costs a search). Growing, saving
//! and loading need the table alone (`&mut`), which the solver arranges.
//!
//! Tables are saved to and loaded from files (atomic, checksummed) so that a
//! search of hours survives Ctrl-C and crashes.

use super::bits::Bits;
use crate::error::{Error, Result};
use std::path::Path;
use std::sync::atomic::{fence, AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};

const WAYS: usize = 4;
const USED: u64 = 1 << 63;
const NOT_MASK: u64 = 0xFFFF_FFFF;
const EXACT_SHIFT: u32 = 32;
const WORK_SHIFT: u32 = 48;
/// Seqlocks, one per stripe of buckets (16 KiB: they stay in cache).
const STRIPES: usize = 4096;

/// The largest nimber an entry records exactly (larger ones are recomputed).
pub const MAX_EXACT: u32 = 0xFFFE;
/// Nimbers below this can be recorded as excluded.
pub const NOT_BITS: u32 = 32;

/// Nimber `k`'s bit in a "not" mask: none for nimbers the mask does not
/// hold.
#[inline]
pub fn not_bit(k: u32) -> u32 {
    1u32.checked_shl(k).unwrap_or(0)
}

/// What the table knows of one component.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Knowledge {
    /// The nimber, if known.
    pub exact: Option<u32>,
    /// Bit k set: the nimber is known not to be k (k < 32).
    pub not: u32,
}

/// Four slots side by side: for 64-bit keys, one cache line, so a probe
/// costs one memory access. All zero bytes: four empty slots.
#[repr(C, align(64))]
struct Bucket<K: Bits> {
    keys: [K::Cell; WAYS],
    meta: [AtomicU64; WAYS],
}

/// Zeroed buckets (all-zero bytes are empty buckets) in memory of their
/// own, with room reserved to double in place: the pages past the buckets
/// in use are not touched, so they cost no memory until the table grows
/// into them, and growing moves only the entries that change bucket.
/// Linux is asked to back the memory with huge pages: the table is probed
/// at random, and with 4 KiB pages most probes would also miss the TLB.
struct Slab<K: Bits> {
    ptr: std::ptr::NonNull<Bucket<K>>,
    len: usize,
    room: usize,
}

// SAFETY: a slab owns its buckets, whose fields are atomics.
unsafe impl<K: Bits> Send for Slab<K> {}
// SAFETY: as above; shared access goes through the atomics.
unsafe impl<K: Bits> Sync for Slab<K> {}

impl<K: Bits> Slab<K> {
    /// `len` empty buckets, with room for `room` if the system lends that
    /// much address space.
    fn new(len: usize, room: usize) -> Self {
        if room > len {
            if let Some(slab) = Self::map(len, room) {
                return slab;
            }
        }
        Self::map(len, len).unwrap_or_else(|| {
            std::alloc::handle_alloc_error(
                std::alloc::Layout::array::<Bucket<K>>(len).expect("table size fits"),
            )
        })
    }

    #[cfg(unix)]
    fn map(len: usize, room: usize) -> Option<Self> {
        let bytes = room.checked_mul(std::mem::size_of::<Bucket<K>>())?;
        #[cfg(target_os = "linux")]
        let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;
        #[cfg(not(target_os = "linux"))]
        let flags = libc::MAP_PRIVATE | libc::MAP_ANON;
        // SAFETY: a fresh anonymous mapping (zeroed pages, page-aligned, so
        // aligned for buckets); nothing else refers to it.
        unsafe {
            let p = libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                flags,
                -1,
                0,
            );
            if p == libc::MAP_FAILED {
                return None;
            }
            #[cfg(target_os = "linux")]
            if bytes >= 4 << 20 {
                libc::madvise(p, bytes, libc::MADV_HUGEPAGE);
            }
            Some(Slab {
                ptr: std::ptr::NonNull::new(p as *mut Bucket<K>)?,
                len,
                room,
            })
        }
    }

    #[cfg(not(unix))]
    fn map(len: usize, _room: usize) -> Option<Self> {
        let layout = std::alloc::Layout::array::<Bucket<K>>(len).ok()?;
        // SAFETY: the layout is not empty (at least one bucket).
        let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut Bucket<K>;
        Some(Slab {
            ptr: std::ptr::NonNull::new(p)?,
            len,
            room: len,
        })
    }

    /// Doubles the buckets in use, if there is room; the new ones are empty.
    fn double(&mut self) -> bool {
        if self.len * 2 > self.room {
            return false;
        }
        self.len *= 2;
        true
    }
}

impl<K: Bits> std::ops::Deref for Slab<K> {
    type Target = [Bucket<K>];
    fn deref(&self) -> &[Bucket<K>] {
        // SAFETY: `len` zeroed (valid, empty) buckets or buckets written
        // since, owned by the slab.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<K: Bits> Drop for Slab<K> {
    fn drop(&mut self) {
        // SAFETY: the memory was obtained as `map` says, with this size.
        unsafe {
            #[cfg(unix)]
            libc::munmap(
                self.ptr.as_ptr() as *mut libc::c_void,
                self.room * std::mem::size_of::<Bucket<K>>(),
            );
            #[cfg(not(unix))]
            std::alloc::dealloc(
                self.ptr.as_ptr() as *mut u8,
                std::alloc::Layout::array::<Bucket<K>>(self.room).expect("table size fits"),
            );
        }
    }
}

/// A transposition table with a memory budget and a replacement policy.
pub struct Table<K: Bits> {
    buckets: Slab<K>,
    buckets_mask: usize,
    max_slots: usize,
    /// Set when an insertion found the table due to double.
    wants_growth: AtomicBool,
    /// Whether other threads may write at the same time.
    shared: bool,
    stripes: Vec<AtomicU32>,
    counts: Counts,
}

/// Counts every insertion changes, on a cache line of their own so that
/// writing them does not evict the fields every probe reads from the other
/// threads' caches. Threads may lose an increment of each other's: they
/// are statistics and a hint to double, nothing is decided by them.
#[repr(align(128))]
#[derive(Default)]
struct Counts {
    len: AtomicUsize,
    replaced: AtomicU64,
}

/// Bytes one slot takes for keys of type `K`.
pub fn slot_bytes<K: Bits>() -> usize {
    std::mem::size_of::<Bucket<K>>() / WAYS
}

impl<K: Bits> Table<K> {
    /// A table that will use at most `bytes` of memory.
    pub fn new(bytes: usize) -> Result<Self> {
        let cap = bytes / slot_bytes::<K>();
        if cap < 1024 {
            return Err(Error::invalid(format!(
                "a transposition table of {bytes} bytes holds too few positions to search; give --tt-size at least {}",
                1024 * slot_bytes::<K>()
            )));
        }
        // The largest power-of-two number of buckets within budget.
        let max_buckets = 1usize << (usize::BITS - 1 - (cap / WAYS).leading_zeros());
        let max_slots = max_buckets * WAYS;
        let start = max_slots.min(1 << 14);
        Ok(Table {
            buckets: Slab::new(start / WAYS, max_buckets),
            buckets_mask: start / WAYS - 1,
            max_slots,
            counts: Counts::default(),
            wants_growth: AtomicBool::new(false),
            shared: false,
            stripes: (0..STRIPES).map(|_| AtomicU32::new(0)).collect(),
        })
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.counts.len.load(Ordering::Relaxed)
    }

    /// Whether nothing is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entries replaced since the start because the table was full.
    pub fn replaced(&self) -> u64 {
        self.counts.replaced.load(Ordering::Relaxed)
    }

    /// The most entries the budget allows.
    pub fn capacity(&self) -> usize {
        self.max_slots
    }

    /// Turns the stripe locks on (threads will write at the same time) or
    /// off (one thread alone).
    pub fn set_shared(&mut self, shared: bool) {
        self.shared = shared;
    }

    /// Whether an insertion found the table due to double ([`Self::grow`]).
    #[inline]
    pub fn wants_growth(&self) -> bool {
        self.wants_growth.load(Ordering::Relaxed)
    }

    fn slots(&self) -> usize {
        self.buckets.len() * WAYS
    }

    #[inline]
    fn bucket(&self, key: K) -> usize {
        key.mix() as usize & self.buckets_mask
    }

    /// Asks the processor to fetch `key`'s bucket, to be read soon.
    #[inline]
    pub fn prefetch(&self, key: K) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = &self.buckets[self.bucket(key)] as *const Bucket<K> as *const i8;
            // SAFETY: a prefetch is only a hint; the address is valid.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p)
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What is known of `key`.
    #[inline]
    pub fn get(&self, key: K) -> Knowledge {
        let bi = self.bucket(key);
        if !self.shared {
            return self.probe(bi, key);
        }
        let stripe = &self.stripes[bi % STRIPES];
        let before = stripe.load(Ordering::Acquire);
        if before & 1 != 0 {
            return Knowledge::default();
        }
        let known = self.probe(bi, key);
        fence(Ordering::Acquire);
        if stripe.load(Ordering::Relaxed) != before {
            return Knowledge::default();
        }
        known
    }

    #[inline]
    fn probe(&self, bi: usize, key: K) -> Knowledge {
        // An absent key reads as the empty word, which decodes to nothing
        // known: no branch on whether the table holds it.
        decode(self.word_or_empty(bi, key))
    }

    /// The knowledge word of `key` in bucket `bi`, if held.
    #[inline]
    fn word(&self, bi: usize, key: K) -> Option<u64> {
        Some(self.word_or_empty(bi, key)).filter(|&m| m != 0)
    }

    /// The knowledge word of `key` in bucket `bi`, or 0 if not held.
    #[inline]
    fn word_or_empty(&self, bi: usize, key: K) -> u64 {
        let b = &self.buckets[bi];
        // Every way compared, without branches: which way holds the key is
        // unpredictable, and a mispredicted branch costs more than the
        // three extra comparisons.
        let mut found = 0;
        for i in 0..WAYS {
            let m = b.meta[i].load(Ordering::Relaxed);
            let hit = (K::load(&b.keys[i]) == key) as u64;
            found |= m & hit.wrapping_neg();
        }
        found & (found >> 63).wrapping_neg()
    }

    /// Records that `key` has nimber `nimber`; `work` is the positions it cost.
    pub fn set_exact(&self, key: K, nimber: u32, work: u64) {
        if nimber > MAX_EXACT {
            return;
        }
        self.update(key, work, |m| {
            (m & !(0xFFFF << EXACT_SHIFT)) | (((nimber as u64) + 1) << EXACT_SHIFT)
        });
    }

    /// Records that `key` does not have nimber `k`.
    pub fn set_not(&self, key: K, k: u32, work: u64) {
        self.set_nots(key, not_bit(k), work);
    }

    /// Records that `key` has none of the nimbers whose bits are in `mask`
    /// (nimbers below [`NOT_BITS`]).
    pub fn set_nots(&self, key: K, mask: u32, work: u64) {
        if mask != 0 {
            self.update(key, work, |m| m | mask as u64);
        }
    }

    fn update(&self, key: K, work: u64, change: impl Fn(u64) -> u64) {
        let bi = self.bucket(key);
        if !self.shared {
            return self.update_in(bi, key, work, change);
        }
        let stripe = &self.stripes[bi % STRIPES];
        loop {
            let count = stripe.load(Ordering::Relaxed);
            if count & 1 == 0
                && stripe
                    .compare_exchange_weak(count, count + 1, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
            {
                break;
            }
            std::hint::spin_loop();
        }
        fence(Ordering::Release);
        self.update_in(bi, key, work, change);
        stripe.fetch_add(1, Ordering::Release);
    }

    /// [`Self::update`] in bucket `bi`, which no other thread writes.
    fn update_in(&self, bi: usize, key: K, work: u64, change: impl Fn(u64) -> u64) {
        let work = (64 - work.leading_zeros()) as u64; // log2, 0..=64
        let b = &self.buckets[bi];
        let mut free = None;
        let mut cheapest = 0;
        let mut cheapest_work = u64::MAX;
        for i in 0..WAYS {
            let m = b.meta[i].load(Ordering::Relaxed);
            if m & USED == 0 {
                free.get_or_insert(i);
                continue;
            }
            if K::load(&b.keys[i]) == key {
                let old_work = (m >> WORK_SHIFT) & 0x7F;
                let new = change(m);
                b.meta[i].store(
                    (new & !(0x7F << WORK_SHIFT)) | (old_work.max(work) << WORK_SHIFT),
                    Ordering::Relaxed,
                );
                return;
            }
            let w = (m >> WORK_SHIFT) & 0x7F;
            if w < cheapest_work {
                cheapest_work = w;
                cheapest = i;
            }
        }
        // Doubling at half full keeps buckets rarely full; a full bucket
        // below that replaces its cheapest entry rather than doubling the
        // memory for one unlucky bucket. The doubling itself waits for the
        // solver ([`Self::grow`]).
        if self.slots() < self.max_slots && self.len() * 2 >= self.slots() {
            self.wants_growth.store(true, Ordering::Relaxed);
        }
        let slot = match free {
            Some(i) => {
                let len = &self.counts.len;
                len.store(len.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
                i
            }
            None => {
                let replaced = &self.counts.replaced;
                replaced.store(replaced.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
                cheapest
            }
        };
        K::store(&b.keys[slot], key);
        b.meta[slot].store(change(USED) | (work << WORK_SHIFT), Ordering::Relaxed);
    }

    /// Doubles the table if an insertion asked for it and the budget allows.
    pub fn grow(&mut self) {
        self.wants_growth.store(false, Ordering::Relaxed);
        if self.slots() >= self.max_slots {
            return;
        }
        let half = self.buckets.len();
        if self.buckets.double() {
            // In place: the entries of bucket i that the wider mask sends
            // to the new bucket i + half move there (they fit: four at
            // most); the others stay.
            self.buckets_mask = 2 * half - 1;
            let (low, high) = self.buckets.split_at(half);
            for (i, (b, to)) in low.iter().zip(high).enumerate() {
                let mut free = 0;
                for j in 0..WAYS {
                    let m = b.meta[j].load(Ordering::Relaxed);
                    let key = K::load(&b.keys[j]);
                    if m & USED != 0 && key.mix() as usize & self.buckets_mask != i {
                        K::store(&to.keys[free], key);
                        to.meta[free].store(m, Ordering::Relaxed);
                        b.meta[j].store(0, Ordering::Relaxed);
                        free += 1;
                    }
                }
            }
            return;
        }
        let slots = (self.slots() * 2).min(self.max_slots);
        let old = std::mem::replace(&mut self.buckets, Slab::new(slots / WAYS, 0));
        self.buckets_mask = slots / WAYS - 1;
        self.counts.len.store(0, Ordering::Relaxed);
        for b in old.iter() {
            for i in 0..WAYS {
                let m = b.meta[i].load(Ordering::Relaxed);
                if m & USED != 0 {
                    self.insert_raw(K::load(&b.keys[i]), m);
                }
            }
        }
    }

    /// Puts a whole entry back (growing, loading), replacing if needed.
    fn insert_raw(&mut self, key: K, m: u64) {
        let bi = self.bucket(key);
        let b = &self.buckets[bi];
        let mut cheapest = 0;
        let mut cheapest_work = u64::MAX;
        for i in 0..WAYS {
            let mi = b.meta[i].load(Ordering::Relaxed);
            if mi & USED == 0 {
                K::store(&b.keys[i], key);
                b.meta[i].store(m, Ordering::Relaxed);
                *self.counts.len.get_mut() += 1;
                return;
            }
            if K::load(&b.keys[i]) == key {
                b.meta[i].store(m, Ordering::Relaxed);
                return;
            }
            let w = (mi >> WORK_SHIFT) & 0x7F;
            if w < cheapest_work {
                cheapest_work = w;
                cheapest = i;
            }
        }
        if ((m >> WORK_SHIFT) & 0x7F) > cheapest_work {
            K::store(&b.keys[cheapest], key);
            b.meta[cheapest].store(m, Ordering::Relaxed);
        }
    }

    /// Every entry whose work is at least 2^`min_log2` positions, as (key,
    /// knowledge word): the facts worth sending to another process.
    pub fn facts(&self, min_log2: u32) -> Vec<(K, u64)> {
        let mut out = Vec::new();
        for b in self.buckets.iter() {
            for i in 0..WAYS {
                let m = b.meta[i].load(Ordering::Relaxed);
                if m & USED != 0 && ((m >> WORK_SHIFT) & 0x7F) as u32 >= min_log2 {
                    out.push((K::load(&b.keys[i]), m));
                }
            }
        }
        out
    }

    /// The knowledge word of `key`, if held (as [`Self::facts`] gives it).
    pub fn fact(&self, key: K) -> Option<u64> {
        self.word(self.bucket(key), key)
    }

    /// Adds a fact learned elsewhere (a word from [`Self::facts`]): the
    /// nimbers excluded add up, an exact nimber is kept, and the larger
    /// work stays. Words without the used mark are refused.
    pub fn merge(&self, key: K, m: u64) -> bool {
        if m & USED == 0 {
            return false;
        }
        // The word keeps log2 of the work as the bit length: back to a count
        // of that length.
        let work = match ((m >> WORK_SHIFT) & 0x7F).min(64) {
            0 => 0,
            w => 1u64 << (w - 1),
        };
        let exact = (m >> EXACT_SHIFT) & 0xFFFF;
        self.update(key, work, |old| {
            let mut new = old | (m & NOT_MASK);
            if exact != 0 {
                new = (new & !(0xFFFF << EXACT_SHIFT)) | (exact << EXACT_SHIFT);
            }
            new
        });
        true
    }

    /// Writes the table to `path` atomically, tagged with `spec`.
    pub fn save(&self, path: &Path, spec: &str) -> Result<()> {
        crate::heap::checkpoint::save_blob(path, TT_MAGIC, |out| {
            out(&TT_VERSION.to_le_bytes())?;
            out(&(spec.len() as u32).to_le_bytes())?;
            out(spec.as_bytes())?;
            out(&[std::mem::size_of::<K>() as u8])?;
            out(&(self.len() as u64).to_le_bytes())?;
            let mut buf = Vec::with_capacity(1 << 16);
            for (cell, m) in self
                .buckets
                .iter()
                .flat_map(|b| b.keys.iter().zip(b.meta.iter()))
            {
                let m = m.load(Ordering::Relaxed);
                if m & USED == 0 {
                    continue;
                }
                let key = K::load(cell);
                buf.extend_from_slice(&key.to_u128().to_le_bytes()[..std::mem::size_of::<K>()]);
                buf.extend_from_slice(&m.to_le_bytes());
                if buf.len() >= 1 << 16 {
                    out(&buf)?;
                    buf.clear();
                }
            }
            out(&buf)
        })
    }

    /// Loads the entries saved in `path` for `spec`; returns how many, or
    /// `Ok(None)` if there is no such file yet.
    pub fn load(&mut self, path: &Path, spec: &str) -> Result<Option<usize>> {
        let Some(body) = crate::heap::checkpoint::load_blob(path, TT_MAGIC)? else {
            return Ok(None);
        };
        let refuse = |why: &str| {
            Error::invalid(format!(
                "refusing transposition table {}: {why}",
                path.display()
            ))
        };
        let mut at = 0;
        let mut take = |n: usize| -> Result<&[u8]> {
            let s = body
                .get(at..at + n)
                .ok_or_else(|| refuse("it is truncated"))?;
            at += n;
            Ok(s)
        };
        let version = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
        if version != TT_VERSION {
            return Err(refuse(&format!(
                "it was written by format version {version}, this grundy reads version {TT_VERSION}"
            )));
        }
        let spec_len = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize;
        let saved = String::from_utf8_lossy(take(spec_len)?).into_owned();
        if saved != spec {
            return Err(refuse(&format!("it is for {saved}, not {spec}")));
        }
        let width = take(1)?[0] as usize;
        if width != std::mem::size_of::<K>() {
            return Err(refuse("it was written for another board size"));
        }
        let count = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes")) as usize;
        while count * 2 >= self.slots() && self.slots() < self.max_slots {
            self.grow();
        }
        self.wants_growth.store(false, Ordering::Relaxed);
        for _ in 0..count {
            let kb = take(width)?;
            let mut full = [0u8; 16];
            full[..width].copy_from_slice(kb);
            let key = K::from_u128(u128::from_le_bytes(full));
            let m = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
            if m & USED == 0 {
                return Err(refuse("it is corrupted"));
            }
            self.insert_raw(key, m);
        }
        Ok(Some(count))
    }
}

/// The engine a table saved in `path` is for, read from the file's
/// header alone (`Ok(None)` if there is no such file yet): an engine that
/// keeps no table checks with it that the file is its own all the same.
pub fn saved_spec(path: &Path) -> Result<Option<String>> {
    use std::io::Read;
    crate::files::target(path, crate::files::Allow::RegularOnly)?;
    let refuse = |why: &str| {
        Error::invalid(format!(
            "refusing transposition table {}: {why}",
            path.display()
        ))
    };
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::Io(format!("cannot read {}: {e}", path.display()))),
    };
    let mut head = vec![0u8; TT_MAGIC.len() + 8];
    if file.read_exact(&mut head).is_err() || &head[..TT_MAGIC.len()] != TT_MAGIC {
        return Err(refuse("it is not a table saved by grundy"));
    }
    let at = TT_MAGIC.len();
    let version = u32::from_le_bytes(head[at..at + 4].try_into().expect("4 bytes"));
    if version != TT_VERSION {
        return Err(refuse(&format!(
            "it was written by format version {version}, this grundy reads version {TT_VERSION}"
        )));
    }
    let spec_len = u32::from_le_bytes(head[at + 4..at + 8].try_into().expect("4 bytes"));
    let mut spec = vec![0u8; spec_len.min(1 << 12) as usize];
    file.read_exact(&mut spec)
        .map_err(|_| refuse("it is truncated"))?;
    Ok(Some(String::from_utf8_lossy(&spec).into_owned()))
}

const TT_MAGIC: &[u8] = b"GRUNDY-TRANSPOSITION-TABLE\n";
const TT_VERSION: u32 = 2;

fn decode(m: u64) -> Knowledge {
    let e = ((m >> EXACT_SHIFT) & 0xFFFF) as u32;
    Knowledge {
        exact: (e != 0).then(|| e - 1),
        not: (m & NOT_MASK) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_replaces_and_round_trips() {
        let mut t: Table<u64> = Table::new(1 << 20).unwrap();
        t.set_not(7, 0, 10);
        t.set_not(7, 2, 10);
        assert_eq!(
            t.get(7),
            Knowledge {
                exact: None,
                not: 0b101
            }
        );
        t.set_exact(7, 3, 100);
        assert_eq!(t.get(7).exact, Some(3));
        assert_eq!(t.get(8), Knowledge::default());
        // Far more entries than fit: the table stays within budget.
        for k in 1..200_000u64 {
            t.set_exact(k * 7919, (k % 5) as u32, k % 97);
            if t.wants_growth() {
                t.grow();
            }
        }
        assert!(t.len() <= t.capacity());
        assert!(t.replaced() > 0);
        for k in 1..200_000u64 {
            if let Some(v) = t.get(k * 7919).exact {
                assert_eq!(v, (k % 5) as u32);
            }
        }
        let dir = std::env::temp_dir().join(format!("grundy-tt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.tt");
        t.save(&path, "cram 3x3").unwrap();
        let mut u: Table<u64> = Table::new(1 << 20).unwrap();
        assert_eq!(u.load(&path, "cram 3x3").unwrap(), Some(t.len()));
        for k in 1..200_000u64 {
            assert_eq!(u.get(k * 7919), t.get(k * 7919));
        }
        let err = u.load(&path, "chomp 3x3").unwrap_err().to_string();
        assert!(err.contains("it is for cram 3x3"), "{err}");
        assert!(Table::<u64>::new(100).is_err());
    }

    #[test]
    fn doubling_keeps_every_entry() {
        // From 16,384 slots to 262,144, in place: each entry lost is one
        // counted as replaced (a full bucket before the table doubled).
        fn check<K: Bits>(key: impl Fn(u64) -> K) {
            let mut t: Table<K> = Table::new(1 << 24).unwrap();
            let n = 100_000u64;
            for i in 0..n {
                t.set_exact(key(i), (i % 7) as u32, i);
                t.set_not(key(i), 9, i);
                if t.wants_growth() {
                    t.grow();
                }
            }
            assert!(t.slots() >= 1 << 18);
            let mut found = 0;
            for i in 0..n {
                let k = t.get(key(i));
                if let Some(v) = k.exact {
                    assert_eq!((v, k.not), ((i % 7) as u32, 1 << 9));
                    found += 1;
                }
            }
            assert_eq!(found + t.replaced(), n);
            assert_eq!(t.len() as u64, found);
        }
        check(|i| i * 0x9E37_79B9 + 1);
        check(|i| ((i as u128) << 70) | i as u128 | 1);
    }

    #[test]
    fn threads_never_read_a_torn_entry() {
        // A small shared table, four threads writing and reading the same
        // keys at once: every entry read is one some thread wrote.
        let mut t: Table<u128> = Table::new(1 << 16).unwrap();
        t.set_shared(true);
        let value = |k: u128| (k % 3_000) as u32;
        std::thread::scope(|s| {
            for id in 0..4u128 {
                let t = &t;
                s.spawn(move || {
                    for i in 0..300_000u128 {
                        // Few keys for few buckets: constant replacement,
                        // and each thread reads what the others write.
                        let k = ((i + id) % 3_000) << 70 | ((i + id) % 3_000);
                        t.set_exact(k, value(k), i as u64 % 50);
                        let probe = ((i + 1) % 3_000) << 70 | ((i + 1) % 3_000);
                        let known = t.get(probe);
                        if let Some(v) = known.exact {
                            assert_eq!(v, value(probe));
                        }
                    }
                });
            }
        });
        assert!(t.len() <= t.capacity());
    }
}
