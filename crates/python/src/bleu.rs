//! BLEU: reference caches, one-shot sentence statistics and all pairs.

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyString;
use understudy_core::stats::{check_parallel, sentence_stats as core_sentence_stats};
use understudy_core::{Config, CoreError, Pairwise, References, Tokenizer};

use crate::convert::{borrow_all, borrow_streams, check_range, chunked, CHUNK};
use crate::errors::{Error, Result};
use crate::pools;

/// The BLEU configuration from its Python arguments.
pub fn make_config(tokenizer: &str, lowercase: bool, max_order: usize) -> Result<Config> {
    let tok: Tokenizer = tokenizer.parse()?;
    Ok(Config::new(tok, lowercase, max_order)?)
}

/// Reference streams tokenized and counted once, to score any number of systems.
#[pyclass(frozen, module = "understudy._core")]
pub struct RefCache {
    inner: References,
    threads: usize,
}

#[pymethods]
impl RefCache {
    #[new]
    #[pyo3(signature = (streams, tokenizer, lowercase, max_order, threads = 1))]
    fn new(
        py: Python<'_>,
        streams: Vec<Vec<Option<Bound<'_, PyString>>>>,
        tokenizer: &str,
        lowercase: bool,
        max_order: usize,
        threads: usize,
    ) -> Result<Self> {
        let config = make_config(tokenizer, lowercase, max_order)?;
        let borrowed = borrow_streams(&streams)?;
        let n = check_parallel(&borrowed)?;
        let mut inner = References::empty(config);
        chunked(py, threads, n, CHUNK, 1, |range, exec| {
            let part: Vec<&[Option<&str>]> = borrowed.iter().map(|s| &s[range.clone()]).collect();
            inner.extend(&part, exec)
        })?;
        Ok(RefCache { inner, threads })
    }

    /// Statistics rows `(len(hyps), 2 + 2 * max_order)` as int64.
    fn stats<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
    ) -> Result<Bound<'py, PyArray2<i64>>> {
        let width = self.inner.config().row_width();
        let n = hyps.len();
        if n != self.inner.len() {
            return Err(CoreError::hyps_vs_refs(n, self.inner.len()).into());
        }
        let borrowed = borrow_all(&hyps)?;
        let mut rows = vec![0i64; n * width];
        chunked(py, self.threads, n, CHUNK, 1, |range, exec| {
            let out = &mut rows[range.start * width..range.end * width];
            self.inner
                .stats_into(range.start, &borrowed[range], out, exec);
            Ok(())
        })?;
        Ok(rows.into_pyarray(py).reshape([n, width])?)
    }

    /// Statistics rows of several systems, `(len(hyps), len(systems), 2 + 2 * max_order)`;
    /// each segment's references are loaded once for all systems.
    fn stats_many<'py>(
        &self,
        py: Python<'py>,
        systems: Vec<Vec<Bound<'py, PyString>>>,
    ) -> Result<Bound<'py, PyArray3<i64>>> {
        let width = self.inner.config().row_width();
        let n = self.inner.len();
        for (k, system) in systems.iter().enumerate() {
            if system.len() != n {
                return Err(Error::Core(CoreError::LengthMismatch {
                    what: format!("system {}", k + 1),
                    expected: system.len(),
                    other: "the references".into(),
                    found: n,
                }));
            }
        }
        let borrowed: Vec<Vec<&str>> = systems
            .iter()
            .map(|s| borrow_all(s))
            .collect::<PyResult<_>>()?;
        let per_segment = systems.len() * width;
        let mut rows = vec![0i64; n * per_segment];
        let chunk = (CHUNK / systems.len().max(1)).max(1);
        chunked(py, self.threads, n, chunk, systems.len(), |range, exec| {
            let part: Vec<&[&str]> = borrowed.iter().map(|s| &s[range.clone()]).collect();
            let out = &mut rows[range.start * per_segment..range.end * per_segment];
            self.inner.stats_many_into(range.start, &part, out, exec);
            Ok(())
        })?;
        Ok(rows.into_pyarray(py).reshape([n, systems.len(), width])?)
    }

    /// Number of segments.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Number of references (not None) of each segment.
    fn refs_per_segment<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let counts: Vec<i64> = self
            .inner
            .refs_per_segment()
            .iter()
            .map(|&n| n as i64)
            .collect();
        counts.into_pyarray(py)
    }
}

/// Statistics rows of `hyps` against reference streams used once (not cached), and
/// the number of references of each segment.
#[pyfunction]
#[pyo3(signature = (hyps, streams, tokenizer, lowercase, max_order, threads = 1))]
#[allow(clippy::type_complexity)]
pub fn sentence_stats<'py>(
    py: Python<'py>,
    hyps: Vec<Bound<'py, PyString>>,
    streams: Vec<Vec<Option<Bound<'py, PyString>>>>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    threads: usize,
) -> Result<(Bound<'py, PyArray2<i64>>, Bound<'py, PyArray1<i64>>)> {
    let config = make_config(tokenizer, lowercase, max_order)?;
    let hyps = borrow_all(&hyps)?;
    let streams = borrow_streams(&streams)?;
    let n = check_parallel(&streams)?;
    if n != hyps.len() {
        let err = CoreError::hyps_vs_refs(hyps.len(), n);
        return Err(err.into());
    }
    let width = config.row_width();
    let mut rows = vec![0i64; n * width];
    let mut counts = vec![0i64; n];
    chunked(py, threads, n, CHUNK, 1, |range, exec| {
        let part: Vec<&[Option<&str>]> = streams.iter().map(|s| &s[range.clone()]).collect();
        let (part_rows, part_counts) =
            core_sentence_stats(config, &hyps[range.clone()], &part, exec).map_err(
                |e| match e {
                    CoreError::NoReference { segment } => CoreError::NoReference {
                        segment: segment + range.start,
                    },
                    other => other,
                },
            )?;
        rows[range.start * width..range.end * width].copy_from_slice(&part_rows);
        for (slot, count) in counts[range].iter_mut().zip(part_counts) {
            *slot = count as i64;
        }
        Ok(())
    })?;
    Ok((
        rows.into_pyarray(py).reshape([n, width])?,
        counts.into_pyarray(py),
    ))
}

/// Every hypothesis against every reference, each sentence counted once.
#[pyclass(frozen, module = "understudy._core", name = "Pairwise")]
pub struct PyPairwise {
    inner: Pairwise,
    threads: usize,
}

#[pymethods]
impl PyPairwise {
    #[new]
    #[pyo3(signature = (hyps, refs, tokenizer, lowercase, max_order, threads = 1))]
    fn new(
        py: Python<'_>,
        hyps: Vec<Bound<'_, PyString>>,
        refs: Vec<Bound<'_, PyString>>,
        tokenizer: &str,
        lowercase: bool,
        max_order: usize,
        threads: usize,
    ) -> Result<Self> {
        let config = make_config(tokenizer, lowercase, max_order)?;
        let (h, r) = (borrow_all(&hyps)?, borrow_all(&refs)?);
        let inner = pools::run(py, threads, h.len() + r.len(), |exec| {
            Pairwise::new(config, &h, &r, exec)
        });
        py.check_signals()?;
        Ok(PyPairwise { inner, threads })
    }

    /// Rows of hypotheses `start..stop` against every reference:
    /// shape `((stop - start) * n_refs, 2 + 2 * max_order)`.
    fn rows<'py>(
        &self,
        py: Python<'py>,
        start: usize,
        stop: usize,
    ) -> Result<Bound<'py, PyArray2<i64>>> {
        check_range(start, stop, self.inner.n_hyps())?;
        let per_hyp = self.inner.n_refs();
        let width = 2 + 2 * self.max_order();
        let mut rows = vec![0i64; (stop - start) * per_hyp * width];
        // Chunks of hypotheses small enough that each call stays short.
        let hyps_per_chunk = (CHUNK * 16 / per_hyp.max(1)).max(1);
        chunked(
            py,
            self.threads,
            stop - start,
            hyps_per_chunk,
            per_hyp,
            |range, exec| {
                let out = &mut rows[range.start * per_hyp * width..range.end * per_hyp * width];
                self.inner
                    .rows_into(start + range.start, range.len(), out, exec);
                Ok(())
            },
        )?;
        Ok(rows
            .into_pyarray(py)
            .reshape([(stop - start) * per_hyp, width])?)
    }

    /// Number of hypotheses.
    #[getter]
    fn n_hyps(&self) -> usize {
        self.inner.n_hyps()
    }

    /// Number of references.
    #[getter]
    fn n_refs(&self) -> usize {
        self.inner.n_refs()
    }

    /// The maximum n-gram order.
    #[getter]
    fn max_order(&self) -> usize {
        self.inner.config().max_order
    }
}
