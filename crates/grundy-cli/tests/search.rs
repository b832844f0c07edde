//! End-to-end tests of the searched families: cram, chomp, nodekayles.

mod common;

use common::{fails, json, stdout};

#[test]
fn cram_values_moves_and_sums() {
    let v = json(&["value", "cram", "4x5", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 2); // Beling's table
    let moves = v["winning_moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    // Each winning move leaves a board of value 0.
    for m in moves {
        let to = m["to"][0].as_str().unwrap();
        let after = json(&["value", "cram", to, "--json"]);
        assert_eq!(after["nim_sum"], 0, "{to}");
    }
    let text = stdout(&["value", "cram", "2x3", "+", "chomp", "2x2", "+", "nim", "3"]);
    assert!(text.contains("nim-sum 0: second player wins"), "{text}");
    let text = stdout(&["value", "cram", "4x5"]);
    assert!(text.contains("domino"), "{text}");
    // Even boards are second-player wins at once (the half-turn copy).
    let v = json(&["value", "cram", "8x8", "--json"]);
    assert_eq!(v["nim_sum"], 0);
    let t = json(&["table", "cram:3x4", "--json"]);
    assert_eq!(t["table"][0], serde_json::json!([0, 1, 1, 2]));
}

#[test]
fn chomp_and_node_kayles() {
    let v = json(&["value", "chomp", "8x8", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 13); // as igsolve computes it
    assert_eq!(v["winning_moves"].as_array().unwrap().len(), 1);
    let v = json(&["value", "chomp", "5,5,3", "--json"]);
    assert!(v["components"][0]["grundy"].is_u64());
    let dir = std::env::temp_dir().join(format!("grundy-nk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("path.txt");
    std::fs::write(&file, "a b\nb c\nc d\n").unwrap();
    let spec = format!("nodekayles:{}", file.display());
    // Node-Kayles on a path of n vertices is Dawson's Kayles on n + 1
    // (OEIS A002187): a path of 4 has value A002187(5) = 0, of 3 value 2.
    let v = json(&["value", &spec, "all", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 0);
    let v = json(&["value", &spec, "b,c,d", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 2);
    let text = stdout(&["value", &spec, "a,b"]);
    assert!(text.contains("grundy 1"), "{text}");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    for (args, needle) in [
        (vec!["value", "cram", "12x12"], "up to 128 cells"),
        (vec!["value", "cram", "../."], "same length"),
        (vec!["value", "cram", "0x3"], "R, C >= 1"),
        (vec!["value", "chomp", "3,4"], "never grow upwards"),
        (vec!["value", "chomp", "3x16"], "too large"),
        (
            vec!["value", "cram", "3x3", "--tt-size", "lots"],
            "is not a size",
        ),
        (
            vec!["value", "cram", "3x3", "--tt-size", "1K"],
            "too few positions",
        ),
        (
            vec!["value", "cram", "3x3", "--tt-size", "100T"],
            "more than this machine's memory",
        ),
        (
            vec!["value", "nodekayles:/no/such/file", "all"],
            "cannot read",
        ),
    ] {
        fails(&args, needle);
    }
}

#[test]
fn a_search_table_is_saved_and_resumed() {
    let dir = std::env::temp_dir().join(format!("grundy-tt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cram.tt");
    let path = file.to_str().unwrap();
    let first = stdout(&["value", "cram", "4x6", "--checkpoint", path]);
    assert!(file.exists());
    let again = stdout(&["value", "cram", "4x6", "--checkpoint", path]);
    assert_eq!(first, again);
    // A table for another board is refused, not misused.
    fails(
        &["value", "cram", "4x7", "--checkpoint", path],
        "it is for cram 4x6, not cram 4x7",
    );
}
