//! Tests of the rare-value engine against the plain one.
use super::mask::{parity_words, walsh_hadamard};
use super::pipeline::block_marks;
use super::single::pair_marks;
use super::small::small_run_with;
use super::*;
use crate::heap::simd;
use proptest::prelude::*;

fn values(digits: &[u8], n: usize, plain: bool) -> Vec<u32> {
    rules_values(&TakeBreak::new(digits).unwrap(), n, plain)
}

/// Every instruction path this processor can run, as a strategy.
fn paths() -> impl Strategy<Value = Path> {
    prop::sample::select(Path::supported_paths())
}

/// The values of `digits` to `n` on `path`, with the engine's default choices.
fn path_values(digits: &[u8], n: usize, path: Path) -> Vec<u32> {
    let mut engine = Engine::new(TakeBreak::new(digits).unwrap());
    engine.set_path(path).unwrap();
    let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
    engine.values().to_u32()
}

fn rules_values(rules: &TakeBreak, n: usize, plain: bool) -> Vec<u32> {
    let rules = rules.clone();
    let mut engine = if plain {
        Engine::plain(rules)
    } else {
        Engine::new(rules)
    };
    let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
    engine.values().to_u32()
}

#[test]
fn kayles_and_dawson() {
    // OEIS A002186 (Kayles, 0.77) and A002187 (Dawson's Kayles, 0.07).
    assert_eq!(
        values(&[0, 7, 7], 20, true),
        [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1]
    );
    assert_eq!(
        values(&[0, 0, 7], 20, true),
        [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
    );
}

#[test]
fn walsh_hadamard_counts_parities() {
    let mut h = vec![3, 0, 1, 2];
    walsh_hadamard(&mut h);
    // mask 1: values 0,2 even (3+1), 1,3 odd (0+2); mask 3: 0,3 even (5), 1,2 odd (1).
    assert_eq!(h, [6, 2, 0, 4]);
}

#[test]
fn rare_value_engine_agrees_on_sparse_games() {
    // 0.16, 0.1777, 0.6 and 0.354 have sparse spaces (Flammenkamp's tables).
    // 0.007 takes a sum-free set. Every path this processor can run.
    for digits in [
        &[0u8, 1, 6][..],
        &[0, 1, 7, 7, 7],
        &[0, 6],
        &[0, 3, 5, 4],
        &[0, 0, 0, 7],
    ] {
        let plain = values(digits, 30_000, true);
        for path in Path::supported_paths() {
            let fast = path_values(digits, 30_000, path);
            assert_eq!(fast, plain, "{digits:?} on {path}");
        }
    }
}

#[test]
fn the_split_is_found_for_0_16() {
    let rules = TakeBreak::new(&[0, 1, 6]).unwrap();
    let mut engine = Engine::new(rules);
    let _ = engine.extend_to(20_000, &mut |_| ControlFlow::Continue(()));
    assert!(engine.split().is_some());
    assert!(engine.stats().rare_heaps_computed > 0);
}

#[test]
fn wide_values_are_kept_exactly() {
    let mut v = Values::default();
    v.push(7);
    v.push(70_000);
    assert_eq!(v.get(0), 7);
    assert_eq!(v.get(1), 70_000);
    assert!(matches!(v, Values::Wide(_)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_code_agrees_with_the_plain_engine(
        digits in proptest::collection::vec(0u8..8, 1..5),
        n in 0usize..9000,
        path in paths(),
    ) {
        let mut digits = digits;
        digits.insert(0, 0);
        prop_assert_eq!(path_values(&digits, n, path), values(&digits, n, true));
    }

    #[test]
    fn every_mix_of_vector_and_scalar_paths_agrees(
        digits in proptest::collection::vec(0u8..8, 1..5),
        first in prop_oneof![Just(0u8), Just(4u8)],
        n in 0usize..9000,
        two_threads in any::<bool>(),
        all_scalar in any::<bool>(),
        small in any::<bool>(),
        path in paths(),
    ) {
        // A first digit of 4 splits the heap being computed itself.
        let mut digits = digits;
        digits.insert(0, first);
        let rules = TakeBreak::new(&digits).unwrap();
        let mut engine = Engine::new(rules);
        engine.set_path(path).unwrap();
        engine.parallel_from(if two_threads { 0 } else { usize::MAX });
        if all_scalar {
            engine.scalar_search();
        } else {
            engine.scalar_search_only();
        }
        if !small {
            engine.no_small_run();
        }
        let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
        prop_assert_eq!(engine.values().to_u32(), values(&digits, n, true));
    }

    #[test]
    fn the_small_value_loop_agrees_with_the_plain_engine(
        digits in proptest::collection::vec(0u8..8, 1..9),
        n in 1000usize..6000,
        small in any::<bool>(),
        path in paths(),
    ) {
        // Codes up to eight digits: split sizes near each other take
        // the gather of four partners, others one gather per size.
        let mut digits = digits;
        digits.insert(0, 0);
        let rules = TakeBreak::new(&digits).unwrap();
        let mut engine = Engine::new(rules);
        engine.set_path(path).unwrap();
        engine.parallel_from(usize::MAX);
        if !small {
            engine.no_small_run();
        }
        let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
        let found = engine.values().to_u32();
        // The bound stays a power of two above every value (the marks
        // and the mex rely on it).
        let top = found.iter().copied().max().unwrap_or(0);
        prop_assert!(engine.work.bound > top && engine.work.bound.is_power_of_two());
        prop_assert_eq!(found, values(&digits, n, true));
    }

    #[test]
    fn blocks_on_one_or_two_threads_agree_with_the_plain_engine(
        digits in proptest::collection::vec(0u8..8, 1..5),
        n in 2048usize..12000,
        path in paths(),
        helper in any::<bool>(),
    ) {
        let mut digits = digits;
        digits.insert(0, 0);
        let rules = TakeBreak::new(&digits).unwrap();
        let mut engine = Engine::new(rules);
        engine.set_path(path).unwrap();
        engine.parallel_from(0);
        engine.block_helper(helper);
        // Small values would take the small-value loop instead.
        engine.no_small_run();
        let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
        prop_assert_eq!(engine.values().to_u32(), values(&digits, n, true));
    }

    #[test]
    fn splits_are_exact_whatever_the_mask(
        digits in proptest::collection::vec(0u8..8, 1..4),
        first in prop_oneof![Just(0u8), Just(4u8)],
        unequal in any::<bool>(),
        mask in 1u32..64,
        domain in any::<bool>(),
        shift in 0u32..2,
        n in 100usize..1500,
    ) {
        let mut digits = digits;
        digits.insert(0, first);
        let rules = TakeBreak::new(&digits).unwrap();
        let rules = if unequal { rules.unequal_parts() } else { rules };
        let plain = rules_values(&rules, n, true);
        let split = Split { mask, free: 0, domain, shift };
        let rare: Vec<u32> = (1..n).filter(|&i| split.class(i, plain[i]) == 0).map(|i| i as u32).collect();
        let odd = parity_words(mask);
        let fixed = rare_value_with(&rules, split, &odd, &rare, &plain[..n], n);
        prop_assert_eq!(fixed, plain[n]);
    }

    #[test]
    fn sum_free_splits_are_exact_whatever_the_set(
        digits in proptest::collection::vec(0u8..8, 1..4),
        first in prop_oneof![Just(0u8), Just(4u8)],
        unequal in any::<bool>(),
        order in Just((1u32..64).collect::<Vec<u32>>()).prop_shuffle(),
        n in 100usize..1500,
    ) {
        let mut digits = digits;
        digits.insert(0, first);
        let rules = TakeBreak::new(&digits).unwrap();
        let rules = if unequal { rules.unequal_parts() } else { rules };
        let plain = rules_values(&rules, n, true);
        // A random sum-free set: no two members XOR to a third.
        let mut set: Vec<u32> = Vec::new();
        for v in order {
            if !set.iter().any(|a| set.contains(&(a ^ v))) {
                set.push(v);
            }
        }
        let mut odd = vec![0u64; MAX_RARE_BOUND as usize / 64];
        for v in &set {
            odd[(*v >> 6) as usize] |= 1 << (v & 63);
        }
        let split = Split { mask: 0, free: set.len() as u32, domain: false, shift: 0 };
        let rare: Vec<u32> = (1..n).filter(|&i| !set.contains(&plain[i])).map(|i| i as u32).collect();
        let fixed = rare_value_with(&rules, split, &odd, &rare, &plain[..n], n);
        prop_assert_eq!(fixed, plain[n]);
    }
}

/// The rare heaps of a table under the parity of a mask (see [`Split`]),
/// their values and the common values' words.
struct ParitySplit {
    split: Split,
    rare: Vec<u32>,
    rare_values: Vec<u32>,
    odd: Vec<u64>,
}

impl ParitySplit {
    fn of(table: &[u16], mask: u32) -> Self {
        let split = Split {
            mask,
            free: 0,
            domain: false,
            shift: 0,
        };
        Self::under(table, split, parity_words(mask))
    }

    /// The greedy sum-free split that the engine would choose for `table`
    /// (`0.007`'s kind), with its rare heaps.
    fn sum_free(table: &[u16]) -> Self {
        let counts = super::mask::ValueCounts::of(table.len(), |i| u32::from(table[i]));
        let (split, odd) = super::sum_free::choose_sum_free(&counts).expect("a sum-free split");
        Self::under(table, split, odd)
    }

    /// `split` (common values `odd`) with the rare heaps of `table`.
    fn under(table: &[u16], split: Split, odd: Vec<u64>) -> Self {
        let rare: Vec<u32> = (1..table.len())
            .filter(|&i| rare_under(&split, &odd, i, u32::from(table[i])))
            .map(|i| i as u32)
            .collect();
        let rare_values = rare.iter().map(|&r| u32::from(table[r as usize])).collect();
        ParitySplit {
            split,
            rare,
            rare_values,
            odd,
        }
    }

    /// What the rare-value method needs, on the portable path.
    fn context<'a>(&'a self, rules: &'a TakeBreak) -> RareSplit<'a> {
        RareSplit {
            rules,
            split: self.split,
            odd: &self.odd,
            rare: &self.rare,
            rare_values: &self.rare_values,
            vector: Vector::on(Path::Portable),
            far: None,
        }
    }
}

/// [`block_marks`] with marks of `W` words, against [`pair_marks`] heap by
/// heap, on every path.
fn block_marks_agree<const W: usize>(
    context: &RareSplit,
    start: usize,
    old: &[u16],
    block: usize,
) -> Result<(), TestCaseError> {
    for path in Path::supported_paths() {
        let mut marks = vec![Bits::<W>([0; W]); block];
        let steps = block_marks(context, start, old, &mut marks, path, None);
        let mut total = 0;
        for (i, got) in marks.iter().enumerate() {
            let mut expected = Bits::<W>([0; W]);
            let scratch = &mut Scratch::default();
            total += pair_marks(
                context,
                start + i,
                old,
                Some(old.len()),
                &mut expected,
                scratch,
            );
            prop_assert_eq!(got.0, expected.0, "heap {} on {}", start + i, path);
        }
        prop_assert_eq!(steps, total);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn block_marks_are_pair_marks_heap_by_heap(
        digits in proptest::collection::vec(0u8..8, 0..5),
        first in prop_oneof![Just(0u8), Just(4u8)],
        unequal in any::<bool>(),
        mask in 1u32..64,
        cut in 1usize..1200,
        block in 1usize..700,
    ) {
        let mut digits = digits;
        digits.insert(0, first);
        let rules = TakeBreak::new(&digits).unwrap();
        let rules = if unequal { rules.unequal_parts() } else { rules };
        let table: Vec<u16> = rules_values(&rules, cut, true)
            .iter()
            .map(|v| *v as u16)
            .collect();
        let parts = ParitySplit::of(&table[..cut], mask);
        let context = parts.context(&rules);
        let old = &table[..cut];
        let start = cut + cut / 3;
        // 64 rows at once for values below 256, 32 below 1024, 16 below 2048.
        block_marks_agree::<4>(&context, start, old, block)?;
        block_marks_agree::<16>(&context, start, old, block)?;
        block_marks_agree::<32>(&context, start, old, block)?;
    }

    #[test]
    fn unequal_parts_agree_with_the_definition(
        digits in proptest::collection::vec(0u8..16, 0..4),
        first in prop_oneof![Just(0u8), Just(4u8), Just(8u8), Just(12u8)],
        unequal in any::<bool>(),
        n in 0usize..120,
    ) {
        // Hexadecimal digits too: three heaps, all different when
        // parts must differ (the plain engine only: no split then).
        let mut digits = digits;
        digits.insert(0, first);
        let rules = TakeBreak::new(&digits).unwrap();
        let rules = if unequal { rules.unequal_parts() } else { rules };
        let expected = by_definition(rules.digits(), unequal, n);
        prop_assert_eq!(&rules_values(&rules, n, true), &expected);
        prop_assert_eq!(&rules_values(&rules, n, false), &expected);
    }

    #[test]
    fn unequal_parts_agree_on_every_path(
        digits in proptest::collection::vec(0u8..8, 0..5),
        first in prop_oneof![Just(0u8), Just(4u8)],
        n in 0usize..9000,
        two_threads in any::<bool>(),
        marks in prop_oneof![Just("vector"), Just("scalar")],
        search in prop_oneof![Just("vector"), Just("scalar")],
        path in paths(),
    ) {
        let mut digits = digits;
        digits.insert(0, first);
        let rules = TakeBreak::new(&digits).unwrap().unequal_parts();
        let mut engine = Engine::new(rules.clone());
        engine.set_path(path).unwrap();
        engine.parallel_from(if two_threads { 0 } else { usize::MAX });
        if marks == "scalar" {
            engine.scalar_marks();
        }
        if search == "scalar" {
            engine.scalar_search_only();
        }
        let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
        prop_assert_eq!(engine.values().to_u32(), rules_values(&rules, n, true));
    }
}

/// G(n) by the rare-value method with the given split and rare heaps,
/// searched one split at a time and (where the values fit 16 bits) with
/// [`simd::search`], which must agree.
fn rare_value_with(
    rules: &TakeBreak,
    split: Split,
    odd: &[u64],
    rare: &[u32],
    table: &[u32],
    n: usize,
) -> u32 {
    fn run<T: Cell>(context: &RareSplit, table: &[T], n: usize, bound: u32) -> u32 {
        let mut stats = Stats::default();
        let scratch = &mut Scratch::default();
        match bound {
            0..=64 => rare_value_fixed::<_, 1>(context, n, table, &mut stats, bound, scratch),
            65..=256 => rare_value_fixed::<_, 4>(context, n, table, &mut stats, bound, scratch),
            _ => rare_value_fixed::<_, 16>(context, n, table, &mut stats, bound, scratch),
        }
    }
    let bound = (table.iter().copied().max().unwrap_or(0) + 1).next_power_of_two();
    let rare_values: Vec<u32> = rare.iter().map(|r| table[*r as usize]).collect();
    let mut context = RareSplit {
        rules,
        split,
        odd,
        rare,
        rare_values: &rare_values,
        vector: Vector::on(Path::Portable),
        far: None,
    };
    let scalar = run(&context, table, n, bound);
    let narrow: Vec<u16> = table.iter().map(|v| *v as u16).collect();
    let paths = Path::supported_paths();
    for &path in &paths {
        for (marks, search) in [(path, path), (path, Path::Portable), (Path::Portable, path)] {
            context.vector = Vector {
                path,
                marks,
                search,
            };
            assert_eq!(
                run(&context, &narrow, n, bound),
                scalar,
                "vector paths differ (marks {marks}, search {search})"
            );
        }
    }
    for vector in paths {
        // The small-value loop is not used when parts must differ.
        if bound > 64 || n <= rules.digits.len() + 2 || rules.unequal {
            break;
        }
        let mut small = narrow[..n].to_vec();
        let (mut rare, mut rare_values) = (rare.to_vec(), rare_values.clone());
        small_run(
            rules,
            split,
            odd,
            &mut small,
            (&mut rare, &mut rare_values),
            n + 1,
            bound,
            vector,
        );
        assert_eq!(
            u32::from(small[n]),
            scalar,
            "the small-value loop differs (vector {vector})"
        );
        // The portable operations as compiled for any processor.
        let mut small = narrow[..n].to_vec();
        let (mut rare, mut rare_values) = (rare.to_vec(), rare_values.clone());
        // SAFETY: the portable operations need no processor features.
        unsafe {
            small_run_with::<simd::Portable>(
                rules,
                split,
                odd,
                &mut small,
                (&mut rare, &mut rare_values),
                n + 1,
                bound,
            )
        };
        assert_eq!(u32::from(small[n]), scalar, "the portable loop differs");
    }
    scalar
}

proptest! {
    #[test]
    fn value_counts_brought_up_to_date_agree_with_counts_afresh(
        table in prop::collection::vec(prop_oneof![0u32..64, 0u32..5000], 0..600),
        lengths in prop::collection::vec(0usize..600, 0..6),
    ) {
        // Reviews count the heaps added since the last one; a table that
        // got shorter is counted afresh.
        let value = |i: usize| table[i];
        let mut counts = mask::ValueCounts::default();
        for len in lengths {
            counts.count(len.min(table.len()), value);
        }
        counts.count(table.len(), value);
        let fresh = mask::ValueCounts::of(table.len(), value);
        prop_assert_eq!(counts.counted, fresh.counted);
        prop_assert_eq!(counts.wide, fresh.wide);
        prop_assert_eq!(counts.max(), fresh.max());
        for v in 0..MAX_RARE_BOUND as usize {
            let expected = (1..table.len()).filter(|&i| table[i] as usize == v).count() as u64;
            prop_assert_eq!(counts.heaps_with(v), expected);
        }
        let rules = TakeBreak::new(&[0, 7, 7]).unwrap();
        prop_assert_eq!(choose_split(&rules, &counts), choose_split(&rules, &fresh));
        prop_assert_eq!(choose_sum_free(&counts), choose_sum_free(&fresh));
        // A shorter table is counted afresh, whatever it holds now.
        if table.len() > 1 {
            let shorter = |i: usize| table[i] + 1;
            counts.count(table.len() - 1, shorter);
            let fresh = mask::ValueCounts::of(table.len() - 1, shorter);
            prop_assert_eq!(counts.counted, fresh.counted);
            prop_assert_eq!((counts.even, counts.odd), (fresh.even, fresh.odd));
        }
    }
}

/// G(n) by the definition over a given table (any values): the mex of
/// every option of heap `n` under `digits`.
fn mex_over(digits: &[u8], table: &[u16], n: usize) -> u16 {
    let mut seen = [false; 1 << 16];
    for (k, &d) in digits.iter().enumerate().skip(1) {
        if d & 1 != 0 && n == k {
            seen[0] = true;
        }
        if d & 2 != 0 && n > k {
            seen[usize::from(table[n - k])] = true;
        }
        if d & 4 != 0 && n >= k + 2 {
            for a in 1..=(n - k) / 2 {
                seen[usize::from(table[a] ^ table[n - k - a])] = true;
            }
        }
    }
    seen.iter().position(|s| !s).expect("a value is missing") as u16
}

proptest! {
    #[test]
    fn the_small_value_loop_is_exact_on_any_table_with_split_sizes_far_apart(
        prefix in prop::collection::vec(0u16..8, 200..400),
        mask in 1u32..16,
        far in 12usize..30,
        path in paths(),
    ) {
        // Splits of 1 and `far`: no code of that kind keeps its values
        // small for long, but the loop must be exact on any table, and its
        // search's byte copies must reach back past the largest split.
        let mut digits = vec![0u8; far + 1];
        digits[1] = 6;
        digits[far] = 4;
        let rules = TakeBreak::new(&digits).unwrap();
        let split = Split { mask, free: 0, domain: false, shift: 0 };
        let odd = parity_words(mask);
        let mut table = prefix.clone();
        table[0] = 0;
        let mut expected = table.clone();
        let rare: Vec<u32> = (1..table.len())
            .filter(|&i| split.class(i, u32::from(table[i])) == 0)
            .map(|i| i as u32)
            .collect();
        let mut rare_values: Vec<u32> = rare.iter().map(|&r| u32::from(table[r as usize])).collect();
        let mut rare = rare;
        let limit = table.len() + 300;
        small_run(&rules, split, &odd, &mut table, (&mut rare, &mut rare_values), limit, 8, path);
        for n in expected.len()..table.len() {
            let value = mex_over(&digits, &expected, n);
            expected.push(value);
        }
        prop_assert!(table.len() > prefix.len());
        prop_assert_eq!(table, expected);
    }
}

/// Values from the definition alone, for codes whose splits may have
/// to leave heaps of different sizes: every option listed as its heaps.
fn by_definition(digits: &[u8], unequal: bool, n: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for heap in 0..=n {
        let mut options = std::collections::BTreeSet::new();
        for (k, &d) in digits.iter().enumerate().take(heap + 1) {
            let m = heap - k;
            let mut parts: Vec<Vec<usize>> = Vec::new();
            if d & 1 != 0 && m == 0 {
                parts.push(vec![]);
            }
            if d & 2 != 0 && m > 0 {
                parts.push(vec![m]);
            }
            for a in 1..m {
                if d & 4 != 0 && a <= m - a {
                    parts.push(vec![a, m - a]);
                }
                for b in a..m.saturating_sub(a) {
                    if d & 8 != 0 && b <= m - a - b {
                        parts.push(vec![a, b, m - a - b]);
                    }
                }
            }
            for p in parts {
                if unequal && p.windows(2).any(|w| w[0] == w[1]) {
                    continue;
                }
                options.insert(p.iter().fold(0, |x, h| x ^ g[*h]));
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    g
}

#[test]
fn grundys_game_is_four_point_with_unequal_parts() {
    // OEIS A002188: Grundy's game.
    let rules = TakeBreak::new(&[4]).unwrap().unequal_parts();
    let first = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0,
    ];
    assert_eq!(rules_values(&rules, 20, true), first);
    assert_eq!(by_definition(&[4], true, 20), first);
    // Without the flag, 4. splits anyhow: the equal split adds 0.
    assert_eq!(values(&[4], 4, true), [0, 0, 1, 0, 1]);
}

#[test]
fn two_thread_blocks_agree_on_known_games() {
    // 0.6 and 0.007 (many rare heaps), 0.16 and Kayles from early on, and
    // without the small-value loop, which would take the last two.
    for digits in [&[0u8, 6][..], &[0, 0, 0, 7], &[0, 1, 6], &[0, 7, 7]] {
        let mut engine = Engine::new(TakeBreak::new(digits).unwrap());
        engine.parallel_from(0);
        engine.no_small_run();
        let _ = engine.extend_to(20_000, &mut |_| ControlFlow::Continue(()));
        assert_eq!(
            engine.values().to_u32(),
            values(digits, 20_000, true),
            "{digits:?}"
        );
    }
}

#[test]
fn treblecross_takes_a_sum_free_split() {
    let rules = TakeBreak::new(&[0, 0, 0, 7]).unwrap();
    let mut engine = Engine::new(rules);
    let _ = engine.extend_to(30_000, &mut |_| ControlFlow::Continue(()));
    let split = engine.split().expect("a split for 0.007");
    assert!(split.free > 0, "{split:?}");
    assert_eq!(
        engine.values().to_u32(),
        values(&[0, 0, 0, 7], 30_000, true)
    );
}

#[test]
fn reviews_come_sooner_while_rare_heaps_turn_up() {
    // 0.007 finds rare heaps all along: its split is looked at again after
    // an eighth more heaps. 0.16's last rare heap (of 52, under the mask
    // 30) is heap 13,935, and from there its reviews come at doublings.
    for (digits, n, eighth) in [
        (&[0, 0, 0, 7][..], 40_000, true),
        (&[0, 1, 6][..], 200_000, false),
    ] {
        let mut engine = Engine::new(TakeBreak::new(digits).unwrap());
        let mut reviews = Vec::new();
        while engine.values.len() <= n {
            let next = engine.next_review;
            let _ = engine.extend_to(next, &mut |_| ControlFlow::Continue(()));
            reviews.push(next);
        }
        let last = &reviews[reviews.len() - 3..];
        for pair in last.windows(2) {
            let (at, then) = (pair[0], pair[1]);
            let expected = if eighth { at + at / 8 } else { 2 * at };
            assert_eq!(then, expected, "{digits:?}: reviews {reviews:?}");
        }
    }
}

#[test]
fn the_histogram_counts_rare_heaps_as_the_table_does() {
    // A review compares splits by the heaps they leave rare, counted from
    // the histogram of values at even and at odd heaps: a domain split's
    // class depends on the heap's parity too.
    let table = values(&[0, 6], 5_000, false);
    let counts = ValueCounts::of(table.len(), |i| table[i]);
    for domain in [false, true] {
        let split = Split {
            mask: 494,
            free: 0,
            domain,
            shift: 1,
        };
        let common = parity_words(split.mask);
        let by_table = (1..table.len())
            .filter(|&i| rare_under(&split, &common, i, table[i]))
            .count();
        let by_counts = counts.heaps_where(|parity, v| rare_under(&split, &common, parity, v));
        assert_eq!(by_counts, by_table, "{split:?}");
    }
}

#[test]
fn a_review_keeps_the_split_with_fewer_rare_heaps() {
    // At each review of 0.007 (a greedy sum-free set), the split kept
    // leaves no more rare heaps than a fresh choice on the same heaps;
    // some fresh choices on the way leave more, and are not taken. The
    // list of rare heaps is always every heap rare under the split.
    let mut engine = Engine::new(TakeBreak::new(&[0, 0, 0, 7]).unwrap());
    let mut worse = 0;
    while engine.values.len() < 100_000 {
        let at = engine.next_review;
        let _ = engine.extend_to(at, &mut |_| ControlFlow::Continue(()));
        let values = &engine.values;
        let rare: Vec<u32> = (1..values.len())
            .filter(|&i| engine.is_rare(i, values.get(i)))
            .map(|i| i as u32)
            .collect();
        assert_eq!(rare, engine.rare, "heaps 0..={at}");
        // The review looked at heaps 0..at.
        let Some(split) = engine.split else { continue };
        let kept = rare.iter().filter(|&&r| (r as usize) < at).count();
        let counts = ValueCounts::of(at, |i| values.get(i));
        let (fresh, common) = sum_free::choose_sum_free(&counts).expect("a sum-free split");
        let under_fresh = (1..at)
            .filter(|&i| rare_under(&fresh, &common, i, values.get(i)))
            .count();
        assert!(
            kept <= under_fresh,
            "at {at}: {kept} rare heaps under {split:?}, {under_fresh} under a fresh choice"
        );
        worse += usize::from(under_fresh > kept);
    }
    assert!(
        worse > 0,
        "no fresh choice was worse: the test tests nothing"
    );
    // Values with these reviews (the table ends past 100,000, at a review).
    assert_eq!(
        engine.values().to_u32()[..=30_000],
        values(&[0, 0, 0, 7], 30_000, true)
    );
}

/// The smallest value of `want` that no split `(a, m - a)` of `table` has,
/// by looking at every split.
fn smallest_missing(table: &[u16], m: usize, want: &Bits<32>) -> Option<u32> {
    let found = |v: u32| (1..=m / 2).any(|a| u32::from(table[a] ^ table[m - a]) == v);
    (0..2048u32).find(|&v| want.0[(v >> 6) as usize] & (1 << (v & 63)) != 0 && !found(v))
}

/// The search of the heap past the end of `table` for `want`.
fn confirm_all(context: &RareSplit, table: &[u16], want: &Bits<32>) -> Option<u32> {
    let scratch = &mut Scratch::default();
    let seen: &mut [u8; MAX_RARE_BOUND as usize] =
        (&mut scratch.seen[..]).try_into().expect("buffer size");
    let mut stats = Stats::default();
    super::search::confirm::<u16, 32>(
        context,
        table.len(),
        table,
        &mut stats,
        want,
        (seen, &mut scratch.wanted),
    )
}

/// Officers' mask (0.6): a value is common when `v & 494` has an odd
/// number of 1s.
fn officers_common(v: u32) -> bool {
    (v & 494).count_ones() % 2 == 1
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn searches_find_the_smallest_missing_wanted_value_on_every_path(
        table in prop::collection::vec(0u16..2048, 1100..3000),
        picks in prop::collection::vec(0u32..2048, 0..24),
        small in any::<bool>(),
    ) {
        // Values below 2048 (marks of 32 words: the wide searches, with
        // the first splits marked in bytes) or below 256.
        let table: Vec<u16> = table.iter().map(|v| if small { v & 255 } else { *v }).collect();
        let rules = TakeBreak::new(&[0, 6]).unwrap();
        let n = table.len();
        let m = n - 1;
        let split = Split { mask: 1, free: 0, domain: false, shift: 0 };
        let odd = parity_words(1);
        let mut want = Bits::<32>([0; 32]);
        for v in &picks {
            let v = if small { v & 255 } else { *v };
            want.set(v);
        }
        let expected = smallest_missing(&table, m, &want);
        // The search's own runs (one, at these sizes), and three short
        // ones, so that the turns between runs are searched too.
        for runs in [None, Some([1, 97, 613])] {
            search::TEST_RUNS.with(|r| r.set(runs));
            for path in Path::supported_paths() {
                let context = RareSplit {
                    rules: &rules,
                    split,
                    odd: &odd,
                    rare: &[],
                    rare_values: &[],
                    vector: Vector::on(path),
                    far: None,
                };
                let got = confirm_all(&context, &table, &want);
                prop_assert_eq!(got, expected, "{} runs {:?}", path, runs);
            }
        }
        search::TEST_RUNS.with(|r| r.set(None));
    }

    #[test]
    fn the_search_order_takes_every_split_once_in_turns(
        half in 0usize..5000,
        second in 2usize..600,
        third in 0usize..2000,
    ) {
        let runs = [1, second, second + 1 + third];
        search::TEST_RUNS.with(|r| r.set(Some(runs)));
        let spans: Vec<(usize, usize)> = search::Order::new(half).collect();
        search::TEST_RUNS.with(|r| r.set(None));
        let mut seen = vec![0u8; half + 1];
        for &(from, to) in &spans {
            prop_assert!(1 <= from && from <= to && to <= half);
            for count in &mut seen[from..=to] {
                *count += 1;
            }
        }
        prop_assert!(seen[1..].iter().all(|&c| c == 1), "every split once");
        // Each run's spans in increasing order, the runs taken in turns
        // while more than one is left.
        let run = |a: usize| runs.iter().rposition(|&s| s <= a).expect("a run");
        for (j, pair) in spans.windows(2).enumerate() {
            let (x, y) = (run(pair[0].0), run(pair[1].0));
            if x == y {
                prop_assert_eq!(pair[0].1 + 1, pair[1].0, "a run's spans in order");
            }
            // The runs with spans still to come.
            let left: Vec<usize> = (0..3)
                .filter(|&i| spans[j + 1..].iter().any(|s| run(s.0) == i))
                .collect();
            if left.len() > 1 && left.contains(&x) {
                prop_assert_ne!(x, y, "a run twice in a row: {:?}", pair);
            }
        }
    }

    #[test]
    fn searches_through_packed_heaps_find_what_the_plain_search_finds(
        raw in prop::collection::vec(0u16..512, 1100..3000),
        picks in prop::collection::vec(0u32..600, 0..24),
        lo in 1usize..600,
        packed_len in 0usize..2000,
    ) {
        // Common values below 512 (one bit flipped where not), packed
        // from `lo` on: the searches read them as bytes past the cells.
        let table: Vec<u16> = raw
            .iter()
            .map(|&v| if officers_common(u32::from(v)) { v } else { v ^ 2 })
            .collect();
        let n = table.len();
        let m = n - 1;
        let hi = (lo + packed_len).min(m);
        let mut packed = Packed::new(table.clone(), lo, 494, 1);
        prop_assert!(packed.extend(hi, |_, v| officers_common(v)));
        packed.spoil_cells();
        let rules = TakeBreak::new(&[0, 6]).unwrap();
        let split = Split { mask: 494, free: 0, domain: false, shift: 0 };
        let odd = parity_words(494);
        let mut want = Bits::<32>([0; 32]);
        for &v in &picks {
            want.set(v);
        }
        let expected = smallest_missing(&table, m, &want);
        for path in Path::supported_paths() {
            for scalar in [false, true] {
                let mut vector = Vector::on(path);
                if scalar {
                    vector.search = Path::Portable;
                }
                let context = RareSplit {
                    rules: &rules,
                    split,
                    odd: &odd,
                    rare: &[],
                    rare_values: &[],
                    vector,
                    far: Some(packed.far()),
                };
                let got = confirm_all(&context, &packed.table, &want);
                prop_assert_eq!(got, expected, "{} (scalar search: {})", path, scalar);
            }
        }
    }
}

#[test]
fn officers_packed_past_its_rare_heaps_agrees_with_two_byte_cells() {
    let n = 200_000;
    let rules = TakeBreak::new(&[0, 6]).unwrap();
    let mut reference = Engine::new(rules.clone());
    reference.pack_with(None);
    let _ = reference.extend_to(n, &mut |_| ControlFlow::Continue(()));
    assert!(reference.packed_range().is_none());
    for path in Path::supported_paths() {
        for two_threads in [false, true] {
            let mut engine = Engine::new(rules.clone());
            engine.set_path(path).unwrap();
            engine.block_helper(two_threads);
            // Officers' last rare heap is 20,627: the bytes start at 32,768.
            engine.pack_with(Some((1 << 15, 1 << 15)));
            let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
            let (lo, hi) = engine.packed_range().expect("Officers packs");
            assert!(lo == 1 << 15 && hi > n - 3 * (1 << 15), "{lo}..{hi}");
            assert_eq!(engine.values(), reference.values(), "{path}");
            assert_eq!(
                engine.values().to_u32(),
                reference.values().to_u32(),
                "{path}"
            );
            assert_eq!(engine.stats().rare, reference.stats().rare);
        }
    }
    // Cut within the bytes, the table is two-byte cells again, and grows on.
    let mut engine = Engine::new(rules.clone());
    engine.pack_with(Some((1 << 15, 1 << 15)));
    let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
    // A checkpoint of a packed table holds every value.
    let dir = std::env::temp_dir().join(format!("grundy-packed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("officers.ckpt");
    crate::heap::checkpoint::save(&path, "0.6", engine.values()).unwrap();
    let loaded = crate::heap::checkpoint::load(&path, "0.6", &|_| Ok(()))
        .unwrap()
        .unwrap();
    assert!(matches!(loaded, Values::Narrow(_)));
    assert_eq!(&loaded, engine.values());
    std::fs::remove_dir_all(&dir).unwrap();
    let mut values = engine.values().clone();
    values.truncate(n - 10);
    assert!(matches!(values, Values::Packed(_)));
    values.truncate(100_000);
    assert!(matches!(values, Values::Narrow(_)));
    assert_eq!(values.to_u32(), reference.values().to_u32()[..100_000]);
    let mut resumed = Engine::resume(rules, values);
    resumed.pack_with(Some((1 << 15, 1 << 15)));
    let _ = resumed.extend_to(n, &mut |_| ControlFlow::Continue(()));
    assert!(resumed.packed_range().is_some());
    assert_eq!(resumed.values().to_u32(), reference.values().to_u32());
}

/// Officers' (0.6) table to `n` by the engine.
fn officers(n: usize) -> Vec<u16> {
    let mut engine = Engine::new(TakeBreak::new(&[0, 6]).unwrap());
    let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
    engine.values().to_u32().iter().map(|&v| v as u16).collect()
}

#[test]
fn options_compared_with_candidates_agree_with_their_marks_below_each_limit() {
    use super::pipeline::Compared;
    let cut = 50_000;
    let table = officers(cut);
    let rules = TakeBreak::new(&[0, 6]).unwrap();
    let parts = ParitySplit::of(&table, 494);
    let context = parts.context(&rules);
    let rare = &parts.rare;
    let old = &table[..cut];
    let heaps = 256;
    for path in Path::supported_paths() {
        let mut exact = vec![Bits::<8>([0; 8]); heaps];
        block_marks(&context, cut, old, &mut exact, path, None);
        for candidates in [4, 12, 32] {
            let mut marks = vec![Bits::<8>([0; 8]); heaps];
            let mut limits = vec![0; heaps];
            let compared = Compared {
                limits: &mut limits,
                last_rare: *rare.last().unwrap() as usize,
                candidates,
            };
            block_marks(&context, cut, old, &mut marks, path, Some(compared));
            assert!(limits.iter().any(|&l| l < 512), "{path}: nothing compared");
            for (i, ((got, want), &limit)) in marks.iter().zip(&exact).zip(&limits).enumerate() {
                for v in 0..limit.min(512) {
                    let bit = |b: &Bits<8>| b.0[(v / 64) as usize] >> (v % 64) & 1;
                    assert_eq!(
                        bit(got),
                        bit(want),
                        "{path}, {candidates}: heap {}, value {v}",
                        cut + i
                    );
                }
            }
        }
    }
}

/// `rules` to `n` with options compared with candidates on every path (four
/// a heap, as many as allowed, and four with a helper thread) gives the
/// values of marks only. Four are too few for some heaps, which are marked
/// again in full, on the paths where `compares` says options are compared.
fn compared_agrees_with_marks_only(rules: TakeBreak, n: usize, compares: impl Fn(Path) -> bool) {
    let mut reference = Engine::new(rules.clone());
    reference.block_helper(false);
    reference.compare_with(0);
    let _ = reference.extend_to(n, &mut |_| ControlFlow::Continue(()));
    assert_eq!(reference.stats().remarked, 0);
    for path in Path::supported_paths() {
        for (candidates, two_threads) in [(4, false), (compared::CANDIDATES, false), (4, true)] {
            let mut engine = Engine::new(rules.clone());
            engine.set_path(path).unwrap();
            engine.block_helper(two_threads);
            engine.compare_with(candidates);
            let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
            let case = format!("{path}, {candidates} candidates, two threads: {two_threads}");
            assert_eq!(engine.values(), reference.values(), "{case}");
            if compares(path) && candidates == 4 && !two_threads {
                assert!(engine.stats().remarked > 0, "{case}");
            }
        }
    }
}

#[test]
fn officers_with_options_compared_with_candidates_agrees_with_marks_only() {
    // In bytes, on every path.
    compared_agrees_with_marks_only(TakeBreak::new(&[0, 6]).unwrap(), 120_000, |_| true);
}

#[test]
fn options_compared_in_words_agree_with_their_marks_below_each_limit() {
    use super::pipeline::Compared;
    // 0.007: a sum-free split, no byte comparison; 16-bit lanes with AVX-512.
    let rules = TakeBreak::new(&[0, 0, 0, 7]).unwrap();
    let cut = 40_000;
    let mut engine = Engine::new(rules.clone());
    let _ = engine.extend_to(cut, &mut |_| ControlFlow::Continue(()));
    let table: Vec<u16> = engine.values().to_u32().iter().map(|&v| v as u16).collect();
    let parts = ParitySplit::sum_free(&table);
    assert!(parts.rare.len() > 4 * 512, "too few rare heaps to compare");
    let common = |v: u32| !rare_under(&parts.split, &parts.odd, 0, v);
    let old = &table[..cut];
    let heaps = 256;
    for path in Path::supported_paths() {
        let context = RareSplit {
            vector: Vector::on(path),
            ..parts.context(&rules)
        };
        let mut exact = vec![Bits::<16>([0; 16]); heaps];
        block_marks(&context, cut, old, &mut exact, path, None);
        for candidates in [4, 12, 32] {
            let mut marks = vec![Bits::<16>([0; 16]); heaps];
            let mut limits = vec![0; heaps];
            let compared = Compared {
                limits: &mut limits,
                last_rare: *parts.rare.last().unwrap() as usize,
                candidates,
            };
            block_marks(&context, cut, old, &mut marks, path, Some(compared));
            let some = limits.iter().any(|&l| l != u32::MAX);
            // Only AVX-512 compares 16-bit options.
            assert_eq!(some, path == Path::Avx512, "{path}, {candidates}");
            for (i, ((got, want), &limit)) in marks.iter().zip(&exact).zip(&limits).enumerate() {
                for v in 0..1024 {
                    let bit = |b: &Bits<16>| b.0[(v / 64) as usize] >> (v % 64) & 1;
                    let case = format!("{path}, {candidates}: heap {}, value {v}", cut + i);
                    // Never a value no option makes; every common one below the limit.
                    assert!(bit(got) <= bit(want), "{case}");
                    if v < limit && common(v) {
                        assert_eq!(bit(got), bit(want), "{case}");
                    }
                }
            }
        }
    }
}

#[test]
fn sum_free_codes_with_options_compared_agree_with_marks_only() {
    // 0.007: in 16-bit lanes, with AVX-512 only.
    let rules = TakeBreak::new(&[0, 0, 0, 7]).unwrap();
    compared_agrees_with_marks_only(rules, 60_000, |path| path == Path::Avx512);
}
