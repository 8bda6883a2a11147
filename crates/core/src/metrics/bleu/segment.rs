//! One segment's references matched against hypotheses.
//!
//! The references of a segment are kept as their tokenized text only (compact, one
//! allocation). To score, a [`Counter`] loads them into its reusable tables: words
//! get local ids, and n-grams form a trie whose node ids are dense `u32`s (the child
//! of node `p` for word `w` is found by hashing `(p, w)`), each node holding its
//! order and largest count in any single reference. A hypothesis then walks the trie
//! from each position and stops at the first n-gram no reference has (no longer
//! n-gram from there can match). Rebuilding these small tables per segment keeps
//! them in the L1 cache, which is faster than keeping thousands of them in memory,
//! and a loaded segment can be matched against many hypotheses. Words are compared
//! as strings, so everything is exact.
//!
//! A trie costs about a hundred bytes a reference token, which is nothing for a
//! sentence and 4 GB for a 100 MB line. References longer than
//! [`HUGE_SEGMENT_TOKENS`] are therefore counted by sorting instead (see
//! [`Counter::sorted_row`]): a word id and a position index a token, a few bytes each,
//! so memory stays a small multiple of the text.

use rustc_hash::{FxBuildHasher, FxHashMap};
use std::hash::BuildHasher;

use crate::metrics::bleu::config::BleuConfig;
use crate::smallmap::SmallMap;
use crate::text::tok13a::Scratch;
use crate::text::words::tokens;

/// The parent of unigrams.
const ROOT: u32 = u32::MAX;
/// References of more tokens than this (in all) are counted by sorting, not with a trie.
pub const HUGE_SEGMENT_TOKENS: usize = 1 << 20;
/// The id of a hypothesis word that no reference has: no n-gram with it can match.
const UNSEEN: u32 = u32::MAX;
/// Separates the references of a segment in its stored text (tokens never contain it).
const REF_SEPARATOR: char = '\n';

fn edge(parent: u32, word: u32) -> u64 {
    (u64::from(parent) << 32) | u64::from(word)
}

/// The references of one segment: tokenized, tokens separated by single spaces and
/// references by [`REF_SEPARATOR`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefSegment {
    text: Box<str>,
    n_refs: u32,
    n_tokens: u32,
}

impl RefSegment {
    /// Tokenize the references of one segment.
    pub fn new<'a>(
        config: &BleuConfig,
        refs: impl IntoIterator<Item = &'a str>,
        s: &mut Scratch,
    ) -> Self {
        let mut text = String::new();
        let (n_refs, n_tokens) = write_refs(config, refs, s, &mut text);
        RefSegment {
            text: text.into_boxed_str(),
            n_refs,
            n_tokens,
        }
    }

    /// Number of references.
    pub fn n_refs(&self) -> usize {
        self.n_refs as usize
    }
}

/// Tokenize `refs` into `text` in the layout of [`RefSegment`]; returns the number of
/// references and of tokens.
fn write_refs<'a>(
    config: &BleuConfig,
    refs: impl IntoIterator<Item = &'a str>,
    s: &mut Scratch,
    text: &mut String,
) -> (u32, u32) {
    text.clear();
    let (mut n_refs, mut n_tokens) = (0, 0);
    for line in refs {
        if n_refs > 0 {
            text.push(REF_SEPARATOR);
        }
        for (i, tok) in tokens(config.preprocess_into(line, s)).enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(tok);
            n_tokens += 1;
        }
        n_refs += 1;
    }
    (n_refs, n_tokens)
}

/// A trie node: its n-gram's order and largest count in any one reference.
#[derive(Debug, Clone, Copy)]
struct Node {
    order: u32,
    max_count: u32,
}

/// sacrebleu's `_get_closest_ref_len`: the closest length, ties to the shorter.
pub fn closest_ref_len(hyp_len: usize, ref_lens: &[u32]) -> usize {
    let mut best: Option<(usize, usize)> = None;
    for &len in ref_lens {
        let len = len as usize;
        let diff = hyp_len.abs_diff(len);
        best = match best {
            Some((bd, bl)) if diff > bd || (diff == bd && len >= bl) => Some((bd, bl)),
            _ => Some((diff, len)),
        };
    }
    best.map_or(0, |(_, len)| len)
}

/// Reusable tables for matching hypotheses against one segment's references at a time.
#[derive(Debug, Default)]
pub struct Counter {
    scratch: Scratch,
    /// The loaded references' text, in the layout of [`RefSegment`].
    text: String,
    /// Word hashes to word ids; a word's id is the byte offset of its first occurrence
    /// in the loaded references' text (unique, and free to compute), or for token ids
    /// ([`Counter::load_id_refs`]) the ids themselves to their order of first occurrence.
    words: SmallMap,
    n_words: u32,
    /// `edge(parent, word)` to node ids.
    children: SmallMap,
    nodes: Vec<Node>,
    lens: Vec<u32>,
    ids: Vec<u32>,
    counts: Vec<u32>,
    touched: Vec<u32>,
    /// References above this many tokens are counted by sorting ([`HUGE_SEGMENT_TOKENS`];
    /// lowered by tests to check both paths agree).
    huge: Option<usize>,
    /// Whether the loaded references are counted by sorting (no trie was built).
    sorted: bool,
}

/// Byte equality of two slices of equal length, inlined (words are short, and a
/// call to `memcmp` costs more than comparing them).
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// Whether the word with id `id` (its byte offset in `text`) is `word`.
#[inline]
fn is_word_at(text: &str, id: u32, word: &str) -> bool {
    let bytes = text.as_bytes();
    let start = id as usize;
    let end = start + word.len();
    // The boundary first: it rejects most candidates without comparing text.
    bytes
        .get(end)
        .is_none_or(|&b| b == b' ' || b as char == REF_SEPARATOR)
        && bytes
            .get(start..end)
            .is_some_and(|w| same_bytes(w, word.as_bytes()))
}

impl Counter {
    /// The tokenizer buffers, for callers that only tokenize.
    pub fn scratch(&mut self) -> &mut Scratch {
        &mut self.scratch
    }

    /// Load the references of `seg`, replacing those loaded before.
    pub fn load(&mut self, seg: &RefSegment, max_order: usize) {
        self.text.clear();
        self.text.push_str(&seg.text);
        self.index(seg.n_tokens as usize, max_order);
    }

    /// Tokenize and load `refs` (one segment's references), replacing those loaded
    /// before; returns how many there are. The same as [`Counter::load`] of a
    /// [`RefSegment`] of them, without keeping one.
    pub fn load_refs<'a>(
        &mut self,
        config: &BleuConfig,
        refs: impl IntoIterator<Item = &'a str>,
    ) -> usize {
        let (n_refs, n_tokens) = write_refs(config, refs, &mut self.scratch, &mut self.text);
        self.index(n_tokens as usize, config.max_order);
        n_refs as usize
    }

    /// Build the word and n-gram tables of the loaded text.
    fn index(&mut self, n_tokens: usize, max_order: usize) {
        self.sorted = n_tokens > self.huge.unwrap_or(HUGE_SEGMENT_TOKENS);
        if self.sorted {
            // Only the lengths: sorted_row reads the text itself.
            self.lens.clear();
            self.lens.extend(
                self.text
                    .split(REF_SEPARATOR)
                    .map(|line| tokens(line).count() as u32),
            );
            return;
        }
        self.words.reset(n_tokens);
        self.n_words = 0;
        self.children.reset(n_tokens * max_order);
        self.nodes.clear();
        self.lens.clear();
        let text = std::mem::take(&mut self.text);
        for line in text.split(REF_SEPARATOR) {
            self.ids.clear();
            for tok in tokens(line) {
                let start = (tok.as_ptr() as usize - text.as_ptr() as usize) as u32;
                let hash = FxBuildHasher.hash_one(tok);
                let words = &mut self.words;
                let id = words.find_or_insert(
                    hash,
                    |id| is_word_at(&text, id, tok),
                    || {
                        self.n_words += 1;
                        start
                    },
                );
                self.ids.push(id);
            }
            self.lens.push(self.ids.len() as u32);
            self.count_ref_line(max_order);
        }
        self.text = text;
    }

    fn count_ref_line(&mut self, max_order: usize) {
        let Counter {
            ids,
            counts,
            touched,
            children,
            nodes,
            ..
        } = self;
        for start in 0..ids.len() {
            let mut node = ROOT;
            for (n, &word) in ids[start..].iter().take(max_order).enumerate() {
                node = children.find_or_insert(
                    edge(node, word),
                    |_| true,
                    || {
                        nodes.push(Node {
                            order: n as u32 + 1,
                            max_count: 0,
                        });
                        nodes.len() as u32 - 1
                    },
                );
                if counts.len() <= node as usize {
                    counts.resize(nodes.len().max(2 * counts.len()), 0);
                }
                if counts[node as usize] == 0 {
                    touched.push(node);
                }
                counts[node as usize] += 1;
            }
        }
        for &node in touched.iter() {
            let slot = &mut nodes[node as usize].max_count;
            *slot = (*slot).max(counts[node as usize]);
            counts[node as usize] = 0;
        }
        touched.clear();
    }

    /// The statistics row `[hyp_len, ref_len, match_1..N, total_1..N]` of `hyp`
    /// against the loaded references.
    pub fn row(&mut self, config: &BleuConfig, hyp: &str, row: &mut [i64]) {
        if self.sorted {
            self.sorted_row(config, hyp, row);
            return;
        }
        let Counter {
            scratch,
            text,
            words,
            ids,
            ..
        } = self;
        ids.clear();
        for tok in tokens(config.preprocess_into(hyp, scratch)) {
            let id = words.find(FxBuildHasher.hash_one(tok), |id| is_word_at(text, id, tok));
            ids.push(id.unwrap_or(UNSEEN));
        }
        self.count_hyp(config.max_order, row);
    }

    /// Load the references of one segment given as token ids (each id a word), replacing
    /// those loaded before; returns how many there are. Scoring ids this way equals scoring
    /// them written as words ([`crate::text::token_ids`]) with the `none` tokenizer, without the
    /// text: ids are compared as integers.
    pub fn load_id_refs<'a>(
        &mut self,
        refs: impl IntoIterator<Item = &'a [i64]> + Clone,
        max_order: usize,
    ) -> usize {
        let n_tokens: usize = refs.clone().into_iter().map(<[i64]>::len).sum();
        self.sorted = false;
        self.words.reset(n_tokens);
        self.n_words = 0;
        self.children.reset(n_tokens * max_order);
        self.nodes.clear();
        self.lens.clear();
        for line in refs {
            self.ids.clear();
            for &token in line {
                // The id is its own tag: equal tags are equal ids, nothing more to compare.
                let next = self.n_words;
                let id = self.words.find_or_insert(token as u64, |_| true, || next);
                self.n_words += u32::from(id == next);
                self.ids.push(id);
            }
            self.lens.push(self.ids.len() as u32);
            self.count_ref_line(max_order);
        }
        self.lens.len()
    }

    /// The statistics row of `hyp` (token ids) against references loaded by
    /// [`Counter::load_id_refs`].
    pub fn row_ids(&mut self, config: &BleuConfig, hyp: &[i64], row: &mut [i64]) {
        let Counter { words, ids, .. } = self;
        ids.clear();
        ids.extend(
            hyp.iter()
                .map(|&token| words.find(token as u64, |_| true).unwrap_or(UNSEEN)),
        );
        self.count_hyp(config.max_order, row);
    }

    /// The row of the hypothesis whose word ids are in `self.ids` ([`UNSEEN`] for words no
    /// reference has) against the loaded trie.
    fn count_hyp(&mut self, n_max: usize, row: &mut [i64]) {
        let Counter {
            children,
            nodes,
            lens,
            ids,
            counts,
            touched,
            ..
        } = self;
        let len = ids.len();
        row.fill(0);
        row[0] = len as i64;
        row[1] = closest_ref_len(len, lens) as i64;
        for n in 1..=n_max {
            row[1 + n_max + n] = (len + 1).saturating_sub(n) as i64;
        }
        for start in 0..len {
            let mut node = ROOT;
            for &word in ids[start..].iter().take(n_max) {
                if word == UNSEEN {
                    break;
                }
                match children.find(edge(node, word), |_| true) {
                    Some(child) => node = child,
                    None => break,
                }
                if counts[node as usize] == 0 {
                    touched.push(node);
                }
                counts[node as usize] += 1;
            }
        }
        for &node in touched.iter() {
            let info = nodes[node as usize];
            row[1 + info.order as usize] += i64::from(counts[node as usize].min(info.max_count));
            counts[node as usize] = 0;
        }
        touched.clear();
    }
}

impl Counter {
    /// Count references above `tokens` tokens by sorting (tests use small values).
    pub fn with_huge_threshold(tokens: usize) -> Self {
        Counter {
            huge: Some(tokens),
            ..Counter::default()
        }
    }

    /// [`Counter::row`] for huge references, by sorting n-gram positions.
    ///
    /// Words get ids (a hypothesis word no reference has gets [`UNSEEN`]); for each
    /// order, the positions of every n-gram of the hypothesis and of each reference
    /// (never across two references) are sorted by their n-gram, and each run of equal
    /// n-grams adds `min(count in the hypothesis, largest count in one reference)`,
    /// exactly what the trie gives.
    fn sorted_row(&mut self, config: &BleuConfig, hyp: &str, row: &mut [i64]) {
        let n_max = config.max_order;
        let Counter {
            scratch,
            text,
            lens,
            ..
        } = self;
        let hyp_text = config.preprocess_into(hyp, scratch);
        let (ids, starts, hyp_len) = numbered_words(hyp_text, text, lens);
        row.fill(0);
        row[0] = hyp_len as i64;
        row[1] = closest_ref_len(hyp_len, lens) as i64;
        let mut per_ref = vec![0u32; lens.len()];
        let mut positions: Vec<u32> = Vec::with_capacity(ids.len());
        for n in 1..=n_max {
            row[1 + n_max + n] = (hyp_len + 1).saturating_sub(n) as i64;
            positions.clear();
            positions.extend(
                (0..(hyp_len + 1).saturating_sub(n))
                    .filter(|&p| !ids[p..p + n].contains(&UNSEEN))
                    .map(|p| p as u32),
            );
            if positions.is_empty() {
                continue;
            }
            for k in 0..lens.len() {
                let (first, end) = (starts[k], starts[k + 1]);
                positions.extend((first..(end + 1).saturating_sub(n).max(first)).map(|p| p as u32));
            }
            positions.sort_unstable_by(|&a, &b| {
                let (a, b) = (a as usize, b as usize);
                ids[a..a + n].cmp(&ids[b..b + n])
            });
            row[1 + n] = clipped_matches(&ids, &starts, hyp_len, n, &positions, &mut per_ref);
        }
    }
}

/// Word ids of the hypothesis and of each reference of `text` (a hypothesis word no reference
/// has is [`UNSEEN`]), the hypothesis first; `starts[k]` is where reference k begins (and
/// `starts[n_refs]` the end); and the hypothesis' length in words.
fn numbered_words(hyp_text: &str, text: &str, lens: &[u32]) -> (Vec<u32>, Vec<usize>, usize) {
    let mut words: FxHashMap<&str, u32> = FxHashMap::default();
    let mut ids: Vec<u32> = Vec::new();
    let mut starts: Vec<usize> = Vec::with_capacity(lens.len() + 1);
    let hyp_len = tokens(hyp_text).count();
    ids.reserve(hyp_len + lens.iter().map(|&l| l as usize).sum::<usize>());
    ids.resize(hyp_len, UNSEEN);
    for line in text.split(REF_SEPARATOR) {
        starts.push(ids.len());
        for tok in tokens(line) {
            let next = words.len() as u32;
            ids.push(*words.entry(tok).or_insert(next));
        }
    }
    starts.push(ids.len());
    for (slot, tok) in ids.iter_mut().zip(tokens(hyp_text)) {
        *slot = words.get(tok).copied().unwrap_or(UNSEEN);
    }
    (ids, starts, hyp_len)
}

/// The clipped matches of the order-`n` n-grams at `positions`, sorted by their n-gram: each
/// run of equal n-grams adds `min(count in the hypothesis, largest count in one reference)`.
fn clipped_matches(
    ids: &[u32],
    starts: &[usize],
    hyp_len: usize,
    n: usize,
    positions: &[u32],
    per_ref: &mut [u32],
) -> i64 {
    let mut matched = 0i64;
    let mut run = 0;
    while run < positions.len() {
        let gram = &ids[positions[run] as usize..positions[run] as usize + n];
        let mut end = run;
        let mut in_hyp = 0u32;
        while end < positions.len() {
            let p = positions[end] as usize;
            if ids[p..p + n] != *gram {
                break;
            }
            if p < hyp_len {
                in_hyp += 1;
            } else {
                // The reference holding p: the last start at or before it.
                let k = starts.partition_point(|&s| s <= p) - 1;
                per_ref[k] += 1;
            }
            end += 1;
        }
        if in_hyp > 0 {
            let best = per_ref.iter().copied().max().unwrap_or(0);
            matched += i64::from(in_hyp.min(best));
        }
        per_ref.fill(0);
        run = end;
    }
    matched
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tokenize::Tokenizer;

    #[test]
    fn huge_references_counted_by_sorting_give_the_trie_rows() {
        let mut rng = crate::testing::Rng(7);
        for max_order in [1, 2, 4, 6] {
            let cfg = BleuConfig::new(Tokenizer::Tok13a, false, max_order).unwrap();
            for _ in 0..200 {
                let refs: Vec<String> = (0..3).map(|k| rng.line(k * 7 + 3)).collect();
                let hyp = rng.line(12);
                let seg = RefSegment::new(
                    &cfg,
                    refs.iter().map(String::as_str),
                    &mut Scratch::default(),
                );
                let (mut trie, mut sorted) = (Counter::default(), Counter::with_huge_threshold(0));
                let width = 2 + 2 * max_order;
                let (mut a, mut b) = (vec![0i64; width], vec![0i64; width]);
                trie.load(&seg, max_order);
                sorted.load(&seg, max_order);
                assert!(sorted.sorted && !trie.sorted);
                for h in [hyp.as_str(), refs[1].as_str(), "", "zzz a b"] {
                    trie.row(&cfg, h, &mut a);
                    sorted.row(&cfg, h, &mut b);
                    assert_eq!(a, b, "{h:?} against {refs:?}");
                }
            }
        }
    }

    #[test]
    fn ngram_crossing_an_unseen_word_is_not_counted() {
        let cfg = BleuConfig::new(Tokenizer::None, false, 2).unwrap();
        let mut c = Counter::default();
        let seg = RefSegment::new(&cfg, ["a b a"], &mut Scratch::default());
        let mut row = [0i64; 6];
        c.load(&seg, 2);
        c.row(&cfg, "a x b a a", &mut row);
        // unigrams a, b, a, a (a clipped to 2): 3; bigrams "b a": 1
        assert_eq!(row, [5, 3, 3, 1, 5, 4]);
    }

    #[test]
    fn words_with_equal_text_share_an_id_across_references() {
        let cfg = BleuConfig::new(Tokenizer::None, false, 1).unwrap();
        let mut c = Counter::default();
        let seg = RefSegment::new(&cfg, ["x ab", "ab ab b"], &mut Scratch::default());
        c.load(&seg, 1);
        assert_eq!(c.n_words, 3);
        assert_eq!(c.lens, [2, 3]);
        let mut row = [0i64; 4];
        c.row(&cfg, "ab ab ab b a", &mut row);
        assert_eq!(row, [5, 3, 3, 5]);
    }
}
