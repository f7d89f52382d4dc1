"""Which traced tensor allocations glibc malloc serves from its heap, and how much of them churns.

mallopt(3), M_MMAP_THRESHOLD: a request at least this large is served by mmap(2), and freeing it returns its
pages to the system at once; smaller requests come from the heap, whose freed memory stays with the process
for reuse. The threshold is dynamic: "the initial value of the threshold is 128*1024, but when blocks larger
than the current threshold and less than or equal to DEFAULT_MMAP_THRESHOLD_MAX are freed, the threshold is
adjusted upward to the size of the freed block" (DEFAULT_MMAP_THRESHOLD_MAX: 4*1024*1024*sizeof(long), 32 MiB
on 64-bit systems). So after the first step frees its large activations, a real run's later tensors up to the
largest one freed (at most 32 MiB) come from the heap. This module follows that rule over the traced stream of
allocations and frees and reports what the heap-served tensors did; core/workload/cpu_heap.py turns it into the
memory the heap keeps.
"""

from __future__ import annotations

INITIAL_MMAP_THRESHOLD = 128 * 1024
MAX_MMAP_THRESHOLD = 4 * 1024 * 1024 * 8  # DEFAULT_MMAP_THRESHOLD_MAX on a 64-bit system (sizeof(long) == 8)


def heap_profile(events: list[tuple[int, int]]) -> dict[str, object]:
    """For (storage, bytes) allocations and (storage, -1) frees, in order: at the moment the most tensor
    bytes are live, the heap-served bytes live and freed so far, the most heap-served bytes ever live, every
    heap-served byte allocated, and the freed heap-served bytes by size class (a power of two, as log2)."""
    threshold = INITIAL_MMAP_THRESHOLD
    live: dict[int, tuple[int, bool]] = {}  # storage -> (bytes, served from the heap)
    total = heap = high_water = allocated = freed = count = 0
    peak_total = heap_at_peak = freed_at_peak = high_water_at_peak = 0
    histogram: dict[str, int] = {}
    for key, size in events:
        if size < 0:
            block = live.pop(key, None)
            if block is None:
                continue
            nbytes, in_heap = block
            total -= nbytes
            if in_heap:
                heap -= nbytes
                freed += nbytes
                bucket = str(max(0, nbytes - 1).bit_length())
                histogram[bucket] = histogram.get(bucket, 0) + nbytes
            elif nbytes <= MAX_MMAP_THRESHOLD:
                threshold = max(threshold, nbytes)
            continue
        if key in live:  # a storage resized: its old block is gone
            old, in_heap = live.pop(key)
            total -= old
            heap -= old if in_heap else 0
        in_heap = size < threshold
        live[key] = (size, in_heap)
        total += size
        if in_heap:
            heap += size
            allocated += size
            count += 1
            high_water = max(high_water, heap)
        if total > peak_total:
            peak_total, heap_at_peak, freed_at_peak, high_water_at_peak = total, heap, freed, high_water
    return {
        "heap_live_at_peak_bytes": heap_at_peak,
        "heap_freed_at_peak_bytes": freed_at_peak,
        "heap_high_water_bytes": high_water_at_peak,
        "heap_allocated_bytes": allocated,
        "heap_allocations": count,
        "mmap_threshold_bytes": threshold,
        "heap_freed_histogram": dict(sorted(histogram.items(), key=lambda item: int(item[0]))),
    }
