//! A row of the segment-level costs (`C_k(j)` for every hypothesis position `j`), kept in
//! two bits a position: beyond `j = 1` two neighbours differ by at most one (an edit-distance
//! row's property, kept by the minimum over references), so a row of 60,000 positions takes
//! 15 KB instead of 240. The first two values are kept whole: mweralign's cost of a segment
//! ending before the first word breaks the property there.

pub(crate) struct PackedRow {
    head: [i32; 2],
    len: usize,
    bits: Vec<u64>,
}

impl PackedRow {
    pub(crate) fn pack(row: &[i32]) -> Self {
        let mut bits = vec![0u64; row.len().saturating_sub(2).div_ceil(32)];
        for j in 2..row.len() {
            let code = match row[j] - row[j - 1] {
                0 => 0u64,
                1 => 1,
                -1 => 2,
                other => unreachable!("neighbours differ by {other} at {j}"),
            };
            bits[(j - 2) / 32] |= code << (2 * ((j - 2) % 32));
        }
        let head = [row[0], row.get(1).copied().unwrap_or(0)];
        PackedRow {
            head,
            len: row.len(),
            bits,
        }
    }

    pub(crate) fn unpack(&self, out: &mut Vec<i32>) {
        out.clear();
        out.extend_from_slice(&self.head[..self.len.min(2)]);
        let mut value = self.head[1];
        for j in 2..self.len {
            value += match (self.bits[(j - 2) / 32] >> (2 * ((j - 2) % 32))) & 3 {
                0 => 0,
                1 => 1,
                _ => -1,
            };
            out.push(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_back_as_they_went() {
        for row in [
            vec![5],
            vec![9, 2],
            vec![9, 2, 3, 3, 2, 1, 2],
            (0..100)
                .scan(40, |v, j| {
                    *v += [0, 1, -1][(j * 7) % 3];
                    Some(*v)
                })
                .collect::<Vec<i32>>(),
        ] {
            let mut out = Vec::new();
            PackedRow::pack(&row).unpack(&mut out);
            assert_eq!(out, row);
        }
    }
}
