//! The one compiled scorer class and the one all-pairs class, for every family.
//!
//! `Scorer(family, config, threads)` builds the family's references store from its name
//! and its configuration passed by name (a dict read into the family's argument struct,
//! see [`crate::families`]); everything here is written once against
//! [`understudy_core::family::Family`] and names no metric.

use numpy::{PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyType};
use understudy_core::family::PairTable;
use understudy_core::text::token_ids::IdBatch;

use crate::convert::{
    self, borrow_all, borrow_streams, borrow_systems, counts_array, pair_rows, rows_array, Streams,
};
use crate::errors::{config_error, Result};
use crate::families;
use crate::pools;

use crate::any_family::AnyFamily;

type Rows<'py> = Bound<'py, PyArray2<i64>>;

/// A metric family's configuration, compiled once, with references cached inside.
#[pyclass(module = "understudy._core.families", name = "Scorer")]
pub struct Scorer {
    inner: Box<dyn AnyFamily>,
    family: String,
    config: Py<PyDict>,
    threads: usize,
}

#[pymethods]
impl Scorer {
    /// The scorer of family `family` (``bleu``, ``chrf``, ``ter``) with its configuration
    /// given by name.
    #[new]
    #[pyo3(signature = (family, config, threads = 1))]
    fn new(family: &str, config: &Bound<'_, PyDict>, threads: usize) -> Result<Self> {
        Ok(Scorer {
            inner: families::build(family, config)?,
            family: family.to_owned(),
            config: config.copy()?.unbind(),
            threads,
        })
    }

    /// Pickled as its family and configuration (references are the caller's to add again).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyType>, (String, Bound<'py, PyDict>, usize))> {
        let me = slf.borrow();
        let config = me.config.bind(slf.py()).copy()?;
        Ok((slf.get_type(), (me.family.clone(), config, me.threads)))
    }

    /// The family's name.
    #[getter]
    fn family(&self) -> &str {
        &self.family
    }

    /// Columns of a statistics row.
    #[getter]
    fn row_width(&self) -> usize {
        self.inner.row_width()
    }

    /// Append reference streams (sacrebleu's layout) to the cached references.
    fn add_references(&mut self, py: Python<'_>, streams: Streams<'_>) -> Result<()> {
        let borrowed = borrow_streams(&streams)?;
        self.inner.add_references(py, self.threads, &borrowed)
    }

    /// Number of cached segments.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// How many references each cached segment has.
    fn refs_per_segment<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        counts_array(py, &self.inner.refs_per_segment())
    }

    /// Rows of several systems against the cached references, segment-major: for each
    /// segment, for each system, its rows (one, or one per reference for chrF).
    fn stats_many<'py>(
        &self,
        py: Python<'py>,
        systems: Vec<Vec<Bound<'py, PyString>>>,
    ) -> Result<Rows<'py>> {
        let borrowed = borrow_systems(&systems, self.inner.len())?;
        let rows = self.inner.stats_many(py, self.threads, &borrowed)?;
        rows_array(py, rows, self.inner.row_width())
    }

    /// Rows of `hyps` against references used once (not cached), and each segment's
    /// number of references.
    #[allow(clippy::type_complexity)]
    fn sentence_stats<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        streams: Streams<'py>,
    ) -> Result<(Rows<'py>, Bound<'py, PyArray1<i64>>)> {
        let hyps = borrow_all(&hyps)?;
        let streams = borrow_streams(&streams)?;
        let (rows, counts) = self
            .inner
            .sentence_stats(py, self.threads, &hyps, &streams)?;
        Ok((
            rows_array(py, rows, self.inner.row_width())?,
            counts_array(py, &counts),
        ))
    }

    /// [`Scorer::sentence_stats`] of token ids: the hypotheses are `hyp_ids` cut at
    /// `hyp_bounds` (segment `i` is `ids[bounds[i]..bounds[i + 1]]`), each reference stream an
    /// `(ids, bounds)` pair; every id is written as one word (`token_ids`) here, in Rust.
    #[allow(clippy::type_complexity)]
    fn sentence_stats_ids<'py>(
        &self,
        py: Python<'py>,
        hyp_ids: PyReadonlyArray1<'py, i64>,
        hyp_bounds: PyReadonlyArray1<'py, i64>,
        streams: Vec<(PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>)>,
    ) -> Result<(Rows<'py>, Bound<'py, PyArray1<i64>>)> {
        let hyp_cut = convert::id_bounds(&hyp_ids, &hyp_bounds)?;
        let cuts = streams
            .iter()
            .map(|(ids, bounds)| convert::id_bounds(ids, bounds))
            .collect::<PyResult<Vec<_>>>()?;
        let hyp_slice = hyp_ids.as_slice().map_err(PyErr::from)?;
        let slices = streams
            .iter()
            .map(|(ids, _)| ids.as_slice().map_err(PyErr::from))
            .collect::<PyResult<Vec<_>>>()?;
        let batches: Option<Vec<IdBatch>> = slices
            .iter()
            .zip(&cuts)
            .map(|(ids, cut)| IdBatch::new(ids, cut))
            .collect();
        if let (Some(h), Some(s)) = (IdBatch::new(hyp_slice, &hyp_cut), batches) {
            if let Some((rows, counts)) = self.inner.sentence_stats_ids(py, self.threads, h, &s)? {
                return Ok((
                    rows_array(py, rows, self.inner.row_width())?,
                    counts_array(py, &counts),
                ));
            }
        }
        let hyps = convert::id_lines(py, self.threads, &hyp_ids, &hyp_bounds)?;
        let refs = streams
            .iter()
            .map(|(ids, bounds)| convert::id_lines(py, self.threads, ids, bounds))
            .collect::<PyResult<Vec<_>>>()?;
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let refs: Vec<Vec<Option<&str>>> = refs
            .iter()
            .map(|s| s.iter().map(|r| Some(r.as_str())).collect())
            .collect();
        let (rows, counts) = self.inner.sentence_stats(py, self.threads, &hyps, &refs)?;
        Ok((
            rows_array(py, rows, self.inner.row_width())?,
            counts_array(py, &counts),
        ))
    }

    /// Every hypothesis against every reference, each sentence prepared once.
    fn pairwise(
        &self,
        py: Python<'_>,
        hyps: Vec<Bound<'_, PyString>>,
        refs: Vec<Bound<'_, PyString>>,
    ) -> Result<Pairs> {
        let (h, r) = (borrow_all(&hyps)?, borrow_all(&refs)?);
        let inner = self.inner.pairs(py, self.threads, &h, &r);
        py.check_signals()?;
        Ok(Pairs {
            inner,
            threads: self.threads,
            cost: self.inner.cost(),
        })
    }

    /// Each line's tokens as the family sees them, joined by single spaces.
    fn tokenize(&self, py: Python<'_>, lines: Vec<Bound<'_, PyString>>) -> Result<Vec<String>> {
        let lines = borrow_all(&lines)?;
        self.inner.tokenize(py, &lines).ok_or_else(|| {
            let message = format!("{} does not tokenize its text", self.family);
            config_error(message)
        })
    }
}

/// A family's statistics of every hypothesis against every reference.
#[pyclass(frozen, module = "understudy._core.families", name = "Pairs")]
pub struct Pairs {
    inner: Box<dyn PairTable + Send>,
    threads: usize,
    cost: usize,
}

#[pymethods]
impl Pairs {
    /// Rows of hypotheses `start..stop` against every reference, hypothesis-major.
    fn rows<'py>(&self, py: Python<'py>, start: usize, stop: usize) -> Result<Rows<'py>> {
        pair_rows(
            py,
            self.inner.as_ref(),
            self.threads,
            start,
            stop,
            self.cost,
        )
    }

    /// One row per hypothesis against the references aggregated, every column times the
    /// number of references; `None` where the family has no aggregated statistics.
    fn aggregate_rows<'py>(&self, py: Python<'py>) -> Result<Option<Rows<'py>>> {
        let (width, n_hyps) = (self.inner.row_width(), self.inner.n_hyps());
        let mut rows = vec![0i64; n_hyps * width];
        let table = self.inner.as_ref();
        let cells = n_hyps * self.cost;
        let done = pools::run(py, self.threads, cells, |exec| {
            table.aggregate_rows_into(&mut rows, exec)
        });
        if !done {
            return Ok(None);
        }
        Ok(Some(rows_array(py, rows, width)?))
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
}
