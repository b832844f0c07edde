//! End-to-end tests of the `grundy` binary: the engine commands and bad input.

mod common;

use common::{fails, interrupted, json, stdout};

#[test]
fn the_contract_example_as_text() {
    let text = stdout(&["value", "sub:1,2,3", "3", "4", "5"]);
    assert!(text.contains("grundy 3"), "{text}");
    assert!(text.contains("nim-sum 2: first player wins"), "{text}");
    assert!(text.contains("3 winning moves"), "{text}");
    assert!(text.contains("3 -> 1") && text.contains("4 -> 2") && text.contains("5 -> 3"));
}

#[test]
fn the_contract_example_as_json() {
    let v = json(&["value", "sub:1,2,3", "3", "4", "5", "--json"]);
    let grundy: Vec<u64> = v["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["grundy"].as_u64().unwrap())
        .collect();
    assert_eq!(grundy, [3, 0, 1]);
    assert_eq!(v["components"][1]["position"], "4");
    assert_eq!(v["nim_sum"], 2);
    assert_eq!(v["winner"], "first");
    assert_eq!(v["winning_moves_truncated"], false);
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    assert_eq!(
        moves[0],
        serde_json::json!({"component": 0, "from": "3", "to": ["1"]})
    );
    assert_eq!(
        moves[2],
        serde_json::json!({"component": 2, "from": "5", "to": ["3"]})
    );
}

#[test]
fn second_player_wins_has_no_moves() {
    let v = json(&["value", "nim", "1", "2", "3", "--json"]);
    assert_eq!(v["winner"], "second");
    assert_eq!(v["nim_sum"], 0);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 0);
}

#[test]
fn sums_across_families() {
    let v = json(&[
        "value",
        "nim",
        "5",
        "+",
        "sub:1,2,3",
        "7",
        "+",
        "pow:2",
        "4",
        "--json",
    ]);
    assert_eq!(v["components"][0]["grundy"], 5);
    assert_eq!(v["components"][1]["grundy"], 3);
    assert_eq!(v["components"][2]["game"], "pow:2");
    assert_eq!(
        v["nim_sum"],
        5 ^ 3 ^ v["components"][2]["grundy"].as_u64().unwrap()
    );
}

#[test]
fn emptied_heaps_leave_nothing() {
    let v = json(&["value", "nim", "3", "--json"]);
    assert_eq!(v["winning_moves"][0]["to"], serde_json::json!([]));
}

#[test]
fn huge_divide_heaps_answer_through_the_sparse_memo() {
    let v = json(&["value", "div:2,3,6", "1000000000000000000", "--json"]);
    assert!(v["components"][0]["grundy"].is_u64());
    let v = json(&[
        "value",
        "div:2,3,6",
        "1237940039285380274899124224",
        "--json",
    ]);
    assert!(v["components"][0]["grundy"].is_u64());
}

#[test]
fn huge_nim_heaps_are_their_own_value() {
    let v = json(&[
        "value",
        "nim",
        "1237940039285380274899124224",
        "+",
        "nim",
        "1",
        "--json",
    ]);
    assert_eq!(v["components"][0]["grundy"], "1237940039285380274899124224");
    assert_eq!(v["nim_sum"], "1237940039285380274899124225");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{"component": 0, "from": "1237940039285380274899124224", "to": ["1"]}])
    );
    assert_eq!(v["winner"], "first");
}

#[test]
fn a_heap_ten_million_moves_deep() {
    let v = json(&["value", "sub:1", "10000000", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 0);
}

#[test]
fn move_lists_can_be_cut() {
    let v = json(&["value", "nim", "7", "7", "7", "--json", "--max-moves", "2"]);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 2);
    assert_eq!(v["winning_moves_truncated"], true);
}

#[test]
fn text_lists_twenty_moves_and_counts_the_rest() {
    // A heap of 10^21 of Dawson's Kayles has 1000+ winning splits.
    let text = stdout(&["value", "0.07", "1000000000000000000000"]);
    assert!(text.contains("1000+ winning moves:"), "{text}");
    let listed = text
        .lines()
        .filter(|l| l.starts_with("  [1] 0.07: "))
        .count();
    assert_eq!(listed, 20, "{text}");
    assert!(
        text.contains("... and at least 980 more (--max-moves N to list more, or --json for all)"),
        "{text}"
    );
    // --max-moves sets how many are listed; JSON keeps its contract.
    let text = stdout(&["value", "nim", "7", "7", "7", "--max-moves", "2"]);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("  [")).count(),
        2,
        "{text}"
    );
    assert!(text.contains("2+ winning moves:"), "{text}");
    assert!(text.contains("and at least 1 more"), "{text}");
    let v = json(&["value", "0.07", "1000000000000000000000", "--json"]);
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1000);
    assert_eq!(v["winning_moves_truncated"], true);
    // Components are tagged [i], as the moves name them.
    let text = stdout(&["value", "sub:1,2,3", "3", "+", "nim", "4"]);
    assert!(
        text.starts_with("[1] sub:1-3 3  grundy 3\n[2] nim 4"),
        "{text}"
    );
    assert!(text.contains("  [2] nim: 4 -> 3"), "{text}");
}

#[test]
fn sequences_in_three_formats() {
    let v = json(&["seq", "sub:1,2,3", "--to", "9", "--json"]);
    assert_eq!(
        v["values"],
        serde_json::json!([0, 1, 2, 3, 0, 1, 2, 3, 0, 1])
    );
    assert_eq!(v["from"], 0);
    assert_eq!(v["to"], 9);
    let v = json(&["seq", "pow:2", "--from", "3", "--to", "5", "--json"]);
    assert_eq!(v["values"], serde_json::json!([0, 1, 2]));
    let csv = stdout(&["seq", "div:2,3,6", "--to", "3", "--csv"]);
    assert_eq!(csv.lines().next(), Some("n,grundy"));
    assert_eq!(csv.lines().count(), 5);
    let text = stdout(&["seq", "nim", "--to", "12"]);
    assert!(
        text.starts_with("       0: 0 1 2 3 4 5 6 7 8 9\n      10: 10 11 12\n"),
        "{text}"
    );
}

#[test]
fn games_lists_every_family_with_an_example() {
    let text = stdout(&["games"]);
    for family in ["nim", "sub:", "pow:", "div:"] {
        assert!(text.contains(family), "{family} missing from\n{text}");
    }
}

#[test]
fn bad_input_is_one_clear_line() {
    fails(&["value", "foo", "3"], "unknown game family");
    fails(&["value", "sub:", "3"], "needs a subtraction set");
    fails(&["value", "sub:0", "3"], "at least 1");
    fails(&["value", "sub:1,,2", "3"], "empty element");
    fails(&["value", "div:1", "3"], "changes nothing");
    fails(&["value", "nim", "-3"], "negative");
    fails(&["value", "nim", "abc"], "non-negative integer");
    fails(&["value", "nim", "3", "+"], "must be followed");
    fails(&["value", "+", "nim", "3"], "cannot start");
    fails(
        &["value", "nim", "3", "+", "+", "nim", "2"],
        "must be followed",
    );
    fails(&["value", "nim"], "at least one position");
    fails(&["value"], "required");
    fails(&["value", "sub:99999999999999999999999", "3"], "too large");
    fails(&["value", "sub:1-99999999999", "3"], "too large");
    fails(&["value", "pow:1", "3"], "at least 2");
    fails(
        &["value", "grundy", "100000000000000000000"],
        "grundy period",
    );
    fails(
        &["value", "grundy", "200", "--max-states", "100"],
        "state budget",
    );
    fails(
        &[
            "value",
            "div:2,3",
            "1000000000000000000000000",
            "--max-states",
            "5",
        ],
        "state budget",
    );
    fails(&["seq", "sub:1", "--to", "-5"], "negative");
    fails(&["seq", "sub:1", "--from", "9", "--to", "5"], "after");
    fails(&["seq", "sub:1", "--to", "99999999999999999999999"], "2^64");
    fails(&["frobnicate"], "unrecognized subcommand");
}

#[test]
fn nimber_arithmetic() {
    assert_eq!(stdout(&["nimber", "mul", "5", "3"]).trim(), "*5 * *3 = *15");
    assert_eq!(stdout(&["nimber", "add", "5", "3"]).trim(), "*5 + *3 = *6");
    let v = json(&["nimber", "inv", "7", "--json"]);
    let inverse = v["result"].as_u64().unwrap();
    assert_eq!(grundy::nimber::nim_mul(7, inverse), 1);
    fails(&["nimber", "inv", "0"], "no nim-inverse");
    fails(&["nimber", "mul", "5"], "takes 2 operands");
    fails(
        &["nimber", "mul", "5", "18446744073709551616"],
        "beyond 2^64",
    );
}

/// Runs `grundy ARGS` and returns (exit status, stdout, stderr).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn sequences_of_games_without_heaps_print_nothing_before_the_refusal() {
    for args in [
        &["seq", "treblecross", "--to", "2679", "--json"][..],
        &["seq", "cram:3x5", "--to", "10", "--csv"],
        &["seq", "knight:8", "--to", "100", "--csv"],
        &["seq", "choco:2x3", "--to", "10", "--json"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert_eq!(out, "", "{args:?} printed before its refusal");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_sequence_that_fails_midway_leaves_valid_json() {
    let dir = std::env::temp_dir().join(format!("grundy-seq-fail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("grow.rhai");
    std::fs::write(
        &path,
        "fn moves(n) { let out = []; for k in 1..=n { out.push(n - k); } out }\n",
    )
    .unwrap();
    let spec = format!("script:{}", path.display());
    let (code, out, err) = run(&[
        "seq",
        &spec,
        "--to",
        "3000",
        "--json",
        "--max-states",
        "1000",
    ]);
    assert_eq!(code, Some(2), "{err}");
    let object: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let values = object["values"].as_array().unwrap();
    assert_eq!(values.len(), 1000);
    assert!(values.iter().enumerate().all(|(n, v)| v == n));
    assert!(object["error"].as_str().unwrap().contains("state budget"));
    assert!(err.contains("state budget"), "{err}");
    // CSV ends after its last whole line.
    let (code, out, _) = run(&[
        "seq",
        &spec,
        "--to",
        "3000",
        "--csv",
        "--max-states",
        "1000",
    ]);
    assert_eq!(code, Some(2));
    assert!(out.ends_with("999,999\n"), "{}", &out[out.len() - 20..]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn misere_sums_answer_refuse_or_stop_on_ctrl_c() {
    // Too large for genus theory or search: refused at once, saying why.
    let started = std::time::Instant::now();
    fails(
        &["value", "hex:0.8C", "159000446742", "--misere"],
        "try smaller heaps",
    );
    assert!(started.elapsed().as_secs() < 10);
    // A long misère search stops on Ctrl-C with exit status 130.
    let (out, _) = interrupted(
        &[
            "value",
            "4.442",
            "23",
            "99363",
            "31792",
            "+",
            "div:7",
            "19",
            "36",
            "33",
            "--misere",
            // The moves it lists count against the state budget: a large
            // one, so that the search is still running when Ctrl-C comes.
            "--max-states",
            "4000000000",
        ],
        std::time::Duration::from_millis(1500),
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
}

#[test]
fn misere_without_moves_asked_says_nothing_of_them() {
    let text = stdout(&["value", "nim", "1", "1", "--misere", "--max-moves", "0"]);
    assert!(text.contains("first player wins"), "{text}");
    assert!(!text.contains("no move is needed"), "{text}");
    // An empty misère sum: the player to move has won.
    let text = stdout(&["value", "nim", "0", "--misere"]);
    assert!(text.contains("no move is needed"), "{text}");
}

#[test]
fn negative_positions_reach_the_games_own_check() {
    fails(&["value", "knight:8", "-1,2"], "off the 8x8 board");
    fails(&["explain", "knight:8", "-1,2"], "off the 8x8 board");
    fails(
        &["value", "knight:8", "3,4", "+", "knight:8", "3,-2"],
        "off the 8x8 board",
    );
    // Flags still work after positions.
    let object = json(&["value", "knight:8", "3,4", "--max-moves", "1", "--json"]);
    assert_eq!(object["nim_sum"], 4);
    fails(&["value", "knight:8", "3,4", "--bogus"], "--bogus");
}

#[test]
fn refusals_name_the_real_fault() {
    fails(&["value", "sub:-1", "5"], "negative");
    fails(&["value", "sub:1,-3", "5"], "negative");
    fails(&["value", "div:2,-3", "5"], "negative");
    // 0.07's period is known, but proving it needs more than one heap.
    fails(
        &["value", "0.07", "300", "--max-states", "1"],
        "no period was proven within that budget",
    );
}

#[test]
fn cram_strips_are_dawsons_kayles() {
    let dawson: Vec<u64> = json(&["seq", "0.07", "--to", "1000", "--json"])["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    // Boards one cell wide, searched (a row of 64 once spun in a shift).
    for n in [2, 17, 63, 64, 100, 128] {
        for board in [format!("1x{n}"), format!("{n}x1")] {
            let object = json(&["value", "cram", &board, "--json", "--max-moves", "0"]);
            assert_eq!(object["nim_sum"], dawson[n], "{board}");
        }
    }
    // Longer strips are played as the octal game itself.
    for n in [129, 200, 1000] {
        let object = json(&[
            "value",
            "cram",
            &format!("1x{n}"),
            "--json",
            "--max-moves",
            "0",
        ]);
        assert_eq!(object["nim_sum"], dawson[n], "1x{n}");
        assert_eq!(object["components"][0]["game"], "0.07");
    }
    let row = format!("{}#{}", ".".repeat(70), ".".repeat(9));
    let object = json(&["value", "cram", &row, "--json", "--max-moves", "0"]);
    assert_eq!(object["nim_sum"], dawson[70] ^ dawson[9]);
    // The table of strips, and a board two rows of 64 wide.
    let table = json(&["table", "cram:1x64", "--json"]);
    let row: Vec<u64> = table["table"][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(row, dawson[1..=64].to_vec());
    let object = json(&["value", "cram", "2x64", "--json", "--max-moves", "0"]);
    assert_eq!(object["nim_sum"], 0, "even by even: the half turn answers");
}

#[test]
fn an_interrupted_sequence_hands_on_what_it_tabulated() {
    // Ctrl-C in the middle of a long table still prints every value
    // found, as JSON.
    let (out, _) = interrupted(
        &["seq", "0.6", "--to", "10000000", "--json", "-q"],
        std::time::Duration::from_millis(1500),
    );
    assert_eq!(out.status.code(), Some(130));
    let object: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let values = object["values"].as_array().unwrap();
    assert!(!values.is_empty(), "no values handed on");
    let error = object["error"].as_str().unwrap();
    assert!(
        error.contains(&format!("after {} heaps", values.len())),
        "{error}"
    );
}

#[test]
fn a_wrong_thread_count_is_refused_before_any_work() {
    for value in ["0", "x", "-2", "", " "] {
        let out = assert_cmd::Command::cargo_bin("grundy")
            .unwrap()
            .env("GRUNDY_THREADS", value)
            .args(["value", "cram", "3x4"])
            .assert()
            .code(2);
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert!(
            err.contains("GRUNDY_THREADS") && err.lines().count() == 1,
            "{err}"
        );
    }
    let text = common::stdout(&["value", "nim", "3"]);
    assert!(text.contains("grundy 3"));
}

#[test]
fn too_many_threads_are_capped_with_one_warning() {
    let out = assert_cmd::Command::cargo_bin("grundy")
        .unwrap()
        .env("GRUNDY_THREADS", "100000")
        .args(["value", "cram", "4x4", "--max-moves", "0"])
        .assert()
        .success();
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let cap = grundy::search::thread_cap();
    assert!(
        err.lines().count() == 1 && err.contains(&format!("using {cap}")),
        "{err}"
    );
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("grundy 0"), "{text}");
}

/// The Ctrl-C example of the errors page, run as written there (in a
/// scratch folder): interrupted, it saves what it found and says so, and
/// the same command resumes from there.
#[test]
fn ctrl_c_keeps_the_work_as_the_errors_page_shows() {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/reference/errors.md"),
    )
    .unwrap();
    let line = page
        .lines()
        .find(|l| l.starts_with("$ grundy seq 0.6") && l.contains("--checkpoint officers.ckpt"))
        .expect("the errors page shows an interrupted seq");
    let args: Vec<String> = shlex::split(&line["$ grundy ".len()..]).unwrap();
    let dir = std::env::temp_dir().join(format!("grundy-ctrl-c-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let found = |stderr: &[u8]| -> u64 {
        let err = String::from_utf8_lossy(stderr);
        let rest = err
            .strip_prefix("error: interrupted; the ")
            .unwrap_or_else(|| panic!("{err}"));
        let (count, tail) = rest.split_once(' ').unwrap();
        assert_eq!(
            tail.trim_end(),
            "values found are saved in officers.ckpt: run the same command to resume",
            "{err}"
        );
        count.parse().unwrap()
    };
    let run = || {
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("grundy"))
            .args(&args)
            .current_dir(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(1500));
        std::process::Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let first = run();
    assert_eq!(
        first.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let saved = found(&first.stderr);
    assert!(saved > 0 && dir.join("officers.ckpt").exists() && dir.join("officers.bin").exists());
    let second = run();
    assert_eq!(second.status.code(), Some(130));
    assert!(found(&second.stderr) > saved, "the second run resumes");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sequence_read_from_a_period_stops_at_ctrl_c() {
    // 0.07 is proven periodic early, so its ten billion values are written
    // from the period with nothing computed: Ctrl-C still stops it, and
    // what was written is whole lines.
    let (out, took) = interrupted(
        &["seq", "0.07", "--to", "10000000000", "--csv", "-q"],
        std::time::Duration::from_millis(1500),
    );
    assert_eq!(out.status.code(), Some(130));
    assert!(took < 10.0, "took {took} s to stop");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interrupted at heap"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.ends_with('\n') && text.lines().count() > 2,
        "{}",
        text.len()
    );
}

#[test]
fn limits_and_files_that_cannot_work_are_refused_before_any_work() {
    fails(
        &["seq", "0.6", "--to", "10", "--max-states", "0"],
        "at least 1",
    );
    let file = common::scratch("cli", "same-file.bin");
    let file = file.to_str().unwrap();
    fails(
        &[
            "seq",
            "0.6",
            "--to",
            "100",
            "--out",
            file,
            "--checkpoint",
            file,
        ],
        "--out and --checkpoint name the same file",
    );
    assert!(
        !std::path::Path::new(file).exists(),
        "a file was left behind"
    );
    // A game with no table to save says so instead of ignoring the flag.
    let ckpt = common::scratch("cli", "div.ckpt");
    fails(
        &[
            "seq",
            "div:100",
            "--to",
            "10",
            "--checkpoint",
            ckpt.to_str().unwrap(),
        ],
        "--checkpoint has nothing of div:100 to save",
    );
}

#[test]
fn each_heap_game_of_a_sum_keeps_its_own_checkpoint() {
    let ckpt = common::scratch("cli", "sum.ckpt");
    let second = common::scratch("cli", "sum.ckpt.2");
    let _ = std::fs::remove_file(&ckpt);
    let _ = std::fs::remove_file(&second);
    let args = [
        "value",
        "0.6",
        "3000",
        "+",
        "0.37",
        "3000",
        "--json",
        "--checkpoint",
        ckpt.to_str().unwrap(),
    ];
    let first = json(&args);
    assert!(ckpt.exists() && second.exists());
    // The second run resumes from both files and agrees.
    assert_eq!(json(&args), first);
}
