//! WER's configuration as Python passes it.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use understudy_core::family::refset::check_parallel;
use understudy_core::metrics::wer::{
    closest_alignment, Units, WerConfig, WerReferences, WerScratch, MAX_CELLS, ROW_WIDTH,
};
use understudy_core::CoreError;

use super::boxed;
use crate::any_family::AnyFamily;
use crate::convert::{borrow_all, borrow_streams, Streams};
use crate::errors::Result;

/// What decides WER's statistics: characters (CER) or words, lowercasing, punctuation removal.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Args {
    characters: bool,
    lowercase: bool,
    no_punct: bool,
}

fn read(config: &Bound<'_, PyDict>) -> Result<WerConfig> {
    let a: Args = config.extract()?;
    Ok(WerConfig {
        characters: a.characters,
        lowercase: a.lowercase,
        no_punct: a.no_punct,
    })
}

pub(super) fn build(config: &Bound<'_, PyDict>) -> Result<Box<dyn AnyFamily>> {
    Ok(boxed::<WerReferences>(read(config)?))
}

/// One segment's alignment: the closest reference's index, its units, the hypothesis's units,
/// and the runs `(kind, ref_start, ref_end, hyp_start, hyp_end)`.
type Aligned = (
    usize,
    Vec<String>,
    Vec<String>,
    Vec<(&'static str, usize, usize, usize, usize)>,
);

/// Each hypothesis aligned with its closest reference (WER's or CER's, by `config`), as
/// jiwer's `process_words(...).alignments` gives it for a single reference.
#[pyfunction]
pub fn wer_alignments(
    py: Python<'_>,
    config: &Bound<'_, PyDict>,
    hyps: Vec<Bound<'_, PyString>>,
    streams: Streams<'_>,
) -> Result<Vec<Aligned>> {
    let config = read(config)?;
    let hyps = borrow_all(&hyps)?;
    let streams = borrow_streams(&streams)?;
    let n = check_parallel(&streams)?;
    if n != hyps.len() {
        return Err(CoreError::hyps_vs_refs(hyps.len(), n).into());
    }
    py.detach(|| {
        let mut scratch = WerScratch::default();
        let mut out = Vec::with_capacity(n);
        for (i, hyp) in hyps.iter().enumerate() {
            let refs: Vec<Units> = streams
                .iter()
                .filter_map(|s| s[i])
                .map(|r| config.units(r))
                .collect();
            let hyp = config.units(hyp);
            let (k, chunks) = closest_alignment(&hyp, &refs, &mut scratch, i)?;
            let runs = chunks
                .iter()
                .map(|c| (c.kind, c.src.0, c.src.1, c.dest.0, c.dest.1))
                .collect();
            out.push((k, refs[k].strings(), hyp.strings(), runs));
        }
        Ok(out)
    })
}

pub(super) fn constants() -> BTreeMap<&'static str, i64> {
    BTreeMap::from([
        ("row_width", ROW_WIDTH as i64),
        ("max_cells", MAX_CELLS as i64),
    ])
}
