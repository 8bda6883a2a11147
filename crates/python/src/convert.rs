//! Borrowing Python strings and running chunked work with the GIL released.

use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use pyo3::types::PyString;
use understudy_core::family::PairTable;
use understudy_core::{CoreError, Exec};

use crate::errors::Result;
use crate::pools;

/// Segments (or, for all pairs, a sixteenth of the cells) per call into the core
/// between two checks for Ctrl-C: a few milliseconds of work.
pub const CHUNK: usize = 16_384;

/// A list of reference streams as Python gives them (`None`: no reference there).
pub type Streams<'py> = Vec<Vec<Option<Bound<'py, PyString>>>>;

/// The UTF-8 text of Python strings, borrowed from the string objects.
pub fn borrow_all<'a>(strings: &'a [Bound<'_, PyString>]) -> PyResult<Vec<&'a str>> {
    strings.iter().map(|s| s.to_str()).collect()
}

/// Reference streams (`None` for a missing reference), borrowed.
pub fn borrow_streams<'a>(
    streams: &'a [Vec<Option<Bound<'_, PyString>>>],
) -> PyResult<Vec<Vec<Option<&'a str>>>> {
    streams
        .iter()
        .map(|s| {
            s.iter()
                .map(|r| r.as_ref().map(|r| r.to_str()).transpose())
                .collect()
        })
        .collect()
}

/// Run `work` on consecutive ranges of `0..n`, at most `chunk` long, with the GIL
/// released, checking for Ctrl-C between ranges. `cells` is the work per item (in
/// segments), which decides whether a range is worth running in parallel.
pub fn chunked(
    py: Python<'_>,
    threads: usize,
    n: usize,
    chunk: usize,
    cells: usize,
    mut work: impl FnMut(std::ops::Range<usize>, Exec) -> std::result::Result<(), CoreError> + Send,
) -> Result<()> {
    let mut start = 0;
    while start < n {
        let end = (start + chunk).min(n);
        pools::run(py, threads, (end - start) * cells, |exec| {
            work(start..end, exec)
        })?;
        py.check_signals()?;
        start = end;
    }
    Ok(())
}

/// Rows `start..stop` of a table of `n` hypotheses, or a `ValueError`.
pub fn check_range(start: usize, stop: usize, n: usize) -> Result<()> {
    if start > stop || stop > n {
        let message = format!("rows({start}, {stop}) outside 0..{n}");
        return Err(crate::errors::config_error(message));
    }
    Ok(())
}

/// The rows in `out` as a `(len / width, width)` NumPy array.
pub fn rows_array(
    py: Python<'_>,
    out: Vec<i64>,
    width: usize,
) -> Result<Bound<'_, numpy::PyArray2<i64>>> {
    use numpy::{IntoPyArray, PyArrayMethods};
    let n = out.len() / width.max(1);
    Ok(out.into_pyarray(py).reshape([n, width])?)
}

/// Counts as an int64 NumPy array.
pub fn counts_array<'py>(py: Python<'py>, counts: &[usize]) -> Bound<'py, numpy::PyArray1<i64>> {
    use numpy::IntoPyArray;
    counts
        .iter()
        .map(|&n| n as i64)
        .collect::<Vec<_>>()
        .into_pyarray(py)
}

/// Several systems' hypotheses, borrowed, each checked to have `n` segments.
pub fn borrow_systems<'a>(
    systems: &'a [Vec<Bound<'_, PyString>>],
    n: usize,
) -> Result<Vec<Vec<&'a str>>> {
    let mut out = Vec::with_capacity(systems.len());
    for (k, system) in systems.iter().enumerate() {
        if system.len() != n {
            return Err(CoreError::LengthMismatch {
                what: format!("system {}", k + 1),
                expected: system.len(),
                other: "the references".into(),
                found: n,
            }
            .into());
        }
        out.push(borrow_all(system)?);
    }
    Ok(out)
}

/// Rows `start..stop` of `table` (hypothesis-major). `cost` is the work of one cell
/// in units of a BLEU cell, which sizes the chunks between two Ctrl-C checks.
pub fn pair_rows<'py>(
    py: Python<'py>,
    table: &(impl PairTable + ?Sized),
    threads: usize,
    start: usize,
    stop: usize,
    cost: usize,
) -> Result<Bound<'py, numpy::PyArray2<i64>>> {
    check_range(start, stop, table.n_hyps())?;
    let (per_hyp, width) = (table.n_refs(), table.row_width());
    let mut rows = vec![0i64; (stop - start) * per_hyp * width];
    let hyps_per_chunk = (CHUNK * 16 / (per_hyp * cost).max(1)).max(1);
    chunked(
        py,
        threads,
        stop - start,
        hyps_per_chunk,
        per_hyp * cost,
        |range, exec| {
            let out = &mut rows[range.start * per_hyp * width..range.end * per_hyp * width];
            table.rows_into(start + range.start, range.len(), out, exec)
        },
    )?;
    rows_array(py, rows, width)
}

/// `bounds` as offsets into `ids`, or a `ValueError` when they do not cut it (they must
/// start at 0, never decrease and end at the number of ids).
pub fn id_bounds(
    ids: &PyReadonlyArray1<'_, i64>,
    bounds: &PyReadonlyArray1<'_, i64>,
) -> PyResult<Vec<usize>> {
    let cut: Option<Vec<usize>> = bounds
        .as_slice()?
        .iter()
        .map(|&b| usize::try_from(b).ok())
        .collect();
    cut.filter(|b| {
        understudy_core::text::token_ids::IdBatch::new(ids.as_slice().unwrap_or(&[]), b).is_some()
    })
    .ok_or_else(bad_bounds)
}

fn bad_bounds() -> PyErr {
    pyo3::exceptions::PyValueError::new_err(
        "bounds must start at 0, never decrease and end at the number of ids",
    )
}

/// The lines of a flat batch of token ids (written on `threads` threads, the GIL released), or a
/// `ValueError` for bounds that do not cut it.
pub fn id_lines(
    py: Python<'_>,
    threads: usize,
    ids: &PyReadonlyArray1<'_, i64>,
    bounds: &PyReadonlyArray1<'_, i64>,
) -> PyResult<Vec<String>> {
    let cut = id_bounds(ids, bounds)?;
    let ids = ids.as_slice()?;
    let lines = pools::run(py, threads, cut.len(), |exec| {
        understudy_core::text::token_ids::id_lines(ids, &cut, exec)
    });
    lines.ok_or_else(bad_bounds)
}
