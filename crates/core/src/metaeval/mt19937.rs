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
        // Below N - M, the word M ahead is still the old one; from N - M on, the one N - M
        // behind is already new; the last word wraps to the new first.
        for k in 0..N - M {
            self.key[k] = mix(self.key[k], self.key[k + 1], self.key[k + M]);
        }
        self.mix_behind(N - M, N - 1);
        self.key[N - 1] = mix(self.key[N - 1], self.key[0], self.key[M - 1]);
        self.pos = 0;
    }

    /// Words `from..to` of the twist (`from >= N - M`), each mixed with the word N - M behind:
    /// eight at a time as fixed-size arrays, which the compiler keeps in vector registers (as a
    /// plain loop, it sees the word written N - M earlier and goes four at a time). A block
    /// reads its words and the next before writing any, as one at a time would (the next
    /// words are still old); the words behind are new, written at least eight earlier.
    #[inline(always)]
    fn mix_behind(&mut self, from: usize, to: usize) {
        const LANES: usize = 8;
        let mut k = from;
        while k + LANES <= to {
            let words = |start: usize| -> [u32; LANES] {
                self.key[start..start + LANES]
                    .try_into()
                    .expect("eight words")
            };
            let (upper, lower, behind) = (words(k), words(k + 1), words(k + M - N));
            for lane in 0..LANES {
                self.key[k + lane] = mix(upper[lane], lower[lane], behind[lane]);
            }
            k += LANES;
        }
        for k in k..to {
            self.key[k] = mix(self.key[k], self.key[k + 1], self.key[k + M - N]);
        }
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

    /// The coins of [`Mt19937::fill_halves`] from the key itself: only each pair's first word is
    /// tempered, which decides the coin unless its top 27 bits are exactly one half (one pair
    /// in 2^27); a run with such a pair is decided again with both words.
    #[inline(always)]
    fn halves(&mut self, out: &mut [bool]) {
        let mut done = 0;
        while done < out.len() {
            if self.pos == N {
                self.twist();
            }
            if self.pos == N - 1 {
                // A pair across two twists.
                let first = temper(self.key[N - 1]);
                self.twist();
                out[done] = coin(first, temper(self.key[0]));
                self.pos = 1;
                done += 1;
                continue;
            }
            let pairs = ((N - self.pos) / 2).min(out.len() - done);
            let key = &self.key[self.pos..self.pos + 2 * pairs];
            let cells = &mut out[done..done + pairs];
            let mut half = false;
            for (cell, pair) in cells.iter_mut().zip(key.chunks_exact(2)) {
                let high = temper(pair[0]) >> 5;
                *cell = high > HALF;
                half |= high == HALF;
            }
            if half {
                for (cell, pair) in cells.iter_mut().zip(key.chunks_exact(2)) {
                    *cell = coin(temper(pair[0]), temper(pair[1]));
                }
            }
            self.pos += 2 * pairs;
            done += pairs;
        }
    }
}

/// `a >> 5` of one half: 2^26 of 2^27.
const HALF: u32 = 1 << 26;

/// NumPy's `random_sample() > 0.5` of the double made of the tempered outputs `a`, `b`.
fn coin(a: u32, b: u32) -> bool {
    let (high, low) = (a >> 5, b >> 6);
    high > HALF || (high == HALF && low != 0)
}

/// One word of the twist: the upper bit of `upper`, the lower bits of `lower`, and `far`.
#[inline(always)]
fn mix(upper: u32, lower: u32, far: u32) -> u32 {
    let y = (upper & UPPER) | (lower & LOWER);
    far ^ (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 }
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

    /// The word that tempers to `y`: each step undone (a shift by s is undone by applying
    /// it 32 / s times).
    fn untemper(mut y: u32) -> u32 {
        let undo_right = |y: u32, s: u32| (0..32 / s).fold(y, |x, _| y ^ (x >> s));
        let undo_left = |y: u32, s: u32, m: u32| (0..32 / s).fold(y, |x, _| y ^ ((x << s) & m));
        y = undo_right(y, 18);
        y = undo_left(y, 15, 0xefc6_0000);
        y = undo_left(y, 7, 0x9d2c_5680);
        undo_right(y, 11)
    }

    /// The coins of `mt` drawn one output at a time, as NumPy makes the doubles.
    fn by_hand(mt: &mut Mt19937, n: usize) -> Vec<bool> {
        (0..n)
            .map(|_| {
                let (a, b) = (mt.next_u32() >> 5, mt.next_u32() >> 6);
                (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0 > 0.5
            })
            .collect()
    }

    #[test]
    fn coins_from_any_position_and_exactly_one_half() {
        let mut key = *seeded(3).state().0;
        // Pairs whose first word is exactly one half in its top 27 bits: the second decides.
        for (k, (a, b)) in [(1 << 31, 0), (1 << 31, 1 << 6), ((1 << 31) | 31, 63)]
            .into_iter()
            .enumerate()
        {
            key[2 * k] = untemper(a);
            key[2 * k + 1] = untemper(b);
        }
        key[N - 1] = untemper(1 << 31); // and a pair across the twist, from an odd position
        assert_eq!(temper(untemper(0xdead_beef)), 0xdead_beef);
        for pos in [0, 1, 2, N - 3, N - 1, N] {
            let mut a = Mt19937::from_state(&key, pos).unwrap();
            let mut b = Mt19937::from_state(&key, pos).unwrap();
            let mut coins = vec![false; 2000];
            a.fill_halves(&mut coins);
            assert_eq!(coins, by_hand(&mut b, 2000), "from position {pos}");
            assert_eq!(a.state(), b.state());
        }
        let mut from_start = Mt19937::from_state(&key, 0).unwrap();
        assert_eq!(by_hand(&mut from_start, 3), [false, true, false]);
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
