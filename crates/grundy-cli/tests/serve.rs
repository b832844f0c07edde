//! End-to-end tests of `grundy serve`: every endpoint against the command
//! line's `--json` for the same input, budgets, and a few hundred bad
//! requests after which the server still answers.

mod common;

use common::json as cli_json;
use proptest::prelude::*;
use serde_json::{json, Value as Json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `grundy serve --port 0`, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["serve", "--port", "0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("grundy serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let prefix = "grundy is serving http://";
        assert!(line.starts_with(prefix), "first line: {line:?}");
        let address = line[prefix.len()..].split('/').next().unwrap().to_string();
        Server { child, address }
    }

    /// Sends raw bytes, returns (status, body).
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        stream.write_all(request).unwrap();
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).to_string();
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let body = match text.find("\r\n\r\n") {
            Some(at) => text[at + 4..].to_string(),
            None => String::new(),
        };
        let chunked = text[..text.find("\r\n\r\n").unwrap_or(0)]
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked");
        (status, if chunked { unchunk(&body) } else { body })
    }

    fn request(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        );
        self.raw(request.as_bytes())
    }

    /// POSTs `body`, expects 200, returns the JSON answer.
    fn post(&self, path: &str, body: Json) -> Json {
        let (status, text) = self.request("POST", path, &body.to_string());
        assert_eq!(status, 200, "{path} {body}: {text}");
        serde_json::from_str(&text).unwrap()
    }

    /// POSTs `body`, expects `status` and an error message containing `needle`.
    fn refused(&self, path: &str, body: &str, status: u16, needle: &str) {
        let (got, text) = self.request("POST", path, body);
        assert_eq!(got, status, "{path} {body}: {text}");
        let answer: Json = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{text}"));
        let message = answer["error"].as_str().unwrap();
        assert!(message.contains(needle), "{message:?} lacks {needle:?}");
        assert!(!message.contains('\n'), "one line: {message:?}");
    }

    /// Polls job `id` until it is neither running nor cancelling.
    fn wait_for_job(&self, id: &str) -> Json {
        loop {
            let (_, text) = self.request("GET", &format!("/api/jobs/{id}"), "");
            let status: Json = serde_json::from_str(&text).unwrap();
            if status["state"] != "running" && status["state"] != "cancelling" {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether a small request is answered within about ten seconds (the
    /// server may be busy finishing stopped work: then 503 meanwhile).
    fn comes_back(&self) -> bool {
        for _ in 0..100 {
            let (status, text) = self.request("POST", "/api/value", r#"{"sum": "nim 1 2"}"#);
            if status == 200 {
                return true;
            }
            assert_eq!(status, 503, "{text}");
            std::thread::sleep(Duration::from_millis(100));
        }
        false
    }

    fn games(&self) -> Json {
        let (status, text) = self.request("GET", "/api/games", "");
        assert_eq!(status, 200, "{text}");
        serde_json::from_str(&text).unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn unchunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some(at) = rest.find("\r\n") {
        let size = usize::from_str_radix(rest[..at].trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[at + 2..at + 2 + size]);
        rest = &rest[at + 2 + size + 2..];
    }
    out
}

fn args(text: &str) -> Vec<&str> {
    text.split_whitespace().collect()
}

#[test]
fn every_endpoint_answers_as_the_command_line() {
    let server = Server::start(&[]);
    assert_eq!(server.games(), cli_json(&["games", "--json"]));
    for sum in [
        "sub:1,2,3 3 4 5 + nim 7",
        "nim 3 5 7",
        "0.137 20 + grundy 9 + knight:8 3,4",
        "choco 3x5 + treblecross ..X......X",
        "dawson 9 + nim 2",
        "nim 1 2 3",
    ] {
        let mut cli = vec!["value"];
        cli.extend(args(sum));
        cli.push("--json");
        assert_eq!(
            server.post("/api/value", json!({ "sum": sum })),
            cli_json(&cli)
        );
        if sum.contains("treblecross") {
            // Misère Treblecross is another game, refused by both.
            server.refused(
                "/api/value",
                &json!({ "sum": sum, "misere": true }).to_string(),
                400,
                "not supported",
            );
            continue;
        }
        cli.push("--misere");
        assert_eq!(
            server.post("/api/value", json!({ "sum": sum, "misere": true })),
            cli_json(&cli),
            "{sum} misère"
        );
    }
    assert_eq!(
        server.post(
            "/api/value",
            json!({"sum": "nim 9 10 11 12 13", "max_moves": 2})
        ),
        cli_json(&[
            "value",
            "nim",
            "9",
            "10",
            "11",
            "12",
            "13",
            "--json",
            "--max-moves",
            "2"
        ])
    );
    for (game, position) in [
        ("sub:1,2,3", "5"),
        ("0.07", "9"),
        ("div:2,3,6", "12"),
        ("choco", "3x4"),
    ] {
        assert_eq!(
            server.post("/api/explain", json!({"game": game, "position": position})),
            cli_json(&["explain", game, position, "--json"])
        );
    }
    assert_eq!(
        server.post("/api/seq", json!({"game": "0.07", "from": 5, "to": 500})),
        cli_json(&["seq", "0.07", "--from", "5", "--to", "500", "--json"])
    );
    assert_eq!(
        server.post("/api/period", json!({"game": "0.137", "max": 4096})),
        cli_json(&["period", "0.137", "--max", "4096", "--json"])
    );
    for game in ["knight:8", "choco:5x7"] {
        assert_eq!(
            server.post("/api/table", json!({ "game": game })),
            cli_json(&["table", game, "--json"])
        );
    }
    // The pattern, as `grundy pattern --json`, with the code of --emit.
    let mut pattern = server.post(
        "/api/pattern",
        json!({"game": "sub:1,3,4", "outcome": true}),
    );
    let code = pattern.as_object_mut().unwrap().remove("code").unwrap();
    assert_eq!(
        pattern,
        cli_json(&["pattern", "sub:1,3,4", "--outcome", "--json"])
    );
    let cpp = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["pattern", "sub:1,3,4", "--outcome", "--emit", "cpp"])
        .output()
        .unwrap();
    assert_eq!(code["cpp"], String::from_utf8(cpp.stdout).unwrap());
    // The misère quotient, as `grundy quotient --json`.
    let quotient = server.post("/api/quotient", json!({"game": "0.75", "max_heap": 12}));
    assert_eq!(
        quotient,
        cli_json(&["quotient", "0.75", "--max-heap", "12", "--json"])
    );
    // A sum of two heap games: proven, as the CLI says.
    let mut sum = server.post("/api/pattern", json!({"game": "sub:1,2 + sub:1,3"}));
    sum.as_object_mut().unwrap().remove("code");
    assert_eq!(
        sum,
        cli_json(&["pattern", "sub:1,2", "+", "sub:1,3", "--json"])
    );
    assert_eq!(
        (sum["kind"].as_str(), sum["proven"].as_bool()),
        (Some("periodic-2d"), Some(true))
    );
    let none = server.post("/api/pattern", json!({"game": "div:2,3,6", "max": 300}));
    assert_eq!(
        (none["kind"].as_str(), &none["code"]["python"]),
        (Some("none"), &Json::Null)
    );
}

#[test]
fn scripts_and_graphs_travel_in_the_request() {
    let server = Server::start(&[]);
    let script = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/stones.rhai"
    ))
    .unwrap();
    let answer = server.post(
        "/api/value",
        json!({"sum": "script:stones.rhai 1 + script:stones.rhai 2", "files": {"stones.rhai": script}}),
    );
    // Codeforces 768E's sample: piles 1 and 2, and Jon (second) wins: YES.
    assert_eq!(answer["winner"], "second");
    let graph = "a b\nb c\nc a\nc d\n";
    let answer = server.post(
        "/api/value",
        json!({"sum": "dag:g.txt a", "files": {"g.txt": graph}}),
    );
    let path = std::env::temp_dir().join("grundy-serve-test-g.txt");
    std::fs::write(&path, graph).unwrap();
    let spec = format!("dag:{}", path.display());
    let mut cli = cli_json(&["value", &spec, "a", "--json"]);
    cli["components"][0]["game"] = json!("dag:g.txt");
    assert_eq!(answer, cli);
    // The server never opens a path a request names.
    server.refused(
        "/api/value",
        &json!({"sum": format!("{spec} a")}).to_string(),
        400,
        "send its text in `files`",
    );
    server.refused(
        "/api/value",
        r#"{"sum": "script:x.rhai 3", "files": {"x.rhai": "fn moves(n) { loop {} }"}}"#,
        400,
        "operations",
    );
    // A move list too long to search stops at the bound on one call's arrays.
    server.refused(
        "/api/value",
        r#"{"sum": "script:x.rhai 1000000000000000000", "files": {"x.rhai": "fn moves(n) { let out = []; for a in 1..n { out.push(sum([a, n - a])); } out }"}}"#,
        400,
        "an array grew past 20000 items",
    );
}

#[test]
fn a_game_of_nim_played_through_the_api() {
    let server = Server::start(&[]);
    let mut sum = "nim 3 5 7".to_string();
    let mut my_turn = true;
    loop {
        let moves = server.post("/api/moves", json!({ "sum": sum }));
        let listed = moves["moves"].as_array().unwrap();
        if my_turn {
            // Every move the hints mark "win" leaves a nim-sum of zero.
            let winning: Vec<&Json> = listed.iter().filter(|m| m["outcome"] == "win").collect();
            assert_eq!(winning.is_empty(), moves["nim_sum"] == 0, "{moves}");
            let mv = winning.first().copied().unwrap_or(&listed[0]);
            let after = server.post(
                "/api/apply",
                json!({"sum": sum, "component": mv["component"], "to": mv["to"]}),
            );
            if after["over"] == true {
                break;
            }
            sum = after["sum"].as_str().unwrap().to_string();
            let value = server.post("/api/value", json!({ "sum": sum }));
            assert_eq!(value["nim_sum"], 0);
        } else {
            let reply = server.post("/api/reply", json!({ "sum": sum }));
            assert_eq!(reply["winning"], false);
            assert_eq!(reply["over"], false, "the computer cannot win: {reply}");
            sum = reply["sum"].as_str().unwrap().to_string();
        }
        my_turn = !my_turn;
    }
    assert!(
        my_turn,
        "the first player, playing the hints, made the last move"
    );
    server.refused(
        "/api/apply",
        r#"{"sum": "nim 3 5", "component": 0, "to": ["4"]}"#,
        400,
        "is not a move",
    );
}

#[test]
fn long_runs_report_progress_and_can_be_cancelled() {
    let server = Server::start(&[]);
    let started = server.post(
        "/api/jobs",
        json!({"kind": "seq", "game": "0.137", "from": 0, "to": 200000, "columns": 50}),
    );
    let id = started["id"].as_str().unwrap().to_string();
    let status = server.wait_for_job(&id);
    assert_eq!(status["state"], "done", "{status}");
    let result = &status["result"];
    assert_eq!(result["columns"].as_array().unwrap().len(), 50);
    assert_eq!(result["period"]["period"], 34);
    assert_eq!(result["period"]["proven"], true);
    let values = cli_json(&["seq", "0.137", "--to", "200000", "--json"]);
    let max = values["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .max();
    assert_eq!(result["max_value"].as_u64(), max);
    let (status, csv) = server.request("GET", &format!("/api/jobs/{id}/values.csv"), "");
    assert_eq!(status, 200);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 200_002);
    assert_eq!(lines[0], "n,grundy");
    assert_eq!(lines[53], format!("52,{}", values["values"][52]));
    let (_, b_file) = server.request("GET", &format!("/api/jobs/{id}/b-file.txt"), "");
    assert_eq!(
        b_file.lines().nth(100),
        Some(format!("100 {}", values["values"][100]).as_str())
    );

    // 0.6 to 10^8 is minutes of work: cancel it.
    let started = server.post(
        "/api/jobs",
        json!({"kind": "seq", "game": "0.6", "to": 100000000}),
    );
    let id = started["id"].as_str().unwrap().to_string();
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = server.request("DELETE", &format!("/api/jobs/{id}"), "");
    assert_eq!(status, 200);
    assert_eq!(server.wait_for_job(&id)["state"], "cancelled");
    server.refused(
        "/api/jobs",
        r#"{"kind": "seq", "game": "0.6", "to": 1000000000000}"#,
        400,
        "command line",
    );
}

#[test]
fn budgets_end_in_a_clear_error_and_the_server_goes_on() {
    let server = Server::start(&["--seconds", "1", "--max-states", "10000", "--jobs", "1"]);
    // State budget: a memo search past 10,000 positions.
    server.refused(
        "/api/value",
        r#"{"sum": "knight:200 199,199"}"#,
        400,
        "budget",
    );
    // Time budget: one second is not enough for 0.6 to 5 * 10^6.
    server.refused(
        "/api/seq",
        r#"{"game": "0.6", "to": 1000000}"#,
        400,
        "per request",
    );
    // The one slot is held by the stopped computation until it stops; then
    // the server answers again.
    assert!(server.comes_back(), "the server came back after the budget");
    // One slot: a long run holds it, and other work is told the server is busy.
    let started = server.post(
        "/api/jobs",
        json!({"kind": "seq", "game": "0.6", "to": 10000000}),
    );
    server.refused("/api/value", r#"{"sum": "nim 1 2"}"#, 503, "busy");
    let id = started["id"].as_str().unwrap();
    server.request("DELETE", &format!("/api/jobs/{id}"), "");
}

#[test]
fn a_slow_script_stops_at_the_deadline_and_frees_its_slot() {
    let server = Server::start(&["--seconds", "1", "--jobs", "1"]);
    // Each call of moves does real work: 100000 calls would take minutes.
    let slow = "fn moves(n) { let s = 0; for i in 0..200000 { s += i; } if n > 0 { [n - 1] } else { [] } }";
    let started = std::time::Instant::now();
    server.refused(
        "/api/value",
        &json!({"sum": "script:slow.rhai 100000", "files": {"slow.rhai": slow}}).to_string(),
        400,
        "per request",
    );
    // The script itself stops, so the one slot is free again at once.
    assert!(server.comes_back(), "the slot was freed");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    // Misère search over a whole sum stops at the deadline too.
    server.refused(
        "/api/value",
        r#"{"sum": "4.442 23 99363 31792 + div:7 19 36 33", "misere": true}"#,
        400,
        "per request",
    );
    assert!(server.comes_back(), "the slot was freed");
}

#[test]
fn bad_requests_get_one_clear_error() {
    let server = Server::start(&[]);
    for (path, body, needle) in [
        ("/api/value", "not json", "not the JSON expected"),
        ("/api/value", "{}", "missing field `sum`"),
        ("/api/value", r#"{"sum": 3}"#, "invalid type"),
        (
            "/api/value",
            r#"{"sum": "nim 3", "bogus": 1}"#,
            "unknown field `bogus`",
        ),
        ("/api/value", r#"{"sum": ""}"#, "no game given"),
        ("/api/value", r#"{"sum": "sub:1,x 3"}"#, "(at character 7)"),
        (
            "/api/value",
            r#"{"sum": "nim 3", "max_moves": 1000000000}"#,
            "max_moves",
        ),
        (
            "/api/seq",
            r#"{"game": "0.07", "from": 10, "to": 5}"#,
            "after",
        ),
        (
            "/api/seq",
            r#"{"game": "0.07", "to": 100000000}"#,
            "/api/jobs",
        ),
        ("/api/seq", r#"{"game": "0.07", "to": -1}"#, "invalid value"),
        (
            "/api/explain",
            r#"{"game": "knight:8", "position": "9,9"}"#,
            "9,9",
        ),
        ("/api/table", r#"{"game": "nim"}"#, "table"),
        (
            "/api/pattern",
            r#"{"game": "0.07", "max": 99999999999}"#,
            "more heaps than the server tabulates",
        ),
        (
            "/api/pattern",
            r#"{"game": "sub:1 + sub:2 + sub:3"}"#,
            "a sum of two heap games",
        ),
        (
            "/api/quotient",
            r#"{"game": "0.07", "max_heap": 1000}"#,
            "beyond the server's quotients",
        ),
        ("/api/quotient", r#"{"game": "knight:8"}"#, "heap games"),
        (
            "/api/jobs",
            r#"{"kind": "census", "game": "0.07", "to": 5}"#,
            "kind",
        ),
        (
            "/api/apply",
            r#"{"sum": "nim 3", "component": 4, "to": []}"#,
            "does not exist",
        ),
    ] {
        server.refused(path, body, 400, needle);
    }
    let big = format!(
        r#"{{"sum": "nim 3", "files": {{"x": "{}"}}}}"#,
        "a".repeat(2 << 20)
    );
    server.refused("/api/value", &big, 413, "limit");
    let (status, text) = server.request("GET", "/api/nothing", "");
    assert_eq!(status, 404, "{text}");
    let (status, text) = server.request("GET", "/api/value", "");
    assert_eq!(status, 405, "{text}");
    let (status, _) = server.request("GET", "/api/jobs/999", "");
    assert_eq!(status, 404);
    assert!(server.games()["games"].as_array().unwrap().len() > 10);
}

/// Any text in a JSON field, any bytes as a body.
fn body_strategy() -> impl Strategy<Value = (usize, String)> {
    let text = prop_oneof![
        any::<String>(),
        "[a-z0-9:,.+ #xX-]{0,30}",
        Just("0.6 99999999999999999999999".to_string()),
        Just("knight:100000 5,5".to_string()),
        Just("choco 1000x1000".to_string()),
        Just("div:2 -5".to_string()),
        Just("script:a.rhai 3".to_string()),
    ];
    let number = prop_oneof![
        Just(json!(-1)),
        Just(json!(1e300)),
        Just(json!("7")),
        any::<u64>().prop_map(|n| json!(n))
    ];
    (
        0usize..10,
        prop_oneof![
            (text.clone(), any::<bool>())
                .prop_map(|(t, m)| json!({"sum": t, "misere": m}).to_string()),
            (text.clone(), text.clone())
                .prop_map(|(g, p)| json!({"game": g, "position": p}).to_string()),
            (text.clone(), number.clone(), number.clone()).prop_map(|(g, f, t)| {
                json!({"game": g, "from": f, "to": t, "kind": "seq"}).to_string()
            }),
            (text.clone(), number.clone())
                .prop_map(|(g, m)| json!({"game": g, "max": m}).to_string()),
            (text.clone(), number)
                .prop_map(|(s, c)| json!({"sum": s, "component": c, "to": [s]}).to_string()),
            any::<String>(),
            proptest::collection::vec(any::<u8>(), 0..64)
                .prop_map(|b| String::from_utf8_lossy(&b).to_string()),
        ],
    )
}

const PATHS: [&str; 11] = [
    "/api/value",
    "/api/explain",
    "/api/moves",
    "/api/apply",
    "/api/reply",
    "/api/seq",
    "/api/period",
    "/api/table",
    "/api/pattern",
    "/api/jobs",
    "/api/games",
];

#[test]
fn a_few_hundred_random_bad_requests_leave_the_server_serving() {
    let server = Server::start(&["--seconds", "2", "--max-states", "200000"]);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    runner
        .run(&body_strategy(), |(path, body)| {
            let path = PATHS[path];
            let method = if path == "/api/games" { "GET" } else { "POST" };
            let (status, text) = server.request(method, path, &body);
            prop_assert!(
                [200, 400, 404, 405, 413, 503].contains(&status),
                "{path} {body:?}: {status} {text}"
            );
            let answer: Json = serde_json::from_str(&text)
                .map_err(|_| TestCaseError::fail(format!("{path} {body:?}: not JSON: {text}")))?;
            if status != 200 {
                let message = answer["error"].as_str().unwrap_or("");
                prop_assert!(!message.is_empty() && !message.contains('\n'), "{text}");
            }
            // Jobs started by the fuzzer are cancelled so they do not pile up.
            if path == "/api/jobs" && status == 200 {
                let id = answer["id"].as_str().unwrap_or("0");
                server.request("DELETE", &format!("/api/jobs/{id}"), "");
            }
            Ok(())
        })
        .unwrap();
    // Raw garbage on the socket, then a real request.
    for raw in [
        &b"GARBAGE\r\n\r\n"[..],
        b"POST /api/value HTTP/1.1\r\nContent-Length: 999\r\n\r\n{",
        b"\x00\xff\xfe",
    ] {
        let mut stream = TcpStream::connect(&server.address).unwrap();
        let _ = stream.write_all(raw);
    }
    assert!(server.comes_back(), "the server still serves");
    assert!(server.games()["games"].is_array());
}

#[test]
fn the_page_is_embedded() {
    let server = Server::start(&[]);
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.to_ascii_lowercase().contains("<!doctype html"));
    let (status, _) = server.request("GET", "/no/such/file.js", "");
    assert_eq!(status, 404);
    let (status, _) = server.request("GET", "/../Cargo.toml", "");
    assert_ne!(status, 200);
}
