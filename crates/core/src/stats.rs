//! BLEU sufficient statistics per segment:
//! `[hyp_len, ref_len, match_1..match_N, total_1..total_N]`.
//!
//! References are tokenized and counted once into [`References`]; every hypothesis
//! stream scored against them reuses that work. Tokens are interned into integer ids
//! over the reference vocabulary, so an n-gram is a slice of `u32` and a hypothesis
//! token the references never use can never match.

use rustc_hash::FxHashMap;

use crate::error::CoreError;
use crate::text;
use crate::tokenize::Tokenizer;

/// Everything that decides how text becomes statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    pub tokenizer: Tokenizer,
    pub lowercase: bool,
    pub max_order: usize,
}

impl Config {
    /// A configuration, checking that the maximum order is at least 1.
    pub fn new(tokenizer: Tokenizer, lowercase: bool, max_order: usize) -> Result<Self, CoreError> {
        if max_order == 0 {
            return Err(CoreError::InvalidOrder(max_order));
        }
        Ok(Config {
            tokenizer,
            lowercase,
            max_order,
        })
    }

    /// sacrebleu's `_preprocess_segment`: lowercase (optionally), right-strip, tokenize.
    pub fn preprocess(&self, line: &str) -> String {
        if self.lowercase {
            self.tokenizer.apply(text::rstrip(&text::lower(line)))
        } else {
            self.tokenizer.apply(text::rstrip(line))
        }
    }

    /// Number of columns of a statistics row.
    pub fn row_width(&self) -> usize {
        2 + 2 * self.max_order
    }
}

/// Id for a hypothesis token that no reference contains.
const UNSEEN: u32 = u32::MAX;

/// The references of one segment: their lengths and, for every n-gram, the largest
/// count it has in any single reference.
#[derive(Debug, Default)]
struct RefSegment {
    lens: Vec<usize>,
    max_counts: FxHashMap<Box<[u32]>, u32>,
}

/// Reference streams, tokenized and counted once.
#[derive(Debug)]
pub struct References {
    config: Config,
    vocab: FxHashMap<String, u32>,
    segments: Vec<RefSegment>,
    refs_per_segment: Vec<usize>,
}

fn count_ngrams(ids: &[u32], max_order: usize) -> FxHashMap<&[u32], u32> {
    let mut counts = FxHashMap::default();
    for n in 1..=max_order.min(ids.len()) {
        for gram in ids.windows(n) {
            *counts.entry(gram).or_insert(0) += 1;
        }
    }
    counts
}

/// sacrebleu's `_get_closest_ref_len`: the closest length, ties to the shorter.
fn closest_ref_len(hyp_len: usize, ref_lens: &[usize]) -> usize {
    let mut best: Option<(usize, usize)> = None;
    for &len in ref_lens {
        let diff = hyp_len.abs_diff(len);
        best = match best {
            Some((bd, bl)) if diff > bd || (diff == bd && len >= bl) => Some((bd, bl)),
            _ => Some((diff, len)),
        };
    }
    best.map_or(0, |(_, len)| len)
}

impl References {
    /// Tokenize and count reference streams laid out as sacrebleu lays them out:
    /// `streams[k][i]` is the k-th reference of segment i, `None` meaning "no k-th
    /// reference here". Every stream must have the same length, and every segment
    /// at least one reference.
    pub fn new(config: Config, streams: &[Vec<Option<&str>>]) -> Result<Self, CoreError> {
        let first = streams.first().ok_or(CoreError::NoReferenceStreams)?;
        for (k, stream) in streams.iter().enumerate().skip(1) {
            if stream.len() != first.len() {
                return Err(CoreError::LengthMismatch {
                    what: "reference stream 1".into(),
                    expected: first.len(),
                    other: format!("reference stream {}", k + 1),
                    found: stream.len(),
                });
            }
        }
        let mut vocab: FxHashMap<String, u32> = FxHashMap::default();
        let mut segments = Vec::with_capacity(first.len());
        let mut refs_per_segment = Vec::with_capacity(first.len());
        for i in 0..first.len() {
            let lines: Vec<&str> = streams.iter().filter_map(|s| s[i]).collect();
            if lines.is_empty() {
                return Err(CoreError::NoReference { segment: i });
            }
            refs_per_segment.push(lines.len());
            segments.push(Self::count_segment(config, &mut vocab, &lines));
        }
        Ok(References {
            config,
            vocab,
            segments,
            refs_per_segment,
        })
    }

    fn count_segment(
        config: Config,
        vocab: &mut FxHashMap<String, u32>,
        lines: &[&str],
    ) -> RefSegment {
        let mut seg = RefSegment::default();
        for line in lines {
            let tokenized = config.preprocess(line);
            let ids: Vec<u32> = text::split(&tokenized)
                .map(|tok| {
                    let next = vocab.len() as u32;
                    *vocab.entry(tok.to_string()).or_insert(next)
                })
                .collect();
            seg.lens.push(ids.len());
            for (gram, count) in count_ngrams(&ids, config.max_order) {
                let slot = seg.max_counts.entry(gram.into()).or_insert(0);
                *slot = (*slot).max(count);
            }
        }
        seg
    }

    /// The configuration the references were counted with.
    pub fn config(&self) -> Config {
        self.config
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// True when there are no segments.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// How many references (not `None`) each segment has.
    pub fn refs_per_segment(&self) -> &[usize] {
        &self.refs_per_segment
    }

    /// Statistics rows for a hypothesis stream, row-major, `row_width()` columns each.
    pub fn stats(&self, hyps: &[&str]) -> Result<Vec<i64>, CoreError> {
        if hyps.len() != self.segments.len() {
            return Err(CoreError::LengthMismatch {
                what: "hypotheses".into(),
                expected: hyps.len(),
                other: "the references".into(),
                found: self.segments.len(),
            });
        }
        let width = self.config.row_width();
        let mut rows = vec![0i64; hyps.len() * width];
        for ((hyp, seg), row) in hyps.iter().zip(&self.segments).zip(rows.chunks_mut(width)) {
            self.segment_row(hyp, seg, row);
        }
        Ok(rows)
    }

    fn segment_row(&self, hyp: &str, seg: &RefSegment, row: &mut [i64]) {
        let n_max = self.config.max_order;
        let tokenized = self.config.preprocess(hyp);
        let ids: Vec<u32> = text::split(&tokenized)
            .map(|tok| self.vocab.get(tok).copied().unwrap_or(UNSEEN))
            .collect();
        let len = ids.len();
        row[0] = len as i64;
        row[1] = closest_ref_len(len, &seg.lens) as i64;
        for n in 1..=n_max {
            row[1 + n_max + n] = (len + 1).saturating_sub(n) as i64;
        }
        for (gram, count) in count_ngrams(&ids, n_max) {
            if gram.contains(&UNSEEN) {
                continue;
            }
            if let Some(&max_ref) = seg.max_counts.get(gram) {
                row[1 + gram.len()] += i64::from(count.min(max_ref));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(max_order: usize) -> Config {
        Config::new(Tokenizer::None, false, max_order).unwrap()
    }

    fn row(hyp: &str, refs: &[&str], max_order: usize) -> Vec<i64> {
        let streams: Vec<Vec<Option<&str>>> = refs.iter().map(|r| vec![Some(*r)]).collect();
        References::new(cfg(max_order), &streams)
            .unwrap()
            .stats(&[hyp])
            .unwrap()
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
        let err = References::new(cfg(1), &streams).unwrap_err();
        assert_eq!(err, CoreError::NoReference { segment: 1 });
        let streams = vec![vec![Some("a b"), None], vec![None, Some("c")]];
        let refs = References::new(cfg(1), &streams).unwrap();
        assert_eq!(refs.refs_per_segment(), &[1, 1]);
        assert_eq!(
            refs.stats(&["a b", "c"]).unwrap(),
            vec![2, 2, 2, 2, 1, 1, 1, 1]
        );
    }

    #[test]
    fn length_mismatches_are_errors() {
        let streams = vec![vec![Some("a")], vec![Some("a"), Some("b")]];
        assert!(matches!(
            References::new(cfg(1), &streams),
            Err(CoreError::LengthMismatch {
                expected: 1,
                found: 2,
                ..
            })
        ));
        let refs = References::new(cfg(1), &[vec![Some("a")]]).unwrap();
        assert!(refs.stats(&["a", "b"]).is_err());
    }

    #[test]
    fn zero_order_is_rejected() {
        assert_eq!(
            Config::new(Tokenizer::Tok13a, false, 0),
            Err(CoreError::InvalidOrder(0))
        );
    }
}
