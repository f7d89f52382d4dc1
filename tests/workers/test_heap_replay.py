"""The CPU heap replay: autograd nodes' small objects placed among the traced tensors, and what they do to
glibc's heap when replayed through the real malloc."""

from __future__ import annotations

import os
import sys
from collections import Counter

import pytest

from gpuconfig.workers.tracer.autograd_nodes import CHECKPOINTED, PLAIN
from gpuconfig.workers.tracer.heap import (
    ALIGNED,
    SMALL,
    TENSOR,
    TOP_RESTS,
    MallocReplay,
    glibc,
    kernel_blocks,
    settle,
    size_cycle,
    with_small_objects,
)

KiB, MiB = 1024, 1024 * 1024
OBJECTS = {
    "plain": {"per_node": 2.5, "sizes": [[16, 0.5], [176, 0.5]]},
    "checkpointed": {"per_node": 1.0, "sizes": [[32, 1.0]]},
}


def test_a_node_holds_its_objects_from_where_it_was_created_to_where_backward_released_it() -> None:
    events = [(1, 1000), (1, -1), (2, 2000)]
    marks = [(1, 7, PLAIN), (3, 7, 0)]  # created before the second event, released after the last
    stream = list(with_small_objects(events, marks, OBJECTS))
    assert [kind for _, _, kind in stream] == [TENSOR, SMALL, SMALL, TENSOR, TENSOR, SMALL, SMALL]
    allocated = [(key, size) for key, size, kind in stream[1:3]]
    freed = [key for key, size, kind in stream[5:]]
    assert all(size in (16, 176) for _, size in allocated)
    assert sorted(freed) == sorted(key for key, _ in allocated)
    assert all(size == -1 for _, size, _ in stream[5:])


def test_objects_per_node_carry_their_fraction_and_sizes_follow_the_measured_shares() -> None:
    marks = [(0, serial, PLAIN) for serial in range(1, 1001)]
    stream = list(with_small_objects([(1, 64)], marks, OBJECTS))
    sizes = Counter(size for _, size, kind in stream if kind == SMALL)
    assert sum(sizes.values()) == 2500  # 2.5 per node over 1,000 nodes: 2, 3, 2, 3...
    assert sizes[16] == pytest.approx(1250, rel=0.05) and sizes[176] == pytest.approx(1250, rel=0.05)


def test_checkpointed_nodes_take_their_own_table_and_a_kind_without_one_places_nothing() -> None:
    marks = [(0, 1, CHECKPOINTED), (0, 2, PLAIN)]
    stream = list(with_small_objects([(1, 64)], marks, {"checkpointed": OBJECTS["checkpointed"]}))
    assert [(key[0], size) for key, size, kind in stream if kind == SMALL] == [(("node", 1), 32)]
    assert list(with_small_objects([(1, 64)], marks, None)) == [(1, 64, TENSOR)]


def test_a_storage_comes_with_its_headers_some_ahead_of_it_and_all_freed_after_it() -> None:
    headers = {"tensor": {"per_storage": 2.0, "sizes": [[96, 0.5], [176, 0.5]], "before": [96]}}
    stream = list(with_small_objects([(5, 4096), (5, -1)], [], headers))
    assert [(key if kind == TENSOR else size, kind) for key, size, kind in stream][:3] in (
        [(96, SMALL), (5, TENSOR), (176, SMALL)],  # the 96-byte header first, the 176-byte one after
        [(96, SMALL), (96, SMALL), (5, TENSOR)],
        [(5, TENSOR), (176, SMALL), (176, SMALL)],
    )
    assert stream[3][:2] == (5, -1) and [size for _, size, _ in stream[4:]] == [-1, -1]
    assert sorted(key for key, _, kind in stream[4:]) == sorted(key for key, size, kind in stream[:3] if kind == SMALL)
    many = list(with_small_objects([(k, 4096) for k in range(1000)], [], headers))
    assert Counter(size for _, size, kind in many if kind == SMALL) == pytest.approx({96: 1000, 176: 1000}, rel=0.05)


def test_the_size_cycle_is_fixed_and_follows_the_shares() -> None:
    cycle = size_cycle([[16, 0.25], [488, 0.75]], length=400)
    assert cycle == size_cycle([[16, 0.25], [488, 0.75]], length=400)
    assert Counter(cycle) == {16: 100, 488: 300}


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not hasattr(os, "confstr") or not os.confstr("CS_GNU_LIBC_VERSION"),
    reason="the heap replay runs glibc's own malloc",
)
def test_the_replay_mallocs_the_objects_and_frees_them_where_the_nodes_are_released() -> None:
    """Eight nodes of one 40 MiB object each (above glibc's largest mmap threshold, so mapped whatever the heap
    the copy starts from holds), live when a last tensor sets the peak: the replay's footprint holds them.
    Released before it, they are unmapped and the peak does not count them."""
    size = 40 * MiB
    objects = {"plain": {"per_node": 1.0, "sizes": [[size, 1.0]]}}
    events = [(1, 64 * KiB), (2, 64 * KiB)]
    held = [(1, serial, PLAIN) for serial in range(1, 9)]
    released = held + [(1, serial, 0) for serial in range(1, 9)]
    with MallocReplay() as replay:
        assert replay.available
        alone, live = replay.peak(events), replay.peak(events, held, objects)
        freed = replay.peak(events, released, objects)
    assert alone is not None and live is not None and freed is not None
    assert live - alone == pytest.approx(8 * size, rel=0.01)  # each mapped with a page of header at most
    assert freed - alone < size  # gone again before the last tensor


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not hasattr(os, "confstr") or not os.confstr("CS_GNU_LIBC_VERSION"),
    reason="the heap replay runs glibc's own malloc",
)
def test_a_key_allocated_again_while_live_gives_up_its_old_block_first() -> None:
    """A storage resized without a free in between: its old block is freed, never left behind or shared."""
    size = 40 * MiB  # mapped: the footprint follows exactly what is live
    stream = [(1, size, TENSOR), (2, size, TENSOR), (1, 2 * size, TENSOR), (3, size, TENSOR), (1, -1, TENSOR)]
    with MallocReplay() as replay:
        peak = replay.replay(stream)
    assert peak is not None
    assert peak == pytest.approx(4 * size, rel=0.01)  # at most: 2 (key 1 resized) + 1 (key 2) + 1 (key 3)


def test_the_marker_holds_no_node_so_a_branch_backward_never_reaches_is_released_when_it_dies() -> None:
    import torch  # noqa: TID251  (the tests' Python has the torch extra; the marker runs on real tensors here)

    from gpuconfig.workers.tracer.autograd_nodes import node_marker

    marker = node_marker([])
    x = torch.ones(4, requires_grad=True)
    with marker:
        kept = (x * 2).sum()
        dropped = (x.exp() + 1).mean()  # a side branch: nothing runs its backward
        created = {serial for _, serial, kind in marker.marks if kind != 0}
        del dropped
        released_early = {serial for _, serial, kind in marker.marks if kind == 0}
        kept.backward()
        del kept
    released = {serial for _, serial, kind in marker.marks if kind == 0}
    assert len(released_early) >= 3  # ExpBackward0, AddBackward0, MeanBackward0: gone with their tensor
    assert released_early < created  # the kept graph was still alive then
    assert released == created  # and every node is released once backward has run and its loss is gone


def test_a_seed_shuffles_where_each_size_lands_but_keeps_the_shares() -> None:
    first, other = (
        size_cycle([[16, 0.25], [488, 0.75]], 400, seed=0),
        size_cycle([[16, 0.25], [488, 0.75]], 400, seed=1),
    )
    assert first != other and Counter(first) == Counter(other)
    marks = [(0, serial, PLAIN) for serial in range(1, 401)]  # 1,000 objects: one whole cycle
    streams = [list(with_small_objects([(1, 64)], marks, OBJECTS, seed)) for seed in (0, 1)]
    assert [size for _, size, _ in streams[0]] != [size for _, size, _ in streams[1]]
    assert Counter(size for _, size, _ in streams[0]) == Counter(size for _, size, _ in streams[1])


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not hasattr(os, "confstr") or not os.confstr("CS_GNU_LIBC_VERSION"),
    reason="the heap replay runs glibc's own malloc",
)
def test_the_heap_is_replayed_with_several_placements_and_their_median_is_the_estimate() -> None:
    from gpuconfig.workers.tracer.point import HEAP_DRAWS, heap_draws

    # Temporaries freed between live ones leave holes; nodes' objects placed in them keep them from merging.
    events = [(key, 96 * KiB) for key in range(1, 200)] + [(key, -1) for key in range(1, 200, 2)]
    events += [(key, 300 * KiB) for key in range(200, 260)]
    marks = [(position, serial, PLAIN) for serial, position in enumerate(range(100, 300, 2), start=1)]
    objects = {"plain": {"per_node": 3.0, "sizes": [[24, 0.3], [4000, 0.4], [40000, 0.3]]}}
    with MallocReplay() as replay:
        drawn = heap_draws(replay, events, marks, objects)
        each = sorted(
            replay.peak(events, marks, objects, seed, top_rest=rest) or 0
            for seed in range(HEAP_DRAWS)
            for rest in TOP_RESTS
        )
    assert len(each) == HEAP_DRAWS * len(TOP_RESTS)
    assert drawn == {
        "cpu_heap_peak_bytes": each[len(each) // 2],
        "cpu_heap_peak_low_bytes": each[0],
        "cpu_heap_peak_high_bytes": each[-1],
    }
    assert heap_draws(None, events, marks, objects)["cpu_heap_peak_bytes"] is None  # no replay: nothing claimed


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not hasattr(os, "confstr") or not os.confstr("CS_GNU_LIBC_VERSION"),
    reason="the heap replay runs glibc's own malloc",
)
def test_a_replay_gives_the_same_heap_whatever_the_process_left_in_its_own_heap() -> None:
    """Two trace processes fork their replay from heaps a few dozen bytes apart (their own objects); glibc's
    answer turns on that, so each replay first settles the heap. Copies forked from heaps whose top chunks differ
    (the process's free chunks taken, its top cut to another size each time) answer the stream differently
    unsettled, and all alike settled."""
    events = [(key, 96 * KiB + 16 * key) for key in range(1, 200)] + [(key, -1) for key in range(1, 200, 2)]
    events += [(key, 300 * KiB - 48 * key) for key in range(200, 260)] + [(key, -1) for key in range(200, 260, 3)]
    events += [(key, 24 * KiB + 8 * key) for key in range(260, 400)]
    stream = [(key, size, TENSOR) for key, size in events]
    libc = glibc()
    settled, unsettled = [], set()
    for top in (8 * KiB, 40 * KiB, 100 * KiB):  # none of them a TOP_RESTS size
        settle(libc.malloc, libc.free, libc.mallinfo2, top)  # this process's heap, kept: the next copy starts there
        assert abs(int(libc.mallinfo2().keepcost) - top) < 64
        with MallocReplay() as copy:
            settled.append([copy.replay(stream, rest) for rest in TOP_RESTS])
            unsettled.add(copy.replay(stream, -1))
    assert None not in settled[0] and None not in unsettled
    assert len(unsettled) > 1  # the start moves the answer unsettled...
    assert settled[1] == settled[0] and settled[2] == settled[0]  # ...and not once settled


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads resident memory from /proc")
def test_the_runtime_is_measured_in_a_fresh_process_with_every_library_page_it_touches() -> None:
    """What the tracing process holds beyond a real run's start (its machinery, here 256 MiB allocated) is not
    counted, and what a fresh process that imports torch holds (its libraries' pages too) is."""
    import json
    import subprocess

    program = (
        "import json, torch\n"
        "from gpuconfig.workers.tracer.__main__ import runtime_rss\n"
        "from gpuconfig.workers.tracer.runtime import current_rss_bytes\n"
        "before = current_rss_bytes()\n"
        "later = bytearray(256 * 1024 * 1024)\n"
        "later[::4096] = b'x' * len(later[::4096])\n"
        "print(json.dumps([before, *runtime_rss(['json.tool'])]))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=600, check=True)
    before, runtime, how = json.loads(done.stdout.strip().splitlines()[-1])
    torch_alone = (
        "import torch\nfrom gpuconfig.workers.tracer.runtime import current_rss_bytes\nprint(current_rss_bytes())"
    )
    fresh = subprocess.run([sys.executable, "-c", torch_alone], capture_output=True, text=True, timeout=600, check=True)
    assert how == "fresh process"
    # at least a fresh torch's; at most this process's before its 256 MiB, plus the warm-up step's libraries
    assert int(fresh.stdout.strip().splitlines()[-1]) < runtime < before + 128 * MiB


def test_a_kernel_script_allocates_its_blocks_and_frees_each_once_in_order() -> None:
    stream = list(kernel_blocks("call", [768, 16, -2, 824, -1, -3]))
    assert stream == [
        (("call", 1), 768, ALIGNED),
        (("call", 2), 16, ALIGNED),
        (("call", 2), -1, ALIGNED),
        (("call", 3), 824, ALIGNED),
        (("call", 1), -1, ALIGNED),
        (("call", 3), -1, ALIGNED),
    ]


def test_a_marked_kernel_runs_its_blocks_after_its_output_and_an_unmeasured_one_adds_nothing() -> None:
    objects = {"kernels": {"aten.gelu.default": [768, 16, -1, -2]}}
    events = [(1, 4096), (2, 4096), (1, -1)]
    # gelu ran after the first storage (its output) was allocated; an operator without a script adds nothing
    kernels = [(1, "aten.gelu.default"), (2, "aten.mm.default"), (3, "aten.gelu.default")]
    stream = list(with_small_objects(events, [], objects, kernels=kernels))
    kinds = [kind for _, _, kind in stream]
    assert kinds == [TENSOR, *[ALIGNED] * 4, TENSOR, TENSOR, *[ALIGNED] * 4]
    assert [size for _, size, _ in stream[1:5]] == [768, 16, -1, -1]
    calls = {key[0] for key, _, kind in stream if kind == ALIGNED}
    assert len(calls) == 2  # each call's blocks are its own
    assert list(with_small_objects(events, [], {}, kernels=kernels)) == [(k, s, TENSOR) for k, s in events]


def test_a_kernel_runs_after_the_node_its_call_creates_and_before_backward_releases_a_node() -> None:
    objects = {"plain": {"per_node": 1.0, "sizes": [[16, 1.0]]}, "kernels": {"k": [768, -1]}}
    events = [(1, 4096), (2, 4096)]
    marks = [(1, 1, PLAIN), (1, 2, 0), (1, 3, PLAIN)]  # at one position: a node made, one released, one made
    stream = list(with_small_objects(events, marks, objects, kernels=[(1, "k")]))
    order = [
        ("kernel" if kind == ALIGNED else key[0][0] if kind == SMALL else "tensor", size) for key, size, kind in stream
    ]
    assert order == [("tensor", 4096), ("node", 16), ("kernel", 768), ("kernel", -1), ("node", 16), ("tensor", 4096)]


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or not hasattr(os, "confstr") or not os.confstr("CS_GNU_LIBC_VERSION"),
    reason="the heap replay runs glibc's own malloc",
)
def test_the_replay_allocates_a_kernels_blocks_aligned_and_gives_them_back() -> None:
    """A kernel's blocks live only while it runs: 40 MiB of them (mapped, whatever the heap) allocated and freed
    between two tensors count while they live, as a real run's resident memory holds them, and are given back:
    the later tensors find the peak where the tensors alone would leave it plus the blocks, not more."""
    size = 20 * MiB
    events = [(1, 64 * KiB), (2, 64 * KiB)]
    objects = {"kernels": {"k": [size, size, -1, -2]}}
    assert sum(kind == ALIGNED for _, _, kind in with_small_objects(events, [], objects, kernels=[(1, "k")])) == 4
    with MallocReplay() as replay:
        alone = replay.peak(events)
        freed = replay.peak(events, objects=objects, kernels=[(1, "k")])
        once = replay.replay([(1, 64 * KiB, TENSOR), ("x", size, ALIGNED), ("x", -1, ALIGNED), (2, 64 * KiB, TENSOR)])
    assert alone is not None and freed is not None and once is not None
    assert freed - alone == pytest.approx(2 * size, rel=0.01)  # both blocks at once
    assert once - alone == pytest.approx(size, rel=0.01)


def test_the_kernel_marker_notes_a_measured_operator_after_its_output_under_fake_tensors() -> None:
    import torch  # noqa: TID251  (the tests' Python has the torch extra)

    from gpuconfig.workers.tracer import torch_private
    from gpuconfig.workers.tracer.kernel_scratch import kernel_marker

    with torch_private.fake_tensor_mode():
        tracker = torch_private.recording_tracker()
        x = torch.ones(64, 64, requires_grad=True)
        with tracker:
            marker = kernel_marker(tracker.events, ["aten.gelu.default", "aten.gelu_backward.default"])
            with marker:
                before = len(tracker.events)
                y = torch.nn.functional.gelu(x)
                after_forward = len(tracker.events)
                y.sum().backward()
                # PyTorch's own loop, not oneDNN's: the tanh form, and a float64 input
                torch.nn.functional.gelu(x, approximate="tanh").sum().backward()
                torch.nn.functional.gelu(x.double()).sum().backward()
    names = [name for _, name in marker.marks]
    assert names == ["aten.gelu.default", "aten.gelu_backward.default"]
    assert marker.marks[0][0] == after_forward > before  # after gelu's output storage was recorded
