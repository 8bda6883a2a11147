//! One reference segment's edit-distance table against the whole hypothesis, a column
//! (a hypothesis word) at a time, 64 reference words to a machine word (Myers, 1999: the
//! blocked bit-vector algorithm, with the top row given rather than 0 or `j`).
//!
//! The column step is WER's ([`crate::metrics::wer::advance`]). A column is the vertical
//! differences of the table's column (`D[r+1][j] - D[r][j]`, each
//! -1, 0 or +1) as two bit vectors, `pv` (+1) and `mv` (-1). The top row is the cost of the
//! segments before ([`super`]), handed in as its horizontal differences; the bottom row,
//! the cost with this segment too, comes out. Its first column is all +1 (deleting the
//! reference's words one by one).

use crate::metrics::wer::advance;

/// The segment's words as bit masks: `mask(id)[b]` has bit `i` set where word `64 b + i` of
/// the reference segment is `id`. Shared by every segment (one table over the vocabulary,
/// filled for a segment and cleared after it), so a column's lookup is one index.
pub(crate) struct Masks {
    bits: Vec<u64>,
    blocks: usize,
    words: Vec<u32>,
}

impl Masks {
    /// An empty table for a vocabulary of `vocabulary` ids.
    pub(crate) fn new(vocabulary: usize) -> Self {
        Masks {
            bits: vec![0; vocabulary],
            blocks: 1,
            words: Vec::new(),
        }
    }

    /// The table filled for the reference segment `words` (the previous one cleared).
    pub(crate) fn load(&mut self, words: &[u32]) {
        for &id in &self.words {
            let at = id as usize * self.blocks;
            self.bits[at..at + self.blocks].fill(0);
        }
        let blocks = words.len().div_ceil(64).max(1);
        if blocks != self.blocks {
            let vocabulary = self.bits.len() / self.blocks;
            self.bits = vec![0; vocabulary * blocks];
            self.blocks = blocks;
        }
        for (i, &id) in words.iter().enumerate() {
            self.bits[id as usize * blocks + i / 64] |= 1 << (i % 64);
        }
        self.words = words.to_vec();
    }

    fn of(&self, id: u32) -> &[u64] {
        let at = id as usize * self.blocks;
        &self.bits[at..at + self.blocks]
    }
}

/// The bottom row of the loaded segment's table over `hyp`, given its top row: `first`,
/// then `top[1..]` (neighbours differing by at most one), into `bottom`; with `keep`, every
/// column `1..=hyp.len()` is appended to it (`pv` then `mv` of each block). `top[0]` is not
/// read: the caller passes `first` in its place (see [`super`] on why it may differ).
pub(crate) fn bottom_row(
    masks: &Masks,
    hyp: &[u32],
    top: &[i32],
    first: i32,
    bottom: &mut Vec<i32>,
    mut keep: Option<&mut Vec<u64>>,
) {
    let len = masks.words.len();
    bottom.clear();
    bottom.push(first + len as i32);
    if len == 0 {
        bottom.extend_from_slice(&top[1..=hyp.len()]);
        return;
    }
    let blocks = masks.blocks;
    let mut pv = vec![!0u64; blocks];
    let mut mv = vec![0u64; blocks];
    let last_high = 1u64 << ((len - 1) % 64);
    let mut value = bottom[0];
    let mut left = first;
    for (j, &word) in hyp.iter().enumerate() {
        let mut h = top[j + 1] - left;
        left = top[j + 1];
        let eq = masks.of(word);
        for b in 0..blocks {
            let high = if b + 1 == blocks { last_high } else { 1 << 63 };
            h = i32::from(advance(eq[b], &mut pv[b], &mut mv[b], h as i8, high));
        }
        value += h;
        bottom.push(value);
        if let Some(kept) = keep.as_deref_mut() {
            kept.extend_from_slice(&pv);
            kept.extend_from_slice(&mv);
        }
    }
}

/// A table's cells read back from its kept columns: `D[r][j]` for `j >= 1` is the top row's
/// value plus the vertical differences above row `r`; column 0 is `top[0] + r`.
pub(crate) struct Table<'a> {
    pub(crate) top: &'a [i32],
    pub(crate) kept: &'a [u64],
    pub(crate) blocks: usize,
}

impl Table<'_> {
    pub(crate) fn cell(&self, r: usize, j: usize) -> i32 {
        if j == 0 {
            return self.top[0] + r as i32;
        }
        if r == 0 {
            return self.top[j];
        }
        let column = &self.kept[(j - 1) * 2 * self.blocks..j * 2 * self.blocks];
        let (pv, mv) = column.split_at(self.blocks);
        let mut value = self.top[j];
        for b in 0..r.div_ceil(64) {
            let bits = r - 64 * b;
            let mask = if bits >= 64 { !0 } else { (1u64 << bits) - 1 };
            value += (pv[b] & mask).count_ones() as i32 - (mv[b] & mask).count_ones() as i32;
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    /// The table by the textbook recurrence, every cell.
    fn scalar(reference: &[u32], hyp: &[u32], top: &[i32]) -> Vec<Vec<i32>> {
        let mut d = vec![top.to_vec()];
        for (r, &word) in reference.iter().enumerate() {
            let above = &d[r];
            let mut row = vec![above[0] + 1];
            for j in 1..=hyp.len() {
                let diagonal = above[j - 1] + i32::from(word != hyp[j - 1]);
                row.push((above[j] + 1).min(row[j - 1] + 1).min(diagonal));
            }
            d.push(row);
        }
        d
    }

    fn random_top(rng: &mut Rng, len: usize) -> Vec<i32> {
        let mut top = vec![rng.below(5) as i32 + 3];
        for _ in 0..len {
            let last = *top.last().unwrap();
            top.push((last + rng.below(3) as i32 - 1).max(0));
        }
        top
    }

    #[test]
    fn every_cell_equals_the_recurrence_across_block_boundaries() {
        let mut rng = Rng(7);
        let mut masks = Masks::new(6);
        for &len in &[0usize, 1, 5, 63, 64, 65, 130] {
            for _ in 0..20 {
                let reference: Vec<u32> = (0..len).map(|_| rng.below(6) as u32).collect();
                let hyp: Vec<u32> = (0..rng.below(90)).map(|_| rng.below(6) as u32).collect();
                let top = random_top(&mut rng, hyp.len());
                masks.load(&reference);
                let (mut bottom, mut kept) = (Vec::new(), Vec::new());
                bottom_row(&masks, &hyp, &top, top[0], &mut bottom, Some(&mut kept));
                let want = scalar(&reference, &hyp, &top);
                assert_eq!(bottom, want[len]);
                let blocks = len.div_ceil(64).max(1);
                let table = Table {
                    top: &top,
                    kept: &kept,
                    blocks,
                };
                for (r, row) in want.iter().enumerate() {
                    for (j, &value) in row.iter().enumerate() {
                        assert_eq!(table.cell(r, j), value, "cell {r},{j} of {len}");
                    }
                }
            }
        }
    }
}
