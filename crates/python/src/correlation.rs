//! The correlation statistics that need a loop NumPy cannot vectorise: acc_eq's threshold search,
//! SPA's counts of permuted differences over many mixtures at once, and PERM-BOTH's masked sums.

use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use understudy_core::ties;

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

/// For each block `b` and pair `i < j` of systems (in `triu_indices` order): how many permutations
/// `p` have `sums[p, b, i] - sums[p, b, j] < -margin[p, pair]` (surely at most 0), and every
/// `(p, b, pair)` where the difference is within the margin (for an exact sum to decide); see
/// `understudy_core::spa::pair_counts`.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn spa_counts<'py>(
    py: Python<'py>,
    sums: numpy::PyReadonlyArray3<'py, f64>,
    margin: PyReadonlyArray2<'py, f64>,
    threads: usize,
) -> PyResult<(Bound<'py, numpy::PyArray2<i64>>, Vec<(usize, usize, usize)>)> {
    use numpy::{IntoPyArray, PyArrayMethods};
    let (permutations, blocks, systems) = sums.as_array().dim();
    let pairs = systems * systems.saturating_sub(1) / 2;
    if margin.as_array().dim() != (permutations, pairs) {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "margin has the wrong shape",
        ));
    }
    let (sums, margin) = (sums.as_slice()?, margin.as_slice()?);
    let (counts, unsure) = crate::pools::run(py, threads, permutations * blocks, |exec| {
        understudy_core::spa::pair_counts(sums, margin, (permutations, blocks, systems), exec)
    });
    let array = counts.into_pyarray(py).reshape([blocks, pairs])?;
    Ok((array, unsure))
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
    use understudy_core::mt19937::Mt19937;
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

/// PERM-BOTH's masked sums (see `understudy_core::swapped`): for each resample (a row of
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
        understudy_core::swapped::swapped_sums(coins, &rows, &bounds, exec)
    })
    .ok_or_else(bad)?;
    let groups = bounds.len() - 1;
    sums.into_pyarray(py).reshape([resamples, k, groups])
}
