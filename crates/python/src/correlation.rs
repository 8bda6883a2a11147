//! The correlation statistics that need a loop NumPy cannot vectorise: acc_eq's threshold search,
//! and SPA's counts of permuted differences over many mixtures at once.

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
/// `(p, b, pair)` where the difference is within the margin (for an exact sum to decide).
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn spa_counts<'py>(
    py: Python<'py>,
    sums: numpy::PyReadonlyArray3<'py, f64>,
    margin: PyReadonlyArray2<'py, f64>,
) -> PyResult<(Bound<'py, numpy::PyArray2<i64>>, Vec<(usize, usize, usize)>)> {
    use numpy::{IntoPyArray, PyArrayMethods};
    let (permutations, blocks, systems) = sums.as_array().dim();
    let pairs: Vec<(usize, usize)> = (0..systems)
        .flat_map(|i| (i + 1..systems).map(move |j| (i, j)))
        .collect();
    if margin.as_array().dim() != (permutations, pairs.len()) {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "margin has the wrong shape",
        ));
    }
    let sums = sums.as_slice()?;
    let margin = margin.as_slice()?;
    let (counts, unsure) = py.detach(|| {
        use rayon::prelude::*;
        let per_block: Vec<(Vec<i64>, Vec<(usize, usize, usize)>)> = (0..blocks)
            .into_par_iter()
            .map(|b| {
                let mut counts = vec![0i64; pairs.len()];
                let mut unsure = Vec::new();
                for p in 0..permutations {
                    let row = &sums[(p * blocks + b) * systems..][..systems];
                    let bound = &margin[p * pairs.len()..][..pairs.len()];
                    let mut close = false;
                    for ((&(i, j), &m), count) in pairs.iter().zip(bound).zip(counts.iter_mut()) {
                        let difference = row[i] - row[j];
                        *count += i64::from(difference < -m);
                        close |= difference.abs() <= m;
                    }
                    if close {
                        for (k, (&(i, j), &m)) in pairs.iter().zip(bound).enumerate() {
                            if (row[i] - row[j]).abs() <= m {
                                unsure.push((p, b, k));
                            }
                        }
                    }
                }
                (counts, unsure)
            })
            .collect();
        let counts: Vec<i64> = per_block
            .iter()
            .flat_map(|(c, _)| c.iter().copied())
            .collect();
        let unsure = per_block
            .into_iter()
            .flat_map(|(_, u)| u)
            .collect::<Vec<_>>();
        (counts, unsure)
    });
    let array = counts.into_pyarray(py).reshape([blocks, pairs.len()])?;
    Ok((array, unsure))
}
