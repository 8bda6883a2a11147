//! GLEU (Google-BLEU, Wu et al. 2016) as NLTK's `corpus_gleu` counts it: a row per segment,
//! `[matching n-grams, max(hypothesis n-grams, reference n-grams)]`.
//!
//! Every n-gram of orders `min_order..=max_order` is counted in the hypothesis and in each
//! reference; the matches are the clipped overlap (a hypothesis n-gram matches as often as the
//! reference has it). Of several references, the one with the highest ratio of matches to the
//! larger total is kept, the first among equal ratios (Python's `max`); a reference where both
//! sentences have no n-gram is skipped, and a segment with no other reference contributes
//! `[0, 0]`. Ratios are compared by cross-multiplication, which orders them as NLTK's float
//! divisions do (two different ratios of integers below 2^26 never round to one float).
//!
//! Text is tokenized as BLEU tokenizes it ([`BleuConfig::preprocess_into`]); with the `none`
//! tokenizer, a sentence is NLTK's tokens joined by spaces.

use std::cell::RefCell;
use std::hash::BuildHasher;

use rustc_hash::FxBuildHasher;

use crate::config::{tokens, BleuConfig};
use crate::error::CoreError;
use crate::per_reference::{PerReference, PerReferencePairs, RowMetric};
use crate::smallmap::SmallMap;
use crate::tok13a::Scratch;
use crate::tokenize::Tokenizer;

/// Columns of a row: matching n-grams, the larger of the two n-gram totals.
pub const ROW_WIDTH: usize = 2;

/// The largest n-gram order accepted (as BLEU's).
pub const MAX_ORDER: usize = 64;

/// The parent of unigrams in the per-segment n-gram trie.
const ROOT: u32 = u32::MAX;

/// What changes GLEU's statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GleuConfig {
    pub tokenizer: Tokenizer,
    pub lowercase: bool,
    /// The shortest n-gram counted (NLTK's `min_len`).
    pub min_order: usize,
    /// The longest n-gram counted (NLTK's `max_len`).
    pub max_order: usize,
}

impl GleuConfig {
    /// A configuration, checking `1 <= min_order <= max_order <= MAX_ORDER`.
    pub fn new(
        tokenizer: Tokenizer,
        lowercase: bool,
        min_order: usize,
        max_order: usize,
    ) -> Result<Self, CoreError> {
        if min_order == 0 || max_order < min_order {
            return Err(CoreError::InvalidOrder(min_order.min(max_order)));
        }
        if max_order > MAX_ORDER {
            return Err(CoreError::OrderTooLarge {
                name: "GLEU's maximum order",
                order: max_order,
                max: MAX_ORDER,
            });
        }
        Ok(GleuConfig {
            tokenizer,
            lowercase,
            min_order,
            max_order,
        })
    }

    fn bleu(&self) -> BleuConfig {
        BleuConfig {
            tokenizer: self.tokenizer,
            lowercase: self.lowercase,
            max_order: self.max_order,
        }
    }

    /// The number of n-grams of the counted orders in a sentence of `len` tokens.
    pub fn ngrams(&self, len: usize) -> usize {
        (self.min_order..=self.max_order.min(len))
            .map(|n| len + 1 - n)
            .sum()
    }
}

/// A sentence's tokens: its tokenized text and each token's place and hash; a reference also
/// has its n-gram trie, built once and walked by every hypothesis scored against it.
pub struct Prepared {
    text: Box<str>,
    words: Box<[Word]>,
    trie: Option<Box<Trie>>,
}

/// A token of a [`Prepared`] sentence: `text[start..end]`, and its hash.
struct Word {
    start: usize,
    end: usize,
    hash: u64,
}

thread_local! {
    /// The tokenizer's buffers, reused by every sentence a thread prepares.
    static TOKENIZER: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Prepared {
    fn new(config: GleuConfig, line: &str) -> Prepared {
        TOKENIZER.with_borrow_mut(|scratch| {
            let tokenized = config.bleu().preprocess_into(line, scratch);
            let mut text = String::with_capacity(tokenized.len());
            // Tokens are separated by single spaces: one more than the spaces, at most.
            let mut words =
                Vec::with_capacity(tokenized.bytes().filter(|&b| b == b' ').count() + 1);
            for w in tokens(tokenized) {
                if !text.is_empty() {
                    text.push(' ');
                }
                let start = text.len();
                text.push_str(w);
                let hash = FxBuildHasher.hash_one(w);
                words.push(Word {
                    start,
                    end: text.len(),
                    hash,
                });
            }
            Prepared {
                text: text.into_boxed_str(),
                words: words.into_boxed_slice(),
                trie: None,
            }
        })
    }

    /// A reference: its tokens and its trie.
    fn reference(config: GleuConfig, line: &str) -> Prepared {
        let mut prepared = Prepared::new(config, line);
        let mut trie = Trie::default();
        trie.fill(config, &prepared);
        trie.ids = Vec::new(); // a buffer: kept by a thread's trie, not by every reference's
        prepared.trie = Some(Box::new(trie));
        prepared
    }

    fn word(&self, k: usize) -> &str {
        let w = &self.words[k];
        &self.text[w.start..w.end]
    }
}

/// A sentence's n-grams of orders up to the maximum as a trie: `(parent, word)` to node, with
/// each node's count (0 for orders below the minimum).
#[derive(Default)]
pub struct Trie {
    /// The sentence's distinct words (by hash, checked against the text) to their ids.
    words: SmallMap,
    /// Each word id's first position in the sentence.
    first: Vec<u32>,
    nodes: SmallMap,
    counts: Vec<u32>,
    /// The sentence's word ids while it is read (kept for the next sentence's use).
    ids: Vec<u32>,
}

impl Trie {
    /// This trie made the trie of `sentence`.
    fn fill(&mut self, config: GleuConfig, sentence: &Prepared) {
        let len = sentence.words.len();
        self.words.reset(len);
        // Each position starts at most max_order n-grams (nodes).
        self.nodes.reset(len * config.max_order.min(len));
        self.first.clear();
        self.counts.clear();
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        for (k, w) in sentence.words.iter().enumerate() {
            let (first, text) = (&self.first, sentence.word(k));
            let next = first.len() as u32;
            let id = self.words.find_or_insert(
                w.hash,
                |id| sentence.word(first[id as usize] as usize) == text,
                || next,
            );
            if id == next {
                self.first.push(k as u32);
            }
            ids.push(id);
        }
        for start in 0..len {
            let mut node = ROOT;
            let end = len.min(start + config.max_order);
            for (k, &word) in ids[start..end].iter().enumerate() {
                let counts = &mut self.counts;
                node = self.nodes.find_or_insert(
                    edge(node, word),
                    |_| true,
                    || {
                        counts.push(0);
                        counts.len() as u32 - 1
                    },
                );
                if k + 1 >= config.min_order {
                    self.counts[node as usize] += 1;
                }
            }
        }
        self.ids = ids;
    }

    /// The clipped overlap of `other`'s n-grams with this trie's (of `owner`): each n-gram of
    /// `other` matches as often as `owner` has it.
    fn overlap(
        &self,
        config: GleuConfig,
        owner: &Prepared,
        other: &Prepared,
        walk: &mut Walk,
    ) -> usize {
        walk.ids.clear();
        for (k, w) in other.words.iter().enumerate() {
            let text = other.word(k);
            let first = &self.first;
            let id = self
                .words
                .find(w.hash, |id| owner.word(first[id as usize] as usize) == text);
            // A word the owner lacks (numbered ROOT, which no edge has) ends every n-gram
            // through it.
            walk.ids.push(id.unwrap_or(ROOT));
        }
        if walk.seen.len() < self.counts.len() {
            walk.seen.resize(self.counts.len(), 0);
        }
        let mut found = 0;
        for start in 0..walk.ids.len() {
            let mut node = ROOT;
            let end = walk.ids.len().min(start + config.max_order);
            for (k, &word) in walk.ids[start..end].iter().enumerate() {
                match self.nodes.find(edge(node, word), |_| true) {
                    Some(child) if word != ROOT => node = child,
                    _ => break,
                }
                let n = node as usize;
                if k + 1 >= config.min_order && walk.seen[n] < self.counts[n] {
                    walk.seen[n] += 1;
                    walk.touched.push(node);
                    found += 1;
                }
            }
        }
        for node in walk.touched.drain(..) {
            walk.seen[node as usize] = 0;
        }
        found
    }
}

/// Per-thread buffers of [`Trie::overlap`]: the other sentence's word ids, and how often each
/// node has been matched so far (all 0 between calls).
#[derive(Default)]
pub struct Walk {
    ids: Vec<u32>,
    seen: Vec<u32>,
    touched: Vec<u32>,
}

/// Per-thread tables, reused from segment to segment.
#[derive(Default)]
pub struct GleuScratch {
    walk: Walk,
    /// The trie of a reference prepared without one (as a hypothesis).
    spare: Trie,
}

fn edge(parent: u32, word: u32) -> u64 {
    (u64::from(parent) << 32) | u64::from(word)
}

/// The row of `hyp` against the best of `refs` (see the module's documentation).
pub fn segment_row(
    config: GleuConfig,
    hyp: &Prepared,
    refs: &[Prepared],
    scratch: &mut GleuScratch,
    segment: usize,
    out: &mut [i64],
) -> Result<(), CoreError> {
    if refs.is_empty() {
        return Err(CoreError::NoReference { segment });
    }
    let hyp_total = config.ngrams(hyp.words.len());
    let mut best: Option<(usize, usize)> = None;
    for reference in refs {
        let total = hyp_total.max(config.ngrams(reference.words.len()));
        if total == 0 {
            continue;
        }
        let trie = match &reference.trie {
            Some(trie) => trie,
            None => {
                scratch.spare.fill(config, reference);
                &scratch.spare
            }
        };
        let found = trie.overlap(config, reference, hyp, &mut scratch.walk);
        // found / total > best_found / best_total, exactly.
        if best.is_none_or(|(bf, bt)| found * bt > bf * total) {
            best = Some((found, total));
        }
    }
    let (found, total) = best.unwrap_or((0, 0));
    out.copy_from_slice(&[found as i64, total as i64]);
    Ok(())
}

/// GLEU as a [`RowMetric`]: [`PerReference`] does the rest.
pub struct Gleu;

impl RowMetric for Gleu {
    type Config = GleuConfig;
    type Prepared = Prepared;
    type Scratch = GleuScratch;

    fn row_width(_: GleuConfig) -> usize {
        ROW_WIDTH
    }

    fn prepare_hyp(config: GleuConfig, text: &str) -> Prepared {
        Prepared::new(config, text)
    }

    fn prepare_ref(config: GleuConfig, text: &str) -> Prepared {
        Prepared::reference(config, text)
    }

    fn prepare_ref_once(config: GleuConfig, text: &str) -> Prepared {
        // Scored once: the trie is built in the thread's reusable tables instead.
        Prepared::new(config, text)
    }

    fn row(
        config: GleuConfig,
        scratch: &mut GleuScratch,
        segment: usize,
        hyp: &Prepared,
        refs: &[Prepared],
        out: &mut [i64],
    ) -> Result<(), CoreError> {
        segment_row(config, hyp, refs, scratch, segment, out)
    }

    fn tokenize(config: GleuConfig, lines: &[&str]) -> Option<Vec<String>> {
        Some(config.bleu().tokenize_lines(lines))
    }
}

/// Reference streams tokenized once.
pub type GleuReferences = PerReference<Gleu>;

/// Every hypothesis against every reference as its only reference.
pub type GleuPairwise = PerReferencePairs<Gleu>;

#[cfg(test)]
mod tests {
    use super::*;

    fn row(config: GleuConfig, hyp: &str, refs: &[&str]) -> [i64; 2] {
        let hyp = Prepared::new(config, hyp);
        let mut rows = [[0; 2]; 2];
        // References with their tries, and prepared as hypotheses (the trie built per row).
        for (out, with_trie) in rows.iter_mut().zip([true, false]) {
            let prepare = if with_trie {
                Prepared::reference
            } else {
                Prepared::new
            };
            let refs: Vec<Prepared> = refs.iter().map(|r| prepare(config, r)).collect();
            let mut scratch = GleuScratch::default();
            segment_row(config, &hyp, &refs, &mut scratch, 0, out).unwrap();
        }
        assert_eq!(rows[0], rows[1]);
        rows[0]
    }

    fn config(min_order: usize, max_order: usize) -> GleuConfig {
        GleuConfig::new(Tokenizer::None, false, min_order, max_order).unwrap()
    }

    #[test]
    fn nltk_docstring_counts() {
        // NLTK: sentence_gleu([ref], hyp) = 0.0909... = 2 / 22 for "the the the ...".
        let c = config(1, 4);
        let r = row(c, "the the the the the the the", &["the cat is on the mat"]);
        assert_eq!(r, [2, 22]);
        assert_eq!(c.ngrams(7), 7 + 6 + 5 + 4);
        assert_eq!(c.ngrams(2), 3);
    }

    #[test]
    fn the_best_ratio_wins_and_the_first_among_equals() {
        let c = config(1, 2);
        // "a b" against "a b" (3 of 3) beats "a" (1 of 3).
        assert_eq!(row(c, "a b", &["a", "a b"]), [3, 3]);
        // Equal ratios 1/3 and 2/6: the first.
        assert_eq!(
            row(config(1, 1), "a b c", &["a x y", "a b x y z w"]),
            [1, 3]
        );
        // No n-gram on either side: skipped; a segment of nothing else gives [0, 0].
        assert_eq!(row(c, "", &["", "a"]), [0, 1]);
        assert_eq!(row(c, "", &[""]), [0, 0]);
    }

    #[test]
    fn orders_outside_the_range_are_not_counted() {
        let c = config(2, 3);
        // Bigrams and trigrams only: "a b c" has 2 + 1, "a b d" matches "a b" only.
        assert_eq!(row(c, "a b c", &["a b d"]), [1, 3]);
        assert!(GleuConfig::new(Tokenizer::None, false, 0, 4).is_err());
        assert!(GleuConfig::new(Tokenizer::None, false, 3, 2).is_err());
        assert!(GleuConfig::new(Tokenizer::None, false, 1, 65).is_err());
    }
}
