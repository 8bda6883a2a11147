//! BLEU sufficient statistics per segment:
//! `[hyp_len, ref_len, match_1..match_N, total_1..total_N]`.
//!
//! References are tokenized once into [`BleuReferences`] (one [`RefSegment`] per
//! segment, built in parallel); every hypothesis stream scored against them reuses
//! that work, and [`BleuReferences::stats_many`] scores several streams while each
//! segment's references are loaded.

use crate::error::CoreError;
use crate::family::refset::{check_parallel, ReferenceStore};
use crate::family::{Family, SentenceRows};
use crate::metrics::bleu::config::BleuConfig;
use crate::metrics::bleu::pairwise::BleuPairwise;
use crate::metrics::bleu::segment::{Counter, RefSegment, HUGE_SEGMENT_TOKENS};
use crate::parallel::{self, Exec, Grain};
use crate::text::tok13a::Scratch;
use crate::text::token_ids::IdBatch;

/// Reference streams, tokenized and counted once.
#[derive(Debug)]
pub struct BleuReferences {
    config: BleuConfig,
    segments: Vec<RefSegment>,
    refs_per_segment: Vec<usize>,
}

/// Statistics rows of `hyps` against reference streams used only once (sacrebleu's
/// layout, as for [`BleuReferences::new`]), without keeping the references: each
/// segment's references are tokenized straight into the matching tables. Returns the
/// rows and the number of references of each segment.
pub fn sentence_stats<'a, S: AsRef<[Option<&'a str>]> + Sync>(
    config: BleuConfig,
    hyps: &[&str],
    streams: &[S],
    exec: Exec,
) -> Result<(Vec<i64>, Vec<usize>), CoreError> {
    let n = check_parallel(streams)?;
    if hyps.len() != n {
        return Err(CoreError::hyps_vs_refs(hyps.len(), n));
    }
    let refs_of = |i: usize| streams.iter().filter_map(move |s| s.as_ref()[i]);
    if let Some(i) = (0..n).find(|&i| refs_of(i).next().is_none()) {
        return Err(CoreError::NoReference { segment: i });
    }
    let width = config.row_width();
    let mut rows = vec![0i64; n * width];
    let mut counts = vec![0usize; n];
    let segments: Vec<(usize, &str)> = hyps.iter().copied().enumerate().collect();
    let mut out: Vec<(&mut [i64], &mut usize)> =
        rows.chunks_mut(width).zip(counts.iter_mut()).collect();
    parallel::fill_rows(
        exec,
        &segments,
        &mut out,
        1,
        Grain::Fine,
        Counter::default,
        |c, &(i, hyp), slot| {
            let (row, count) = &mut slot[0];
            **count = c.load_refs(&config, refs_of(i));
            c.row(&config, hyp, row);
        },
    );
    Ok((rows, counts))
}

/// [`sentence_stats`] of token ids (each id a word, compared as an integer): hypotheses
/// `hyps` against the reference streams `streams`, every stream with a reference for every
/// segment. `None` when some segment's references are too long for the matching tables (the
/// text path counts those by sorting).
pub fn sentence_stats_ids(
    config: BleuConfig,
    hyps: IdBatch<'_>,
    streams: &[IdBatch<'_>],
    exec: Exec,
) -> Option<Result<SentenceRows, CoreError>> {
    let n = hyps.len();
    if let Some(stream) = streams.iter().find(|s| s.len() != n) {
        return Some(Err(CoreError::hyps_vs_refs(n, stream.len())));
    }
    if streams.is_empty() {
        return Some(Err(CoreError::NoReferenceStreams));
    }
    let ref_tokens = |i: usize| streams.iter().map(|s| s.segment(i).len()).sum::<usize>();
    if (0..n).any(|i| ref_tokens(i) > HUGE_SEGMENT_TOKENS) {
        return None;
    }
    let width = config.row_width();
    let mut rows = vec![0i64; n * width];
    let segments: Vec<usize> = (0..n).collect();
    parallel::fill_rows(
        exec,
        &segments,
        &mut rows,
        width,
        Grain::Fine,
        Counter::default,
        |c, &i, row| {
            c.load_id_refs(streams.iter().map(|s| s.segment(i)), config.max_order);
            c.row_ids(&config, hyps.segment(i), row);
        },
    );
    Some(Ok((rows, vec![streams.len(); n])))
}

impl BleuReferences {
    /// No segments yet; add them with [`BleuReferences::extend`].
    pub fn empty(config: BleuConfig) -> Self {
        BleuReferences {
            config,
            segments: Vec::new(),
            refs_per_segment: Vec::new(),
        }
    }

    /// Tokenize and count reference streams laid out as sacrebleu lays them out:
    /// `streams[k][i]` is the k-th reference of segment i, `None` meaning "no k-th
    /// reference here". Every stream must have the same length, and every segment
    /// at least one reference.
    pub fn new<'a, S: AsRef<[Option<&'a str>]> + Sync>(
        config: BleuConfig,
        streams: &[S],
        exec: Exec,
    ) -> Result<Self, CoreError> {
        let mut refs = Self::empty(config);
        refs.extend(streams, exec)?;
        Ok(refs)
    }

    /// The configuration the references were counted with.
    pub fn config(&self) -> BleuConfig {
        self.config
    }

    /// Statistics rows for a hypothesis stream, row-major, `row_width()` columns each.
    pub fn stats(&self, hyps: &[&str], exec: Exec) -> Result<Vec<i64>, CoreError> {
        if hyps.len() != self.segments.len() {
            return Err(CoreError::hyps_vs_refs(hyps.len(), self.segments.len()));
        }
        let mut rows = vec![0i64; hyps.len() * self.config.row_width()];
        self.stats_into(0, hyps, &mut rows, exec);
        Ok(rows)
    }

    /// Rows of `hyps` against segments `first..first + hyps.len()`, written to `out`.
    ///
    /// # Panics
    /// If the segments do not exist or `out` does not hold one row per hypothesis.
    pub fn stats_into(&self, first: usize, hyps: &[&str], out: &mut [i64], exec: Exec) {
        self.stats_many_into(first, &[hyps], out, exec);
    }

    /// Rows of several hypothesis streams against segments `first..first + len`,
    /// segment-major: row `i * systems.len() + k` is stream k's segment `first + i`.
    /// Each segment's references are loaded once for all streams.
    ///
    /// # Panics
    /// If the streams differ in length, the segments do not exist or `out` does
    /// not hold one row per hypothesis.
    pub fn stats_many_into(&self, first: usize, systems: &[&[&str]], out: &mut [i64], exec: Exec) {
        let config = self.config;
        let n = systems.first().map_or(0, |s| s.len());
        assert!(
            systems.iter().all(|s| s.len() == n),
            "streams of one length"
        );
        let segments: Vec<usize> = (first..first + n).collect();
        parallel::fill_rows(
            exec,
            &segments,
            out,
            systems.len() * config.row_width(),
            Grain::Fine,
            Counter::default,
            |c, &i, rows| {
                let seg = &self.segments[i];
                c.load(seg, config.max_order);
                for (system, row) in systems.iter().zip(rows.chunks_mut(config.row_width())) {
                    c.row(&config, system[i - first], row);
                }
            },
        );
    }
}

impl ReferenceStore for BleuReferences {
    /// Append the segments of `streams` (same layout as [`BleuReferences::new`]).
    fn extend<'a, S: AsRef<[Option<&'a str>]> + Sync>(
        &mut self,
        streams: &[S],
        exec: Exec,
    ) -> Result<(), CoreError> {
        let n = check_parallel(streams)?;
        let offset = self.segments.len();
        let indices: Vec<usize> = (0..n).collect();
        let refs_of = |i: usize| streams.iter().filter_map(move |s| s.as_ref()[i]);
        if let Some(i) = indices.iter().find(|&&i| refs_of(i).next().is_none()) {
            return Err(CoreError::NoReference {
                segment: offset + i,
            });
        }
        let config = self.config;
        let built = parallel::map(exec, &indices, Scratch::default, |s, &i| {
            RefSegment::new(&config, refs_of(i), s)
        });
        self.refs_per_segment
            .extend(built.iter().map(RefSegment::n_refs));
        self.segments.extend(built);
        Ok(())
    }

    /// Number of segments.
    fn len(&self) -> usize {
        self.segments.len()
    }

    /// How many references (not `None`) each segment has.
    fn refs_per_segment(&self) -> Vec<usize> {
        self.refs_per_segment.clone()
    }
}

impl Family for BleuReferences {
    type Config = BleuConfig;
    type Pairs = BleuPairwise;

    fn empty(config: BleuConfig) -> Self {
        BleuReferences::empty(config)
    }

    fn config(&self) -> BleuConfig {
        self.config
    }

    fn row_width(&self) -> usize {
        self.config.row_width()
    }

    fn stats_many_into(
        &self,
        first: usize,
        systems: &[&[&str]],
        out: &mut [i64],
        exec: Exec,
    ) -> Result<(), CoreError> {
        BleuReferences::stats_many_into(self, first, systems, out, exec);
        Ok(())
    }

    /// BLEU's faster path: each segment's references counted straight into the matching
    /// tables, never cached.
    fn sentence_stats<'a, S: AsRef<[Option<&'a str>]> + Sync>(
        config: BleuConfig,
        hyps: &[&str],
        streams: &[S],
        exec: Exec,
    ) -> Result<(Vec<i64>, Vec<usize>), CoreError> {
        sentence_stats(config, hyps, streams, exec)
    }

    fn sentence_stats_ids(
        config: BleuConfig,
        hyps: IdBatch<'_>,
        streams: &[IdBatch<'_>],
        exec: Exec,
    ) -> Option<Result<SentenceRows, CoreError>> {
        sentence_stats_ids(config, hyps, streams, exec)
    }

    fn pairs(config: BleuConfig, hyps: &[&str], refs: &[&str], exec: Exec) -> BleuPairwise {
        BleuPairwise::new(config, hyps, refs, exec)
    }

    fn tokenize(config: BleuConfig, lines: &[&str]) -> Option<Vec<String>> {
        Some(config.tokenize_lines(lines))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::segment::closest_ref_len;
    use crate::testing::Rng;
    use crate::text::tokenize::Tokenizer;
    use std::collections::HashMap;

    fn cfg(max_order: usize) -> BleuConfig {
        BleuConfig::new(Tokenizer::None, false, max_order).unwrap()
    }

    fn row(hyp: &str, refs: &[&str], max_order: usize) -> Vec<i64> {
        let streams: Vec<Vec<Option<&str>>> = refs.iter().map(|r| vec![Some(*r)]).collect();
        BleuReferences::new(cfg(max_order), &streams, Exec::Serial)
            .unwrap()
            .stats(&[hyp], Exec::Serial)
            .unwrap()
    }

    /// A random batch of `n` segments of ids drawn from a few values (so that n-grams repeat
    /// and match), negative ones and the extremes among them.
    fn id_batch(rng: &mut Rng, n: usize) -> (Vec<i64>, Vec<usize>) {
        const VALUES: [i64; 6] = [0, 7, -7, 70, i64::MIN, i64::MAX];
        let (mut ids, mut bounds) = (Vec::new(), vec![0]);
        for _ in 0..n {
            for _ in 0..rng.below(12) {
                ids.push(VALUES[rng.below(VALUES.len())]);
            }
            bounds.push(ids.len());
        }
        (ids, bounds)
    }

    #[test]
    fn ids_counted_as_integers_give_the_rows_of_ids_written_as_words() {
        let mut rng = Rng(11);
        for round in 0..200 {
            let n = 1 + rng.below(6);
            let (hyp_ids, hyp_bounds) = id_batch(&mut rng, n);
            let refs: Vec<_> = (0..1 + round % 3).map(|_| id_batch(&mut rng, n)).collect();
            let batches: Vec<IdBatch> = refs
                .iter()
                .map(|(i, b)| IdBatch::new(i, b).unwrap())
                .collect();
            let hyps = IdBatch::new(&hyp_ids, &hyp_bounds).unwrap();
            let exec = if round % 2 == 0 {
                Exec::Serial
            } else {
                Exec::Parallel
            };
            let ids = sentence_stats_ids(cfg(1 + round % 4), hyps, &batches, exec);
            let lines = |(i, b): &(Vec<i64>, Vec<usize>)| {
                crate::text::token_ids::id_lines(i, b, exec).unwrap()
            };
            let hyp_lines = lines(&(hyp_ids.clone(), hyp_bounds.clone()));
            let ref_lines: Vec<Vec<String>> = refs.iter().map(lines).collect();
            let streams: Vec<Vec<Option<&str>>> = ref_lines
                .iter()
                .map(|s| s.iter().map(|l| Some(l.as_str())).collect())
                .collect();
            let hyp_strs: Vec<&str> = hyp_lines.iter().map(String::as_str).collect();
            let text = sentence_stats(cfg(1 + round % 4), &hyp_strs, &streams, exec).unwrap();
            assert_eq!(ids.unwrap().unwrap(), text, "round {round}");
        }
    }

    #[test]
    fn ids_of_unequal_batches_are_refused() {
        let (a, b) = ([1i64, 2], [0usize, 1, 2]);
        let (c, d) = ([1i64], [0usize, 1]);
        let two = IdBatch::new(&a, &b).unwrap();
        let one = IdBatch::new(&c, &d).unwrap();
        assert!(matches!(
            sentence_stats_ids(cfg(4), two, &[one], Exec::Serial),
            Some(Err(_))
        ));
        assert!(matches!(
            sentence_stats_ids(cfg(4), two, &[], Exec::Serial),
            Some(Err(_))
        ));
    }

    #[test]
    fn paper_example_2_clips_unigrams() {
        let r = row(
            "the the the the the the the",
            &["the cat is on the mat", "there is a cat on the mat"],
            2,
        );
        // Reference 2 has 7 words: exactly the hypothesis length.
        assert_eq!(r, vec![7, 7, 2, 0, 7, 6]);
    }

    #[test]
    fn closest_reference_length_ties_to_shorter() {
        assert_eq!(closest_ref_len(4, &[5, 3]), 3);
        assert_eq!(closest_ref_len(4, &[3, 5]), 3);
        assert_eq!(closest_ref_len(10, &[12, 15, 17]), 12);
        assert_eq!(row("a b c d", &["a b c", "a b c d e"], 1)[1], 3);
    }

    #[test]
    fn unseen_tokens_never_match_and_totals_count_every_ngram() {
        let r = row("x y a b", &["a b"], 3);
        assert_eq!(r, vec![4, 2, 2, 1, 0, 4, 3, 2]);
    }

    #[test]
    fn empty_hypothesis_and_empty_reference() {
        assert_eq!(row("", &["a b"], 2), vec![0, 2, 0, 0, 0, 0]);
        assert_eq!(row("a b", &[""], 2), vec![2, 0, 0, 0, 2, 1]);
    }

    #[test]
    fn none_references_are_skipped_and_all_none_is_an_error() {
        let streams = vec![vec![Some("a"), None], vec![None, None]];
        let err = BleuReferences::new(cfg(1), &streams, Exec::Serial).unwrap_err();
        assert_eq!(err, CoreError::NoReference { segment: 1 });
        let streams = vec![vec![Some("a b"), None], vec![None, Some("c")]];
        let refs = BleuReferences::new(cfg(1), &streams, Exec::Serial).unwrap();
        assert_eq!(refs.refs_per_segment(), &[1, 1]);
        assert_eq!(
            refs.stats(&["a b", "c"], Exec::Serial).unwrap(),
            vec![2, 2, 2, 2, 1, 1, 1, 1]
        );
    }

    #[test]
    fn length_mismatches_are_errors() {
        let streams = vec![vec![Some("a")], vec![Some("a"), Some("b")]];
        assert!(matches!(
            BleuReferences::new(cfg(1), &streams, Exec::Serial),
            Err(CoreError::LengthMismatch {
                expected: 1,
                found: 2,
                ..
            })
        ));
        let refs = BleuReferences::new(cfg(1), &[vec![Some("a")]], Exec::Serial).unwrap();
        assert!(refs.stats(&["a", "b"], Exec::Serial).is_err());
    }

    /// The obviously right computation: n-grams as vectors of strings, counted in
    /// hash maps, clipped by the maximum count in any single reference.
    fn naive_row(cfg: &BleuConfig, hyp: &str, refs: &[&str]) -> Vec<i64> {
        fn counts(s: &str, n_max: usize) -> HashMap<Vec<&str>, i64> {
            let toks: Vec<&str> = s.split_whitespace().collect();
            let mut m = HashMap::new();
            for n in 1..=n_max {
                for w in toks.windows(n) {
                    *m.entry(w.to_vec()).or_insert(0) += 1;
                }
            }
            m
        }
        let n_max = cfg.max_order;
        let hyp_t = cfg.preprocess(hyp);
        let refs_t: Vec<String> = refs.iter().map(|r| cfg.preprocess(r)).collect();
        let len = hyp_t.split_whitespace().count();
        let lens: Vec<u32> = refs_t
            .iter()
            .map(|r| r.split_whitespace().count() as u32)
            .collect();
        let mut row = vec![0i64; 2 + 2 * n_max];
        row[0] = len as i64;
        row[1] = closest_ref_len(len, &lens) as i64;
        let ref_counts: Vec<_> = refs_t.iter().map(|r| counts(r, n_max)).collect();
        for (gram, count) in counts(&hyp_t, n_max) {
            let max_ref = ref_counts
                .iter()
                .map(|m| m.get(&gram).copied().unwrap_or(0))
                .max()
                .unwrap();
            row[1 + gram.len()] += count.min(max_ref);
        }
        for n in 1..=n_max {
            row[1 + n_max + n] = (len + 1).saturating_sub(n) as i64;
        }
        row
    }

    #[test]
    fn fast_rows_equal_naive_rows_serial_and_parallel() {
        let mut rng = Rng(42);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        for max_order in [1, 2, 4, 6] {
            for tokenizer in [Tokenizer::None, Tokenizer::Tok13a] {
                let cfg = BleuConfig::new(tokenizer, max_order == 2, max_order).unwrap();
                let n = 500;
                let hyps: Vec<String> = (0..n).map(|_| rng.line(12)).collect();
                let streams: Vec<Vec<Option<String>>> = (0..3)
                    .map(|k| {
                        (0..n)
                            .map(|_| (k == 0 || rng.below(3) > 0).then(|| rng.line(12)))
                            .collect()
                    })
                    .collect();
                let borrowed: Vec<Vec<Option<&str>>> = streams
                    .iter()
                    .map(|s| s.iter().map(|r| r.as_deref()).collect())
                    .collect();
                let hyp_refs: Vec<&str> = hyps.iter().map(String::as_str).collect();
                let refs = BleuReferences::new(cfg, &borrowed, Exec::Serial).unwrap();
                let serial = refs.stats(&hyp_refs, Exec::Serial).unwrap();
                let parallel = pool.install(|| {
                    BleuReferences::new(cfg, &borrowed, Exec::Parallel)
                        .unwrap()
                        .stats(&hyp_refs, Exec::Parallel)
                        .unwrap()
                });
                assert_eq!(serial, parallel);
                let (one_shot, counts) = pool
                    .install(|| sentence_stats(cfg, &hyp_refs, &borrowed, Exec::Parallel).unwrap());
                assert_eq!(one_shot, serial);
                assert_eq!(counts, refs.refs_per_segment());
                for (i, row) in serial.chunks(cfg.row_width()).enumerate() {
                    let seg_refs: Vec<&str> = borrowed.iter().filter_map(|s| s[i]).collect();
                    assert_eq!(row, naive_row(&cfg, &hyps[i], &seg_refs), "segment {i}");
                }
            }
        }
    }
}
