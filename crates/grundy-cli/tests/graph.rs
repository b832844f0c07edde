//! End-to-end tests of `grundy graph`: the listing, DOT, JSON, the SVG
//! picture, the node limit, and the guide's pictures made by the command.

mod common;

use assert_cmd::Command;
use common::{fails, json, stdout as run};
use std::path::{Path, PathBuf};

/// A fresh path in the test's scratch directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("graph-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn the_listing_gives_every_position_its_value_and_options() {
    let text = run(&["graph", "sub:1,2,3", "7"]);
    assert_eq!(
        text,
        "\
sub:1-3 7: 8 positions, 18 moves; P marks value 0 (the player to move loses)
  7  grundy 3     -> 6, 5, 4
  6  grundy 2     -> 5, 4, 3
  5  grundy 1     -> 4, 3, 2
  4  grundy 0  P  -> 3, 2, 1
  3  grundy 3     -> 2, 1, 0
  2  grundy 2     -> 1, 0
  1  grundy 1     -> 0
  0  grundy 0  P  no move
"
    );
}

#[test]
fn a_split_heap_and_a_sum_are_written_with_plus() {
    let text = run(&["graph", "kayles", "4"]);
    assert!(
        text.contains("  4      grundy 1     -> 3, 1 + 2, 2, 1 + 1\n"),
        "{text}"
    );
    let text = run(&["graph", "nim", "2", "+", "sub:1,2", "2"]);
    assert!(text.starts_with("nim 2 + sub:1,2 2: 9 positions"), "{text}");
    assert!(
        text.contains("  2 + 2  grundy 0  P  -> 1 + 2, 0 + 2, 2 + 1, 2 + 0\n"),
        "{text}"
    );
}

#[test]
fn dot_is_a_digraph_with_p_positions_marked() {
    let dot = run(&["graph", "sub:1,2", "3", "--dot"]);
    assert!(dot.starts_with("digraph grundy {\n"), "{dot}");
    assert!(
        dot.contains("n0 [label=<<b>3</b><br/>grundy 0>, fillcolor=\"#ffe08a\", peripheries=2];")
    );
    assert!(dot.contains("n1 [label=<<b>2</b><br/>grundy 2>];"));
    assert_eq!(dot.matches(" -> ").count(), 5);
    assert!(dot.ends_with("}\n"));
}

#[test]
fn json_gives_nodes_and_edges() {
    let object = json(&["graph", "knight:4", "3,3", "--json"]);
    assert_eq!(object["game"], "knight:4 3,3");
    assert_eq!(object["nodes"][0]["position"], "3,3");
    assert_eq!(object["nodes"][0]["grundy"], 0);
    assert_eq!(object["nodes"].as_array().unwrap().len(), 8);
    assert_eq!(object["edges"][0], serde_json::json!([0, 1]));
}

#[test]
fn svg_is_written_to_the_file_only() {
    let path = scratch("sub.svg");
    let printed = run(&["graph", "sub:1,2", "4", "--svg", path.to_str().unwrap()]);
    assert_eq!(printed, "");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("grundy 0: P-position"));
    assert!(svg.trim_end().ends_with("</svg>"));
}

#[test]
fn too_large_a_graph_is_refused_naming_the_limit_and_the_option() {
    fails(&["graph", "nim", "150"], "more than 100 positions");
    fails(&["graph", "nim", "150"], "--max-nodes");
    fails(
        &["graph", "nim", "30", "--max-nodes", "10"],
        "more than 10 positions",
    );
    assert!(
        run(&["graph", "nim", "150", "--max-nodes", "200"]).starts_with("nim 150: 151 positions")
    );
    fails(&["graph", "nim", "3", "--max-nodes", "0"], "at least 1");
    fails(
        &["graph", "nim", "3", "--max-nodes", "5000"],
        "at most 2000",
    );
    fails(
        &["graph", "nim", "100000000000000000000000"],
        "too many moves",
    );
    // Few positions but a tangle of long moves: listed, not drawn.
    let path = scratch("tangle.svg");
    fails(
        &["graph", "nim", "16", "--svg", path.to_str().unwrap()],
        "too tangled to draw",
    );
    assert!(!path.exists());
    assert!(run(&["graph", "nim", "16"]).starts_with("nim 16: 17 positions"));
}

#[test]
fn bad_input_is_one_line() {
    fails(&["graph", "nosuchgame", "3"], "nosuchgame");
    fails(&["graph", "knight:4", "9,9"], "");
    fails(
        &["graph", "nim", "3", "--svg", "out.png"],
        "--svg draws SVG",
    );
    fails(
        &["graph", "nim", "3", "--dot", "--json"],
        "cannot be used with",
    );
    // A bad path fails before any work, and nothing is left behind.
    fails(
        &["graph", "nim", "3", "--svg", "/no/such/folder/g.svg"],
        "g.svg",
    );
}

/// The guide's pictures, made by the command: a change to the drawing shows
/// here. `GRUNDY_BLESS=1` writes them afresh.
#[test]
fn the_guides_pictures_are_what_the_command_draws() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let pictures: [(&str, &[&str]); 3] = [
        ("graph-take-1-3-from-7.svg", &["sub:1,2,3", "7"]),
        ("graph-knight-4.svg", &["knight:4", "3,3"]),
        ("graph-sum.svg", &["nim", "2", "+", "sub:1,2", "2"]),
    ];
    let bless = std::env::var_os("GRUNDY_BLESS").is_some_and(|v| v == "1");
    for (name, args) in pictures {
        let committed = root.join("docs/src/images").join(name);
        let fresh = scratch(name);
        Command::cargo_bin("grundy")
            .unwrap()
            .arg("graph")
            .args(args)
            .arg("--svg")
            .arg(&fresh)
            .assert()
            .success();
        let drawn = std::fs::read_to_string(&fresh).unwrap();
        if bless {
            std::fs::write(&committed, &drawn).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&committed)
            .unwrap_or_else(|e| panic!("{}: {e}", committed.display()));
        assert!(
            drawn == expected,
            "docs/src/images/{name} is not what `grundy graph {} --svg` draws: run GRUNDY_BLESS=1 cargo test -p grundy-cli --test graph",
            args.join(" ")
        );
    }
}
