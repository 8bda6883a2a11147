//! Each family's configuration as Python passes it, by name, and the registry of families.
//!
//! A family's file holds a struct read from the configuration dict (by field name, so a
//! swapped or missing key is an error, never a silent misreading), how it becomes the
//! core's configuration, and the family's constants; [`build`] is the one list of families.

mod bleu;
mod chrf;
mod gleu;
mod nist;
mod ter;
pub mod wer;

pub use bleu::make_config as make_bleu_config;

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use understudy_core::family::Family;

use crate::any_family::AnyFamily;
use crate::errors::{config_error, Error, Result};

/// The families, by name: how each is built and its constants.
const FAMILIES: &[(&str, Builder, Constants)] = &[
    ("bleu", bleu::build, bleu::constants),
    ("chrf", chrf::build, chrf::constants),
    ("ter", ter::build, ter::constants),
    ("wer", wer::build, wer::constants),
    ("gleu", gleu::build, gleu::constants),
    ("nist", nist::build, nist::constants),
];

type Builder = fn(&Bound<'_, PyDict>) -> Result<Box<dyn AnyFamily>>;
type Constants = fn() -> BTreeMap<&'static str, i64>;

/// The store of family `name` for the configuration `config` (a dict by field name).
pub fn build(name: &str, config: &Bound<'_, PyDict>) -> Result<Box<dyn AnyFamily>> {
    let (_, build, _) = find(name)?;
    build(config).map_err(|err| match err {
        // A missing key or a value of the wrong type in the dict: name the family and the key.
        Error::Py(err) => config_error(format!("the {name} scorer's configuration: {err}")),
        core => core,
    })
}

fn find(name: &str) -> Result<(&'static str, Builder, Constants)> {
    FAMILIES
        .iter()
        .copied()
        .find(|(n, _, _)| *n == name)
        .ok_or_else(|| {
            let known: Vec<&str> = FAMILIES.iter().map(|(n, _, _)| *n).collect();
            let message = format!(
                "unknown metric family '{name}'; known: {}",
                known.join(", ")
            );
            config_error(message)
        })
}

/// An empty store of `F` for `config`, boxed for the scorer class.
fn boxed<F: Family + 'static>(config: F::Config) -> Box<dyn AnyFamily> {
    Box::new(F::empty(config))
}

/// The names of the families the core scores.
#[pyfunction]
pub fn family_names() -> Vec<&'static str> {
    FAMILIES.iter().map(|(n, _, _)| *n).collect()
}

/// A family's constants (limits and scales its Python module needs), by name.
#[pyfunction]
pub fn family_constants(name: &str) -> Result<BTreeMap<&'static str, i64>> {
    let (_, _, constants) = find(name)?;
    Ok(constants())
}
