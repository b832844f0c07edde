//! Printing results as text, JSON and CSV, and errors as one clear line.

use crate::{io_error, Failure};
use grundy::sum::{Analysis, Sum, WinningMove};
use grundy::{spec, Error, Value};
use serde_json::Value as Json;
use std::io::{self, Write};

/// Writes an error to `err` (stderr): one line, and a caret line under the
/// offending character when the error knows where it is. A failure to write
/// it is ignored: there is nowhere left to say so.
pub fn report_error(err: &mut dyn Write, error: &Error) {
    let line = format!("error: {error}");
    let _ = match error {
        Error::Syntax {
            input,
            column: Some(column),
            ..
        } if !input.is_empty() => {
            let head = format!("{line}: ");
            let pad = head.chars().count() + column;
            writeln!(err, "{head}{input}").and_then(|()| writeln!(err, "{}^", " ".repeat(pad)))
        }
        Error::Syntax { input, .. } if !input.is_empty() => writeln!(err, "{line}: {input}"),
        _ => writeln!(err, "{line}"),
    };
}

fn outcome(analysis: &Analysis) -> &'static str {
    match analysis.winner {
        grundy::sum::Winner::First => "first player wins",
        grundy::sum::Winner::Second => "second player wins",
        grundy::sum::Winner::Draw => "draw",
    }
}

/// How many moves text output lists when `--max-moves` is not given.
pub const TEXT_MOVES: usize = 20;

/// One move as text, the component named by its number in brackets:
/// `[2] sub:1-3: 4 -> 2` (or the family's words: `[1] treblecross: mark cell 7`).
fn move_line(sum: &Sum, m: &WinningMove) -> String {
    let index = sum.components()[m.component].family;
    let family = sum.family(index);
    let what = match family.describe_move(&m.from, &m.to) {
        Some(words) => words,
        None => {
            let to = if m.to.is_empty() {
                "(nothing)".to_string()
            } else {
                let parts: Vec<String> = m.to.iter().map(|p| family.format(p)).collect();
                parts.join(" + ")
            };
            format!("{} -> {to}", family.format(&m.from))
        }
    };
    format!("  [{}] {}: {what}", m.component + 1, family.spec())
}

/// Lists moves, at most `shown` of them, and says how many more there are
/// (`found` were computed; `cut` if the computation itself stopped early).
fn move_list(
    out: &mut impl Write,
    sum: &Sum,
    moves: &[WinningMove],
    shown: usize,
    cut: bool,
) -> io::Result<()> {
    for m in moves.iter().take(shown) {
        writeln!(out, "{}", move_line(sum, m))?;
    }
    let rest = moves.len().saturating_sub(shown);
    if rest > 0 || cut {
        let at_least = if cut { "at least " } else { "" };
        writeln!(
            out,
            "  ... and {at_least}{} more (--max-moves N to list more, or --json for all)",
            rest.max(1)
        )?;
    }
    Ok(())
}

/// The components, numbered as moves refer to them: `[1] sub:1-3 3  grundy 3`.
fn component_lines(
    out: &mut impl Write,
    sum: &Sum,
    extra: &mut dyn FnMut(usize) -> String,
) -> io::Result<()> {
    let labels: Vec<String> = sum
        .components()
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                sum.family(c.family).spec(),
                sum.format(c.family, &c.position)
            )
        })
        .collect();
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let digits = labels.len().to_string().len();
    for (index, label) in labels.iter().enumerate() {
        let tag = format!("[{}]", index + 1);
        let more = extra(index);
        let line = format!("{tag:>w$} {label:<width$}  {more}", w = digits + 2);
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// `grundy value` as text; `shown` is how many moves to list.
pub fn value_text(
    out: &mut impl Write,
    sum: &Sum,
    analysis: &Analysis,
    shown: usize,
) -> io::Result<()> {
    component_lines(out, sum, &mut |i| format!("grundy {}", analysis.values[i]))?;
    writeln!(out, "nim-sum {}: {}", analysis.nim_sum, outcome(analysis))?;
    for (i, why) in &analysis.unlisted {
        writeln!(out, "[{}] {why}", i + 1)?;
    }
    let count = analysis.winning_moves.len();
    if analysis.winner == grundy::sum::Winner::Draw {
        if analysis.drawing_moves.is_empty() {
            writeln!(out, "no move keeps the draw")?;
        } else {
            writeln!(out, "moves that keep the draw:")?;
            move_list(out, sum, &analysis.drawing_moves, shown, false)?;
        }
        return Ok(());
    }
    match (analysis.winner, count) {
        (grundy::sum::Winner::Second, _) => {
            writeln!(out, "no winning move: every move leaves a non-zero nim-sum")?
        }
        (_, 0) => {}
        _ => {
            let noun = if count == 1 { "move" } else { "moves" };
            // Cut by the limit, or some component's moves not listed.
            let more = analysis.truncated || !analysis.unlisted.is_empty();
            let plus = if more { "+" } else { "" };
            writeln!(out, "{count}{plus} winning {noun}:")?;
            move_list(out, sum, &analysis.winning_moves, shown, analysis.truncated)?;
        }
    }
    Ok(())
}

/// `grundy value --json`, printed.
pub fn value_json(out: &mut impl Write, sum: &Sum, analysis: &Analysis) -> io::Result<()> {
    writeln!(out, "{}", grundy::json::value_object(sum, analysis))
}

/// How `grundy seq` prints.
pub enum SeqFormat {
    Text,
    Json,
    Csv,
}

/// `grundy seq`, streamed: values are written as they are produced.
///
/// What can be checked before the first value (a game without heap
/// positions) is refused before anything is printed. Work that fails later
/// (a budget, Ctrl-C) leaves stdout whole: JSON is closed with the values
/// computed so far and an `"error"` key, CSV and text end after the last
/// whole line; the error goes to stderr and the exit status is not 0.
pub fn sequence(
    out: &mut impl Write,
    family: &mut dyn grundy::family::Family,
    from: u64,
    to: u64,
    format: SeqFormat,
) -> Result<(), Failure> {
    if !family.is_heap_game() {
        // The family's own refusal, before any output.
        family.sequence(from, from, &mut |_, _| Ok(()))?;
    }
    let mut write_error = None;
    let mut first = true;
    let io = |r: io::Result<()>, slot: &mut Option<io::Error>| -> grundy::Result<()> {
        r.map_err(|e| {
            *slot = Some(e);
            Error::Io("output closed".into())
        })
    };
    match format {
        SeqFormat::Json => io(
            write!(out, "{{\"from\":{from},\"to\":{to},\"values\":["),
            &mut write_error,
        ),
        SeqFormat::Csv => io(writeln!(out, "n,grundy"), &mut write_error),
        SeqFormat::Text => Ok(()),
    }
    .map_err(|_| io_error(write_error.take().expect("set on error")))?;
    // JSON values go to the output in batches of 64 KiB, written here
    // digit by digit: millions of values spend no time in formatting or
    // in a copy per value.
    let mut batch = vec![0u8; 1 << 16];
    let mut used = 0;
    // The values come a run of thousands at a time: no call per value.
    let result = family.sequence_runs(from, to, &mut |start, values| {
        let mut r = Ok(());
        match format {
            SeqFormat::Json => {
                let mut values = values.iter();
                if first {
                    if let Some(&value) = values.next() {
                        used += small_decimal(value, &mut batch[used..]);
                    }
                }
                for &value in values {
                    batch[used] = b',';
                    used += 1 + small_decimal(value, &mut batch[used + 1..]);
                    // Room for a comma and the 20 digits of any u64.
                    if used > batch.len() - 21 {
                        r = out.write_all(&batch[..used]);
                        used = 0;
                        if r.is_err() {
                            break;
                        }
                    }
                }
            }
            SeqFormat::Csv => {
                for (i, &value) in values.iter().enumerate() {
                    let n = start + i as u64;
                    r = writeln!(out, "{n},{value}");
                    if r.is_err() {
                        break;
                    }
                }
            }
            SeqFormat::Text => {
                for (i, &value) in values.iter().enumerate() {
                    let n = start + i as u64;
                    // Rows of ten, each led by its first heap, as printed in
                    // the literature.
                    r = if (n - from).is_multiple_of(10) {
                        let lead = if first && n == start { "" } else { "\n" };
                        write!(out, "{lead}{n:>8}: {value}")
                    } else {
                        write!(out, " {value}")
                    };
                    if r.is_err() {
                        break;
                    }
                }
            }
        }
        first &= values.is_empty();
        io(r, &mut write_error)
    });
    if write_error.is_none() && used > 0 {
        if let Err(e) = out.write_all(&batch[..used]) {
            write_error = Some(e);
        }
    }
    if let Some(e) = write_error {
        return Err(io_error(e));
    }
    if let Err(e) = result {
        match format {
            SeqFormat::Json => writeln!(
                out,
                "],\"error\":{}}}",
                serde_json::Value::String(e.to_string())
            ),
            SeqFormat::Csv => Ok(()),
            SeqFormat::Text if first => Ok(()),
            SeqFormat::Text => writeln!(out),
        }
        .map_err(io_error)?;
        return Err(e.into());
    }
    match format {
        SeqFormat::Json => writeln!(out, "]}}"),
        SeqFormat::Csv => Ok(()),
        SeqFormat::Text => writeln!(out),
    }
    .map_err(io_error)
}

/// `grundy explain` as text, from its JSON object: each option and its
/// value, then the mex worked out.
pub fn explain_text(out: &mut impl Write, object: &Json) -> io::Result<()> {
    let text = |v: &Json| match v {
        Json::String(s) => s.clone(),
        other => other.to_string(),
    };
    let position = text(&object["position"]);
    let options = object["options"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    writeln!(
        out,
        "{} {position}: {} option{}",
        text(&object["game"]),
        options.len(),
        if options.len() == 1 { "" } else { "s" }
    )?;
    let mut values = Vec::new();
    for option in options {
        let parts: Vec<String> = option["to"]
            .as_array()
            .map(|a| a.iter().map(text).collect())
            .unwrap_or_default();
        let to = if parts.is_empty() {
            "(nothing)".to_string()
        } else {
            parts.join(" + ")
        };
        let grundy = text(&option["grundy"]);
        writeln!(out, "  {position} -> {to:<20} grundy {grundy}")?;
        values.push(grundy);
    }
    if object["options_truncated"] == Json::Bool(true) {
        writeln!(
            out,
            "  ... (only the first {} options are listed)",
            options.len()
        )?;
    }
    let grundy = text(&object["grundy"]);
    match object.get("mex") {
        Some(mex) => {
            let mut distinct: Vec<u64> = values.iter().filter_map(|v| v.parse().ok()).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let set: Vec<String> = distinct.iter().map(u64::to_string).collect();
            writeln!(
                out,
                "options have values {{{}}}, so mex = {mex}: G({position}) = {grundy}",
                set.join(", ")
            )
        }
        None => writeln!(out, "G({position}) = {grundy}"),
    }
}

/// `grundy games --json`.
pub fn games_json(out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "{}", grundy::json::games_object())
}

/// `grundy games`.
pub fn games(out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "Families of games (GAME), their positions (POS) and an example:"
    )?;
    writeln!(out)?;
    for info in spec::FAMILIES {
        writeln!(
            out,
            "  {:<14} POS {:<8} {}",
            info.syntax, info.position, info.about
        )?;
        writeln!(
            out,
            "  {:<14}              e.g. grundy value {}",
            "", info.example
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Sum games of any families with `+`: grundy value nim 5 + sub:1,2,3 7"
    )?;
    Ok(())
}

/// `grundy seq --out FILE`: values streamed to a file, a b-file when the name
/// ends in `.txt` (`n value` lines, as OEIS b-files), else LEB128 varints.
///
/// The values are formatted and written on a second thread, a block at a
/// time, while the game's engine computes the next block.
pub fn sequence_to_file(
    path: &std::path::Path,
    family: &mut dyn grundy::family::Family,
    from: u64,
    to: u64,
) -> Result<(), Failure> {
    let cannot = |e: io::Error| Error::Io(format!("cannot write {}: {e}", path.display()));
    // Written beside the target and put in place at the end (or written
    // through to a device or a pipe): see `grundy::files`.
    let mut output = grundy::files::Output::create(path, grundy::files::Allow::Through)?;
    let file = output.take_file();
    let text = path.extension().is_some_and(|e| e == "txt");
    const BLOCK: usize = 1 << 14;
    // Blocks go to the writer and come back empty, to be filled again.
    let (full, blocks) = std::sync::mpsc::sync_channel::<Vec<u64>>(4);
    let (empty, returned) = std::sync::mpsc::channel::<Vec<u64>>();
    std::thread::scope(|scope| {
        let writer = scope.spawn(move || -> io::Result<std::fs::File> {
            let mut out = io::BufWriter::with_capacity(1 << 20, file);
            let mut lines = Lines::new();
            let mut n = from;
            for block in blocks {
                for &value in &block {
                    if text {
                        lines.push(n, value);
                        if lines.is_full() {
                            lines.drain_into(&mut out)?;
                        }
                    } else {
                        write_varint(&mut out, value)?;
                    }
                    // Past the last heap only after the last value.
                    n = n.wrapping_add(1);
                }
                // The main thread may have stopped taking blocks back.
                let _ = empty.send(block);
            }
            lines.drain_into(&mut out)?;
            out.into_inner().map_err(|e| e.into_error())
        });
        let mut block = Vec::with_capacity(BLOCK);
        // Runs come in order, from `from` on.
        let produced = family.sequence_runs(from, to, &mut |_, mut values| {
            while !values.is_empty() {
                let take = (BLOCK - block.len()).min(values.len());
                block.extend_from_slice(&values[..take]);
                values = &values[take..];
                if block.len() == BLOCK {
                    let next = returned
                        .try_recv()
                        .unwrap_or_else(|_| Vec::with_capacity(BLOCK));
                    let done = std::mem::replace(&mut block, next);
                    // A closed channel means the writer failed: its error is
                    // reported below.
                    full.send(done)
                        .map_err(|_| Error::Io("the writer stopped".into()))?;
                    block.clear();
                }
            }
            Ok(())
        });
        // The last values, also when the run was interrupted: what was
        // computed is kept.
        if !block.is_empty() {
            let _ = full.send(block);
        }
        drop(full);
        let written = writer.join().expect("the writer does not panic");
        // A write error explains a stopped writer better than the stop.
        let file = written.map_err(cannot)?;
        match produced {
            // What was computed before an interruption is kept.
            Ok(()) | Err(Error::Interrupted(_)) => output.commit_file(file)?,
            // Any other failure leaves the target as it was.
            Err(_) => {}
        }
        produced?;
        Ok(())
    })
}

/// `value` as a LEB128 varint.
fn write_varint(out: &mut impl Write, value: u64) -> io::Result<()> {
    let mut v = value;
    let mut bytes = [0u8; 10];
    let mut len = 0;
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        bytes[len] = if v == 0 { byte } else { byte | 0x80 };
        len += 1;
        if v == 0 {
            break;
        }
    }
    out.write_all(&bytes[..len])
}

/// `n value` lines (a b-file) formatted by hand into a buffer: the heap
/// number is kept as decimal digits and incremented in place, since
/// consecutive heaps are the rule.
struct Lines {
    buf: Vec<u8>,
    /// Bytes of `buf` in use (it is kept at full size).
    len: usize,
    /// The digits of `next`, left-aligned.
    digits: [u8; 24],
    width: usize,
    /// The heap number `digits` holds.
    next: Option<u64>,
}

impl Lines {
    const CAPACITY: usize = 1 << 16;
    /// The longest line: two 20-digit numbers, a space and a newline.
    const LONGEST: usize = 48;

    fn new() -> Self {
        Lines {
            buf: vec![0; Self::CAPACITY + Self::LONGEST],
            len: 0,
            digits: [0; 24],
            width: 0,
            next: None,
        }
    }

    fn is_full(&self) -> bool {
        self.len >= Self::CAPACITY
    }

    fn drain_into(&mut self, out: &mut impl Write) -> io::Result<()> {
        let result = out.write_all(&self.buf[..self.len]);
        self.len = 0;
        result
    }

    /// Appends the line `n value` (the buffer must not be full).
    #[inline]
    fn push(&mut self, n: u64, value: u64) {
        if self.next != Some(n) {
            self.width = decimal(n, &mut self.digits);
        }
        // Fixed-size copies: no call per line.
        let line: &mut [u8; Self::LONGEST] = (&mut self.buf[self.len..self.len + Self::LONGEST])
            .try_into()
            .expect("room for a line");
        line[..24].copy_from_slice(&self.digits);
        let mut len = self.width;
        line[len] = b' ';
        len += 1;
        len += small_decimal(value, &mut line[len..]);
        line[len] = b'\n';
        self.len += len + 1;
        self.next = n.checked_add(1);
        // The next heap number: add one to the digits.
        let mut i = self.width;
        loop {
            if i == 0 {
                self.digits.copy_within(0..self.width, 1);
                self.digits[0] = b'1';
                self.width += 1;
                break;
            }
            i -= 1;
            if self.digits[i] < b'9' {
                self.digits[i] += 1;
                break;
            }
            self.digits[i] = b'0';
        }
    }
}

/// The digits of every value below 1000, four bytes each (the unused ones
/// zero), and how many there are.
const SMALL_DIGITS: [([u8; 4], u8); 1000] = {
    let mut table = [([0u8; 4], 0u8); 1000];
    let mut v = 0;
    while v < 1000 {
        let (hundreds, tens, ones) = ((v / 100) as u8, (v / 10 % 10) as u8, (v % 10) as u8);
        table[v] = if v < 10 {
            ([b'0' + ones, 0, 0, 0], 1)
        } else if v < 100 {
            ([b'0' + tens, b'0' + ones, 0, 0], 2)
        } else {
            ([b'0' + hundreds, b'0' + tens, b'0' + ones, 0], 3)
        };
        v += 1;
    }
    table
};

/// [`decimal`] with the values of most games, below 1000, copied from a
/// table: four bytes stored at once, with no division and no branch on the
/// length. `out` must have room for four bytes (or for every digit of
/// larger values).
#[inline]
fn small_decimal(v: u64, out: &mut [u8]) -> usize {
    // Compared as a u64: on 32-bit targets (the browser's WebAssembly) a
    // cast to usize first would take 2^32 + 5 for 5.
    if v < SMALL_DIGITS.len() as u64 {
        let (digits, len) = SMALL_DIGITS[v as usize];
        out[..4].copy_from_slice(&digits);
        usize::from(len)
    } else {
        decimal(v, out)
    }
}

/// Writes `v` in decimal at the start of `out`; returns the number of digits.
fn decimal(mut v: u64, out: &mut [u8]) -> usize {
    let len = (v.checked_ilog10().unwrap_or(0) + 1) as usize;
    for i in (0..len).rev() {
        out[i] = b'0' + (v % 10) as u8;
        v /= 10;
    }
    len
}

/// `grundy period` as text.
pub fn period_text(
    out: &mut impl Write,
    family: &dyn grundy::family::Family,
    report: &grundy::period::PeriodReport,
) -> io::Result<()> {
    match &report.periodicity {
        Some(p) => {
            writeln!(
                out,
                "{}: preperiod {}, period {}, saltus {}",
                family.spec(),
                p.preperiod,
                p.period,
                p.saltus
            )?;
            writeln!(out, "{}", report.method)?;
            const SHOWN: usize = 200;
            let block: Vec<String> = p.block.iter().take(SHOWN).map(u32::to_string).collect();
            let more = if p.block.len() > SHOWN {
                format!(" ... ({} values; --json lists them all)", p.block.len())
            } else {
                String::new()
            };
            writeln!(out, "periodic block: {}{more}", block.join(" "))
        }
        None => writeln!(out, "{}: {}", family.spec(), report.method),
    }
}

/// `grundy period --json`.
pub fn period_json(
    out: &mut impl Write,
    family: &dyn grundy::family::Family,
    report: &grundy::period::PeriodReport,
) -> io::Result<()> {
    let object = grundy::json::period_object(family, report);
    writeln!(out, "{object}")
}

/// `grundy table`: rows of values, aligned, or `{"table": [[...]]}`.
pub fn table(out: &mut impl Write, rows: &[Vec<Value>], json: bool) -> io::Result<()> {
    if json {
        return writeln!(out, "{}", grundy::json::table_object(rows));
    }
    let width = rows
        .iter()
        .flatten()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1);
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .map(|v| format!("{:>width$}", v.to_string()))
            .collect();
        writeln!(out, "{}", cells.join(" "))?;
    }
    Ok(())
}

/// `grundy value --misere` as text.
pub fn misere_text(
    out: &mut impl Write,
    sum: &Sum,
    analysis: &grundy::misere::MisereAnalysis,
    shown: usize,
) -> io::Result<()> {
    component_lines(out, sum, &mut |i| {
        analysis
            .genera
            .get(i)
            .map(|g| format!("genus {g}"))
            .unwrap_or_default()
    })?;
    let who = match analysis.winner {
        grundy::sum::Winner::First => "first player wins",
        grundy::sum::Winner::Second => "second player wins",
        grundy::sum::Winner::Draw => "draw",
    };
    writeln!(
        out,
        "misère play (last mover loses; {}): {who}",
        analysis.method
    )?;
    for i in &analysis.unlisted {
        writeln!(
            out,
            "winning moves of [{}] are not listed: the heap has too many moves to list one by one",
            i + 1
        )?;
    }
    if analysis.winning_moves.is_empty() {
        // With moves asked for, a first-player win without one is a sum
        // with no moves at all; with none asked for, say nothing of them.
        if analysis.winner == grundy::sum::Winner::First
            && shown > 0
            && analysis.unlisted.is_empty()
        {
            writeln!(out, "no move is needed: the previous player moved last")?;
        }
        return Ok(());
    }
    let count = analysis.winning_moves.len();
    let noun = if count == 1 { "move" } else { "moves" };
    let plus = if analysis.truncated { "+" } else { "" };
    writeln!(out, "{count}{plus} winning {noun}:")?;
    move_list(out, sum, &analysis.winning_moves, shown, analysis.truncated)
}

/// `grundy value --misere --json`.
pub fn misere_json(
    out: &mut impl Write,
    sum: &Sum,
    analysis: &grundy::misere::MisereAnalysis,
) -> io::Result<()> {
    let object = grundy::json::misere_object(sum, analysis);
    writeln!(out, "{object}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_decimals_are_the_decimal_digits() {
        // Every value below 1000 comes from the table; the others, among
        // them 2^32 + 5 (whose low 32 bits are 5), are computed.
        let samples = (0..1200u64).chain([1 << 32, (1 << 32) + 5, 4_294_967_301, u64::MAX]);
        for v in samples {
            let mut out = [0u8; 24];
            let len = small_decimal(v, &mut out);
            assert_eq!(std::str::from_utf8(&out[..len]).unwrap(), v.to_string());
        }
    }
}
