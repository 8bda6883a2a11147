//! Given segment scores as statistics rows, in the core's fixed point
//! ([`understudy_core::family::fixed_point`]).

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2, PyReadonlyArray1};
use pyo3::prelude::*;
use understudy_core::family::fixed_point::{given_row, GIVEN_ROW_WIDTH};

/// Each score's row `[whole + 2**31, high 32 bits, low 32 bits of the fraction, 1]`, or the
/// index of the first score that is not finite or not below 2**31 in magnitude: `(rows, None)`
/// or `(None, index)`.
#[pyfunction]
pub fn given_rows<'py>(
    py: Python<'py>,
    scores: PyReadonlyArray1<'py, f64>,
) -> (Option<Bound<'py, PyArray2<i64>>>, Option<usize>) {
    let scores = scores.as_array();
    let mut rows = Array2::<i64>::zeros((scores.len(), GIVEN_ROW_WIDTH));
    for (k, (&score, mut row)) in scores.iter().zip(rows.rows_mut()).enumerate() {
        match given_row(score) {
            Some(values) => row.assign(&numpy::ndarray::ArrayView1::from(&values)),
            None => return (None, Some(k)),
        }
    }
    (Some(rows.into_pyarray(py)), None)
}
