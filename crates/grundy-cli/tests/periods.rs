//! End-to-end tests of take-and-break families, `grundy period` and answers
//! for astronomically large heaps.

mod common;

use assert_cmd::Command;
use common::{fails, json, stdout};

const TWO_TO_90: &str = "1237940039285380274899124224";

#[test]
fn known_periods_come_out_proven() {
    for (game, e, p) in [
        ("0.07", 53, 34),
        ("0.137", 52, 34),
        ("0.77", 71, 12),
        ("sub:1,2,3", 0, 4),
        ("kayles", 71, 12),
    ] {
        let v = json(&["period", game, "--json"]);
        assert_eq!(v["preperiod"], e, "{game}");
        assert_eq!(v["period"], p, "{game}");
        assert_eq!(v["saltus"], 0, "{game}");
        assert_eq!(v["proven"], true, "{game}");
        assert_eq!(v["block"].as_array().unwrap().len(), p as usize);
    }
    let nim = json(&["period", "nim", "--json"]);
    assert_eq!(
        (
            nim["period"].as_u64(),
            nim["saltus"].as_u64(),
            nim["proven"].as_bool()
        ),
        (Some(1), Some(1), Some(true))
    );
    let text = stdout(&["period", "0.07"]);
    assert!(
        text.contains("Guy-Smith") && text.contains("preperiod 53, period 34"),
        "{text}"
    );
}

#[test]
fn unproven_periods_are_never_claimed() {
    let v = json(&["period", "grundy", "--max", "3000", "--json"]);
    assert_eq!(v["proven"], false);
    assert!(
        v["method"].as_str().unwrap().contains("no period found")
            || v["method"].as_str().unwrap().contains("not proven")
    );
    // Too small a bound for Kayles' proof (values to 155 are needed).
    let v = json(&["period", "0.77", "--max", "100", "--json"]);
    assert_eq!(v["proven"], false);
}

#[test]
fn huge_heaps_through_proven_periods() {
    let v = json(&["value", "sub:1,2,3", TWO_TO_90, "--json"]);
    assert_eq!(v["components"][0]["grundy"], 0);
    assert_eq!(v["winner"], "second");
    let v = json(&[
        "value",
        "sub:1,2,3",
        "1237940039285380274899124227",
        "--json",
    ]);
    assert_eq!(v["components"][0]["grundy"], 3);
    assert_eq!(v["winning_moves"][0]["to"][0], TWO_TO_90);

    let v = json(&[
        "value",
        "0.07",
        "1000000000000000000000000000000",
        "--json",
        "--max-moves",
        "3",
    ]);
    let g = v["components"][0]["grundy"].as_u64().unwrap();
    // Through the period: (10^30 - 53) mod 34 = 23, the block value there.
    let period = json(&["period", "0.07", "--json"]);
    assert_eq!(g, period["block"][23].as_u64().unwrap());
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 3);
    assert_eq!(v["winning_moves_truncated"], true);

    // Values far out agree with a direct table at a moderate heap in the same class.
    let far = json(&[
        "seq",
        "0.77",
        "--from",
        "1000000000000",
        "--to",
        "1000000000100",
        "--json",
    ]);
    let near_from = 1_000_000_000_000u64 % 12 + 12 * 20;
    let near = json(&[
        "seq",
        "0.77",
        "--from",
        &near_from.to_string(),
        "--to",
        &(near_from + 100).to_string(),
        "--json",
    ]);
    assert_eq!(far["values"], near["values"]);
}

#[test]
fn powers_answer_by_closed_form() {
    let v = json(&["value", "pow:2", TWO_TO_90, "--json"]);
    // 2^90 mod 3 = 1, and pow:2 has period 3 with block 0 1 2.
    assert_eq!(v["components"][0]["grundy"], 1);
    // Taking 2^i with i even (2^i = 1 mod 3): i = 0, 2, ..., 90.
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 46);
}

#[test]
fn take_and_break_families_in_sums() {
    let v = json(&[
        "value",
        "0.07",
        "10",
        "+",
        "kayles",
        "5",
        "+",
        "grundy",
        "17",
        "+",
        "sticks",
        "9",
        "+",
        "northcott",
        "4",
        "+",
        "northcott:3",
        "9",
        "+",
        "hex:0.F8",
        "12",
        "--json",
    ]);
    let values: Vec<u64> = v["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["grundy"].as_u64().unwrap())
        .collect();
    // 0.07: OEIS A002187; Kayles: A002186; Grundy's game: A002188.
    assert_eq!(&values[..4], [3, 4, 2, 1]);
    assert_eq!(values[4], 4);
    assert_eq!(values[5], 1);
    assert_eq!(v["nim_sum"], values.iter().fold(0, |a, b| a ^ b));
    let seq = json(&["seq", "dawson", "--to", "20", "--json"]);
    assert_eq!(
        seq["values"],
        serde_json::json!([0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3])
    );
}

#[test]
fn seq_out_files_and_verify() {
    let dir = std::env::temp_dir().join(format!("grundy-seq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = dir.join("values.txt");
    let binary = dir.join("values.bin");
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args([
            "seq",
            "0.16",
            "--to",
            "20000",
            "--out",
            text.to_str().unwrap(),
            "--verify",
            "50",
        ])
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("all agree"));
    let lines = std::fs::read_to_string(&text).unwrap();
    assert_eq!(lines.lines().count(), 20001);
    assert_eq!(lines.lines().nth(3), Some("3 0"));
    stdout(&[
        "seq",
        "0.16",
        "--to",
        "20000",
        "--out",
        binary.to_str().unwrap(),
    ]);
    // LEB128: small values are one byte each.
    let bytes = std::fs::read(&binary).unwrap();
    assert!(bytes.len() >= 20001);
    assert_eq!(bytes[1], 1);
}

#[test]
fn seq_out_files_are_written_a_block_at_a_time_in_order() {
    // Past several of the engine's blocks (2^16 heaps) and the writer's
    // (2^14), from the middle of one: the b-file and the CSV on stdout agree.
    let dir = std::env::temp_dir().join(format!("grundy-blocks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = dir.join("values.txt");
    let args = ["seq", "0.1777", "--from", "70001", "--to", "200000"];
    let mut with_out = args.to_vec();
    with_out.extend(["--out", text.to_str().unwrap()]);
    stdout(&with_out);
    let mut with_csv = args.to_vec();
    with_csv.push("--csv");
    let csv = stdout(&with_csv);
    let lines = std::fs::read_to_string(&text).unwrap();
    assert_eq!(lines.lines().count(), 130_000);
    assert_eq!(
        lines.lines().next().map(|l| l.starts_with("70001 ")),
        Some(true)
    );
    let from_csv: Vec<String> = csv.lines().skip(1).map(|l| l.replace(',', " ")).collect();
    assert!(lines.lines().eq(from_csv.iter().map(String::as_str)));
    std::fs::remove_dir_all(&dir).ok();
    // A file that cannot take the values: one line, status 2.
    if std::path::Path::new("/dev/full").exists() {
        fails(
            &["seq", "0.1777", "--to", "100000", "--out", "/dev/full"],
            "cannot write /dev/full",
        );
    }
}

#[test]
fn checkpoints_resume_and_refuse_other_games() {
    let dir = std::env::temp_dir().join(format!("grundy-ck-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ck = dir.join("run.ck");
    let ck = ck.to_str().unwrap();
    let first = stdout(&["seq", "0.6", "--to", "5000", "--checkpoint", ck, "--csv"]);
    let again = stdout(&["seq", "0.6", "--to", "5000", "--checkpoint", ck, "--csv"]);
    assert_eq!(first, again);
    fails(
        &["seq", "0.7", "--to", "10", "--checkpoint", ck],
        "it is for 0.6, not 0.7",
    );
    std::fs::write(ck, b"garbage").unwrap();
    fails(
        &["seq", "0.6", "--to", "10", "--checkpoint", ck],
        "not a grundy checkpoint",
    );
}

#[test]
fn bad_codes() {
    fails(&["value", "0.8", "1"], "not an octal digit");
    fails(&["value", "5.1", "1"], "before the point");
    fails(&["value", "0.", "1"], "digits after the point");
    fails(&["value", "0.0x", "1"], "not an octal digit");
    fails(&["value", "hex:0.G", "1"], "hexadecimal digit");
    fails(&["value", "sticks:0", "1"], "sticks:K");
    fails(
        &["value", &format!("0.{}", "7".repeat(70)), "1"],
        "at most 64",
    );
    fails(&["period", "foo", "--max", "10"], "unknown game family");
    fails(&["period", "knight:8"], "not heap sizes");
}

#[test]
fn three_heap_codes_finish_with_the_default_max() {
    // hex:0.F8's values grow about as 2n/3 and are never periodic: the
    // default bound for codes that leave three heaps is 4096 heaps, which
    // the engine tabulates in about a second.
    let out = Command::cargo_bin("grundy")
        .unwrap()
        .args(["period", "hex:0.F8"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(text, "hex:0.F8: no period found up to n = 4095\n");
}

#[test]
fn heaps_only_a_table_beyond_the_budget_could_answer_are_refused_at_once() {
    // No period shows in a short search for these (Officers, sticks:3 and
    // a three-heap code whose values grow), and their last heaps are far
    // beyond the state budget: one line, exit status 2, within seconds.
    let huge = [
        "--from",
        "18446744073709551610",
        "--to",
        "18446744073709551615",
    ];
    for game in ["0.6", "sticks:3", "hex:0.F8"] {
        let started = std::time::Instant::now();
        let mut args = vec!["seq", game];
        args.extend(huge);
        fails(&args, "is beyond the state budget (50000000 heaps)");
        let value = ["value", game, "18446744073709551615"];
        fails(&value, "is beyond the state budget");
        let seconds = started.elapsed().as_secs_f64();
        assert!(seconds < 12.0, "{game}: {seconds:.1} s");
    }
    // A period proven in the search still answers.
    let mut args = vec!["seq", "0.07"];
    args.extend(huge);
    assert_eq!(stdout(&args), "18446744073709551610: 2 2 4 4 5 5\n");
}

#[test]
fn a_period_search_stops_where_the_memory_budget_ends() {
    // 0.1777's period is proven only past 4·10^8 values: with 60 MB the
    // table stops near 2·10^7 heaps and says why, instead of growing past
    // the budget.
    let out = stdout(&[
        "period",
        "0.1777",
        "--max",
        "450000000",
        "--max-memory",
        "60M",
        "-q",
    ]);
    assert!(out.contains("as far as the memory budget holds"), "{out}");
    assert!(!out.contains("proven by"), "{out}");
}

#[test]
fn winning_moves_of_a_three_heap_code_are_found_without_listing_every_option() {
    // Heap 10001 of hex:0.F has about 8 million options (splits into
    // three): the winning ones are picked out as they come, not after
    // building every move (which took 2.8 GB).
    let out = stdout(&["value", "hex:0.F", "10001", "--max-moves", "2"]);
    assert!(out.contains("10001 -> 10000"), "{out}");
    assert!(out.contains("at least 1 more"), "{out}");
}
