//! The census against the plain tools: rows against `Family::period`, a
//! resumed census against an uninterrupted one (byte for byte), `same_as`
//! against the sequences themselves, and files that must be refused.

use grundy::census::{self, compute, members, pilot, Log, Member, Params, Pilot, Scope};
use grundy::family::Settings;
use grundy::spec::parse_game;
use proptest::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-census-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// A random census code: octal of 1..=3 digits, hex of 1..=2, or a set within 1..=9.
fn any_code() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(0u8..8, 1..=3).prop_map(|d| {
            let mut d = d;
            *d.last_mut().unwrap() |= 1 << (d.len() % 3);
            format!("0.{}", d.iter().map(|x| x.to_string()).collect::<String>())
        }),
        proptest::collection::vec(0u8..16, 1..=2).prop_map(|d| {
            let mut d = d;
            *d.last_mut().unwrap() |= 2;
            format!(
                "hex:0.{}",
                d.iter().map(|x| format!("{x:X}")).collect::<String>()
            )
        }),
        proptest::collection::btree_set(1u64..10, 1..4).prop_map(|s| format!(
            "sub:{}",
            s.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        )),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// A census row says what `grundy period CODE --max MAX` says, and the
    /// pilot, when it finishes a code, says the same as the full run.
    #[test]
    fn rows_agree_with_grundy_period(code in any_code(), max in 512u64..6000) {
        let member = Member::from_code(&code).unwrap();
        // Three-heap moves are cubic to tabulate: keep those tables short.
        let max = if member.digits.iter().any(|d| d & 8 != 0) { max / 8 } else { max };
        let computed = compute(&member, max, flag(), Box::new(|_, _| {})).unwrap();
        let row = &computed.row;
        let mut family = parse_game(&code, Settings { max_states: max as usize + 1, ..Settings::default() }).unwrap();
        prop_assert_eq!(&row.code, &family.spec());
        let report = family.period(max).unwrap();
        let p = report.periodicity.as_ref();
        prop_assert_eq!(row.proven, report.proven);
        prop_assert_eq!(row.preperiod, p.map(|p| p.preperiod));
        prop_assert_eq!(row.period, p.map(|p| p.period));
        prop_assert_eq!(row.saltus, p.map(|p| p.saltus));
        prop_assert_eq!(row.computed_to, report.checked_to + 1);
        let mut values = Vec::new();
        family.sequence(0, row.computed_to - 1, &mut |_, v| { values.push(v); Ok(()) }).unwrap();
        prop_assert_eq!(row.max_value, values.iter().copied().max().unwrap());
        if let Pilot::Done(piloted) = pilot(&member, max, flag()).unwrap() {
            let mut a = piloted.row.clone();
            let mut b = row.clone();
            a.seconds = 0.0;
            b.seconds = 0.0;
            prop_assert_eq!(a, b);
        }
    }
}

fn full_census(params: Params, path: &PathBuf, jobs: usize) -> Vec<u8> {
    let mut log = Log::open(params, path).unwrap();
    log.zero_seconds();
    census::run(&mut log, jobs, &flag(), &mut |_| {}).unwrap();
    std::fs::read(path).unwrap()
}

/// The uninterrupted census the resumed ones must equal (the same whatever
/// the number of jobs), computed once.
fn whole(ext: &str) -> &'static Vec<u8> {
    static FILES: std::sync::OnceLock<(Vec<u8>, Vec<u8>)> = std::sync::OnceLock::new();
    let (csv, jsonl) = FILES.get_or_init(|| {
        let params = Params::new(Scope::Octal { digits: 2 }, 2000).unwrap();
        (
            full_census(params, &scratch("whole.csv"), 2),
            full_census(params, &scratch("whole.jsonl"), 1),
        )
    });
    if ext == "csv" {
        csv
    } else {
        jsonl
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Stopping a census after a random number of rows (as Ctrl-C does) and
    /// running it again gives exactly the file of an uninterrupted run; so
    /// does a last line cut short by a crash.
    #[test]
    fn a_resumed_census_is_byte_identical(stop_after in 1usize..60, jobs in 1usize..3, torn in 0usize..40) {
        let params = Params::new(Scope::Octal { digits: 2 }, 2000).unwrap();
        for ext in ["csv", "jsonl"] {
            let path = scratch(&format!("resumed-{stop_after}-{jobs}.{ext}"));
            let mut log = Log::open(params, &path).unwrap();
            log.zero_seconds();
            let stop = flag();
            let trip = stop.clone();
            let outcome = census::run(&mut log, jobs, &stop, &mut |status| {
                if status.done >= stop_after {
                    trip.store(true, Ordering::Relaxed);
                }
            });
            // Stopped, unless the last rows came at once (trivial copies).
            prop_assert!(outcome.is_err() || log.done() == log.members().len());
            drop(log);
            // A crash in the middle of an append leaves part of a line.
            let mut text = std::fs::read(&path).unwrap();
            let partial = b"0.77,71,12,0,true,10";
            text.extend_from_slice(&partial[..torn.min(partial.len())]);
            std::fs::write(&path, &text).unwrap();
            let mut log = Log::open(params, &path).unwrap();
            prop_assert_eq!(log.notes.len(), usize::from(torn > 0));
            log.zero_seconds();
            census::run(&mut log, jobs, &flag(), &mut |_| {}).unwrap();
            let resumed = std::fs::read(&path).unwrap();
            prop_assert_eq!(&resumed, whole(ext));
        }
    }
}

/// `same_as` groups exactly the codes whose sequences are identical over
/// 0..max, and names the first code of each group.
#[test]
fn same_as_groups_only_identical_sequences() {
    for scope in [
        Scope::Octal { digits: 2 },
        Scope::Hex { digits: 1 },
        Scope::Sub { max_take: 5 },
    ] {
        let max = if matches!(scope, Scope::Hex { .. }) {
            512
        } else {
            2048
        };
        let params = Params::new(scope, max).unwrap();
        let mut log = Log::in_memory(params);
        census::run(&mut log, 2, &flag(), &mut |_| {}).unwrap();
        let rows = log.rows();
        assert_eq!(rows.len(), members(scope).len());
        let mut first_with: HashMap<Vec<u64>, String> = HashMap::new();
        let mut groups = 0;
        for row in &rows {
            let mut family = parse_game(&row.code, Settings::default()).unwrap();
            family.period(max).unwrap();
            let mut values = Vec::new();
            family
                .sequence(0, max - 1, &mut |_, v| {
                    values.push(v);
                    Ok(())
                })
                .unwrap();
            match first_with.get(&values) {
                Some(first) => {
                    assert_eq!(row.same_as.as_ref(), Some(first), "{}", row.code);
                    groups += 1;
                }
                None => {
                    assert_eq!(row.same_as, None, "{}", row.code);
                    first_with.insert(values, row.code.clone());
                }
            }
        }
        assert!(groups > 0, "{scope:?} has codes with identical sequences");
    }
}

#[test]
fn other_parameters_and_damaged_files_are_refused() {
    let params = Params::new(Scope::Octal { digits: 1 }, 1024).unwrap();
    let path = scratch("refuse.csv");
    full_census(params, &path, 1);
    // The same parameters: nothing left to do, the file is kept as it is.
    let before = std::fs::read(&path).unwrap();
    assert_eq!(full_census(params, &path, 1), before);
    let other = Params::new(Scope::Octal { digits: 1 }, 2048).unwrap();
    let error = Log::open(other, &path).err().unwrap().to_string();
    assert!(
        error.contains("holds the census `grundy census octal --digits 1 --max 1024`"),
        "{error}"
    );
    let text = String::from_utf8(before.clone()).unwrap();
    for (damage, needle) in [
        (
            text.replacen("0.4,", "0.9,", 1),
            "0.9 is not a code of this census",
        ),
        (
            text.replacen("0.4,", "0.44,", 1),
            "0.44 is not a code of this census",
        ),
        (
            format!("{text}{}", text.lines().nth(3).unwrap()) + "\n",
            "a second row",
        ),
        (text.replacen("true", "maybe", 1), "not a census row"),
        ("hello\n".to_string(), "not a census file"),
    ] {
        std::fs::write(&path, damage).unwrap();
        let error = Log::open(params, &path).err().unwrap().to_string();
        assert!(error.contains(needle), "{needle}: {error}");
    }
    let error = Log::open(params, &scratch("x.txt"))
        .err()
        .unwrap()
        .to_string();
    assert!(error.contains(".csv or .jsonl"), "{error}");
}
