"""The heap a real run grows on the CPU, found by replaying the traced allocations through malloc."""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from .autograd_nodes import CHECKPOINTED, PLAIN

# A replayed block: a tensor's storage (posix_memalign), one of a node's small objects (malloc), or a block a CPU
# kernel allocates aligned for itself (posix_memalign; workers/tracer/kernel_scratch.py).
TENSOR, SMALL, ALIGNED = 0, 1, 2
# A kernel call measured on this machine (kernel_scratch.py) is marked twice, where its outputs' storage events
# begin (OPENS + its key) and where they end (CLOSES + its key): its script's blocks before its 0 (where the real
# call allocated its first output) go at the first mark, the rest at the second, so its first output lands among
# them as it did for real (a block allocated between two outputs goes after all of them). A catalog script
# (GELU's) is marked once, after the call.
OPENS, CLOSES = "< ", "> "
# The heap is read after a kernel's block this large, as after a tensor: the block counts while it lives (a
# convolution's reorder of its input is as large as the input, and a real run's resident memory holds it). It is
# not read after a smaller one: reading walks every free chunk (mallinfo2), and GELU's oneDNN objects are thousands
# of blocks of 16 bytes to 8 KiB, live a few at a time within one call; the next tensor's or large block's reading
# sees what they left.
KERNEL_PEAK_BYTES = 64 * 1024
# glibc's answer to a stream turns on the exact state of its heap when it starts: whether a block is cut from the
# top chunk or from a free one, or the heap grows, decides where every later block lands. Two trace processes start
# a few dozen bytes apart (their own objects), and that alone moved the replayed heap of the accuracy benchmark's
# 4096-token prompt (llama-small-generate-4096) by about 230 MB from one trace to the next. So each replay first
# settles the heap (settle()): every free chunk taken, the top chunk cut to one of these sizes, the same in every
# process; the draws (point.HEAP_DRAWS) cover each, so the estimate repeats and its range shows what the start
# can do. Each size is under the 128 KiB top pad a grown heap leaves (mallopt(3), M_TOP_PAD: 128*1024 by default;
# glibc malloc/malloc.c, DEFAULT_TOP_PAD), so each can be cut to in every process.
TOP_RESTS = (4 * 1024, 48 * 1024, 112 * 1024)
CUT = 64 * 1024  # the blocks settle() takes, under glibc's default mmap threshold (128 KiB) so they come from the heap
MIN_CHUNK = 32  # glibc's smallest chunk (malloc/malloc.c, MINSIZE on 64-bit)
TCACHE_COUNT = 7  # glibc's default tcache_count (malloc/malloc.c, TCACHE_FILL_COUNT): chunks cached per size


class MallocReplay:
    """The heap a real run grows, found by replaying the traced allocations through this system's malloc.

    PyTorch's CPU tensors come from malloc (64-byte aligned), and glibc keeps freed memory for reuse: how
    much depends on its dynamic mmap threshold (mallopt(3), M_MMAP_THRESHOLD), its bins and the order of
    every allocation and free, which no closed formula follows. So a copy of this process forked before
    any tensor existed (same libraries, same heap as a real run's start) receives each traced sequence of
    (allocate, size) and (free) and performs it with posix_memalign and free, without touching the memory,
    and reports the largest growth of glibc's own footprint (mallinfo2: heap arena plus mapped chunks).
    Each sequence is replayed in a fresh fork of that copy, so one never inherits another's heap.

    The tensors alone are not the whole stream: each autograd node a training step creates brings small
    objects that live until backward runs it (workers/tracer/autograd_nodes.py), and they decide how much of
    the freed memory glibc can reuse. Given the nodes' marks and `objects` (how many small objects a node
    of each kind holds and their sizes, measured from a real run's malloc stream: catalog/
    autograd_objects.toml), the replay allocates them with malloc where the node was created and frees them
    where backward released it.
    Linux with glibc 2.33 or later only; elsewhere `available` is False.
    """

    def __init__(self) -> None:
        self.available = False
        self.pid = 0
        if not sys.platform.startswith("linux") or not os.confstr("CS_GNU_LIBC_VERSION"):
            return
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        if not hasattr(libc, "mallinfo2"):
            return
        to_child, self._send = os.pipe()
        self._receive, from_child = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the copy: serve replays until the worker closes the pipe
            os.close(self._send)
            os.close(self._receive)
            code = 0
            try:
                self._serve(os.fdopen(to_child, "r"), os.fdopen(from_child, "w"))
            except BaseException:
                code = 1
            os._exit(code)
        os.close(to_child)
        os.close(from_child)
        self._requests = os.fdopen(self._send, "w")
        self._results = os.fdopen(self._receive, "r")
        self.available = True

    @staticmethod
    def _serve(requests: Any, results: Any) -> None:
        for request in requests:
            path, _, rest = request.rstrip("\n").rpartition("\t")
            reader, writer = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(reader)
                peak = MallocReplay._replay(path, int(rest))
                os.write(writer, f"{peak}\n".encode())
                os._exit(0)
            os.close(writer)
            with os.fdopen(reader) as answer:
                line = answer.readline().strip()
            os.waitpid(pid, 0)
            results.write((line or "-1") + "\n")
            results.flush()

    @staticmethod
    def _replay(path: str, top_rest: int) -> int:
        """The largest growth of the heap over the stream in `path`, after the top chunk is cut down to
        `top_rest` bytes (see TOP_RESTS; -1 leaves it as the fork found it)."""
        import ctypes

        libc = glibc()
        libc.posix_memalign.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_size_t]
        with open(path, encoding="utf-8") as handle:
            events = json.load(handle)
        # Addresses live in a preallocated array, not a growing dict: the replay itself must not call malloc.
        slots = (ctypes.c_void_p * (max((slot for slot, _, _ in events), default=0) + 1))()
        pointer = ctypes.c_void_p()
        mallinfo2 = libc.mallinfo2
        if top_rest >= 0:
            settle(libc.malloc, libc.free, mallinfo2, top_rest)
        info = mallinfo2()
        start = info.arena + info.hblkhd
        peak = 0
        for slot, size, kind in events:
            if size < 0:
                if slots[slot]:
                    libc.free(slots[slot])
                    slots[slot] = None
                continue
            if kind == SMALL:
                slots[slot] = libc.malloc(size)
                continue  # a small object never sets the peak: the next tensor's allocation reads it
            if libc.posix_memalign(ctypes.byref(pointer), 64, max(1, size)) != 0:
                return -1
            slots[slot] = pointer.value
            if kind == ALIGNED and size < KERNEL_PEAK_BYTES:
                continue  # nor does a kernel's small block
            info = mallinfo2()
            peak = max(peak, info.arena + info.hblkhd - start)
        return peak

    def close(self) -> None:
        """Let the copy go: it exits when its requests end."""
        if self.available:
            self.available = False
            self._requests.close()
            self._results.close()
            os.waitpid(self.pid, 0)

    def __enter__(self) -> MallocReplay:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def peak(
        self,
        events: list[tuple[int, int]],
        marks: Sequence[tuple[int, int, int]] = (),
        objects: Mapping[str, Any] | None = None,
        seed: int = 0,
        kernels: Sequence[tuple[int, str]] = (),
        top_rest: int = TOP_RESTS[0],
    ) -> int | None:
        """Largest heap growth for (key, size) allocations and (key, -1) frees, with the small objects of
        the autograd nodes `marks` places among them (see the class) in the order of sizes `seed` shuffles,
        and the blocks of the kernel calls `kernels` places (see with_small_objects), from a top chunk of
        `top_rest` bytes; None if unavailable."""
        return self.peaks(events, marks, objects, seed, kernels, (top_rest,))[0]

    def peaks(
        self,
        events: list[tuple[int, int]],
        marks: Sequence[tuple[int, int, int]],
        objects: Mapping[str, Any] | None,
        seed: int,
        kernels: Sequence[tuple[int, str]],
        top_rests: Sequence[int],
    ) -> list[int | None]:
        """peak() from each of `top_rests`, the stream built once."""
        return self.replays(with_small_objects(events, marks, objects, seed, kernels), top_rests)

    def replay(self, stream: Iterable[tuple[Any, int, int]], top_rest: int = TOP_RESTS[0]) -> int | None:
        """Largest heap growth for a stream of (key, size, TENSOR or SMALL) allocations and (key, -1, kind)
        frees, in order, from a top chunk of `top_rest` bytes (-1: as the fork found it); None if
        unavailable."""
        return self.replays(stream, (top_rest,))[0]

    def replays(self, stream: Iterable[tuple[Any, int, int]], top_rests: Sequence[int]) -> list[int | None]:
        """The same stream replayed from each of `top_rests` (see replay), each in a fresh fork; the stream is
        numbered and written once."""
        if not self.available:
            return [None for _ in top_rests]
        import tempfile

        slots: dict[Any, int] = {}
        free_slots: list[int] = []
        numbered = []
        next_slot = 0
        for key, size, kind in stream:  # a live block has a slot, then reused
            if key in slots:  # freed, or allocated again while live (its old block goes first)
                slot = slots.pop(key)
                free_slots.append(slot)
                numbered.append((slot, -1, kind))
            if size < 0:
                continue
            if free_slots:
                slot = free_slots.pop()
            else:
                slot, next_slot = next_slot, next_slot + 1
            slots[key] = slot
            numbered.append((slot, size, kind))
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
            json.dump(numbered, handle)
        answers = []
        try:
            for rest in top_rests:
                self._requests.write(f"{handle.name}\t{int(rest)}\n")
                self._requests.flush()
                answers.append(int(self._results.readline().strip() or -1))
        except (OSError, ValueError):
            answers += [-1] * (len(top_rests) - len(answers))
        finally:
            os.unlink(handle.name)
        return [answer if answer >= 0 else None for answer in answers]


def glibc() -> Any:
    """This process's C library, with malloc, free and mallinfo2 typed for calls through ctypes (mallinfo2's
    fields: glibc malloc/malloc.h, struct mallinfo2)."""
    import ctypes

    class MallInfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t)
            for name in (
                *("arena", "ordblks", "smblks", "hblks", "hblkhd"),
                *("usmblks", "fsmblks", "uordblks", "fordblks", "keepcost"),
            )
        ]

    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = MallInfo2
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    return libc


def settle(malloc: Any, free: Any, info: Any, rest: int) -> None:
    """Bring the heap to the same start in every process: take, and keep, every free chunk glibc holds (its
    bins, then its per-thread cache of small chunks), make sure the top chunk holds more than `rest` bytes
    (a block it cannot serve makes glibc grow the heap by its top pad, M_TOP_PAD, 128 KiB unless set), then
    cut the top down to `rest` bytes exactly; what serves the replay is then that top alone. `info()` reads
    mallinfo2 (fordblks: free bytes, top included; keepcost: the top chunk; arena and hblkhd: the heap's and
    the mmapped blocks' bytes). A block that did not come from a free chunk (the top shrank, the heap grew or it
    was mmapped) is handed back at once while the bins are taken. Bounded throughout: a heap it cannot settle
    (glibc tuned unlike its defaults) is replayed from where the cut stopped."""
    size = CUT
    for _ in range(65536):  # the bins' free chunks, largest requests first, down to the smallest chunk
        state = info()
        if int(state.fordblks) - int(state.keepcost) < MIN_CHUNK or size < 16:
            break
        block = malloc(size)
        after = info()
        if after.keepcost < state.keepcost or after.arena > state.arena or after.hblkhd > state.hblkhd:
            free(block)  # no free chunk of this size was left
            size //= 2
    # glibc's tcache: up to TCACHE_COUNT freed chunks of each size up to 1,032 bytes, served before any bin.
    for request in range(16, 1025, 16):
        for _ in range(TCACHE_COUNT):
            malloc(request)
    for _ in range(16):  # a top large enough to cut: blocks from it until the heap grows by its top pad
        if int(info().keepcost) >= rest + MIN_CHUNK:
            break
        malloc(CUT)
    for _ in range(4096):  # the cut, in chunks of CUT bytes, the last one to the byte
        state = info()
        left = int(state.keepcost) - rest
        if left < MIN_CHUNK:  # cut (0 left), or too little to take
            return
        malloc((CUT if left >= CUT + MIN_CHUNK else left) - 16)  # a request takes itself and 16 bytes more
        after = info()
        if after.arena > state.arena or after.hblkhd > state.hblkhd:  # not from the top: it cannot be cut
            return


def with_small_objects(
    events: list[tuple[int, int]],
    marks: Sequence[tuple[int, int, int]],
    objects: Mapping[str, Any] | None,
    seed: int = 0,
    kernels: Sequence[tuple[int, str]] = (),
) -> Iterator[tuple[Any, int, int]]:
    """The storage events as (key, size, TENSOR), each storage with its header blocks and each marked node
    with its small objects, as (key, size, SMALL), and at each of `kernels` (position, key: an operator's
    name, or a measured call's key after OPENS or CLOSES), the blocks that kernel allocates and frees for
    itself (`objects["kernels"][key]`, as kernel_blocks reads them), as (key, size, ALIGNED); a free is size
    -1. A storage's headers are allocated around it (the sizes `before` lists ahead of it, the rest after) and
    freed after it; a node's objects are allocated where it was created and freed where it was released. Each
    table gives how many blocks a storage (`per_storage`) or a node of its kind (`per_node`) has on average, a
    fraction carried to the next one, and the sizes drawn in a shuffled cycle that follows the measured shares
    (`seed` seeds the shuffle: which size lands where is not known, and it moves the heap's growth: see
    point.HEAP_DRAWS)."""
    tables = {"tensor": "per_storage", "plain": "per_node", "checkpointed": "per_node"}
    measured = {name: objects[name] for name in tables if objects and objects.get(name, {}).get("sizes")}
    cycles = {name: size_cycle(table["sizes"], seed=seed) for name, table in measured.items()}
    drawn = dict.fromkeys(measured, 0)
    owed = dict.fromkeys(measured, 0.0)
    ahead = {int(size) for size in measured.get("tensor", {}).get("before", ())}

    def draw(name: str) -> list[int]:
        """The sizes of the next storage's or node's blocks."""
        if name not in measured:
            return []
        before = owed[name]
        owed[name] += float(measured[name][tables[name]])
        sizes = []
        for _ in range(int(owed[name]) - int(before)):
            cycle = cycles[name]
            sizes.append(cycle[drawn[name] % len(cycle)])
            drawn[name] += 1
        return sizes

    held: dict[Any, list[Any]] = {}
    by_position: dict[int, list[tuple[int, int]]] = {}
    for position, serial, kind in marks:
        by_position.setdefault(position, []).append((serial, kind))
    kinds = {PLAIN: "plain", CHECKPOINTED: "checkpointed"}
    scripts = (objects or {}).get("kernels") or {}
    ran: dict[int, list[str]] = {}
    for position, name in kernels:
        if name.removeprefix(OPENS).removeprefix(CLOSES) in scripts:
            ran.setdefault(position, []).append(name)
    opened: dict[str, Any] = {}  # a measured call's key -> the owner of the blocks its first part allocated

    def kernel_part(owner: Any, name: str) -> Iterator[tuple[Any, int, int]]:
        """A kernel call's blocks, or the part of them a measured call's mark stands for (see OPENS)."""
        key = name.removeprefix(OPENS).removeprefix(CLOSES)
        script = scripts[key]
        cut = script.index(0) if 0 in script else len(script)
        if name.startswith(OPENS):
            opened[key] = owner
            return kernel_blocks(owner, script[:cut])
        if name.startswith(CLOSES):
            first = opened.pop(key, owner)
            return kernel_blocks(first, script[cut + 1 :], sum(step > 0 for step in script[:cut]))
        return kernel_blocks(owner, script)

    def at(position: int) -> Iterator[tuple[Any, int, int]]:
        # A kernel runs after the node its call creates and before backward releases the node that ran it: its
        # blocks go before the first release marked here.
        calls = [kernel_part(("kernel", position, call), name) for call, name in enumerate(ran.get(position, ()))]
        for serial, kind in by_position.get(position, ()):
            node = ("node", serial)
            if kind == 0:
                for performed in calls:
                    yield from performed
                calls = []
                for key in held.pop(node, ()):
                    yield key, -1, SMALL
                continue
            blocks = [((node, index), size) for index, size in enumerate(draw(kinds.get(kind, "")))]
            held[node] = [key for key, _ in blocks]
            for key, size in blocks:
                yield key, size, SMALL
        for performed in calls:
            yield from performed

    for position, (key, size) in enumerate(events):
        yield from at(position)
        if size < 0:
            yield key, size, TENSOR
            for header in held.pop(("tensor", key), ()):
                yield header, -1, SMALL
            continue
        if ("tensor", key) in held:  # a storage resized without its free: its old headers go with it
            for header in held.pop(("tensor", key)):
                yield header, -1, SMALL
        headers = [(("tensor", key), index, header_size) for index, header_size in enumerate(draw("tensor"))]
        held[("tensor", key)] = [(owner, index) for owner, index, _ in headers]
        for owner, index, header_size in headers:
            if header_size in ahead:
                yield (owner, index), header_size, SMALL
        yield key, size, TENSOR
        for owner, index, header_size in headers:
            if header_size not in ahead:
                yield (owner, index), header_size, SMALL
    yield from at(len(events))


def kernel_blocks(owner: Any, script: Sequence[int], allocated: int = 0) -> Iterator[tuple[Any, int, int]]:
    """One kernel call's own blocks as (key, size, ALIGNED) and (key, -1, ALIGNED): in `script` a positive
    number allocates a block of that many bytes, -n frees the n-th block the call allocated (counted from 1;
    `allocated` blocks were allocated before this part of the script)."""
    for step in script:
        if step > 0:
            allocated += 1
            yield (owner, allocated), int(step), ALIGNED
        else:
            yield (owner, -int(step)), -1, ALIGNED


def size_cycle(sizes: list[list[float]], length: int = 1000, seed: int = 0) -> list[int]:
    """`length` object sizes in an order shuffled by `seed`, each size as often as its share says."""
    total = sum(share for _, share in sizes) or 1.0
    cycle = [int(size) for size, share in sizes for _ in range(max(1, round(length * share / total)))]
    random.Random(seed).shuffle(cycle)
    return cycle
