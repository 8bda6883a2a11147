//! GLEU's configuration as Python passes it.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use understudy_core::metrics::gleu::{GleuConfig, GleuReferences, MAX_ORDER, ROW_WIDTH};

use super::boxed;
use crate::any_family::AnyFamily;
use crate::errors::Result;

/// What decides GLEU's statistics: the tokenizer, case and the range of n-gram orders.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Args {
    tokenizer: String,
    lowercase: bool,
    min_order: usize,
    max_order: usize,
}

pub(super) fn build(config: &Bound<'_, PyDict>) -> Result<Box<dyn AnyFamily>> {
    let a: Args = config.extract()?;
    let config = GleuConfig::new(a.tokenizer.parse()?, a.lowercase, a.min_order, a.max_order)?;
    Ok(boxed::<GleuReferences>(config))
}

pub(super) fn constants() -> BTreeMap<&'static str, i64> {
    BTreeMap::from([
        ("row_width", ROW_WIDTH as i64),
        ("max_order", MAX_ORDER as i64),
    ])
}
