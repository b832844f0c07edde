//! Games defined in Python: a `grundy.Game` subclass as a library
//! [`Game`], solved by the library's memo through
//! [`CallbackFamily`] (as scripts are), so cycles get generalised values and
//! the state budget applies.
//!
//! Positions cross as values: Python ints, strings and tuples (and lists,
//! which come back as tuples) become [`Position::Int`], [`Position::Text`]
//! and [`Position::List`]; any other hashable object is kept in the game's
//! [`Interner`] and crosses as a [`Position::Opaque`] handle, so results give
//! back the very objects `moves` returned.
//!
//! An exception raised by the game's code is kept (with its traceback) in an
//! [`ErrorSlot`]; the solve stops, and the exception is raised again to the
//! caller as it was.

use grundy::error::{Error, Result};
use grundy::family::Settings;
use grundy::game::{Game, Parts, Syntax};
use grundy::games::callback::{CallbackFamily, Callbacks};
use grundy::Position;
use num_bigint::BigInt;
use pyo3::exceptions::{PyKeyboardInterrupt, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString, PyTuple};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// `grundy.Sum([a, b])`: a move that leaves several independent components.
#[pyclass(name = "Sum", module = "grundy", frozen)]
pub struct PySum {
    parts: Vec<PyObject>,
}

#[pymethods]
impl PySum {
    #[new]
    fn new(parts: &Bound<'_, PyAny>) -> PyResult<Self> {
        let parts = parts
            .try_iter()?
            .map(|p| p.map(Bound::unbind))
            .collect::<PyResult<Vec<_>>>()?;
        Ok(PySum { parts })
    }

    /// The components the move leaves.
    #[getter]
    fn parts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.parts.iter().map(|p| p.bind(py)))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let parts: Vec<String> = self
            .parts
            .iter()
            .map(|p| p.bind(py).repr().map(|r| r.to_string()))
            .collect::<PyResult<_>>()?;
        Ok(format!("Sum([{}])", parts.join(", ")))
    }

    fn __len__(&self) -> usize {
        self.parts.len()
    }
}

/// The Python objects a game's positions stand for, and their handles.
pub struct Interner {
    objects: RefCell<Vec<PyObject>>,
    /// object -> handle (a Python dict: Python's own hashing and equality).
    handles: Py<PyDict>,
}

impl Interner {
    fn new(py: Python<'_>) -> Self {
        Interner {
            objects: RefCell::new(Vec::new()),
            handles: PyDict::new(py).unbind(),
        }
    }

    /// A Python value as a position.
    pub fn to_position(&self, py: Python<'_>, object: &Bound<'_, PyAny>) -> PyResult<Position> {
        if let Ok(n) = object.downcast_exact::<PyInt>() {
            return Ok(match n.extract::<i64>() {
                Ok(n) => Position::from(n),
                Err(_) => Position::Int(n.extract::<BigInt>()?),
            });
        }
        if let Ok(s) = object.downcast_exact::<PyString>() {
            return Ok(Position::Text(s.to_cow()?.into_owned()));
        }
        if let Ok(items) = object.downcast_exact::<PyTuple>() {
            return items
                .iter()
                .map(|item| self.to_position(py, &item))
                .collect::<PyResult<_>>()
                .map(Position::List);
        }
        if let Ok(items) = object.downcast_exact::<PyList>() {
            return items
                .iter()
                .map(|item| self.to_position(py, &item))
                .collect::<PyResult<_>>()
                .map(Position::List);
        }
        let handles = self.handles.bind(py);
        if let Some(handle) = handles.get_item(object).map_err(|e| {
            if e.is_instance_of::<PyTypeError>(py) {
                PyTypeError::new_err(format!(
                    "a position must be hashable (an int, str, tuple, frozenset, ...), not {}",
                    object
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                ))
            } else {
                e
            }
        })? {
            return Ok(Position::Opaque(handle.extract()?));
        }
        let mut objects = self.objects.borrow_mut();
        let handle = objects.len() as u64;
        handles.set_item(object, handle)?;
        objects.push(object.clone().unbind());
        Ok(Position::Opaque(handle))
    }

    /// A position as the Python value it stands for (lists as tuples).
    pub fn to_object(&self, py: Python<'_>, position: &Position) -> PyResult<PyObject> {
        Ok(match position {
            Position::Int(n) => match i64::try_from(n) {
                Ok(small) => small.into_pyobject(py)?.into_any().unbind(),
                Err(_) => n.into_pyobject(py)?.into_any().unbind(),
            },
            Position::Text(s) => PyString::new(py, s).into_any().unbind(),
            Position::List(items) => {
                let items = items
                    .iter()
                    .map(|p| self.to_object(py, p))
                    .collect::<PyResult<Vec<_>>>()?;
                PyTuple::new(py, items)?.into_any().unbind()
            }
            Position::Opaque(handle) => self
                .objects
                .borrow()
                .get(*handle as usize)
                .map(|o| o.clone_ref(py))
                .ok_or_else(|| PyTypeError::new_err("not a position of this game"))?,
        })
    }
}

/// Where a game keeps the first exception its Python code raised.
#[derive(Clone, Default)]
pub struct ErrorSlot(Rc<RefCell<Option<PyErr>>>);

impl ErrorSlot {
    fn keep(&self, error: PyErr) {
        let mut slot = self.0.borrow_mut();
        if slot.is_none() {
            *slot = Some(error);
        }
    }

    fn failed(&self) -> bool {
        self.0.borrow().is_some()
    }

    /// The Python exception if the game raised one, else `result` with the
    /// library's error as a Python exception.
    pub fn finish<T>(&self, result: Result<T>) -> PyResult<T> {
        self.raise()?;
        result.map_err(crate::py_error)
    }

    /// Raises the kept exception, if any.
    pub fn raise(&self) -> PyResult<()> {
        match self.0.borrow_mut().take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// A `grundy.Game` instance as a library game.
pub struct PyGame {
    object: PyObject,
    name: String,
    has_components: bool,
    has_canonical: bool,
    has_parse: bool,
    interner: Rc<Interner>,
    error: ErrorSlot,
    /// Set on Ctrl-C by the thread waiting for the work.
    interrupted: Arc<AtomicBool>,
}

/// Stands in, inside the library, for the Python exception kept in the slot.
fn python_raised() -> Error {
    Error::invalid("the game's Python code raised an exception")
}

impl PyGame {
    fn position_of(&self, py: Python<'_>, object: &Bound<'_, PyAny>) -> PyResult<Position> {
        self.interner.to_position(py, object)
    }

    fn object_of(&self, py: Python<'_>, position: &Position) -> PyResult<PyObject> {
        self.interner.to_object(py, position)
    }

    fn try_options(
        &self,
        py: Python<'_>,
        position: &Position,
        out: &mut Vec<Parts<Position>>,
    ) -> PyResult<()> {
        let argument = self.object_of(py, position)?;
        let options = self.object.bind(py).call_method1("moves", (argument,))?;
        for option in options.try_iter()? {
            let option = option?;
            if let Ok(sum) = option.downcast::<PySum>() {
                let parts = sum
                    .get()
                    .parts
                    .iter()
                    .map(|p| self.position_of(py, p.bind(py)))
                    .collect::<PyResult<Parts<_>>>()?;
                out.push(parts);
            } else {
                let mut parts = Parts::new();
                parts.push(self.position_of(py, &option)?);
                out.push(parts);
            }
        }
        Ok(())
    }

    fn try_components(&self, py: Python<'_>, position: &Position) -> PyResult<Parts<Position>> {
        let argument = self.object_of(py, position)?;
        let parts = self
            .object
            .bind(py)
            .call_method1("components", (argument,))?;
        parts
            .try_iter()?
            .map(|p| self.position_of(py, &p?))
            .collect()
    }

    fn try_canonical(&self, py: Python<'_>, position: &Position) -> PyResult<Position> {
        let argument = self.object_of(py, position)?;
        let canonical = self
            .object
            .bind(py)
            .call_method1("canonical", (argument,))?;
        self.position_of(py, &canonical)
    }
}

impl Game for PyGame {
    type Position = Position;

    fn options(&self, position: &Position, out: &mut Vec<Parts<Position>>) {
        if self.error.failed() {
            return;
        }
        if self.interrupted.load(Ordering::Relaxed) {
            self.error.keep(PyKeyboardInterrupt::new_err("interrupted"));
            return;
        }
        Python::with_gil(|py| {
            if let Err(e) = self.try_options(py, position, out) {
                out.clear();
                self.error.keep(e);
            }
        })
    }

    fn components(&self, position: &Position) -> Parts<Position> {
        if self.has_components && !self.error.failed() {
            let parts = Python::with_gil(|py| self.try_components(py, position));
            match parts {
                Ok(parts) => return parts,
                Err(e) => self.error.keep(e),
            }
        }
        let mut parts = Parts::new();
        parts.push(position.clone());
        parts
    }

    fn canonical(&self, position: Position) -> Position {
        if !self.has_canonical || self.error.failed() {
            return position;
        }
        match Python::with_gil(|py| self.try_canonical(py, &position)) {
            Ok(canonical) => canonical,
            Err(e) => {
                self.error.keep(e);
                position
            }
        }
    }
}

impl Syntax for PyGame {
    fn parse_position(&self, text: &str) -> Result<Position> {
        Python::with_gil(|py| {
            if self.has_parse {
                let parsed = self
                    .object
                    .bind(py)
                    .call_method1("parse", (text,))
                    .and_then(|p| self.position_of(py, &p));
                return parsed.map_err(|e| {
                    self.error.keep(e);
                    python_raised()
                });
            }
            let trimmed = text.trim();
            Ok(match trimmed.parse::<BigInt>() {
                Ok(n) => Position::Int(n),
                Err(_) => Position::Text(trimmed.to_string()),
            })
        })
    }

    fn format_position(&self, position: &Position) -> String {
        fn has_opaque(position: &Position) -> bool {
            match position {
                Position::Opaque(_) => true,
                Position::List(items) => items.iter().any(has_opaque),
                _ => false,
            }
        }
        if !has_opaque(position) {
            return position.to_string();
        }
        Python::with_gil(|py| {
            self.object_of(py, position)
                .and_then(|o| o.bind(py).repr().map(|r| r.to_string()))
                .unwrap_or_else(|_| position.to_string())
        })
    }
}

impl Callbacks for PyGame {
    fn take_error(&self) -> Option<Error> {
        // The exception itself stays in the slot for the caller to raise.
        self.error.failed().then(python_raised)
    }
}

/// Whether `object`'s class defines `method` (beyond `grundy.Game`'s stubs,
/// which set `_grundy_default = True`).
fn defines(object: &Bound<'_, PyAny>, method: &str) -> bool {
    match object.getattr(method) {
        Ok(m) => !m
            .getattr("_grundy_default")
            .and_then(|d| d.is_truthy())
            .unwrap_or(false),
        Err(_) => false,
    }
}

/// A family for a `grundy.Game` instance, with its interner and error slot.
pub fn family(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    settings: Settings,
    interrupted: Arc<AtomicBool>,
) -> PyResult<(CallbackFamily<PyGame>, Rc<Interner>, ErrorSlot)> {
    if !defines(game, "moves") {
        return Err(PyTypeError::new_err(format!(
            "a game is a spec string (\"nim\", \"sub:1,2,3\") or an object with a moves(pos) method (a grundy.Game subclass), not {}",
            game.repr()?
        )));
    }
    let name = match game.getattr("name") {
        Ok(n) if !n.is_none() => n.str()?.to_string(),
        _ => game.get_type().name()?.to_string(),
    };
    let interner = Rc::new(Interner::new(py));
    let error = ErrorSlot::default();
    let pygame = PyGame {
        object: game.clone().unbind(),
        name: name.clone(),
        has_components: defines(game, "components"),
        has_canonical: defines(game, "canonical"),
        has_parse: defines(game, "parse"),
        interner: interner.clone(),
        error: error.clone(),
        interrupted,
    };
    let family = CallbackFamily::new(pygame.name.clone(), pygame, settings, true);
    Ok((family, interner, error))
}
