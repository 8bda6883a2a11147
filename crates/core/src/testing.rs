//! Helpers for the unit tests: a deterministic generator and random corpora.

/// xorshift64: deterministic, dependency-free randomness for tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A line of up to `max_words` words from a small vocabulary, so n-grams repeat.
    pub fn line(&mut self, max_words: usize) -> String {
        const VOCAB: [&str; 8] = ["the", "cat", "a", "mat", "on", "The", "sat", "."];
        let n = self.below(max_words + 1);
        (0..n)
            .map(|_| VOCAB[self.below(VOCAB.len())])
            .collect::<Vec<_>>()
            .join(" ")
    }
}
