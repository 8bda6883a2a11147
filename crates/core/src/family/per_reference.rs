//! A family written as what defines it, and nothing else: how a sentence is prepared (as a
//! hypothesis, as a reference) and the statistics row of one prepared hypothesis against its
//! segment's prepared references. [`PerReference`] is then its reference store, its
//! [`Family`] (the rows of many systems, sentence rows) and its all-pairs table
//! ([`PerReferencePairs`]), written once, serial or parallel.
//!
//! TER is written this way ([`crate::metrics::ter::Ter`]); BLEU and chrF keep their own stores for
//! their faster paths (merged reference tables, a corpus-wide n-gram table).

use std::marker::PhantomData;

use crate::error::CoreError;
use crate::family::refset::{RefSet, ReferenceStore};
use crate::family::{Family, PairTable};
use crate::parallel::{self, Exec, Grain};

/// What a family defines: its configuration, its prepared sentences, its row.
pub trait RowMetric: Send + Sync + Sized + 'static {
    /// What changes the statistics.
    type Config: Copy + Send + Sync + 'static;
    /// A sentence as the row needs it (tokens, character counts).
    type Prepared: Send + Sync;
    /// Per-thread working space of [`RowMetric::row`] (`()` when none).
    type Scratch: Default;

    /// Work per segment in units of a BLEU segment (see [`Family::COST`]).
    const COST: usize = 1;
    /// The most references a segment may have (a family whose rows average over the
    /// references bounds them so that the sums stay exact).
    const MAX_REFS: usize = usize::MAX;

    /// Columns of a row.
    fn row_width(config: Self::Config) -> usize;

    /// A hypothesis, prepared.
    fn prepare_hyp(config: Self::Config, text: &str) -> Self::Prepared;

    /// A reference, prepared (as a hypothesis unless the family reads references apart).
    fn prepare_ref(config: Self::Config, text: &str) -> Self::Prepared {
        Self::prepare_hyp(config, text)
    }

    /// The row of `hyp` against `refs` (one or more) into `out` (`row_width` columns);
    /// `segment` is the segment's number, for errors.
    fn row(
        config: Self::Config,
        scratch: &mut Self::Scratch,
        segment: usize,
        hyp: &Self::Prepared,
        refs: &[Self::Prepared],
        out: &mut [i64],
    ) -> Result<(), CoreError>;

    /// The row of `hyp` against references scored against it only (sentence statistics):
    /// by default both prepared and [`RowMetric::row`]; a family overrides it where what a
    /// prepared reference keeps for many hypotheses (GLEU's trie) costs more to build than
    /// to do without.
    fn row_once(
        config: Self::Config,
        scratch: &mut Self::Scratch,
        segment: usize,
        hyp: &str,
        refs: &[&str],
        out: &mut [i64],
    ) -> Result<(), CoreError> {
        let hyp = Self::prepare_hyp(config, hyp);
        let refs: Vec<Self::Prepared> = refs.iter().map(|r| Self::prepare_ref(config, r)).collect();
        Self::row(config, scratch, segment, &hyp, &refs, out)
    }

    /// Each line's tokens as the family sees them, joined by single spaces (`None`: the family
    /// does not tokenize); see [`Family::tokenize`].
    fn tokenize(_config: Self::Config, _lines: &[&str]) -> Option<Vec<String>> {
        None
    }
}

/// The cached references of a [`RowMetric`], prepared once per segment.
pub struct PerReference<M: RowMetric> {
    config: M::Config,
    refs: RefSet<M::Prepared>,
}

impl<M: RowMetric> ReferenceStore for PerReference<M> {
    fn extend<'a, S: AsRef<[Option<&'a str>]> + Sync>(
        &mut self,
        streams: &[S],
        exec: Exec,
    ) -> Result<(), CoreError> {
        let config = self.config;
        self.refs.extend(streams, M::MAX_REFS, |lines| {
            parallel::map(exec, lines, || (), |_, line| M::prepare_ref(config, line))
        })
    }

    fn len(&self) -> usize {
        self.refs.len()
    }

    fn refs_per_segment(&self) -> Vec<usize> {
        self.refs.refs_per_segment()
    }
}

impl<M: RowMetric> Family for PerReference<M> {
    type Config = M::Config;
    type Pairs = PerReferencePairs<M>;

    const COST: usize = M::COST;

    fn empty(config: M::Config) -> Self {
        PerReference {
            config,
            refs: RefSet::default(),
        }
    }

    fn config(&self) -> M::Config {
        self.config
    }

    fn row_width(&self) -> usize {
        M::row_width(self.config)
    }

    fn stats_many_into(
        &self,
        first: usize,
        systems: &[&[&str]],
        out: &mut [i64],
        exec: Exec,
    ) -> Result<(), CoreError> {
        let n = systems.first().map_or(0, |s| s.len());
        assert!(
            systems.iter().all(|s| s.len() == n),
            "streams of one length"
        );
        let width = self.row_width();
        let config = self.config;
        each_block::<M>(
            exec,
            first,
            out,
            systems.len() * width,
            |scratch, i, rows| {
                let refs = self.refs.segment(i);
                for (system, row) in systems.iter().zip(rows.chunks_mut(width)) {
                    let hyp = M::prepare_hyp(config, system[i - first]);
                    M::row(config, scratch, i, &hyp, refs, row)?;
                }
                Ok(())
            },
        )
    }

    /// Each segment's hypothesis and references in one task ([`RowMetric::row_once`]):
    /// nothing is kept, so nothing is prepared that one row does not need.
    fn sentence_stats<'a, S: AsRef<[Option<&'a str>]> + Sync>(
        config: M::Config,
        hyps: &[&str],
        streams: &[S],
        exec: Exec,
    ) -> Result<(Vec<i64>, Vec<usize>), CoreError> {
        // The references as they are, checked as a store checks them.
        let mut lines: RefSet<&str> = RefSet::default();
        lines.extend(streams, M::MAX_REFS, <[&str]>::to_vec)?;
        if hyps.len() != lines.len() {
            return Err(CoreError::hyps_vs_refs(hyps.len(), lines.len()));
        }
        let width = M::row_width(config);
        let mut rows = vec![0i64; hyps.len() * width];
        each_block::<M>(exec, 0, &mut rows, width, |scratch, i, row| {
            M::row_once(config, scratch, i, hyps[i], lines.segment(i), row)
        })?;
        Ok((rows, lines.refs_per_segment()))
    }

    fn tokenize(config: M::Config, lines: &[&str]) -> Option<Vec<String>> {
        M::tokenize(config, lines)
    }

    fn pairs(config: M::Config, hyps: &[&str], refs: &[&str], exec: Exec) -> PerReferencePairs<M> {
        PerReferencePairs {
            config,
            hyps: parallel::map(exec, hyps, || (), |_, h| M::prepare_hyp(config, h)),
            refs: parallel::map(exec, refs, || (), |_, r| M::prepare_ref(config, r)),
            metric: PhantomData,
        }
    }
}

fn grain(cost: usize) -> Grain {
    if cost > 4 {
        Grain::Coarse
    } else {
        Grain::Fine
    }
}

/// Every hypothesis against every reference as its only reference, each sentence prepared
/// once.
pub struct PerReferencePairs<M: RowMetric> {
    config: M::Config,
    hyps: Vec<M::Prepared>,
    refs: Vec<M::Prepared>,
    metric: PhantomData<M>,
}

impl<M: RowMetric> PairTable for PerReferencePairs<M> {
    fn n_hyps(&self) -> usize {
        self.hyps.len()
    }

    fn n_refs(&self) -> usize {
        self.refs.len()
    }

    fn row_width(&self) -> usize {
        M::row_width(self.config)
    }

    fn rows_into(
        &self,
        first: usize,
        count: usize,
        out: &mut [i64],
        exec: Exec,
    ) -> Result<(), CoreError> {
        let width = self.row_width();
        let rows = &mut out[..count * self.refs.len() * width];
        each_block::<M>(
            exec,
            first,
            rows,
            self.refs.len() * width,
            |scratch, h, block| {
                for (r, row) in block.chunks_mut(width).enumerate() {
                    M::row(
                        self.config,
                        scratch,
                        h,
                        &self.hyps[h],
                        &self.refs[r..r + 1],
                        row,
                    )?;
                }
                Ok(())
            },
        )
    }
}

/// `fill(scratch, item, block)` for each `block`-long block of `out` (item `first + k` for the
/// k-th), serial or parallel; the first failing block's error (by position) is the result.
fn each_block<M: RowMetric>(
    exec: Exec,
    first: usize,
    out: &mut [i64],
    block: usize,
    fill: impl Fn(&mut M::Scratch, usize, &mut [i64]) -> Result<(), CoreError> + Sync + Send,
) -> Result<(), CoreError> {
    if block == 0 {
        return Ok(());
    }
    let mut work: Vec<(usize, &mut [i64], Option<CoreError>)> = out
        .chunks_mut(block)
        .enumerate()
        .map(|(k, rows)| (first + k, rows, None))
        .collect();
    parallel::for_each_mut(
        exec,
        &mut work,
        grain(M::COST),
        M::Scratch::default,
        |scratch, item| {
            let (i, rows, error) = item;
            *error = fill(scratch, *i, rows).err();
        },
    );
    work.into_iter().find_map(|(_, _, e)| e).map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy family (position-independent word matches): `[matches, hyp words, closest
    /// reference length]`, references lowercased as a family that reads them apart would.
    struct Overlap;

    impl RowMetric for Overlap {
        type Config = bool;
        type Prepared = Vec<String>;
        type Scratch = Vec<usize>;

        fn row_width(_: bool) -> usize {
            3
        }

        fn prepare_hyp(_: bool, text: &str) -> Vec<String> {
            text.split_whitespace().map(str::to_owned).collect()
        }

        fn prepare_ref(lower: bool, text: &str) -> Vec<String> {
            let words = Self::prepare_hyp(lower, text);
            if lower {
                words.iter().map(|w| w.to_lowercase()).collect()
            } else {
                words
            }
        }

        fn row(
            _: bool,
            lengths: &mut Vec<usize>,
            segment: usize,
            hyp: &Vec<String>,
            refs: &[Vec<String>],
            out: &mut [i64],
        ) -> Result<(), CoreError> {
            if hyp.iter().any(|w| w == "BOOM") {
                return Err(CoreError::NoReference { segment });
            }
            lengths.clear();
            lengths.extend(refs.iter().map(Vec::len));
            let best = refs
                .iter()
                .map(|r| hyp.iter().filter(|w| r.contains(w)).count())
                .max()
                .unwrap_or(0);
            let closest = lengths
                .iter()
                .min_by_key(|&&l| l.abs_diff(hyp.len()))
                .copied();
            out.copy_from_slice(&[best as i64, hyp.len() as i64, closest.unwrap_or(0) as i64]);
            Ok(())
        }
    }

    type Store = PerReference<Overlap>;

    #[test]
    fn rows_follow_the_definition_for_every_system_and_reference() {
        let mut store = Store::empty(true);
        let streams = vec![
            vec![Some("The cat sat"), Some("a dog")],
            vec![None, Some("A DOG ran")],
        ];
        store.extend(&streams, Exec::Serial).unwrap();
        assert_eq!(store.refs_per_segment(), [1, 2]);
        let systems: [&[&str]; 2] = [&["the cat", "a dog ran"], &["cat sat sat", "dog"]];
        let mut out = vec![0i64; 2 * 2 * 3];
        store
            .stats_many_into(0, &systems, &mut out, Exec::Serial)
            .unwrap();
        // Segment-major, then system: "the cat" vs "the cat sat" (lowercased), and so on.
        assert_eq!(out, [2, 2, 3, 3, 3, 3, 3, 3, 3, 1, 1, 2]);
    }

    #[test]
    fn sentence_rows_are_the_rows_against_cached_references() {
        let streams = vec![
            vec![Some("The cat sat"), Some("a dog"), None],
            vec![None, Some("A DOG ran"), Some("x y")],
        ];
        let hyps = ["the cat", "a dog ran", "y"];
        let mut store = Store::empty(true);
        store.extend(&streams, Exec::Serial).unwrap();
        let mut cached = vec![0i64; 3 * 3];
        store
            .stats_many_into(0, &[&hyps], &mut cached, Exec::Serial)
            .unwrap();
        let once = Store::sentence_stats(true, &hyps, &streams, Exec::Serial).unwrap();
        assert_eq!(once, (cached, vec![1, 2, 1]));
        let short = Store::sentence_stats(true, &hyps[..2], &streams, Exec::Serial);
        assert_eq!(short, Err(CoreError::hyps_vs_refs(2, 3)));
    }

    #[test]
    fn serial_and_parallel_and_sentence_rows_agree() {
        let hyps: Vec<String> = (0..500)
            .map(|i| format!("w{} w{} x", i % 7, i % 3))
            .collect();
        let refs: Vec<String> = (0..500).map(|i| format!("w{} x y", i % 5)).collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let stream: Vec<Option<&str>> = refs.iter().map(|r| Some(r.as_str())).collect();
        let (serial, counts) =
            Store::sentence_stats(false, &hyps, &[&stream[..]], Exec::Serial).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let (parallel, _) = pool
            .install(|| Store::sentence_stats(false, &hyps, &[&stream[..]], Exec::Parallel))
            .unwrap();
        assert_eq!((serial.len(), counts.len()), (1500, 500));
        assert_eq!(serial, parallel);
    }

    #[test]
    fn pairs_are_each_hypothesis_against_each_reference_alone() {
        let (hyps, refs) = (["a b", "c"], ["A b c", "c d", "e"]);
        let table = Store::pairs(true, &hyps, &refs, Exec::Serial);
        let mut out = vec![0i64; 2 * 3 * 3];
        table.rows_into(0, 2, &mut out, Exec::Serial).unwrap();
        for (h, hyp) in hyps.iter().enumerate() {
            for (r, reference) in refs.iter().enumerate() {
                let (alone, _) =
                    Store::sentence_stats(true, &[hyp], &[[Some(*reference)]], Exec::Serial)
                        .unwrap();
                assert_eq!(out[(h * 3 + r) * 3..(h * 3 + r + 1) * 3], alone[..]);
            }
        }
    }

    #[test]
    fn a_rows_error_names_its_segment() {
        let hyps = ["fine", "BOOM here", "fine"];
        let stream = [Some("a"), Some("b"), Some("c")];
        let err = Store::sentence_stats(false, &hyps, &[&stream[..]], Exec::Serial);
        assert_eq!(err, Err(CoreError::NoReference { segment: 1 }));
        let missing =
            Store::sentence_stats(false, &hyps, &[[Some("a"), None, Some("c")]], Exec::Serial);
        assert_eq!(missing, Err(CoreError::NoReference { segment: 1 }));
    }
}
