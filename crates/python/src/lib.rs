//! `understudy._core`: the Python face of understudy-core.
//!
//! Only conversion lives here, one file per core concern: Python strings borrowed
//! (not copied) as `&str` ([`convert`]), NumPy arrays out, the GIL released for the
//! work, work split into chunks with a Ctrl-C check between them, a rayon pool per
//! thread count, none in a forked child ([`pools`]), and core errors raised as the
//! exception classes of `understudy.errors` through `From` conversions ([`errors`]).
//! One scorer class serves every family ([`scorer`], through [`any_family`]); each family's
//! file in [`families`] reads its configuration by name. [`text`] holds BLEU's tokenizer and
//! the C library's `log` and `exp`; [`fixed_point`] given scores as rows; [`analysis`] the
//! report's corpus analyses; [`segmentation`] a hypothesis cut to its references' lines; [`correlation`] acc_eq's search and SPA's counts; [`stall`] a process that stops making progress ended with one line; [`oom`] the
//! allocator that reports a failed allocation as one line instead of aborting.
//!
//! Python sees one submodule per concern (`understudy._core.text`, `.families`,
//! `.arithmetic`, `.analysis`, `.segmentation`, `.metaeval`), each with its stub in `python/understudy/_core/`;
//! the top level keeps `VERSION` and `pool_threads`.

mod analysis;
mod any_family;
mod convert;
mod correlation;
mod errors;
mod families;
mod fixed_point;
mod oom;
mod pools;
mod scorer;
mod segmentation;
mod stall;
mod text;

use pyo3::prelude::*;

#[global_allocator]
static ALLOCATOR: oom::ExitOnOom = oom::ExitOnOom;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // NumPy's C API is looked up on first use, and the numpy crate panics if that lookup
    // fails (as it does when Ctrl-C is pending): look it up now, at import.
    let _ = numpy::PyArray1::<i64>::zeros(m.py(), 0, false);
    // The version lives in Cargo.toml alone: the wheel's metadata and Python's __version__.
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(pools::pool_threads, m)?)?;
    m.add_function(wrap_pyfunction!(stall::heartbeat, m)?)?;
    m.add_function(wrap_pyfunction!(stall::watch_heartbeat, m)?)?;
    submodule(m, "text", |m| {
        m.add_function(wrap_pyfunction!(text::tokenize, m)?)?;
        m.add_function(wrap_pyfunction!(text::tokenizer_names, m)?)?;
        m.add_function(wrap_pyfunction!(text::normalize, m)?)?;
        m.add_function(wrap_pyfunction!(text::unicode_forms, m)?)?;
        m.add_function(wrap_pyfunction!(text::id_lines, m)?)?;
        m.add_function(wrap_pyfunction!(text::flat_ids, m)?)
    })?;
    submodule(m, "families", |m| {
        m.add_class::<scorer::Scorer>()?;
        m.add_class::<scorer::Pairs>()?;
        m.add_function(wrap_pyfunction!(families::family_names, m)?)?;
        m.add_function(wrap_pyfunction!(families::family_constants, m)?)?;
        m.add_function(wrap_pyfunction!(families::wer::wer_alignments, m)?)?;
        m.add_function(wrap_pyfunction!(fixed_point::given_rows, m)?)
    })?;
    submodule(m, "arithmetic", |m| {
        m.add_function(wrap_pyfunction!(text::ln, m)?)?;
        m.add_function(wrap_pyfunction!(text::exp, m)?)
    })?;
    submodule(m, "analysis", |m| {
        m.add_function(wrap_pyfunction!(analysis::ngram_matches, m)?)?;
        m.add_function(wrap_pyfunction!(analysis::matched_tokens, m)?)?;
        m.add_function(wrap_pyfunction!(analysis::ordered_overlaps, m)?)
    })?;
    submodule(m, "segmentation", |m| {
        m.add_function(wrap_pyfunction!(segmentation::resegment, m)?)?;
        m.add_function(wrap_pyfunction!(segmentation::resegment_methods, m)?)
    })?;
    submodule(m, "metaeval", |m| {
        m.add_class::<correlation::SpaMixtures>()?;
        m.add_function(wrap_pyfunction!(correlation::tie_search, m)?)?;
        m.add_function(wrap_pyfunction!(correlation::mt_halves, m)?)?;
        m.add_function(wrap_pyfunction!(correlation::swapped_sums, m)?)
    })
}

/// `understudy._core.<name>`, filled by `fill`: named in full and entered in `sys.modules`,
/// so that `import understudy._core.text` works and its classes pickle by that name.
fn submodule(
    parent: &Bound<'_, PyModule>,
    name: &str,
    fill: impl FnOnce(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let py = parent.py();
    let full = format!("understudy._core.{name}");
    let module = PyModule::new(py, &full)?;
    fill(&module)?;
    parent.add(name, &module)?;
    py.import("sys")?.getattr("modules")?.set_item(full, module)
}
