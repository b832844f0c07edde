//! The web API's answers for the classic variants (`staircase`, `moore:K`,
//! `hackenbush:FILE`), as the server and the static site give them.

use grundy_web::answer::{answer, Context};
use grundy_web::{Budget, Limits};
use serde_json::{json, Value};

fn ask(endpoint: &str, body: Value) -> Result<Value, (u16, String)> {
    let limits = Limits::default();
    let budget = Budget::default();
    let cx = Context {
        limits: &limits,
        budget: &budget,
    };
    answer(endpoint, body.to_string().as_bytes(), &cx).map_err(|e| (e.status, e.message))
}

const TREE: &str = "# a tree\n0 a\na b\na c\nc d\n0 e\n";

#[test]
fn games_lists_the_variants() {
    let games = ask("games", json!({})).unwrap().to_string();
    for spec in ["staircase", "moore:K", "hackenbush:FILE"] {
        assert!(games.contains(spec), "{spec}: {games}");
    }
}

#[test]
fn values_of_sums_mixing_the_variants() {
    let v = ask(
        "value",
        json!({
            "sum": "staircase 3,1,2 + moore:2 1,2,3 + hackenbush:tree.txt all + nim 4",
            "files": {"tree.txt": TREE},
        }),
    )
    .unwrap();
    assert_eq!(v["nim_sum"], 1 ^ 6 ^ 5 ^ 4);
    assert_eq!(v["components"][2]["grundy"], 5);
    assert_eq!(v["winner"], "first");
    // A Moore position beyond the search: its outcome, in the error.
    let (status, message) =
        ask("value", json!({"sum": "moore:2 1000000,1000000,999999"})).unwrap_err();
    assert_eq!(status, 400);
    assert!(message.contains("by Moore's theorem"), "{message}");
}

#[test]
fn explain_and_reply() {
    let e = ask(
        "explain",
        json!({"game": "hackenbush:tree.txt", "position": "all", "files": {"tree.txt": TREE}}),
    )
    .unwrap();
    assert_eq!(e["grundy"], 5);
    assert_eq!(e["mex"], 5);
    assert_eq!(e["options"].as_array().unwrap().len(), 5);
    let e = ask("explain", json!({"game": "staircase", "position": "2,1"})).unwrap();
    assert_eq!(e["grundy"], 2);
    assert_eq!(e["mex"], 2);
    let r = ask("reply", json!({"sum": "staircase 5,2,4,7"})).unwrap();
    assert_eq!(r["sum"], "staircase 4,2,4,7");
    let r = ask(
        "reply",
        json!({"sum": "hackenbush:tree.txt all", "files": {"tree.txt": TREE}}),
    )
    .unwrap();
    assert_eq!(r["sum"], "hackenbush:tree.txt 1,2,3,5");
}

#[test]
fn bad_input_is_400_with_one_line() {
    for (body, needle) in [
        (json!({"sum": "moore:0 1,2"}), "1 <= K <= 1000"),
        (json!({"sum": "staircase 1,x"}), "unexpected 'x'"),
        (
            json!({"sum": "hackenbush:g.txt all"}),
            "send its text in `files`",
        ),
        (
            json!({"sum": "hackenbush:g.txt all", "files": {"g.txt": "a b\n"}}),
            "no edge touches the ground",
        ),
        (
            json!({"sum": "hackenbush:g.txt 7", "files": {"g.txt": TREE}}),
            "is not an edge",
        ),
    ] {
        let (status, message) = ask("value", body.clone()).unwrap_err();
        assert_eq!(status, 400, "{body}");
        assert!(message.contains(needle), "{body}: {message}");
        assert!(!message.contains('\n'), "{body}: {message}");
    }
}
