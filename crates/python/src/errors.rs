//! Core errors as the exception classes of `understudy.errors`, through `From`
//! conversions so that `?` works on core and Python errors alike.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use understudy_core::CoreError;

/// An error from the core or from Python.
pub enum Error {
    Core(CoreError),
    Py(PyErr),
}

/// What the bindings return: `?` converts both kinds of error.
pub type Result<T> = std::result::Result<T, Error>;

impl From<CoreError> for Error {
    fn from(err: CoreError) -> Self {
        Error::Core(err)
    }
}

impl From<PyErr> for Error {
    fn from(err: PyErr) -> Self {
        Error::Py(err)
    }
}

impl From<Error> for PyErr {
    fn from(err: Error) -> PyErr {
        match err {
            Error::Py(err) => err,
            Error::Core(err) => Python::attach(|py| to_py_err(py, err)),
        }
    }
}

/// Raise a core error as the matching class from `understudy.errors`.
pub fn to_py_err(py: Python<'_>, err: CoreError) -> PyErr {
    if let CoreError::Interrupted = err {
        return pyo3::exceptions::PyKeyboardInterrupt::new_err("interrupted");
    }
    let class = match err {
        CoreError::UnknownChoice { .. }
        | CoreError::InvalidOrder(_)
        | CoreError::OrderTooLarge { .. } => "ConfigError",
        CoreError::TooManyReferences { .. }
        | CoreError::TerBeam
        | CoreError::SegmentTooLong { .. } => "InputError",
        CoreError::LengthMismatch { .. } => "LengthMismatchError",
        CoreError::NoReference { .. } | CoreError::NoReferenceStreams => "NoReferenceError",
        CoreError::Interrupted => "UnderstudyError",
    };
    typed(py, class, err.to_string())
}

/// `message` as the class `class` of `understudy.errors` (a `ValueError` if that module cannot
/// be imported).
pub fn typed(py: Python<'_>, class: &str, message: String) -> PyErr {
    match py
        .import("understudy.errors")
        .and_then(|m| m.getattr(class))
    {
        Ok(cls) => PyErr::from_type(cls.cast_into().expect("exception class"), message),
        Err(_) => PyValueError::new_err(message),
    }
}

/// A misuse of the binding's own API (an unknown family, a configuration it cannot read, rows
/// out of range): an `understudy.errors.ConfigError`, never a bare `KeyError` or `TypeError`.
pub fn config_error(message: String) -> Error {
    Error::Py(Python::attach(|py| typed(py, "ConfigError", message)))
}
