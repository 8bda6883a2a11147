//! BLEU's configuration as Python passes it.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use understudy_core::{BleuConfig, BleuReferences, Tokenizer};

use super::boxed;
use crate::any_family::AnyFamily;
use crate::errors::Result;

/// What decides BLEU's statistics: the tokenizer, case and maximum order.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Args {
    tokenizer: String,
    lowercase: bool,
    max_order: usize,
}

/// The core's BLEU configuration of a tokenizer name, case and maximum order.
pub fn make_config(tokenizer: &str, lowercase: bool, max_order: usize) -> Result<BleuConfig> {
    let tok: Tokenizer = tokenizer.parse()?;
    Ok(BleuConfig::new(tok, lowercase, max_order)?)
}

pub(super) fn build(config: &Bound<'_, PyDict>) -> Result<Box<dyn AnyFamily>> {
    let args: Args = config.extract()?;
    let config = make_config(&args.tokenizer, args.lowercase, args.max_order)?;
    Ok(boxed::<BleuReferences>(config))
}

pub(super) fn constants() -> BTreeMap<&'static str, i64> {
    BTreeMap::new()
}
