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

use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;

use crate::config::{tokens, Config};
use crate::smallmap::SmallMap;
use crate::tok13a::Scratch;

/// The parent of unigrams.
const ROOT: u32 = u32::MAX;
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
        config: &Config,
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
    config: &Config,
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
    /// in the loaded references' text (unique, and free to compute).
    words: SmallMap,
    n_words: u32,
    /// `edge(parent, word)` to node ids.
    children: SmallMap,
    nodes: Vec<Node>,
    lens: Vec<u32>,
    ids: Vec<u32>,
    counts: Vec<u32>,
    touched: Vec<u32>,
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
        config: &Config,
        refs: impl IntoIterator<Item = &'a str>,
    ) -> usize {
        let (n_refs, n_tokens) = write_refs(config, refs, &mut self.scratch, &mut self.text);
        self.index(n_tokens as usize, config.max_order);
        n_refs as usize
    }

    /// Build the word and n-gram tables of the loaded text.
    fn index(&mut self, n_tokens: usize, max_order: usize) {
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
    pub fn row(&mut self, config: &Config, hyp: &str, row: &mut [i64]) {
        let n_max = config.max_order;
        let Counter {
            scratch,
            text,
            words,
            children,
            nodes,
            lens,
            ids,
            counts,
            touched,
            ..
        } = self;
        ids.clear();
        for tok in tokens(config.preprocess_into(hyp, scratch)) {
            let id = words.find(FxBuildHasher.hash_one(tok), |id| is_word_at(text, id, tok));
            ids.push(id.unwrap_or(u32::MAX));
        }
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
                if word == u32::MAX {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::Tokenizer;

    #[test]
    fn ngram_crossing_an_unseen_word_is_not_counted() {
        let cfg = Config::new(Tokenizer::None, false, 2).unwrap();
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
        let cfg = Config::new(Tokenizer::None, false, 1).unwrap();
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
