//! Tokenizing as BLEU sees text, and the C library's `log` and `exp` for NumPy arrays.

use numpy::{IntoPyArray, PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyList, PyString, PyTuple};
use std::borrow::Cow;
use understudy_core::text::normalize::{UnicodeForm, UNICODE_VERSION};
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

/// Every segment's token ids end to end, and the segments' bounds in them: for a list whose
/// items are all contiguous 1-D int64 or int32 arrays, or all lists or tuples of integers
/// within int64. `None` for anything else (strings, other dtypes, strided arrays, larger
/// integers), which Python lays out itself or walks token by token: this is only the fast
/// path of a reward batch, a few nanoseconds a segment where NumPy takes a hundred.
#[pyfunction]
pub fn flat_ids<'py>(
    py: Python<'py>,
    segments: &Bound<'py, PyList>,
) -> Option<(Ids<'py>, Ids<'py>)> {
    let mut ids: Vec<i64> = Vec::new();
    let mut bounds: Vec<i64> = Vec::with_capacity(segments.len() + 1);
    bounds.push(0);
    for segment in segments.iter() {
        append_ids(&segment, &mut ids)?;
        bounds.push(i64::try_from(ids.len()).ok()?);
    }
    Some((ids.into_pyarray(py), bounds.into_pyarray(py)))
}

/// A 1-D int64 array handed to Python.
type Ids<'py> = Bound<'py, PyArray1<i64>>;

/// Appends the ids of one segment (see [`flat_ids`]); `None` when it is not one of those kinds.
fn append_ids(segment: &Bound<'_, PyAny>, ids: &mut Vec<i64>) -> Option<()> {
    if let Ok(array) = segment.cast::<PyArray1<i64>>() {
        // SAFETY: the data is copied at once with the GIL held, so no Python code runs while it
        // is read; a native thread writing to it meanwhile would race np.concatenate as much.
        // The borrow-tracked view (`try_readonly`) costs six times the copy of a short segment.
        ids.extend_from_slice(unsafe { array.as_slice() }.ok()?);
    } else if let Ok(array) = segment.cast::<PyArray1<i32>>() {
        // SAFETY: as above.
        let view = unsafe { array.as_slice() }.ok()?;
        ids.extend(view.iter().map(|&id| i64::from(id)));
    } else if let Ok(list) = segment.cast::<PyList>() {
        for token in list.iter() {
            ids.push(int_token(&token)?);
        }
    } else {
        for token in segment.cast::<PyTuple>().ok()?.iter() {
            ids.push(int_token(&token)?);
        }
    }
    Some(())
}

/// An integer token within int64 (a Python int, a bool, a NumPy integer); `None` otherwise.
fn int_token(token: &Bound<'_, PyAny>) -> Option<i64> {
    if token.is_instance_of::<PyString>() || token.is_instance_of::<PyFloat>() {
        return None;
    }
    token.extract::<i64>().ok()
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
