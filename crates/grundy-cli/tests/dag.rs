//! End-to-end tests of games on graph files, with and without cycles.

mod common;

use common::{fails, json};

fn graph(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("grundy-dag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn acyclic_graphs_and_sums() {
    let g = graph(
        "chain.txt",
        "# a chain and a fork\na b\nb c\nd c\nd b\nlonely\n",
    );
    let spec = format!("dag:{g}");
    let v = json(&["value", &spec, "a", "d", "lonely", "--json"]);
    let values: Vec<u64> = v["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["grundy"].as_u64().unwrap())
        .collect();
    assert_eq!(values, [0, 2, 0]);
    assert_eq!(v["winner"], "first");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{"component": 1, "from": "d", "to": ["c"]}])
    );
    let v = json(&["value", &spec, "b", "+", "nim", "1", "--json"]);
    assert_eq!(v["winner"], "second");
}

#[test]
fn cycles_give_draws_and_drawing_moves() {
    let g = graph("cycle.txt", "p q\nq p\nq r\nx y\ny x\n");
    let spec = format!("dag:{g}");
    // x <-> y only: nobody can ever win.
    let v = json(&["value", &spec, "x", "--json"]);
    assert_eq!(v["components"][0]["grundy"], "inf()");
    assert_eq!(v["winner"], "draw");
    assert_eq!(v["winning_moves"], serde_json::json!([]));
    assert_eq!(
        v["drawing_moves"],
        serde_json::json!([{"component": 0, "from": "x", "to": ["y"]}])
    );
    // p -> q -> r: q can move to the terminal r, so p is finite.
    let v = json(&["value", &spec, "p", "q", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 0);
    assert_eq!(v["components"][1]["grundy"], 1);
    // ∞ plus a finite part in K: the first player wins by leaving the cycle.
    let h = graph("escape.txt", "s t\nt s\ns e\n");
    let v = json(&["value", &format!("dag:{h}"), "s", "--json"]);
    assert_eq!(v["winner"], "first");
}

#[test]
fn bad_graph_files() {
    let g = graph("bad.txt", "a b\na b c\n");
    fails(&["value", &format!("dag:{g}"), "a"], "bad.txt:2");
    let ok = graph("ok.txt", "a b\n");
    fails(&["value", &format!("dag:{ok}"), "zz"], "unknown vertex");
    fails(
        &["value", "dag:/nonexistent/graph.txt", "a"],
        "cannot read graph file",
    );
    fails(&["value", "dag:", "a"], "needs a graph file");
    let empty = graph("empty.txt", "# nothing here\n");
    fails(&["value", &format!("dag:{empty}"), "a"], "no vertices");
}
