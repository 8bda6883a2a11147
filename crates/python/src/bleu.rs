//! BLEU: one compiled scorer per configuration, with its references.

use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyType};
use understudy_core::stats::{check_parallel, sentence_stats};
use understudy_core::{Config, CoreError, Pairwise, References, Tokenizer};

use crate::convert::{
    add_references, borrow_all, borrow_streams, borrow_systems, chunked, counts_array, pair_rows,
    rows_array, Streams, CHUNK,
};
use understudy_core::pairwise::PairTable;
use understudy_core::refset::ReferenceStore;

use crate::errors::Result;

/// The BLEU configuration from its Python arguments.
pub fn make_config(tokenizer: &str, lowercase: bool, max_order: usize) -> Result<Config> {
    let tok: Tokenizer = tokenizer.parse()?;
    Ok(Config::new(tok, lowercase, max_order)?)
}

type Rows<'py> = Bound<'py, PyArray2<i64>>;

/// A BLEU configuration (tokenizer, case, maximum order), compiled once, with
/// references tokenized and counted once inside.
#[pyclass(module = "understudy._core", name = "BleuScorer")]
pub struct BleuScorer {
    refs: References,
    threads: usize,
}

#[pymethods]
impl BleuScorer {
    #[new]
    #[pyo3(signature = (tokenizer, lowercase, max_order, threads = 1))]
    fn new(tokenizer: &str, lowercase: bool, max_order: usize, threads: usize) -> Result<Self> {
        Ok(BleuScorer {
            refs: References::empty(make_config(tokenizer, lowercase, max_order)?),
            threads,
        })
    }

    /// Pickled as its configuration (references are the caller's to add again).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> (Bound<'py, PyType>, (String, bool, usize, usize)) {
        let me = slf.borrow();
        let c = me.refs.config();
        let args = (
            c.tokenizer.name().to_owned(),
            c.lowercase,
            c.max_order,
            me.threads,
        );
        (slf.get_type(), args)
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

    /// Rows of several systems against the cached references, segment-major (row
    /// `i * len(systems) + k` is system k's segment i); each segment's references
    /// are loaded once for all systems.
    fn stats_many<'py>(
        &self,
        py: Python<'py>,
        systems: Vec<Vec<Bound<'py, PyString>>>,
    ) -> Result<Rows<'py>> {
        let n = self.refs.len();
        let borrowed = borrow_systems(&systems, n)?;
        let width = self.refs.config().row_width();
        let per_segment = borrowed.len() * width;
        let mut rows = vec![0i64; n * per_segment];
        let chunk = (CHUNK / borrowed.len().max(1)).max(1);
        chunked(py, self.threads, n, chunk, borrowed.len(), |range, exec| {
            let part: Vec<&[&str]> = borrowed.iter().map(|s| &s[range.clone()]).collect();
            let out = &mut rows[range.start * per_segment..range.end * per_segment];
            self.refs.stats_many_into(range.start, &part, out, exec);
            Ok(())
        })?;
        rows_array(py, rows, width)
    }

    /// Rows of `hyps` against references used once (tokenized straight into the
    /// matching tables, not cached), and each segment's number of references.
    #[allow(clippy::type_complexity)]
    fn sentence_stats<'py>(
        &self,
        py: Python<'py>,
        hyps: Vec<Bound<'py, PyString>>,
        streams: Streams<'py>,
    ) -> Result<(Rows<'py>, Bound<'py, PyArray1<i64>>)> {
        let config = self.refs.config();
        let hyps = borrow_all(&hyps)?;
        let streams = borrow_streams(&streams)?;
        let n = check_parallel(&streams)?;
        if n != hyps.len() {
            return Err(CoreError::hyps_vs_refs(hyps.len(), n).into());
        }
        let width = config.row_width();
        let mut rows = vec![0i64; n * width];
        let mut counts = vec![0usize; n];
        chunked(py, self.threads, n, CHUNK, 1, |range, exec| {
            let part: Vec<&[Option<&str>]> = streams.iter().map(|s| &s[range.clone()]).collect();
            let (part_rows, part_counts) =
                sentence_stats(config, &hyps[range.clone()], &part, exec).map_err(|e| match e {
                    CoreError::NoReference { segment } => CoreError::NoReference {
                        segment: segment + range.start,
                    },
                    other => other,
                })?;
            rows[range.start * width..range.end * width].copy_from_slice(&part_rows);
            counts[range].copy_from_slice(&part_counts);
            Ok(())
        })?;
        Ok((rows_array(py, rows, width)?, counts_array(py, &counts)))
    }

    /// Every hypothesis against every reference, each sentence counted once.
    fn pairwise(
        &self,
        py: Python<'_>,
        hyps: Vec<Bound<'_, PyString>>,
        refs: Vec<Bound<'_, PyString>>,
    ) -> Result<BleuPairs> {
        let config = self.refs.config();
        let (h, r) = (borrow_all(&hyps)?, borrow_all(&refs)?);
        let inner = crate::pools::run(py, self.threads, h.len() + r.len(), |exec| {
            Pairwise::new(config, &h, &r, exec)
        });
        py.check_signals()?;
        Ok(BleuPairs {
            inner,
            threads: self.threads,
        })
    }
}

/// BLEU statistics of every hypothesis against every reference.
#[pyclass(frozen, module = "understudy._core")]
pub struct BleuPairs {
    inner: Pairwise,
    threads: usize,
}

#[pymethods]
impl BleuPairs {
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
