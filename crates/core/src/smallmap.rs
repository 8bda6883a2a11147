//! A small open-addressing hash table for the per-segment tables of [`crate::metrics::bleu::segment`]:
//! sized once per segment, cleared in O(1) with a generation stamp, and laid out as
//! one array so a lookup touches one cache line. Lookups compare whole keys, so it is
//! exact whatever the hash.

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    tag: u64,
    value: u32,
    stamp: u32,
}

/// `u64` tags to `u32` values; a tag may be a key itself or a hash checked by `eq`.
#[derive(Debug)]
pub struct SmallMap {
    slots: Vec<Slot>,
    stamp: u32,
    mask: usize,
}

impl Default for SmallMap {
    fn default() -> Self {
        SmallMap {
            slots: vec![Slot::default(); 16],
            stamp: 1,
            mask: 15,
        }
    }
}

/// Spread the bits of `tag` (Fibonacci hashing keeps the high bits, which mix best).
fn home(tag: u64, mask: usize) -> usize {
    (tag.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask
}

impl SmallMap {
    /// Empty the map and make room for `n` entries at a load of at most one half.
    /// Only the first slots are used when `n` is small, so a large segment earlier
    /// does not spread a small one over many cache lines.
    pub fn reset(&mut self, n: usize) {
        let wanted = (2 * n).next_power_of_two().max(16);
        if wanted > self.slots.len() {
            self.slots = vec![Slot::default(); wanted];
            self.mask = wanted - 1;
            self.stamp = 1;
            return;
        }
        self.mask = wanted - 1;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(Slot::default());
            self.stamp = 1;
        }
    }

    /// The value of the entry with `tag` for which `eq(value)` holds.
    #[inline]
    pub fn find(&self, tag: u64, eq: impl Fn(u32) -> bool) -> Option<u32> {
        let mut i = home(tag, self.mask);
        loop {
            let slot = &self.slots[i];
            if slot.stamp != self.stamp {
                return None;
            }
            if slot.tag == tag && eq(slot.value) {
                return Some(slot.value);
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The value of the entry with `tag` for which `eq(value)` holds, or a new entry
    /// with value `make()` in the first free slot of the same probe (one probe, not
    /// two). The caller keeps the load under one half (see [`SmallMap::reset`]).
    #[inline]
    pub fn find_or_insert(
        &mut self,
        tag: u64,
        eq: impl Fn(u32) -> bool,
        make: impl FnOnce() -> u32,
    ) -> u32 {
        let mut i = home(tag, self.mask);
        loop {
            let slot = &mut self.slots[i];
            if slot.stamp != self.stamp {
                let value = make();
                *slot = Slot {
                    tag,
                    value,
                    stamp: self.stamp,
                };
                return value;
            }
            if slot.tag == tag && eq(slot.value) {
                return slot.value;
            }
            i = (i + 1) & self.mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_inserted_entries_and_forgets_them_on_reset() {
        let mut m = SmallMap::default();
        m.reset(100);
        for k in 0..100u64 {
            m.find_or_insert(k * 7919, |_| false, || k as u32);
        }
        for k in 0..100u64 {
            assert_eq!(m.find(k * 7919, |_| true), Some(k as u32));
        }
        assert_eq!(m.find(5, |_| true), None);
        m.reset(10);
        assert_eq!(m.find(7919, |_| true), None);
        m.find_or_insert(7919, |_| true, || 3);
        assert_eq!(m.find(7919, |_| true), Some(3));
        m.reset(100);
        assert_eq!(m.find(7919, |_| true), None);
    }

    #[test]
    fn equal_tags_are_told_apart_by_eq() {
        let mut m = SmallMap::default();
        m.reset(4);
        m.find_or_insert(42, |_| false, || 1);
        m.find_or_insert(42, |_| false, || 2);
        assert_eq!(m.find(42, |v| v == 2), Some(2));
        assert_eq!(m.find(42, |v| v == 3), None);
        assert_eq!(m.find_or_insert(42, |v| v == 2, || 9), 2);
        assert_eq!(m.find_or_insert(42, |v| v == 3, || 3), 3);
        assert_eq!(m.find(42, |v| v == 3), Some(3));
    }
}
