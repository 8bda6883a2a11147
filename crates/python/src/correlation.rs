//! The correlation statistics that need a loop NumPy cannot vectorise: acc_eq's threshold search,
//! SPA's counts of permuted differences over many mixtures at once, and PERM-BOTH's masked sums.

use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use understudy_core::metaeval::ties;

fn rows(array: &PyReadonlyArray2<'_, f64>) -> Vec<Vec<f64>> {
    array
        .as_array()
        .rows()
        .into_iter()
        .map(|r| r.to_vec())
        .collect()
}

/// acc_eq of the rows (groups) of `human` (NaN: no score) and `metric`, as mt-metrics-eval's
/// `tau_optimization` computes it: `(value, threshold, groups)`, or `None` when no row has a pair.
#[pyfunction]
pub fn tie_search(
    py: Python<'_>,
    human: PyReadonlyArray2<'_, f64>,
    metric: PyReadonlyArray2<'_, f64>,
) -> PyResult<Option<(f64, f64, usize)>> {
    if human.shape() != metric.shape() {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "human and metric rows differ in shape",
        ));
    }
    let (human, metric) = (rows(&human), rows(&metric));
    let found = py.detach(|| ties::tie_search(&human, &metric));
    Ok(found.map(|t| (t.value, t.threshold, t.groups)))
}

/// Two metrics' scores (systems x segments) to be mixed cell by cell, and a paired test's
/// permutations (rows of `swapped`): `counts(coins, threads)` gives, for each resample (a row of
/// `coins`, one per cell) and each of its two mixtures (`worse` where the coin is true, then the
/// reverse), per pair `i < j` of systems (`triu_indices` order), how many permutations have the
/// swapped segments' differences sum to at most 0, exactly: `counts[resample, mixture, pair]`.
/// See `understudy_core::metaeval::spa::Mixtures`.
#[pyclass(frozen, module = "understudy._core.metaeval", name = "SpaMixtures")]
pub struct SpaMixtures {
    inner: understudy_core::metaeval::spa::Mixtures,
}

#[pymethods]
impl SpaMixtures {
    #[new]
    fn new(
        worse: PyReadonlyArray2<'_, f64>,
        better: PyReadonlyArray2<'_, f64>,
        swapped: PyReadonlyArray2<'_, bool>,
    ) -> PyResult<Self> {
        let (systems, segments) = worse.as_array().dim();
        let fits = better.as_array().dim() == (systems, segments)
            && swapped.as_array().dim().1 == segments
            && systems >= 2;
        let bad = |why: &str| pyo3::exceptions::PyValueError::new_err(why.to_owned());
        if !fits {
            return Err(bad("scores and permutations of shapes that disagree"));
        }
        let scores = understudy_core::metaeval::spa::Scores {
            worse: worse.as_slice()?,
            better: better.as_slice()?,
            systems,
        };
        let inner = understudy_core::metaeval::spa::Mixtures::new(scores, swapped.as_slice()?)
            .ok_or_else(|| bad("no segment, or a score that is not finite"))?;
        Ok(Self { inner })
    }

    fn counts<'py>(
        &self,
        py: Python<'py>,
        coins: PyReadonlyArray2<'py, bool>,
        threads: usize,
    ) -> PyResult<Bound<'py, numpy::PyArray3<i64>>> {
        use numpy::{IntoPyArray, PyArrayMethods};
        let bad = || pyo3::exceptions::PyValueError::new_err("coins that are not one per cell");
        let (resamples, cells) = coins.as_array().dim();
        if cells != self.inner.cells() {
            return Err(bad());
        }
        let coins = coins.as_slice()?;
        // A resample is a thousand permutations' sums: worth a task of its own.
        let work = resamples.saturating_mul(cells);
        let counts = crate::pools::run(py, threads, work, |exec| self.inner.counts(coins, exec))
            .ok_or_else(bad)?;
        counts
            .into_pyarray(py)
            .reshape([resamples, 2, self.inner.pairs()])
    }
}

/// `n` coins `random_sample() > 0.5` of NumPy's legacy `RandomState` at state `(key, pos)`
/// (from `get_state()`), and the state after them, for `set_state`: `(coins, key, pos)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn mt_halves<'py>(
    py: Python<'py>,
    key: numpy::PyReadonlyArray1<'py, u32>,
    pos: usize,
    n: usize,
) -> PyResult<(
    Bound<'py, numpy::PyArray1<bool>>,
    Bound<'py, numpy::PyArray1<u32>>,
    usize,
)> {
    use numpy::IntoPyArray;
    use understudy_core::metaeval::mt19937::Mt19937;
    let mut mt = Mt19937::from_state(key.as_slice()?, pos).ok_or_else(|| {
        pyo3::exceptions::PyValueError::new_err(
            "an MT19937 state is 624 words and a position up to 624",
        )
    })?;
    let mut coins = vec![false; n];
    py.detach(|| mt.fill_halves(&mut coins));
    let (key, pos) = mt.state();
    Ok((coins.into_pyarray(py), key.to_vec().into_pyarray(py), pos))
}

/// PERM-BOTH's masked sums (see `understudy_core::metaeval::swapped`): for each resample (a row of
/// `coins`), each vector (a row of `vectors`) and each group of cells (`bounds`), the sum of the
/// vector over the group's swapped cells, as a resamples x vectors x groups array.
#[pyfunction]
#[pyo3(signature = (coins, vectors, bounds, threads = 1))]
pub fn swapped_sums<'py>(
    py: Python<'py>,
    coins: PyReadonlyArray2<'py, bool>,
    vectors: PyReadonlyArray2<'py, f64>,
    bounds: numpy::PyReadonlyArray1<'py, i64>,
    threads: usize,
) -> PyResult<Bound<'py, numpy::PyArray3<f64>>> {
    use numpy::{IntoPyArray, PyArrayMethods};
    let bad = || pyo3::exceptions::PyValueError::new_err("bounds that do not cut the cells");
    let (resamples, cells) = coins.as_array().dim();
    let (k, vector_cells) = vectors.as_array().dim();
    let bounds: Vec<usize> = bounds
        .as_array()
        .iter()
        .map(|&b| usize::try_from(b).map_err(|_| bad()))
        .collect::<PyResult<_>>()?;
    if vector_cells != cells || bounds.last() != Some(&cells) {
        return Err(bad());
    }
    let (coins, vectors) = (coins.as_slice()?, vectors.as_slice()?);
    let rows: Vec<&[f64]> = vectors.chunks(cells.max(1)).take(k).collect();
    let sums = crate::pools::run(py, threads, resamples, |exec| {
        understudy_core::metaeval::swapped::swapped_sums(coins, &rows, &bounds, exec)
    })
    .ok_or_else(bad)?;
    let groups = bounds.len() - 1;
    sums.into_pyarray(py).reshape([resamples, k, groups])
}
