//! chrF and chrF++: one compiled scorer per configuration, with its references.

use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};
use understudy_core::chrf::{sentence_stats, ChrfConfig, ChrfPairwise, ChrfReferences, MAX_ORDER};
use understudy_core::pairwise::PairTable;
use understudy_core::refset::ReferenceStore;

use crate::convert::{
    add_references, borrow_all, borrow_streams, borrow_systems, chunked, counts_array, pair_rows,
    rows_array, Streams, CHUNK,
};
use crate::errors::Result;
use crate::pools;

/// A chrF configuration, compiled once, with references cached inside.
#[pyclass(module = "understudy._core", name = "ChrfScorer")]
pub struct ChrfScorer {
    refs: ChrfReferences,
    threads: usize,
}

type Rows<'py> = Bound<'py, PyArray2<i64>>;

#[pymethods]
impl ChrfScorer {
    #[new]
    #[pyo3(signature = (char_order, word_order, lowercase, whitespace, threads = 1))]
    fn new(
        char_order: usize,
        word_order: usize,
        lowercase: bool,
        whitespace: bool,
        threads: usize,
    ) -> Result<Self> {
        let config = ChrfConfig::new(char_order, word_order, lowercase, whitespace)?;
        Ok(ChrfScorer {
            refs: ChrfReferences::empty(config),
            threads,
        })
    }

    /// Pickled as its configuration (references are the caller's to add again).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (usize, usize, bool, bool, usize)) {
        let me = slf.borrow();
        let c = me.refs.config();
        let args = (
            c.char_order,
            c.word_order,
            c.lowercase,
            c.whitespace,
            me.threads,
        );
        (slf.get_type(), args)
    }

    /// The largest character or word order accepted.
    #[classattr]
    fn max_order() -> usize {
        MAX_ORDER
    }

    /// Columns of a statistics row.
    #[getter]
    fn row_width(&self) -> usize {
        self.refs.config().row_width()
    }

    /// Append reference streams (sacrebleu's layout) to the cached references.
    fn add_references(&mut self, py: Python<'_>, streams: Streams<'_>) -> Result<()> {
        add_references(py, self.threads, &mut self.refs, &streams)
    }

    /// Number of cached segments.
    fn __len__(&self) -> usize {
        self.refs.len()
    }

    /// How many references each cached segment has.
    fn refs_per_segment<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        counts_array(py, &self.refs.refs_per_segment())
    }

    /// Rows of several systems against the cached references: for each segment, for
    /// each system, one row per reference of the segment.
    fn stats_many<'py>(
        &self,
        py: Python<'py>,
        systems: Vec<Vec<Bound<'py, PyString>>>,
    ) -> Result<Rows<'py>> {
        let n = self.refs.len();
        let borrowed = borrow_systems(&systems, n)?;
        let width = self.refs.config().row_width();
        let per_row = borrowed.len() * width;
        let mut rows = vec![0i64; self.refs.rows_of(0, n) * per_row];
        let chunk = (CHUNK / borrowed.len().max(1)).max(1);
        chunked(py, self.threads, n, chunk, borrowed.len(), |range, exec| {
            let part: Vec<&[&str]> = borrowed.iter().map(|s| &s[range.clone()]).collect();
            let start = self.refs.rows_of(0, range.start) * per_row;
            let end = self.refs.rows_of(0, range.end) * per_row;
            self.refs
                .stats_many_into(range.start, &part, &mut rows[start..end], exec);
            Ok(())
        })?;
        rows_array(py, rows, width)
    }

    /// Rows of `hyps` against references used once (not cached): one row per
    /// (segment, reference), and each segment's number of references.
    #[allow(clippy::type_complexity)]
    fn sentence_stats<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        streams: Streams<'py>,
    ) -> Result<(Rows<'py>, Bound<'py, PyArray1<i64>>)> {
        let hyps = borrow_all(&hyps)?;
        let streams = borrow_streams(&streams)?;
        let config = self.refs.config();
        let (rows, counts) = pools::run(py, self.threads, hyps.len(), |exec| {
            sentence_stats(config, &hyps, &streams, exec)
        })?;
        py.check_signals()?;
        Ok((
            rows_array(py, rows, config.row_width())?,
            counts_array(py, &counts),
        ))
    }

    /// Every hypothesis against every reference, each sentence prepared once.
    fn pairwise(
        &self,
        py: Python<'_>,
        hyps: Vec<Bound<'_, PyString>>,
        refs: Vec<Bound<'_, PyString>>,
    ) -> Result<ChrfPairs> {
        let (h, r) = (borrow_all(&hyps)?, borrow_all(&refs)?);
        let config = self.refs.config();
        let inner = pools::run(py, self.threads, h.len() + r.len(), |exec| {
            ChrfPairwise::new(config, &h, &r, exec)
        });
        py.check_signals()?;
        Ok(ChrfPairs {
            inner,
            threads: self.threads,
        })
    }
}

/// chrF statistics of every hypothesis against every reference.
#[pyclass(frozen, module = "understudy._core")]
pub struct ChrfPairs {
    inner: ChrfPairwise,
    threads: usize,
}

#[pymethods]
impl ChrfPairs {
    /// Rows of hypotheses `start..stop` against every reference, hypothesis-major.
    fn rows<'py>(&self, py: Python<'py>, start: usize, stop: usize) -> Result<Rows<'py>> {
        pair_rows(py, &self.inner, self.threads, start, stop, 1)
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
