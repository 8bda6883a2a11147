//! Tokenizing as BLEU sees text, and the C library's `log` and `exp` for NumPy arrays.

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::borrow::Cow;
use understudy_core::normalize::{UnicodeForm, UNICODE_VERSION};
use understudy_core::Tokenizer;

use crate::convert::borrow_all;
use crate::errors::Result;
use crate::families::make_bleu_config as make_config;

/// Tokenize lines exactly as BLEU sees them: tokens joined by single spaces.
#[pyfunction]
#[pyo3(signature = (lines, tokenizer, lowercase = false))]
pub fn tokenize(
    py: Python<'_>,
    lines: Vec<Bound<'_, PyString>>,
    tokenizer: &str,
    lowercase: bool,
) -> Result<Vec<String>> {
    let config = make_config(tokenizer, lowercase, 1)?;
    let borrowed = borrow_all(&lines)?;
    Ok(py.detach(|| config.tokenize_lines(&borrowed)))
}

/// `lines` in Unicode normalisation `form` (``none``, ``nfc``, ``nfkc``); a line already in
/// it is returned as the same object, and `None` (a missing reference) stays `None`.
#[pyfunction]
pub fn normalize<'py>(
    py: Python<'py>,
    lines: Vec<Option<Bound<'py, PyString>>>,
    form: &str,
) -> Result<Vec<Option<Bound<'py, PyString>>>> {
    let form: UnicodeForm = form.parse()?;
    if form == UnicodeForm::None {
        return Ok(lines);
    }
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        out.push(match line {
            Some(text) => match form.apply(text.to_str()?) {
                Cow::Borrowed(_) => Some(text),
                Cow::Owned(changed) => Some(PyString::new(py, &changed)),
            },
            None => None,
        });
    }
    Ok(out)
}

/// The Unicode normalisation forms' names, and the Unicode version they follow.
#[pyfunction]
pub fn unicode_forms() -> (Vec<&'static str>, String) {
    let (major, minor, patch) = UNICODE_VERSION;
    (
        UnicodeForm::NAMES.to_vec(),
        format!("{major}.{minor}.{patch}"),
    )
}

/// The names of the tokenizers implemented in Rust.
#[pyfunction]
pub fn tokenizer_names() -> Vec<&'static str> {
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
pub fn ln<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    map_f64(py, values, f64::ln)
}

/// Elementwise exponential through the C library, as `math.exp` computes it.
#[pyfunction]
pub fn exp<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    map_f64(py, values, f64::exp)
}

/// The line of each segment of a flat batch of integer tokens (token ids): segment `i` is
/// `ids[bounds[i]:bounds[i + 1]]`, each id written as one word no word tokenizer changes
/// (`17`; `n5` for -5), joined by single spaces.
#[pyfunction]
#[pyo3(signature = (ids, bounds, threads = 1))]
pub fn id_lines(
    py: Python<'_>,
    ids: PyReadonlyArray1<'_, i64>,
    bounds: PyReadonlyArray1<'_, i64>,
    threads: usize,
) -> PyResult<Vec<String>> {
    crate::convert::id_lines(py, threads, &ids, &bounds)
}
