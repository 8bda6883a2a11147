//! NIST's configuration as Python passes it.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use understudy_core::family::fixed_point::{INFO_BITS, LENGTH_SCALE, MAX_REFS};
use understudy_core::metrics::nist::{NistConfig, NistReferences, ORDERS, ROW_WIDTH};

use super::boxed;
use crate::any_family::AnyFamily;
use crate::errors::Result;

/// What decides NIST's statistics: whether case is kept (mteval's `-c`), and mteval's `0` bug.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Args {
    preserve_case: bool,
    fix_zero: bool,
}

pub(super) fn build(config: &Bound<'_, PyDict>) -> Result<Box<dyn AnyFamily>> {
    let a: Args = config.extract()?;
    Ok(boxed::<NistReferences>(NistConfig {
        preserve_case: a.preserve_case,
        fix_zero: a.fix_zero,
    }))
}

pub(super) fn constants() -> BTreeMap<&'static str, i64> {
    BTreeMap::from([
        ("row_width", ROW_WIDTH as i64),
        ("orders", ORDERS as i64),
        ("info_bits", i64::from(INFO_BITS)),
        ("length_scale", LENGTH_SCALE),
        ("max_refs", MAX_REFS as i64),
    ])
}
