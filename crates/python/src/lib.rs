//! `understudy._core`: the Python face of understudy-core.
//!
//! Only conversion lives here: Python lists in, NumPy arrays out, the GIL released for
//! the work, and core errors raised as the exception classes of `understudy.errors`.

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use understudy_core::{Config, CoreError, References, Tokenizer};

/// Raise a core error as the matching class from `understudy.errors`.
fn to_py_err(py: Python<'_>, err: CoreError) -> PyErr {
    let class = match err {
        CoreError::UnknownTokenizer(_) | CoreError::InvalidOrder(_) => "ConfigError",
        CoreError::LengthMismatch { .. } => "LengthMismatchError",
        CoreError::NoReference { .. } | CoreError::NoReferenceStreams => "NoReferenceError",
    };
    let message = err.to_string();
    match py
        .import("understudy.errors")
        .and_then(|m| m.getattr(class))
    {
        Ok(cls) => PyErr::from_type(cls.cast_into().expect("exception class"), message),
        Err(_) => PyValueError::new_err(message),
    }
}

fn make_config(
    py: Python<'_>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
) -> PyResult<Config> {
    let tok: Tokenizer = tokenizer.parse().map_err(|e| to_py_err(py, e))?;
    Config::new(tok, lowercase, max_order).map_err(|e| to_py_err(py, e))
}

/// Reference streams tokenized and counted once, to score any number of systems.
#[pyclass(frozen, module = "understudy._core")]
struct RefCache {
    inner: References,
}

#[pymethods]
impl RefCache {
    #[new]
    #[pyo3(signature = (streams, tokenizer, lowercase, max_order))]
    fn new(
        py: Python<'_>,
        streams: Vec<Vec<Option<String>>>,
        tokenizer: &str,
        lowercase: bool,
        max_order: usize,
    ) -> PyResult<Self> {
        let config = make_config(py, tokenizer, lowercase, max_order)?;
        let inner = py
            .detach(|| {
                let borrowed: Vec<Vec<Option<&str>>> = streams
                    .iter()
                    .map(|s| s.iter().map(|r| r.as_deref()).collect())
                    .collect();
                References::new(config, &borrowed)
            })
            .map_err(|e| to_py_err(py, e))?;
        Ok(RefCache { inner })
    }

    /// Statistics rows `(len(hyps), 2 + 2 * max_order)` as int64.
    fn stats<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<String>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let width = self.inner.config().row_width();
        let n = hyps.len();
        let flat = py
            .detach(|| {
                let borrowed: Vec<&str> = hyps.iter().map(String::as_str).collect();
                self.inner.stats(&borrowed)
            })
            .map_err(|e| to_py_err(py, e))?;
        flat.into_pyarray(py).reshape([n, width])
    }

    /// Number of segments.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Number of references (not None) of each segment.
    fn refs_per_segment(&self) -> Vec<usize> {
        self.inner.refs_per_segment().to_vec()
    }
}

/// Tokenize lines exactly as BLEU sees them: tokens joined by single spaces.
#[pyfunction]
#[pyo3(signature = (lines, tokenizer, lowercase = false))]
fn tokenize(
    py: Python<'_>,
    lines: Vec<String>,
    tokenizer: &str,
    lowercase: bool,
) -> PyResult<Vec<String>> {
    let config = make_config(py, tokenizer, lowercase, 1)?;
    Ok(py.detach(|| lines.iter().map(|l| config.preprocess(l)).collect()))
}

/// The names of the tokenizers implemented in Rust.
#[pyfunction]
fn tokenizer_names() -> Vec<&'static str> {
    Tokenizer::NAMES.to_vec()
}

fn map_f64<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, f64>,
    f: fn(f64) -> f64,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let out: Vec<f64> = values.as_array().iter().map(|&v| f(v)).collect();
    Ok(out.into_pyarray(py))
}

/// Elementwise natural log through the C library, as `math.log` computes it.
///
/// NumPy's SIMD `log` can differ from the C library in the last bit; sacrebleu uses
/// `math.log`, so bit-identical scores need the C library's.
#[pyfunction]
fn ln<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    map_f64(py, values, f64::ln)
}

/// Elementwise exponential through the C library, as `math.exp` computes it.
#[pyfunction]
fn exp<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    map_f64(py, values, f64::exp)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RefCache>()?;
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(tokenizer_names, m)?)?;
    m.add_function(wrap_pyfunction!(ln, m)?)?;
    m.add_function(wrap_pyfunction!(exp, m)?)?;
    Ok(())
}
