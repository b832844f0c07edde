//! End-to-end tests of the board families: knight, chocolate, Treblecross, tables.

mod common;

use common::{fails, json, stdout};

#[test]
fn knight_table_and_sums() {
    let t = json(&["table", "knight:8", "--json"]);
    let rows = t["table"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[3][4], 4);
    let text = stdout(&["table", "knight:8"]);
    assert_eq!(text.lines().count(), 8);
    let v = json(&["value", "knight:8", "3,4", "7,7", "--json"]);
    assert_eq!(v["components"][0]["grundy"], 4);
    assert_eq!(v["nim_sum"], 4 ^ rows[7][7].as_u64().unwrap());
    for m in v["winning_moves"].as_array().unwrap() {
        assert_eq!(m["component"], 0);
    }
}

#[test]
fn chocolate_tables_and_big_bars() {
    let t = json(&["table", "choco:12x12", "--json"]);
    assert_eq!(t["table"].as_array().unwrap().len(), 12);
    assert_eq!(t["table"][0][1], 1);
    let v = json(&["value", "choco", "300x300", "--json"]);
    assert!(v["components"][0]["grundy"].is_u64());
    let v = json(&["value", "choco", "2x3", "+", "nim", "1", "--json"]);
    assert_eq!(v["components"][0]["position"], "2x3");
}

#[test]
fn treblecross_winning_cells() {
    let v = json(&["value", "treblecross", "..X......X", "--json"]);
    assert_eq!(v["winner"], "first");
    let boards: Vec<&str> = v["winning_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["to"][0].as_str().unwrap())
        .collect();
    assert_eq!(boards, ["..X..X...X", "..X...X..X"]);
    let text = stdout(&["value", "treblecross", "..X......X"]);
    assert!(
        text.contains("mark cell 6") && text.contains("mark cell 7"),
        "{text}"
    );
    // Three can be completed: an immediate win, whatever else is in the sum.
    let v = json(&["value", "treblecross", "X.X..", "+", "nim", "3", "--json"]);
    assert_eq!(v["winner"], "first");
    assert_eq!(v["components"][0]["grundy"], "win");
    assert_eq!(
        v["winning_moves"],
        serde_json::json!([{"component": 0, "from": "X.X..", "to": ["XXX.."]}])
    );
    let long = ".".repeat(20_000);
    let v = json(&["value", "treblecross", &long, "--json", "--max-moves", "2"]);
    assert!(v["components"][0]["grundy"].is_u64());
}

#[test]
fn bad_board_input() {
    fails(&["value", "knight:8", "8,0"], "off the 8x8 board");
    fails(&["value", "knight:8", "3"], "r,c");
    fails(&["value", "knight:0", "0,0"], "knight:N");
    fails(&["value", "knight", "0,0"], "needs a board size");
    fails(&["value", "choco", "0x3"], "RxC");
    fails(&["value", "choco", "3by4"], "RxC");
    fails(&["value", "choco", "99999x3"], "limited");
    fails(&["value", "treblecross", "XXX.."], "three marks in a row");
    fails(&["value", "treblecross", "..o.."], "not a cell");
    fails(&["value", "treblecross", ".."], "at least 3 cells");
    fails(&["table", "sub:1,2", "--json"], "no table");
    fails(&["table", "knight:100000"], "tables go up to");
}
