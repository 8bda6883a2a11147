//! What a report shows beyond the metrics' statistics: which n-grams of a system
//! match its references over a corpus ([`ngram_matches`]), and which tokens of a
//! hypothesis lie in an n-gram some reference has ([`matched_tokens`]).
//!
//! Both tokenize as BLEU does (the [`BleuConfig`]'s tokenizer and case) and match as BLEU
//! does: a hypothesis n-gram is matched at most as often as it occurs in any single
//! reference of its segment. These are for reading a corpus, not for scoring, so they
//! favour clarity over the speed of [`crate::metrics::bleu::segment`]. NLTK's NIST needs the
//! n-grams each hypothesis shares with each reference, in order ([`overlaps`]).

pub mod overlaps;

use std::hash::Hash;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::CoreError;
use crate::family::refset::check_parallel;
use crate::metrics::bleu::config::BleuConfig;
use crate::text::tok13a::Scratch;
use crate::text::words::tokens;

/// Corpus totals per n-gram (orders 1 to the configuration's maximum), sorted by
/// n-gram: `counts[k]` is `[in the hypotheses, in the references, matched]` for
/// `ngrams[k]` (its tokens joined by single spaces). A segment's reference count of an
/// n-gram is its largest count in one reference, as BLEU clips.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct NgramCounts {
    pub ngrams: Vec<String>,
    pub counts: Vec<[i64; 3]>,
}

pub use crate::parallel::Stop;

/// Segments between two calls of the caller's [`Stop`] check.
pub const CHECK_EVERY: usize = 4096;

pub(crate) fn checkpoint(segment: usize, stop: Stop<'_>) -> Result<(), CoreError> {
    if segment % CHECK_EVERY == 0 && stop() {
        Err(CoreError::Interrupted)
    } else {
        Ok(())
    }
}

/// Every n-gram of orders `1..=max_order` of `words`, shortest first.
pub(crate) fn ngrams<T>(words: &[T], max_order: usize) -> impl Iterator<Item = &[T]> {
    (1..=max_order).flat_map(move |n| words.windows(n))
}

/// Token ids: each distinct token stored once, so that the corpus table keys its n-grams by
/// ids and no segment's text outlives its turn (memory grows with the distinct n-grams, not
/// with the corpus).
#[derive(Default)]
pub(crate) struct Interner {
    ids: FxHashMap<Box<str>, u32>,
    tokens: Vec<Box<str>>,
}

impl Interner {
    /// The ids of the tokens of `text` (BLEU-preprocessed) into `out`.
    pub(crate) fn ids_into(&mut self, text: &str, out: &mut Vec<u32>) {
        out.clear();
        for token in tokens(text) {
            let id = match self.ids.get(token) {
                Some(&id) => id,
                None => {
                    let id =
                        u32::try_from(self.tokens.len()).expect("fewer than 2^32 distinct tokens");
                    self.tokens.push(token.into());
                    self.ids.insert(token.into(), id);
                    id
                }
            };
            out.push(id);
        }
    }

    /// The n-gram `ids` as text, its tokens joined by single spaces.
    fn text(&self, ids: &[u32]) -> String {
        let words: Vec<&str> = ids.iter().map(|&id| &*self.tokens[id as usize]).collect();
        words.join(" ")
    }
}

/// Each segment's references, tokenized as `config` says, checked as the metrics check
/// them: parallel streams, as many segments as hypotheses, at least one reference each.
fn tokenized_refs<'a, S: AsRef<[Option<&'a str>]>>(
    config: &BleuConfig,
    n_hyps: usize,
    streams: &[S],
    scratch: &mut Scratch,
    stop: Stop<'_>,
) -> Result<Vec<Vec<String>>, CoreError> {
    let n = check_parallel(streams)?;
    if n != n_hyps {
        return Err(CoreError::hyps_vs_refs(n_hyps, n));
    }
    (0..n)
        .map(|i| {
            checkpoint(i, stop)?;
            let refs: Vec<String> = streams
                .iter()
                .filter_map(|s| s.as_ref()[i])
                .map(|r| config.preprocess_into(r, scratch).to_owned())
                .collect();
            if refs.is_empty() {
                Err(CoreError::NoReference { segment: i })
            } else {
                Ok(refs)
            }
        })
        .collect()
}

/// The largest count of each n-gram in any one of `refs`.
fn max_ref_counts<T: Eq + Hash>(refs: &[Vec<T>], max_order: usize) -> FxHashMap<&[T], u32> {
    let mut best: FxHashMap<&[T], u32> = FxHashMap::default();
    for words in refs {
        let mut counts: FxHashMap<&[T], u32> = FxHashMap::default();
        for gram in ngrams(words, max_order) {
            *counts.entry(gram).or_insert(0) += 1;
        }
        for (gram, count) in counts {
            let slot = best.entry(gram).or_insert(0);
            *slot = (*slot).max(count);
        }
    }
    best
}

/// Corpus totals per n-gram of `hyps` against reference `streams` (sacrebleu's layout:
/// `streams[k][i]` is the k-th reference of segment i, `None` when it has none).
pub fn ngram_matches<'a, S: AsRef<[Option<&'a str>]>>(
    config: &BleuConfig,
    hyps: &[&str],
    streams: &[S],
    stop: Stop<'_>,
) -> Result<NgramCounts, CoreError> {
    let n = check_parallel(streams)?;
    if n != hyps.len() {
        return Err(CoreError::hyps_vs_refs(hyps.len(), n));
    }
    let mut scratch = Scratch::default();
    let mut interner = Interner::default();
    let mut table: FxHashMap<Box<[u32]>, [i64; 3]> = FxHashMap::default();
    let mut hyp_ids = Vec::new();
    for (i, hyp) in hyps.iter().enumerate() {
        checkpoint(i, stop)?;
        let mut ref_ids: Vec<Vec<u32>> = Vec::with_capacity(streams.len());
        for reference in streams.iter().filter_map(|s| s.as_ref()[i]) {
            let mut ids = Vec::new();
            interner.ids_into(config.preprocess_into(reference, &mut scratch), &mut ids);
            ref_ids.push(ids);
        }
        if ref_ids.is_empty() {
            return Err(CoreError::NoReference { segment: i });
        }
        interner.ids_into(config.preprocess_into(hyp, &mut scratch), &mut hyp_ids);
        let in_refs = max_ref_counts(&ref_ids, config.max_order);
        let mut in_hyp: FxHashMap<&[u32], u32> = FxHashMap::default();
        for gram in ngrams(&hyp_ids, config.max_order) {
            *in_hyp.entry(gram).or_insert(0) += 1;
        }
        for (gram, count) in in_hyp {
            let clipped = count.min(in_refs.get(gram).copied().unwrap_or(0));
            let row = row_of(&mut table, gram);
            row[0] += i64::from(count);
            row[2] += i64::from(clipped);
        }
        for (gram, count) in in_refs {
            row_of(&mut table, gram)[1] += i64::from(count);
        }
    }
    let mut rows: Vec<(String, [i64; 3])> = table
        .into_iter()
        .map(|(gram, counts)| (interner.text(&gram), counts))
        .collect();
    rows.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let (ngrams, counts) = rows.into_iter().unzip();
    Ok(NgramCounts { ngrams, counts })
}

/// The corpus table's row of `gram`, made (zero) the first time the n-gram is seen.
fn row_of<'t>(table: &'t mut FxHashMap<Box<[u32]>, [i64; 3]>, gram: &[u32]) -> &'t mut [i64; 3] {
    if !table.contains_key(gram) {
        table.insert(gram.into(), [0; 3]);
    }
    table.get_mut(gram).expect("inserted above")
}

/// Each hypothesis as BLEU tokenizes it (tokens joined by single spaces) and, per
/// token, the order of the longest n-gram (up to the maximum order, at most 255)
/// covering it that some reference of its segment has; 0 for a token in none.
pub fn matched_tokens<'a, S: AsRef<[Option<&'a str>]>>(
    config: &BleuConfig,
    hyps: &[&str],
    streams: &[S],
    stop: Stop<'_>,
) -> Result<Vec<(String, Vec<u8>)>, CoreError> {
    let mut scratch = Scratch::default();
    let refs = tokenized_refs(config, hyps.len(), streams, &mut scratch, stop)?;
    let mut out = Vec::with_capacity(hyps.len());
    for (i, (hyp, refs)) in hyps.iter().zip(&refs).enumerate() {
        checkpoint(i, stop)?;
        let ref_words: Vec<Vec<&str>> = refs.iter().map(|r| tokens(r).collect()).collect();
        let known: FxHashSet<&[&str]> = ref_words
            .iter()
            .flat_map(|w| ngrams(w, config.max_order))
            .collect();
        let hyp_text = config.preprocess_into(hyp, &mut scratch).to_owned();
        let words: Vec<&str> = tokens(&hyp_text).collect();
        let mut levels = vec![0u8; words.len()];
        for start in 0..words.len() {
            for order in 1..=config.max_order.min(words.len() - start) {
                // A reference without this n-gram has no longer one from here either.
                if !known.contains(&words[start..start + order]) {
                    break;
                }
                let level = order.min(255) as u8;
                for slot in &mut levels[start..start + order] {
                    *slot = (*slot).max(level);
                }
            }
        }
        out.push((words.join(" "), levels));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::bleu::stats::sentence_stats;
    use crate::testing::Rng;
    use crate::{Exec, Tokenizer};

    fn config(max_order: usize) -> BleuConfig {
        BleuConfig::new(Tokenizer::Tok13a, false, max_order).unwrap()
    }

    fn row(c: &NgramCounts, gram: &str) -> [i64; 3] {
        let k = c.ngrams.iter().position(|g| g == gram).unwrap();
        c.counts[k]
    }

    #[test]
    fn the_papers_example_is_clipped_by_the_largest_reference_count() {
        // Papineni et al. 2002, section 2.1: "the" seven times, at most twice in one
        // reference (ignoring case), so a modified unigram precision of 2/7.
        let lowercase = BleuConfig::new(Tokenizer::Tok13a, true, 2).unwrap();
        let hyps = ["the the the the the the the"];
        let streams = [
            [Some("The cat is on the mat.")],
            [Some("There is a cat on the mat.")],
        ];
        let c = ngram_matches(&lowercase, &hyps, &streams, &mut || false).unwrap();
        assert_eq!(row(&c, "the"), [7, 2, 2]);
        assert_eq!(row(&c, "the the"), [6, 0, 0]);
        assert_eq!(row(&c, "cat"), [0, 1, 0]);
        assert_eq!(row(&c, "."), [0, 1, 0]);
        let cased = ngram_matches(&config(2), &hyps, &streams, &mut || false).unwrap();
        assert_eq!(row(&cased, "the"), [7, 1, 1]);
        assert!(c.ngrams.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn corpus_totals_per_order_equal_bleus_statistics() {
        let mut rng = Rng(0x5eed);
        for max_order in [1, 2, 4] {
            let cfg = config(max_order);
            let hyps: Vec<String> = (0..40).map(|_| rng.line(12)).collect();
            let r1: Vec<String> = (0..40).map(|_| rng.line(12)).collect();
            let r2: Vec<String> = (0..40).map(|_| rng.line(12)).collect();
            let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
            let streams: Vec<Vec<Option<&str>>> = [&r1, &r2]
                .iter()
                .map(|s| s.iter().map(|r| Some(r.as_str())).collect())
                .collect();
            let c = ngram_matches(&cfg, &hyps, &streams, &mut || false).unwrap();
            let (rows, _) = sentence_stats(cfg, &hyps, &streams, Exec::Serial).unwrap();
            let width = cfg.row_width();
            for n in 1..=max_order {
                let (mut matched, mut total) = (0, 0);
                for (gram, counts) in c.ngrams.iter().zip(&c.counts) {
                    if gram.split(' ').count() == n {
                        total += counts[0];
                        matched += counts[2];
                    }
                }
                let bleu_matched: i64 = rows.chunks(width).map(|r| r[1 + n]).sum();
                let bleu_total: i64 = rows.chunks(width).map(|r| r[1 + max_order + n]).sum();
                assert_eq!((matched, total), (bleu_matched, bleu_total), "order {n}");
            }
        }
    }

    #[test]
    fn tokens_get_the_longest_matched_ngram_covering_them() {
        let hyps = ["the cat sat on a mat"];
        let streams = [[Some("a cat sat on the mat")]];
        let out = matched_tokens(&config(4), &hyps, &streams, &mut || false).unwrap();
        assert_eq!(out[0].0, "the cat sat on a mat");
        assert_eq!(out[0].1, [1, 3, 3, 3, 1, 1]);
        let none = matched_tokens(&config(4), &["dog"], &[[Some("cat")]], &mut || false).unwrap();
        assert_eq!(none[0].1, [0]);
    }

    #[test]
    fn bad_references_are_the_metrics_errors() {
        let err = ngram_matches(&config(4), &["a", "b"], &[[Some("a")]], &mut || false);
        assert!(matches!(err, Err(CoreError::LengthMismatch { .. })));
        let err = matched_tokens(&config(4), &["a"], &[[None::<&str>]], &mut || false);
        assert_eq!(err, Err(CoreError::NoReference { segment: 0 }));
    }

    #[test]
    fn the_stop_check_is_asked_every_chunk_and_ends_the_work() {
        let hyps: Vec<String> = (0..CHECK_EVERY + 10).map(|i| format!("w{i}")).collect();
        let hyps: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let refs: Vec<Option<&str>> = hyps.iter().map(|h| Some(*h)).collect();
        let mut asked = 0;
        let out = matched_tokens(&config(2), &hyps, &[&refs[..]], &mut || {
            asked += 1;
            false
        });
        // Twice for the references, twice for the hypotheses (segments 0 and CHECK_EVERY).
        assert_eq!((out.unwrap().len(), asked), (CHECK_EVERY + 10, 4));
        let mut calls = 0;
        let stopped = ngram_matches(&config(2), &hyps, &[&refs[..]], &mut || {
            calls += 1;
            calls == 2
        });
        assert_eq!(stopped, Err(CoreError::Interrupted));
    }
}
