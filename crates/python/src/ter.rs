//! TER: one compiled scorer per configuration, with its references.

use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};
use understudy_core::pairwise::PairTable;
use understudy_core::refset::ReferenceStore;
use understudy_core::ter::{
    sentence_stats, TerConfig, TerPairwise, TerReferences, LENGTH_SCALE, ROW_WIDTH,
};

use crate::convert::{
    add_references, borrow_all, borrow_streams, borrow_systems, chunked, counts_array, pair_rows,
    rows_array, Streams, CHUNK,
};
use crate::errors::Result;
use crate::pools;

/// TER's work per segment is far more than BLEU's: fewer segments per chunk keep
/// Ctrl-C prompt.
const TER_CHUNK: usize = CHUNK / 16;

/// A TER configuration, compiled once, with references cached inside.
#[pyclass(module = "understudy._core", name = "TerScorer")]
pub struct TerScorer {
    refs: TerReferences,
    threads: usize,
}

type Rows<'py> = Bound<'py, PyArray2<i64>>;

#[pymethods]
impl TerScorer {
    #[new]
    #[pyo3(signature = (normalized, no_punct, asian_support, case_sensitive, fixed = false, threads = 1))]
    fn new(
        normalized: bool,
        no_punct: bool,
        asian_support: bool,
        case_sensitive: bool,
        fixed: bool,
        threads: usize,
    ) -> Self {
        let config = TerConfig {
            normalized,
            no_punct,
            asian_support,
            case_sensitive,
            fixed,
        };
        TerScorer {
            refs: TerReferences::empty(config),
            threads,
        }
    }

    /// Pickled as its configuration (references are the caller's to add again).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (bool, bool, bool, bool, bool, usize)) {
        let me = slf.borrow();
        let c = me.refs.config();
        let args = (
            c.normalized,
            c.no_punct,
            c.asian_support,
            c.case_sensitive,
            c.fixed,
            me.threads,
        );
        (slf.get_type(), args)
    }

    /// The factor of the stored average reference length.
    #[classattr]
    fn length_scale() -> i64 {
        LENGTH_SCALE
    }

    /// Columns of a statistics row.
    #[getter]
    fn row_width(&self) -> usize {
        ROW_WIDTH
    }

    /// Tokenize lines as TER sees them.
    fn tokenize(&self, py: Python<'_>, lines: Vec<Bound<'_, PyString>>) -> Result<Vec<String>> {
        let lines = borrow_all(&lines)?;
        let config = self.refs.config();
        Ok(py.detach(|| lines.iter().map(|l| config.tokenize(l)).collect()))
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

    /// Rows of several systems against the cached references, segment-major.
    fn stats_many<'py>(
        &self,
        py: Python<'py>,
        systems: Vec<Vec<Bound<'py, PyString>>>,
    ) -> Result<Rows<'py>> {
        let n = self.refs.len();
        let borrowed = borrow_systems(&systems, n)?;
        let per_segment = borrowed.len() * ROW_WIDTH;
        let mut rows = vec![0i64; n * per_segment];
        let chunk = (TER_CHUNK / borrowed.len().max(1)).max(1);
        chunked(
            py,
            self.threads,
            n,
            chunk,
            16 * borrowed.len(),
            |range, exec| {
                let part: Vec<&[&str]> = borrowed.iter().map(|s| &s[range.clone()]).collect();
                let out = &mut rows[range.start * per_segment..range.end * per_segment];
                self.refs.stats_many_into(range.start, &part, out, exec)
            },
        )?;
        rows_array(py, rows, ROW_WIDTH)
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
        let config = self.refs.config();
        let (rows, counts) = pools::run(py, self.threads, 16 * hyps.len(), |exec| {
            sentence_stats(config, &hyps, &streams, exec)
        })?;
        py.check_signals()?;
        Ok((rows_array(py, rows, ROW_WIDTH)?, counts_array(py, &counts)))
    }

    /// Every hypothesis against every reference, each sentence tokenized once.
    fn pairwise(
        &self,
        py: Python<'_>,
        hyps: Vec<Bound<'_, PyString>>,
        refs: Vec<Bound<'_, PyString>>,
    ) -> Result<TerPairs> {
        let (h, r) = (borrow_all(&hyps)?, borrow_all(&refs)?);
        let config = self.refs.config();
        let inner = pools::run(py, self.threads, h.len() + r.len(), |exec| {
            TerPairwise::new(config, &h, &r, exec)
        });
        py.check_signals()?;
        Ok(TerPairs {
            inner,
            threads: self.threads,
        })
    }
}

/// TER statistics of every hypothesis against every reference.
#[pyclass(frozen, module = "understudy._core")]
pub struct TerPairs {
    inner: TerPairwise,
    threads: usize,
}

#[pymethods]
impl TerPairs {
    /// Rows of hypotheses `start..stop` against every reference, hypothesis-major.
    fn rows<'py>(&self, py: Python<'py>, start: usize, stop: usize) -> Result<Rows<'py>> {
        pair_rows(py, &self.inner, self.threads, start, stop, 16)
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
