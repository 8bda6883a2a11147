//! `understudy._core`: the Python face of understudy-core.
//!
//! Only conversion lives here: Python strings borrowed (not copied) as `&str`, NumPy
//! arrays out, the GIL released for the work, work split into chunks with a Ctrl-C
//! check between them, a rayon pool per thread count (none in a forked child), and
//! core errors raised as the exception classes of `understudy.errors`.

mod pools;

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use understudy_core::config::tokens;
use understudy_core::stats::{check_parallel, sentence_stats as core_sentence_stats};
use understudy_core::{Config, CoreError, Exec, Pairwise, References, Tokenizer};

/// Segments (or, for all pairs, a sixteenth of the cells) per call into the core
/// between two checks for Ctrl-C: a few milliseconds of work.
const CHUNK: usize = 16_384;

/// Raise a core error as the matching class from `understudy.errors`.
fn to_py_err(py: Python<'_>, err: CoreError) -> PyErr {
    let class = match err {
        CoreError::UnknownTokenizer(_) | CoreError::InvalidOrder(_) => "ConfigError",
        CoreError::LengthMismatch { .. } => "LengthMismatchError",
        CoreError::NoReference { .. } | CoreError::NoReferenceStreams => "NoReferenceError",
    };
    let message = err.to_string();
    match py
        .import("understudy.errors")
        .and_then(|m| m.getattr(class))
    {
        Ok(cls) => PyErr::from_type(cls.cast_into().expect("exception class"), message),
        Err(_) => PyValueError::new_err(message),
    }
}

fn make_config(
    py: Python<'_>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
) -> PyResult<Config> {
    let tok: Tokenizer = tokenizer.parse().map_err(|e| to_py_err(py, e))?;
    Config::new(tok, lowercase, max_order).map_err(|e| to_py_err(py, e))
}

/// The UTF-8 text of Python strings, borrowed from the string objects.
fn borrow_all<'a>(strings: &'a [Bound<'_, PyString>]) -> PyResult<Vec<&'a str>> {
    strings.iter().map(|s| s.to_str()).collect()
}

/// Reference streams (`None` for a missing reference), borrowed.
fn borrow_streams<'a>(
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
fn chunked(
    py: Python<'_>,
    threads: usize,
    n: usize,
    chunk: usize,
    cells: usize,
    mut work: impl FnMut(std::ops::Range<usize>, Exec) -> Result<(), CoreError> + Send,
) -> PyResult<()> {
    let mut start = 0;
    while start < n {
        let end = (start + chunk).min(n);
        pools::run(py, threads, (end - start) * cells, |exec| {
            work(start..end, exec)
        })
        .map_err(|e| to_py_err(py, e))?;
        py.check_signals()?;
        start = end;
    }
    Ok(())
}

/// Reference streams tokenized and counted once, to score any number of systems.
#[pyclass(frozen, module = "understudy._core")]
struct RefCache {
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
    ) -> PyResult<Self> {
        let config = make_config(py, tokenizer, lowercase, max_order)?;
        let borrowed = borrow_streams(&streams)?;
        let n = check_parallel(&borrowed).map_err(|e| to_py_err(py, e))?;
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
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let width = self.inner.config().row_width();
        let n = hyps.len();
        if n != self.inner.len() {
            return Err(to_py_err(py, CoreError::hyps_vs_refs(n, self.inner.len())));
        }
        let borrowed = borrow_all(&hyps)?;
        let mut rows = vec![0i64; n * width];
        chunked(py, self.threads, n, CHUNK, 1, |range, exec| {
            let out = &mut rows[range.start * width..range.end * width];
            self.inner
                .stats_into(range.start, &borrowed[range], out, exec);
            Ok(())
        })?;
        rows.into_pyarray(py).reshape([n, width])
    }

    /// Statistics rows of several systems, `(len(hyps), len(systems), 2 + 2 * max_order)`;
    /// each segment's references are loaded once for all systems.
    fn stats_many<'py>(
        &self,
        py: Python<'py>,
        systems: Vec<Vec<Bound<'py, PyString>>>,
    ) -> PyResult<Bound<'py, PyArray3<i64>>> {
        let width = self.inner.config().row_width();
        let n = self.inner.len();
        for (k, system) in systems.iter().enumerate() {
            if system.len() != n {
                return Err(to_py_err(
                    py,
                    CoreError::LengthMismatch {
                        what: format!("system {}", k + 1),
                        expected: system.len(),
                        other: "the references".into(),
                        found: n,
                    },
                ));
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
        rows.into_pyarray(py).reshape([n, systems.len(), width])
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
fn sentence_stats<'py>(
    py: Python<'py>,
    hyps: Vec<Bound<'py, PyString>>,
    streams: Vec<Vec<Option<Bound<'py, PyString>>>>,
    tokenizer: &str,
    lowercase: bool,
    max_order: usize,
    threads: usize,
) -> PyResult<(Bound<'py, PyArray2<i64>>, Bound<'py, PyArray1<i64>>)> {
    let config = make_config(py, tokenizer, lowercase, max_order)?;
    let hyps = borrow_all(&hyps)?;
    let streams = borrow_streams(&streams)?;
    let n = check_parallel(&streams).map_err(|e| to_py_err(py, e))?;
    if n != hyps.len() {
        let err = CoreError::hyps_vs_refs(hyps.len(), n);
        return Err(to_py_err(py, err));
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
struct PyPairwise {
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
    ) -> PyResult<Self> {
        let config = make_config(py, tokenizer, lowercase, max_order)?;
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
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        if start > stop || stop > self.inner.n_hyps() {
            return Err(PyValueError::new_err(format!(
                "rows({start}, {stop}) outside 0..{}",
                self.inner.n_hyps()
            )));
        }
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
        rows.into_pyarray(py)
            .reshape([(stop - start) * per_hyp, width])
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

/// Tokenize lines exactly as BLEU sees them: tokens joined by single spaces.
#[pyfunction]
#[pyo3(signature = (lines, tokenizer, lowercase = false))]
fn tokenize(
    py: Python<'_>,
    lines: Vec<Bound<'_, PyString>>,
    tokenizer: &str,
    lowercase: bool,
) -> PyResult<Vec<String>> {
    let config = make_config(py, tokenizer, lowercase, 1)?;
    let borrowed = borrow_all(&lines)?;
    Ok(py.detach(|| {
        let mut scratch = understudy_core::tok13a::Scratch::default();
        borrowed
            .iter()
            .map(|l| {
                tokens(config.preprocess_into(l, &mut scratch))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }))
}

/// The names of the tokenizers implemented in Rust.
#[pyfunction]
fn tokenizer_names() -> Vec<&'static str> {
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
fn ln<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    map_f64(py, values, f64::ln)
}

/// Elementwise exponential through the C library, as `math.exp` computes it.
#[pyfunction]
fn exp<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    map_f64(py, values, f64::exp)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RefCache>()?;
    m.add_class::<PyPairwise>()?;
    m.add_function(wrap_pyfunction!(sentence_stats, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(tokenizer_names, m)?)?;
    m.add_function(wrap_pyfunction!(ln, m)?)?;
    m.add_function(wrap_pyfunction!(exp, m)?)?;
    m.add_function(wrap_pyfunction!(pools::pool_threads, m)?)?;
    Ok(())
}
