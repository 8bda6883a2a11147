//! The report's corpus analyses: matched n-grams per corpus, matched tokens per hypothesis;
//! and the shared n-grams in order that NLTK's NIST sums.

use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyString;
use understudy_core::analysis::{self, overlaps};

use crate::convert::{borrow_all, borrow_streams, rows_array, Streams};
use crate::errors::Result;
use crate::families::make_bleu_config as make_config;
use std::sync::Mutex;
use understudy_core::{BleuConfig, CoreError};

/// BLEU's configuration and the borrowed text of both functions' arguments.
type Inputs<'a> = (BleuConfig, Vec<&'a str>, Vec<Vec<Option<&'a str>>>);

fn inputs<'a>(
    hyps: &'a [Bound<'_, PyString>],
    streams: &'a Streams<'_>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
) -> Result<Inputs<'a>> {
    let config = make_config(tokenizer, lowercase, max_order)?;
    Ok((config, borrow_all(hyps)?, borrow_streams(streams)?))
}

/// Corpus totals per n-gram (orders 1 to `max_order`), sorted: the n-grams (tokens
/// joined by single spaces) and a row `[in the hypotheses, in the references, matched]`
/// for each, BLEU's tokenization and clipping.
#[pyfunction]
#[pyo3(signature = (hyps, streams, tokenizer, lowercase, max_order))]
pub fn ngram_matches<'py>(
    py: Python<'py>,
    hyps: Vec<Bound<'py, PyString>>,
    streams: Streams<'py>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
) -> Result<(Vec<String>, Bound<'py, PyArray2<i64>>)> {
    let (config, hyps, streams) = inputs(&hyps, &streams, tokenizer, lowercase, max_order)?;
    let counts = interruptible(py, |stop| {
        analysis::ngram_matches(&config, &hyps, &streams, stop)
    })?;
    let flat = counts.counts.into_iter().flatten().collect();
    Ok((counts.ngrams, rows_array(py, flat, 3)?))
}

/// Each hypothesis as BLEU tokenizes it, and per token the order of the longest
/// n-gram covering it that a reference of its segment has (0: none).
#[pyfunction]
#[pyo3(signature = (hyps, streams, tokenizer, lowercase, max_order))]
pub fn matched_tokens<'py>(
    py: Python<'py>,
    hyps: Vec<Bound<'py, PyString>>,
    streams: Streams<'py>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
) -> Result<Vec<(String, Vec<u8>)>> {
    let (config, hyps, streams) = inputs(&hyps, &streams, tokenizer, lowercase, max_order)?;
    interruptible(py, |stop| {
        analysis::matched_tokens(&config, &hyps, &streams, stop)
    })
}

/// NLTK's NIST counts (see `understudy_core::analysis::overlaps`): the reference n-grams' counts and
/// prefix counts by id, the shared n-grams as `[id, clipped count]` rows, and the groups'
/// bounds in them (segment by segment, order by order, reference by reference).
#[pyfunction]
#[pyo3(signature = (hyps, streams, max_order))]
pub fn ordered_overlaps<'py>(
    py: Python<'py>,
    hyps: Vec<Bound<'py, PyString>>,
    streams: Streams<'py>,
    max_order: usize,
) -> Result<(
    Overlap<'py>,
    Overlap<'py>,
    Bound<'py, PyArray2<i64>>,
    Overlap<'py>,
)> {
    let (hyps, streams) = (borrow_all(&hyps)?, borrow_streams(&streams)?);
    let found = interruptible(py, |stop| {
        overlaps::ordered_overlaps(&hyps, &streams, max_order, stop)
    })?;
    let entries = found.entries.into_iter().flatten().collect();
    Ok((
        found.freq.into_pyarray(py),
        found.prefix.into_pyarray(py),
        rows_array(py, entries, 2)?,
        found.bounds.into_pyarray(py),
    ))
}

/// One of [`ordered_overlaps`]'s integer arrays.
type Overlap<'py> = Bound<'py, PyArray1<i64>>;

/// `work` without the GIL, stopped by Ctrl-C: its check takes the GIL back for a moment to
/// ask Python for pending signals, and the signal's exception (KeyboardInterrupt, or the
/// command line's SIGTERM) is what the call raises.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(analysis::Stop<'_>) -> std::result::Result<T, CoreError> + Send,
) -> Result<T> {
    let pending: Mutex<Option<PyErr>> = Mutex::new(None);
    let out = py.detach(|| {
        work(&mut || {
            Python::attach(|py| match py.check_signals() {
                Ok(()) => false,
                Err(err) => {
                    if let Ok(mut slot) = pending.lock() {
                        *slot = Some(err);
                    }
                    true
                }
            })
        })
    });
    match out {
        Err(CoreError::Interrupted) => match pending.into_inner().ok().flatten() {
            Some(err) => Err(err.into()),
            None => Err(CoreError::Interrupted.into()),
        },
        other => Ok(other?),
    }
}
