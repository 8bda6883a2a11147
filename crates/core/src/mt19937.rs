//! The Mersenne Twister (MT19937) of NumPy's legacy `RandomState`, continued from its state, for
//! the one draw the permutation tests make: `random_sample() > 0.5`, a fair coin per cell.
//!
//! mt-metrics-eval's permutation tests draw their swaps from a `RandomState`; computing the same
//! coins without making the doubles (and without NumPy's 8 bytes a draw) is what lets them go as
//! fast as the statistics. NumPy's double is `((a >> 5) * 2^26 + (b >> 6)) / 2^53` of two
//! consecutive outputs `a`, `b`; it exceeds one half exactly when `a >> 5` is at least `2^26`
//! and the double is not exactly one half (`a >> 5 == 2^26` and `b >> 6 == 0`).

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7fff_ffff;

/// A generator's state as `RandomState.get_state()` gives it: the key and the position in it.
pub struct Mt19937 {
    key: [u32; N],
    pos: usize,
}

impl Mt19937 {
    /// The generator at `key` and `pos` (NumPy's `pos`, 0..=624; 624: the key is used up).
    pub fn from_state(key: &[u32], pos: usize) -> Option<Mt19937> {
        let key: [u32; N] = key.try_into().ok()?;
        (pos <= N).then_some(Mt19937 { key, pos })
    }

    /// The key and position, for `RandomState.set_state`.
    pub fn state(&self) -> (&[u32; N], usize) {
        (&self.key, self.pos)
    }

    #[inline(always)]
    fn twist(&mut self) {
        let mix = |upper: u32, lower: u32, far: u32| {
            let y = (upper & UPPER) | (lower & LOWER);
            far ^ (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 }
        };
        for k in 0..N - M {
            self.key[k] = mix(self.key[k], self.key[k + 1], self.key[k + M]);
        }
        for k in N - M..N - 1 {
            self.key[k] = mix(self.key[k], self.key[k + 1], self.key[k + M - N]);
        }
        self.key[N - 1] = mix(self.key[N - 1], self.key[0], self.key[M - 1]);
        self.pos = 0;
    }

    /// The next 32-bit output (NumPy's `random_interval` and `random_sample` are made of these).
    pub fn next_u32(&mut self) -> u32 {
        let mut word = [0];
        self.fill_u32(&mut word);
        word[0]
    }

    /// The next `out.len()` outputs, tempered a run of the key at a time (a loop the compiler
    /// vectorises).
    #[inline(always)]
    pub fn fill_u32(&mut self, out: &mut [u32]) {
        let mut done = 0;
        while done < out.len() {
            if self.pos == N {
                self.twist();
            }
            let take = (N - self.pos).min(out.len() - done);
            let key = &self.key[self.pos..self.pos + take];
            for (word, &y) in out[done..done + take].iter_mut().zip(key) {
                *word = temper(y);
            }
            self.pos += take;
            done += take;
        }
    }

    /// Fill `out` with `random_sample() > 0.5`, one double (two outputs) per cell, as NumPy draws
    /// them in order.
    pub fn fill_halves(&mut self, out: &mut [bool]) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2; the code is the same, compiled for it.
            unsafe { self.fill_halves_avx2(out) };
            return;
        }
        self.halves(out);
    }

    /// [`Mt19937::fill_halves`] compiled for AVX2: eight words an instruction where the baseline
    /// has four, and integers only, so the coins are the same.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn fill_halves_avx2(&mut self, out: &mut [bool]) {
        self.halves(out);
    }

    #[inline(always)]
    fn halves(&mut self, out: &mut [bool]) {
        const CHUNK: usize = 4096;
        let mut words = [0u32; 2 * CHUNK];
        for cells in out.chunks_mut(CHUNK) {
            let words = &mut words[..2 * cells.len()];
            self.fill_u32(words);
            for (cell, pair) in cells.iter_mut().zip(words.chunks_exact(2)) {
                let (high, low) = (pair[0] >> 5, pair[1] >> 6);
                *cell = high > 1 << 26 || (high == 1 << 26 && low != 0);
            }
        }
    }
}

fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Matsumoto and Nishimura's `init_genrand`, which NumPy's `RandomState(seed)` calls.
    fn seeded(seed: u32) -> Mt19937 {
        let mut key = [0u32; N];
        key[0] = seed;
        for k in 1..N {
            key[k] = 1_812_433_253u32
                .wrapping_mul(key[k - 1] ^ (key[k - 1] >> 30))
                .wrapping_add(k as u32);
        }
        Mt19937 { key, pos: N }
    }

    #[test]
    fn the_reference_outputs_of_seed_5489() {
        // The first outputs of the reference implementation's default seed, and the 10000th
        // (C++ std::mt19937's conformance value).
        let mut mt = seeded(5489);
        assert_eq!(
            [mt.next_u32(), mt.next_u32(), mt.next_u32()],
            [3_499_211_612, 581_869_302, 3_890_346_734]
        );
        let mut mt = seeded(5489);
        let tenth_thousand = (0..10_000).map(|_| mt.next_u32()).last();
        assert_eq!(tenth_thousand, Some(4_123_659_995));
    }

    #[test]
    fn a_half_is_the_top_bit_except_exactly_one_half() {
        let mut mt = seeded(1);
        let mut coins = vec![false; 1000];
        mt.fill_halves(&mut coins);
        let mut again = seeded(1);
        let by_hand: Vec<bool> = (0..1000)
            .map(|_| {
                let (a, b) = (again.next_u32() >> 5, again.next_u32() >> 6);
                (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0 > 0.5
            })
            .collect();
        assert_eq!(coins, by_hand);
        assert!(coins.iter().any(|&c| c) && coins.iter().any(|&c| !c));
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_build_draws_the_same_coins() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let (mut a, mut b) = (seeded(9), seeded(9));
        let (mut plain, mut wide) = (vec![false; 10_001], vec![false; 10_001]);
        a.halves(&mut plain);
        // SAFETY: the CPU has AVX2.
        unsafe { b.fill_halves_avx2(&mut wide) };
        assert_eq!(plain, wide);
        assert_eq!(a.state(), b.state());
    }

    #[test]
    fn a_state_out_of_range_is_refused() {
        assert!(Mt19937::from_state(&[0; N], N + 1).is_none());
        assert!(Mt19937::from_state(&[0; 10], 0).is_none());
        assert!(Mt19937::from_state(&[0; N], N).is_some());
    }
}
