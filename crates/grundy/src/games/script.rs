//! Games defined in a Rhai script (`script:FILE`): the script's `moves(pos)`
//! returns the options of a position, and the engine does the rest.
//!
//! Positions are integers, strings or arrays of those (a square `[r, c]` is
//! one position). A move that leaves several independent components returns
//! `sum([p1, p2, ...])`. Optional functions: `parse(text)` (what a person
//! typed, to a position; by default an integer if it is one, comma-separated
//! integers as an array, else the string), `show(pos)` (drawn in `play`),
//! `components(pos)` (independent parts of a position) and `name()`.
//!
//! `parse` is applied only to text a person typed: positions the engine
//! produces (the script's own moves) travel as values
//! ([`Position`]), so a `parse` that builds a richer position from a
//! number (`[n, 0]`) never sees the engine's writing of that position.
//!
//! Scripts are sandboxed: Rhai has no file, network or process access, and
//! every call is bounded in operations, call depth, array and string size, so
//! a runaway script stops with an error naming the file, line and column.
//! `moves` is called once per position: the solver memoises its answers.

use crate::error::{Error, Result};
use crate::family::Settings;
use crate::game::{Game, Parts, Syntax};
use crate::games::callback::{CallbackFamily, Callbacks};
use crate::position::{AsPosition, Position};
use rhai::{Array, Dynamic, Engine, EvalAltResult, Scope, AST};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The most operations one call of a script function may take.
pub const MAX_OPERATIONS: u64 = 50_000_000;

/// The most items an array may hold in one call of `moves`, `components`,
/// `parse` or `show`, counting the items of arrays inside it (a square
/// `[r, c]` counts 3 in a list of squares; a `sum([...])` counts 1). It is
/// lowered to the state budget (`--max-states`) when that is smaller, but
/// not below [`MIN_ARRAY_ITEMS`]: a move list longer than the budget cannot
/// be searched anyway.
///
/// Rhai measures the whole array again after each change, so building an
/// array of n items costs about n²/2 steps: this bound keeps one call within
/// a second or so, where a move list of 10^18 options would otherwise run
/// for hours.
pub const MAX_ARRAY_ITEMS: usize = 20_000;

/// The least the array bound of a call is lowered to by a small state
/// budget, so that positions that are arrays still fit.
pub const MIN_ARRAY_ITEMS: usize = 100;

/// The most items an array may hold in `table()`, whose rows list a whole
/// board (a 400x400 board of squares is 480,400 items).
pub const MAX_TABLE_ITEMS: usize = 1_000_000;

/// A position of a scripted game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScriptPosition {
    /// An integer.
    Int(i64),
    /// A string.
    Text(String),
    /// An array of positions (a square, a board).
    List(Vec<ScriptPosition>),
}

impl AsPosition for ScriptPosition {
    fn to_position(&self) -> Position {
        match self {
            ScriptPosition::Int(n) => Position::from(*n),
            ScriptPosition::Text(s) => Position::Text(s.clone()),
            ScriptPosition::List(items) => {
                Position::List(items.iter().map(AsPosition::to_position).collect())
            }
        }
    }

    fn from_position(position: &Position) -> Option<Self> {
        Some(match position {
            Position::Int(_) => ScriptPosition::Int(i64::from_position(position)?),
            Position::Text(s) => ScriptPosition::Text(s.clone()),
            Position::List(items) => ScriptPosition::List(
                items
                    .iter()
                    .map(ScriptPosition::from_position)
                    .collect::<Option<_>>()?,
            ),
            Position::Opaque(_) => return None,
        })
    }
}

/// What `sum([...])` returns in a script: several components left by one move.
#[derive(Debug, Clone)]
struct SumOf(Array);

/// A game whose moves a script defines.
pub struct ScriptGame {
    path: String,
    /// The engine; its array bound is set for each call (a table may be
    /// larger than a move list).
    engine: RefCell<Engine>,
    /// The array bound of every call but `table()`: [`MAX_ARRAY_ITEMS`], or
    /// the state budget when that is smaller (not below [`MIN_ARRAY_ITEMS`]).
    array_bound: usize,
    ast: AST,
    has: Functions,
    /// The first error met inside `options`, which cannot return one.
    error: RefCell<Option<Error>>,
    /// The flag that stops a running script (Ctrl-C, a server's deadline),
    /// looked at by the engine every [`STOP_CHECK`] operations.
    stop: Arc<Mutex<Option<Arc<AtomicBool>>>>,
}

/// How many script operations run between looks at the stop flag. An
/// operation on a large array costs a walk over it (Rhai measures it again),
/// so 256 of them stay within about a second even at a table's bound.
const STOP_CHECK: u64 = 256;

/// A Rhai value's type as the script's language names it (`integer`, not
/// Rust's `i64`), with its article.
fn type_in_words(value: &Dynamic) -> String {
    if value.is_int() {
        "an integer".into()
    } else if value.is_float() {
        "a floating-point number".into()
    } else if value.is_bool() {
        "a boolean".into()
    } else if value.is_char() {
        "a character".into()
    } else if value.is_string() {
        "a string".into()
    } else if value.is_array() {
        "an array".into()
    } else if value.is_map() {
        "an object map".into()
    } else if value.is_unit() {
        "nothing (the unit value ())".into()
    } else if value.is::<SumOf>() {
        "a sum(...)".into()
    } else {
        format!("a {}", value.type_name())
    }
}

/// Rust's type names in Rhai's messages, in the script's words.
fn rhai_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(match word.as_str() {
            "i64" | "i32" | "INT" => "integer",
            "f64" | "f32" | "FLOAT" => "floating-point number",
            "ImmutableString" | "String" => "string",
            "bool" => "boolean",
            "SumOf" => "Sum",
            other => other,
        });
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out.replace("&str", "string")
        .replace("grundy::games::script::Sum", "Sum")
}

#[derive(Debug, Default, Clone, Copy)]
struct Functions {
    parse: bool,
    show: bool,
    components: bool,
    name: bool,
    table: bool,
}

impl ScriptGame {
    /// Loads and compiles the script at `path`.
    pub fn load(path: &str) -> Result<Self> {
        let source = std::fs::read_to_string(path)
            .map_err(|e| Error::Io(format!("cannot read script {path}: {e}")))?;
        Self::compile(path, &source)
    }

    /// Compiles `source`, naming it `path` in errors.
    pub fn compile(path: &str, source: &str) -> Result<Self> {
        let mut engine = Engine::new();
        engine.set_max_operations(MAX_OPERATIONS);
        engine.set_max_call_levels(64);
        engine.set_max_expr_depths(128, 128);
        engine.set_max_array_size(MAX_ARRAY_ITEMS);
        engine.set_max_string_size(10_000_000);
        engine.set_max_map_size(100_000);
        engine.set_max_variables(10_000);
        // Output would corrupt the line protocol of `play`.
        engine.on_print(|_| {});
        engine.on_debug(|_, _, _| {});
        let stop: Arc<Mutex<Option<Arc<AtomicBool>>>> = Arc::new(Mutex::new(None));
        let watched = stop.clone();
        engine.on_progress(move |operations| {
            if operations % STOP_CHECK != 0 {
                return None;
            }
            let flag = watched.lock().ok()?;
            let stopped = flag.as_ref()?.load(Ordering::Relaxed);
            stopped.then_some(Dynamic::UNIT)
        });
        engine.register_type_with_name::<SumOf>("Sum");
        engine.register_fn("sum", SumOf);
        let ast = engine.compile(source).map_err(|e| {
            let position = e.position();
            Error::invalid(format!(
                "{path}:{}:{}: {}",
                position.line().unwrap_or(0),
                position.position().unwrap_or(0),
                e.err_type()
            ))
        })?;
        let mut has = Functions::default();
        let mut moves = false;
        for f in ast.iter_functions() {
            match (f.name, f.params.len()) {
                ("moves", 1) => moves = true,
                ("parse", 1) => has.parse = true,
                ("show", 1) => has.show = true,
                ("components", 1) => has.components = true,
                ("name", 0) => has.name = true,
                ("table", 0) => has.table = true,
                _ => {}
            }
        }
        if !moves {
            return Err(Error::invalid(format!(
                "{path}: the script must define fn moves(pos), returning an array of options"
            )));
        }
        Ok(ScriptGame {
            path: path.to_string(),
            engine: RefCell::new(engine),
            array_bound: MAX_ARRAY_ITEMS,
            ast,
            has,
            error: RefCell::new(None),
            stop,
        })
    }

    /// Lowers the array bound of every call but `table()` to `max_states`
    /// (the state budget) when that is below [`MAX_ARRAY_ITEMS`], but not
    /// below [`MIN_ARRAY_ITEMS`].
    pub fn bound_arrays_by_states(&mut self, max_states: usize) {
        self.array_bound = max_states.clamp(MIN_ARRAY_ITEMS, MAX_ARRAY_ITEMS);
    }

    /// The array bound of a call of `function`.
    fn array_bound_of(&self, function: &str) -> usize {
        if function == "table" {
            MAX_TABLE_ITEMS
        } else {
            self.array_bound
        }
    }

    /// Makes every later call of the script stop soon after `flag` is set.
    pub fn set_stop_flag(&self, flag: Arc<AtomicBool>) {
        if let Ok(mut slot) = self.stop.lock() {
            *slot = Some(flag);
        }
    }

    fn call(&self, function: &str, args: impl rhai::FuncArgs) -> Result<Dynamic> {
        let mut scope = Scope::new();
        let bound = self.array_bound_of(function);
        // No call of the script runs while another does (the script calls
        // only `sum` back), so the engine is free to change here.
        if let Ok(mut engine) = self.engine.try_borrow_mut() {
            engine.set_max_array_size(bound);
        }
        let engine = self.engine.borrow();
        engine
            .call_fn::<Dynamic>(&mut scope, &self.ast, function, args)
            .map_err(|e| self.script_error(function, *e))
    }

    /// A script's runtime error as one line: the file, the line and column
    /// where Rhai knows them, the innermost function it was in, and what
    /// went wrong in the script's words. (Rhai gives no place for running
    /// out of operations or of call depth: those name the function called.)
    fn script_error(&self, function: &str, error: EvalAltResult) -> Error {
        // Errors inside functions the script calls come wrapped, one layer
        // a call: the innermost one has the place.
        let mut inner = function.to_string();
        let mut error = error;
        let mut place = error.position();
        while let EvalAltResult::ErrorInFunctionCall(name, _, cause, at) = error {
            inner = name;
            if !at.is_none() {
                place = at;
            }
            error = *cause;
            if !error.position().is_none() {
                place = error.position();
            }
        }
        let what = match &error {
            EvalAltResult::ErrorTerminated(..) => {
                return Error::Interrupted(format!("interrupted while {inner} ran"));
            }
            EvalAltResult::ErrorTooManyOperations(_) => format!(
                "ran for more than {MAX_OPERATIONS} operations in one call (an endless loop?)"
            ),
            EvalAltResult::ErrorDataTooLarge(what, _) if what.starts_with("Size of array") => {
                let bound = self.array_bound_of(function);
                if function == "table" {
                    format!("an array grew past {bound} items (items of arrays inside count too), the most a table may list")
                } else if bound < MAX_ARRAY_ITEMS {
                    format!("an array grew past {bound} items (items of arrays inside count too), more than the state budget lets one call build (--max-states); return fewer options, or raise --max-states")
                } else {
                    format!("an array grew past {bound} items (items of arrays inside count too), the most one call may build; a move list that long cannot be searched: return fewer options, or split the position with sum([...]) or fn components")
                }
            }
            EvalAltResult::ErrorStackOverflow(_) => {
                "calls went too deep (more than 64 nested calls: endless recursion?)".to_string()
            }
            EvalAltResult::ErrorMismatchOutputType(wanted, got, _) => format!(
                "returned {}, where {} was wanted",
                rhai_words(got),
                rhai_words(wanted)
            ),
            // Rhai appends the position, which is printed in front instead.
            other => {
                let text = other.to_string();
                rhai_words(match text.rfind(" (line ") {
                    Some(at) => &text[..at],
                    None => &text,
                })
            }
        };
        let at = match (place.line(), place.position()) {
            (Some(line), Some(column)) => format!("{}:{line}:{column}", self.path),
            (Some(line), None) => format!("{}:{line}", self.path),
            _ => self.path.clone(),
        };
        Error::invalid(format!("{at}: in fn {inner}: {what}"))
    }

    fn position_of(&self, value: Dynamic) -> Result<ScriptPosition> {
        if value.is_int() {
            return Ok(ScriptPosition::Int(value.as_int().expect("an int")));
        }
        if value.is_string() {
            return Ok(ScriptPosition::Text(value.into_string().expect("a string")));
        }
        if value.is_array() {
            let items = value.into_array().expect("an array");
            return items
                .into_iter()
                .map(|v| self.position_of(v))
                .collect::<Result<_>>()
                .map(ScriptPosition::List);
        }
        Err(Error::invalid(format!(
            "{}: a position must be an integer, a string or an array, not {}",
            self.path,
            type_in_words(&value)
        )))
    }

    fn dynamic_of(position: &ScriptPosition) -> Dynamic {
        match position {
            ScriptPosition::Int(n) => Dynamic::from(*n),
            ScriptPosition::Text(s) => Dynamic::from(s.clone()),
            ScriptPosition::List(items) => {
                Dynamic::from_array(items.iter().map(Self::dynamic_of).collect())
            }
        }
    }

    /// The script's `name()`, if it has one.
    pub fn name(&self) -> Option<String> {
        if !self.has.name {
            return None;
        }
        self.call("name", ()).ok().map(|d| d.to_string())
    }

    /// The script's drawing of a position (`show`), or its text.
    pub fn show(&self, position: &ScriptPosition) -> String {
        if !self.has.show {
            return self.format_position(position);
        }
        self.call("show", (Self::dynamic_of(position),))
            .map(|d| d.to_string())
            .unwrap_or_else(|e| e.to_string())
    }

    /// The script's `table()`: rows of positions whose values `grundy table` prints.
    pub fn table_positions(&self) -> Result<Option<Vec<Vec<ScriptPosition>>>> {
        if !self.has.table {
            return Ok(None);
        }
        let rows = self.call("table", ())?;
        let bad = || {
            Error::invalid(format!(
                "{}: table() must return an array of rows (arrays of positions)",
                self.path
            ))
        };
        let rows = rows.try_cast::<Array>().ok_or_else(bad)?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let row = row.try_cast::<Array>().ok_or_else(bad)?;
            out.push(
                row.into_iter()
                    .map(|p| self.position_of(p))
                    .collect::<Result<Vec<_>>>()?,
            );
        }
        Ok(Some(out))
    }

    /// Takes the error met inside `options`, if any.
    pub fn take_error(&self) -> Option<Error> {
        self.error.borrow_mut().take()
    }

    fn try_options(
        &self,
        position: &ScriptPosition,
        out: &mut Vec<Parts<ScriptPosition>>,
    ) -> Result<()> {
        let result = self.call("moves", (Self::dynamic_of(position),))?;
        let Some(options) = result.clone().try_cast::<Array>() else {
            return Err(Error::invalid(format!(
                "{}: moves must return an array of options, not {}",
                self.path,
                type_in_words(&result)
            )));
        };
        for option in options {
            if let Some(SumOf(parts)) = option.clone().try_cast::<SumOf>() {
                let parts = parts
                    .into_iter()
                    .map(|p| self.position_of(p))
                    .collect::<Result<Parts<_>>>()?;
                out.push(parts);
            } else {
                let mut parts = Parts::new();
                parts.push(self.position_of(option)?);
                out.push(parts);
            }
        }
        Ok(())
    }
}

impl Game for ScriptGame {
    type Position = ScriptPosition;

    fn options(&self, position: &ScriptPosition, out: &mut Vec<Parts<ScriptPosition>>) {
        if self.error.borrow().is_some() {
            return;
        }
        if let Err(e) = self.try_options(position, out) {
            out.clear();
            *self.error.borrow_mut() = Some(e);
        }
    }

    fn components(&self, position: &ScriptPosition) -> Parts<ScriptPosition> {
        let whole = || {
            let mut parts = Parts::new();
            parts.push(position.clone());
            parts
        };
        if !self.has.components || self.error.borrow().is_some() {
            return whole();
        }
        let parts = self
            .call("components", (Self::dynamic_of(position),))
            .and_then(|d| {
                d.try_cast::<Array>().ok_or_else(|| {
                    Error::invalid(format!("{}: components must return an array", self.path))
                })
            })
            .and_then(|items| {
                items
                    .into_iter()
                    .map(|p| self.position_of(p))
                    .collect::<Result<Parts<_>>>()
            });
        match parts {
            Ok(parts) => parts,
            Err(e) => {
                *self.error.borrow_mut() = Some(e);
                whole()
            }
        }
    }
}

impl Syntax for ScriptGame {
    fn parse_position(&self, text: &str) -> Result<ScriptPosition> {
        if self.has.parse {
            let value = self.call("parse", (text.to_string(),))?;
            return self.position_of(value);
        }
        let text = text.trim();
        if let Ok(n) = text.parse::<i64>() {
            return Ok(ScriptPosition::Int(n));
        }
        if text.contains(',') {
            if let Ok(items) = text
                .split(',')
                .map(|p| p.trim().parse::<i64>())
                .collect::<std::result::Result<Vec<_>, _>>()
            {
                return Ok(ScriptPosition::List(
                    items.into_iter().map(ScriptPosition::Int).collect(),
                ));
            }
        }
        Ok(ScriptPosition::Text(text.to_string()))
    }

    fn format_position(&self, position: &ScriptPosition) -> String {
        match position {
            ScriptPosition::Int(n) => n.to_string(),
            ScriptPosition::Text(s) => s.clone(),
            ScriptPosition::List(items) => items
                .iter()
                .map(|item| match item {
                    ScriptPosition::List(_) => format!("[{}]", self.format_position(item)),
                    other => self.format_position(other),
                })
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

/// A scripted game as a family: the sparse memo, the script's errors and
/// generalised values for cyclic scripts ([`CallbackFamily`]), plus the
/// script's drawing and table.
pub struct ScriptFamily {
    inner: CallbackFamily<ScriptGame>,
}

impl Callbacks for ScriptGame {
    fn take_error(&self) -> Option<Error> {
        ScriptGame::take_error(self)
    }
}

impl ScriptFamily {
    /// Loads the script at `path`.
    pub fn load(path: &str, settings: Settings) -> Result<Self> {
        let mut game = ScriptGame::load(path)?;
        game.bound_arrays_by_states(settings.max_states);
        Ok(ScriptFamily {
            inner: CallbackFamily::new(format!("script:{path}"), game, settings, true),
        })
    }

    /// Compiles the script `source`, naming it `path`.
    pub fn compile(path: &str, source: &str, settings: Settings) -> Result<Self> {
        let mut game = ScriptGame::compile(path, source)?;
        game.bound_arrays_by_states(settings.max_states);
        Ok(ScriptFamily {
            inner: CallbackFamily::new(format!("script:{path}"), game, settings, true),
        })
    }
}

impl crate::family::Family for ScriptFamily {
    fn spec(&self) -> String {
        self.inner.spec()
    }
    fn parse(&self, text: &str) -> Result<Position> {
        self.inner.parse(text)
    }
    fn format(&self, position: &Position) -> String {
        self.inner.format(position)
    }
    fn value(&mut self, position: &Position) -> Result<crate::nimber::Value> {
        self.inner.value(position)
    }
    fn moves(&mut self, position: &Position) -> Result<Vec<crate::family::Move>> {
        self.inner.moves(position)
    }
    fn is_heap_game(&self) -> bool {
        true
    }
    fn configure_long_run(&mut self, run: crate::family::LongRun) {
        self.inner.game().set_stop_flag(run.interrupted.clone());
        self.inner.configure_long_run(run);
    }
    /// Heap n of a script is the position a person gets by typing `n`: the
    /// script's own `parse` decides what that is (`[n, 0]`, say).
    fn heap_position(&self, n: u64) -> Result<Position> {
        self.parse(&n.to_string())
    }
    fn show(&self, position: &Position) -> String {
        match self.inner.typed(position) {
            Ok(p) => self.inner.game().show(&p),
            Err(_) => position.to_string(),
        }
    }
    /// The first square of the table when the table lists squares `[r, c]`
    /// row by row, consecutively (as `[1, 1], [1, 2], ...`); else the
    /// table's own indices, from 0.
    fn table_origin(&self) -> [u64; 2] {
        let Ok(Some(rows)) = self.inner.game().table_positions() else {
            return [0, 0];
        };
        let square = |p: &ScriptPosition| match p {
            ScriptPosition::List(pair) => match pair.as_slice() {
                [ScriptPosition::Int(r), ScriptPosition::Int(c)] if *r >= 0 && *c >= 0 => {
                    Some([*r as u64, *c as u64])
                }
                _ => None,
            },
            _ => None,
        };
        let Some(first) = rows.first().and_then(|r| r.first()).and_then(square) else {
            return [0, 0];
        };
        let consecutive = rows.iter().enumerate().all(|(i, row)| {
            row.iter()
                .enumerate()
                .all(|(j, p)| square(p) == Some([first[0] + i as u64, first[1] + j as u64]))
        });
        if consecutive {
            first
        } else {
            [0, 0]
        }
    }

    fn table(&mut self) -> Result<Vec<Vec<crate::nimber::Value>>> {
        let Some(rows) = self.inner.game().table_positions()? else {
            return Err(Error::invalid(format!(
                "{} has no table: define fn table() returning rows of positions",
                self.spec()
            )));
        };
        rows.iter()
            .map(|row| row.iter().map(|p| self.value(&p.to_position())).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Family;

    fn family(source: &str) -> Result<ScriptFamily> {
        let game = ScriptGame::compile("test.rhai", source)?;
        Ok(ScriptFamily {
            inner: CallbackFamily::new(
                "script:test.rhai",
                game,
                Settings {
                    max_states: 100_000,
                    ..Settings::default()
                },
                true,
            ),
        })
    }

    #[test]
    fn kayles_in_a_script() {
        let mut f = family(
            "fn moves(n) { let out = []; for take in 1..=2 { if take <= n { for a in 0..=(n - take) / 2 { out.push(sum([a, n - take - a])); } } } out }",
        )
        .unwrap();
        // OEIS A002186.
        let values: Vec<u64> = (0..12)
            .map(|n| {
                f.value(&Position::from(n as i64))
                    .unwrap()
                    .as_u64()
                    .unwrap()
            })
            .collect();
        assert_eq!(values, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let e = family("fn moves(n) {\n  let x = ;\n}")
            .err()
            .unwrap()
            .to_string();
        assert!(e.starts_with("test.rhai:2:"), "{e}");
        let e = family("fn other(n) { [] }").err().unwrap().to_string();
        assert!(e.contains("must define fn moves"), "{e}");
        let mut f = family("fn moves(n) {\n  loop { }\n}").unwrap();
        let e = f.value(&Position::from(3i64)).unwrap_err().to_string();
        assert!(e.contains("operations"), "{e}");
        let mut f = family("fn moves(n) { [n + 0.5] }").unwrap();
        assert!(f
            .value(&Position::from(3i64))
            .unwrap_err()
            .to_string()
            .contains("integer, a string or an array"));
        let mut f = family("fn moves(n) { let a = []; a.pad(100000000, 0); a }").unwrap();
        assert!(f.value(&Position::from(3i64)).is_err());
    }

    #[test]
    fn cycles_get_generalised_values() {
        // 0 -> 1 -> 2 -> 0: nobody can ever win.
        let mut f = family("fn moves(n) { [(n + 1) % 3] }").unwrap();
        assert_eq!(
            f.value(&Position::from(0i64)).unwrap(),
            crate::nimber::Value::Infinite(vec![])
        );
        // 5 <-> 6, and 6 -> 0 (terminal): 6 moves to 0 and wins.
        let mut f =
            family("fn moves(n) { if n == 5 { [6] } else if n == 6 { [5, 0] } else { [] } }")
                .unwrap();
        assert_eq!(
            f.value(&Position::from(5i64)).unwrap(),
            crate::nimber::Value::finite(0)
        );
        assert_eq!(
            f.value(&Position::from(6i64)).unwrap(),
            crate::nimber::Value::finite(1)
        );
        assert_eq!(f.moves(&Position::from(6i64)).unwrap().len(), 2);
        // Cycles with splitting moves cannot be labelled.
        let mut f = family(
            "fn moves(n) { if n == 1 { [sum([2, 2])] } else if n == 2 { [1] } else { [] } }",
        )
        .unwrap();
        assert!(f
            .value(&Position::from(1i64))
            .unwrap_err()
            .to_string()
            .contains("several components"));
    }

    /// Codeforces 768E "Game of Stones": no pile may have the same number of
    /// stones removed twice. The position `[stones, used]` is built by the
    /// script's own `parse` from the number a person types, and the engine's
    /// positions never go back through it.
    const STONES: &str = "fn parse(text) { [parse_int(text), 0] }
fn moves(p) { let out = []; for k in 1..=p[0] { let bit = 1 << k; if (p[1] & bit) == 0 { out.push([p[0] - k, p[1] | bit]); } } out }";

    #[test]
    fn a_custom_parse_sees_only_typed_text() {
        let mut f = family(STONES).unwrap();
        let five = f.parse("5").unwrap();
        assert_eq!(
            five,
            Position::List(vec![Position::from(5i64), Position::from(0i64)])
        );
        assert_eq!(f.format(&five), "5,0");
        // The known solution of the problem: a pile of n has value k, the
        // largest k with 1 + 2 + ... + k <= n (each amount removed once).
        for n in 0..=24i64 {
            let pile = f.parse(&n.to_string()).unwrap();
            let k = (0..).take_while(|k| k * (k + 1) / 2 <= n).last().unwrap();
            assert_eq!(
                f.value(&pile).unwrap(),
                crate::nimber::Value::finite(k as u64),
                "{n}"
            );
        }
        // Moves leave [stones, used] positions, whose values are found
        // without calling parse on their text.
        let moves = f.moves(&five).unwrap();
        assert_eq!(moves.len(), 5);
        assert_eq!(f.format(&moves[0].to[0]), "4,2");
        for m in &moves {
            assert!(f.value(&m.to[0]).is_ok());
        }
    }

    #[test]
    fn arrays_are_bounded_per_call_and_tables_may_be_larger() {
        // Every split of n: far more options than one call may build.
        let split = "fn moves(n) { let out = []; for a in 1..n { out.push(sum([a, n - a])); } out }
fn table() { let rows = []; for r in 0..200 { let row = []; for c in 0..200 { row.push(r + c); } rows.push(row); } rows }";
        let mut f = family(split).unwrap();
        let e = f
            .value(&Position::from(1_000_000_000_000_000_000i64))
            .unwrap_err()
            .to_string();
        assert!(e.contains("an array grew past 20000 items"), "{e}");
        // A small state budget lowers the bound, to 100 at the least.
        for (states, bound) in [(5_000, 5_000), (5, 100), (usize::MAX, MAX_ARRAY_ITEMS)] {
            let mut game = ScriptGame::compile("test.rhai", split).unwrap();
            game.bound_arrays_by_states(states);
            assert_eq!(game.array_bound_of("moves"), bound);
            let mut out = Vec::new();
            assert!(game
                .try_options(&ScriptPosition::Int(bound as i64), &mut out)
                .is_ok());
            assert_eq!(out.len(), bound - 1);
            let e = game
                .try_options(&ScriptPosition::Int(bound as i64 + 2), &mut out)
                .unwrap_err()
                .to_string();
            assert!(e.contains(&format!("past {bound} items")), "{e}");
        }
        // A table of 40,000 squares is more than a move list may be.
        let rows = f.inner.game().table_positions().unwrap().unwrap();
        assert_eq!((rows.len(), rows[0].len()), (200, 200));
    }

    #[test]
    fn squares_round_trip() {
        let f = family("fn moves(p) { [] }").unwrap();
        assert_eq!(f.format(&f.parse("3, 4").unwrap()), "3,4");
        assert_eq!(f.format(&f.parse("7").unwrap()), "7");
        assert_eq!(f.format(&f.parse("..X").unwrap()), "..X");
    }
}
