//! chrF and chrF++ sufficient statistics (Popović 2015, 2017), as sacrebleu 2.6.0
//! counts them.
//!
//! A row has three columns per order, character orders first, then word orders:
//! `[hyp_count, ref_count, matches]`, exactly sacrebleu's segment statistics. The
//! hypothesis count of an order is 0 when the reference has no n-gram of that order
//! (sacrebleu does not count hits where no reference n-gram exists).
//!
//! Text is prepared once per sentence ([`Prepared`]): lowercased when asked (Python's
//! `str.lower`), its characters with Python-whitespace removed (unless `whitespace`),
//! and, for chrF++, its words split as sacrebleu's `_remove_punctuation` splits them.
//! A [`Matcher`] loads one reference into a trie over code points (and one over word
//! ids), then walks each hypothesis through it; a hypothesis position stops at the
//! first n-gram the reference does not have. Everything compares exact symbols.
//!
//! With several references sacrebleu keeps the statistics of the reference with the
//! best F-score. That choice is arithmetic on statistics, so it is not made here: the
//! core returns one row per (segment, reference) and the Python scoring function,
//! the only home of chrF's arithmetic, picks the row.

use rustc_hash::{FxBuildHasher, FxHashMap};
use std::hash::BuildHasher;

use crate::error::CoreError;
use crate::family::refset::RefSet;
use crate::family::refset::ReferenceStore;
use crate::family::{Family, PairTable};
use crate::metrics::bleu::pairwise::{aggregate_matches, Lists};
use crate::parallel::{self, Exec, Grain};
use crate::smallmap::SmallMap;
use crate::text;

/// The largest character or word order accepted: memory grows with the order, and
/// no published chrF variant comes near it.
pub const MAX_ORDER: usize = 64;

const ROOT_CHAR: u32 = u32::MAX;
const ROOT_WORD: u32 = u32::MAX - 1;
/// A hypothesis word that no reference word equals.
const UNSEEN: u32 = u32::MAX;
/// sacrebleu's `string.punctuation`, split off the ends of words in chrF++.
const PUNCTUATION: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

fn edge(parent: u32, symbol: u32) -> u64 {
    (u64::from(parent) << 32) | u64::from(symbol)
}

/// Everything that decides how text becomes chrF statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChrfConfig {
    pub char_order: usize,
    pub word_order: usize,
    pub lowercase: bool,
    pub whitespace: bool,
}

impl ChrfConfig {
    /// A configuration; orders up to [`MAX_ORDER`], at least one of them positive.
    pub fn new(
        char_order: usize,
        word_order: usize,
        lowercase: bool,
        whitespace: bool,
    ) -> Result<Self, CoreError> {
        for (name, order) in [("char_order", char_order), ("word_order", word_order)] {
            if order > MAX_ORDER {
                return Err(CoreError::OrderTooLarge {
                    name,
                    order,
                    max: MAX_ORDER,
                });
            }
        }
        if char_order + word_order == 0 {
            return Err(CoreError::InvalidOrder(0));
        }
        Ok(ChrfConfig {
            char_order,
            word_order,
            lowercase,
            whitespace,
        })
    }

    /// Number of orders (character and word).
    pub fn orders(&self) -> usize {
        self.char_order + self.word_order
    }

    /// Number of columns of a statistics row.
    pub fn row_width(&self) -> usize {
        3 * self.orders()
    }

    /// Prepare one sentence (into `out`, reusing its buffers).
    pub fn prepare_into(&self, line: &str, out: &mut Prepared) {
        let lowered = if self.lowercase {
            text::lower(line)
        } else {
            line.into()
        };
        out.chars.clear();
        if self.char_order > 0 {
            let kept = lowered
                .chars()
                .filter(|&c| self.whitespace || !text::is_space(c));
            out.chars.extend(kept.map(u32::from));
        }
        out.words.clear();
        out.n_words = 0;
        if self.word_order > 0 {
            for word in text::split(&lowered) {
                for part in split_punctuation(word) {
                    if out.n_words > 0 {
                        out.words.push(' ');
                    }
                    out.words.push_str(part);
                    out.n_words += 1;
                }
            }
        }
    }

    /// [`ChrfConfig::prepare_into`] into a new value.
    pub fn prepare(&self, line: &str) -> Prepared {
        let mut out = Prepared::default();
        self.prepare_into(line, &mut out);
        out.shrink();
        out
    }
}

/// sacrebleu's `_remove_punctuation` of one word: a word of two or more characters
/// loses a trailing punctuation mark, or else a leading one, as a word of its own.
fn split_punctuation(word: &str) -> impl Iterator<Item = &str> {
    let mut chars = word.chars();
    let first = chars.next();
    let last = chars.next_back();
    let is_punct = |c: Option<char>| c.is_some_and(|c| PUNCTUATION.contains(c));
    let (a, b) = if last.is_none() {
        (word, "")
    } else if is_punct(last) {
        word.split_at(word.len() - 1)
    } else if is_punct(first) {
        word.split_at(1)
    } else {
        (word, "")
    };
    [a, b].into_iter().filter(|s| !s.is_empty())
}

/// One sentence ready for counting: code points for character n-grams, words
/// (joined by single spaces, which no word contains) for word n-grams.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prepared {
    chars: Vec<u32>,
    words: String,
    n_words: usize,
}

impl Prepared {
    fn shrink(&mut self) {
        self.chars.shrink_to_fit();
        self.words.shrink_to_fit();
    }

    fn words(&self) -> impl Iterator<Item = &str> {
        self.words.split(' ').filter(|w| !w.is_empty())
    }
}

/// Count of n-grams of order `n` (1-based) in a sequence of `len` symbols.
fn grams(len: usize, n: usize) -> i64 {
    (len + 1).saturating_sub(n) as i64
}

/// Each order's `n` with the length it counts in: `lens` is (characters, words).
fn order_lengths(
    config: &ChrfConfig,
    lens: (usize, usize),
) -> impl Iterator<Item = (usize, usize)> {
    let chars = (1..=config.char_order).map(move |n| (n, lens.0));
    chars.chain((1..=config.word_order).map(move |n| (n, lens.1)))
}

/// Write the hypothesis and reference counts of every order; matches are added later.
fn write_totals(
    config: &ChrfConfig,
    hyp: (usize, usize),
    reference: (usize, usize),
    row: &mut [i64],
) {
    row.fill(0);
    let orders = order_lengths(config, hyp).zip(order_lengths(config, reference));
    for (k, ((n, hyp_len), (_, ref_len))) in orders.enumerate() {
        let ref_count = grams(ref_len, n);
        row[3 * k] = if ref_count > 0 { grams(hyp_len, n) } else { 0 };
        row[3 * k + 1] = ref_count;
    }
}

/// Reusable tables that hold one reference and match hypotheses against it.
#[derive(Debug, Default)]
pub struct Matcher {
    /// `edge(parent, symbol)` to node ids, for both tries.
    children: SmallMap,
    ref_counts: Vec<u32>,
    hyp_counts: Vec<u32>,
    touched: Vec<u32>,
    /// Reference words to ids: hashes in `words`, the text in `word_text` at `spans`.
    words: SmallMap,
    word_text: String,
    spans: Vec<(u32, u32)>,
    ids: Vec<u32>,
    ref_lens: (usize, usize),
}

impl Matcher {
    fn word_id(&self, word: &str) -> Option<u32> {
        let Matcher {
            words,
            word_text,
            spans,
            ..
        } = self;
        words.find(FxBuildHasher.hash_one(word), |id| {
            let (start, end) = spans[id as usize];
            &word_text[start as usize..end as usize] == word
        })
    }

    /// Load `reference`, replacing the one loaded before.
    pub fn load(&mut self, config: &ChrfConfig, reference: &Prepared) {
        let n_words = reference.n_words;
        self.children.reset(
            reference.chars.len() * config.char_order.min(reference.chars.len())
                + n_words * config.word_order.min(n_words),
        );
        self.ref_counts.clear();
        self.words.reset(n_words);
        self.word_text.clear();
        self.spans.clear();
        self.ids.clear();
        for word in reference.words() {
            let id = match self.word_id(word) {
                Some(id) => id,
                None => {
                    let id = self.spans.len() as u32;
                    let start = self.word_text.len() as u32;
                    self.word_text.push_str(word);
                    self.spans.push((start, self.word_text.len() as u32));
                    let hash = FxBuildHasher.hash_one(word);
                    self.words.find_or_insert(hash, |_| false, || id);
                    id
                }
            };
            self.ids.push(id);
        }
        let ids = std::mem::take(&mut self.ids);
        self.count_ref(ROOT_CHAR, &reference.chars, config.char_order);
        self.count_ref(ROOT_WORD, &ids, config.word_order);
        self.ids = ids;
        self.ref_lens = (reference.chars.len(), n_words);
        self.hyp_counts.clear();
        self.hyp_counts.resize(self.ref_counts.len(), 0);
    }

    fn count_ref(&mut self, root: u32, symbols: &[u32], max_order: usize) {
        let Matcher {
            children,
            ref_counts,
            ..
        } = self;
        for start in 0..symbols.len() {
            let mut node = root;
            for &symbol in symbols[start..].iter().take(max_order) {
                node = children.find_or_insert(
                    edge(node, symbol),
                    |_| true,
                    || {
                        ref_counts.push(0);
                        ref_counts.len() as u32 - 1
                    },
                );
                ref_counts[node as usize] += 1;
            }
        }
    }

    /// The statistics row of `hyp` against the loaded reference.
    pub fn row(&mut self, config: &ChrfConfig, hyp: &Prepared, row: &mut [i64]) {
        write_totals(config, (hyp.chars.len(), hyp.n_words), self.ref_lens, row);
        let mut ids = std::mem::take(&mut self.ids);
        ids.clear();
        ids.extend(hyp.words().map(|w| self.word_id(w).unwrap_or(UNSEEN)));
        let (chars, words) = row.split_at_mut(3 * config.char_order);
        self.match_hyp(ROOT_CHAR, &hyp.chars, config.char_order, chars);
        self.match_hyp(ROOT_WORD, &ids, config.word_order, words);
        self.ids = ids;
        for &node in &self.touched {
            self.hyp_counts[node as usize] = 0;
        }
        self.touched.clear();
    }

    fn match_hyp(&mut self, root: u32, symbols: &[u32], max_order: usize, row: &mut [i64]) {
        for start in 0..symbols.len() {
            let mut node = root;
            for (k, &symbol) in symbols[start..].iter().take(max_order).enumerate() {
                if symbol == UNSEEN {
                    break;
                }
                match self.children.find(edge(node, symbol), |_| true) {
                    Some(child) => node = child,
                    None => break,
                }
                let count = &mut self.hyp_counts[node as usize];
                if *count == 0 {
                    self.touched.push(node);
                }
                *count += 1;
                if *count <= self.ref_counts[node as usize] {
                    row[3 * k + 2] += 1;
                }
            }
        }
    }
}

/// Prepare every sentence.
pub fn prepare_all(config: &ChrfConfig, lines: &[&str], exec: Exec) -> Vec<Prepared> {
    parallel::map(exec, lines, || (), |_, line| config.prepare(line))
}

/// Reference streams prepared once: every segment's references (those not `None`).
#[derive(Debug)]
pub struct ChrfReferences {
    config: ChrfConfig,
    refs: RefSet<Prepared>,
}

impl ChrfReferences {
    /// Rows of several systems against segments `first..first + len`: for each
    /// segment, for each system, one row per reference. Each reference is loaded
    /// once for all systems.
    ///
    /// # Panics
    /// If the systems differ in length, the segments do not exist or `out` does not
    /// hold `systems.len() * rows_of(first, len)` rows.
    pub fn stats_many_into(&self, first: usize, systems: &[&[&str]], out: &mut [i64], exec: Exec) {
        let config = self.config;
        let width = config.row_width();
        let n = systems.first().map_or(0, |s| s.len());
        assert!(
            systems.iter().all(|s| s.len() == n),
            "streams of one length"
        );
        assert_eq!(out.len(), systems.len() * self.rows_of(first, n) * width);
        // Segments of different reference counts write different amounts: split the
        // output by segment first, then fill in parallel.
        let mut parts: Vec<(usize, &mut [i64])> = Vec::with_capacity(n);
        let mut rest = out;
        for i in first..first + n {
            let size = systems.len() * self.refs.segment(i).len() * width;
            let (part, tail) = rest.split_at_mut(size);
            parts.push((i, part));
            rest = tail;
        }
        let work = |state: &mut (Matcher, Vec<Prepared>), (i, part): &mut (usize, &mut [i64])| {
            let (matcher, hyps) = state;
            let refs = self.refs.segment(*i);
            hyps.resize_with(systems.len(), Prepared::default);
            for (hyp, system) in hyps.iter_mut().zip(systems) {
                config.prepare_into(system[*i - first], hyp);
            }
            let per_system = refs.len();
            for (j, reference) in refs.iter().enumerate() {
                matcher.load(&config, reference);
                for (k, hyp) in hyps.iter().enumerate() {
                    let at = (k * per_system + j) * width;
                    matcher.row(&config, hyp, &mut part[at..at + width]);
                }
            }
        };
        parallel::for_each_mut(exec, &mut parts, Grain::Fine, Default::default, work);
    }
}

impl ReferenceStore for ChrfReferences {
    /// Append segments given as sacrebleu lays references out (`streams[k][i]` is
    /// the k-th reference of segment i; `None`: none there).
    fn extend<'a, S: AsRef<[Option<&'a str>]> + Sync>(
        &mut self,
        streams: &[S],
        exec: Exec,
    ) -> Result<(), CoreError> {
        let config = self.config;
        self.refs.extend(streams, usize::MAX, |lines| {
            prepare_all(&config, lines, exec)
        })
    }

    /// Number of segments.
    fn len(&self) -> usize {
        self.refs.len()
    }

    /// How many references each segment has.
    fn refs_per_segment(&self) -> Vec<usize> {
        self.refs.refs_per_segment()
    }
}

impl Family for ChrfReferences {
    type Config = ChrfConfig;
    type Pairs = ChrfPairwise;

    /// No segments yet; add them with [`ReferenceStore::extend`].
    fn empty(config: ChrfConfig) -> Self {
        ChrfReferences {
            config,
            refs: RefSet::default(),
        }
    }

    fn config(&self) -> ChrfConfig {
        self.config
    }

    fn row_width(&self) -> usize {
        self.config.row_width()
    }

    /// One row per (segment, reference): the best reference is chosen by chrF in Python.
    fn rows_of(&self, first: usize, n: usize) -> usize {
        self.refs.refs_of(first, n)
    }

    fn stats_many_into(
        &self,
        first: usize,
        systems: &[&[&str]],
        out: &mut [i64],
        exec: Exec,
    ) -> Result<(), CoreError> {
        ChrfReferences::stats_many_into(self, first, systems, out, exec);
        Ok(())
    }

    fn pairs(config: ChrfConfig, hyps: &[&str], refs: &[&str], exec: Exec) -> ChrfPairwise {
        ChrfPairwise::new(config, hyps, refs, exec)
    }
}

/// Every hypothesis against every reference as its only reference (minimum-Bayes-risk
/// decoding), each sentence prepared and counted once.
///
/// All references' n-grams get global ids; each reference becomes one
/// `(id, count)` list per order, each hypothesis one list of its n-grams that some
/// reference has. A pair then costs one pass over the reference's lists against the
/// hypothesis's counts spread in a dense array.
#[derive(Debug)]
pub struct ChrfPairwise {
    config: ChrfConfig,
    hyp_lens: Vec<(usize, usize)>,
    ref_lens: Vec<(usize, usize)>,
    hyps: Lists,
    /// Reference r's n-grams of order k (0-based over all orders) are list
    /// `r * orders + k`.
    refs: Lists,
    n_grams: usize,
}

/// The global tries of [`ChrfPairwise`]: n-gram ids and word ids over all references.
#[derive(Default)]
struct GlobalTrie<'a> {
    children: FxHashMap<u64, u32>,
    orders: Vec<u32>,
    words: FxHashMap<&'a str, u32>,
}

impl<'a> GlobalTrie<'a> {
    fn word_ids(&mut self, prepared: &'a Prepared, insert: bool) -> Vec<u32> {
        prepared
            .words()
            .map(|w| {
                if insert {
                    let next = self.words.len() as u32;
                    *self.words.entry(w).or_insert(next)
                } else {
                    self.words.get(w).copied().unwrap_or(UNSEEN)
                }
            })
            .collect()
    }

    /// Walk `symbols` from `root`, calling `seen(order index, id)` for every n-gram;
    /// with `insert`, unknown n-grams get ids, without, a walk stops at one.
    fn walk(
        &mut self,
        root: u32,
        symbols: &[u32],
        max_order: usize,
        first_order: usize,
        insert: bool,
        mut seen: impl FnMut(usize, u32),
    ) {
        for start in 0..symbols.len() {
            let mut node = root;
            for (k, &symbol) in symbols[start..].iter().take(max_order).enumerate() {
                if symbol == UNSEEN {
                    break;
                }
                let key = edge(node, symbol);
                node = match self.children.get(&key) {
                    Some(&id) => id,
                    None if insert => {
                        let id = self.orders.len() as u32;
                        self.orders.push((first_order + k) as u32);
                        self.children.insert(key, id);
                        id
                    }
                    None => break,
                };
                seen(first_order + k, node);
            }
        }
    }
}

impl ChrfPairwise {
    /// Prepare and count `hyps` and `refs` once each.
    pub fn new(config: ChrfConfig, hyps: &[&str], refs: &[&str], exec: Exec) -> Self {
        let orders = config.orders();
        let ref_prep = prepare_all(&config, refs, exec);
        let hyp_prep = prepare_all(&config, hyps, exec);
        let mut trie = GlobalTrie::default();
        let mut per_order: Vec<FxHashMap<u32, u32>> = vec![FxHashMap::default(); orders];
        let mut ref_lists = Lists::default();
        for prepared in &ref_prep {
            let ids = trie.word_ids(prepared, true);
            let (chars, c) = (&prepared.chars, config.char_order);
            trie.walk(ROOT_CHAR, chars, c, 0, true, |k, id| {
                *per_order[k].entry(id).or_insert(0) += 1;
            });
            trie.walk(ROOT_WORD, &ids, config.word_order, c, true, |k, id| {
                *per_order[k].entry(id).or_insert(0) += 1;
            });
            for counts in per_order.iter_mut() {
                ref_lists.push(counts.iter().map(|(&k, &v)| (k, v)));
                counts.clear();
            }
        }
        let mut hyp_lists = Lists::default();
        let mut counts: FxHashMap<u32, u32> = FxHashMap::default();
        for prepared in &hyp_prep {
            let ids = trie.word_ids(prepared, false);
            let c = config.char_order;
            trie.walk(ROOT_CHAR, &prepared.chars, c, 0, false, |_, id| {
                *counts.entry(id).or_insert(0) += 1;
            });
            trie.walk(ROOT_WORD, &ids, config.word_order, c, false, |_, id| {
                *counts.entry(id).or_insert(0) += 1;
            });
            hyp_lists.push(counts.iter().map(|(&k, &v)| (k, v)));
            counts.clear();
        }
        let lens = |p: &Vec<Prepared>| p.iter().map(|p| (p.chars.len(), p.n_words)).collect();
        ChrfPairwise {
            config,
            hyp_lens: lens(&hyp_prep),
            ref_lens: lens(&ref_prep),
            hyps: hyp_lists,
            refs: ref_lists,
            n_grams: trie.orders.len(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> ChrfConfig {
        self.config
    }
}

impl PairTable for ChrfPairwise {
    /// Number of hypotheses.
    fn n_hyps(&self) -> usize {
        self.hyp_lens.len()
    }

    /// Number of references.
    fn n_refs(&self) -> usize {
        self.ref_lens.len()
    }

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
    ) -> Result<(), CoreError> {
        let config = self.config;
        let width = config.row_width();
        let orders = config.orders();
        let n_refs = self.n_refs();
        let items: Vec<usize> = (first..first + count).collect();
        parallel::fill_rows(
            exec,
            &items,
            out,
            n_refs * width,
            Grain::Fine,
            || vec![0u32; self.n_grams],
            |dense, &h, rows| {
                let hyp = self.hyps.get(h);
                for &(id, c) in hyp {
                    dense[id as usize] = c;
                }
                for (r, row) in rows.chunks_mut(width).enumerate() {
                    write_totals(&config, self.hyp_lens[h], self.ref_lens[r], row);
                    for k in 0..orders {
                        let matches: u32 = self
                            .refs
                            .get(r * orders + k)
                            .iter()
                            .map(|&(id, c)| c.min(dense[id as usize]))
                            .sum();
                        row[3 * k + 2] = i64::from(matches);
                    }
                }
                for &(id, _) in hyp {
                    dense[id as usize] = 0;
                }
            },
        );
        Ok(())
    }

    fn row_width(&self) -> usize {
        self.config.row_width()
    }

    /// `[hyp, ref, matches]` per order against the references aggregated, every column
    /// times the number of references; an order no reference has counts no hypothesis
    /// n-gram (as [`write_totals`] does for one reference).
    fn aggregate_rows_into(&self, out: &mut [i64], exec: Exec) -> bool {
        let config = self.config;
        let (width, orders) = (config.row_width(), config.orders());
        let n_refs = self.n_refs() as i64;
        assert_eq!(out.len(), self.n_hyps() * width, "one row per hypothesis");
        let summed = self.refs.summed(orders);
        let mut ref_totals = vec![0i64; orders];
        for &lens in &self.ref_lens {
            for (total, (n, len)) in ref_totals.iter_mut().zip(order_lengths(&config, lens)) {
                *total += grams(len, n);
            }
        }
        let items: Vec<usize> = (0..self.n_hyps()).collect();
        let fill = |dense: &mut Vec<u32>, &h: &usize, row: &mut [i64]| {
            let hyp = self.hyps.get(h);
            for &(id, c) in hyp {
                dense[id as usize] = c;
            }
            let hyp_orders = order_lengths(&config, self.hyp_lens[h]);
            for (k, (n, len)) in hyp_orders.enumerate() {
                let ref_total = ref_totals[k];
                row[3 * k] = if ref_total > 0 {
                    n_refs * grams(len, n)
                } else {
                    0
                };
                row[3 * k + 1] = ref_total;
                row[3 * k + 2] = aggregate_matches(summed.get(k), dense, n_refs);
            }
            for &(id, _) in hyp {
                dense[id as usize] = 0;
            }
        };
        let dense = || vec![0u32; self.n_grams];
        parallel::fill_rows(exec, &items, out, width, Grain::Fine, dense, fill);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;
    use std::collections::HashMap;

    fn cfg(c: usize, w: usize) -> ChrfConfig {
        ChrfConfig::new(c, w, false, false).unwrap()
    }

    fn row(config: ChrfConfig, hyp: &str, reference: &str) -> Vec<i64> {
        let mut m = Matcher::default();
        let mut out = vec![0; config.row_width()];
        m.load(&config, &config.prepare(reference));
        m.row(&config, &config.prepare(hyp), &mut out);
        out
    }

    #[test]
    fn punctuation_split_as_sacrebleu() {
        let parts = |w| split_punctuation(w).collect::<Vec<_>>();
        assert_eq!(parts("hello,"), ["hello", ","]);
        assert_eq!(parts("(hi)"), ["(hi", ")"]);
        assert_eq!(parts("(hi"), ["(", "hi"]);
        assert_eq!(parts("."), ["."]);
        assert_eq!(parts(".."), [".", "."]);
        assert_eq!(parts("é!"), ["é", "!"]);
        assert_eq!(parts("«a»"), ["«a»"]);
    }

    #[test]
    fn counts_clip_and_skip_orders_without_reference_grams() {
        // chars: hyp "aab" vs ref "ab": unigrams a:2/1 b:1/1 -> 2 matches.
        assert_eq!(row(cfg(3, 0), "aab", "ab"), [3, 2, 2, 2, 1, 1, 0, 0, 0]);
        // Whitespace is removed before counting characters.
        assert_eq!(row(cfg(1, 0), "a b", " ab "), [2, 2, 2]);
        let spaced = ChrfConfig::new(2, 0, false, true).unwrap();
        assert_eq!(row(spaced, "a b", "a b"), [3, 3, 3, 2, 2, 2]);
        // Word orders follow the character orders.
        assert_eq!(row(cfg(1, 2), "a b.", "b a."), [3, 3, 3, 3, 3, 3, 2, 2, 0]);
    }

    /// Each order's n-grams of `line` as strings in a hash map: the obviously right count.
    fn naive_grams(config: &ChrfConfig, line: &str) -> Vec<HashMap<String, i64>> {
        fn counter(items: &[String], n: usize) -> HashMap<String, i64> {
            let mut m = HashMap::new();
            for w in items.windows(n) {
                *m.entry(w.join("\u{1}")).or_insert(0) += 1;
            }
            m
        }
        let s = if config.lowercase {
            line.to_lowercase()
        } else {
            line.to_string()
        };
        let chars: Vec<String> = s
            .chars()
            .filter(|c| config.whitespace || !c.is_whitespace())
            .map(String::from)
            .collect();
        let words: Vec<String> = s
            .split_whitespace()
            .flat_map(|w| split_punctuation(w).map(String::from).collect::<Vec<_>>())
            .collect();
        let chars = (1..=config.char_order).map(|n| counter(&chars, n));
        chars
            .chain((1..=config.word_order).map(|n| counter(&words, n)))
            .collect()
    }

    /// The row of `hyp` against the bags `refs` (summed over `n_refs` references), every
    /// hypothesis count times `scale`.
    fn naive_row(
        hyp: &[HashMap<String, i64>],
        refs: &[HashMap<String, i64>],
        scale: i64,
    ) -> Vec<i64> {
        let mut out = vec![];
        for (hm, rm) in hyp.iter().zip(refs) {
            let hyp_count: i64 = hm.values().sum();
            let matches: i64 = hm
                .iter()
                .map(|(g, c)| (scale * c).min(*rm.get(g).unwrap_or(&0)))
                .sum();
            out.extend([
                if rm.is_empty() { 0 } else { scale * hyp_count },
                rm.values().sum(),
                matches,
            ]);
        }
        out
    }

    fn naive(config: &ChrfConfig, hyp: &str, reference: &str) -> Vec<i64> {
        naive_row(
            &naive_grams(config, hyp),
            &naive_grams(config, reference),
            1,
        )
    }

    #[test]
    fn aggregate_rows_count_against_the_summed_references() {
        let mut rng = Rng(11);
        for config in [cfg(6, 0), cfg(6, 2), cfg(2, 3)] {
            let hyps: Vec<String> = (0..25).map(|_| rng.line(8)).collect();
            let mut refs: Vec<String> = (0..7).map(|_| rng.line(8)).collect();
            refs.push(String::new());
            let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
            let r: Vec<&str> = refs.iter().map(String::as_str).collect();
            let width = config.row_width();
            let mut rows = vec![0; h.len() * width];
            let pairs = ChrfPairwise::new(config, &h, &r, Exec::Serial);
            assert!(pairs.aggregate_rows_into(&mut rows, Exec::Serial));
            let mut summed = vec![HashMap::new(); config.orders()];
            for reference in &refs {
                for (sum, bag) in summed.iter_mut().zip(naive_grams(&config, reference)) {
                    for (g, c) in bag {
                        *sum.entry(g).or_insert(0) += c;
                    }
                }
            }
            for (hyp, row) in hyps.iter().zip(rows.chunks(width)) {
                let expected = naive_row(&naive_grams(&config, hyp), &summed, refs.len() as i64);
                assert_eq!(row, &expected[..], "{hyp:?}");
            }
        }
    }

    #[test]
    fn fast_rows_equal_naive_rows_in_every_path() {
        let mut rng = Rng(7);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for config in [
            cfg(6, 0),
            cfg(6, 2),
            cfg(2, 3),
            ChrfConfig::new(4, 1, true, true).unwrap(),
        ] {
            let n = 300;
            let hyps: Vec<String> = (0..n).map(|_| rng.line(10)).collect();
            let refs: Vec<String> = (0..n).map(|_| rng.line(10)).collect();
            let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
            let r: Vec<&str> = refs.iter().map(String::as_str).collect();
            let width = config.row_width();
            let streams = vec![r.iter().map(|s| Some(*s)).collect::<Vec<_>>()];
            let (serial, counts) =
                ChrfReferences::sentence_stats(config, &h, &streams, Exec::Serial).unwrap();
            let (parallel, _) = pool.install(|| {
                ChrfReferences::sentence_stats(config, &h, &streams, Exec::Parallel).unwrap()
            });
            assert_eq!(serial, parallel);
            assert!(counts.iter().all(|&c| c == 1));
            let pairs = ChrfPairwise::new(config, &h[..20], &r[..30], Exec::Serial);
            let mut matrix = vec![0; 20 * 30 * width];
            pairs.rows_into(0, 20, &mut matrix, Exec::Serial).unwrap();
            for i in 0..n {
                let expected = naive(&config, &hyps[i], &refs[i]);
                assert_eq!(
                    &serial[i * width..(i + 1) * width],
                    &expected[..],
                    "segment {i}"
                );
            }
            let cells = hyps[..20]
                .iter()
                .flat_map(|h| refs[..30].iter().map(move |r| (h, r)));
            for ((h, r), cell) in cells.zip(matrix.chunks(width)) {
                assert_eq!(cell, &naive(&config, h, r)[..]);
            }
        }
    }

    #[test]
    fn several_references_give_a_row_each_and_none_is_skipped() {
        let config = cfg(2, 0);
        let streams = vec![vec![Some("ab"), Some("x")], vec![None, Some("xy")]];
        let (rows, counts) =
            ChrfReferences::sentence_stats(config, &["ab", "xy"], &streams, Exec::Serial).unwrap();
        assert_eq!(counts, [1, 2]);
        assert_eq!(rows.len(), 3 * 6);
        assert_eq!(&rows[12..], &[2, 2, 2, 1, 1, 1]);
        let all_none = vec![vec![None::<&str>]];
        assert!(ChrfReferences::sentence_stats(config, &["a"], &all_none, Exec::Serial).is_err());
    }

    #[test]
    fn orders_are_bounded() {
        assert!(ChrfConfig::new(MAX_ORDER + 1, 0, false, false).is_err());
        assert!(ChrfConfig::new(0, 0, false, false).is_err());
        assert!(ChrfConfig::new(0, 2, false, false).is_ok());
    }
}
