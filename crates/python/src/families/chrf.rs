//! chrF's configuration as Python passes it.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use understudy_core::metrics::chrf::{ChrfConfig, ChrfReferences, MAX_ORDER};

use super::boxed;
use crate::any_family::AnyFamily;
use crate::errors::Result;

/// What decides chrF's statistics (beta and smoothing are arithmetic, in Python).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Args {
    char_order: usize,
    word_order: usize,
    lowercase: bool,
    whitespace: bool,
}

pub(super) fn build(config: &Bound<'_, PyDict>) -> Result<Box<dyn AnyFamily>> {
    let a: Args = config.extract()?;
    let config = ChrfConfig::new(a.char_order, a.word_order, a.lowercase, a.whitespace)?;
    Ok(boxed::<ChrfReferences>(config))
}

pub(super) fn constants() -> BTreeMap<&'static str, i64> {
    BTreeMap::from([("max_order", MAX_ORDER as i64)])
}
