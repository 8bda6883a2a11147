//! The n-grams each hypothesis shares with each of its references, one order at a time and
//! in the order the hypothesis first has them, with the reference corpus's n-gram counts:
//! what NLTK's `corpus_nist` sums. NLTK adds each shared n-gram's information as a float in
//! that order, so a sum over counts that forgets the order is not its number to the last bit;
//! these lists keep it, and the arithmetic stays in Python (`understudy.nltk.nist_score`).
//!
//! Segments are lines of space-separated words (understudy's token input writes each token
//! as one), scored as given: no tokenizer, no case folding.

use rustc_hash::FxHashMap;

use crate::analysis::{checkpoint, ngrams, Interner, Stop};
use crate::error::CoreError;
use crate::family::refset::check_parallel;

/// The reference corpus's n-grams and each segment's shared n-grams.
///
/// Every n-gram of orders `1..=max_order` that some reference has gets an id (in the order
/// the references first have them): `freq[id]` is its count over every reference of the
/// corpus and `prefix[id]` the count of its first `n - 1` words (for a word, the number of
/// reference words). `entries` are `[id, min(count in the hypothesis, count in the
/// reference)]`, in groups: segment by segment, order 1 to `max_order`, each present
/// reference in stream order. Group `g` is `entries[bounds[g]..bounds[g + 1]]`, its n-grams
/// in the order the hypothesis first has them.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Overlaps {
    pub freq: Vec<i64>,
    pub prefix: Vec<i64>,
    pub entries: Vec<[i64; 2]>,
    pub bounds: Vec<i64>,
}

/// The corpus table: n-gram (word ids) to its id, and each id's count.
#[derive(Default)]
struct Table {
    ids: FxHashMap<Box<[u32]>, u32>,
    freq: Vec<i64>,
}

impl Table {
    fn count(&mut self, gram: &[u32]) {
        let id = match self.ids.get(gram) {
            Some(&id) => id,
            None => {
                let id = u32::try_from(self.freq.len()).expect("fewer than 2^32 distinct n-grams");
                self.ids.insert(gram.into(), id);
                self.freq.push(0);
                id
            }
        };
        self.freq[id as usize] += 1;
    }

    /// Each id's prefix count; `words` for a word.
    fn prefixes(&self, words: i64) -> Vec<i64> {
        let mut prefix = vec![0; self.freq.len()];
        for (gram, &id) in &self.ids {
            prefix[id as usize] = match gram.len() {
                1 => words,
                // A reference that has an n-gram has its first n - 1 words too.
                n => self.freq[self.ids[&gram[..n - 1]] as usize],
            };
        }
        prefix
    }
}

/// [`Overlaps`] of `hyps` against reference `streams` (`streams[k][i]`: the k-th reference of
/// segment i, `None` where it has none; a segment with none has no groups).
pub fn ordered_overlaps<'a, S: AsRef<[Option<&'a str>]>>(
    hyps: &[&str],
    streams: &[S],
    max_order: usize,
    stop: Stop<'_>,
) -> Result<Overlaps, CoreError> {
    let n = check_parallel(streams)?;
    if n != hyps.len() {
        return Err(CoreError::hyps_vs_refs(hyps.len(), n));
    }
    let mut interner = Interner::default();
    let mut table = Table::default();
    let mut words: i64 = 0;
    let mut ids = Vec::new();
    for i in 0..n {
        checkpoint(i, stop)?;
        for reference in streams.iter().filter_map(|s| s.as_ref()[i]) {
            interner.ids_into(reference, &mut ids);
            words += ids.len() as i64;
            ngrams(&ids, max_order).for_each(|gram| table.count(gram));
        }
    }
    let mut out = Overlaps {
        prefix: table.prefixes(words),
        bounds: vec![0],
        ..Overlaps::default()
    };
    let mut hyp_ids = Vec::new();
    let mut ref_ids: Vec<Vec<u32>> = Vec::new();
    for (i, hyp) in hyps.iter().enumerate() {
        checkpoint(i, stop)?;
        interner.ids_into(hyp, &mut hyp_ids);
        ref_ids.clear();
        for reference in streams.iter().filter_map(|s| s.as_ref()[i]) {
            let mut ids = Vec::new();
            interner.ids_into(reference, &mut ids);
            ref_ids.push(ids);
        }
        for order in 1..=max_order {
            let shared = in_first_order(&table, &hyp_ids, order);
            for reference in &ref_ids {
                let mut counts: FxHashMap<u32, i64> = FxHashMap::default();
                for gram in reference.windows(order) {
                    *counts.entry(table.ids[gram]).or_insert(0) += 1;
                }
                for &(id, count) in &shared {
                    if let Some(&in_ref) = counts.get(&id) {
                        out.entries.push([i64::from(id), count.min(in_ref)]);
                    }
                }
                out.bounds.push(out.entries.len() as i64);
            }
        }
    }
    out.freq = table.freq;
    Ok(out)
}

/// The hypothesis's `order`-grams that some reference has, as `(id, count)` in the order the
/// hypothesis first has them.
fn in_first_order(table: &Table, words: &[u32], order: usize) -> Vec<(u32, i64)> {
    let mut slot: FxHashMap<u32, usize> = FxHashMap::default();
    let mut shared: Vec<(u32, i64)> = Vec::new();
    for gram in words.windows(order) {
        if let Some(&id) = table.ids.get(gram) {
            let k = *slot.entry(id).or_insert_with(|| {
                shared.push((id, 0));
                shared.len() - 1
            });
            shared[k].1 += 1;
        }
    }
    shared
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(hyps: &[&str], streams: &[Vec<Option<&str>>], max_order: usize) -> Overlaps {
        ordered_overlaps(hyps, streams, max_order, &mut || false).unwrap()
    }

    /// The entries of group `g` as (n-gram id, count).
    fn group(o: &Overlaps, g: usize) -> Vec<[i64; 2]> {
        o.entries[o.bounds[g] as usize..o.bounds[g + 1] as usize].to_vec()
    }

    #[test]
    fn counts_and_prefixes_come_from_every_reference() {
        // Ids in the order the references first have them: a b c (words), a b, b c, b b.
        let o = run(&["c"], &[vec![Some("a b c")], vec![Some("b b")]], 2);
        assert_eq!(o.freq, [1, 3, 1, 1, 1, 1]);
        // Five reference words; "a b" after one "a", "b c" and "b b" after three "b".
        assert_eq!(o.prefix, [5, 5, 5, 1, 3, 3]);
    }

    #[test]
    fn shared_ngrams_keep_the_hypothesis_order_and_are_clipped_per_reference() {
        let o = run(
            &["z b a b b"],
            &[vec![Some("a b")], vec![Some("b b b a")]],
            2,
        );
        // Two references, two orders: four groups.
        assert_eq!(o.bounds.len(), 5);
        let (a, b) = (0, 1);
        assert_eq!(group(&o, 0), [[b, 1], [a, 1]]); // words, first reference: b before a
        assert_eq!(group(&o, 1), [[b, 3], [a, 1]]); // words, second: b three times
        let ab = 2;
        let (bb, ba) = (3, 4);
        assert_eq!(group(&o, 2), [[ab, 1]]);
        assert_eq!(group(&o, 3), [[ba, 1], [bb, 1]]); // "b a" comes before "b b" here
    }

    #[test]
    fn a_segment_without_references_has_no_groups_and_short_ones_have_empty_groups() {
        let o = run(&["a", "a b"], &[vec![None, Some("a b")]], 3);
        assert_eq!(o.bounds, [0, 2, 3, 3]);
        let bad = ordered_overlaps(&["a"], &[vec![Some("a"), Some("b")]], 2, &mut || false);
        assert!(matches!(bad, Err(CoreError::LengthMismatch { .. })));
    }
}
