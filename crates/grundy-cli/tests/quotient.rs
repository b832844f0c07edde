//! `grundy quotient`: the JSON carries the whole table, and anyone can
//! recompute an outcome from it; `value --misere` answers through it.

mod common;
use common::{fails, json};

#[test]
fn the_table_recomputes_every_outcome() {
    let q = json(&["quotient", "0.07", "--max-heap", "14", "--json"]);
    assert_eq!(
        (q["order"].as_u64(), q["p_size"].as_u64()),
        (Some(24), Some(5))
    );
    assert_eq!(q["tame"], false);
    let table: Vec<Vec<u64>> = q["table"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect()
        })
        .collect();
    let map: Vec<u64> = q["heap_map"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let p: Vec<u64> = q["p_portion"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(map.len(), 15);
    assert_eq!(q["elements"].as_array().unwrap().len(), 24);
    for sum in [
        vec![4u64, 5, 9],
        vec![14, 14],
        vec![2, 3, 10, 11],
        vec![7, 8, 12, 13, 6],
    ] {
        let x = sum
            .iter()
            .fold(0, |x, h| table[x as usize][map[*h as usize] as usize]);
        let mut args = vec!["value".to_string(), "dawson".to_string()];
        args.extend(sum.iter().map(u64::to_string));
        args.extend(["--misere".to_string(), "--json".to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let value = json(&args);
        // Sums that genus theory covers are answered by it, the rest by
        // the quotient: both must agree with the table.
        assert!(value["method"] == "quotient" || value["method"] == "genus");
        let second = value["winner"] == "second";
        assert_eq!(p.contains(&x), second, "{sum:?}");
    }
}

#[test]
fn bad_requests_are_one_line() {
    fails(&["quotient", "knight:8"], "heap games");
    fails(
        &["quotient", "0.07", "--max-heap", "100000"],
        "up to heap 10000",
    );
    fails(
        &[
            "quotient",
            "kayles",
            "--max-heap",
            "40",
            "--max-order",
            "10",
        ],
        "has order 6",
    );
}
