//! A small seeded generator (SplitMix64) whose output is fixed by this code alone, so that a
//! seed gives the same data whatever version of `rand` is linked. It implements `RngCore`
//! only to feed `peering_domain::password::encrypt_with_rng`.

pub struct Rng(u64);

impl Rng {
    /// An independent stream for one part of the data (`stream`) of one region.
    pub fn stream(seed: u64, stream: u64, region: u64) -> Rng {
        let mut mix = Rng(seed);
        let a = mix.next() ^ stream.wrapping_mul(0xA076_1D64_78BD_642F);
        let b = Rng(a).next() ^ region.wrapping_mul(0xE703_7ED1_A0B4_28DB);
        Rng(Rng(b).next())
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by multiplication: no modulo bias worth the name.
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A number in `[0, 1)` with 53 random bits (exact, so the same on every platform).
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

impl rand::RngCore for Rng {
    fn next_u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    fn next_u64(&mut self) -> u64 {
        self.next()
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}
