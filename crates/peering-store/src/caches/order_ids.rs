//! A list's ids in order, as a kept order holds them (`orders.rs`): in chunks of a few
//! kilobytes, each of 4-byte ids when all of its ids fit in them (every table's ids but
//! one's grown past four billion rows), so that a list of a million rows is kept in 4 MiB.

/// How many ids a chunk holds (4 KiB of narrow ids).
const IDS_PER_CHUNK: usize = 1024;

/// A list's ids in order. An order lives as long as its tables are unchanged, and is read
/// on whichever thread a page ran on: kept whole, each would hold a block of the
/// allocator's larger size classes on that thread, which kept the server's memory about
/// 8 MiB higher under the benchmark's 1,000-session pages; hence chunks.
#[derive(Debug, Default)]
pub(crate) struct OrderIds {
    chunks: Vec<Chunk>,
    len: usize,
}

/// Up to [`IDS_PER_CHUNK`] ids.
#[derive(Debug)]
enum Chunk {
    /// Every id from 0 to `u32::MAX`.
    Narrow(Box<[u32]>),
    Wide(Box<[i64]>),
}

impl Chunk {
    fn of(ids: Vec<i64>) -> Chunk {
        let narrow: Result<Vec<u32>, _> = ids.iter().map(|&id| u32::try_from(id)).collect();
        match narrow {
            Ok(narrow) => Chunk::Narrow(narrow.into_boxed_slice()),
            Err(_) => Chunk::Wide(ids.into_boxed_slice()),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Chunk::Narrow(ids) => std::mem::size_of_val(&ids[..]),
            Chunk::Wide(ids) => std::mem::size_of_val(&ids[..]),
        }
    }

    fn len(&self) -> usize {
        match self {
            Chunk::Narrow(ids) => ids.len(),
            Chunk::Wide(ids) => ids.len(),
        }
    }

    fn extend_into(&self, from: usize, to: usize, ids: &mut Vec<i64>) {
        match self {
            Chunk::Narrow(narrow) => ids.extend(narrow[from..to].iter().map(|&id| i64::from(id))),
            Chunk::Wide(wide) => ids.extend_from_slice(&wide[from..to]),
        }
    }
}

impl OrderIds {
    pub fn len(&self) -> usize {
        self.len
    }

    /// The memory the ids take.
    pub fn bytes(&self) -> usize {
        self.chunks.iter().map(Chunk::bytes).sum()
    }

    /// The ids from `start` to `end` (both clamped to the list).
    pub fn slice(&self, start: usize, end: usize) -> Vec<i64> {
        let end = end.min(self.len);
        let mut ids = Vec::with_capacity(end.saturating_sub(start));
        let mut at = start;
        while at < end {
            let chunk = &self.chunks[at / IDS_PER_CHUNK];
            let from = at % IDS_PER_CHUNK;
            let to = chunk.len().min(from + (end - at));
            chunk.extend_into(from, to, &mut ids);
            at += to - from;
        }
        ids
    }
}

/// An order built an id at a time, as its ids are read.
#[derive(Debug, Default)]
pub(crate) struct OrderIdsBuilder {
    order: OrderIds,
    chunk: Vec<i64>,
}

impl OrderIdsBuilder {
    pub fn push(&mut self, id: i64) {
        // Reserved at the first id of each chunk: an order of no ids allocates nothing.
        if self.chunk.capacity() == 0 {
            self.chunk.reserve_exact(IDS_PER_CHUNK);
        }
        self.chunk.push(id);
        if self.chunk.len() == IDS_PER_CHUNK {
            self.end_chunk();
        }
    }

    pub fn finish(mut self) -> OrderIds {
        if !self.chunk.is_empty() {
            self.end_chunk();
        }
        self.order
    }

    fn end_chunk(&mut self) {
        let full = std::mem::take(&mut self.chunk);
        self.order.len += full.len();
        self.order.chunks.push(Chunk::of(full));
    }
}

impl FromIterator<i64> for OrderIds {
    fn from_iter<I: IntoIterator<Item = i64>>(ids: I) -> OrderIds {
        let mut order = OrderIdsBuilder::default();
        ids.into_iter().for_each(|id| order.push(id));
        order.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_in_chunks_are_sliced_as_one_list() {
        // Narrow ids, a few negative ones among them, ids all past four bytes.
        let lists: [fn(i64) -> i64; 3] = [
            |i| i * 3,
            |i| if i % 700 == 5 { -i } else { i * 3 },
            |i| i64::from(u32::MAX) + i,
        ];
        for ids_of in lists {
            for len in [
                0,
                1,
                IDS_PER_CHUNK - 1,
                IDS_PER_CHUNK,
                3 * IDS_PER_CHUNK + 5,
            ] {
                let all: Vec<i64> = (0..len as i64).map(ids_of).collect();
                let ids: OrderIds = all.iter().copied().collect();
                assert_eq!(ids.len(), len);
                let edges = [
                    0,
                    1,
                    IDS_PER_CHUNK - 1,
                    IDS_PER_CHUNK,
                    IDS_PER_CHUNK + 1,
                    len,
                ];
                for start in edges.into_iter().filter(|&s| s <= len) {
                    for size in [0, 1, 50, IDS_PER_CHUNK, 2 * IDS_PER_CHUNK + 7, usize::MAX] {
                        let end = start.saturating_add(size);
                        assert_eq!(
                            ids.slice(start, end),
                            all[start..end.min(len)],
                            "{len} {start} {size}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn ids_that_fit_four_bytes_take_four() {
        let narrow: OrderIds = (0..3 * IDS_PER_CHUNK as i64).collect();
        assert_eq!(narrow.bytes(), 3 * IDS_PER_CHUNK * 4);
        // One id past four bytes widens its chunk alone.
        let past = i64::from(u32::MAX) + 1;
        let one_wide: OrderIds = (0..3 * IDS_PER_CHUNK as i64)
            .map(|i| if i == 5 { past } else { i })
            .collect();
        assert_eq!(one_wide.bytes(), 4 * IDS_PER_CHUNK * 4);
        assert_eq!(one_wide.slice(4, 7), [4, past, 6]);
        let negative: OrderIds = [-1, 2].into_iter().collect();
        assert_eq!(negative.bytes(), 16);
        assert_eq!(negative.slice(0, 2), [-1, 2]);
    }
}
