//! NIST (Doddington 2002) as mteval-v13a.pl scores it: a row per segment,
//! `[hypothesis n-grams of orders 1..5, information of the matched n-grams of orders 1..5 (fixed
//! point), reference length in units of 1/LENGTH_SCALE over the segment's number of references]`.
//!
//! An n-gram's information weight comes from the whole reference corpus (every reference of
//! every segment): `-log2(count(w1..wn) / count(w1..wn-1))`, and for a word
//! `-log2(count(w) / reference words)`. The references must therefore all be added before a
//! row is counted: the store recomputes the weights whenever references are added, and rows
//! counted before that are not comparable with rows counted after (Python refuses to sum parts).
//! A matched n-gram counts as often as the hypothesis has it, clipped by the most any one
//! reference of the segment has it (mteval's `score_segment`).
//!
//! Text is tokenized as mteval-v13a's `tokenization` does (sacrebleu's `13a` is its port), then
//! lowercased as its `tr/[A-Z]/[a-z]/` does (ASCII letters only) unless case is preserved (its
//! `-c`). Weights are kept in fixed point at 2^-26 ([`crate::family::fixed_point`]), so every sum is exact in any
//! order; mteval sums floats in Perl's hash order, which changes from run to run in the last bits.

use rustc_hash::FxHashMap;

use crate::error::CoreError;
use crate::family::fixed_point::{info_units, mean_length, MAX_REFS};
use crate::family::refset::{RefSet, ReferenceStore};
use crate::family::{Family, PairTable};
use crate::metrics::bleu::config::BleuConfig;
use crate::parallel::{self, Exec, Grain};
use crate::smallmap::SmallMap;
use crate::text::tok13a::Scratch;
use crate::text::tokenize::Tokenizer;
use crate::text::words::tokens;

/// The n-gram orders NIST sums (mteval's `NIST score using 5-grams`).
pub const ORDERS: usize = 5;
/// Columns of a row.
pub const ROW_WIDTH: usize = 2 * ORDERS + 1;

/// The parent of unigrams in the corpus trie.
const ROOT: u32 = u32::MAX;

/// What changes NIST's statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NistConfig {
    /// Keep case (mteval's `-c`); by default ASCII letters are lowercased.
    pub preserve_case: bool,
    /// Weigh a bigram after the word `0` as any other. mteval-v13a tests the bigram's first
    /// word for truth (`$mgram ? ...`), and Perl's `"0"` is false, so it weighs such a bigram
    /// against the corpus's word count instead of the count of `0`: kept by default.
    pub fix_zero: bool,
}

impl NistConfig {
    /// The tokens of `line` as mteval-v13a's default tokenization gives them.
    pub fn tokens(&self, line: &str, scratch: &mut Scratch) -> Vec<String> {
        let bleu = BleuConfig {
            tokenizer: Tokenizer::Tok13a,
            lowercase: false,
            max_order: ORDERS,
        };
        tokens(bleu.preprocess_into(line, scratch))
            .map(|t| {
                if self.preserve_case {
                    t.to_string()
                } else {
                    t.to_ascii_lowercase()
                }
            })
            .collect()
    }
}

/// The reference corpus's n-grams: a trie of word ids, each node's count and weight.
#[derive(Default)]
struct Corpus {
    vocabulary: FxHashMap<Box<str>, u32>,
    nodes: FxHashMap<(u32, u32), u32>,
    parents: Vec<u32>,
    /// Each node's last word.
    last: Vec<u32>,
    counts: Vec<u64>,
    words: u64,
    /// Each node's information weight in units of 2^-INFO_BITS ([`info_units`]).
    weights: Vec<i64>,
}

impl Corpus {
    /// Count a reference's n-grams; its words as ids.
    fn add(&mut self, words: Vec<String>) -> Box<[u32]> {
        let ids: Vec<u32> = words
            .into_iter()
            .map(|w| {
                let next = self.vocabulary.len() as u32;
                *self.vocabulary.entry(w.into_boxed_str()).or_insert(next)
            })
            .collect();
        self.words += ids.len() as u64;
        for start in 0..ids.len() {
            let mut node = ROOT;
            for &word in &ids[start..ids.len().min(start + ORDERS)] {
                let next = self.counts.len() as u32;
                let child = *self.nodes.entry((node, word)).or_insert(next);
                if child == next {
                    self.counts.push(0);
                    self.parents.push(node);
                    self.last.push(word);
                }
                self.counts[child as usize] += 1;
                node = child;
            }
        }
        ids.into_boxed_slice()
    }

    /// Every node's weight, as mteval computes it (`- log(a / b) / log 2`), in fixed point.
    fn weigh(&mut self, fix_zero: bool) {
        // The unigram "0", whose bigrams mteval weighs against the word count.
        let zero = match (fix_zero, self.vocabulary.get("0")) {
            (false, Some(&word)) => self.nodes.get(&(ROOT, word)).copied(),
            _ => None,
        };
        self.weights = (0..self.counts.len())
            .map(|n| {
                let parent = self.parents[n];
                let of = if parent == ROOT || Some(parent) == zero {
                    self.words
                } else {
                    self.counts[parent as usize]
                };
                let info = -(self.counts[n] as f64 / of as f64).ln() / 2f64.ln();
                info_units(info)
            })
            .collect();
    }

    fn child(&self, node: u32, word: u32) -> Option<u32> {
        self.nodes.get(&(node, word)).copied()
    }
}

/// The reference corpus and each segment's references as word ids.
pub struct NistReferences {
    config: NistConfig,
    corpus: Corpus,
    refs: RefSet<Box<[u32]>>,
}

impl ReferenceStore for NistReferences {
    fn extend<'a, S: AsRef<[Option<&'a str>]> + Sync>(
        &mut self,
        streams: &[S],
        exec: Exec,
    ) -> Result<(), CoreError> {
        let config = self.config;
        let corpus = &mut self.corpus;
        self.refs.extend(streams, MAX_REFS, |lines| {
            let tokenized =
                parallel::map(exec, lines, Scratch::default, |s, l| config.tokens(l, s));
            tokenized
                .into_iter()
                .map(|words| corpus.add(words))
                .collect()
        })?;
        self.corpus.weigh(self.config.fix_zero);
        Ok(())
    }

    fn len(&self) -> usize {
        self.refs.len()
    }

    fn refs_per_segment(&self) -> Vec<usize> {
        self.refs.refs_per_segment()
    }
}

/// Per-thread working space: the segment's clipping counts and the hypothesis's n-grams.
#[derive(Default)]
pub struct NistScratch {
    tokenizer: Scratch,
    /// Node to slot, for the references' maxima and the hypothesis's counts.
    slots: SmallMap,
    most: Vec<u32>,
    seen: Vec<u32>,
    hyp: Vec<u32>,
}

impl NistScratch {
    /// The slot of corpus node `node` (the node itself is the map's key).
    fn slot(&mut self, node: u32) -> usize {
        let next = self.most.len() as u32;
        let slot = self
            .slots
            .find_or_insert(u64::from(node), |_| true, || next);
        if slot == next {
            self.most.push(0);
            self.seen.push(0);
        }
        slot as usize
    }
}

impl NistReferences {
    /// The row of `hyp` against segment `segment`'s references.
    fn row(&self, hyp: &str, segment: usize, scratch: &mut NistScratch, out: &mut [i64]) {
        let refs = self.refs.segment(segment);
        let words = self.config.tokens(hyp, &mut scratch.tokenizer);
        let longest = refs.iter().map(|r| r.len()).max().unwrap_or(0);
        scratch.slots.reset(longest * ORDERS + words.len() * ORDERS);
        scratch.most.clear();
        scratch.seen.clear();
        for reference in refs {
            self.each_ngram(reference, scratch, |scratch, node, _| {
                let s = scratch.slot(node);
                scratch.seen[s] += 1;
            });
            for s in 0..scratch.seen.len() {
                scratch.most[s] = scratch.most[s].max(scratch.seen[s]);
                scratch.seen[s] = 0;
            }
        }
        out.fill(0);
        // Words no reference has: no n-gram through them is in the corpus.
        scratch.hyp.clear();
        scratch.hyp.extend(words.iter().map(|w| {
            self.corpus
                .vocabulary
                .get(w.as_str())
                .copied()
                .unwrap_or(ROOT)
        }));
        for order in 1..=ORDERS {
            out[order - 1] = words.len().saturating_sub(order - 1) as i64;
        }
        let hyp = std::mem::take(&mut scratch.hyp);
        self.each_ngram(&hyp, scratch, |scratch, node, order| {
            if let Some(s) = scratch.slots.find(u64::from(node), |_| true) {
                let s = s as usize;
                // Clipped: counted while the hypothesis has used fewer than the references have.
                if scratch.seen[s] < scratch.most[s] {
                    scratch.seen[s] += 1;
                    out[ORDERS + order - 1] += self.corpus.weights[node as usize];
                }
            }
        });
        scratch.hyp = hyp;
        let lengths: usize = refs.iter().map(|r| r.len()).sum();
        out[2 * ORDERS] = mean_length(lengths, refs.len());
    }

    /// `f(scratch, node, order)` for each n-gram of `ids` that the corpus has.
    fn each_ngram(
        &self,
        ids: &[u32],
        scratch: &mut NistScratch,
        mut f: impl FnMut(&mut NistScratch, u32, usize),
    ) {
        for start in 0..ids.len() {
            let mut node = ROOT;
            for (k, &word) in ids[start..ids.len().min(start + ORDERS)].iter().enumerate() {
                match self.corpus.child(node, word) {
                    Some(child) if word != ROOT => node = child,
                    _ => break,
                }
                f(scratch, node, k + 1);
            }
        }
    }
}

impl Family for NistReferences {
    type Config = NistConfig;
    type Pairs = NistPairs;

    const COST: usize = 2;

    fn empty(config: NistConfig) -> Self {
        NistReferences {
            config,
            corpus: Corpus::default(),
            refs: RefSet::default(),
        }
    }

    fn config(&self) -> NistConfig {
        self.config
    }

    fn row_width(&self) -> usize {
        ROW_WIDTH
    }

    fn stats_many_into(
        &self,
        first: usize,
        systems: &[&[&str]],
        out: &mut [i64],
        exec: Exec,
    ) -> Result<(), CoreError> {
        let n = systems.first().map_or(0, |s| s.len());
        fill_blocks(exec, out, n, systems.len(), |scratch, k, rows| {
            for (system, row) in systems.iter().zip(rows.chunks_mut(ROW_WIDTH)) {
                self.row(system[k], first + k, scratch, row);
            }
        });
        Ok(())
    }

    fn pairs(config: NistConfig, hyps: &[&str], refs: &[&str], exec: Exec) -> NistPairs {
        let one = |r: &&str| {
            let mut store = NistReferences::empty(config);
            store
                .extend(&[vec![Some(*r)]], Exec::Serial)
                .expect("one reference for one segment");
            store
        };
        NistPairs {
            hyps: hyps.iter().map(|h| h.to_string()).collect(),
            refs: parallel::map(exec, refs, || (), |_, r| one(r)),
        }
    }

    fn tokenize(config: NistConfig, lines: &[&str]) -> Option<Vec<String>> {
        let mut scratch = Scratch::default();
        Some(
            lines
                .iter()
                .map(|l| config.tokens(l, &mut scratch).join(" "))
                .collect(),
        )
    }
}

/// Every hypothesis against every reference as its only reference (and its only corpus: the
/// weights of a pair come from its one reference, as mteval's would given that one segment).
pub struct NistPairs {
    hyps: Vec<String>,
    refs: Vec<NistReferences>,
}

impl PairTable for NistPairs {
    fn n_hyps(&self) -> usize {
        self.hyps.len()
    }

    fn n_refs(&self) -> usize {
        self.refs.len()
    }

    fn row_width(&self) -> usize {
        ROW_WIDTH
    }

    fn rows_into(
        &self,
        first: usize,
        count: usize,
        out: &mut [i64],
        exec: Exec,
    ) -> Result<(), CoreError> {
        fill_blocks(exec, out, count, self.refs.len(), |scratch, k, rows| {
            for (store, row) in self.refs.iter().zip(rows.chunks_mut(ROW_WIDTH)) {
                store.row(&self.hyps[first + k], 0, scratch, row);
            }
        });
        Ok(())
    }
}

/// `fill(scratch, k, rows)` for the k-th of `n` blocks of `per_block` rows of `out`, serial or
/// parallel.
fn fill_blocks(
    exec: Exec,
    out: &mut [i64],
    n: usize,
    per_block: usize,
    fill: impl Fn(&mut NistScratch, usize, &mut [i64]) + Sync + Send,
) {
    let block = per_block * ROW_WIDTH;
    if block == 0 {
        return;
    }
    let mut work: Vec<(usize, &mut [i64])> =
        out[..n * block].chunks_mut(block).enumerate().collect();
    parallel::for_each_mut(
        exec,
        &mut work,
        Grain::Fine,
        NistScratch::default,
        |scratch, item| {
            let (k, rows) = item;
            fill(scratch, *k, rows);
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::fixed_point::{INFO_BITS, LENGTH_SCALE};

    fn rows(hyps: &[&str], streams: &[Vec<Option<&str>>]) -> Vec<i64> {
        NistReferences::sentence_stats(NistConfig::default(), hyps, streams, Exec::Serial)
            .unwrap()
            .0
    }

    fn fixed_point(info: f64) -> i64 {
        (info * f64::from(1u32 << INFO_BITS)).round() as i64
    }

    #[test]
    fn weights_come_from_the_whole_reference_corpus() {
        // References "a b" and "a c": 4 words; a twice, b and c once; "a b" once of a's two.
        let r = rows(&["a b", "x"], &[vec![Some("a b"), Some("a c")]]);
        assert_eq!(&r[..5], &[2, 1, 0, 0, 0]);
        // a: log2(4/2) = 1 bit, b: log2(4/1) = 2 bits, "a b": log2(2/1) = 1 bit.
        assert_eq!(&r[5..10], &[fixed_point(3.0), fixed_point(1.0), 0, 0, 0]);
        assert_eq!(r[10], 2 * LENGTH_SCALE);
        assert_eq!(&r[11..16], &[1, 0, 0, 0, 0]);
        assert_eq!(&r[16..21], &[0; 5]);
    }

    #[test]
    fn a_bigram_after_zero_is_weighed_as_mteval_weighs_it_unless_fixed() {
        let streams = [vec![Some("0 a 0 b c d")]];
        let hyps = ["0 a"];
        let mteval =
            NistReferences::sentence_stats(NistConfig::default(), &hyps, &streams, Exec::Serial);
        let fixed = NistConfig {
            fix_zero: true,
            ..NistConfig::default()
        };
        let fixed = NistReferences::sentence_stats(fixed, &hyps, &streams, Exec::Serial);
        // "0 a": once of six words for mteval (log2 6), once of two 0s when fixed (1 bit).
        assert_eq!(mteval.unwrap().0[6], fixed_point(6f64.log2()));
        assert_eq!(fixed.unwrap().0[6], fixed_point(1.0));
    }

    #[test]
    fn matches_are_clipped_by_the_most_any_one_reference_has() {
        // "a a a" against "a" and "a a": a is clipped at 2 (the second reference).
        let r = rows(&["a a a"], &[vec![Some("a")], vec![Some("a a")]]);
        assert_eq!(&r[..5], &[3, 2, 1, 0, 0]);
        // Every reference word is "a": no information (log2(3/3)); "a a" (log2(3/1)) is
        // clipped at once, the most either reference has it.
        assert_eq!(&r[5..7], &[0, fixed_point(3f64.log2())]);
        assert_eq!(r[10], 3 * LENGTH_SCALE / 2);
        let r = rows(&["A, b"], &[vec![Some("a , c")]]);
        // ASCII lowercase and 13a: "a , b" matches "a ," (a bigram) and its words.
        assert_eq!(&r[..3], &[3, 2, 1]);
        // "," always follows "a" in the corpus: the bigram "a ," carries no information.
        assert_eq!(&r[5..7], &[2 * fixed_point(3f64.log2()), 0]);
    }
}
