//! `grundy-verify FILE.cert`: re-checks a certificate of Grundy values, and of
//! the period claimed for them, from the rules of the game alone.
//!
//! A certificate (written by `grundy period --certificate` or `grundy seq
//! --certificate`) is one line of JSON, a newline, then G(0), ..., G(N - 1) as
//! little-endian unsigned integers of `width` bytes. The format is described
//! in full in the guide's page "Certificate format". Nothing in the file is
//! trusted: this program parses the game's code itself, checks that every
//! value is the mex of the values of its options, and only then checks the
//! claimed period with the Guy-Smith periodicity theorem. It shares no code
//! with grundy.
//!
//! Reading order: [`main`], [`read`] (the file), [`Rules`] (what a move is),
//! [`Checker::check_heap`] (one value, and why the shortcut is sound),
//! [`check_claim`] (the period).
//!
//! Exit status: 0 verified; 1 refuted, naming the first wrong heap or the part
//! of the claim that fails; 2 the file cannot be read as a certificate.

use std::io::{BufRead, BufReader, IsTerminal, Read, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const FORMAT: &str = "grundy-certificate-1";
/// The header line is short; a longer one is not a certificate.
const MAX_HEADER: u64 = 1 << 20;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = match args.as_slice() {
        [flag] if flag == "--help" || flag == "-h" => {
            println!("usage: grundy-verify FILE.cert\n\nRe-checks every Grundy value of a certificate written by `grundy period --certificate` or `grundy seq --certificate` from the game's rules, then its period claim.\nExit status: 0 verified, 1 refuted, 2 unreadable.");
            return ExitCode::SUCCESS;
        }
        [flag] if flag == "--version" || flag == "-V" => {
            println!("grundy-verify {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        [path] if !path.starts_with('-') => path.clone(),
        _ => {
            eprintln!("grundy-verify: usage: grundy-verify FILE.cert");
            return ExitCode::from(2);
        }
    };
    let (header, values) = match read(&path) {
        Ok(read) => read,
        Err(message) => {
            eprintln!("grundy-verify: {path}: {message}");
            return ExitCode::from(2);
        }
    };
    let outcome = match values {
        Values::One(v) => verify(&header, &v),
        Values::Two(v) => verify(&header, &v),
        Values::Four(v) => verify(&header, &v),
    };
    match outcome {
        Ok(report) => {
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(Refuted::Unreadable(message)) => {
            eprintln!("grundy-verify: {path}: {message}");
            ExitCode::from(2)
        }
        Err(Refuted::Wrong(message)) => {
            println!("REFUTED: {message}");
            ExitCode::from(1)
        }
    }
}

/// The header line. Unknown fields are refused: a checker that skipped a
/// field it does not know could pass a claim it never checked.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    format: String,
    game: String,
    values: u64,
    width: u8,
    claim: Option<Claim>,
    common: Option<Common>,
    #[allow(dead_code)] // informative only: which program wrote the file
    generator: Option<String>,
}

/// G(n + period) = G(n) + saltus for every n >= preperiod, both least.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    preperiod: u64,
    period: u64,
    saltus: u64,
}

/// The values that are "common" at even and at odd heaps (see [`Classes`]).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Common {
    even: Vec<u32>,
    odd: Vec<u32>,
}

enum Values {
    One(Vec<u8>),
    Two(Vec<u16>),
    Four(Vec<u32>),
}

enum Refuted {
    /// The file is not a certificate this program can check.
    Unreadable(String),
    /// The certificate is wrong.
    Wrong(String),
}

/// Reads the header and exactly `values` integers of `width` bytes after it.
/// The size is checked before anything is allocated, so a damaged header
/// cannot make the checker exhaust memory.
fn read(path: &str) -> Result<(Header, Values), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open: {e}"))?;
    let size = file.metadata().map_err(|e| e.to_string())?.len();
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut line = Vec::new();
    (&mut input)
        .take(MAX_HEADER)
        .read_until(b'\n', &mut line)
        .map_err(|e| e.to_string())?;
    if line.pop() != Some(b'\n') {
        return Err("no header line: a certificate starts with one line of JSON".into());
    }
    let header: Header = serde_json::from_slice(&line)
        .map_err(|e| format!("the header is not a certificate's JSON: {e}"))?;
    if header.format != FORMAT {
        return Err(format!(
            "format {:?} is not {FORMAT:?}, the one this checker reads",
            header.format
        ));
    }
    let width = header.width as u64;
    if ![1, 2, 4].contains(&width) {
        return Err(format!("width {width}: values are 1, 2 or 4 bytes wide"));
    }
    let body = size - line.len() as u64 - 1;
    let promised = header.values.checked_mul(width);
    if promised != Some(body) {
        return Err(format!(
            "the header promises {} values of {width} byte{}, but {body} bytes follow it{}",
            header.values,
            if width == 1 { "" } else { "s" },
            if promised.is_some_and(|p| p > body) {
                " (truncated?)"
            } else {
                ""
            }
        ));
    }
    let n = header.values as usize;
    let mut bytes = vec![0u8; 1 << 20];
    let mut fill = |push: &mut dyn FnMut(&[u8])| -> Result<(), String> {
        let mut left = body as usize;
        while left > 0 {
            let chunk = left.min(bytes.len());
            input
                .read_exact(&mut bytes[..chunk])
                .map_err(|e| e.to_string())?;
            push(&bytes[..chunk]);
            left -= chunk;
        }
        Ok(())
    };
    let values = match width {
        1 => {
            let mut v = Vec::with_capacity(n);
            fill(&mut |b| v.extend_from_slice(b))?;
            Values::One(v)
        }
        2 => {
            let mut v = Vec::with_capacity(n);
            fill(&mut |b| v.extend(b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]))))?;
            Values::Two(v)
        }
        _ => {
            let mut v = Vec::with_capacity(n);
            fill(&mut |b| {
                v.extend(
                    b.chunks_exact(4)
                        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                )
            })?;
            Values::Four(v)
        }
    };
    Ok((header, values))
}

/// The moves of a take-and-break game. Digit `d_k` of the code says what may
/// be left after removing `k` tokens from a heap: bit 1, nothing (only when
/// the heap was exactly `k`); bit 2, one non-empty heap; bit 4, two; bit 8,
/// three (hexadecimal codes). Grundy's game splits a heap into two unequal
/// heaps: the code `4.` with the parts of a split all different.
struct Rules {
    digits: Vec<u8>,
    unequal: bool,
    /// Removal sizes that may leave two heaps, and three.
    pairs: Vec<usize>,
    triples: Vec<usize>,
}

impl Rules {
    /// `0.16` (octal digits), `hex:0.8C` (hexadecimal), or `grundy`.
    fn parse(game: &str) -> Result<Rules, String> {
        let (code, radix, unequal) = if game == "grundy" {
            ("4.", 8, true)
        } else if let Some(code) = game.strip_prefix("hex:") {
            (code, 16, false)
        } else {
            (game, 8, false)
        };
        let bad = || format!("game {game:?} is not an octal code (0.16), hex:CODE or grundy");
        let (before, after) = code.split_once('.').ok_or_else(bad)?;
        if before.len() > 1 || after.len() > 64 || (after.is_empty() && !unequal) {
            return Err(bad());
        }
        let mut digits = Vec::new();
        for c in before.chars().chain(after.chars()) {
            digits.push(c.to_digit(radix).ok_or_else(bad)? as u8);
        }
        if before.is_empty() {
            digits.insert(0, 0);
        }
        if digits[0] & 3 != 0 {
            return Err(format!(
                "game {game:?}: the digit before the point may only allow splitting"
            ));
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        let with = |bit: u8| {
            (0..digits.len())
                .filter(|k| digits[*k] & bit != 0)
                .collect()
        };
        Ok(Rules {
            pairs: with(4),
            triples: with(8),
            digits,
            unequal,
        })
    }

    /// More options than heap `n` has: per digit, one move that leaves at
    /// most one heap, `n / 2` splits in two and `n * n` in three.
    fn most_options(&self, n: usize) -> u64 {
        let n = n as u64;
        let per_digit = 1
            + if self.pairs.is_empty() { 0 } else { n / 2 }
            + if self.triples.is_empty() { 0 } else { n * n };
        self.digits.len() as u64 * per_digit
    }

    /// The most tokens a move removes.
    fn max_take(&self) -> u64 {
        self.digits.len() as u64 - 1
    }
}

/// The classes that make checking near-linear.
///
/// Call a heap `x` *common* when its value is in the common list for its
/// parity, and *rare* otherwise. The lists are closed in this sense, which
/// [`Classes::new`] checks exhaustively: whenever two common heaps `a` and
/// `b` are the parts of a split of a heap `n` (so `a + b = n - k` for a
/// removal size `k` that allows two heaps), `G(a) ^ G(b)` is not common at
/// `n`'s parity. Hence a value common at `n` can be the value of a two-heap
/// option of `n` only through a split with a rare part. For a common heap
/// `n`, "no option has value G(n)" and "every smaller common value is an
/// option" need only the splits through rare heaps: O(#rare) per heap
/// instead of O(n). Smaller *rare* values are found by scanning splits until
/// each turns up, which for values that occur takes a few steps. Rare heaps
/// get the full O(n) check. This is the rare-value method of Winning Ways
/// (ch. 4, "Sparse space spells speed"), with the parity of a bit mask
/// replaced by explicit lists, so that the checker needs no theory of masks:
/// it checks the one property it relies on.
struct Classes {
    /// The common values at even and at odd heaps, as [`Bits`].
    common: [Vec<u64>; 2],
}

impl Classes {
    /// The lists, restricted to values below `64 * words` (no heap has a
    /// larger value, nor does a XOR of two values), checked for closure.
    fn new(lists: &Common, rules: &Rules, words: usize) -> Result<Classes, Refuted> {
        // The closure check is quadratic in the lists: keep it within a second.
        if lists.even.len().max(lists.odd.len()) > 4096 {
            return Err(Refuted::Unreadable(
                "more than 4096 common values: not a certificate grundy writes".into(),
            ));
        }
        let [even, odd] = [&lists.even, &lists.odd].map(|list| {
            let mut set = vec![0u64; words];
            for &v in list.iter().filter(|v| (**v as usize) < 64 * words) {
                set.set(v);
            }
            set
        });
        let classes = Classes {
            common: [even, odd],
        };
        let mut split_parities: Vec<usize> = rules.pairs.iter().map(|k| k & 1).collect();
        split_parities.sort_unstable();
        split_parities.dedup();
        for n in 0..2 {
            for k in &split_parities {
                for pa in 0..2 {
                    let pb = n ^ k ^ pa;
                    for a in classes.common[pa].members() {
                        for b in classes.common[pb].members() {
                            if classes.common[n].has(a ^ b) {
                                return Err(Refuted::Wrong(format!(
                                    "the common values are not closed: {a} (at {} heaps) ^ {b} (at {} heaps) = {} is common at {} heaps",
                                    parity(pa), parity(pb), a ^ b, parity(n)
                                )));
                            }
                        }
                    }
                }
            }
        }
        Ok(classes)
    }

    fn is_common(&self, heap: usize, value: u32) -> bool {
        self.common[heap & 1].has(value)
    }
}

fn parity(p: usize) -> &'static str {
    ["even", "odd"][p & 1]
}

/// A set of values as bits: value `x` is bit `x % 64` of word `x / 64`.
trait Bits {
    fn set(&mut self, x: u32);
    fn has(&self, x: u32) -> bool;
    fn members(&self) -> Vec<u32>;
}

impl Bits for [u64] {
    #[inline]
    fn set(&mut self, x: u32) {
        self[(x >> 6) as usize] |= 1 << (x & 63);
    }
    fn has(&self, x: u32) -> bool {
        self.get((x >> 6) as usize)
            .is_some_and(|w| w >> (x & 63) & 1 == 1)
    }
    fn members(&self) -> Vec<u32> {
        (0..64 * self.len() as u32)
            .filter(|x| self.has(*x))
            .collect()
    }
}

/// Everything the threads share to check heaps.
struct Checker<'a, T> {
    rules: &'a Rules,
    g: &'a [T],
    classes: Option<Classes>,
    /// Heaps `x >= 1` that are not common, in increasing order, with their values.
    rare: Vec<(usize, u32)>,
    /// Words in a set of values: every value and every XOR of two is below `64 * words`.
    words: usize,
}

/// Splits scanned at a time while looking for missing rare values.
const SCAN: usize = 32;

impl<T: Copy + Into<u32> + Sync> Checker<'_, T> {
    #[inline]
    fn g(&self, n: usize) -> u32 {
        self.g[n].into()
    }

    /// The smaller part `a` of a split of `m` into two goes up to this.
    fn half(&self, m: usize) -> usize {
        if self.rules.unequal {
            (m - 1) / 2
        } else {
            m / 2
        }
    }

    /// Checks that G(n) is the mex of the values of n's options: no option
    /// has value G(n), and every smaller value is the value of an option.
    /// The values of heaps below `n` are taken from the certificate, so the
    /// first heap that fails is the first wrong value. `seen` is scratch
    /// space of [`Checker::words`] words.
    fn check_heap(&self, n: usize, seen: &mut [u64]) -> Result<(), String> {
        let (r, g) = (self.rules, |i: usize| self.g(i));
        let v = g(n);
        seen.fill(0);
        // Moves that leave nothing, or one heap.
        for (k, d) in r.digits.iter().enumerate().take(n + 1) {
            if d & 1 != 0 && n == k {
                seen.set(0);
            }
            if d & 2 != 0 && n > k {
                seen.set(g(n - k));
            }
        }
        // Moves that leave three heaps a <= b <= c: every one, no shortcut.
        for &k in r.triples.iter().filter(|k| n >= *k + 3) {
            let m = n - k;
            for a in 1..=m / 3 {
                for b in a..=(m - a) / 2 {
                    let c = m - a - b;
                    if !(r.unequal && (a == b || b == c)) {
                        seen.set(g(a) ^ g(b) ^ g(c));
                    }
                }
            }
        }
        // Moves that leave two heaps: through rare parts only when n is common.
        let common = self.classes.as_ref().filter(|c| c.is_common(n, v));
        for &k in r.pairs.iter().filter(|k| n >= *k + 2) {
            let m = n - k;
            if common.is_some() {
                let rare = self.rare.iter().take_while(|(a, _)| *a < m);
                let splits = rare.filter(|(a, _)| !(r.unequal && 2 * a == m));
                mark_all(seen, splits.map(|&(a, ga)| ga ^ g(m - a)));
            } else {
                self.mark_splits(m, 1, self.half(m) + 1, seen);
            }
        }
        if seen.has(v) {
            return Err(format!(
                "heap {n}: G({n}) = {v} is wrong: a move from {n} reaches a position of value {v} ({})",
                self.move_to(n, v)
            ));
        }
        // The smallest value below v that is not marked (and is in `only`).
        let missing = |seen: &[u64], only: Option<&[u64]>| {
            seen.iter().enumerate().find_map(|(w, bits)| {
                let below = match (v as usize).saturating_sub(64 * w) {
                    0 => 0,
                    64.. => u64::MAX,
                    b => (1u64 << b) - 1,
                };
                let absent = below & !bits & only.map_or(u64::MAX, |o| o[w]);
                (absent != 0).then(|| 64 * w as u32 + absent.trailing_zeros())
            })
        };
        let Some(u) = missing(seen, None) else {
            return Ok(());
        };
        let wrong = |u: u32| {
            format!(
                "heap {n}: G({n}) = {v} is wrong: no move from {n} reaches a position of value {u}"
            )
        };
        // Without the shortcut every option has been seen; with it, a common
        // value could only come through a rare heap.
        let Some(classes) = common else {
            return Err(wrong(u));
        };
        if let Some(u) = missing(seen, Some(&classes.common[n & 1])) {
            return Err(wrong(u));
        }
        // Smaller rare values: scan the splits, smallest part first, in
        // growing chunks, until each has turned up.
        let largest = r.pairs.iter().map(|k| n.saturating_sub(*k)).max();
        let (mut a, mut chunk) = (1, SCAN);
        while a <= self.half(largest.unwrap_or(0).max(1)) {
            for &k in r.pairs.iter().filter(|k| n >= *k + 2) {
                let m = n - k;
                self.mark_splits(m, a, (a + chunk).min(self.half(m) + 1), seen);
            }
            if missing(seen, None).is_none() {
                return Ok(());
            }
            a += chunk;
            chunk *= 2;
        }
        Err(wrong(missing(seen, None).expect("a missing value")))
    }

    /// A move from `n` to a position of value `target`, in words (for a
    /// refutation: it is looked for only then, through every option).
    fn move_to(&self, n: usize, target: u32) -> String {
        let (r, g) = (self.rules, |i: usize| self.g(i));
        for (k, d) in r.digits.iter().enumerate().take(n + 1) {
            if d & 1 != 0 && n == k && target == 0 {
                return format!("removing all {k} tokens");
            }
            if d & 2 != 0 && n > k && g(n - k) == target {
                return format!("removing {k} leaves {}, of value {target}", n - k);
            }
            let m = n - k;
            for a in (1..=self.half(m.max(1))).filter(|_| d & 4 != 0 && m >= 2) {
                if g(a) ^ g(m - a) == target {
                    let b = m - a;
                    return format!(
                        "removing {k} leaves {a} and {b}, of values {} ^ {} = {target}",
                        g(a),
                        g(b)
                    );
                }
            }
            for a in (1..=m / 3).filter(|_| d & 8 != 0) {
                for b in a..=(m - a) / 2 {
                    let c = m - a - b;
                    if !(r.unequal && (a == b || b == c)) && g(a) ^ g(b) ^ g(c) == target {
                        return format!("removing {k} leaves {a}, {b} and {c}, of values {} ^ {} ^ {} = {target}", g(a), g(b), g(c));
                    }
                }
            }
        }
        unreachable!("a move to {target} was marked")
    }

    /// Marks the values of the splits `(a, m - a)` for `from <= a < to`.
    #[inline]
    fn mark_splits(&self, m: usize, from: usize, to: usize, seen: &mut [u64]) {
        if from >= to {
            return;
        }
        // Both parts as slices: the small ones ascending, the large ones descending.
        let small = &self.g[from..to];
        let large = &self.g[m + 1 - to..=m - from];
        let pairs = small.iter().zip(large.iter().rev());
        mark_all(seen, pairs.map(|(x, y)| (*x).into() ^ (*y).into()));
    }
}

/// Marks `values` in `seen`. With values below 128 they are gathered in a
/// register first: marked one at a time in memory, each mark of the same
/// word would wait for the one before.
#[inline]
fn mark_all(seen: &mut [u64], values: impl Iterator<Item = u32>) {
    // Every value and XOR of two is below 64 * seen.len().
    if seen.len() == 1 {
        seen[0] |= values.fold(0u64, |bits, x| bits | 1 << x);
    } else if seen.len() == 2 {
        let bits = values.fold(0u128, |bits, x| bits | 1 << x);
        seen[0] |= bits as u64;
        seen[1] |= (bits >> 64) as u64;
    } else {
        for x in values {
            seen.set(x);
        }
    }
}

/// Checks every value (in parallel: every heap's check reads only the
/// certificate), then the claim. Returns what was verified, in words.
fn verify<T: Copy + Into<u32> + Sync>(header: &Header, g: &[T]) -> Result<String, Refuted> {
    let rules = Rules::parse(&header.game).map_err(Refuted::Unreadable)?;
    // A mex is at most the number of options: a larger value is wrong at
    // once, and sets of values stay as small as the game allows.
    // The values before such a heap are checked first: the first wrong heap
    // is named, whichever check finds it.
    let too_large = (0..g.len()).find(|&n| g[n].into() as u64 > rules.most_options(n));
    let all = g;
    let g = &g[..too_large.unwrap_or(g.len())];
    let max = g.iter().map(|v| (*v).into()).max().unwrap_or(0);
    let words = ((max as usize + 1).next_power_of_two() / 64).max(1);
    let classes = match &header.common {
        Some(lists) => Some(Classes::new(lists, &rules, words)?),
        None => None,
    };
    let rare = match &classes {
        Some(c) => (1..g.len())
            .filter(|&x| !c.is_common(x, g[x].into()))
            .map(|x| (x, g[x].into()))
            .collect(),
        None => Vec::new(),
    };
    let checker = Checker {
        rules: &rules,
        g,
        classes,
        rare,
        words,
    };
    if let Some((_, message)) = check_values(&checker) {
        return Err(Refuted::Wrong(message));
    }
    if let Some(n) = too_large {
        return Err(Refuted::Wrong(format!(
            "heap {n}: G({n}) = {} is wrong: {n} has at most {} options",
            all[n].into(),
            rules.most_options(n)
        )));
    }
    let n = g.len();
    let mut report = match n {
        0 => format!(
            "verified: no values of {} (an empty certificate)",
            header.game
        ),
        1 => format!(
            "verified: the 1 value G(0) of {}, the mex of no options",
            header.game
        ),
        _ => format!(
            "verified: the {n} values G(0) to G({}) of {}, each the mex of its options' values",
            n - 1,
            header.game
        ),
    };
    if let Some(claim) = &header.claim {
        let proof = check_claim(&rules, &|i| g[i].into(), n, claim).map_err(Refuted::Wrong)?;
        report.push('\n');
        report.push_str(&proof);
    } else {
        report.push_str("\nno period claimed");
    }
    Ok(report)
}

/// The first heap whose value is wrong, with the reason, if any.
fn check_values<T: Copy + Into<u32> + Sync>(checker: &Checker<T>) -> Option<(usize, String)> {
    let n = checker.g.len();
    let next = AtomicUsize::new(0);
    let first_wrong: Mutex<Option<(usize, String)>> = Mutex::new(None);
    let wrong_from = AtomicUsize::new(usize::MAX);
    let done = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    // Heaps handed to a thread at a time: enough blocks for every thread,
    // even in the small certificates of codes that leave three heaps.
    let block = (n / (16 * threads)).clamp(1, 1 << 14);
    let running = AtomicUsize::new(threads);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut seen = vec![0u64; checker.words];
                loop {
                    let start = next.fetch_add(block, Relaxed);
                    if start >= n || start > wrong_from.load(Relaxed) {
                        break;
                    }
                    for heap in start..(start + block).min(n) {
                        if let Err(message) = checker.check_heap(heap, &mut seen) {
                            let mut first = first_wrong.lock().expect("no thread panics");
                            if first.as_ref().is_none_or(|(h, _)| heap < *h) {
                                *first = Some((heap, message));
                                wrong_from.store(heap, Relaxed);
                            }
                            break;
                        }
                    }
                    done.fetch_add(block, Relaxed);
                }
                running.fetch_sub(1, Relaxed);
            });
        }
        // Progress, on a terminal, for certificates that take a while.
        let started = Instant::now();
        let show = std::io::stderr().is_terminal();
        let mut shown = false;
        let mut last = started;
        while running.load(Relaxed) > 0 {
            std::thread::sleep(Duration::from_millis(10));
            if show
                && started.elapsed() > Duration::from_secs(1)
                && last.elapsed().as_millis() >= 200
            {
                last = Instant::now();
                let at = done.load(Relaxed).min(n);
                eprint!("\rchecking values: {at} of {n} heaps ({}%)", at * 100 / n);
                let _ = std::io::stderr().flush();
                shown = true;
            }
        }
        if shown {
            eprint!("\r\x1b[K");
        }
    });
    first_wrong.into_inner().expect("no thread panics")
}

/// Checks the claim on values already known to be right.
///
/// Guy-Smith periodicity theorem (Guy and Smith 1956; Winning Ways, ch. 4):
/// let a move remove at most `t` tokens and leave at most two heaps. If
/// G(n + p) = G(n) for every n with e <= n < 2e + p + t - 1, then for every
/// n >= e. Proof, by induction on N >= 2e + p + t - 1, assuming it below N:
/// an option of N + p leaves parts a + b = N + p - k >= 2e + 2p - 1, so the
/// larger, b, is at least e + p, and b - p is at least e and below N: the
/// option (a, b - p) of N has the same value. Conversely an option (a, b) of
/// N has a + b >= 2e + p - 1, so b >= e, and (a, b + p) is an option of
/// N + p with the same value. One-heap options N + p - k and N - k pair the
/// same way. So N and N + p have the same option values, hence the same
/// mex. With three parts a + b + c >= 3e + 3p - 2 makes the largest at least
/// e + p: the window is e <= n < 3e + 2p + t - 2. In the window, e stands
/// for max(e, 1): a part shortened by p must still be a heap (a one-heap
/// option N + p - k would otherwise map to emptying N, another kind of move;
/// with e = 0, 0.2 would pass "period 1" on the values 0, 0). The argument
/// needs parts that may be equal; Grundy's game (unequal parts) has no such
/// theorem.
///
/// "Least" is checked too: the preperiod because G(e - 1) differs from
/// G(e - 1 + p); the period because, for every prime q dividing p, p / q is
/// not a period of the block G(e), ..., G(e + p - 1) (a period of an
/// eventually periodic sequence is a multiple of the least one).
fn check_claim(
    rules: &Rules,
    g: &dyn Fn(usize) -> u32,
    n: usize,
    claim: &Claim,
) -> Result<String, String> {
    let (e, p, t) = (claim.preperiod, claim.period, rules.max_take());
    let what = format!(
        "the claim (preperiod {e}, period {p}, saltus {})",
        claim.saltus
    );
    if p == 0 {
        return Err(format!("{what} fails: a period is at least 1"));
    }
    if claim.saltus != 0 {
        return Err(format!("{what} is not checked: no theorem here proves arithmetic periodicity of take-and-break games, so only saltus 0 is accepted"));
    }
    if rules.unequal {
        return Err(format!("{what} is not checked: no periodicity theorem applies to splits into unequal heaps (Grundy's game)"));
    }
    let three = !rules.triples.is_empty();
    // The last n the theorem needs checked directly, plus one: the window's end.
    // In the window e is at least 1: see the proof above.
    let e1 = e.max(1) as u128;
    let window = if three {
        3 * e1 + 2 * p as u128 + t as u128 - 2
    } else {
        2 * e1 + p as u128 + t as u128 - 1
    };
    let needed = window + p as u128;
    if (n as u128) < needed {
        return Err(format!(
            "{what} fails: the Guy-Smith theorem needs G(n + {p}) = G(n) for {e} <= n < {window}, so values to heap {}, but the certificate stops at heap {}",
            needed - 1,
            n as i128 - 1
        ));
    }
    let (e, p) = (e as usize, p as usize);
    if let Some(m) = (e..n - p).find(|&m| g(m + p) != g(m)) {
        return Err(format!(
            "{what} fails: G({}) = {} but G({m}) = {}",
            m + p,
            g(m + p),
            g(m)
        ));
    }
    if e > 0 && g(e - 1) == g(e - 1 + p) {
        return Err(format!(
            "{what} fails: the preperiod is not least, G({}) = G({}) already",
            e - 1,
            e - 1 + p
        ));
    }
    let mut rest = p;
    let mut q = 2;
    while rest > 1 {
        if q * q > rest {
            q = rest;
        }
        if rest % q == 0 {
            let shorter = p / q;
            if (e..e + p).all(|m| g(m) == g(m + shorter)) {
                return Err(format!(
                    "{what} fails: the period is not least, {shorter} is a period too"
                ));
            }
            while rest % q == 0 {
                rest /= q;
            }
        }
        q += 1;
    }
    Ok(format!(
        "verified: preperiod {e} and period {p}, both least, for every heap: G(n + {p}) = G(n) holds for {e} <= n < {window}, which the Guy-Smith periodicity theorem needs (moves remove at most {t} token{} and leave at most {} heaps)",
        if t == 1 { "" } else { "s" },
        if three { 3 } else { 2 }
    ))
}
