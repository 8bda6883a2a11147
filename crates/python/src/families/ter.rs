//! TER's configuration as Python passes it.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use understudy_core::family::fixed_point::{LENGTH_SCALE, MAX_REFS};
use understudy_core::metrics::ter::{TerConfig, TerReferences};

use super::boxed;
use crate::any_family::AnyFamily;
use crate::errors::Result;

/// What decides TER's statistics; `fixed` tokenizes references once (sacrebleu: twice).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Args {
    normalized: bool,
    no_punct: bool,
    asian_support: bool,
    case_sensitive: bool,
    fixed: bool,
}

pub(super) fn build(config: &Bound<'_, PyDict>) -> Result<Box<dyn AnyFamily>> {
    let a: Args = config.extract()?;
    let config = TerConfig {
        normalized: a.normalized,
        no_punct: a.no_punct,
        asian_support: a.asian_support,
        case_sensitive: a.case_sensitive,
        fixed: a.fixed,
    };
    Ok(boxed::<TerReferences>(config))
}

pub(super) fn constants() -> BTreeMap<&'static str, i64> {
    BTreeMap::from([
        ("length_scale", LENGTH_SCALE),
        ("max_refs", MAX_REFS as i64),
    ])
}
