//! Compares the default engine with the plain one: `octal_diff DIGITS N [scalar|serial]`.
use grundy::heap::rare::{Engine, TakeBreak};
use std::ops::ControlFlow;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let digits: Vec<u8> = args[1]
        .bytes()
        .map(|b| (b as char).to_digit(16).unwrap() as u8)
        .collect();
    let n: usize = args[2].parse().unwrap();
    let rules = TakeBreak::new(&digits).unwrap();
    let mut a = Engine::new(rules.clone());
    match args.get(3).map(String::as_str) {
        Some("scalar") => {
            a.scalar_search();
            a.parallel_from(usize::MAX);
        }
        Some("serial") => a.parallel_from(usize::MAX),
        _ => {}
    }
    let mut b = Engine::plain(rules);
    let _ = a.extend_to(n, &mut |_| ControlFlow::Continue(()));
    let _ = b.extend_to(n, &mut |_| ControlFlow::Continue(()));
    let (va, vb) = (a.values().to_u32(), b.values().to_u32());
    match (0..=n).find(|&i| va[i] != vb[i]) {
        Some(i) => println!("first difference at {i}: engine {} plain {}", va[i], vb[i]),
        None => println!("same"),
    }
}
