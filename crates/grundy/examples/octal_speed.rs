//! Times the take-and-break engine on one code:
//! `octal_speed DIGITS N [plain|serial|heap|scalar|novector|scalarmarks]`,
//! e.g. `octal_speed 016 1000000` for 0.16, or `octal_speed grundy 1000000`
//! for Grundy's game. Prints the instruction path (`GRUNDY_SIMD` forces
//! one), seconds, G(N) and a checksum.

use grundy::heap::rare::{Engine, TakeBreak};
use std::ops::ControlFlow;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[2].parse().unwrap();
    // `grundy`: Grundy's game (`4.` with unequal parts).
    let rules = if args[1] == "grundy" {
        grundy::games::octal::GrundysGame::rules()
    } else {
        let digits: Vec<u8> = args[1]
            .bytes()
            .map(|b| (b as char).to_digit(16).unwrap() as u8)
            .collect();
        TakeBreak::new(&digits).unwrap()
    };
    let mut engine = if args.get(3).map(String::as_str) == Some("plain") {
        Engine::plain(rules)
    } else {
        Engine::new(rules)
    };
    // `serial`: one thread only (blocks without a helper thread).
    if args.get(3).map(String::as_str) == Some("serial") {
        engine.block_helper(false);
    }
    // `heap`: one thread, heap by heap (no blocks), for comparison.
    if args.get(3).map(String::as_str) == Some("heap") {
        engine.parallel_from(usize::MAX);
    }
    // `scalar`: one thread, and no vector code.
    if args.get(3).map(String::as_str) == Some("scalar") {
        engine.block_helper(false);
        engine.scalar_search();
    }
    // `novector`: two threads, no vector code (as `GRUNDY_SIMD=portable`).
    if args.get(3).map(String::as_str) == Some("novector") {
        engine.scalar_search();
    }
    if args.get(3).map(String::as_str) == Some("scalarmarks") {
        engine.block_helper(false);
        engine.scalar_marks();
    }
    let start = Instant::now();
    let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
    let secs = start.elapsed().as_secs_f64();
    let values = engine.values();
    let checksum = (0..values.len()).fold(0u64, |acc, i| {
        acc.wrapping_mul(31).wrapping_add(values.get(i) as u64)
    });
    println!(
        "{} path={} n={n} secs={secs:.3} G(n)={} checksum={checksum:x} stats={:?} split={:?}",
        args[1],
        engine.path(),
        values.get(n),
        engine.stats(),
        engine.split()
    );
}
