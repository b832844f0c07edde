//! grundy-verify against certificates written by grundy: round trips on many
//! codes, every kind of corruption, and a property test against the plain
//! engine. grundy is only a dev-dependency: it writes certificates, the
//! checker under test never links it.

use grundy::heap::rare::{Engine, TakeBreak};
use proptest::prelude::*;
use std::ops::ControlFlow;
use std::process::Command;

/// A certificate as grundy writes it: of the proven period when `max` is
/// given (the claim is null when no period is proven within `max` heaps),
/// else of `len` values without a claim.
fn written(game: &str, max: Option<u64>, len: u64) -> Vec<u8> {
    let mut family = grundy::spec::parse_game(game, Default::default()).unwrap();
    let mut out = Vec::new();
    match max {
        Some(max) => {
            let report = family.period(max).unwrap();
            let claim = report.periodicity.as_ref().filter(|_| report.proven);
            family
                .write_certificate(report.checked_to + 1, claim, &mut out)
                .unwrap();
        }
        None => {
            family.write_certificate(len, None, &mut out).unwrap();
        }
    }
    out
}

/// Runs grundy-verify on `bytes`: exit status, stdout, stderr.
fn verify(bytes: &[u8]) -> (i32, String, String) {
    static COUNT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "grundy-verify-test-{}-{n}.cert",
        std::process::id()
    ));
    std::fs::write(&path, bytes).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_grundy-verify"))
        .arg(&path)
        .output()
        .unwrap();
    std::fs::remove_file(&path).ok();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// The header line and the offset of the first value.
fn header(bytes: &[u8]) -> (serde_json::Value, usize) {
    let end = bytes.iter().position(|b| *b == b'\n').unwrap();
    (serde_json::from_slice(&bytes[..end]).unwrap(), end + 1)
}

/// The same certificate with its header replaced.
fn with_header(bytes: &[u8], header: &serde_json::Value) -> Vec<u8> {
    let (_, start) = self::header(bytes);
    let mut out = serde_json::to_vec(header).unwrap();
    out.push(b'\n');
    out.extend_from_slice(&bytes[start..]);
    out
}

#[test]
fn proven_periods_round_trip() {
    // Periods: Guy and Smith (1956) for 0.07 (53, 34); Winning Ways ch. 4 for
    // 0.77 (Kayles, 71, 12) and 0.137 (Dawson's Chess); Gangolli and Plambeck
    // (1989) for 0.16 (105351, 149459).
    for (game, e, p) in [
        ("0.07", 53, 34),
        ("0.77", 71, 12),
        ("0.16", 105351, 149459),
        ("0.6", 0, 0),
        ("4.04", 1, 2),
        ("0.137", 0, 0),
        ("0.354", 0, 0),
    ] {
        let max = if game == "0.354" { 1 << 14 } else { 1 << 20 };
        let bytes = written(game, Some(max), 0);
        let (head, _) = header(&bytes);
        let (status, out, err) = verify(&bytes);
        assert_eq!(status, 0, "{game}: {out}{err}");
        assert!(out.starts_with("verified: the "), "{game}: {out}");
        if p > 0 {
            assert_eq!(head["claim"]["preperiod"], e, "{game}");
            assert_eq!(head["claim"]["period"], p, "{game}");
            assert!(
                out.contains(&format!("preperiod {e} and period {p}, both least")),
                "{out}"
            );
        }
        if game == "0.354" {
            // Not proven within 2^14 heaps: only the values are checked.
            assert!(head["claim"].is_null());
            assert!(out.contains("no period claimed"), "{out}");
        }
    }
}

#[test]
fn sequences_of_every_kind_of_code_round_trip() {
    for (game, len) in [
        ("grundy", 3000),
        ("hex:0.F8", 150),
        ("hex:0.8", 120),
        ("hex:4.9", 100),
        ("0.4", 400),
        ("4.0", 300),
        ("0.3", 2000),
        ("0.007", 3000),
        ("kayles", 2000),
    ] {
        let bytes = written(game, None, len);
        let (head, _) = header(&bytes);
        assert_eq!(head["values"], len, "{game}");
        let (status, out, err) = verify(&bytes);
        assert_eq!(status, 0, "{game}: {out}{err}");
        assert!(out.contains("no period claimed"), "{game}: {out}");
    }
    // The names: Kayles is its code.
    let (head, _) = header(&written("kayles", None, 10));
    assert_eq!(head["game"], "0.77");
}

#[test]
fn a_changed_value_is_named_by_its_heap() {
    let bytes = written("0.16", Some(1 << 20), 0);
    let (head, start) = header(&bytes);
    assert_eq!(head["width"], 1);
    for heap in [0usize, 1, 2, 17, 1000, 105_350, 200_000, 509_620] {
        for delta in [1u8, 2, 7] {
            let mut bad = bytes.clone();
            bad[start + heap] = bad[start + heap].wrapping_add(delta);
            let (status, out, _) = verify(&bad);
            assert_eq!(status, 1, "heap {heap} + {delta}: {out}");
            assert!(
                out.starts_with(&format!("REFUTED: heap {heap}: G({heap}) = ")),
                "heap {heap} + {delta}: {out}"
            );
        }
    }
}

#[test]
fn a_changed_claim_fails() {
    let bytes = written("0.07", Some(1 << 12), 0);
    let (head, _) = header(&bytes);
    for (field, value, says) in [
        ("period", 35, "fails"),
        ("period", 68, "fails"),
        ("period", 17, "fails"),
        ("preperiod", 52, "fails"),
        ("preperiod", 0, "fails"),
        ("period", 0, "a period is at least 1"),
        ("saltus", 1, "only saltus 0"),
    ] {
        let mut changed = head.clone();
        changed["claim"][field] = value.into();
        let (status, out, _) = verify(&with_header(&bytes, &changed));
        assert_eq!(status, 1, "{field} {value}: {out}");
        assert!(out.starts_with("REFUTED: the claim"), "{out}");
        assert!(out.contains(says), "{field} {value}: {out}");
    }
    // A later preperiod, or a multiple of the period, holds but is not
    // least: with enough values, that is what is said.
    let long = written("0.07", None, 400);
    for (e, p, says) in [
        (54, 34, "the preperiod is not least, G(53) = G(87) already"),
        (53, 68, "the period is not least, 34 is a period too"),
    ] {
        let mut changed = header(&long).0;
        changed["claim"] = serde_json::json!({"preperiod": e, "period": p, "saltus": 0});
        let (status, out, _) = verify(&with_header(&long, &changed));
        assert_eq!(status, 1, "{out}");
        assert!(out.contains(says), "{out}");
    }
    // Grundy's game has no periodicity theorem: a claim is not accepted.
    let grundy = written("grundy", None, 200);
    let mut changed = header(&grundy).0;
    changed["claim"] = serde_json::json!({"preperiod": 0, "period": 1, "saltus": 0});
    let (status, out, _) = verify(&with_header(&grundy, &changed));
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("unequal heaps"), "{out}");
}

#[test]
fn too_few_values_for_the_theorem_fail_the_claim() {
    let bytes = written("0.07", Some(1 << 12), 0);
    let (mut head, start) = header(&bytes);
    let n = head["values"].as_u64().unwrap() as usize;
    head["values"] = (n - 1).into();
    let short = with_header(&bytes[..start + n - 1], &head);
    let (status, out, _) = verify(&short);
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("but the certificate stops at heap"), "{out}");
}

#[test]
fn common_lists_that_are_not_closed_are_refused_and_none_is_fine() {
    let bytes = written("0.16", Some(1 << 20), 0);
    let (head, _) = header(&bytes);
    let mut open = head.clone();
    open["common"] = serde_json::json!({"even": [1, 2, 3], "odd": [1, 2, 3]});
    let (status, out, _) = verify(&with_header(&bytes, &open));
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("the common values are not closed"), "{out}");
    // Without lists every heap gets the full check: slower, same verdict.
    let small = written("0.16", None, 20_000);
    let mut none = header(&small).0;
    none["common"] = serde_json::Value::Null;
    let (status, out, _) = verify(&with_header(&small, &none));
    assert_eq!(status, 0, "{out}");
}

#[test]
fn damaged_files_are_one_clear_error() {
    let bytes = written("0.07", Some(1 << 12), 0);
    let (head, start) = header(&bytes);
    let mut cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", Vec::new(), "no header line"),
        ("no newline", bytes[..start - 1].to_vec(), "no header line"),
        (
            "truncated",
            bytes[..bytes.len() - 1].to_vec(),
            "(truncated?)",
        ),
        (
            "trailing bytes",
            [&bytes[..], b"xx"].concat(),
            "bytes follow it",
        ),
        (
            "damaged header",
            [b"[".as_slice(), &bytes[1..]].concat(),
            "the header is not a certificate's JSON",
        ),
        ("binary junk", vec![0xff; 5000], "no header line"),
    ];
    let mut changed = |f: &dyn Fn(&mut serde_json::Value), name, says| {
        let mut h = head.clone();
        f(&mut h);
        cases.push((name, with_header(&bytes, &h), says));
    };
    changed(&|h| h["width"] = 2.into(), "wrong width", "bytes follow it");
    changed(&|h| h["width"] = 3.into(), "odd width", "width 3");
    changed(
        &|h| h["values"] = u64::MAX.into(),
        "huge count",
        "bytes follow it",
    );
    changed(&|h| h["format"] = "other".into(), "format", "is not");
    changed(
        &|h| h["game"] = "0.19".into(),
        "game",
        "is not an octal code",
    );
    changed(
        &|h| h["game"] = "sub:1,2".into(),
        "sub",
        "is not an octal code",
    );
    changed(
        &|h| h["game"] = "1.07".into(),
        "first digit",
        "only allow splitting",
    );
    changed(&|h| h["extra"] = 1.into(), "unknown field", "unknown field");
    changed(
        &|h| h["claim"] = "yes".into(),
        "claim type",
        "not a certificate",
    );
    for (name, file, says) in cases {
        let (status, out, err) = verify(&file);
        assert_eq!(status, 2, "{name}: {out}{err}");
        assert!(out.is_empty(), "{name}: {out}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
    }
    // And a file that is not there, or no file at all.
    let missing = Command::new(env!("CARGO_BIN_EXE_grundy-verify"))
        .arg("/nonexistent/x.cert")
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let none = Command::new(env!("CARGO_BIN_EXE_grundy-verify"))
        .output()
        .unwrap();
    assert_eq!(none.status.code(), Some(2));
}

/// Values of `digits` by the plain quadratic engine, the reference.
fn plain_values(rules: &TakeBreak, len: usize) -> Vec<u32> {
    let mut engine = Engine::plain(rules.clone());
    let _ = engine.extend_to(len - 1, &mut |_| ControlFlow::Continue(()));
    engine.values().to_u32()
}

fn certificate_of(rules: &TakeBreak, values: &[u32]) -> Vec<u8> {
    let mut out = Vec::new();
    grundy::certificate::write(&mut out, rules, values.len(), |n| values[n], None).unwrap();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The verifier accepts exactly the certificates whose values are the
    /// plain engine's: random codes (two- and three-heap splits, unequal
    /// parts), and a value changed or not.
    #[test]
    fn accepts_exactly_the_plain_values(
        first in prop_oneof![Just(0u8), Just(4), Just(8)],
        rest in proptest::collection::vec(0u8..16, 1..4),
        unequal in any::<bool>(),
        len in 2usize..160,
        change in proptest::option::of((any::<prop::sample::Index>(), 1u32..4)),
    ) {
        let mut digits = vec![first];
        digits.extend(rest);
        let three = digits.iter().any(|d| d & 8 != 0);
        let rules = if unequal && !three && digits == [4] {
            TakeBreak::new(&digits).unwrap().unequal_parts()
        } else {
            TakeBreak::new(&digits).unwrap()
        };
        let len = if three { len.min(70) } else { len };
        let plain = plain_values(&rules, len);
        let mut values = plain.clone();
        if let Some((at, delta)) = change {
            let i = at.index(len);
            values[i] ^= delta;
        }
        let (status, out, err) = verify(&certificate_of(&rules, &values));
        if values == plain {
            prop_assert_eq!(status, 0, "{:?}: {}{}", digits, out, err);
        } else {
            let first_wrong = (0..len).find(|&i| values[i] != plain[i]).unwrap();
            prop_assert_eq!(status, 1, "{:?}: {}{}", digits, out, err);
            let expected = format!("REFUTED: heap {first_wrong}: ");
            prop_assert!(out.starts_with(&expected), "{}", out);
        }
    }
}

#[test]
fn the_fast_path_and_the_full_check_agree_on_sparse_codes() {
    // Codes whose values are sparse, so that the common lists are used:
    // the verdict on each corrupted heap is the same with and without them.
    for code in [[0u8, 1, 6].as_slice(), &[0, 3, 5, 4], &[0, 1, 7, 7, 7]] {
        let rules = TakeBreak::new(code).unwrap();
        let plain = plain_values(&rules, 3000);
        let bytes = certificate_of(&rules, &plain);
        let (head, start) = header(&bytes);
        assert!(!head["common"].is_null(), "{code:?}: values are sparse");
        let mut bare = head.clone();
        bare["common"] = serde_json::Value::Null;
        for heap in [5usize, 64, 500, 2999] {
            for delta in 1u8..4 {
                let mut bad = bytes.clone();
                bad[start + heap] ^= delta;
                let with = verify(&bad);
                let without = verify(&with_header(&bad, &bare));
                assert_eq!(with.0, 1, "{code:?} {heap}: {}", with.1);
                assert_eq!(with.1, without.1, "{code:?} {heap}");
            }
        }
    }
}

#[test]
fn a_value_beyond_every_mex_is_refuted_without_allocating_for_it() {
    let rules = TakeBreak::new(&[0, 0, 7]).unwrap();
    let mut values = plain_values(&rules, 100);
    values[7] = 4_000_000_000;
    let bytes = certificate_of(&rules, &values);
    assert_eq!(header(&bytes).0["width"], 4);
    let (status, out, _) = verify(&bytes);
    assert_eq!(status, 1, "{out}");
    assert!(
        out.starts_with("REFUTED: heap 7: G(7) = 4000000000 is wrong: 7 has at most"),
        "{out}"
    );
}

/// A certificate of `values` claiming preperiod `e` and period `p`.
fn claiming(rules: &TakeBreak, values: &[u32], e: u64, p: u64) -> Vec<u8> {
    let bytes = certificate_of(rules, values);
    let mut head = header(&bytes).0;
    head["claim"] = serde_json::json!({"preperiod": e, "period": p, "saltus": 0});
    with_header(&bytes, &head)
}

/// Whether `values` are periodic from `e` with period `p`, both least.
fn least_periodic(values: &[u32], e: usize, p: usize) -> bool {
    let periodic = |e: usize, p: usize| (e..values.len() - p).all(|n| values[n + p] == values[n]);
    periodic(e, p)
        && (e == 0 || values[e - 1] != values[e - 1 + p])
        && (1..p)
            .filter(|q| p.is_multiple_of(*q))
            .all(|q| !periodic(e, q))
}

#[test]
fn a_preperiod_of_zero_needs_the_window_of_one() {
    // 0.2: G = 0, 0, 1, 1, 0, 0, ... The values 0, 0 do not show period 1.
    let rules = TakeBreak::new(&[0, 2]).unwrap();
    let (status, out, _) = verify(&claiming(&rules, &[0, 0], 0, 1));
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("the certificate stops at heap 1"), "{out}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Claims are accepted only when true: random codes, random claims and
    /// certificates cut at random lengths, judged against 600 plain values
    /// (far beyond every window here, so that truth on them is truth for
    /// every heap by the theorem).
    #[test]
    fn only_true_claims_are_accepted(
        first in prop_oneof![Just(0u8), Just(4)],
        rest in proptest::collection::vec(0u8..8, 1..4),
        e in 0usize..8,
        p in 1usize..9,
        len in 1usize..80,
    ) {
        let mut digits = vec![first];
        digits.extend(rest);
        let rules = TakeBreak::new(&digits).unwrap();
        let plain = plain_values(&rules, 600);
        let (status, out, err) = verify(&claiming(&rules, &plain[..len], e as u64, p as u64));
        prop_assert!(status == 0 || status == 1, "{:?}: {}{}", digits, out, err);
        let truth = least_periodic(&plain, e, p);
        if status == 0 {
            prop_assert!(truth, "{:?}: accepted ({}, {}) on {} values: {}", digits, e, p, len, out);
        }
        // With every value the window needs, a true claim is accepted.
        let t = rules.digits().len() - 1;
        if truth && len >= 2 * e.max(1) + 2 * p + t {
            prop_assert_eq!(status, 0, "{:?}: {}", digits, out);
        }
    }
}
