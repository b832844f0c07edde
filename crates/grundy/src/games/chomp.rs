//! Chomp: a bar of chocolate whose bottom-left square is poisoned. A move
//! takes a square and every square above and to the right of it; the
//! poisoned square may not be taken, so whoever cannot move (only poison is
//! left) loses.
//!
//! A position is a Young diagram: row lengths, bottom row first, never
//! growing upwards. It is packed four bits a row into one or two machine
//! words (up to 16 rows in `u64`, 32 in `u128`; rows up to 15 squares). A
//! diagram and its transpose are the same game, so the key of a position is
//! the lesser of the two where both fit.

use crate::error::{Error, Result};
use crate::position::Position;
use crate::search::family::{Engine, Kind};
use crate::search::{Bits, SearchGame, Searcher};

/// The most rows.
pub const MAX_ROWS: u32 = 32;
/// The most squares in a row.
pub const MAX_COLS: u32 = 15;

/// Chomp positions in `B`, four bits a row.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChompGame<B: Bits>(std::marker::PhantomData<B>);

#[inline]
fn row<B: Bits>(pos: B, i: u32) -> u32 {
    ((pos >> (4 * i)).low_u64() & 15) as u32
}

impl<B: Bits> ChompGame<B> {
    /// Chomp on diagrams that fit `B`.
    pub fn new() -> Self {
        ChompGame(std::marker::PhantomData)
    }

    fn rows(&self) -> u32 {
        B::WIDTH / 4
    }
}

impl<B: Bits> SearchGame for ChompGame<B> {
    type Pos = B;

    fn split(&self, pos: B, out: &mut Vec<B>) {
        // Only the poisoned square left: no moves.
        if pos != B::ONE && pos != B::ZERO {
            out.push(pos);
        }
    }

    fn options(&self, pos: B, out: &mut Vec<B>) {
        let height = pos.end().div_ceil(4);
        for r in 0..height {
            let len = row(pos, r);
            for c in 0..len {
                if r == 0 && c == 0 {
                    continue;
                }
                // Rows r and up are cut to c squares.
                let mut next = pos;
                let mut i = r;
                while i < height && row(pos, i) > c {
                    next = (next & !(B::from_u128(15) << (4 * i)))
                        | (B::from_u128(c as u128) << (4 * i));
                    i += 1;
                }
                out.push(next);
            }
        }
    }

    fn canonical(&self, pos: B) -> B {
        let height = pos.end().div_ceil(4);
        let width = row(pos, 0);
        if height > MAX_COLS || width > self.rows() {
            return pos;
        }
        // The transpose: column j's height is the number of rows longer than j.
        let mut t = B::ZERO;
        let mut i = height;
        for j in 0..width {
            while i > 0 && row(pos, i - 1) <= j {
                i -= 1;
            }
            t |= B::from_u128(i as u128) << (4 * j);
        }
        t.min(pos)
    }

    fn size(&self, pos: B) -> u32 {
        (0..pos.end().div_ceil(4)).map(|i| row(pos, i)).sum()
    }
}

/// The family `chomp`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Chomp;

fn pack(rows: &[u32]) -> u128 {
    rows.iter()
        .enumerate()
        .fold(0u128, |acc, (i, &r)| acc | ((r as u128) << (4 * i)))
}

fn unpack(pos: u128) -> Vec<u32> {
    let mut rows = Vec::new();
    let mut p = pos;
    while p != 0 {
        rows.push((p & 15) as u32);
        p >>= 4;
    }
    rows
}

impl Chomp {
    fn read(text: &str) -> Result<Vec<u32>> {
        let t = text.trim();
        let bad = |message: String, column: Option<usize>| Error::syntax(message, t, column);
        if let Some((r, c)) = t.split_once(['x', 'X']) {
            let (Ok(rows), Ok(cols)) = (r.parse::<u32>(), c.parse::<u32>()) else {
                return Err(bad(
                    "a Chomp bar is RxC (12x12) or row lengths, bottom row first (5,5,3)".into(),
                    None,
                ));
            };
            if rows == 0 || cols == 0 {
                return Err(bad(
                    "a Chomp bar has at least one row and one column".into(),
                    None,
                ));
            }
            return Self::check(vec![cols; rows as usize], t);
        }
        let mut rows = Vec::new();
        let mut at = 0;
        for part in t.split(',') {
            match part.trim().parse::<u32>() {
                Ok(n) => rows.push(n),
                Err(_) => {
                    return Err(bad(
                        "a Chomp position is RxC (12x12) or row lengths, bottom row first (5,5,3)"
                            .into(),
                        Some(at),
                    ))
                }
            }
            at += part.len() + 1;
        }
        while rows.last() == Some(&0) {
            rows.pop();
        }
        Self::check(rows, t)
    }

    fn check(rows: Vec<u32>, text: &str) -> Result<Vec<u32>> {
        if rows.is_empty() {
            return Err(Error::invalid(format!(
                "{text}: the poisoned square is never taken, so the bottom row has at least one square"
            )));
        }
        if rows.windows(2).any(|w| w[1] > w[0]) {
            return Err(Error::invalid(format!(
                "{text}: rows (bottom first) never grow upwards in Chomp"
            )));
        }
        if rows.len() as u32 > MAX_ROWS || rows[0] > MAX_COLS {
            return Err(Error::TooLarge(format!(
                "Chomp {text} is too large: up to {MAX_ROWS} rows of up to {MAX_COLS} squares (a wide bar plays the same turned: 20x12 for 12x20)"
            )));
        }
        Ok(rows)
    }
}

/// The most diagrams a dense table holds (2^28: two bytes each, 512 MiB).
pub const MAX_DENSE: u64 = 1 << 28;

fn binomial(n: u32, k: u32) -> u64 {
    let k = k.min(n - k.min(n));
    (0..k).fold(1u64, |acc, i| {
        acc.saturating_mul((n - i) as u64) / (i as u64 + 1)
    })
}

/// Chomp solved by a dense table over every diagram in an R×C box: a
/// diagram's index is its rank in the combinatorial number system (row
/// lengths a_1 >= ... >= a_R become b_i = a_i + R - i, strictly falling,
/// and the rank is the sum of C(b_i, R - i + 1)). Chomp has no components
/// and few positions (C(26, 13) = 10,400,600 diagrams fit a 13×13 bar), so
/// each is solved once, by the mex of its options, from a table that fits
/// in the processor's cache far better than a hash table would.
///
/// A bite shortens rows, and a shorter row has a smaller term, so every
/// option of a diagram has a smaller rank: the table is filled in rank
/// order, with no recursion. The diagrams come in that order by a successor
/// step (lengthen the last row that may grow, empty the rows above it: the
/// colex order of the b_i), and each option's rank is the diagram's minus a
/// sum of term differences, kept running along each column, so an option
/// costs one subtraction and one lookup.
pub struct DenseChomp {
    cols: u32,
    /// `terms[i * (cols + 1) + a]`: row i's term when it has a squares.
    terms: Vec<u64>,
    values: Vec<u16>,
    /// Ranks below this are filled.
    filled: u64,
    /// The diagram of rank `filled` (R row lengths, zeros past its height).
    cursor: Vec<u32>,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    progress: Option<Box<dyn FnMut(crate::search::Stats)>>,
    started: crate::clock::Instant,
    last_report: crate::clock::Instant,
}

impl DenseChomp {
    /// The table for diagrams of at most `rows` rows of at most `cols` squares.
    pub fn new(rows: u32, cols: u32) -> Result<Self> {
        let n = rows + cols;
        let size = binomial(n, rows);
        if size > MAX_DENSE {
            return Err(Error::TooLarge(format!(
                "{rows}x{cols} Chomp has too many diagrams for a table"
            )));
        }
        // Row i (0-based) of length a: C(a + R - 1 - i, R - i).
        let terms = (0..rows)
            .flat_map(|i| {
                (0..=cols).map(move |a| {
                    let (n, k) = (a + rows - 1 - i, rows - i);
                    if k > n {
                        0
                    } else {
                        binomial(n, k)
                    }
                })
            })
            .collect();
        let now = crate::clock::Instant::now();
        Ok(DenseChomp {
            cols,
            terms,
            values: vec![0; size as usize],
            filled: 0,
            cursor: vec![0; rows as usize],
            stop: None,
            progress: None,
            started: now,
            last_report: now,
        })
    }

    #[inline]
    fn term(&self, i: usize, a: u32) -> u64 {
        self.terms[i * (self.cols as usize + 1) + a as usize]
    }

    fn rank(&self, rows: &[u32]) -> u64 {
        rows.iter().enumerate().map(|(i, &a)| self.term(i, a)).sum()
    }

    /// Fills the values of every rank up to `rank`; its value.
    fn value(&mut self, rank: u64) -> std::result::Result<u32, crate::search::Stop> {
        while self.filled <= rank {
            if self.filled & 0xFFFF == 0 {
                self.check()?;
            }
            let v = self.mex_at_cursor();
            self.values[self.filled as usize] = v;
            self.filled += 1;
            self.advance();
        }
        Ok(self.values[rank as usize] as u32)
    }

    /// The mex of the options of the diagram at the cursor.
    #[inline]
    fn mex_at_cursor(&self) -> u16 {
        let rows = &self.cursor;
        let rank = self.filled as usize;
        let stride = self.cols as usize + 1;
        // Values seen among the options; a nimber never exceeds the number
        // of options, at most 32 * 15 here.
        let mut seen = [0u64; 8];
        let mut longer = rows.iter().take_while(|&&a| a > 0).count();
        for c in 0..rows[0] {
            // Rows 0..longer are longer than c: a bite at (r, c) cuts rows
            // r..longer to c.
            while longer > 0 && rows[longer - 1] <= c {
                longer -= 1;
            }
            let mut delta = 0u64;
            for r in (0..longer).rev() {
                let row = r * stride;
                delta += self.terms[row + rows[r] as usize] - self.terms[row + c as usize];
                if r == 0 && c == 0 {
                    // The poisoned square is not a move.
                    continue;
                }
                let v = self.values[rank - delta as usize] as usize;
                if v < 512 {
                    seen[v / 64] |= 1 << (v % 64);
                }
            }
        }
        seen.iter()
            .enumerate()
            .find(|(_, w)| **w != u64::MAX)
            .map(|(i, w)| i * 64 + w.trailing_ones() as usize)
            .unwrap_or(512) as u16
    }

    /// The cursor to the diagram of the next rank.
    #[inline]
    fn advance(&mut self) {
        let rows = &mut self.cursor;
        for i in (0..rows.len()).rev() {
            let cap = if i == 0 { self.cols } else { rows[i - 1] };
            if rows[i] < cap {
                rows[i] += 1;
                for row in &mut rows[i + 1..] {
                    *row = 0;
                }
                return;
            }
        }
    }

    #[cold]
    fn check(&mut self) -> std::result::Result<(), crate::search::Stop> {
        use std::sync::atomic::Ordering;
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(crate::search::Stop::Interrupted);
        }
        if self.last_report.elapsed() >= std::time::Duration::from_millis(500) {
            self.last_report = crate::clock::Instant::now();
            let stats = self.stats_now();
            if let Some(p) = self.progress.as_mut() {
                p(stats);
            }
        }
        Ok(())
    }

    fn stats_now(&self) -> crate::search::Stats {
        crate::search::Stats {
            nodes: self.filled,
            expanded: self.filled,
            entries: self.filled as usize,
            capacity: self.values.len(),
            replaced: 0,
            elapsed: self.started.elapsed(),
        }
    }
}

impl Engine for DenseChomp {
    fn nimber(&mut self, pos: u128) -> std::result::Result<u32, crate::search::Stop> {
        let rows = unpack(pos);
        let rank = self.rank(&rows);
        self.value(rank)
    }
    fn has_nimber(&mut self, pos: u128, k: u32) -> std::result::Result<bool, crate::search::Stop> {
        Ok(Engine::nimber(self, pos)? == k)
    }
    fn options(&self, pos: u128) -> Vec<u128> {
        let mut out = Vec::new();
        ChompGame::<u128>::new().options(pos, &mut out);
        out
    }
    fn set_stop_flag(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.stop = Some(flag);
    }
    fn set_progress(&mut self, report: Box<dyn FnMut(crate::search::Stats)>) {
        self.progress = Some(report);
    }
    fn set_saving(&mut self, saving: crate::search::Saving) -> Result<Option<usize>> {
        // The whole table is rebuilt faster than it would be read back, so
        // nothing is saved; but a file given for another board is refused,
        // as the search's own table would refuse it.
        match crate::search::table::saved_spec(&saving.path)? {
            Some(saved) if saved != saving.spec => Err(crate::Error::invalid(format!(
                "refusing transposition table {}: it is for {saved}, not {}",
                saving.path.display(),
                saving.spec
            ))),
            _ => Ok(None),
        }
    }
    fn save(&mut self) -> Result<()> {
        Ok(())
    }
    fn stats(&self) -> crate::search::Stats {
        self.stats_now()
    }
}

impl Kind for Chomp {
    /// The diagram's bounding box: rows, and the bottom row's length.
    type Shape = (u32, u32);

    fn spec(&self) -> String {
        "chomp".into()
    }

    fn parse(&self, text: &str) -> Result<((u32, u32), u128)> {
        let rows = Chomp::read(text)?;
        Ok(((rows.len() as u32, rows[0]), pack(&rows)))
    }

    fn read_position(&self, p: &Position) -> Option<((u32, u32), u128)> {
        let rows: Option<Vec<u32>> = p
            .as_list()?
            .iter()
            .map(|x| x.as_u64().and_then(|n| u32::try_from(n).ok()))
            .collect();
        let rows = Chomp::check(rows?, "").ok()?;
        Some(((rows.len() as u32, rows[0]), pack(&rows)))
    }

    fn to_position(&self, _: (u32, u32), pos: u128) -> Position {
        Position::List(
            unpack(pos)
                .into_iter()
                .map(|r| Position::from(r as u64))
                .collect(),
        )
    }

    fn format(&self, _: (u32, u32), pos: u128) -> String {
        let rows = unpack(pos);
        if rows.iter().all(|&r| r == rows[0]) {
            format!("{}x{}", rows.len(), rows[0])
        } else {
            rows.iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(",")
        }
    }

    fn show(&self, _: (u32, u32), pos: u128) -> String {
        let rows = unpack(pos);
        let width = rows.first().copied().unwrap_or(0);
        let mut lines = Vec::new();
        for (i, &r) in rows.iter().enumerate().rev() {
            let cells: Vec<&str> = (0..r)
                .map(|j| if i == 0 && j == 0 { "X" } else { "o" })
                .collect();
            lines.push(format!("{:>3} {}", i + 1, cells.join(" ")));
        }
        let footer: Vec<String> = (1..=width).map(|j| (j % 10).to_string()).collect();
        lines.push(format!("    {}   (X: poison)", footer.join(" ")));
        lines.join("\n")
    }

    fn describe(&self, _: (u32, u32), from: u128, to: u128) -> Option<String> {
        let (a, b) = (unpack(from), unpack(to));
        let r = (0..a.len()).find(|&i| b.get(i).copied().unwrap_or(0) != a[i])?;
        let c = b.get(r).copied().unwrap_or(0);
        Some(format!("take row {} column {}", r + 1, c + 1))
    }

    fn engine_tag(&self, (rows, cols): (u32, u32)) -> String {
        format!("chomp {rows}x{cols}")
    }

    fn engine(
        &self,
        (rows, cols): (u32, u32),
        tt_bytes: usize,
        max_states: usize,
    ) -> Result<Box<dyn Engine>> {
        if binomial(rows + cols, rows) <= MAX_DENSE.min(max_states as u64) {
            return Ok(Box::new(DenseChomp::new(rows, cols)?));
        }
        Ok(if rows > 16 {
            Box::new(Searcher::new(ChompGame::<u128>::new(), tt_bytes)?)
        } else {
            Box::new(Searcher::new(ChompGame::<u64>::new(), tt_bytes)?)
        })
    }

    fn table_origin(&self) -> [u64; 2] {
        [1, 1]
    }

    fn table_row_game(&self, row: u64) -> Option<crate::family::RowGame> {
        // A bite of a 1xN bar leaves a 1xk bar for any k < N, the poisoned
        // square always left: a Nim heap of the N - 1 squares that may be taken.
        (row == 1).then(|| crate::family::RowGame {
            spec: "nim".into(),
            first_heap: 0,
            why: "a 1xN board is a Nim heap of N - 1 (a bite leaves any shorter bar)".into(),
        })
    }

    fn table_shapes(&self, size: (u32, u32)) -> Option<crate::search::family::Board<(u32, u32)>> {
        Some(
            (1..=size.0)
                .map(|r| {
                    (1..=size.1)
                        .map(|c| ((r, c), pack(&vec![c; r as usize])))
                        .collect()
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every diagram up to 5x5 (and in 3x7 and 7x2 boxes): the dense
    /// table, filled in rank order, against a plain memoised mex over
    /// `ChompGame`'s moves. Each box's diagrams are asked in reverse rank
    /// order of a fresh table and in rank order of another, so both the
    /// one long fill and many short ones are checked.
    #[test]
    fn the_dense_table_agrees_with_the_plain_game() {
        fn plain(
            g: &ChompGame<u64>,
            p: u64,
            memo: &mut std::collections::HashMap<u64, u32>,
        ) -> u32 {
            if let Some(&v) = memo.get(&p) {
                return v;
            }
            let mut opts = vec![];
            g.options(p, &mut opts);
            let seen: Vec<u32> = opts.iter().map(|&o| plain(g, o, memo)).collect();
            let v = (0..).find(|v| !seen.contains(v)).unwrap();
            memo.insert(p, v);
            v
        }
        fn diagrams(rows: u32, cols: u32) -> Vec<Vec<u32>> {
            let mut out = vec![vec![]];
            for _ in 0..rows {
                let mut next = vec![];
                for d in &out {
                    let cap = d.last().copied().unwrap_or(cols);
                    for a in 1..=cap {
                        let mut e = d.clone();
                        e.push(a);
                        next.push(e);
                    }
                }
                out.extend(next);
            }
            out.retain(|d| !d.is_empty());
            out.sort();
            out.dedup();
            out
        }
        let g = ChompGame::<u64>::new();
        let mut memo = std::collections::HashMap::new();
        for (rows, cols) in [(1, 1), (2, 3), (3, 3), (4, 4), (5, 5), (3, 7), (7, 2)] {
            let all = diagrams(rows, cols);
            let mut fresh = DenseChomp::new(rows, cols).unwrap();
            let mut ranks: Vec<(u64, &Vec<u32>)> = all.iter().map(|d| (fresh.rank(d), d)).collect();
            ranks.sort();
            for &(_, d) in ranks.iter().rev() {
                let want = plain(&g, pack(d) as u64, &mut memo);
                assert_eq!(
                    Engine::nimber(&mut fresh, pack(d)).unwrap(),
                    want,
                    "{d:?} in {rows}x{cols}"
                );
            }
            let mut step = DenseChomp::new(rows, cols).unwrap();
            for &(_, d) in &ranks {
                let want = plain(&g, pack(d) as u64, &mut memo);
                assert_eq!(
                    Engine::nimber(&mut step, pack(d)).unwrap(),
                    want,
                    "{d:?} in {rows}x{cols}"
                );
            }
        }
    }

    #[test]
    fn moves_and_transpose() {
        let g = ChompGame::<u64>::new();
        let two_by_two = pack(&[2, 2]) as u64;
        let mut opts = vec![];
        g.options(two_by_two, &mut opts);
        // Take (1,2): [1,1]; (2,1): [2]; (2,2): [2,1].
        let mut got: Vec<Vec<u32>> = opts.iter().map(|&o| unpack(o as u128)).collect();
        got.sort();
        assert_eq!(got, vec![vec![1, 1], vec![2], vec![2, 1]]);
        // [3,1] transposed is [2,1,1].
        let a = g.canonical(pack(&[3, 1]) as u64);
        let b = g.canonical(pack(&[2, 1, 1]) as u64);
        assert_eq!(a, b);
        assert_eq!(Chomp.format((3, 5), pack(&[5, 5, 3])), "5,5,3");
        assert_eq!(Chomp.format((2, 4), pack(&[4, 4])), "2x4");
        assert!(Chomp::read("3,4").is_err());
        assert!(Chomp::read("0").is_err());
        assert!(Chomp::read("3x16").is_err());
        assert_eq!(
            Chomp
                .describe((2, 2), pack(&[2, 2]), pack(&[2, 1]))
                .unwrap(),
            "take row 2 column 2"
        );
    }
}
