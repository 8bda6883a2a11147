//! Resegmentation: each document's hypothesis text cut into its reference lines.

use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::Mutex;
use understudy_core::segmentation::{self as core, Case, Method, Split};
use understudy_core::CoreError;

use crate::analysis::interruptible;
use crate::convert::borrow_all;
use crate::errors::Result;

/// Each document's hypothesis (`hyps[d]`, any segmentation) cut into as many segments as the
/// references have lines for it (`sizes[d]` lines of every reference stream in `refs`, in
/// order), `how` being the (split, case, method) by name: one string a reference line, its
/// words joined by single spaces. The GIL is released; Ctrl-C stops the work; `progress(done, total)`, if given, is told the segments of
/// work done (each line counts twice: the forward pass and the trace back).
#[pyfunction]
#[pyo3(signature = (refs, hyps, sizes, how, progress=None))]
pub fn resegment<'py>(
    py: Python<'py>,
    refs: Vec<Vec<Bound<'py, PyString>>>,
    hyps: Vec<Bound<'py, PyString>>,
    sizes: Vec<usize>,
    how: (String, String, String),
    progress: Option<Py<PyAny>>,
) -> Result<Vec<String>> {
    let (split, case, method) = how;
    let method = Method::parse(&method)?;
    let words = (Split::parse(&split)?, Case::parse(&case)?);
    let streams = refs
        .iter()
        .map(|s| borrow_all(s))
        .collect::<PyResult<Vec<_>>>()?;
    let hyps = borrow_all(&hyps)?;
    let lines = check(&streams, hyps.len(), &sizes)?;
    let total = 2 * lines;
    // What the progress callback raised (Ctrl-C arrives there as often as in the signal check).
    let failed: Mutex<Option<PyErr>> = Mutex::new(None);
    let out = interruptible(py, |stop| {
        let mut done = 0;
        let mut tick = |count: usize| {
            done += count;
            if let Some(progress) = &progress {
                let told = Python::attach(|py| progress.call1(py, (done, total)).map(|_| ()));
                if let Err(err) = told {
                    if let Ok(mut slot) = failed.lock() {
                        *slot = Some(err);
                    }
                    return true;
                }
            }
            stop()
        };
        let mut out = Vec::with_capacity(lines);
        let mut start = 0;
        for (hyp, &size) in hyps.iter().zip(&sizes) {
            let part: Vec<Vec<&str>> = streams
                .iter()
                .map(|s| s[start..start + size].to_vec())
                .collect();
            out.extend(core::resegment(&part, hyp, words, method, &mut tick)?);
            start += size;
        }
        Ok(out)
    });
    match (out, failed.into_inner().ok().flatten()) {
        (Err(_), Some(err)) => Err(err.into()),
        (out, _) => out,
    }
}

/// The number of reference lines, after checking that every stream has the documents' lines
/// and that there is a hypothesis for each document.
fn check(
    streams: &[Vec<&str>],
    hyps: usize,
    sizes: &[usize],
) -> std::result::Result<usize, CoreError> {
    let lines: usize = sizes.iter().sum();
    if let Some(stream) = streams.iter().find(|s| s.len() != lines) {
        return Err(CoreError::LengthMismatch {
            what: "the documents' reference lines".into(),
            expected: lines,
            other: "a reference stream".into(),
            found: stream.len(),
        });
    }
    if hyps != sizes.len() {
        return Err(CoreError::LengthMismatch {
            what: "documents".into(),
            expected: sizes.len(),
            other: "hypothesis documents".into(),
            found: hyps,
        });
    }
    Ok(lines)
}

/// The resegmentation methods' names.
#[pyfunction]
pub fn resegment_methods() -> Vec<&'static str> {
    Method::NAMES.to_vec()
}
