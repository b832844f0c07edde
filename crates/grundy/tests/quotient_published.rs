//! Misère quotients checked against A. Siegel's MisereSolver and the
//! published orders.
//!
//! `data/miseresolver.txt` holds MisereSolver's quotients, heap by heap,
//! for the codes it lists: MisereSolver from the CGSuite sources at commit
//! e909ab8bc330e39bc837d26b22bc8a96f9fa512a
//! (`lib/core/src/main/scala/org/cgsuite/core/misere/solver`), run through
//! `bench/miseresolver/QuotientDriver.java`. Each line is `code n order
//! p-size pattern`, the pattern giving for each heap 0..=n the least heap
//! with the same element, and `P` when that element is in the P-portion:
//! the same for any numbering of the elements.

use grundy::quotient::{build_with, Limits, Method, Quotient};

fn quotient(game: &str, max_heap: u32) -> Quotient {
    let mut family = grundy::spec::parse_game(game, Default::default()).unwrap();
    let limits = Limits {
        max_order: 20_000,
        max_states: 2_000_000,
    };
    build_with(family.as_mut(), max_heap, &limits, Method::PredictOnly)
        .unwrap_or_else(|e| panic!("{game} to heap {max_heap}: {e}"))
}

/// The line MisereSolver's driver prints for a quotient.
fn line(q: &Quotient) -> String {
    let map = &q.heap_map;
    let pattern: Vec<String> = map
        .iter()
        .map(|x| {
            let first = map.iter().position(|y| y == x).unwrap();
            let p = if q.monoid.p[*x as usize] { "P" } else { "" };
            format!("{first}{p}")
        })
        .collect();
    format!(
        "{} {} {} {}",
        q.max_heap,
        q.monoid.order(),
        q.p_portion().len(),
        pattern.join(",")
    )
}

#[test]
fn quotients_agree_with_miseresolver_at_every_heap() {
    let data = include_str!("data/miseresolver.txt");
    let mut codes = std::collections::BTreeSet::new();
    let mut heaps = 0;
    for row in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (code, expected) = row.split_once(' ').unwrap();
        let n: u32 = expected.split(' ').next().unwrap().parse().unwrap();
        let q = quotient(code, n);
        assert_eq!(line(&q), expected, "{code} to heap {n}");
        // The history gives the same sizes as the separate builds.
        let [h, order, p] = q.history[n as usize];
        assert_eq!((h, order as usize), (n as u64, q.monoid.order()));
        assert_eq!(p as usize, q.p_portion().len());
        codes.insert(code);
        heaps += 1;
    }
    assert!(codes.len() >= 20, "{} codes", codes.len());
    assert!(heaps >= 400, "{heaps} heaps");
}

#[test]
fn quotients_proved_final_agree_with_miseresolver_far_past_the_proof() {
    // The last lines of the data: MisereSolver built these quotients heap
    // by heap to heap 100-300; grundy proves each final (its heap map
    // periodic) well before and fills in the rest by the period.
    for (code, n, preperiod, period) in [
        ("0.77", 300, 71, 12),
        ("0.15", 300, 66, 10),
        ("0.71", 200, 3, 6),
        ("0.53", 200, 21, 9),
        ("0.72", 200, 16, 4),
        ("0.34", 200, 7, 8),
        ("0.75", 100, 8, 2),
        ("4.3", 100, 2, 2),
    ] {
        let q = quotient(code, n);
        let f = q
            .finality
            .unwrap_or_else(|| panic!("{code}: not proved final"));
        assert_eq!((f.preperiod, f.period), (preperiod, period), "{code}");
        assert!(f.proved_at < n, "{code}: proved at {}", f.proved_at);
        // Heaps past the quotient's own range follow the period.
        let far = 1_000_000_007u64;
        let e = preperiod as u64;
        let same = e + (far - e) % period as u64;
        assert_eq!(q.element(&[far]).unwrap(), q.heap_map[same as usize]);
    }
}

#[test]
fn a_quotient_not_proved_final_refuses_heaps_past_it() {
    let q = quotient("0.07", 20);
    assert!(q.finality.is_none());
    let e = q.element(&[21]).unwrap_err().to_string();
    assert!(e.contains("heap 21 is beyond the quotient"), "{e}");
}

#[test]
fn dawsons_kayles_to_heap_30_has_order_360() {
    // Q_30(0.07) has order 360: A. Siegel, "Some MisereSolver questions
    // answered", Misère games blog (miseregames.wordpress.com), August 2007.
    let q = quotient("0.07", 30);
    assert_eq!(q.monoid.order(), 360);
}
