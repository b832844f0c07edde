//! Censuses of whole families of heap games: every octal code with up to D
//! digits, every hexadecimal code, every subtraction set within 1..K, each
//! computed until its period is proven or a bound is reached, one row a game.
//!
//! The pieces, each usable alone (the command line, the Python module and its
//! Dask driver share them):
//!
//! - [`members`]: the codes of a census, in a fixed order, each with the
//!   *reduced* code that decides which codes are trivially the same game
//!   (see [`reduce`]);
//! - [`compute`]: one row from one code, interruptible; [`pilot`] runs a
//!   code to a few thousand heaps first, finishing the easy ones and
//!   estimating the cost of the rest;
//! - [`Log`]: the census file (CSV or JSON lines), appended a row at a time
//!   and fsynced, resumed by a rerun, rewritten in code order at the end, and
//!   the grouping of identical sequences (`same_as`);
//! - [`run`]: the local scheduler, several codes at once, longest first.
//!
//! # Identical sequences
//!
//! Every row carries a `fingerprint`: a 128-bit hash of G(0), ..., G(max - 1)
//! (values beyond the table of a proven code come from its period, so every
//! row describes the same range whatever its proof needed). Rows with equal
//! fingerprints are grouped through `same_as`, which names the first code of
//! the group in census order. Within one process the sequences themselves are
//! compared as well, so a hash collision would be reported, not believed. A
//! rerun groups the rows it resumes by their fingerprints alone, since their
//! sequences are not computed again. So `same_as` means "identical on heaps
//! 0..max": for two proven codes that is identity for all heaps (the smallest
//! preperiod and period and the values before them are then equal too).

use crate::clock::Instant;
use crate::error::{Error, Result};
use crate::family::{HeapFamily, LongRun, Settings};
use crate::games::octal::TakeBreakGame;
use crate::games::subtraction::Subtraction;
use crate::heap::rare::{Marks, TakeBreak, Values};
use crate::heap::HeapGame;
use crate::period::{rare_class, Periodicity};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// The most digits of an octal census (8^7 - 1 codes).
pub const MAX_OCTAL_DIGITS: usize = 7;
/// The most digits of a hexadecimal census (16^5 - 1 codes).
pub const MAX_HEX_DIGITS: usize = 5;
/// The largest K of a subtraction census (2^20 - 1 sets).
pub const MAX_SUB_TAKE: usize = 20;

/// Heaps a [`pilot`] tabulates: enough to prove most periods, cheap even
/// for codes whose values are never sparse (a quarter of it for codes with
/// three-heap moves, whose cost per heap is quadratic).
pub const PILOT_HEAPS: u64 = 4096;

/// Which games a census covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Octal codes `0.d1...dk`, k <= digits.
    Octal {
        /// The most digits after the point.
        digits: usize,
    },
    /// Hexadecimal codes `hex:0.d1...dk`, k <= digits.
    Hex {
        /// The most digits after the point.
        digits: usize,
    },
    /// Subtraction games `sub:S`, S a non-empty subset of 1..=max_take.
    Sub {
        /// The largest number a set may hold.
        max_take: usize,
    },
}

/// What a census computes: its games and how far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// The games.
    pub scope: Scope,
    /// Each game is tabulated to at most this many heaps.
    pub max: u64,
}

impl Params {
    /// Checks the sizes: at least one digit (or one take), not so many
    /// codes that the census could not be listed.
    pub fn new(scope: Scope, max: u64) -> Result<Self> {
        let (size, limit, what) = match scope {
            Scope::Octal { digits } => (digits, MAX_OCTAL_DIGITS, "--digits"),
            Scope::Hex { digits } => (digits, MAX_HEX_DIGITS, "--digits"),
            Scope::Sub { max_take } => (max_take, MAX_SUB_TAKE, "--max-take"),
        };
        if size == 0 || size > limit {
            return Err(Error::invalid(format!(
                "{what} must be between 1 and {limit} for this census (it has {} codes at {limit})",
                count_of(scope, limit)
            )));
        }
        if max < 2 {
            return Err(Error::invalid("--max must be at least 2 heaps"));
        }
        Ok(Params { scope, max })
    }

    /// The command that makes this census, as its files record it:
    /// `grundy census octal --digits 2 --max 131072`.
    pub fn command(&self) -> String {
        let scope = match self.scope {
            Scope::Octal { digits } => format!("octal --digits {digits}"),
            Scope::Hex { digits } => format!("hex --digits {digits}"),
            Scope::Sub { max_take } => format!("sub --max-take {max_take}"),
        };
        format!("grundy census {scope} --max {}", self.max)
    }

    /// The family's name and size: ("octal", 2), ("sub", 8).
    pub fn family(&self) -> (&'static str, usize) {
        match self.scope {
            Scope::Octal { digits } => ("octal", digits),
            Scope::Hex { digits } => ("hex", digits),
            Scope::Sub { max_take } => ("sub", max_take),
        }
    }

    /// Params from a family's name and size (the inverse of [`Params::family`]).
    pub fn from_family(family: &str, size: usize, max: u64) -> Result<Self> {
        let scope = match family {
            "octal" => Scope::Octal { digits: size },
            "hex" => Scope::Hex { digits: size },
            "sub" => Scope::Sub { max_take: size },
            other => {
                return Err(Error::invalid(format!(
                    "no census of {other:?}: the families are octal, hex and sub"
                )))
            }
        };
        Params::new(scope, max)
    }
}

fn count_of(scope: Scope, size: usize) -> u64 {
    match scope {
        Scope::Octal { .. } => 8u64.pow(size as u32) - 1,
        Scope::Hex { .. } => 16u64.pow(size as u32) - 1,
        Scope::Sub { .. } => (1u64 << size) - 1,
    }
}

/// One game of a census.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The canonical spec, as `grundy period` echoes it: `0.07`,
    /// `hex:0.F8`, `sub:1-3,5`.
    pub code: String,
    /// The code as take-and-break digits, `digits[0]` before the point (a
    /// subtraction set S has digit 3 at every s in S).
    pub digits: Vec<u8>,
    /// Hexadecimal digits allowed (three-way splits).
    pub hexadecimal: bool,
    /// The subtraction set, for `sub:` members (computed as a subtraction
    /// game, whose periods are proven by a shorter window).
    pub set: Option<Vec<u64>>,
    /// The digits with every provably redundant move removed ([`reduce`]):
    /// members with equal reduced digits are the same game.
    pub reduced: Vec<u8>,
}

impl Member {
    /// The member a code names: an octal code (`0.07`), `hex:0.F8` or
    /// `sub:1-3,5`, written as a census writes them or any way `grundy`
    /// reads them.
    pub fn from_code(code: &str) -> Result<Member> {
        if let Some(text) = code.strip_prefix("sub:") {
            let mut set = Vec::new();
            for item in text.split(',') {
                let number = |t: &str| {
                    t.parse::<u64>()
                        .ok()
                        .filter(|n| (1..=64).contains(n))
                        .ok_or_else(|| {
                            Error::invalid(format!(
                                "{code} is not a census code: subtraction sets hold numbers 1..64"
                            ))
                        })
                };
                match item.split_once('-') {
                    Some((a, b)) => set.extend(number(a)?..=number(b)?),
                    None => set.push(number(item)?),
                }
            }
            return Ok(sub_member(set));
        }
        let (text, hexadecimal) = match code.strip_prefix("hex:") {
            Some(text) => (text, true),
            None => (code.strip_prefix("octal:").unwrap_or(code), false),
        };
        let game = TakeBreakGame::parse(text, hexadecimal, code, 0)?;
        if game.rules().digits()[0] != 0 {
            return Err(Error::invalid(format!(
                "{code} is not a census code: censuses list codes 0.d1d2..."
            )));
        }
        Ok(code_member(game.rules().digits(), hexadecimal))
    }

    /// The game, ready to tabulate.
    fn game(&self) -> Game {
        match &self.set {
            Some(set) => Game::Sub(Subtraction::new(set.clone())),
            None => Game::TakeBreak(
                TakeBreakGame::from_digits(&self.digits, self.hexadecimal)
                    .expect("census digits are valid"),
            ),
        }
    }
}

enum Game {
    TakeBreak(TakeBreakGame),
    Sub(Subtraction),
}

fn code_member(digits: &[u8], hexadecimal: bool) -> Member {
    let game = TakeBreakGame::from_digits(digits, hexadecimal).expect("valid digits");
    let digits = game.rules().digits().to_vec();
    Member {
        code: game.spec(),
        reduced: reduce(&digits),
        digits,
        hexadecimal,
        set: None,
    }
}

fn sub_member(mut set: Vec<u64>) -> Member {
    set.sort_unstable();
    set.dedup();
    let top = *set.last().expect("a non-empty set") as usize;
    let mut digits = vec![0u8; top + 1];
    for s in &set {
        digits[*s as usize] = 3;
    }
    Member {
        code: format!("sub:{}", crate::spec::format_number_list(&set)),
        reduced: reduce(&digits),
        digits,
        hexadecimal: false,
        set: Some(set),
    }
}

/// Every game of a census, in census order, each once.
///
/// Codes are listed by their digits padded to the census's length, so
/// `0.1` (which is `0.10`: trailing zeros change nothing) comes between
/// `0.07` and `0.11`; the code `0.0`, which has no move, is left out.
/// Subtraction sets are listed by the binary number whose bit s - 1 says
/// whether s is in the set: `sub:1`, `sub:2`, `sub:1,2`, `sub:3`, ...
pub fn members(scope: Scope) -> Vec<Member> {
    match scope {
        Scope::Octal { digits } | Scope::Hex { digits } => {
            let hexadecimal = matches!(scope, Scope::Hex { .. });
            let radix: u64 = if hexadecimal { 16 } else { 8 };
            (1..radix.pow(digits as u32))
                .map(|x| {
                    let mut code = vec![0u8; digits + 1];
                    let mut rest = x;
                    for place in (1..=digits).rev() {
                        code[place] = (rest % radix) as u8;
                        rest /= radix;
                    }
                    code_member(&code, hexadecimal)
                })
                .collect()
        }
        Scope::Sub { max_take } => (1u64..1 << max_take)
            .map(|mask| {
                sub_member(
                    (1..=max_take as u64)
                        .filter(|s| mask >> (s - 1) & 1 == 1)
                        .collect(),
                )
            })
            .collect(),
    }
}

/// G(0), ..., G(last) of a code by the definition (small heaps only).
fn small_values(digits: &[u8], last: usize) -> Vec<u32> {
    let rules = TakeBreak::new(digits).expect("valid digits");
    let mut marks = Marks::default();
    let mut values: Vec<u32> = Vec::with_capacity(last + 1);
    for n in 0..=last {
        let v = rules.plain_value(n, &values, &mut marks);
        values.push(v);
    }
    values
}

/// The code with every move removed that provably changes no value: two
/// codes with the same reduced digits have identical Grundy sequences.
///
/// A move is redundant when every heap it applies to has another option of
/// the same value, so the mex, and with it every later value, is unchanged.
/// Three cases are recognised, one bit at a time, each checked against the
/// code as it stands (so two bits never justify each other's removal):
///
/// - bit 1 of digit k (take k, leave nothing) applies to heap k alone: it is
///   redundant exactly when G(k) is the same without it (another option of
///   heap k has value 0). Example: `0.61` is `0.6`.
/// - bit 2 of digit k (take k, leave one heap m >= 1) is redundant when some
///   digit j < k allows leaving two heaps and G(k - j) = 0: taking j and
///   leaving (k - j, m) has value G(m) too. Example: `0.062` is `0.06`,
///   since G(1) = 0.
/// - bit 4 of digit k (leave two heaps a, b) is redundant, by the same
///   argument, when a digit j < k allows leaving three heaps and G(k - j) = 0.
///
/// Trailing zero digits are dropped as always. Codes can be the same game
/// for other reasons too; those the census finds by comparing sequences.
pub fn reduce(digits: &[u8]) -> Vec<u8> {
    let mut code = digits.to_vec();
    'again: loop {
        while code.len() > 1 && code.last() == Some(&0) {
            code.pop();
        }
        let last = code.len() - 1;
        let values = small_values(&code, last);
        for k in 1..=last {
            for bit in [1u8, 2, 4] {
                if code[k] & bit == 0 {
                    continue;
                }
                let redundant = match bit {
                    1 => {
                        let mut without = code.clone();
                        without[k] &= !1;
                        small_values(&without, k)[k] == values[k]
                    }
                    _ => {
                        let wider = bit << 1;
                        (0..k).any(|j| code[j] & wider != 0 && values[k - j] == 0)
                    }
                };
                if redundant {
                    code[k] &= !bit;
                    continue 'again;
                }
            }
        }
        return code;
    }
}

/// A finished row of a census.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The game's canonical spec.
    pub code: String,
    /// The preperiod found (proven, or only observed), if any.
    pub preperiod: Option<u64>,
    /// The period found, if any.
    pub period: Option<u64>,
    /// The saltus of that period.
    pub saltus: Option<u64>,
    /// Whether a theorem proves the period for every heap.
    pub proven: bool,
    /// Heaps tabulated: G(0), ..., G(computed_to - 1).
    pub computed_to: u64,
    /// The largest value tabulated.
    pub max_value: u64,
    /// The mask of the sparse parity class of the tabulated values
    /// ([`rare_class`]), when there is one.
    pub rare_mask: Option<u32>,
    /// How many tabulated values are in that class.
    pub rare_count: Option<u64>,
    /// The first code of the census with the identical sequence.
    pub same_as: Option<String>,
    /// Seconds this code took (0 for a copy of a trivially equivalent code).
    pub seconds: f64,
    /// 128-bit hash of G(0..max), hexadecimal.
    pub fingerprint: String,
}

/// Columns of a census file, in order.
pub const COLUMNS: [&str; 12] = [
    "code",
    "preperiod",
    "period",
    "saltus",
    "proven",
    "computed_to",
    "max_value",
    "rare_mask",
    "rare_count",
    "same_as",
    "seconds",
    "fingerprint",
];

/// A game's values on heaps 0..max, as a computation leaves them.
#[derive(Debug, Clone)]
pub enum Sequence {
    /// Proven: the values from the periodicity.
    Periodic(Periodicity),
    /// Not proven: the table.
    Table(Values),
}

impl Sequence {
    /// G(n), for n below the census's max.
    pub fn value(&self, n: u64) -> u64 {
        match self {
            Sequence::Periodic(p) => p.value_u64(n),
            Sequence::Table(values) => values.get(n as usize) as u64,
        }
    }
}

/// A row with the sequence it describes (for comparisons in this process).
#[derive(Debug, Clone)]
pub struct Computed {
    /// The row.
    pub row: Row,
    /// The values, if still at hand.
    pub sequence: Option<Sequence>,
}

/// Two independent polynomial hashes modulo the Mersenne prime 2^61 - 1:
/// for two different sequences of length n, a collision of one lane needs
/// the base to be a root of a non-zero polynomial of degree below n.
struct Fingerprint {
    lanes: [u64; 2],
    count: u64,
}

const MERSENNE: u64 = (1 << 61) - 1;
const BASES: [u64; 2] = [
    0x1d3f_84a5_b7c9_2e61 % MERSENNE,
    0x0bd1_e995_5bd1_e995 % MERSENNE,
];

impl Fingerprint {
    fn new() -> Self {
        Fingerprint {
            lanes: [0; 2],
            count: 0,
        }
    }

    #[inline]
    fn push(&mut self, value: u64) {
        for (lane, base) in self.lanes.iter_mut().zip(BASES) {
            let product = (*lane as u128 * base as u128 + value as u128 + 1) % MERSENNE as u128;
            *lane = product as u64;
        }
        self.count += 1;
    }

    fn finish(&self) -> String {
        format!("{:016x}{:016x}", self.lanes[0], self.lanes[1] ^ self.count)
    }
}

/// Computes one row: tabulates until the period is proven or `max` heaps,
/// as `grundy period CODE --max MAX` does. `interrupted` stops it (with
/// [`Error::Interrupted`]); `progress` hears (heaps done, heaps wanted).
pub fn compute(
    member: &Member,
    max: u64,
    interrupted: Arc<AtomicBool>,
    progress: Box<dyn FnMut(u64, u64)>,
) -> Result<Computed> {
    compute_capped(member, max, max, interrupted, progress)
}

/// [`compute`], tabulating at most `cap` heaps, the fingerprint covering
/// `max` (a proven period gives the values beyond the table).
fn compute_capped(
    member: &Member,
    cap: u64,
    max: u64,
    interrupted: Arc<AtomicBool>,
    progress: Box<dyn FnMut(u64, u64)>,
) -> Result<Computed> {
    let started = Instant::now();
    match member.game() {
        Game::TakeBreak(game) => {
            compute_with(member, game, cap, max, interrupted, progress, started)
        }
        Game::Sub(game) => compute_with(member, game, cap, max, interrupted, progress, started),
    }
}

fn compute_with<H: HeapGame>(
    member: &Member,
    game: H,
    cap: u64,
    max: u64,
    interrupted: Arc<AtomicBool>,
    progress: Box<dyn FnMut(u64, u64)>,
    started: Instant,
) -> Result<Computed> {
    let settings = Settings {
        max_states: usize::try_from(cap.saturating_add(1)).unwrap_or(usize::MAX),
        ..Settings::default()
    };
    let mut family = HeapFamily::new(member.code.clone(), game, settings);
    use crate::family::Family;
    family.configure_long_run(LongRun {
        progress,
        interrupted,
        checkpoint: None,
        checkpoint_every: std::time::Duration::from_secs(3600),
    });
    let report = family.find_period(cap)?;
    let table = family.table();
    let computed_to = table.len() as u64;
    let values = table.compact();
    let mut widened = Vec::with_capacity(values.len());
    let mut max_value = 0;
    let mut print = Fingerprint::new();
    for n in 0..values.len() {
        let v = values.get(n);
        max_value = max_value.max(v);
        widened.push(v);
        if (n as u64) < max {
            print.push(v as u64);
        }
    }
    // An observed (unproven) period is reported too, as `grundy period` does.
    let found = report
        .periodicity
        .as_ref()
        .map(|p| (p.preperiod, p.period, p.saltus));
    let periodicity = report.periodicity.filter(|_| report.proven);
    if let Some(p) = &periodicity {
        for n in computed_to..max {
            print.push(p.value_u64(n));
        }
    }
    let rare = rare_class(&widened);
    let row = Row {
        code: member.code.clone(),
        preperiod: found.map(|f| f.0),
        period: found.map(|f| f.1),
        saltus: found.map(|f| f.2),
        proven: report.proven,
        computed_to,
        max_value: max_value as u64,
        rare_mask: rare.map(|r| r.mask),
        rare_count: rare.map(|r| r.count),
        same_as: None,
        seconds: started.elapsed().as_secs_f64(),
        fingerprint: print.finish(),
    };
    let sequence = match periodicity {
        Some(p) => Sequence::Periodic(p),
        None => Sequence::Table(values),
    };
    Ok(Computed {
        row,
        sequence: Some(sequence),
    })
}

/// What a [`pilot`] learned.
#[derive(Debug)]
pub enum Pilot {
    /// The code is finished: this is its row.
    Done(Box<Computed>),
    /// The code needs the full run, which should cost about this much
    /// (in heap-option steps, comparable between codes).
    Estimate(f64),
}

/// Runs a code to [`PILOT_HEAPS`] heaps: a period proven there is its row
/// (exactly what the full run would find: the table lengths tried are the
/// same below the pilot's cap); otherwise the cost of the full run is
/// estimated from how sparse the values are and how many digits split (the
/// rare-value engine costs about one step per rare heap per heap and digit,
/// the plain one half a step per heap per heap and digit).
pub fn pilot(member: &Member, max: u64, interrupted: Arc<AtomicBool>) -> Result<Pilot> {
    // Three-heap moves cost a square of options a heap (no rare-value
    // method applies to them): their pilots are shorter.
    let triples = member.digits.iter().filter(|d| *d & 8 != 0).count();
    let cap = if triples > 0 {
        PILOT_HEAPS / 4
    } else {
        PILOT_HEAPS
    }
    .min(max);
    let computed = compute_capped(member, cap, max, interrupted, Box::new(|_, _| {}))?;
    let row = &computed.row;
    if row.proven && (row.computed_to < cap || cap == max) {
        return Ok(Pilot::Done(Box::new(computed)));
    }
    let heaps = max as f64;
    let splits = member.digits.iter().filter(|d| *d & 4 != 0).count();
    let estimate = if triples > 0 {
        heaps * heaps * heaps / 12.0 * triples as f64
    } else if splits == 0 {
        heaps * member.digits.len() as f64
    } else {
        let rare = row.rare_count.map_or(0.5, |count| {
            (count as f64 / row.computed_to.max(1) as f64).max(1.0 / heaps)
        });
        // Each digit that splits adds its own pass over the partners.
        let passes = splits as f64 * if row.rare_count.is_some() { 1.0 } else { 2.0 };
        heaps * (heaps * rare).max(1.0) * passes
    };
    Ok(Pilot::Estimate(estimate))
}

/// The format of a census file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values, with a `#` line recording the parameters.
    Csv,
    /// One JSON object a line, the first recording the parameters.
    Jsonl,
    /// A Markdown table, for people (never resumed).
    Markdown,
}

impl Format {
    /// The format a file name asks for: `.csv` or `.jsonl`.
    pub fn of_path(path: &Path) -> Result<Format> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("csv") => Ok(Format::Csv),
            Some("jsonl") => Ok(Format::Jsonl),
            _ => Err(Error::invalid(format!(
                "{}: a census file ends in .csv or .jsonl (without --out the table is printed as Markdown)",
                path.display()
            ))),
        }
    }
}

/// The lines that open a census file.
pub fn header(format: Format, params: &Params) -> String {
    match format {
        Format::Csv => format!("# {}\n{}\n", params.command(), COLUMNS.join(",")),
        Format::Jsonl => {
            let (family, size) = params.family();
            let size_key = if family == "sub" {
                "max_take"
            } else {
                "digits"
            };
            format!(
                "{{\"census\":{},\"family\":\"{family}\",\"{size_key}\":{size},\"max\":{}}}\n",
                serde_json::Value::from(params.command()),
                params.max
            )
        }
        Format::Markdown => {
            let columns = &COLUMNS[..COLUMNS.len() - 1];
            format!(
                "| {} |\n|{}\n",
                columns.join(" | "),
                "---|".repeat(columns.len())
            )
        }
    }
}

fn opt<T: ToString>(value: &Option<T>) -> String {
    value.as_ref().map_or(String::new(), T::to_string)
}

fn json_opt<T: Into<serde_json::Value> + Clone>(value: &Option<T>) -> String {
    value
        .clone()
        .map_or(serde_json::Value::Null, Into::into)
        .to_string()
}

/// A row as one line of `format`, newline included.
pub fn format_row(format: Format, row: &Row) -> String {
    let seconds = format!("{:.3}", row.seconds);
    match format {
        Format::Csv => {
            let quote = |text: &str| {
                if text.contains([',', '"']) {
                    format!("\"{}\"", text.replace('"', "\"\""))
                } else {
                    text.to_string()
                }
            };
            format!(
                "{},{},{},{},{},{},{},{},{},{},{},{}\n",
                quote(&row.code),
                opt(&row.preperiod),
                opt(&row.period),
                opt(&row.saltus),
                row.proven,
                row.computed_to,
                row.max_value,
                opt(&row.rare_mask),
                opt(&row.rare_count),
                quote(row.same_as.as_deref().unwrap_or("")),
                seconds,
                row.fingerprint
            )
        }
        Format::Jsonl => format!(
            "{{\"code\":{},\"preperiod\":{},\"period\":{},\"saltus\":{},\"proven\":{},\"computed_to\":{},\"max_value\":{},\"rare_mask\":{},\"rare_count\":{},\"same_as\":{},\"seconds\":{},\"fingerprint\":\"{}\"}}\n",
            serde_json::Value::from(row.code.as_str()),
            json_opt(&row.preperiod),
            json_opt(&row.period),
            json_opt(&row.saltus),
            row.proven,
            row.computed_to,
            row.max_value,
            json_opt(&row.rare_mask),
            json_opt(&row.rare_count),
            json_opt(&row.same_as),
            seconds,
            row.fingerprint
        ),
        Format::Markdown => format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            row.code,
            opt(&row.preperiod),
            opt(&row.period),
            opt(&row.saltus),
            if row.proven { "yes" } else { "no" },
            row.computed_to,
            row.max_value,
            opt(&row.rare_mask),
            opt(&row.rare_count),
            row.same_as.as_deref().unwrap_or(""),
            seconds
        ),
    }
}

/// Splits a CSV line into fields (quotes as [`format_row`] writes them).
fn csv_fields(line: &str) -> Option<Vec<String>> {
    let mut fields = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut field = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next()? {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    '"' => break,
                    c => field.push(c),
                }
            }
            match chars.next() {
                None => {
                    fields.push(field);
                    return Some(fields);
                }
                Some(',') => {}
                Some(_) => return None,
            }
        } else {
            loop {
                match chars.next() {
                    None => {
                        fields.push(field);
                        return Some(fields);
                    }
                    Some(',') => break,
                    Some(c) => field.push(c),
                }
            }
        }
        fields.push(field);
    }
}

/// Reads a row written by [`format_row`]; `None` if it is not one.
pub fn parse_row(format: Format, line: &str) -> Option<Row> {
    fn number<T: std::str::FromStr>(text: &str) -> Option<Option<T>> {
        if text.is_empty() {
            Some(None)
        } else {
            text.parse().ok().map(Some)
        }
    }
    let row = match format {
        Format::Csv => {
            let f = csv_fields(line)?;
            if f.len() != COLUMNS.len() {
                return None;
            }
            Row {
                code: f[0].clone(),
                preperiod: number(&f[1])?,
                period: number(&f[2])?,
                saltus: number(&f[3])?,
                proven: f[4].parse().ok()?,
                computed_to: f[5].parse().ok()?,
                max_value: f[6].parse().ok()?,
                rare_mask: number(&f[7])?,
                rare_count: number(&f[8])?,
                same_as: Some(f[9].clone()).filter(|s| !s.is_empty()),
                seconds: f[10].parse().ok()?,
                fingerprint: f[11].clone(),
            }
        }
        Format::Jsonl => {
            let value: serde_json::Value = serde_json::from_str(line).ok()?;
            let object = value.as_object()?;
            if object.len() != COLUMNS.len() || COLUMNS.iter().any(|c| !object.contains_key(*c)) {
                return None;
            }
            let u = |key: &str| -> Option<Option<u64>> {
                match &object[key] {
                    serde_json::Value::Null => Some(None),
                    v => v.as_u64().map(Some),
                }
            };
            Row {
                code: object["code"].as_str()?.to_string(),
                preperiod: u("preperiod")?,
                period: u("period")?,
                saltus: u("saltus")?,
                proven: object["proven"].as_bool()?,
                computed_to: object["computed_to"].as_u64()?,
                max_value: object["max_value"].as_u64()?,
                rare_mask: match u("rare_mask")? {
                    Some(m) => Some(u32::try_from(m).ok()?),
                    None => None,
                },
                rare_count: u("rare_count")?,
                same_as: match &object["same_as"] {
                    serde_json::Value::Null => None,
                    v => Some(v.as_str()?.to_string()),
                },
                seconds: object["seconds"].as_f64()?,
                fingerprint: object["fingerprint"].as_str()?.to_string(),
            }
        }
        Format::Markdown => return None,
    };
    let hex = row.fingerprint.len() == 32 && row.fingerprint.bytes().all(|b| b.is_ascii_hexdigit());
    hex.then_some(row)
}

/// The state of a census: its members, the rows finished, the file they
/// are kept in (if any), and the groups of identical sequences.
pub struct Log {
    params: Params,
    members: Vec<Member>,
    index: HashMap<String, usize>,
    /// For each member, the first member with the same reduced code.
    representative: Vec<usize>,
    rows: Vec<Option<Row>>,
    /// Fingerprint -> the finished member of lowest index with it.
    first_with: HashMap<String, usize>,
    /// Sequences at hand, by member, for the first finished of each fingerprint.
    sequences: HashMap<usize, Sequence>,
    file: Option<(PathBuf, Format)>,
    /// Seconds written as 0 (for byte-for-byte comparisons of runs).
    zero_seconds: bool,
    /// What opening the file noticed (a torn last line dropped).
    pub notes: Vec<String>,
}

impl Log {
    /// A census kept in memory only (printed as Markdown at the end).
    pub fn in_memory(params: Params) -> Log {
        let members = members(params.scope);
        let mut first_reduced: HashMap<Vec<u8>, usize> = HashMap::new();
        let representative = members
            .iter()
            .enumerate()
            .map(|(i, m)| *first_reduced.entry(m.reduced.clone()).or_insert(i))
            .collect();
        let index = members
            .iter()
            .enumerate()
            .map(|(i, m)| (m.code.clone(), i))
            .collect();
        Log {
            params,
            rows: vec![None; members.len()],
            members,
            index,
            representative,
            first_with: HashMap::new(),
            sequences: HashMap::new(),
            file: None,
            zero_seconds: false,
            notes: Vec::new(),
        }
    }

    /// The census kept in `path` (CSV or JSON lines by its extension):
    /// created with its header if missing or empty, else resumed: its rows
    /// are kept, after checking that it is a census file of these very
    /// parameters and that every line is a whole row of one of its codes.
    /// A last line cut short (a write interrupted by a crash) is dropped.
    pub fn open(params: Params, path: &Path) -> Result<Log> {
        let format = Format::of_path(path)?;
        // A census file is read back and appended to: only a regular file
        // will do, and a symbolic link is followed to it.
        let target = crate::files::target(path, crate::files::Allow::RegularOnly)?;
        let path = target.path();
        let mut log = Log::in_memory(params);
        let head = header(format, &params);
        let io = |e: std::io::Error| Error::Io(format!("{}: {e}", path.display()));
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8(bytes).map_err(|_| {
                Error::invalid(format!(
                    "{} is not a census file (it is not text); give another --out",
                    path.display()
                ))
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(e)),
        };
        if text.is_empty() {
            crate::files::write(path, head.as_bytes(), crate::files::Allow::RegularOnly)?;
            log.file = Some((path.to_path_buf(), format));
            return Ok(log);
        }
        let mut body = text.as_str();
        if !body.ends_with('\n') {
            let cut = body.rfind('\n').map_or(0, |i| i + 1);
            log.notes.push(format!(
                "{}: its last line was cut short (an interrupted write) and is dropped; that code is computed again",
                path.display()
            ));
            body = &body[..cut];
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(io)?;
            file.set_len(cut as u64).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        let Some(rows) = body.strip_prefix(head.as_str()) else {
            let first = body.lines().next().unwrap_or("");
            let recorded = match format {
                Format::Csv => first.strip_prefix("# ").map(str::to_string),
                _ => serde_json::from_str::<serde_json::Value>(first)
                    .ok()
                    .and_then(|v| v.get("census")?.as_str().map(str::to_string)),
            };
            return Err(Error::invalid(match recorded {
                Some(command) if command.starts_with("grundy census") => format!(
                    "{} holds the census `{command}`, not `{}`: give another --out, or the same parameters to resume it",
                    path.display(),
                    params.command()
                ),
                _ => format!(
                    "{} is not a census file of grundy (its first lines are not a census header); give another --out",
                    path.display()
                ),
            }));
        };
        let header_lines = head.lines().count();
        for (number, line) in rows.lines().enumerate() {
            let line_number = number + header_lines + 1;
            let damaged = |why: &str| {
                Error::invalid(format!(
                    "{} is damaged at line {line_number} ({why}); delete that line to compute its code again, or give another --out",
                    path.display()
                ))
            };
            let row = parse_row(format, line).ok_or_else(|| damaged("not a census row"))?;
            let Some(&i) = log.index.get(&row.code) else {
                return Err(damaged(&format!(
                    "{} is not a code of this census",
                    row.code
                )));
            };
            if log.rows[i].is_some() {
                return Err(damaged(&format!("a second row for {}", row.code)));
            }
            log.note_fingerprint(i, &row.fingerprint);
            log.rows[i] = Some(row);
        }
        log.file = Some((path.to_path_buf(), format));
        // Codes whose representative was finished but which were not written yet.
        let copies: Vec<usize> = (0..log.members.len())
            .filter(|&i| log.rows[i].is_none() && log.rows[log.representative[i]].is_some())
            .collect();
        for i in copies {
            let row = log.copy_of(i);
            log.append(i, row)?;
        }
        Ok(log)
    }

    /// Writes seconds as 0, so that two runs give byte-identical files.
    pub fn zero_seconds(&mut self) {
        self.zero_seconds = true;
    }

    /// The census's parameters.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Every member, in census order.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// How many rows are finished.
    pub fn done(&self) -> usize {
        self.rows.iter().filter(|r| r.is_some()).count()
    }

    /// The members that still need computing, in census order: those
    /// without a row that are not trivially another member's game.
    pub fn to_compute(&self) -> Vec<usize> {
        (0..self.members.len())
            .filter(|&i| self.rows[i].is_none() && self.representative[i] == i)
            .collect()
    }

    /// The member a code names in this census.
    pub fn position(&self, code: &str) -> Option<usize> {
        self.index.get(code).copied()
    }

    /// How many members share member `i`'s game trivially (itself included).
    pub fn weight(&self, i: usize) -> usize {
        self.representative.iter().filter(|&&r| r == i).count()
    }

    fn note_fingerprint(&mut self, i: usize, fingerprint: &str) {
        let first = self.first_with.entry(fingerprint.to_string()).or_insert(i);
        if i < *first {
            *first = i;
        }
    }

    /// The row of member `i`, copied from its representative's.
    fn copy_of(&self, i: usize) -> Row {
        let mut row = self.rows[self.representative[i]]
            .clone()
            .expect("representative finished");
        row.code = self.members[i].code.clone();
        row.seconds = 0.0;
        row
    }

    fn append(&mut self, i: usize, mut row: Row) -> Result<Row> {
        let first = *self.first_with.get(&row.fingerprint).unwrap_or(&i);
        row.same_as = (first < i).then(|| self.members[first].code.clone());
        self.note_fingerprint(i, &row.fingerprint.clone());
        if self.zero_seconds {
            row.seconds = 0.0;
        }
        if let Some((path, format)) = &self.file {
            append_line(path, format_row(*format, &row).as_bytes())?;
        }
        self.rows[i] = Some(row.clone());
        Ok(row)
    }

    /// Records a finished code: its row (and a row for every code that is
    /// trivially the same game) is appended to the file and fsynced before
    /// this returns. Returns the rows written. When the sequence is at hand
    /// and another one with the same fingerprint is too, they are compared.
    pub fn record(&mut self, code: &str, computed: Computed) -> Result<Vec<Row>> {
        let i = self.position(code).ok_or_else(|| {
            Error::invalid(format!(
                "{code} is not a code of `{}`",
                self.params.command()
            ))
        })?;
        if self.rows[i].is_some() {
            return Ok(vec![]);
        }
        let Computed { mut row, sequence } = computed;
        row.code = self.members[i].code.clone();
        if let Some(sequence) = sequence {
            match self.first_with.get(&row.fingerprint) {
                Some(&first) => {
                    if let Some(known) = self.sequences.get(&first) {
                        if let Some(n) =
                            (0..self.params.max).find(|&n| known.value(n) != sequence.value(n))
                        {
                            return Err(Error::invalid(format!(
                                "{} and {} differ at heap {n} but share a fingerprint: a hash collision (please report it)",
                                self.members[first].code, row.code
                            )));
                        }
                    }
                }
                None => {
                    self.sequences.insert(i, sequence);
                }
            }
        }
        let mut written = vec![self.append(i, row)?];
        let copies: Vec<usize> = (i + 1..self.members.len())
            .filter(|&j| self.representative[j] == i && self.rows[j].is_none())
            .collect();
        for j in copies {
            let row = self.copy_of(j);
            written.push(self.append(j, row)?);
        }
        Ok(written)
    }

    /// Every finished row in census order, `same_as` naming the first code of
    /// each group of equal fingerprints.
    pub fn rows(&self) -> Vec<Row> {
        let mut first: HashMap<&str, usize> = HashMap::new();
        for (i, row) in self.rows.iter().enumerate() {
            if let Some(row) = row {
                first.entry(row.fingerprint.as_str()).or_insert(i);
            }
        }
        self.rows
            .iter()
            .enumerate()
            .filter_map(|(i, row)| {
                let mut row = row.clone()?;
                let f = first[row.fingerprint.as_str()];
                row.same_as = (f < i).then(|| self.members[f].code.clone());
                Some(row)
            })
            .collect()
    }

    /// The whole census as text in `format`: header and rows in census order.
    pub fn render(&self, format: Format) -> String {
        let mut text = header(format, &self.params);
        for row in self.rows() {
            text.push_str(&format_row(format, &row));
        }
        text
    }

    /// Once every code is done: rewrites the file in census order with the
    /// final `same_as` (a temporary file renamed over it, so a crash leaves
    /// the old file or the new one). Does nothing while codes remain.
    pub fn finish(&mut self) -> Result<bool> {
        if self.done() < self.members.len() {
            return Ok(false);
        }
        if let Some((path, format)) = &self.file {
            let text = self.render(*format);
            crate::files::write(path, text.as_bytes(), crate::files::Allow::RegularOnly)?;
        }
        Ok(true)
    }
}

/// Appends one line in a single write (O_APPEND) and waits until it is on disk.
fn append_line(path: &Path, line: &[u8]) -> Result<()> {
    let io = |e: std::io::Error| Error::Io(format!("cannot append to {}: {e}", path.display()));
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(io)?;
    file.write_all(line).map_err(io)?;
    file.sync_data().map_err(io)
}

/// What [`run`] reports as it goes.
#[derive(Debug, Clone)]
pub struct Status {
    /// Rows finished (trivial copies included).
    pub done: usize,
    /// Rows in the census.
    pub total: usize,
    /// Estimated work done and in all (arbitrary units; for an ETA).
    pub work_done: f64,
    /// Estimated work in all.
    pub work_total: f64,
    /// Codes being computed now, with (heaps done, heaps wanted).
    pub running: Vec<(String, u64, u64)>,
}

enum Task {
    Pilot(usize),
    Full(usize),
}

enum Message {
    Started(usize),
    Progress(usize, u64, u64),
    Pilot(usize, Result<Pilot>),
    Full(usize, Result<Computed>),
}

struct Queue {
    /// Full runs, by estimated cost: (cost, member).
    full: Vec<(f64, usize)>,
    pilots: std::collections::VecDeque<usize>,
    /// Pilots handed out and not yet answered.
    pilots_out: usize,
    closed: bool,
}

/// Computes every code the log still needs, `jobs` at a time, recording
/// each row as it finishes. Every code is first piloted ([`pilot`]), which
/// finishes the easy ones; the others run longest first by the pilot's
/// estimate, so that one hard code does not finish last alone. `status` is
/// called at every change. When `interrupted` is set, the codes being
/// computed stop, every finished row is already in the file, and this
/// returns [`Error::Interrupted`].
pub fn run(
    log: &mut Log,
    jobs: usize,
    interrupted: &Arc<AtomicBool>,
    status: &mut dyn FnMut(&Status),
) -> Result<()> {
    let max = log.params.max;
    let todo = log.to_compute();
    let unit = PILOT_HEAPS.min(max) as f64 * PILOT_HEAPS.min(max) as f64;
    let mut costs: HashMap<usize, f64> = todo.iter().map(|&i| (i, unit)).collect();
    let mut shown = Status {
        done: log.done(),
        total: log.members.len(),
        work_done: 0.0,
        work_total: unit * todo.len() as f64,
        running: Vec::new(),
    };
    status(&shown);
    if todo.is_empty() {
        log.finish()?;
        return Ok(());
    }
    let queue = Mutex::new(Queue {
        full: Vec::new(),
        pilots: todo.iter().copied().collect(),
        pilots_out: 0,
        closed: false,
    });
    let ready = Condvar::new();
    let (sender, receiver) = std::sync::mpsc::channel::<Message>();
    let members = log.members.clone();
    let mut failure: Option<Error> = None;
    let mut progress: HashMap<usize, (u64, u64)> = HashMap::new();
    // Work of the finished codes; running ones add their share (the heaps
    // done squared, as for the costly codes, whose work is quadratic).
    let mut finished_work = 0.0;
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let sender = sender.clone();
            let (queue, ready, members) = (&queue, &ready, &members);
            let interrupted = interrupted.clone();
            scope.spawn(move || loop {
                let task = {
                    let mut q = queue.lock().expect("queue");
                    loop {
                        if q.closed || interrupted.load(Ordering::Relaxed) {
                            return;
                        }
                        if let Some(i) = q.pilots.pop_front() {
                            q.pilots_out += 1;
                            break Task::Pilot(i);
                        }
                        if let Some((_, i)) = q.full.pop() {
                            break Task::Full(i);
                        }
                        if q.pilots_out == 0 {
                            return;
                        }
                        q = ready.wait(q).expect("queue");
                    }
                };
                match task {
                    Task::Pilot(i) => {
                        let _ = sender.send(Message::Started(i));
                        let answer = pilot(&members[i], max, interrupted.clone());
                        let _ = sender.send(Message::Pilot(i, answer));
                    }
                    Task::Full(i) => {
                        let _ = sender.send(Message::Started(i));
                        let reporter = sender.clone();
                        let answer = compute(
                            &members[i],
                            max,
                            interrupted.clone(),
                            Box::new(move |done, total| {
                                let _ = reporter.send(Message::Progress(i, done, total));
                            }),
                        );
                        let _ = sender.send(Message::Full(i, answer));
                    }
                }
            });
        }
        drop(sender);
        let mut running: Vec<usize> = Vec::new();
        for message in receiver.iter() {
            let mut finished: Option<(usize, Result<Computed>)> = None;
            match message {
                Message::Started(i) => running.push(i),
                Message::Progress(i, done, total) => {
                    progress.insert(i, (done, total));
                }
                Message::Pilot(i, answer) => {
                    running.retain(|&r| r != i);
                    let mut q = queue.lock().expect("queue");
                    q.pilots_out -= 1;
                    match answer {
                        Ok(Pilot::Done(computed)) => finished = Some((i, Ok(*computed))),
                        Ok(Pilot::Estimate(cost)) => {
                            finished_work += unit;
                            shown.work_total += cost;
                            costs.insert(i, cost);
                            q.full.push((cost, i));
                            // Cheapest first in the vector: pop takes the costliest.
                            q.full
                                .sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
                        }
                        Err(e) => finished = Some((i, Err(e))),
                    }
                    drop(q);
                    ready.notify_all();
                }
                Message::Full(i, answer) => {
                    running.retain(|&r| r != i);
                    progress.remove(&i);
                    finished = Some((i, answer));
                }
            }
            if let Some((i, answer)) = finished {
                match answer {
                    Ok(computed) => {
                        finished_work += costs.get(&i).copied().unwrap_or(unit);
                        let code = members[i].code.clone();
                        if let Err(e) = log.record(&code, computed) {
                            failure.get_or_insert(e);
                        }
                    }
                    Err(Error::Interrupted(_)) => {}
                    Err(e) => {
                        failure.get_or_insert(Error::invalid(format!("{}: {e}", members[i].code)));
                    }
                }
                if failure.is_some() {
                    interrupted.store(true, Ordering::Relaxed);
                    queue.lock().expect("queue").closed = true;
                    ready.notify_all();
                }
            }
            shown.done = log.done();
            shown.work_done = finished_work
                + running
                    .iter()
                    .filter_map(|i| {
                        let (done, _) = progress.get(i)?;
                        let share = (*done as f64 / max as f64).min(1.0);
                        Some(costs.get(i)? * share * share)
                    })
                    .sum::<f64>();
            shown.running = running
                .iter()
                .map(|&i| {
                    let (done, total) = progress.get(&i).copied().unwrap_or((0, 0));
                    (members[i].code.clone(), done, total)
                })
                .collect();
            status(&shown);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if log.finish()? {
        return Ok(());
    }
    Err(Error::Interrupted(format!(
        "interrupted with {} of {} codes done",
        log.done(),
        log.members.len()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_listed_once_in_padded_order() {
        let list = members(Scope::Octal { digits: 2 });
        assert_eq!(list.len(), 63);
        let codes: Vec<&str> = list.iter().map(|m| m.code.as_str()).collect();
        assert_eq!(
            &codes[..9],
            ["0.01", "0.02", "0.03", "0.04", "0.05", "0.06", "0.07", "0.1", "0.11"]
        );
        let distinct: std::collections::HashSet<&str> = codes.iter().copied().collect();
        assert_eq!(distinct.len(), 63);
        assert_eq!(members(Scope::Hex { digits: 1 }).len(), 15);
        let subs = members(Scope::Sub { max_take: 3 });
        let codes: Vec<&str> = subs.iter().map(|m| m.code.as_str()).collect();
        assert_eq!(
            codes,
            ["sub:1", "sub:2", "sub:1,2", "sub:3", "sub:1,3", "sub:2,3", "sub:1-3"]
        );
        for m in members(Scope::Octal { digits: 2 })
            .into_iter()
            .chain(subs)
            .chain(members(Scope::Hex { digits: 1 }))
        {
            assert_eq!(Member::from_code(&m.code).unwrap(), m, "{}", m.code);
        }
    }

    #[test]
    fn reductions_by_hand() {
        // 0.61 is 0.6: heap 2 already has an option of value 0.
        assert_eq!(reduce(&[0, 6, 1]), vec![0, 6]);
        // 0.062 is 0.06: taking 3 to leave m is taking 2 to leave (1, m), G(1) = 0.
        assert_eq!(reduce(&[0, 0, 6, 2]), vec![0, 0, 6]);
        // 0.07 and 0.77 keep every move.
        assert_eq!(reduce(&[0, 0, 7]), vec![0, 0, 7]);
        assert_eq!(reduce(&[0, 7, 7]), vec![0, 7, 7]);
        assert_eq!(reduce(&[0, 4, 0, 0]), vec![0, 4]);
    }

    /// Every reduction keeps the sequence: checked on every 2-digit code and
    /// every hex code of one digit, and on random 3-digit codes.
    #[test]
    fn reduced_codes_have_identical_sequences() {
        let mut pool = members(Scope::Octal { digits: 2 });
        pool.extend(members(Scope::Hex { digits: 2 }));
        pool.extend(members(Scope::Sub { max_take: 5 }));
        pool.extend(members(Scope::Octal { digits: 3 }).into_iter().step_by(7));
        for m in pool {
            assert_eq!(
                small_values(&m.digits, 300),
                small_values(&m.reduced, 300),
                "{} reduced to {:?}",
                m.code,
                m.reduced
            );
        }
    }

    #[test]
    fn rows_round_trip_through_every_file_format() {
        let row = Row {
            code: "sub:1,2".into(),
            preperiod: Some(0),
            period: Some(3),
            saltus: Some(0),
            proven: true,
            computed_to: 1024,
            max_value: 2,
            rare_mask: None,
            rare_count: Some(7),
            same_as: Some("0.33".into()),
            seconds: 0.25,
            fingerprint: "0123456789abcdef0123456789abcdef".into(),
        };
        for format in [Format::Csv, Format::Jsonl] {
            let line = format_row(format, &row);
            assert!(line.ends_with('\n') && line.matches('\n').count() == 1);
            assert_eq!(
                parse_row(format, line.trim_end()),
                Some(row.clone()),
                "{line}"
            );
            assert_eq!(parse_row(format, &line[..line.len() / 2]), None);
        }
        assert!(format_row(Format::Markdown, &row).starts_with("| sub:1,2 | 0 | 3 |"));
    }

    fn quiet() -> Box<dyn FnMut(u64, u64)> {
        Box::new(|_, _| {})
    }

    #[test]
    fn a_row_is_what_grundy_period_reports() {
        let flag = Arc::new(AtomicBool::new(false));
        for code in ["0.07", "0.137", "0.6", "sub:2,5,7", "hex:0.F"] {
            let member = Member::from_code(code).unwrap();
            let computed = compute(&member, 1 << 12, flag.clone(), quiet()).unwrap();
            let mut family = crate::spec::parse_game(
                code,
                Settings {
                    max_states: 1 << 13,
                    ..Settings::default()
                },
            )
            .unwrap();
            let report = family.period(1 << 12).unwrap();
            let row = &computed.row;
            assert_eq!(row.proven, report.proven, "{code}");
            let p = report.periodicity;
            assert_eq!(row.preperiod, p.as_ref().map(|p| p.preperiod), "{code}");
            assert_eq!(row.period, p.as_ref().map(|p| p.period), "{code}");
            assert_eq!(row.computed_to, report.checked_to + 1, "{code}");
        }
    }
}
