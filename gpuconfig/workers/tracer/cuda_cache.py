"""The memory a CUDA run reserves, found by replaying the traced allocations through a model of PyTorch's
CUDA caching allocator.

`torch.cuda.max_memory_allocated` counts the blocks tensors hold; nvidia-smi, and an out-of-memory error,
see what the caching allocator has reserved from the driver: whole segments, which it keeps and splits
for later allocations instead of freeing them. The rules followed here are those of
c10/cuda/CUDACachingAllocator.cpp (PyTorch 2.x, `round_size`, `get_allocation_size`, `get_free_block`,
`should_split`, `try_merge_blocks`) with the default settings, one stream and no out-of-memory retry:
- every request is rounded up to a multiple of 512 bytes;
- requests up to 1 MiB come from the small pool, whose segments are 2 MiB; larger ones from the large
  pool, whose segments are 20 MiB for requests under 10 MiB and the request rounded up to 2 MiB above;
- a request takes the smallest cached free block that holds it (best fit), else a new segment;
- a block is split when what is left is at least 512 bytes (small pool) or more than 1 MiB (large pool);
  otherwise the request gets the whole block, and the allocated figure counts the whole block;
- a freed block merges with its free neighbours in the same segment, and stays reserved.
With `expandable_segments:True` (PYTORCH_CUDA_ALLOC_CONF; https://pytorch.org/docs/stable/notes/cuda.html,
"Optimizing memory usage with PYTORCH_CUDA_ALLOC_CONF") each pool is one segment that grows at its end in
2 MiB pages, so the reserved memory is the pages mapped.
"""

from __future__ import annotations

from bisect import bisect_left, insort

MIN_BLOCK = 512
SMALL_SIZE = 1 << 20  # the largest small request
SMALL_BUFFER = 2 << 20  # the small pool's segment size
LARGE_BUFFER = 20 << 20  # the large pool's segment for requests under MIN_LARGE_ALLOC
MIN_LARGE_ALLOC = 10 << 20
ROUND_LARGE = 2 << 20  # large segments (and expandable pages) are whole multiples of this


def round_size(size: int) -> int:
    return max(MIN_BLOCK, -(-size // MIN_BLOCK) * MIN_BLOCK)


def segment_size(size: int) -> int:
    """The segment a request that no cached block holds makes the allocator reserve."""
    if size <= SMALL_SIZE:
        return SMALL_BUFFER
    if size < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return -(-size // ROUND_LARGE) * ROUND_LARGE


class _Block:
    __slots__ = ("free", "next", "offset", "pool", "prev", "segment", "size")

    def __init__(self, pool: _Pool, segment: int, offset: int, size: int) -> None:
        self.pool, self.segment, self.offset, self.size = pool, segment, offset, size
        self.free = True
        self.prev: _Block | None = None
        self.next: _Block | None = None

    def key(self) -> tuple[int, int, int]:
        return (self.size, self.segment, self.offset)


class _Pool:
    def __init__(self, small: bool) -> None:
        self.small = small
        self.free: list[tuple[int, int, int]] = []  # (size, segment, offset), sorted: the best fit is first
        self.blocks: dict[tuple[int, int], _Block] = {}  # free blocks by (segment, offset)
        self.tail: _Block | None = None  # expandable: the block at the end of the one segment

    def add(self, block: _Block) -> None:
        insort(self.free, block.key())
        self.blocks[(block.segment, block.offset)] = block

    def remove(self, block: _Block) -> None:
        at = bisect_left(self.free, block.key())
        del self.free[at]
        del self.blocks[(block.segment, block.offset)]

    def best_fit(self, size: int) -> _Block | None:
        at = bisect_left(self.free, (size, -1, -1))
        if at == len(self.free):
            return None
        _, segment, offset = self.free[at]
        return self.blocks[(segment, offset)]


class CachingAllocator:
    """Allocated and reserved bytes, now and at their peaks, of a stream of allocations and frees."""

    def __init__(self, expandable: bool = False) -> None:
        self.expandable = expandable
        self.pools = (_Pool(small=True), _Pool(small=False))
        self.live: dict[int, _Block] = {}
        self.allocated = self.reserved = self.peak_allocated = self.peak_reserved = 0
        self._segments = 0

    def malloc(self, key: int, size: int) -> None:
        size = round_size(size)
        pool = self.pools[0] if size <= SMALL_SIZE else self.pools[1]
        block = pool.best_fit(size) or self._grow(pool, size)
        pool.remove(block)
        left = block.size - size
        if left >= MIN_BLOCK if pool.small else left > SMALL_SIZE:
            rest = _Block(pool, block.segment, block.offset + size, left)
            rest.prev, rest.next = block, block.next
            if block.next is not None:
                block.next.prev = rest
            block.next, block.size = rest, size
            if pool.tail is block:
                pool.tail = rest
            pool.add(rest)
        block.free = False
        self.live[key] = block
        self.allocated += block.size
        self.peak_allocated = max(self.peak_allocated, self.allocated)

    def free(self, key: int) -> None:
        block = self.live.pop(key, None)
        if block is None:
            return
        self.allocated -= block.size
        pool = block.pool
        block.free = True
        for neighbour in (block.prev, block.next):
            if neighbour is not None and neighbour.free:
                pool.remove(neighbour)
                block = self._merge(pool, block, neighbour)
        pool.add(block)

    def _grow(self, pool: _Pool, size: int) -> _Block:
        """A new segment holding `size` (or, expandable, the one segment's end grown to hold it)."""
        if self.expandable:
            tail = pool.tail
            have = tail.size if tail is not None and tail.free else 0
            pages = -(-(size - have) // ROUND_LARGE) * ROUND_LARGE
            self._reserve(pages)
            if tail is not None and tail.free:
                pool.remove(tail)
                tail.size += pages
                pool.add(tail)
                return tail
            segment = tail.segment if tail is not None else self._new_segment()
            offset = tail.offset + tail.size if tail is not None else 0
            block = _Block(pool, segment, offset, pages)
            block.prev = tail
            if tail is not None:
                tail.next = block
            pool.tail = block
            pool.add(block)
            return block
        grown = segment_size(size)
        self._reserve(grown)
        block = _Block(pool, self._new_segment(), 0, grown)
        pool.add(block)
        return block

    def _new_segment(self) -> int:
        self._segments += 1
        return self._segments

    def _reserve(self, size: int) -> None:
        self.reserved += size
        self.peak_reserved = max(self.peak_reserved, self.reserved)

    @staticmethod
    def _merge(pool: _Pool, block: _Block, neighbour: _Block) -> _Block:
        first, second = (neighbour, block) if neighbour.offset < block.offset else (block, neighbour)
        first.size += second.size
        first.next = second.next
        if second.next is not None:
            second.next.prev = first
        if pool.tail is second:
            pool.tail = first
        return first


def reserved_peak(events: list[tuple[int, int]], expandable: bool = False) -> tuple[int, int]:
    """(peak allocated, peak reserved) bytes of (key, size) allocations and (key, -1) frees."""
    allocator = CachingAllocator(expandable)
    for key, size in events:
        if size < 0:
            allocator.free(key)
        else:
            allocator.malloc(key, size)
    return allocator.peak_allocated, allocator.peak_reserved
