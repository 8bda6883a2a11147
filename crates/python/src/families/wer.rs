//! WER's configuration as Python passes it.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use understudy_core::wer::{WerConfig, WerReferences, MAX_CELLS, ROW_WIDTH};

use super::boxed;
use crate::errors::Result;
use crate::scorer::AnyFamily;

/// What decides WER's statistics: characters (CER) or words, lowercasing, punctuation removal.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Args {
    characters: bool,
    lowercase: bool,
    no_punct: bool,
}

pub(super) fn build(config: &Bound<'_, PyDict>) -> Result<Box<dyn AnyFamily>> {
    let a: Args = config.extract()?;
    let config = WerConfig {
        characters: a.characters,
        lowercase: a.lowercase,
        no_punct: a.no_punct,
    };
    Ok(boxed::<WerReferences>(config))
}

pub(super) fn constants() -> BTreeMap<&'static str, i64> {
    BTreeMap::from([
        ("row_width", ROW_WIDTH as i64),
        ("max_cells", MAX_CELLS as i64),
    ])
}
