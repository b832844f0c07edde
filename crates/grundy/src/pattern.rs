//! Patterns in tables of values: "code it for small limits and see if there
//! is a pattern", done by the machine, and the pattern handed back as code.
//!
//! A game's values are tabulated on small positions (heaps `0..N`, or the
//! table of a board game) and the simplest description that fits every
//! value tabulated is looked for, among a small set of forms:
//!
//! - **periodic** (1-D): G(n + p) = G(n) + s for n >= e (over at least the
//!   last three quarters of the table, so that the long runs of divide
//!   games are not taken for a period), with `s = 0`
//!   preferred (then the smallest `p`, then the smallest `e`); `s > 0` is
//!   *arithmetic-periodic*. `n mod k` patterns are the case `e = 0`;
//! - **runs** (1-D): the values go 0, 1, 2, ... (each one more than the
//!   last) on consecutive runs of heaps whose lengths grow linearly,
//!   `a k + b` for the k-th run, as "the largest k with k(k+1)/2 <= n";
//! - **periodic-2d**: G(r + p_r, c) = G(r, c) for r >= r0 and every c, and
//!   G(r, c + p_c) = G(r, c) for c >= c0 and every r, so that any position
//!   reduces into the table of rows `< r0 + p_r` and columns `< c0 + p_c`.
//!
//! A form is accepted only when the table shows it at least three times,
//! over at least the last three quarters of the table (1-D periods, and
//! the rows and columns of a 2-D table), so that a constant stretch at the
//! end of a table is not taken for a pattern. A table that holds every
//! position of its game (a bounded board) claims nothing beyond itself, so
//! there one and a half times in each direction is enough: the pattern is
//! only a shorter way to write the table.
//! *Proven* comes only from a theorem: a period that [`crate::period`] proves
//! (the Guy-Smith theorem for take-and-break codes, the window of a finite
//! subtraction set, a closed form), and the outcome pattern that follows from
//! a proven period. Everything else is *observed* up to the table's end, and
//! said so.

use crate::error::{Error, Result};
use crate::family::Family;

/// A pattern found in a table of values (or of outcomes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    /// The game's spec.
    pub game: String,
    /// Whether the pattern is of outcomes (1: the player to move wins; 0: a
    /// P-position) rather than of values.
    pub outcome: bool,
    /// The form found.
    pub kind: Kind,
    /// Whether a theorem makes the pattern hold for every position.
    pub proven: bool,
    /// How it is known, in words.
    pub method: String,
    /// The largest position tabulated: `[N]` (heaps `0..=N`) or `[R, C]`
    /// (rows `0..=R`, columns `0..=C`).
    pub checked_to: Vec<u64>,
}

/// The forms a pattern takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// G(n) = block[(n - e) mod p] + saltus * floor((n - e) / p) for n >= e;
    /// `prefix` holds G(0), ..., G(e - 1).
    Periodic {
        /// The first heap of the pattern, e.
        preperiod: u64,
        /// The period, p.
        period: u64,
        /// What a period adds (0: periodic; more: arithmetic-periodic).
        saltus: u64,
        /// G(0), ..., G(e - 1).
        prefix: Vec<u64>,
        /// G(e), ..., G(e + p - 1).
        block: Vec<u64>,
    },
    /// From heap `start` on, the value is `first + k` on the k-th run of
    /// heaps, whose length is `step * k + length` (k = 0, 1, ...).
    Runs {
        /// The first heap of the first run.
        start: u64,
        /// The value on the first run.
        first: u64,
        /// The length of the first run.
        length: u64,
        /// How much longer each run is than the one before.
        step: u64,
        /// G(0), ..., G(start - 1).
        prefix: Vec<u64>,
    },
    /// G(r, c) = `table[r' - origin[0]][c' - origin[1]]` with r' = r below
    /// `offset[0]`, else `offset[0] + (r - offset[0]) mod period[0]`, and c'
    /// likewise.
    Periodic2d {
        /// The position (r, c) of the table's first row and column.
        origin: [u64; 2],
        /// r0 and c0, as positions.
        offset: [u64; 2],
        /// p_r and p_c.
        period: [u64; 2],
        /// The values of rows `0..r0 + p_r` and columns `0..c0 + p_c`.
        table: Vec<Vec<u64>>,
        /// Whether the tabulated table is symmetric (G(r, c) = G(c, r)).
        symmetric: bool,
        /// Positions next to the far edges of a bounded board that play
        /// differently, as (r, c, value): the pattern holds on the rest.
        exceptions: Vec<[u64; 3]>,
    },
    /// Each row of the table has a 1-D pattern of its own along the columns:
    /// G(r, c) = `rows[r - origin[0]]` at column `c - origin[1]`, each a
    /// [`Kind::Periodic`]. Rows beyond the table are not covered.
    PeriodicRows {
        /// The position (r, c) of the table's first row and column.
        origin: [u64; 2],
        /// One [`Kind::Periodic`] per row.
        rows: Vec<Kind>,
        /// Per row, how a theorem makes its pattern hold for every column
        /// (the row is a heap game with a proven period); `None`: observed
        /// on the table only.
        proven: Vec<Option<String>>,
    },
    /// No form fits every value tabulated.
    None,
}

impl Kind {
    /// The name `--json` and the text output use.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Periodic { saltus: 0, .. } => "periodic",
            Kind::Periodic { .. } => "arithmetic-periodic",
            Kind::Runs { .. } => "runs",
            Kind::Periodic2d { .. } => "periodic-2d",
            Kind::PeriodicRows { .. } => "periodic-rows",
            Kind::None => "none",
        }
    }

    /// The value at heap `n` under a 1-D pattern (None for 2-D and none).
    pub fn value(&self, n: u64) -> Option<u64> {
        match self {
            Kind::Periodic {
                preperiod,
                period,
                saltus,
                prefix,
                block,
            } => Some(if n < *preperiod {
                prefix[n as usize]
            } else {
                let k = n - preperiod;
                block[(k % period) as usize] + saltus * (k / period)
            }),
            Kind::Runs {
                start,
                first,
                length,
                step,
                prefix,
            } => Some(if n < *start {
                prefix[n as usize]
            } else {
                let (mut k, mut at) = (0u64, *start);
                loop {
                    let next = at + length + step * k;
                    if n < next {
                        break first + k;
                    }
                    at = next;
                    k += 1;
                }
            }),
            _ => None,
        }
    }

    /// The value at `(r, c)` under a 2-D pattern (None outside it).
    pub fn value_2d(&self, r: u64, c: u64) -> Option<u64> {
        if let Kind::PeriodicRows { origin, rows, .. } = self {
            let row = rows.get(usize::try_from(r.checked_sub(origin[0])?).ok()?)?;
            return row.value(c.checked_sub(origin[1])?);
        }
        let Kind::Periodic2d {
            origin,
            offset,
            period,
            table,
            exceptions,
            ..
        } = self
        else {
            return None;
        };
        if r < origin[0] || c < origin[1] {
            return None;
        }
        if let Some([_, _, v]) = exceptions.iter().find(|[er, ec, _]| (*er, *ec) == (r, c)) {
            return Some(*v);
        }
        let reduce = |x: u64, i: usize| {
            if x < offset[i] {
                x
            } else {
                offset[i] + (x - offset[i]) % period[i]
            }
        };
        let (r, c) = (reduce(r, 0) - origin[0], reduce(c, 1) - origin[1]);
        Some(table[r as usize][c as usize])
    }
}

impl Pattern {
    /// `grundy pattern --json`: `game`, `kind`, `outcome`, `proven`,
    /// `method`, `checked_to`, and the fields of the kind.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let mut object = json!({
            "game": self.game,
            "kind": self.kind.name(),
            "outcome": self.outcome,
            "proven": self.proven,
            "method": self.method,
            "checked_to": match self.checked_to.as_slice() {
                [n] => json!(n),
                rc => json!(rc),
            },
        });
        let fields = match &self.kind {
            Kind::Periodic { .. } => periodic_json(&self.kind),
            Kind::PeriodicRows {
                origin,
                rows,
                proven,
            } => json!({
                "origin": origin,
                "rows": rows.iter().zip(proven).map(|(row, how)| {
                    let mut row = periodic_json(row);
                    row["proven"] = json!(how.is_some());
                    row["method"] = json!(how);
                    row
                }).collect::<Vec<_>>(),
            }),
            Kind::Runs {
                start,
                first,
                length,
                step,
                prefix,
            } => json!({
                "start": start, "first": first, "length": length, "step": step,
                "prefix": prefix,
            }),
            Kind::Periodic2d {
                origin,
                offset,
                period,
                table,
                symmetric,
                exceptions,
            } => json!({
                "origin": origin, "offset": offset, "period": period, "block": table,
                "symmetric": symmetric, "exceptions": exceptions,
            }),
            Kind::None => json!({}),
        };
        if let (Some(object), serde_json::Value::Object(fields)) = (object.as_object_mut(), fields)
        {
            object.extend(fields);
        }
        object
    }

    /// The text of `grundy pattern`: what was found, how it is known, and
    /// the values that make it up (outcomes as P and N).
    pub fn to_text(&self) -> String {
        const SHOWN: usize = 200;
        let show = |values: &[u64]| {
            let mut words: Vec<String> = values
                .iter()
                .take(SHOWN)
                .map(|v| match (self.outcome, v) {
                    (true, 0) => "P".to_string(),
                    (true, _) => "N".to_string(),
                    (false, v) => v.to_string(),
                })
                .collect();
            if values.len() > SHOWN {
                words.push(format!(
                    "... ({} values; --json lists them all)",
                    values.len()
                ));
            }
            words.join(" ")
        };
        let title = format!(
            "{}{}",
            self.game,
            if self.outcome { " (outcome)" } else { "" }
        );
        let mut lines = Vec::new();
        match &self.kind {
            Kind::Periodic {
                preperiod,
                period,
                saltus,
                prefix,
                block,
            } => {
                let saltus = if *saltus > 0 {
                    format!(", saltus {saltus}")
                } else {
                    String::new()
                };
                lines.push(format!(
                    "{title}: {}, preperiod {preperiod}, period {period}{saltus}",
                    self.kind.name()
                ));
                lines.push(self.method.clone());
                if !prefix.is_empty() {
                    lines.push(format!("before the period: {}", show(prefix)));
                }
                lines.push(format!("periodic block: {}", show(block)));
            }
            Kind::Runs {
                start,
                first,
                length,
                step,
                prefix,
            } => {
                lines.push(format!(
                    "{title}: runs from heap {start}: {first} + k on the k-th run of heaps, of length {length} + {step} k"
                ));
                lines.push(self.method.clone());
                if !prefix.is_empty() {
                    lines.push(format!("before the runs: {}", show(prefix)));
                }
            }
            Kind::Periodic2d {
                origin,
                offset,
                period,
                table,
                symmetric,
                exceptions,
            } => {
                lines.push(format!(
                    "{title}: periodic-2d, rows repeat every {} from row {}, columns every {} from column {}{}",
                    period[0],
                    offset[0],
                    period[1],
                    offset[1],
                    if *symmetric { "; the table is symmetric" } else { "" }
                ));
                lines.push(self.method.clone());
                if !exceptions.is_empty() {
                    let listed: Vec<String> = exceptions
                        .iter()
                        .map(|[r, c, v]| format!("{r},{c} ({})", show(&[*v])))
                        .collect();
                    lines.push(format!(
                        "except next to the board's far edge: {}",
                        listed.join(", ")
                    ));
                }
                lines.push(format!(
                    "rows {} to {} and columns {} to {}, which every other position reduces to:",
                    origin[0],
                    origin[0] + table.len() as u64 - 1,
                    origin[1],
                    origin[1] + table[0].len() as u64 - 1
                ));
                // A block is shown up to 40 x 40; --json has all of it.
                const SIDE: usize = 40;
                for row in table.iter().take(SIDE) {
                    let mut line = show(&row[..row.len().min(SIDE)]);
                    if row.len() > SIDE {
                        line.push_str(" ...");
                    }
                    lines.push(line);
                }
                if table.len() > SIDE || table[0].len() > SIDE {
                    lines.push(format!(
                        "(the first {SIDE} rows and columns of {} x {}; --json lists them all)",
                        table.len(),
                        table[0].len()
                    ));
                }
            }
            Kind::PeriodicRows {
                origin,
                rows,
                proven,
            } => {
                lines.push(format!(
                    "{title}: periodic-rows, each of rows {} to {} is periodic along its columns (from column {})",
                    origin[0],
                    origin[0] + rows.len() as u64 - 1,
                    origin[1]
                ));
                lines.push(self.method.clone());
                for (r, row) in rows.iter().enumerate().take(SHOWN) {
                    let Kind::Periodic {
                        preperiod,
                        period,
                        saltus,
                        prefix,
                        block,
                    } = row
                    else {
                        unreachable!("periodic rows")
                    };
                    let saltus = if *saltus > 0 {
                        format!(", saltus {saltus}")
                    } else {
                        String::new()
                    };
                    let prefix = if prefix.is_empty() {
                        String::new()
                    } else {
                        format!("{} | ", show(prefix))
                    };
                    lines.push(format!(
                        "row {}{}: period {period} from column {}{saltus}: {prefix}{}",
                        origin[0] + r as u64,
                        if proven[r].is_some() { " (proven)" } else { "" },
                        origin[1] + preperiod,
                        show(block)
                    ));
                }
            }
            Kind::None => {
                lines.push(format!("{title}: no pattern"));
                lines.push(self.method.clone());
                lines.push(self.next_steps());
            }
        }
        lines.join("\n") + "\n"
    }
}

impl Pattern {
    /// What to try when no pattern fits: who wins (for heap games whose
    /// values were looked at; a board's finder tries it already), the
    /// table itself, or a split into independent parts.
    fn next_steps(&self) -> String {
        let board = self.checked_to.len() == 2;
        let outcome = if self.outcome || board {
            ""
        } else {
            "look for a pattern in who wins (--outcome); "
        };
        let table = if board { "grundy table" } else { "grundy seq" };
        format!(
            "next: {outcome}compute the values in your program with a memoised mex, or print them (`{table}`) into it; or split the game into independent parts and XOR their values"
        )
    }
}

/// The fields of a [`Kind::Periodic`] in `--json`.
fn periodic_json(kind: &Kind) -> serde_json::Value {
    let Kind::Periodic {
        preperiod,
        period,
        saltus,
        prefix,
        block,
    } = kind
    else {
        unreachable!("a periodic kind")
    };
    serde_json::json!({
        "preperiod": preperiod, "period": period, "saltus": saltus,
        "prefix": prefix, "block": block,
    })
}

/// Finds the pattern of `family`'s values (or outcomes): heaps `0..=max` for
/// heap games, the family's table for board games.
///
/// When a board's values have no pattern but who wins has one (the
/// knight's values are not doubly periodic, its P-positions are), that
/// pattern is returned, with `outcome` set and the method saying so.
pub fn find(family: &mut dyn Family, max: u64, outcome: bool) -> Result<Pattern> {
    let found = find_of(family, max, outcome)?;
    let board = found.checked_to.len() == 2;
    if outcome || !board || found.kind != Kind::None {
        return Ok(found);
    }
    let mut wins = find_of(family, max, true)?;
    if wins.kind == Kind::None {
        return Ok(found);
    }
    wins.method = format!(
        "the values have none ({}); who wins does, {}",
        found.method, wins.method
    );
    Ok(wins)
}

fn find_of(family: &mut dyn Family, max: u64, outcome: bool) -> Result<Pattern> {
    let game = family.spec();
    // A table, where the family has one (boards, and scripts that define
    // `fn table()` even when their positions could be heaps); else heaps.
    let table = match family.table() {
        Ok(table) => Some(table),
        Err(_) if family.is_heap_game() => None,
        Err(e) => return Err(e),
    };
    let Some(table) = table else {
        // A period a theorem proves comes first.
        if let Ok(report) = family.period(max + 1) {
            if report.proven {
                if let Some(p) = report.periodicity {
                    return Ok(proven_1d(game, outcome, p, report.method, max));
                }
            }
        }
        let mut values = Vec::with_capacity(max as usize + 1);
        family.sequence(0, max, &mut |_, v| {
            values.push(v);
            Ok(())
        })?;
        let values = if outcome { outcomes(&values) } else { values };
        let kind = find_1d(&values);
        return Ok(observed(game, outcome, kind, vec![max]));
    };
    let mut rows = Vec::with_capacity(table.len());
    for row in &table {
        let row: Option<Vec<u64>> = row.iter().map(|v| v.as_u64()).collect();
        rows.push(row.ok_or_else(|| {
            Error::invalid(format!(
                "{game}: some positions have no nimber (draws or immediate wins), so there is no table of values to find a pattern in"
            ))
        })?);
    }
    if outcome {
        rows = rows.iter().map(|r| outcomes(r)).collect();
    }
    let columns = rows.first().map_or(0, Vec::len);
    if rows.is_empty() || columns == 0 || rows.iter().any(|r| r.len() != columns) {
        return Err(Error::invalid(format!(
            "{game}: the table is not a rectangle of values"
        )));
    }
    let origin = family.table_origin();
    let checked_to = vec![
        origin[0] + rows.len() as u64 - 1,
        origin[1] + columns as u64 - 1,
    ];
    let known = row_games(family, &rows, origin, outcome);
    let mut kind = find_2d(&rows, family.table_is_whole_game());
    if known.iter().any(Option::is_some) && !agrees_with_rows(&kind, &known) {
        kind = find_rows_with(&rows, &known);
    }
    if let Kind::PeriodicRows { origin: o, .. } = &mut kind {
        *o = origin;
    }
    if let Kind::Periodic2d {
        origin: o,
        offset,
        exceptions,
        ..
    } = &mut kind
    {
        *o = origin;
        *offset = [offset[0] + origin[0], offset[1] + origin[1]];
        for [r, c, _] in exceptions.iter_mut() {
            *r += origin[0];
            *c += origin[1];
        }
    }
    let mut found = observed(game, outcome, kind, checked_to);
    if let Kind::PeriodicRows { origin, proven, .. } = &found.kind {
        let how: Vec<String> = proven
            .iter()
            .enumerate()
            .filter_map(|(r, how)| {
                how.as_ref().map(|how| {
                    format!("row {} holds for every column, {how}", origin[0] + r as u64)
                })
            })
            .collect();
        if proven.iter().all(Option::is_some) {
            found.proven = true;
            found.method = how.join("; ");
        } else if !how.is_empty() {
            found.method = format!("{}, except that {}", found.method, how.join("; "));
        }
    }
    if family.table_is_whole_game() && found.kind != Kind::None {
        found.proven = true;
        found.method = "checked on every square of the board, which is the whole game".to_string();
    }
    Ok(found)
}

/// The most heaps `grundy pattern` tabulates (`--max`): about 16.7 million,
/// a minute's work and half a gigabyte for a take-and-break code.
pub const MAX_HEAP: u64 = (1 << 24) - 1;

/// Finds the pattern of a game written as in `grundy pattern`: one game, or
/// the sum of two heap games `A + B` (positions `r,c`: a heap of A and a
/// heap of B), each component read by `parse`.
///
/// A sum's value is the XOR of its parts' values (Sprague-Grundy), so its
/// rows repeat exactly when its first part's values do, and its columns
/// when the second's do: a sum's pattern is made of its parts' periods.
/// It is proven when both parts' periods are (with saltus 0), and observed
/// up to heap `max` of each part when one of them is only observed.
pub fn find_game(
    spec: &str,
    parse: &mut dyn FnMut(&str) -> Result<Box<dyn Family>>,
    max: u64,
    outcome: bool,
) -> Result<Pattern> {
    if max > MAX_HEAP {
        return Err(Error::TooLarge(format!(
            "heaps up to {max}: a pattern is looked for in heaps up to {MAX_HEAP} at most"
        )));
    }
    let words: Vec<&str> = spec.split_whitespace().collect();
    let parts: Vec<String> = words.split(|w| *w == "+").map(|p| p.join(" ")).collect();
    match parts.as_slice() {
        [one] if !one.is_empty() => find(parse(one)?.as_mut(), max, outcome),
        [a, b] if !a.is_empty() && !b.is_empty() => {
            find_sum(parse(a)?.as_mut(), parse(b)?.as_mut(), max, outcome)
        }
        _ => Err(Error::invalid(format!(
            "`{spec}`: a pattern is of one game, or of a sum of two heap games written `A + B` (like sub:1,2 + sub:1,3)"
        ))),
    }
}

/// The largest table a sum's pattern is given in, in cells.
const MAX_SUM_CELLS: u64 = 1 << 20;

/// What is known of the values of one part of a sum.
enum Part {
    /// Every heap's, from a period a theorem proves (saltus 0), and how.
    Proven(crate::period::Periodicity, String),
    /// Heaps `0..=max` only.
    Observed(Vec<u64>),
}

impl Part {
    fn of(family: &mut dyn Family, max: u64) -> Result<Part> {
        if let Ok(report) = family.period(max + 1) {
            if let (true, Some(p)) = (report.proven, report.periodicity) {
                if p.saltus == 0 {
                    return Ok(Part::Proven(p, report.method));
                }
            }
        }
        let mut values = Vec::with_capacity(max as usize + 1);
        family.sequence(0, max, &mut |_, v| {
            values.push(v);
            Ok(())
        })?;
        Ok(Part::Observed(values))
    }

    /// The value of heap `n`: any heap when proven, else a tabulated one.
    fn value(&self, n: u64) -> u64 {
        match self {
            Part::Proven(p, _) => p.value_u64(n),
            Part::Observed(values) => values[n as usize],
        }
    }

    /// Every value the part takes (on the heaps tabulated, when observed).
    fn taken(&self) -> std::collections::HashSet<u64> {
        match self {
            Part::Proven(p, _) => p.prefix.iter().chain(&p.block).map(|v| *v as u64).collect(),
            Part::Observed(values) => values.iter().copied().collect(),
        }
    }

    /// The least (preperiod, period) of `key` along this part's heaps: the
    /// least that the proven period allows, or the least the tabulated
    /// heaps show as a 1-D period must be shown (three times, over the last
    /// three quarters of them).
    fn period_of(&self, key: impl Fn(u64) -> u64) -> Option<(u64, u64)> {
        match self {
            Part::Proven(p, _) => Some(least_of(p.preperiod, p.period, key)),
            Part::Observed(values) => {
                let n = values.len();
                let repeats = |m: usize, q: usize| key(m as u64) == key((m + q) as u64);
                least_period(n, n / 3, repeats, |e, q| seen_enough(n, e, q))
                    .map(|(e, q)| (e as u64, q as u64))
            }
        }
    }
}

fn find_sum(a: &mut dyn Family, b: &mut dyn Family, max: u64, outcome: bool) -> Result<Pattern> {
    let game = format!("{} + {}", a.spec(), b.spec());
    for part in [&*a, &*b] {
        if !part.is_heap_game() {
            return Err(Error::invalid(format!(
                "{game}: the parts of a sum must be heap games, and {} is not",
                part.spec()
            )));
        }
    }
    let (pa, pb) = (Part::of(a, max)?, Part::of(b, max)?);
    let (va, vb) = (pa.taken(), pb.taken());
    // Rows r and r' are equal exactly when these keys are: the value of A
    // (values), or that value when B takes it at all (outcomes: a sum is a
    // P-position exactly when its parts' values are equal).
    let key = |part: &Part, other: &std::collections::HashSet<u64>, n: u64| {
        let v = part.value(n);
        if !outcome || other.contains(&v) {
            v
        } else {
            u64::MAX
        }
    };
    let ra = pa.period_of(|n| key(&pa, &vb, n));
    let rb = pb.period_of(|n| key(&pb, &va, n));
    let reach = |part: &Part, period: Option<(u64, u64)>| match (part, period) {
        (Part::Proven(..), Some((e, p))) => max.max(e + p),
        _ => max,
    };
    let checked_to = vec![reach(&pa, ra), reach(&pb, rb)];
    let (Some(ra), Some(rb)) = (ra, rb) else {
        let (along, spec) = if ra.is_none() {
            ("row", a.spec())
        } else {
            ("column", b.spec())
        };
        let mut found = observed(game, outcome, Kind::None, checked_to);
        found.method = format!(
            "{}: its {along}s repeat with no period up to {along} {max} (those of {spec})",
            found.method
        );
        return Ok(found);
    };
    let (rows, cols) = (ra.0 + ra.1, rb.0 + rb.1);
    if rows.saturating_mul(cols) > MAX_SUM_CELLS {
        return Err(Error::TooLarge(format!(
            "{game}: the pattern's table would have {rows} x {cols} cells (more than {MAX_SUM_CELLS}); the value of a position is the XOR of `grundy pattern {}` and `grundy pattern {}`",
            a.spec(),
            b.spec()
        )));
    }
    let value = |r: u64, c: u64| {
        let (x, y) = (pa.value(r), pb.value(c));
        if outcome {
            (x != y) as u64
        } else {
            x ^ y
        }
    };
    let table: Vec<Vec<u64>> = (0..rows)
        .map(|r| (0..cols).map(|c| value(r, c)).collect())
        .collect();
    let symmetric = is_symmetric(&table);
    let how = |part: &Part, spec: String| match part {
        Part::Proven(_, method) => format!("{spec}: {method}"),
        Part::Observed(_) => {
            format!("{spec}: observed for every heap up to {max}; no theorem proves it")
        }
    };
    let proven = matches!((&pa, &pb), (Part::Proven(..), Part::Proven(..)));
    let method = format!(
        "{} (Sprague-Grundy), and {}: {}; {}",
        if outcome {
            "a sum is a P-position exactly when its parts' values are equal"
        } else {
            "a sum's value is the XOR of its parts' values"
        },
        if proven {
            "both parts' periods are proven"
        } else {
            "the parts' periods are not both proven"
        },
        how(&pa, a.spec()),
        how(&pb, b.spec()),
    );
    Ok(Pattern {
        game,
        outcome,
        kind: Kind::Periodic2d {
            origin: [0, 0],
            offset: [ra.0, rb.0],
            period: [ra.1, rb.1],
            table,
            symmetric,
            exceptions: Vec::new(),
        },
        proven,
        method,
        checked_to,
    })
}

/// The least (preperiod, period) of `f` over heaps, given that it repeats
/// with period `q` from `e` on: its least period divides `q`, and its least
/// preperiod is at most `e`.
fn least_of(e: u64, q: u64, f: impl Fn(u64) -> u64) -> (u64, u64) {
    let period = (1..=q)
        .filter(|d| q.is_multiple_of(*d))
        .find(|d| (e..e + q).all(|n| f(n) == f(n + d)))
        .expect("the period itself");
    let mut start = e;
    while start > 0 && f(start - 1) == f(start - 1 + period) {
        start -= 1;
    }
    (start, period)
}

fn outcomes(values: &[u64]) -> Vec<u64> {
    values.iter().map(|v| (*v != 0) as u64).collect()
}

fn observed(game: String, outcome: bool, kind: Kind, checked_to: Vec<u64>) -> Pattern {
    let reach = match checked_to.as_slice() {
        [n] => format!("every heap up to {n}"),
        [r, c] => format!("every position up to row {r} and column {c}"),
        _ => unreachable!("one or two coordinates"),
    };
    let method = match kind {
        Kind::None => format!("no pattern fits {reach}"),
        _ => format!("observed for {reach}; no theorem proves it"),
    };
    Pattern {
        game,
        outcome,
        kind,
        proven: false,
        method,
        checked_to,
    }
}

/// The pattern a proven periodicity gives, of values or of outcomes.
fn proven_1d(
    game: String,
    outcome: bool,
    p: crate::period::Periodicity,
    method: String,
    max: u64,
) -> Pattern {
    let checked_to = vec![max.max(p.preperiod + p.period)];
    Pattern {
        game,
        outcome,
        kind: proven_kind(&p, outcome, 0),
        proven: true,
        method: if outcome {
            format!("follows from the values' period, {method}")
        } else {
            method
        },
        checked_to,
    }
}

/// The 1-D pattern of values (or outcomes) that a proven periodicity gives
/// to heaps `shift`, `shift + 1`, ..., counted from 0 (a board's row that
/// starts at heap `shift`).
fn proven_kind(p: &crate::period::Periodicity, outcome: bool, shift: u64) -> Kind {
    let values = |n: u64| p.value_u64(n + shift);
    if !outcome && shift == 0 {
        Kind::Periodic {
            preperiod: p.preperiod,
            period: p.period,
            saltus: p.saltus,
            prefix: p.prefix.iter().map(|v| *v as u64).collect(),
            block: p.block.iter().map(|v| *v as u64).collect(),
        }
    } else if !outcome {
        // From heap e on, heap n + p is heap n plus the saltus, so the same
        // holds from e - shift on when counting from heap `shift`.
        let e = p.preperiod.saturating_sub(shift);
        Kind::Periodic {
            preperiod: e,
            period: p.period,
            saltus: p.saltus,
            prefix: (0..e).map(values).collect(),
            block: (e..e + p.period).map(values).collect(),
        }
    } else if p.saltus > 0 {
        // Values grow by the saltus every period: from e + p on, none is 0
        // (block values are at least 0 and the saltus is added).
        let e = (p.preperiod + p.period).saturating_sub(shift);
        let win = |n: u64| (values(n) != 0) as u64;
        let mut start = e;
        while start > 0 && win(start - 1) == 1 {
            start -= 1;
        }
        Kind::Periodic {
            preperiod: start,
            period: 1,
            saltus: 0,
            prefix: (0..start).map(win).collect(),
            block: vec![1],
        }
    } else {
        // The outcomes repeat with the values' period; their least period
        // divides it, and their least preperiod is at most the values'.
        let win = |n: u64| (values(n) != 0) as u64;
        let (start, period) = least_of(p.preperiod.saturating_sub(shift), p.period, win);
        Kind::Periodic {
            preperiod: start,
            period,
            saltus: 0,
            prefix: (0..start).map(win).collect(),
            block: (start..start + period).map(win).collect(),
        }
    }
}

/// Per row of a board's table (values or outcomes), its proven pattern
/// along the columns and how it is known, where the family says the row is
/// a heap game whose period [`crate::period`] proves. A row whose proven
/// pattern would disagree with the table is left observed.
fn row_games(
    family: &dyn Family,
    rows: &[Vec<u64>],
    origin: [u64; 2],
    outcome: bool,
) -> Vec<Option<(Kind, String)>> {
    rows.iter()
        .enumerate()
        .map(|(r, row)| {
            let game = family.table_row_game(origin[0] + r as u64)?;
            let mut heaps = crate::spec::parse_game(&game.spec, Default::default()).ok()?;
            let report = heaps.period(heaps.default_period_max()).ok()?;
            let p = report.periodicity.filter(|_| report.proven)?;
            let kind = proven_kind(&p, outcome, game.first_heap);
            let fits = row
                .iter()
                .enumerate()
                .all(|(c, v)| kind.value(c as u64) == Some(*v));
            let how = format!(
                "{}: {}{}",
                game.why,
                if outcome {
                    "who wins follows from the values' period, "
                } else {
                    ""
                },
                report.method
            );
            fits.then_some((kind, how))
        })
        .collect()
}

/// Whether a 2-D pattern gives every proven row its proven values at every
/// column (not only at those tabulated).
fn agrees_with_rows(kind: &Kind, known: &[Option<(Kind, String)>]) -> bool {
    let Kind::Periodic2d {
        offset,
        period,
        origin,
        ..
    } = kind
    else {
        return false;
    };
    // Both repeat along the columns from some column on: checking one
    // common period past both starts checks every column.
    known.iter().enumerate().all(|(r, row)| {
        let Some((
            row @ Kind::Periodic {
                preperiod,
                period: p,
                saltus: 0,
                ..
            },
            _,
        )) = row
        else {
            return row.is_none();
        };
        let common = period[1] / gcd(period[1], *p) * p;
        let end = (*preperiod).max(offset[1] - origin[1]) + common;
        common <= 1 << 20
            && (0..end).all(|c| kind.value_2d(origin[0] + r as u64, origin[1] + c) == row.value(c))
    })
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The simplest 1-D form that fits all of `values`.
pub fn find_1d(values: &[u64]) -> Kind {
    let n = values.len();
    // Periodic first, then arithmetic-periodic: for each, the (preperiod,
    // period) seen three times that needs the fewest values, e + p.
    let last = n.saturating_sub(1);
    for arithmetic in [false, true] {
        // What a period of p adds, read off the table's end (none: no fit).
        let saltus = |p: usize| match values[last].checked_sub(values[last - p]) {
            Some(s) if arithmetic && s > 0 => Some(s),
            _ if arithmetic => None,
            _ => Some(0),
        };
        let repeats =
            |m: usize, p: usize| saltus(p).is_some_and(|s| values[m + p] == values[m] + s);
        if let Some((e, p)) = least_period(n, n / 3, repeats, |e, p| seen_enough(n, e, p)) {
            return Kind::Periodic {
                preperiod: e as u64,
                period: p as u64,
                saltus: saltus(p).expect("a fitting saltus"),
                prefix: values[..e].to_vec(),
                block: values[e..e + p].to_vec(),
            };
        }
    }
    find_runs(values).unwrap_or(Kind::None)
}

/// Runs of values rising by one whose lengths grow linearly, from the
/// earliest run that makes every run to the table's end fit.
fn find_runs(values: &[u64]) -> Option<Kind> {
    // Maximal runs of equal values, as (first heap, value).
    let mut runs: Vec<(usize, u64)> = Vec::new();
    for (i, v) in values.iter().enumerate() {
        if runs.last().is_none_or(|(_, last)| last != v) {
            runs.push((i, *v));
        }
    }
    // Runs before the last are complete; the last may be cut by the table.
    let complete = runs.len().checked_sub(1)?;
    if complete < 4 {
        return None;
    }
    let length = |k: usize| (runs[k + 1].0 - runs[k].0) as u64;
    let step = length(complete - 1).checked_sub(length(complete - 2))?;
    if step == 0 {
        return None; // runs of one length are arithmetic-periodic
    }
    let mut from = complete - 1;
    while from > 0 {
        let k = from - 1;
        if runs[k].1 + 1 != runs[k + 1].1 || length(k) + step != length(k + 1) {
            break;
        }
        from = k;
    }
    let start = runs[from].0;
    let cut = (values.len() - runs[complete].0) as u64;
    let fits = runs[complete].1 == runs[complete - 1].1 + 1
        && cut <= length(complete - 1) + step
        && complete - from >= 3
        && 2 * (values.len() - start) >= values.len();
    fits.then(|| Kind::Runs {
        start: start as u64,
        first: runs[from].1,
        length: length(from),
        step,
        prefix: values[..start].to_vec(),
    })
}

/// The 2-D form of `rows` (a rectangle), or [`Kind::None`]. When the whole
/// table has none, the table without its last one or two rows and columns
/// is tried: a bounded board's far edge can change the play next to it (a
/// knight on the last row has fewer moves), and the positions there that
/// differ from the pattern are listed as exceptions.
///
/// `whole` says that the table holds every position of the game, so that
/// a pattern needs to be seen only one and a half times in each direction.
pub fn find_2d(rows: &[Vec<u64>], whole: bool) -> Kind {
    let exact = find_2d_exact(rows, whole);
    if exact != Kind::None {
        return exact;
    }
    let (height, width) = (rows.len(), rows[0].len());
    for edge in 1..=2 {
        if height <= edge + 3 || width <= edge + 3 {
            break;
        }
        let inner: Vec<Vec<u64>> = rows[..height - edge]
            .iter()
            .map(|r| r[..width - edge].to_vec())
            .collect();
        let Kind::Periodic2d {
            origin,
            offset,
            period,
            table,
            ..
        } = find_2d_exact(&inner, whole)
        else {
            continue;
        };
        let mut kind = Kind::Periodic2d {
            origin,
            offset,
            period,
            table,
            symmetric: false,
            exceptions: Vec::new(),
        };
        let mut exceptions = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                if kind.value_2d(r as u64, c as u64) != Some(*v) {
                    exceptions.push([r as u64, c as u64, *v]);
                }
            }
        }
        // The exceptions are a listing, not a pattern: at most a few.
        if exceptions.len() > (height + width) / 2 {
            continue;
        }
        if let Kind::Periodic2d {
            exceptions: e,
            symmetric,
            ..
        } = &mut kind
        {
            *e = exceptions;
            *symmetric = is_symmetric(rows);
        }
        return kind;
    }
    find_rows(rows)
}

/// Each row periodic along its columns, with a pattern of its own: for
/// tables with many more columns than rows (strips of a few rows), where
/// no one period fits every row. Rows need 16 columns at least, so that
/// short rows are not given periods they merely happen to show.
fn find_rows(rows: &[Vec<u64>]) -> Kind {
    find_rows_with(rows, &vec![None; rows.len()])
}

/// [`find_rows`], with the rows whose pattern is `known` (proven, and how)
/// taking it instead of one found in the table; the other rows must each
/// show one by the acceptance rule, or there is no pattern.
fn find_rows_with(rows: &[Vec<u64>], known: &[Option<(Kind, String)>]) -> Kind {
    let observed = known.iter().any(Option::is_none);
    if observed && rows[0].len() < 16 {
        return Kind::None;
    }
    let found: Option<Vec<(Kind, Option<String>)>> = rows
        .iter()
        .zip(known)
        .map(|(row, known)| match known {
            Some((kind, how)) => Some((kind.clone(), Some(how.clone()))),
            None => Some(find_1d(row))
                .filter(|k| matches!(k, Kind::Periodic { .. }))
                .map(|k| (k, None)),
        })
        .collect();
    found.map_or(Kind::None, |found| {
        let (rows, proven) = found.into_iter().unzip();
        Kind::PeriodicRows {
            origin: [0, 0],
            rows,
            proven,
        }
    })
}

fn find_2d_exact(rows: &[Vec<u64>], whole: bool) -> Kind {
    let width = rows[0].len();
    let column = |c: usize| rows.iter().map(|r| r[c]).collect::<Vec<_>>();
    let columns: Vec<Vec<u64>> = (0..width).map(column).collect();
    let (Some((r0, pr)), Some((c0, pc))) =
        (periodic_lines(rows, whole), periodic_lines(&columns, whole))
    else {
        return Kind::None;
    };
    let symmetric = is_symmetric(rows);
    Kind::Periodic2d {
        origin: [0, 0],
        offset: [r0 as u64, c0 as u64],
        period: [pr as u64, pc as u64],
        table: rows[..r0 + pr]
            .iter()
            .map(|r| r[..c0 + pc].to_vec())
            .collect(),
        symmetric,
        exceptions: Vec::new(),
    }
}

/// Whether a rectangle of values is square and equal to its transpose.
fn is_symmetric(rows: &[Vec<u64>]) -> bool {
    let n = rows.len();
    rows.iter().all(|r| r.len() == n) && (0..n).all(|r| (0..r).all(|c| rows[r][c] == rows[c][r]))
}

/// The (offset, period) with line i + p equal to line i from the offset on
/// that needs the fewest lines (offset + period): lines are rows (or
/// columns) as a whole. The period must be seen as a 1-D one is (three
/// times, over the last three quarters of the lines), or one and a half
/// times when the table is the `whole` game.
fn periodic_lines(lines: &[Vec<u64>], whole: bool) -> Option<(usize, usize)> {
    let n = lines.len();
    let repeats = |m: usize, p: usize| lines[m + p] == lines[m];
    if whole {
        least_period(n, 2 * n / 3, repeats, |e, p| 2 * (n - e) >= 3 * p)
    } else {
        least_period(n, n / 3, repeats, |e, p| seen_enough(n, e, p))
    }
}

/// The acceptance rule of a period `p` from `e` on, in `n` items: seen at
/// least three times, over at least the last three quarters of them.
fn seen_enough(n: usize, e: usize, p: usize) -> bool {
    n - e >= 3 * p && 4 * (n - e) >= 3 * n
}

/// Among periods p up to `longest` of n items, the (e, p) with the fewest
/// items e + p such that `repeats(m, p)` for every m from e on (m + p < n),
/// e the smallest for its p, and that `enough` accepts.
fn least_period(
    n: usize,
    longest: usize,
    repeats: impl Fn(usize, usize) -> bool,
    enough: impl Fn(usize, usize) -> bool,
) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for p in 1..=longest {
        if best.is_some_and(|(e, q)| e + q <= p) {
            break;
        }
        let mut e = n - p;
        while e > 0 && repeats(e - 1, p) {
            e -= 1;
        }
        if enough(e, p) && best.is_none_or(|(b, q)| e + p < b + q) {
            best = Some((e, p));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn periodic_and_arithmetic_forms() {
        let mod4: Vec<u64> = (0..40).map(|n| n % 4).collect();
        assert_eq!(find_1d(&mod4).name(), "periodic");
        let nim: Vec<u64> = (0..40).collect();
        let Kind::Periodic { period, saltus, .. } = find_1d(&nim) else {
            panic!("nim is arithmetic-periodic")
        };
        assert_eq!((period, saltus), (1, 1));
        // A constant tail is not a pattern unless it fills most of the table.
        let mut tail = vec![3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4];
        tail.extend([0, 0]);
        assert_eq!(find_1d(&tail), Kind::None);
    }

    #[test]
    fn triangular_runs() {
        // Codeforces 768E: the largest k with k(k+1)/2 <= n.
        let values: Vec<u64> = (0..200u64)
            .map(|n| (0..).take_while(|k| k * (k + 1) / 2 <= n).last().unwrap())
            .collect();
        let kind = find_1d(&values);
        assert_eq!(kind.name(), "runs", "{kind:?}");
        for n in 0..5000 {
            let k = (0..).take_while(|k| k * (k + 1) / 2 <= n).last().unwrap();
            assert_eq!(kind.value(n), Some(k), "heap {n}");
        }
    }

    #[test]
    fn doubly_periodic_tables() {
        let rows: Vec<Vec<u64>> = (0..12)
            .map(|r| {
                (0..13)
                    .map(|c| ((r % 4 < 2) && (c % 4 < 2)) as u64)
                    .collect()
            })
            .collect();
        let kind = find_2d(&rows, false);
        let Kind::Periodic2d {
            offset,
            period,
            symmetric,
            ..
        } = &kind
        else {
            panic!("{kind:?}")
        };
        assert_eq!((*offset, *period, *symmetric), ([0, 0], [4, 4], false));
        for r in 0..100 {
            for c in 0..100 {
                assert_eq!(
                    kind.value_2d(r, c),
                    Some(((r % 4 < 2) && (c % 4 < 2)) as u64)
                );
            }
        }
    }

    #[test]
    fn a_period_at_the_end_of_a_table_is_no_pattern_unless_the_table_is_the_game() {
        // Columns all different, then alternating over the last six only:
        // three periods, but not over three quarters of the table.
        let column = |c: u64| if c < 34 { c } else { 100 + c % 2 };
        let rows: Vec<Vec<u64>> = (0..12)
            .map(|r| (0..40).map(|c| column(c) ^ (r % 2)).collect())
            .collect();
        assert_eq!(find_2d(&rows, false), Kind::None);
        // The same table as a whole game: nothing lies beyond it.
        let Kind::Periodic2d { offset, period, .. } = find_2d(&rows, true) else {
            panic!("the whole game's table is written shorter")
        };
        assert_eq!((offset, period), ([0, 34], [2, 2]));
        // Over three quarters of the table, the same columns are a pattern.
        let rows: Vec<Vec<u64>> = (0..12)
            .map(|r| (0..40).map(|c| column(c + 24) ^ (r % 2)).collect())
            .collect();
        let Kind::Periodic2d { offset, period, .. } = find_2d(&rows, false) else {
            panic!("a period over the last 30 of 40 columns")
        };
        assert_eq!((offset, period), ([0, 10], [2, 2]));
    }

    /// The period of a finite subtraction game, by simulation: the state is
    /// the window of the last max(S) values.
    fn subtraction_values(set: &[u64], n: usize) -> Vec<u64> {
        let mut v = vec![0u64; n];
        for i in 0..n {
            let mut seen = [false; 16];
            for s in set.iter().filter(|s| **s as usize <= i) {
                seen[v[i - *s as usize] as usize] = true;
            }
            v[i] = seen.iter().position(|x| !x).unwrap() as u64;
        }
        v
    }

    proptest! {
        /// On random subtraction sets the finder's period is the proven one.
        #[test]
        fn the_finder_agrees_with_the_proven_period(set in proptest::collection::btree_set(1u64..10, 1..4)) {
            let set: Vec<u64> = set.into_iter().collect();
            let spec = format!("sub:{}", set.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
            let mut family = crate::spec::parse_game(&spec, Default::default()).unwrap();
            let report = family.period(1 << 12).unwrap();
            prop_assert!(report.proven);
            let proven = report.periodicity.unwrap();
            let found = find_1d(&subtraction_values(&set, 2000));
            let Kind::Periodic { preperiod, period, saltus, .. } = found else {
                panic!("{found:?}")
            };
            prop_assert_eq!((preperiod, period, saltus), (proven.preperiod, proven.period, 0));
        }

        /// A sum of two subtraction games: the proven pattern (of values and
        /// of outcomes) answers as the XOR of the parts' plain values, and
        /// its periods are the least the table shows.
        #[test]
        fn a_sum_of_subtraction_games_is_proven_and_exact(
            a in proptest::collection::btree_set(1u64..8, 1..4),
            b in proptest::collection::btree_set(1u64..8, 1..4),
        ) {
            let spec = |set: &std::collections::BTreeSet<u64>| {
                format!("sub:{}", set.iter().map(u64::to_string).collect::<Vec<_>>().join(","))
            };
            let (xs, ys) = (
                subtraction_values(&a.iter().copied().collect::<Vec<_>>(), 120),
                subtraction_values(&b.iter().copied().collect::<Vec<_>>(), 120),
            );
            for outcome in [false, true] {
                let mut parse = |part: &str| crate::spec::parse_game(part, Default::default());
                let found = find_game(&format!("{} + {}", spec(&a), spec(&b)), &mut parse, 1023, outcome).unwrap();
                prop_assert!(found.proven);
                let value = |r: usize, c: usize| if outcome { (xs[r] != ys[c]) as u64 } else { xs[r] ^ ys[c] };
                for r in 0..120 {
                    for c in 0..120 {
                        prop_assert_eq!(found.kind.value_2d(r as u64, c as u64), Some(value(r, c)));
                    }
                }
                let rows: Vec<Vec<u64>> = (0..120).map(|r| (0..120).map(|c| value(r, c)).collect()).collect();
                let Kind::Periodic2d { offset, period, .. } = find_2d_exact(&rows, false) else {
                    panic!("the table is doubly periodic")
                };
                let Kind::Periodic2d { offset: o, period: p, .. } = found.kind else { unreachable!() };
                prop_assert_eq!((o, p), (offset, period));
            }
        }
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// The languages [`code`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// C++ (standard library only; `long long` arithmetic).
    Cpp,
    /// Python 3.
    Python,
    /// Rust.
    Rust,
}

impl std::str::FromStr for Language {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "cpp" | "c++" => Ok(Language::Cpp),
            "python" | "py" => Ok(Language::Python),
            "rust" | "rs" => Ok(Language::Rust),
            _ => Err(Error::invalid(format!(
                "--emit {s:?}: the languages are cpp, python and rust"
            ))),
        }
    }
}

/// A self-contained function answering every position in O(1) where the
/// pattern holds: `grundy(n)` / `grundy(r, c)`, or `first_player_wins` for
/// an outcome pattern. Its comment says what was proven or observed.
pub fn code(pattern: &Pattern, language: Language) -> Result<String> {
    use std::fmt::Write as _;
    let (cpp, py) = (language == Language::Cpp, language == Language::Python);
    let note = if py { "#" } else { "//" };
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let name = if pattern.outcome {
        "first_player_wins"
    } else {
        "grundy"
    };
    let mut out = String::new();
    let mut comment = |line: String| {
        let _ = writeln!(out, "{note} {line}");
    };
    comment(format!(
        "{} {}: {}, written by `grundy pattern{}`.",
        if pattern.outcome {
            "Who wins in"
        } else {
            "Grundy values of"
        },
        pattern.game,
        pattern.kind.name(),
        if pattern.outcome { " --outcome" } else { "" }
    ));
    if pattern.proven {
        comment(format!(
            "Holds for every position. {}.",
            capitalized(&pattern.method)
        ));
    } else {
        comment(format!(
            "Not proven: {}. Check it before relying on it.",
            pattern.method
        ));
    }
    // The value expression, as the language writes it, from `x`.
    let wrap = |x: &str| -> String {
        if pattern.outcome {
            format!("{x} != 0")
        } else {
            x.to_string()
        }
    };
    match &pattern.kind {
        Kind::None => {
            return Err(Error::invalid(format!(
                "{}: {}, so there is no code to write",
                pattern.game, pattern.method
            )))
        }
        Kind::Periodic {
            preperiod,
            period,
            saltus,
            prefix,
            block,
        } => {
            let (e, p, s) = (*preperiod, *period, *saltus);
            comment(match (e, s) {
                (0, 0) => format!("G(n) = block[n mod {p}] for every n."),
                (_, 0) => format!("G(n) = block[(n - {e}) mod {p}] for n >= {e}; below {e}, the prefix."),
                _ => format!("G(n) = block[(n - {e}) mod {p}] + {s} ((n - {e}) div {p}) for n >= {e}; below {e}, the prefix."),
            });
            let big = s > 0;
            // The heap counted from the preperiod.
            let k = if e == 0 {
                "n".to_string()
            } else {
                format!("(n - {e})")
            };
            if cpp {
                if big && s > 9 * p {
                    comment("Values beyond 9.2e18 do not fit in long long: heaps up to 10^18 only when saltus <= 9 * period.".into());
                }
                let ty = if pattern.outcome {
                    "bool"
                } else if big {
                    "long long"
                } else {
                    "int"
                };
                let _ = writeln!(out, "{ty} {name}(long long n) {{");
                if e > 0 {
                    let _ = writeln!(
                        out,
                        "    static const int prefix[{e}] = {{{}}};",
                        list(prefix)
                    );
                    let _ = writeln!(out, "    if (n < {e}) return {};", wrap("prefix[n]"));
                }
                let _ = writeln!(
                    out,
                    "    static const int block[{p}] = {{{}}};",
                    list(block)
                );
                let value = if big {
                    format!("block[{k} % {p}] + {s}LL * ({k} / {p})")
                } else {
                    format!("block[{k} % {p}]")
                };
                let _ = writeln!(out, "    return {};\n}}", wrap(&value));
            } else if py {
                let _ = writeln!(out, "def {name}(n):");
                if e > 0 {
                    let _ = writeln!(out, "    prefix = ({},)", list(prefix));
                    let _ = writeln!(out, "    if n < {e}:\n        return {}", wrap("prefix[n]"));
                }
                let _ = writeln!(out, "    block = ({},)", list(block));
                let value = if big {
                    format!("block[{k} % {p}] + {s} * ({k} // {p})")
                } else {
                    format!("block[{k} % {p}]")
                };
                let _ = writeln!(out, "    return {}", wrap(&value));
            } else {
                let ty = if pattern.outcome {
                    "bool"
                } else if big {
                    "u64"
                } else {
                    "u32"
                };
                let _ = writeln!(out, "fn {name}(n: u64) -> {ty} {{");
                if e > 0 {
                    let _ = writeln!(out, "    const PREFIX: [u32; {e}] = [{}];", list(prefix));
                    let early = if big {
                        "PREFIX[n as usize] as u64"
                    } else {
                        "PREFIX[n as usize]"
                    };
                    let _ = writeln!(
                        out,
                        "    if n < {e} {{\n        return {};\n    }}",
                        wrap(early)
                    );
                }
                let _ = writeln!(out, "    const BLOCK: [u32; {p}] = [{}];", list(block));
                let value = if big {
                    format!("BLOCK[({k} % {p}) as usize] as u64 + {s} * ({k} / {p})")
                } else {
                    format!("BLOCK[({k} % {p}) as usize]")
                };
                let _ = writeln!(out, "    {}\n}}", wrap(&value));
            }
        }
        Kind::Runs {
            start,
            first,
            length,
            step,
            prefix,
        } => {
            let (e, f, l, d) = (*start, *first, *length, *step);
            comment(format!(
                "From heap {e} on, G is {f} + k on the k-th run of heaps (k = 0, 1, ...), of length {l} + {d} k:"
            ));
            comment(format!(
                "run k starts at {e} + {l} k + {d} k (k - 1) / 2, and k is the largest with that start <= n."
            ));
            if cpp {
                let ty = if pattern.outcome { "bool" } else { "long long" };
                let _ = writeln!(out, "#include <cmath>\n{ty} {name}(long long n) {{");
                if e > 0 {
                    let _ = writeln!(
                        out,
                        "    static const int prefix[{e}] = {{{}}};",
                        list(prefix)
                    );
                    let _ = writeln!(out, "    if (n < {e}) return {};", wrap("prefix[n]"));
                }
                let _ = writeln!(out, "    long long m = n - {e};");
                let _ = writeln!(out, "    auto before = [](long long k) {{ return (__int128)k * {l} + (__int128){d} * k * (k - 1) / 2; }};");
                let _ = writeln!(out, "    long double b = {l} - {d} / 2.0L;");
                let _ = writeln!(
                    out,
                    "    long long k = (long long)((-b + sqrtl(b * b + 2.0L * {d} * m)) / {d});"
                );
                let _ = writeln!(out, "    if (k < 0) k = 0;");
                let _ = writeln!(out, "    while (k > 0 && before(k) > m) --k;");
                let _ = writeln!(out, "    while (before(k + 1) <= m) ++k;");
                let _ = writeln!(out, "    return {};\n}}", wrap(&format!("{f} + k")));
            } else if py {
                let _ = writeln!(out, "from math import isqrt\n\n\ndef {name}(n):");
                if e > 0 {
                    let _ = writeln!(out, "    prefix = ({},)", list(prefix));
                    let _ = writeln!(out, "    if n < {e}:\n        return {}", wrap("prefix[n]"));
                }
                let _ = writeln!(out, "    m = n - {e}");
                let _ = writeln!(
                    out,
                    "    # the largest k with {d} k^2 + (2 * {l} - {d}) k <= 2 m"
                );
                let _ = writeln!(out, "    b = 2 * {l} - {d}");
                let _ = writeln!(
                    out,
                    "    k = max(0, (isqrt(b * b + 8 * {d} * m) - b) // (2 * {d}))"
                );
                let _ = writeln!(
                    out,
                    "    while k > 0 and k * {l} + {d} * k * (k - 1) // 2 > m:\n        k -= 1"
                );
                let _ = writeln!(
                    out,
                    "    while (k + 1) * {l} + {d} * (k + 1) * k // 2 <= m:\n        k += 1"
                );
                let _ = writeln!(out, "    return {}", wrap(&format!("{f} + k")));
            } else {
                let ty = if pattern.outcome { "bool" } else { "u64" };
                let _ = writeln!(out, "fn {name}(n: u64) -> {ty} {{");
                if e > 0 {
                    let _ = writeln!(out, "    const PREFIX: [u64; {e}] = [{}];", list(prefix));
                    let _ = writeln!(
                        out,
                        "    if n < {e} {{\n        return {};\n    }}",
                        wrap("PREFIX[n as usize]")
                    );
                }
                let _ = writeln!(out, "    let m = (n - {e}) as u128;");
                let _ = writeln!(
                    out,
                    "    let before = |k: u128| k * {l} + {d} * k * k.saturating_sub(1) / 2;"
                );
                let _ = writeln!(out, "    let b = {l} as f64 - {d} as f64 / 2.0;");
                let _ = writeln!(out, "    let mut k = ((-b + (b * b + 2.0 * {d} as f64 * m as f64).sqrt()) / {d} as f64).max(0.0) as u128;");
                let _ = writeln!(
                    out,
                    "    while k > 0 && before(k) > m {{\n        k -= 1;\n    }}"
                );
                let _ = writeln!(
                    out,
                    "    while before(k + 1) <= m {{\n        k += 1;\n    }}"
                );
                let _ = writeln!(out, "    {}\n}}", wrap(&format!("{f} + k as u64")));
            }
        }
        Kind::PeriodicRows { origin, rows, .. } => {
            let [or, oc] = *origin;
            let last = or + rows.len() as u64 - 1;
            // Per row: where its prefix and block start in one flat array,
            // its preperiod, period and saltus.
            let (mut start, mut pre, mut per, mut sal, mut data) =
                (vec![], vec![], vec![], vec![], vec![]);
            for row in rows {
                let Kind::Periodic {
                    preperiod,
                    period,
                    saltus,
                    prefix,
                    block,
                } = row
                else {
                    unreachable!("periodic rows")
                };
                start.push(data.len() as u64);
                pre.push(*preperiod);
                per.push(*period);
                sal.push(*saltus);
                data.extend(prefix);
                data.extend(block);
            }
            let big = sal.iter().any(|s| *s > 0);
            comment(format!(
                "Row r (r = {or}..{last}) is periodic along c >= {oc}: G(r, c) = row[pre + (c' - pre) mod per] + sal ((c' - pre) div per), c' = c - {oc}, below pre the row's prefix."
            ));

            let n = rows.len();
            if cpp {
                comment(format!(
                    "Rows outside {or}..{last} (or c < {oc}) are not covered: -1."
                ));
                let ty = if big { "long long" } else { "int" };
                let _ = writeln!(out, "{ty} {name}(long long r, long long c) {{");
                let _ = writeln!(
                    out,
                    "    if (r < {or} || r > {last} || c < {oc}) return -1;"
                );
                let _ = writeln!(
                    out,
                    "    static const int start[{n}] = {{{}}};",
                    list(&start)
                );
                let _ = writeln!(out, "    static const int pre[{n}] = {{{}}};", list(&pre));
                let _ = writeln!(out, "    static const int per[{n}] = {{{}}};", list(&per));
                if big {
                    let _ = writeln!(out, "    static const int sal[{n}] = {{{}}};", list(&sal));
                }
                let _ = writeln!(
                    out,
                    "    static const int data[{}] = {{{}}};",
                    data.len(),
                    list(&data)
                );
                let _ = writeln!(
                    out,
                    "    r -= {or};
    c -= {oc};"
                );
                let _ = writeln!(out, "    const int *row = data + start[r];");
                let _ = writeln!(out, "    if (c < pre[r]) return row[c];");
                let _ = writeln!(out, "    long long k = c - pre[r];");
                let _ = writeln!(
                    out,
                    "    return row[pre[r] + k % per[r]]{};
}}",
                    if big {
                        " + (long long)sal[r] * (k / per[r])"
                    } else {
                        ""
                    }
                );
            } else if py {
                let _ = writeln!(out, "def {name}(r, c):");
                let _ = writeln!(out, "    rows = (");
                for row in rows {
                    if let Kind::Periodic {
                        saltus,
                        prefix,
                        block,
                        ..
                    } = row
                    {
                        let _ = writeln!(
                            out,
                            "        ([{}], [{}], {saltus}),",
                            list(prefix),
                            list(block)
                        );
                    }
                }
                let _ = writeln!(out, "    )");
                let _ = writeln!(
                    out,
                    "    if not ({or} <= r <= {last}) or c < {oc}:
        raise ValueError(\"the pattern covers rows {or} to {last} and columns from {oc}\")"
                );
                if or == 0 {
                    let _ = writeln!(out, "    prefix, block, saltus = rows[r]");
                } else {
                    let _ = writeln!(out, "    prefix, block, saltus = rows[r - {or}]");
                }
                if oc > 0 {
                    let _ = writeln!(out, "    c -= {oc}");
                }
                let _ = writeln!(
                    out,
                    "    if c < len(prefix):
        return {}",
                    wrap("prefix[c]")
                );
                let _ = writeln!(out, "    k = c - len(prefix)");
                let _ = writeln!(
                    out,
                    "    return {}",
                    wrap("block[k % len(block)] + saltus * (k // len(block))")
                );
            } else {
                let ty = if pattern.outcome {
                    "bool"
                } else if big {
                    "u64"
                } else {
                    "u32"
                };
                let _ = writeln!(out, "fn {name}(r: u64, c: u64) -> {ty} {{");
                let mut inside = vec![if or == 0 {
                    format!("r <= {last}")
                } else {
                    format!("({or}..={last}).contains(&r)")
                }];
                if oc > 0 {
                    inside.push(format!("c >= {oc}"));
                }
                let _ = writeln!(
                    out,
                    "    assert!({}, \"the pattern covers rows {or} to {last} and columns from {oc}\");",
                    inside.join(" && ")
                );
                let _ = writeln!(out, "    const START: [usize; {n}] = [{}];", list(&start));
                let _ = writeln!(out, "    const PRE: [u64; {n}] = [{}];", list(&pre));
                let _ = writeln!(out, "    const PER: [u64; {n}] = [{}];", list(&per));
                let _ = writeln!(out, "    const SAL: [u64; {n}] = [{}];", list(&sal));
                let _ = writeln!(
                    out,
                    "    const DATA: [u32; {}] = [{}];",
                    data.len(),
                    list(&data)
                );
                let _ = writeln!(out, "    let (r, c) = ((r - {or}) as usize, c - {oc});");
                let _ = writeln!(out, "    let row = &DATA[START[r]..];");
                let _ = writeln!(
                    out,
                    "    let value = if c < PRE[r] {{
        row[c as usize] as u64
    }} else {{
        let k = c - PRE[r];
        row[(PRE[r] + k % PER[r]) as usize] as u64 + SAL[r] * (k / PER[r])
    }};"
                );
                let value = if big || pattern.outcome {
                    "value"
                } else {
                    "value as u32"
                };
                let _ = writeln!(
                    out,
                    "    {}
}}",
                    wrap(value)
                );
            }
        }
        Kind::Periodic2d {
            origin,
            offset,
            period,
            table,
            exceptions,
            ..
        } => {
            let ([r0, c0], [pr, pc], [or, oc]) = (*offset, *period, *origin);
            if !exceptions.is_empty() {
                comment(format!(
                    "Except {} next to this board's far edge, which {} differently: listed first.",
                    if exceptions.len() == 1 {
                        "1 position".to_string()
                    } else {
                        format!("{} positions", exceptions.len())
                    },
                    if exceptions.len() == 1 {
                        "plays"
                    } else {
                        "play"
                    }
                ));
            }
            // The exceptions, as the first lines of the function.
            let listed: String = exceptions
                .iter()
                .map(|[r, c, v]| {
                    let v = match (pattern.outcome, py) {
                        (false, _) => v.to_string(),
                        (true, true) => if *v != 0 { "True" } else { "False" }.to_string(),
                        (true, false) => (*v != 0).to_string(),
                    };
                    if py {
                        format!("    if (r, c) == ({r}, {c}):\n        return {v}\n")
                    } else if cpp {
                        format!("    if (r == {r} && c == {c}) return {v};\n")
                    } else {
                        format!("    if r == {r} && c == {c} {{\n        return {v};\n    }}\n")
                    }
                })
                .collect();
            let (rows, cols) = (table.len(), table[0].len());
            comment(format!(
                "G(r, c) = G(r + {pr}, c) for r >= {r0}, and G(r, c) = G(r, c + {pc}) for c >= {c0}: every position reduces into the table of rows {or}.. and columns {oc}.. (r >= {or}, c >= {oc})."
            ));
            // Reduces x into the table: x = x0 + (x - x0) mod p beyond x0.
            let reduce = |x: &str, x0: u64, p: u64| -> String {
                match (x0, py, cpp) {
                    (0, true, _) => format!("    {x} %= {p}\n"),
                    (0, _, true) => format!("    {x} %= {p};\n"),
                    (0, _, _) => format!("    let {x} = {x} % {p};\n"),
                    (_, true, _) => format!("    if {x} >= {x0}:\n        {x} = {x0} + ({x} - {x0}) % {p}\n"),
                    (_, _, true) => format!("    if ({x} >= {x0}) {x} = {x0} + ({x} - {x0}) % {p};\n"),
                    _ => format!("    let {x} = if {x} >= {x0} {{ {x0} + ({x} - {x0}) % {p} }} else {{ {x} }};\n"),
                }
            };
            let rows_of = |open: &str, close: &str| {
                table
                    .iter()
                    .map(|row| format!("        {open}{}{close},", list(row)))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            if cpp {
                let ty = if pattern.outcome { "bool" } else { "int" };
                let _ = writeln!(out, "{ty} {name}(long long r, long long c) {{");
                out.push_str(&listed);
                let _ = writeln!(
                    out,
                    "    static const int table[{rows}][{cols}] = {{\n{}\n    }};",
                    rows_of("{", "}")
                );
                out.push_str(&reduce("r", r0, pr));
                out.push_str(&reduce("c", c0, pc));
                let _ = writeln!(
                    out,
                    "    return {};\n}}",
                    wrap(&format!("table[r - {or}][c - {oc}]"))
                );
            } else if py {
                let _ = writeln!(out, "def {name}(r, c):");
                out.push_str(&listed);
                let _ = writeln!(out, "    table = (\n{}\n    )", rows_of("(", ")"));
                out.push_str(&reduce("r", r0, pr));
                out.push_str(&reduce("c", c0, pc));
                let _ = writeln!(
                    out,
                    "    return {}",
                    wrap(&format!("table[r - {or}][c - {oc}]"))
                );
            } else {
                let ty = if pattern.outcome { "bool" } else { "u32" };
                let _ = writeln!(out, "fn {name}(r: u64, c: u64) -> {ty} {{");
                out.push_str(&listed);
                let _ = writeln!(
                    out,
                    "    const TABLE: [[u32; {cols}]; {rows}] = [\n{}\n    ];",
                    rows_of("[", "]")
                );
                out.push_str(&reduce("r", r0, pr));
                out.push_str(&reduce("c", c0, pc));
                let _ = writeln!(
                    out,
                    "    {}\n}}",
                    wrap(&format!("TABLE[(r - {or}) as usize][(c - {oc}) as usize]"))
                );
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod edge_tests {
    use super::*;

    #[test]
    fn a_bounded_board_keeps_its_pattern_with_its_far_corner_listed() {
        let mut family = crate::spec::parse_game("knight:8", Default::default()).unwrap();
        let pattern = find(family.as_mut(), 0, true).unwrap();
        let Kind::Periodic2d {
            offset,
            period,
            exceptions,
            ..
        } = &pattern.kind
        else {
            panic!("{pattern:?}")
        };
        assert_eq!((*offset, *period), ([0, 0], [4, 4]));
        assert_eq!(exceptions, &vec![[7, 7, 0]]);
    }
}
