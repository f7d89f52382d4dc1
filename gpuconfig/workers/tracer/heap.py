"""The heap a real run grows on the CPU, found by replaying the traced allocations through malloc."""

from __future__ import annotations

import json
import os
import sys
from typing import Any


class MallocReplay:
    """The heap a real run grows, found by replaying the traced allocations through this system's malloc.

    PyTorch's CPU tensors come from malloc (64-byte aligned), and glibc keeps freed memory for reuse: how
    much depends on its dynamic mmap threshold (mallopt(3), M_MMAP_THRESHOLD), its bins and the order of
    every allocation and free, which no closed formula follows. So a copy of this process forked before
    any tensor existed (same libraries, same heap as a real run's start) receives each traced sequence of
    (allocate, size) and (free) and performs it with posix_memalign and free, without touching the memory,
    and reports the largest growth of glibc's own footprint (mallinfo2: heap arena plus mapped chunks).
    Each sequence is replayed in a fresh fork of that copy, so one never inherits another's heap.
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
        for path in requests:
            reader, writer = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(reader)
                peak = MallocReplay._replay(path.strip())
                os.write(writer, f"{peak}\n".encode())
                os._exit(0)
            os.close(writer)
            with os.fdopen(reader) as answer:
                line = answer.readline().strip()
            os.waitpid(pid, 0)
            results.write((line or "-1") + "\n")
            results.flush()

    @staticmethod
    def _replay(path: str) -> int:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")

        class MallInfo2(ctypes.Structure):
            _fields_ = [
                (name, ctypes.c_size_t)
                for name in (
                    *("arena", "ordblks", "smblks", "hblks", "hblkhd"),
                    *("usmblks", "fsmblks", "uordblks", "fordblks", "keepcost"),
                )
            ]

        libc.mallinfo2.restype = MallInfo2
        libc.posix_memalign.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t, ctypes.c_size_t]
        libc.free.argtypes = [ctypes.c_void_p]
        with open(path, encoding="utf-8") as handle:
            events = json.load(handle)
        # Addresses live in a preallocated array, not a growing dict: the replay itself must not call malloc.
        slots = (ctypes.c_void_p * (max((slot for slot, _ in events), default=0) + 1))()
        pointer = ctypes.c_void_p()
        mallinfo2 = libc.mallinfo2
        info = mallinfo2()
        start = info.arena + info.hblkhd
        peak = 0
        for slot, size in events:
            if size < 0:
                if slots[slot]:
                    libc.free(slots[slot])
                    slots[slot] = None
                continue
            if libc.posix_memalign(ctypes.byref(pointer), 64, max(1, size)) != 0:
                return -1
            slots[slot] = pointer.value
            info = mallinfo2()
            peak = max(peak, info.arena + info.hblkhd - start)
        return peak

    def peak(self, events: list[tuple[int, int]]) -> int | None:
        """Largest heap growth for (key, size) allocations and (key, -1) frees; None if unavailable."""
        if not self.available:
            return None
        import tempfile

        slots: dict[int, int] = {}
        free_slots: list[int] = []
        numbered = []
        for key, size in events:  # each live storage gets a slot; a freed slot is reused
            if size < 0:
                if key in slots:
                    slot = slots.pop(key)
                    free_slots.append(slot)
                    numbered.append((slot, -1))
                continue
            slot = free_slots.pop() if free_slots else len(slots) + len(free_slots)
            slots[key] = slot
            numbered.append((slot, size))
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as handle:
            json.dump(numbered, handle)
        try:
            self._requests.write(handle.name + "\n")
            self._requests.flush()
            answer = int(self._results.readline().strip() or -1)
        except (OSError, ValueError):
            answer = -1
        finally:
            os.unlink(handle.name)
        return answer if answer >= 0 else None
