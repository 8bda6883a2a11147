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
//! Two sentences of at most 64 words each are matched by bit operations on their words'
//! positions ([`Bits`]); a longer one by an n-gram trie, which a cached reference keeps.
//!
//! Text is tokenized as BLEU tokenizes it ([`BleuConfig::preprocess_into`]); with the `none`
//! tokenizer, a sentence is NLTK's tokens joined by spaces.

use std::cell::RefCell;

use crate::error::CoreError;
use crate::family::per_reference::{PerReference, PerReferencePairs, RowMetric};
use crate::metrics::bleu::config::BleuConfig;
use crate::smallmap::SmallMap;
use crate::text::tok13a::Scratch;
use crate::text::tokenize::Tokenizer;
use crate::text::words::token_spans;

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

/// A sentence's tokens: its tokenized text and each token's place and hash; a reference too
/// long for [`Bits`] also has its n-gram trie, built once and walked by every hypothesis.
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
            let mut words = Vec::new();
            split_words(tokenized, &mut words);
            Prepared {
                text: tokenized.into(),
                words: words.into_boxed_slice(),
                trie: None,
            }
        })
    }

    fn view(&self) -> View<'_> {
        View {
            text: &self.text,
            words: &self.words,
        }
    }

    /// A reference: its tokens, and its trie if it is too long for [`Bits`].
    fn reference(config: GleuConfig, line: &str) -> Prepared {
        let mut prepared = Prepared::new(config, line);
        if prepared.words.len() <= BITS {
            return prepared;
        }
        let mut trie = Trie::default();
        trie.fill(config, prepared.view());
        trie.ids = Vec::new(); // a buffer: kept by a thread's trie, not by every reference's
        prepared.trie = Some(Box::new(trie));
        prepared
    }
}

/// The words of a tokenized line (tokens separated by ASCII spaces) with their hashes.
fn split_words(tokenized: &str, words: &mut Vec<Word>) {
    words.clear();
    let bytes = tokenized.as_bytes();
    token_spans(tokenized, |start, end| {
        words.push(Word {
            start,
            end,
            hash: word_hash(bytes, start, end),
        });
    });
}

/// The hash of the word `text[start..end]`: its bytes eight at a time, multiplied in. The
/// tables compare the words themselves, so it only has to spread them.
fn word_hash(text: &[u8], start: usize, end: usize) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let len = end - start;
    let fold = |h: u64, chunk: u64| (h ^ chunk).wrapping_mul(K).rotate_left(29);
    let eight = |at: usize| {
        let chunk = text.get(at..at + 8)?;
        Some(u64::from_le_bytes(chunk.try_into().expect("eight bytes")))
    };
    let (mut h, mut at) = (len as u64, start);
    while at + 8 <= end {
        h = fold(h, eight(at).expect("inside the text"));
        at += 8;
    }
    if at < end {
        // The last one to seven bytes: read as eight where the text goes on, then masked.
        let last = match eight(at) {
            Some(chunk) => chunk,
            None => text[at..end]
                .iter()
                .rev()
                .fold(0, |v, &b| (v << 8) | u64::from(b)),
        };
        h = fold(h, last & (u64::MAX >> (64 - 8 * (end - at))));
    }
    h
}

/// A sentence's words in its text: a [`Prepared`] one, or one in a thread's buffers.
#[derive(Clone, Copy)]
struct View<'a> {
    text: &'a str,
    words: &'a [Word],
}

impl<'a> View<'a> {
    fn word(&self, k: usize) -> &'a str {
        let w = &self.words[k];
        &self.text[w.start..w.end]
    }
}

/// A sentence's distinct words (by hash, checked against the text), numbered in order of first
/// appearance: the ids of the trie and of the bits.
#[derive(Default)]
struct Vocabulary {
    words: SmallMap,
    /// Each word id's first position in the sentence.
    first: Vec<u32>,
}

impl Vocabulary {
    /// Number the words of `sentence`; `found(position, id, new)` for each.
    fn read(&mut self, sentence: View<'_>, mut found: impl FnMut(usize, u32, bool)) {
        self.words.reset(sentence.words.len());
        self.first.clear();
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
            found(k, id, id == next);
        }
    }

    /// The id of `other`'s word `k` in the sentence read last (`owner`), if it has the word.
    fn find(&self, owner: View<'_>, other: View<'_>, k: usize) -> Option<u32> {
        let text = other.word(k);
        self.words.find(other.words[k].hash, |id| {
            owner.word(self.first[id as usize] as usize) == text
        })
    }

    fn len(&self) -> usize {
        self.first.len()
    }
}

/// A sentence's n-grams of orders up to the maximum as a trie: `(parent, word)` to node, with
/// each node's count (0 for orders below the minimum).
#[derive(Default)]
pub struct Trie {
    words: Vocabulary,
    nodes: SmallMap,
    counts: Vec<u32>,
    /// The sentence's word ids while it is read (kept for the next sentence's use).
    ids: Vec<u32>,
}

impl Trie {
    /// This trie made the trie of `sentence`.
    fn fill(&mut self, config: GleuConfig, sentence: View<'_>) {
        let len = sentence.words.len();
        // Each position starts at most max_order n-grams (nodes).
        self.nodes.reset(len * config.max_order.min(len));
        self.counts.clear();
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        self.words.read(sentence, |_, id, _| ids.push(id));
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
        owner: View<'_>,
        other: View<'_>,
        walk: &mut Walk,
    ) -> usize {
        walk.ids.clear();
        for k in 0..other.words.len() {
            let id = self.words.find(owner, other, k);
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

/// The longest sentence [`Bits`] takes: a word's positions are the bits of a `u64`.
const BITS: usize = 64;

/// The n-gram overlap of two sentences of at most [`BITS`] words, with no table of n-grams:
/// each word's positions as bits, in the reference and in the hypothesis. The n-gram starting
/// at hypothesis position `i` occurs in the reference at the positions the AND of its words'
/// reference bits, each shifted back by its offset, holds; the same AND over the hypothesis's
/// bits gives its earlier occurrences there, so it matches while they number fewer than the
/// reference's (the clipped count).
#[derive(Default)]
struct Bits {
    /// The reference's words.
    words: Vocabulary,
    /// Each word id's positions in the reference, and in the hypothesis.
    in_ref: Vec<u64>,
    in_hyp: Vec<u64>,
    /// The hypothesis's word ids (ROOT: a word the reference lacks).
    ids: Vec<u32>,
}

impl Bits {
    fn overlap(&mut self, config: GleuConfig, reference: View<'_>, hyp: View<'_>) -> usize {
        debug_assert!(reference.words.len() <= BITS && hyp.words.len() <= BITS);
        self.read_reference(reference);
        self.read_hypothesis(reference, hyp);
        let mut found = 0;
        for (i, &id) in self.ids.iter().enumerate() {
            if id == ROOT {
                continue;
            }
            let before = (1u64 << i) - 1;
            let (mut in_ref, mut in_hyp) = (self.in_ref[id as usize], self.in_hyp[id as usize]);
            for (k, &next) in self.ids[i..].iter().enumerate().take(config.max_order) {
                if k > 0 {
                    if next == ROOT {
                        break;
                    }
                    in_ref &= self.in_ref[next as usize] >> k;
                    if in_ref == 0 {
                        break;
                    }
                    in_hyp &= self.in_hyp[next as usize] >> k;
                }
                // Most n-grams have no earlier occurrence: no count needed (and `count_ones`
                // is a sequence of shifts where the CPU's popcnt is not assumed).
                let earlier = in_hyp & before;
                if k + 1 >= config.min_order
                    && (earlier == 0 || earlier.count_ones() < in_ref.count_ones())
                {
                    found += 1;
                }
            }
        }
        found
    }

    fn read_reference(&mut self, reference: View<'_>) {
        let in_ref = &mut self.in_ref;
        in_ref.clear();
        self.words.read(reference, |k, id, new| {
            if new {
                in_ref.push(0);
            }
            in_ref[id as usize] |= 1 << k;
        });
    }

    fn read_hypothesis(&mut self, reference: View<'_>, hyp: View<'_>) {
        self.in_hyp.clear();
        self.in_hyp.resize(self.words.len(), 0);
        self.ids.clear();
        for k in 0..hyp.words.len() {
            let id = self.words.find(reference, hyp, k);
            if let Some(id) = id {
                self.in_hyp[id as usize] |= 1 << k;
            }
            self.ids.push(id.unwrap_or(ROOT));
        }
    }
}

/// Per-thread tables, reused from segment to segment.
#[derive(Default)]
pub struct GleuScratch {
    walk: Walk,
    /// The trie of a long reference that has none (one scored once).
    spare: Trie,
    bits: Bits,
    tokenizer: Scratch,
    /// A hypothesis scored once: its tokenized text and its words; and its reference's words.
    hyp_text: String,
    hyp_words: Vec<Word>,
    ref_words: Vec<Word>,
}

impl GleuScratch {
    /// The clipped overlap of `hyp`'s n-grams with `reference`'s (its trie if it has one).
    fn overlap(
        &mut self,
        config: GleuConfig,
        reference: View<'_>,
        trie: Option<&Trie>,
        hyp: View<'_>,
    ) -> usize {
        if reference.words.len() <= BITS && hyp.words.len() <= BITS {
            return self.bits.overlap(config, reference, hyp);
        }
        let trie = trie.unwrap_or_else(|| {
            self.spare.fill(config, reference);
            &self.spare
        });
        trie.overlap(config, reference, hyp, &mut self.walk)
    }
}

fn edge(parent: u32, word: u32) -> u64 {
    (u64::from(parent) << 32) | u64::from(word)
}

/// The best reference of a segment so far: the highest ratio of matches to the larger
/// n-gram total, the first among equals; references where neither sentence has an n-gram
/// are not offered (see the module's documentation).
#[derive(Default)]
struct Best(Option<(usize, usize)>);

impl Best {
    /// The larger n-gram total of a hypothesis and a reference of these lengths.
    fn total(config: GleuConfig, hyp_len: usize, ref_len: usize) -> usize {
        config.ngrams(hyp_len).max(config.ngrams(ref_len))
    }

    fn offer(&mut self, found: usize, total: usize) {
        // found / total > best_found / best_total, exactly.
        if self.0.is_none_or(|(bf, bt)| found * bt > bf * total) {
            self.0 = Some((found, total));
        }
    }

    fn write(self, segment: usize, refs: usize, out: &mut [i64]) -> Result<(), CoreError> {
        if refs == 0 {
            return Err(CoreError::NoReference { segment });
        }
        let (found, total) = self.0.unwrap_or((0, 0));
        out.copy_from_slice(&[found as i64, total as i64]);
        Ok(())
    }
}

/// The row of `hyp` against the best of `refs` (see the module's documentation).
fn segment_row(
    config: GleuConfig,
    hyp: &Prepared,
    refs: &[Prepared],
    scratch: &mut GleuScratch,
    segment: usize,
    out: &mut [i64],
) -> Result<(), CoreError> {
    let mut best = Best::default();
    for reference in refs {
        let total = Best::total(config, hyp.words.len(), reference.words.len());
        if total > 0 {
            let trie = reference.trie.as_deref();
            best.offer(
                scratch.overlap(config, reference.view(), trie, hyp.view()),
                total,
            );
        }
    }
    best.write(segment, refs.len(), out)
}

/// [`segment_row`] of sentences scored once: tokenized into the thread's buffers, no trie
/// built for a reference the bits take.
fn segment_row_once(
    config: GleuConfig,
    hyp: &str,
    refs: &[&str],
    scratch: &mut GleuScratch,
    segment: usize,
    out: &mut [i64],
) -> Result<(), CoreError> {
    let mut hyp_text = std::mem::take(&mut scratch.hyp_text);
    let mut hyp_words = std::mem::take(&mut scratch.hyp_words);
    let mut ref_words = std::mem::take(&mut scratch.ref_words);
    config.bleu().preprocess_into(hyp, &mut scratch.tokenizer);
    std::mem::swap(&mut hyp_text, &mut scratch.tokenizer.out);
    split_words(&hyp_text, &mut hyp_words);
    let hyp = View {
        text: &hyp_text,
        words: &hyp_words,
    };
    let mut best = Best::default();
    for line in refs {
        config.bleu().preprocess_into(line, &mut scratch.tokenizer);
        let text = std::mem::take(&mut scratch.tokenizer.out);
        split_words(&text, &mut ref_words);
        let total = Best::total(config, hyp_words.len(), ref_words.len());
        if total > 0 {
            let reference = View {
                text: &text,
                words: &ref_words,
            };
            best.offer(scratch.overlap(config, reference, None, hyp), total);
        }
        scratch.tokenizer.out = text;
    }
    (scratch.hyp_text, scratch.hyp_words, scratch.ref_words) = (hyp_text, hyp_words, ref_words);
    best.write(segment, refs.len(), out)
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

    fn row_once(
        config: GleuConfig,
        scratch: &mut GleuScratch,
        segment: usize,
        hyp: &str,
        refs: &[&str],
        out: &mut [i64],
    ) -> Result<(), CoreError> {
        segment_row_once(config, hyp, refs, scratch, segment, out)
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
    use crate::testing::Rng;

    /// The row of `hyp` against `refs`, cached (long references with their tries) and once
    /// (in the thread's buffers), which must agree.
    fn row(config: GleuConfig, hyp: &str, refs: &[&str]) -> [i64; 2] {
        let mut rows = [[0; 2]; 2];
        let mut scratch = GleuScratch::default();
        let prepared: Vec<Prepared> = refs
            .iter()
            .map(|r| Prepared::reference(config, r))
            .collect();
        let hyp_prepared = Prepared::new(config, hyp);
        segment_row(
            config,
            &hyp_prepared,
            &prepared,
            &mut scratch,
            0,
            &mut rows[0],
        )
        .unwrap();
        segment_row_once(config, hyp, refs, &mut scratch, 0, &mut rows[1]).unwrap();
        assert_eq!(rows[0], rows[1], "{hyp:?} against {refs:?}");
        rows[0]
    }

    /// The overlap by bits and by a trie, on the same two sentences.
    fn both_overlaps(config: GleuConfig, hyp: &Prepared, reference: &Prepared) -> [usize; 2] {
        let mut trie = Trie::default();
        trie.fill(config, reference.view());
        let by_trie = trie.overlap(config, reference.view(), hyp.view(), &mut Walk::default());
        let by_bits = Bits::default().overlap(config, reference.view(), hyp.view());
        [by_bits, by_trie]
    }

    #[test]
    fn bits_and_trie_count_the_same_overlap() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..3000 {
            let min_order = 1 + rng.below(3);
            let c = config(min_order, min_order + rng.below(6));
            let (hyp, reference) = (rng.line(BITS), rng.line(BITS));
            let hyp = Prepared::new(c, &hyp);
            let reference = Prepared::new(c, &reference);
            let [bits, trie] = both_overlaps(c, &hyp, &reference);
            assert_eq!(bits, trie, "{:?} against {:?}", hyp.text, reference.text);
        }
        // 64 words on both sides: every bit of the word sets is used.
        let full = vec!["x"; BITS].join(" ");
        let x = Prepared::new(config(1, 4), &full);
        assert_eq!(both_overlaps(config(1, 4), &x, &x), [4 * BITS - 6; 2]);
    }

    #[test]
    fn long_sentences_are_counted_by_the_trie_alike() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..300 {
            let (hyp, reference) = (rng.line(2 * BITS), rng.line(2 * BITS));
            row(config(1, 4), &hyp, &[&reference, "the cat"]);
        }
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
