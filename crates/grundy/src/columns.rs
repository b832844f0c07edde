//! Min–max columns: a long sequence of values summarised for a picture a few
//! hundred columns wide.
//!
//! A plot of ten million Grundy values has perhaps a thousand pixel columns,
//! ten thousand heaps to each. Keeping one value a column would lose exactly
//! what a reader looks for, the rare spike among small values; an average
//! would invent values that never occur. So each column keeps the smallest
//! and the largest value of its heaps ([`MinMax`]) and is drawn as a bar
//! between the two: every value lies on its column's bar, both ends of every
//! bar are values, and the summary costs one pass and two numbers a column
//! however long the sequence. Every picture of a sequence (the command
//! line's `--plot`, the web playground's long runs) draws from it.
//!
//! ```
//! use grundy::columns::MinMax;
//!
//! // Heaps 0 to 9 in 4 columns: 0-2, 3-4, 5-7, 8-9.
//! let mut columns = MinMax::new(0, 9, 4);
//! for (n, value) in [0u64, 1, 2, 0, 1, 2, 0, 7, 2, 0].into_iter().enumerate() {
//!     columns.push(n as u64, value);
//! }
//! assert_eq!(columns.heaps(2), (5, 7));
//! assert_eq!(columns.range(2), Some((0, 7)));
//! assert_eq!(columns.max_value(), 7);
//! ```

/// For each of a fixed number of columns splitting heaps `from..=to` into
/// spans of equal length (to within one heap), the smallest and largest value
/// seen. When there are no more heaps than columns, each heap has a column of
/// its own and its exact value.
///
/// Heap `n` belongs to column `(n - from) * columns / count` (rounded down),
/// so a column's heaps are the ones whose offsets fall in its share of the
/// range, and the spans of any two columns differ by at most one heap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinMax {
    from: u64,
    /// Heaps in `from..=to`; a `u128` so that `0..=u64::MAX` fits.
    count: u128,
    min: Vec<u64>,
    max: Vec<u64>,
    /// The column of the last heap pushed, and the offsets it spans: values
    /// come in order, so the column is worked out once a column, not once a
    /// value.
    column: usize,
    start: u128,
    next: u128,
}

impl MinMax {
    /// Columns for heaps `from..=to`: `columns` of them, or one a heap if
    /// there are fewer heaps, and at least one.
    ///
    /// # Panics
    ///
    /// If `from > to`: an empty range has nothing to summarise.
    pub fn new(from: u64, to: u64, columns: usize) -> Self {
        assert!(from <= to, "an empty range");
        let count = u128::from(to - from) + 1;
        let columns = (columns.max(1) as u128).min(count) as usize;
        let mut summary = MinMax {
            from,
            count,
            min: vec![u64::MAX; columns],
            max: vec![0; columns],
            column: 0,
            start: 0,
            next: 0,
        };
        summary.next = summary.start_of(1);
        summary
    }

    /// How many columns there are.
    pub fn columns(&self) -> usize {
        self.min.len()
    }

    /// Whether some column stands for more than one heap.
    pub fn downsampled(&self) -> bool {
        (self.columns() as u128) < self.count
    }

    /// The offset (heap - from) at which column `c` starts: the smallest
    /// offset `o` with `o * columns / count >= c`.
    fn start_of(&self, c: usize) -> u128 {
        (c as u128 * self.count).div_ceil(self.columns() as u128)
    }

    /// The column of heap `n`, which must lie in `from..=to`.
    pub fn column_of(&self, n: u64) -> usize {
        (u128::from(n - self.from) * self.columns() as u128 / self.count) as usize
    }

    /// The heaps of column `c`: the first and the last.
    pub fn heaps(&self, c: usize) -> (u64, u64) {
        let first = u128::from(self.from) + self.start_of(c);
        let last = u128::from(self.from) + self.start_of(c + 1) - 1;
        (first as u64, last as u64)
    }

    /// Records G(n) = `value`. Heaps outside `from..=to` are ignored; heaps
    /// may come in any order, and in increasing order cost least.
    #[inline]
    pub fn push(&mut self, n: u64, value: u64) {
        let Some(offset) = n.checked_sub(self.from).map(u128::from) else {
            return;
        };
        if offset >= self.count {
            return;
        }
        if offset < self.start || offset >= self.next {
            self.column = self.column_of(n);
            self.start = self.start_of(self.column);
            self.next = self.start_of(self.column + 1);
        }
        let c = self.column;
        self.min[c] = self.min[c].min(value);
        self.max[c] = self.max[c].max(value);
    }

    /// The smallest and largest value of column `c`, if any of its heaps
    /// was pushed.
    pub fn range(&self, c: usize) -> Option<(u64, u64)> {
        (self.min[c] <= self.max[c]).then(|| (self.min[c], self.max[c]))
    }

    /// The largest value pushed (0 if none was).
    pub fn max_value(&self) -> u64 {
        (0..self.columns())
            .filter_map(|c| self.range(c))
            .map(|(_, hi)| hi)
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::MinMax;
    use proptest::prelude::*;

    /// The plain way: each heap's column from the defining formula, and each
    /// column's heaps and extremes by a scan of the whole sequence.
    struct Reference {
        heaps: Vec<(u64, u64)>,
        ranges: Vec<(u64, u64)>,
    }

    fn reference(from: u64, values: &[u64], columns: usize) -> Reference {
        let count = values.len();
        let columns = columns.clamp(1, count);
        let mut heaps: Vec<Option<(u64, u64)>> = vec![None; columns];
        let mut ranges: Vec<Option<(u64, u64)>> = vec![None; columns];
        for (offset, &value) in values.iter().enumerate() {
            let c = offset * columns / count;
            let n = from + offset as u64;
            let (first, _) = heaps[c].unwrap_or((n, n));
            heaps[c] = Some((first, n));
            let (lo, hi) = ranges[c].unwrap_or((value, value));
            ranges[c] = Some((lo.min(value), hi.max(value)));
        }
        Reference {
            heaps: heaps
                .into_iter()
                .map(|h| h.expect("no empty column"))
                .collect(),
            ranges: ranges
                .into_iter()
                .map(|r| r.expect("no empty column"))
                .collect(),
        }
    }

    #[test]
    fn columns_split_heaps_and_keep_extremes() {
        let mut m = MinMax::new(10, 29, 4);
        assert_eq!(m.columns(), 4);
        assert!(m.downsampled());
        assert_eq!(
            (0..4).map(|c| m.heaps(c)).collect::<Vec<_>>(),
            [(10, 14), (15, 19), (20, 24), (25, 29)]
        );
        // Outside the range: ignored. Out of order: still in its column.
        m.push(9, 100);
        m.push(30, 100);
        m.push(25, 7);
        m.push(10, 3);
        m.push(29, 1);
        assert_eq!(m.range(0), Some((3, 3)));
        assert_eq!(m.range(1), None);
        assert_eq!(m.range(3), Some((1, 7)));
        assert_eq!(m.max_value(), 7);
    }

    #[test]
    fn fewer_heaps_than_columns_give_a_column_a_heap() {
        let mut m = MinMax::new(5, 7, 800);
        assert_eq!(m.columns(), 3);
        assert!(!m.downsampled());
        for n in 5..=7 {
            m.push(n, n * 2);
            assert_eq!(m.heaps(m.column_of(n)), (n, n));
        }
        assert_eq!(m.range(2), Some((14, 14)));
        assert_eq!(MinMax::new(0, 0, 0).columns(), 1);
    }

    #[test]
    fn the_whole_of_u64_fits() {
        let mut m = MinMax::new(0, u64::MAX, 1000);
        assert_eq!(m.heaps(0).0, 0);
        assert_eq!(m.heaps(999).1, u64::MAX);
        m.push(u64::MAX, 9);
        assert_eq!(m.column_of(u64::MAX), 999);
        assert_eq!(m.range(999), Some((9, 9)));
    }

    proptest! {
        /// The columns, their heaps and their extremes are those of the plain
        /// scan, whatever the order the heaps come in; the columns tile the
        /// range, and their spans differ by at most one heap.
        #[test]
        fn min_max_agrees_with_a_scan_per_column(
            from in prop_oneof![0u64..1000, (u64::MAX - 5000)..=(u64::MAX - 3000)],
            (values, order) in proptest::collection::vec(0u64..50, 1..3000)
                .prop_flat_map(|values| {
                    let order = Just((0..values.len()).collect::<Vec<_>>()).prop_shuffle();
                    (Just(values), prop_oneof![Just(None), order.prop_map(Some)])
                }),
            columns in 0usize..200,
        ) {
            let to = from + values.len() as u64 - 1;
            let mut m = MinMax::new(from, to, columns);
            match &order {
                None => {
                    for (i, &v) in values.iter().enumerate() {
                        m.push(from + i as u64, v);
                    }
                }
                Some(order) => {
                    for &i in order {
                        m.push(from + i as u64, values[i]);
                    }
                }
            }
            let plain = reference(from, &values, columns);
            prop_assert_eq!(m.columns(), plain.heaps.len());
            prop_assert_eq!(m.downsampled(), m.columns() < values.len());
            let mut next = from;
            for c in 0..m.columns() {
                let (first, last) = m.heaps(c);
                prop_assert_eq!((first, last), plain.heaps[c]);
                prop_assert_eq!(m.range(c), Some(plain.ranges[c]));
                prop_assert_eq!(first, next);
                next = last + 1;
                for n in first..=last {
                    prop_assert_eq!(m.column_of(n), c);
                }
            }
            prop_assert_eq!(next, to + 1);
            let spans: Vec<u64> = plain.heaps.iter().map(|&(a, b)| b - a + 1).collect();
            prop_assert!(spans.iter().max().unwrap() - spans.iter().min().unwrap() <= 1);
            prop_assert_eq!(m.max_value(), *values.iter().max().unwrap());
        }
    }
}
