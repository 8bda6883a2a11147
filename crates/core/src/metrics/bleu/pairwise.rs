//! Statistics of every hypothesis against every reference, each pair scored as if
//! that reference were the hypothesis's only one (minimum-Bayes-risk decoding,
//! similarity matrices).
//!
//! Each sentence is tokenized and counted once, not once per pair. The references'
//! n-grams get global ids (a trie over word ids, as in [`crate::metrics::bleu::segment`]); each
//! reference becomes a list of `(n-gram id, count)` grouped by order and each
//! hypothesis a list of its n-grams that occur in some reference. A pair then costs
//! one pass over the reference's list with the hypothesis's counts spread in a dense
//! array: no hashing and no allocation per pair.

use rustc_hash::FxHashMap;

use crate::error::CoreError;
use crate::family::PairTable;
use crate::metrics::bleu::config::BleuConfig;
use crate::parallel::{self, Exec, Grain};
use crate::text::tok13a::Scratch;
use crate::text::words::tokens;

const ROOT: u32 = u32::MAX;

fn edge(parent: u32, word: u32) -> u64 {
    (u64::from(parent) << 32) | u64::from(word)
}

/// `(n-gram id, count)` lists, back to back (BLEU's and chrF's all-pairs tables).
#[derive(Debug)]
pub(crate) struct Lists {
    pub(crate) entries: Vec<(u32, u32)>,
    /// `bounds[i]..bounds[i + 1]` is list i.
    pub(crate) bounds: Vec<usize>,
}

impl Default for Lists {
    fn default() -> Self {
        Lists {
            entries: Vec::new(),
            bounds: vec![0],
        }
    }
}

impl Lists {
    /// List `i`.
    pub(crate) fn get(&self, i: usize) -> &[(u32, u32)] {
        &self.entries[self.bounds[i]..self.bounds[i + 1]]
    }

    /// Append a list of the entries of `counts` (in any order).
    pub(crate) fn push(&mut self, counts: impl IntoIterator<Item = (u32, u32)>) {
        self.entries.extend(counts);
        self.bounds.push(self.entries.len());
    }

    /// `per` lists, list `k` summing lists `r * per + k` of every `r` (the references'
    /// n-gram bags of one order added up, for reference aggregation).
    pub(crate) fn summed(&self, per: usize) -> Lists {
        let groups = (self.bounds.len() - 1).checked_div(per).unwrap_or(0);
        let mut sums: FxHashMap<u32, u32> = FxHashMap::default();
        let mut out = Lists::default();
        for k in 0..per {
            for r in 0..groups {
                for &(id, c) in self.get(r * per + k) {
                    *sums.entry(id).or_insert(0) += c;
                }
            }
            out.push(sums.drain());
        }
        out
    }
}

/// Matches of a hypothesis (counts spread in `dense`) against a summed bag of `n_refs`
/// references: each n-gram's hypothesis count, times `n_refs`, clipped by its sum.
pub(crate) fn aggregate_matches(summed: &[(u32, u32)], dense: &[u32], n_refs: i64) -> i64 {
    summed
        .iter()
        .map(|&(id, c)| i64::from(c).min(n_refs * i64::from(dense[id as usize])))
        .sum()
}

/// Hypotheses and references counted for all-pairs statistics.
#[derive(Debug)]
pub struct BleuPairwise {
    config: BleuConfig,
    hyp_lens: Vec<u32>,
    ref_lens: Vec<u32>,
    hyps: Lists,
    /// One list per (reference, order): reference r's n-grams of order n are list
    /// `r * max_order + n - 1`.
    refs: Lists,
    n_grams: usize,
}

fn preprocess_all(config: &BleuConfig, lines: &[&str], exec: Exec) -> Vec<String> {
    parallel::map(exec, lines, Scratch::default, |s, line| {
        config.preprocess_into(line, s).to_owned()
    })
}

/// The references' n-grams as a trie: word ids, the trie's edges, and each node's order.
#[derive(Default)]
struct RefTrie<'t> {
    words: FxHashMap<&'t str, u32>,
    children: FxHashMap<u64, u32>,
    orders: Vec<u32>,
}

impl<'t> RefTrie<'t> {
    /// Every reference's n-grams added to the trie: one list per (reference, order) of (node,
    /// count), ordered by node, and the references' lengths.
    fn count_references(&mut self, ref_text: &'t [String], n_max: usize) -> (Lists, Vec<u32>) {
        let mut counts: Vec<u32> = Vec::new();
        let mut touched: Vec<u32> = Vec::new();
        let mut ids: Vec<u32> = Vec::new();
        let mut lists = Lists::default();
        let mut lens = Vec::with_capacity(ref_text.len());
        for text in ref_text {
            ids.clear();
            for tok in tokens(text) {
                let next = self.words.len() as u32;
                ids.push(*self.words.entry(tok).or_insert(next));
            }
            lens.push(ids.len() as u32);
            self.count_ngrams(&ids, n_max, &mut counts, &mut touched);
            touched.sort_unstable_by_key(|&node| (self.orders[node as usize], node));
            let mut order_iter = touched.iter().peekable();
            for n in 1..=n_max as u32 {
                while let Some(&&node) = order_iter.peek() {
                    if self.orders[node as usize] != n {
                        break;
                    }
                    lists.entries.push((node, counts[node as usize]));
                    counts[node as usize] = 0;
                    order_iter.next();
                }
                lists.bounds.push(lists.entries.len());
            }
            touched.clear();
        }
        (lists, lens)
    }

    /// One reference's n-grams (word ids `ids`) counted in `counts`, by trie node; each node
    /// counted for the first time is noted in `touched`.
    fn count_ngrams(
        &mut self,
        ids: &[u32],
        n_max: usize,
        counts: &mut Vec<u32>,
        touched: &mut Vec<u32>,
    ) {
        for start in 0..ids.len() {
            let mut node = ROOT;
            for (n, &word) in ids[start..].iter().take(n_max).enumerate() {
                let orders = &mut self.orders;
                node = *self.children.entry(edge(node, word)).or_insert_with(|| {
                    orders.push(n as u32 + 1);
                    orders.len() as u32 - 1
                });
                if counts.len() <= node as usize {
                    counts.resize(self.orders.len(), 0);
                }
                if counts[node as usize] == 0 {
                    touched.push(node);
                }
                counts[node as usize] += 1;
            }
        }
    }

    /// A hypothesis' length in words and the (node, count) list, ordered by node, of its
    /// n-grams that some reference has (`found`: a buffer).
    fn count_hypothesis(
        &self,
        text: &str,
        n_max: usize,
        found: &mut Vec<u32>,
    ) -> (u32, Vec<(u32, u32)>) {
        let ids: Vec<Option<u32>> = tokens(text).map(|t| self.words.get(t).copied()).collect();
        found.clear();
        for start in 0..ids.len() {
            let mut node = ROOT;
            for word in ids[start..].iter().take(n_max) {
                let Some(word) = word else { break };
                match self.children.get(&edge(node, *word)) {
                    Some(&child) => node = child,
                    None => break,
                }
                found.push(node);
            }
        }
        found.sort_unstable();
        let mut list: Vec<(u32, u32)> = Vec::new();
        for &node in found.iter() {
            match list.last_mut() {
                Some((last, count)) if *last == node => *count += 1,
                _ => list.push((node, 1)),
            }
        }
        (ids.len() as u32, list)
    }
}

impl BleuPairwise {
    /// Tokenize and count `hyps` and `refs` once each.
    pub fn new(config: BleuConfig, hyps: &[&str], refs: &[&str], exec: Exec) -> Self {
        let n_max = config.max_order;
        let ref_text = preprocess_all(&config, refs, exec);
        let mut trie = RefTrie::default();
        let (ref_lists, ref_lens) = trie.count_references(&ref_text, n_max);
        let hyp_text = preprocess_all(&config, hyps, exec);
        let trie = &trie;
        let counted = parallel::map(exec, &hyp_text, Vec::new, |found: &mut Vec<u32>, text| {
            trie.count_hypothesis(text, n_max, found)
        });
        let mut hyp_lists = Lists::default();
        let mut hyp_lens = Vec::with_capacity(hyps.len());
        for (len, list) in counted {
            hyp_lens.push(len);
            hyp_lists.entries.extend(list);
            hyp_lists.bounds.push(hyp_lists.entries.len());
        }
        BleuPairwise {
            config,
            hyp_lens,
            ref_lens,
            hyps: hyp_lists,
            refs: ref_lists,
            n_grams: trie.orders.len(),
        }
    }

    /// The configuration the sentences were counted with.
    pub fn config(&self) -> BleuConfig {
        self.config
    }
}

impl PairTable for BleuPairwise {
    /// Number of hypotheses.
    fn n_hyps(&self) -> usize {
        self.hyp_lens.len()
    }

    /// Number of references.
    fn n_refs(&self) -> usize {
        self.ref_lens.len()
    }

    /// The rows of hypotheses `first..first + count` against every reference, into
    /// `out`: row `(h - first) * n_refs + r` is hypothesis h against reference r.
    ///
    /// # Panics
    /// If the hypotheses do not exist or `out` is not `count * n_refs` rows long.
    fn rows_into(
        &self,
        first: usize,
        count: usize,
        out: &mut [i64],
        exec: Exec,
    ) -> Result<(), CoreError> {
        let n_max = self.config.max_order;
        let width = self.config.row_width();
        let n_refs = self.n_refs();
        if n_refs == 0 {
            return Ok(());
        }
        let hyp_ids: Vec<usize> = (first..first + count).collect();
        parallel::fill_rows(
            exec,
            &hyp_ids,
            out,
            n_refs * width,
            Grain::Fine,
            || vec![0u32; self.n_grams],
            |dense, &h, rows| {
                let hyp = self.hyps.get(h);
                for &(node, c) in hyp {
                    dense[node as usize] = c;
                }
                let len = self.hyp_lens[h] as usize;
                for (r, row) in rows.chunks_mut(width).enumerate() {
                    row[0] = len as i64;
                    row[1] = i64::from(self.ref_lens[r]);
                    for n in 1..=n_max {
                        let list = self.refs.get(r * n_max + n - 1);
                        let matches: u32 = list
                            .iter()
                            .map(|&(node, c)| dense[node as usize].min(c))
                            .sum();
                        row[1 + n] = i64::from(matches);
                        row[1 + n_max + n] = (len + 1).saturating_sub(n) as i64;
                    }
                }
                for &(node, _) in hyp {
                    dense[node as usize] = 0;
                }
            },
        );
        Ok(())
    }

    fn row_width(&self) -> usize {
        self.config.row_width()
    }

    /// `[len, ref_len, matches.., totals..]` against the references aggregated, every
    /// column times the number of references.
    fn aggregate_rows_into(&self, out: &mut [i64], exec: Exec) -> bool {
        let n_max = self.config.max_order;
        let width = self.config.row_width();
        let n_refs = self.n_refs() as i64;
        assert_eq!(out.len(), self.n_hyps() * width, "one row per hypothesis");
        let summed = self.refs.summed(n_max);
        let ref_len: i64 = self.ref_lens.iter().map(|&l| i64::from(l)).sum();
        let items: Vec<usize> = (0..self.n_hyps()).collect();
        let fill = |dense: &mut Vec<u32>, &h: &usize, row: &mut [i64]| {
            let hyp = self.hyps.get(h);
            for &(node, c) in hyp {
                dense[node as usize] = c;
            }
            let len = self.hyp_lens[h] as usize;
            row[0] = n_refs * len as i64;
            row[1] = ref_len;
            for n in 1..=n_max {
                row[1 + n] = aggregate_matches(summed.get(n - 1), dense, n_refs);
                row[1 + n_max + n] = n_refs * (len + 1).saturating_sub(n) as i64;
            }
            for &(node, _) in hyp {
                dense[node as usize] = 0;
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
    use crate::metrics::bleu::stats::BleuReferences;
    use crate::testing::Rng;
    use crate::text::tokenize::Tokenizer;

    /// Aggregated rows against the pair rows: lengths and totals are the pairs' times the
    /// number of references; matches at least the sum of the pairs' (min(R h, sum c) is at
    /// least the sum of min(h, c)) and at most the hypothesis's n-grams times R.
    fn check_aggregate(
        pairs: &[i64],
        aggregated: &[i64],
        refs: &[&str],
        width: usize,
        n_max: usize,
    ) {
        let n_refs = refs.len();
        for (h, row) in aggregated.chunks(width).enumerate() {
            let cells: Vec<&[i64]> = pairs[h * n_refs * width..][..n_refs * width]
                .chunks(width)
                .collect();
            let r = n_refs as i64;
            assert_eq!(row[0], r * cells[0][0]);
            assert_eq!(row[1], cells.iter().map(|c| c[1]).sum::<i64>());
            for n in 1..=n_max {
                assert_eq!(row[1 + n_max + n], r * cells[0][1 + n_max + n]);
                let sum: i64 = cells.iter().map(|c| c[1 + n]).sum();
                let most = r * cells[0][1 + n_max + n];
                assert!(sum <= row[1 + n] && row[1 + n] <= most, "hyp {h} order {n}");
            }
        }
    }

    #[test]
    fn aggregate_rows_clip_by_the_summed_counts() {
        // hyp a:2 b:1 | ab:1 aa:1; refs "a b" and "a a a" sum to a:4 b:1 | ab:1 aa:2.
        let cfg = BleuConfig::new(Tokenizer::None, false, 2).unwrap();
        let pw = BleuPairwise::new(cfg, &["a a b"], &["a b", "a a a"], Exec::Serial);
        let mut row = vec![0i64; cfg.row_width()];
        assert!(pw.aggregate_rows_into(&mut row, Exec::Serial));
        // [2 * 3 words, 2 + 3, min(4, 4) + min(2, 1), min(2, 1) + min(2, 2), 2 * 3, 2 * 2]
        assert_eq!(row, [6, 5, 5, 3, 6, 4]);
    }

    #[test]
    fn every_cell_equals_single_reference_statistics() {
        let mut rng = Rng(7);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        for max_order in [1, 4, 5] {
            let cfg = BleuConfig::new(Tokenizer::Tok13a, max_order == 5, max_order).unwrap();
            let hyps: Vec<String> = (0..40).map(|_| rng.line(10)).collect();
            let refs: Vec<String> = (0..30).map(|_| rng.line(10)).collect();
            let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
            let r: Vec<&str> = refs.iter().map(String::as_str).collect();
            let width = cfg.row_width();
            let pw = BleuPairwise::new(cfg, &h, &r, Exec::Serial);
            let mut serial = vec![0i64; h.len() * r.len() * width];
            pw.rows_into(0, h.len(), &mut serial, Exec::Serial).unwrap();
            let mut parallel = vec![0i64; 10 * r.len() * width];
            pool.install(|| {
                BleuPairwise::new(cfg, &h, &r, Exec::Parallel).rows_into(
                    5,
                    10,
                    &mut parallel,
                    Exec::Parallel,
                )
            })
            .unwrap();
            assert_eq!(
                &serial[5 * r.len() * width..15 * r.len() * width],
                &parallel[..]
            );
            let mut aggregated = vec![0i64; h.len() * width];
            assert!(pw.aggregate_rows_into(&mut aggregated, Exec::Serial));
            check_aggregate(&serial, &aggregated, &r, width, max_order);
            for (j, reference) in r.iter().enumerate() {
                let single =
                    BleuReferences::new(cfg, &[vec![Some(*reference); h.len()]], Exec::Serial)
                        .unwrap()
                        .stats(&h, Exec::Serial)
                        .unwrap();
                for i in 0..h.len() {
                    let cell = &serial[(i * r.len() + j) * width..][..width];
                    assert_eq!(cell, &single[i * width..][..width], "hyp {i} ref {j}");
                }
            }
        }
    }
}
