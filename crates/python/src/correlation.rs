//! The correlation statistics that need a loop NumPy cannot vectorise: acc_eq's threshold search.

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
