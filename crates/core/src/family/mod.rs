//! What a metric family implements to be scored: the generic layer (the Python binding's one
//! scorer class, its chunking and Ctrl-C checks) is written once against [`Family`] and
//! [`PairTable`], and names no metric.
//!
//! A family is its cached references ([`ReferenceStore`]), the rows of hypotheses against
//! them, rows against references used once, and an all-pairs table. chrF takes the default
//! [`Family::sentence_stats`] (cache the references, then score); the families written as a
//! [`crate::family::per_reference::RowMetric`] (TER, WER, GLEU) score each segment's sentences in one
//! task, and BLEU keeps its faster path (references counted straight into the matching tables).
//! The stores live beside the traits: [`refset`] (cached references) and [`per_reference`]
//! (the row metrics' references); so do the rows' fixed-point units ([`fixed_point`]).

pub mod fixed_point;
pub mod per_reference;
pub mod refset;

use crate::error::CoreError;
use crate::family::refset::ReferenceStore;
use crate::parallel::Exec;
use crate::text::token_ids::IdBatch;

/// Statistics rows (one after another) and each segment's number of references.
pub type SentenceRows = (Vec<i64>, Vec<usize>);

/// What every metric's all-pairs table is: statistics of every hypothesis against
/// every reference (as its only reference), computed a block of hypotheses at a time.
pub trait PairTable: Sync {
    /// Number of hypotheses.
    fn n_hyps(&self) -> usize;
    /// Number of references.
    fn n_refs(&self) -> usize;
    /// Columns of a row.
    fn row_width(&self) -> usize;
    /// Rows of hypotheses `first..first + count` against every reference, written to
    /// `out` hypothesis-major.
    ///
    /// # Panics
    /// If the hypotheses do not exist or `out` does not hold `count * n_refs` rows.
    fn rows_into(
        &self,
        first: usize,
        count: usize,
        out: &mut [i64],
        exec: Exec,
    ) -> Result<(), CoreError>;

    /// One row per hypothesis against the references aggregated into one (reference
    /// aggregation, DeNero et al. 2009; Vamvas and Sennrich 2024): the mean of their
    /// n-gram counts and lengths. Every column is multiplied by the number of references
    /// so that the row stays whole (divided back in Python, where the arithmetic lives).
    /// `false`, and `out` untouched, where the family has no aggregated statistics.
    ///
    /// # Panics
    /// If `out` does not hold `n_hyps` rows.
    fn aggregate_rows_into(&self, _out: &mut [i64], _exec: Exec) -> bool {
        false
    }
}

/// A metric family's cached references and how it scores against them.
pub trait Family: ReferenceStore + Send + Sync + Sized {
    /// The family's configuration (what changes its statistics).
    type Config: Copy + Send + Sync;
    /// Its all-pairs table.
    type Pairs: PairTable + Send + 'static;

    /// Work per segment in units of a BLEU segment: sizes the chunks of work between two
    /// checks for Ctrl-C, and decides when work is worth running in parallel.
    const COST: usize = 1;

    /// No references yet, for `config`.
    fn empty(config: Self::Config) -> Self;

    /// The configuration.
    fn config(&self) -> Self::Config;

    /// Columns of a statistics row.
    fn row_width(&self) -> usize;

    /// Rows per system that segments `first..first + n` give: one per segment, or, for a
    /// family that keeps each reference's row (chrF picks its best reference by score,
    /// which is arithmetic, in Python), one per reference.
    fn rows_of(&self, _first: usize, n: usize) -> usize {
        n
    }

    /// Rows of several systems against segments `first..first + len`: for each segment,
    /// for each system, its rows ([`Family::rows_of`]). Each segment's references are
    /// loaded once for all systems.
    ///
    /// # Panics
    /// If the systems differ in length, the segments do not exist or `out` does not
    /// hold `systems.len() * rows_of(first, len)` rows.
    fn stats_many_into(
        &self,
        first: usize,
        systems: &[&[&str]],
        out: &mut [i64],
        exec: Exec,
    ) -> Result<(), CoreError>;

    /// Rows of `hyps` against reference streams used once (not kept), and each segment's
    /// number of references. By default the references are cached, then scored.
    fn sentence_stats<'a, S: AsRef<[Option<&'a str>]> + Sync>(
        config: Self::Config,
        hyps: &[&str],
        streams: &[S],
        exec: Exec,
    ) -> Result<(Vec<i64>, Vec<usize>), CoreError> {
        let mut refs = Self::empty(config);
        refs.extend(streams, exec)?;
        if hyps.len() != refs.len() {
            return Err(CoreError::hyps_vs_refs(hyps.len(), refs.len()));
        }
        let mut rows = vec![0i64; refs.rows_of(0, hyps.len()) * refs.row_width()];
        refs.stats_many_into(0, &[hyps], &mut rows, exec)?;
        Ok((rows, refs.refs_per_segment()))
    }

    /// [`Family::sentence_stats`] of token ids, each id a word, when the family counts ids
    /// without writing them as text (BLEU); `None` sends the caller to the text path.
    fn sentence_stats_ids(
        _config: Self::Config,
        _hyps: IdBatch<'_>,
        _streams: &[IdBatch<'_>],
        _exec: Exec,
    ) -> Option<Result<SentenceRows, CoreError>> {
        None
    }

    /// Every hypothesis against every reference as its only reference, each sentence
    /// prepared once.
    fn pairs(config: Self::Config, hyps: &[&str], refs: &[&str], exec: Exec) -> Self::Pairs;

    /// The tokens of each line as the family sees them, joined by single spaces, for a
    /// family that tokenizes (`None`: it does not, as chrF, which counts characters).
    fn tokenize(_config: Self::Config, _lines: &[&str]) -> Option<Vec<String>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::stats::BleuReferences;
    use crate::metrics::chrf::{ChrfConfig, ChrfReferences};
    use crate::metrics::ter::{TerConfig, TerReferences};
    use crate::{BleuConfig, Tokenizer};

    /// The rows of `hyps` against cached references, through the trait.
    fn cached<F: Family>(
        config: F::Config,
        hyps: &[&str],
        streams: &[Vec<Option<&str>>],
    ) -> Vec<i64> {
        let mut refs = F::empty(config);
        refs.extend(streams, Exec::Serial).unwrap();
        let mut out = vec![0i64; refs.rows_of(0, hyps.len()) * refs.row_width()];
        refs.stats_many_into(0, &[hyps], &mut out, Exec::Serial)
            .unwrap();
        out
    }

    fn check<F: Family>(config: F::Config) {
        let hyps = ["the cat sat", "a dog", "x y z"];
        let streams = vec![
            vec![Some("the cat sat on"), Some("a dog barked"), None],
            vec![Some("a cat"), None, Some("x y")],
        ];
        let (rows, counts) = F::sentence_stats(config, &hyps, &streams, Exec::Serial).unwrap();
        assert_eq!(rows, cached::<F>(config, &hyps, &streams));
        assert_eq!(counts, [2, 1, 1]);
        // Every pair's row is the sentence row against that reference alone.
        let refs = ["the cat sat on", "a cat"];
        let table = F::pairs(config, &hyps, &refs, Exec::Serial);
        let width = table.row_width();
        let mut out = vec![0i64; hyps.len() * refs.len() * width];
        table
            .rows_into(0, hyps.len(), &mut out, Exec::Serial)
            .unwrap();
        for (h, hyp) in hyps.iter().enumerate() {
            for (r, reference) in refs.iter().enumerate() {
                let alone = cached::<F>(config, &[hyp], &[vec![Some(reference)]]);
                let at = (h * refs.len() + r) * width;
                assert_eq!(out[at..at + width], alone[..], "{hyp} / {reference}");
            }
        }
    }

    #[test]
    fn every_family_scores_sentences_as_cached_references_and_pairs_as_one_reference() {
        check::<BleuReferences>(BleuConfig::new(Tokenizer::Tok13a, false, 4).unwrap());
        check::<ChrfReferences>(ChrfConfig::new(6, 2, false, false).unwrap());
        check::<TerReferences>(TerConfig::default());
        check::<crate::metrics::nist::NistReferences>(crate::metrics::nist::NistConfig::default());
        check::<crate::metrics::gleu::GleuReferences>(
            crate::metrics::gleu::GleuConfig::new(Tokenizer::Tok13a, false, 1, 4).unwrap(),
        );
    }

    #[test]
    fn chunked_errors_name_the_segment_of_the_whole_input() {
        let err = CoreError::NoReference { segment: 3 }.shifted(100);
        assert_eq!(err, CoreError::NoReference { segment: 103 });
        let other = CoreError::NoReferenceStreams.shifted(5);
        assert_eq!(other, CoreError::NoReferenceStreams);
    }
}
