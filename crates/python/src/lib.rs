//! `understudy._core`: the Python face of understudy-core.
//!
//! Only conversion lives here, one file per core concern: Python strings borrowed
//! (not copied) as `&str` ([`convert`]), NumPy arrays out, the GIL released for the
//! work, work split into chunks with a Ctrl-C check between them, a rayon pool per
//! thread count, none in a forked child ([`pools`]), and core errors raised as the
//! exception classes of `understudy.errors` through `From` conversions ([`errors`]).
//! Each metric has its module: [`bleu`], [`chrf`], [`ter`]; [`text`] holds the
//! tokenizer and the C library's `log` and `exp`; [`analysis`] the report's corpus analyses.

mod analysis;
mod bleu;
mod chrf;
mod convert;
mod errors;
mod pools;
mod ter;
mod text;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<bleu::BleuScorer>()?;
    m.add_class::<bleu::BleuPairs>()?;
    m.add_class::<chrf::ChrfScorer>()?;
    m.add_class::<chrf::ChrfPairs>()?;
    m.add_class::<ter::TerScorer>()?;
    m.add_class::<ter::TerPairs>()?;
    m.add_function(wrap_pyfunction!(text::tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(text::tokenizer_names, m)?)?;
    m.add_function(wrap_pyfunction!(text::ln, m)?)?;
    m.add_function(wrap_pyfunction!(text::exp, m)?)?;
    m.add_function(wrap_pyfunction!(pools::pool_threads, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::ngram_matches, m)?)?;
    m.add_function(wrap_pyfunction!(analysis::matched_tokens, m)?)?;
    Ok(())
}
