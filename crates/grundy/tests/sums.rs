//! The Sprague-Grundy theorem, checked: for random small sums of Nim,
//! subtraction, powers and divide games, the winner and the complete list of
//! winning moves that `Sum::analyze` derives by XOR agree with a brute-force
//! search of the whole sum, which knows nothing of Grundy values.

use grundy::family::Settings;
use grundy::spec::parse_sum;
use grundy::sum::Winner;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

/// One component family, with its rules written again here from scratch.
#[derive(Debug, Clone)]
enum Rules {
    Nim,
    Sub(Vec<u64>),
    Pow(u64),
    Div(Vec<u64>),
}

impl Rules {
    fn spec(&self) -> String {
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        match self {
            Rules::Nim => "nim".into(),
            Rules::Sub(s) => format!("sub:{}", list(s)),
            Rules::Pow(k) => format!("pow:{k}"),
            Rules::Div(d) => format!("div:{}", list(d)),
        }
    }

    fn options(&self, n: u64) -> Vec<u64> {
        match self {
            Rules::Nim => (0..n).collect(),
            Rules::Sub(s) => s.iter().filter(|t| **t <= n).map(|t| n - t).collect(),
            Rules::Pow(k) => {
                let mut out = Vec::new();
                let mut p = 1;
                while p <= n {
                    out.push(n - p);
                    p *= k;
                }
                out
            }
            Rules::Div(d) if n >= 1 => d.iter().map(|d| n / d).collect(),
            Rules::Div(_) => vec![],
        }
    }
}

/// Whether the player to move wins the whole sum, by exhaustive search.
fn wins(rules: &[Rules], heaps: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    if let Some(w) = memo.get(heaps) {
        return *w;
    }
    let mut result = false;
    'search: for (i, rule) in rules.iter().enumerate() {
        for option in rule.options(heaps[i]) {
            let mut next = heaps.to_vec();
            next[i] = option;
            if !wins(rules, &next, memo) {
                result = true;
                break 'search;
            }
        }
    }
    memo.insert(heaps.to_vec(), result);
    result
}

fn rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        Just(Rules::Nim),
        proptest::collection::btree_set(1u64..7, 1..4)
            .prop_map(|s| Rules::Sub(s.into_iter().collect())),
        (2u64..5).prop_map(Rules::Pow),
        proptest::collection::btree_set(2u64..7, 1..3)
            .prop_map(|s| Rules::Div(s.into_iter().collect())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn xor_rule_agrees_with_brute_force(
        components in proptest::collection::vec((rules(), 0u64..13), 1..4)
    ) {
        let mut args = Vec::new();
        for (i, (rule, heap)) in components.iter().enumerate() {
            if i > 0 {
                args.push("+".to_string());
            }
            args.push(rule.spec());
            args.push(heap.to_string());
        }
        let mut sum = parse_sum(&args, Settings::default()).unwrap();
        let analysis = sum.analyze(usize::MAX).unwrap();

        let rules: Vec<Rules> = components.iter().map(|c| c.0.clone()).collect();
        let heaps: Vec<u64> = components.iter().map(|c| c.1).collect();
        let mut memo = HashMap::new();
        let first_wins = wins(&rules, &heaps, &mut memo);
        prop_assert_eq!(analysis.winner == Winner::First, first_wins);
        prop_assert!(!analysis.truncated);

        // Every move after which the opponent loses, and nothing else.
        let mut expected = BTreeSet::new();
        for (i, rule) in rules.iter().enumerate() {
            for option in rule.options(heaps[i]) {
                let mut next = heaps.clone();
                next[i] = option;
                if !wins(&rules, &next, &mut memo) {
                    expected.insert((i, option));
                }
            }
        }
        let reported: Vec<(usize, u64)> = analysis
            .winning_moves
            .iter()
            .map(|m| {
                let left = match m.to.as_slice() {
                    [] => 0,
                    [one] => one.as_u64().unwrap(),
                    more => panic!("a heap move left {more:?}"),
                };
                (m.component, left)
            })
            .collect();
        let reported_set: BTreeSet<_> = reported.iter().copied().collect();
        prop_assert_eq!(reported.len(), reported_set.len(), "a winning move is listed twice");
        prop_assert_eq!(reported_set, expected);
    }
}

#[test]
fn the_contract_example() {
    let args: Vec<String> = ["sub:1,2,3", "3", "4", "5"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut sum = parse_sum(&args, Settings::default()).unwrap();
    let analysis = sum.analyze(1000).unwrap();
    let values: Vec<String> = analysis.values.iter().map(|v| v.to_string()).collect();
    assert_eq!(values, ["3", "0", "1"]);
    assert_eq!(analysis.nim_sum.to_string(), "2");
    assert_eq!(analysis.winner, Winner::First);
    let moves: Vec<(usize, Vec<String>)> = analysis
        .winning_moves
        .iter()
        .map(|m| (m.component, m.to.iter().map(|p| p.to_string()).collect()))
        .collect();
    assert_eq!(
        moves,
        [
            (0, vec!["1".to_string()]),
            (1, vec!["2".to_string()]),
            (2, vec!["3".to_string()])
        ]
    );
}

#[test]
fn truncation_is_reported() {
    let args: Vec<String> = ["nim", "1", "2", "4", "8", "16", "32", "64"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut sum = parse_sum(&args, Settings::default()).unwrap();
    let analysis = sum.analyze(0).unwrap();
    assert!(analysis.truncated);
    assert!(analysis.winning_moves.is_empty());
}

/// Whether the player to move wins a sum, by search over whole positions:
/// the families supply only their rules (`moves(..).to`), never a value.
fn wins_by_search(
    sum: &mut grundy::sum::Sum,
    components: Vec<grundy::sum::Component>,
    memo: &mut HashMap<Vec<(usize, grundy::Position)>, bool>,
) -> bool {
    let mut key: Vec<(usize, grundy::Position)> = components
        .iter()
        .map(|c| (c.family, c.position.clone()))
        .collect();
    key.sort();
    if let Some(w) = memo.get(&key) {
        return *w;
    }
    let mut result = false;
    'search: for index in 0..components.len() {
        let c = components[index].clone();
        for m in sum.family_mut(c.family).moves(&c.position).unwrap() {
            let next = grundy::misere::after_move(&components, index, &m);
            if !wins_by_search(sum, next, memo) {
                result = true;
                break 'search;
            }
        }
    }
    memo.insert(key, result);
    result
}

fn family_spec() -> impl Strategy<Value = (String, String)> {
    prop_oneof![
        (1u64..9).prop_map(|n| ("0.77".to_string(), n.to_string())),
        (1u64..10).prop_map(|n| ("0.07".to_string(), n.to_string())),
        (1u64..10).prop_map(|n| ("0.137".to_string(), n.to_string())),
        (1u64..10).prop_map(|n| ("4.07".to_string(), n.to_string())),
        (1u64..9).prop_map(|n| ("hex:0.F8".to_string(), n.to_string())),
        (1u64..11).prop_map(|n| ("grundy".to_string(), n.to_string())),
        (1u64..9).prop_map(|n| ("sticks:3".to_string(), n.to_string())),
        (0u64..6, 0u64..6).prop_map(|(r, c)| ("knight:6".to_string(), format!("{r},{c}"))),
        (1u64..4, 1u64..4).prop_map(|(r, c)| ("choco".to_string(), format!("{r}x{c}"))),
        (1u64..6).prop_map(|n| ("northcott:2".to_string(), n.to_string())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]
    /// Every family's values add by XOR: checked against search of whole sums,
    /// winner and the exact set of winning moves.
    #[test]
    fn every_family_sums_by_xor(parts in proptest::collection::vec(family_spec(), 1..4)) {
        let mut args = Vec::new();
        for (i, (spec, position)) in parts.iter().enumerate() {
            if i > 0 {
                args.push("+".to_string());
            }
            args.push(spec.clone());
            args.push(position.clone());
        }
        let mut sum = parse_sum(&args, Settings::default()).unwrap();
        let analysis = sum.analyze(usize::MAX).unwrap();
        let components = sum.components().to_vec();
        let mut memo = HashMap::new();
        let first_wins = wins_by_search(&mut sum, components.clone(), &mut memo);
        prop_assert_eq!(analysis.winner == Winner::First, first_wins);
        let mut expected = BTreeSet::new();
        for index in 0..components.len() {
            let c = components[index].clone();
            for m in sum.family_mut(c.family).moves(&c.position).unwrap() {
                let next = grundy::misere::after_move(&components, index, &m);
                if !wins_by_search(&mut sum, next, &mut memo) {
                    let mut to = m.to.clone();
                    to.sort();
                    expected.insert((index, to));
                }
            }
        }
        let reported: BTreeSet<(usize, Vec<grundy::Position>)> = analysis
            .winning_moves
            .iter()
            .map(|m| {
                let mut to = m.to.clone();
                to.sort();
                (m.component, to)
            })
            .collect();
        prop_assert_eq!(reported, expected);
    }
}
