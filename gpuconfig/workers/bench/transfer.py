"""Bytes moved: device memory bandwidth, and copies between host and device."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from torch import Tensor

from .events import Events
from .load import CpuLoad
from .timing import MIB, Run, rates, release_memory, seconds_per_call

# Buffers at least 8x the last-level cache, so the copy is not served from cache
# (mli/transformers-benchmarks#4 read 3868 GB/s "bandwidth" on a 1008 GB/s RTX 4090 from L2).
CACHE_MULTIPLE = 8


def memory_bandwidth(run: Run, events: Events) -> None:
    """Copy between two buffers far larger than the last-level cache; a copy moves 2x its size (read + write)."""
    cache, source = _last_level_cache(run.device)
    floor = 1024 * MIB if run.cuda else 256 * MIB
    size = max(CACHE_MULTIPLE * cache, floor) if cache else floor
    limit = _memory_for_buffers(run.device)
    capped = size > limit
    size = min(size, limit) // MIB * MIB
    src = torch.empty(size, dtype=torch.uint8, device=run.device).fill_(1)
    dst = torch.empty_like(src).fill_(0)  # its pages mapped now: a first copy into fresh pages is page faults
    # Setting up buffers 8x a large last-level cache (480 MiB on some Xeons: 3.75 GiB each, seconds of page
    # faults) would use up the box: the copies are timed in a box of their own, as the training benchmarks time
    # theirs after building their models.
    box = run.box.again()
    with CpuLoad() as load:
        seconds, calls = seconds_per_call(lambda: dst.copy_(src), run.device, box)
    detail: dict[str, Any] = {
        "buffer_bytes": size,
        "cache_bytes": cache,
        "cache_source": source,
        "calls": calls,
        "counts": "read + write: 2 x buffer bytes per copy",
    }
    if capped:
        detail["capped"] = f"{CACHE_MULTIPLE}x the cache does not fit in free memory; used {size // MIB} MiB"
    events.result("", rates(2 * size / 1e9, seconds), load=load.record(), **detail)


def _last_level_cache(device: torch.device) -> tuple[int, str]:
    if device.type == "cuda":
        size = int(getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 0) or 0)
        return size, "torch.cuda.get_device_properties().L2_cache_size"
    best = (0, 0, "cache size unreadable")
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            if (index / "type").read_text().strip() == "Instruction":
                continue
            level = int((index / "level").read_text())
            size = _parse_size((index / "size").read_text().strip())
        except (OSError, ValueError):
            continue
        if (level, size) > best[:2]:
            best = (level, size, f"{index}/size (level {level})")
    return best[1], best[2]


def _parse_size(text: str) -> int:
    units = {"K": 2**10, "M": 2**20, "G": 2**30}
    return int(text[:-1]) * units[text[-1].upper()] if text[-1:].upper() in units else int(text)


def _memory_for_buffers(device: torch.device) -> int:
    """At most a quarter of the free memory per buffer, so the two buffers leave the machine usable."""
    if device.type == "cuda":
        free, _ = torch.cuda.mem_get_info(device)
        return int(free) // 4
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            fields = dict(line.split(":", 1) for line in info)
        return int(fields["MemAvailable"].split()[0]) * 1024 // 4
    except (OSError, KeyError, ValueError):
        return 2048 * MIB


# --- host <-> device ------------------------------------------------------------------------------------


def h2d_bandwidth(run: Run, events: Events) -> None:
    _host_device(run, events, to_device=True)


def d2h_bandwidth(run: Run, events: Events) -> None:
    _host_device(run, events, to_device=False)


def _host_device(run: Run, events: Events, to_device: bool) -> None:
    if not run.cuda:
        events.skipped("no CUDA device: host-device copies need a GPU")
        return
    size = run.pick(0, 0, 256 * MIB, 1024 * MIB)
    gpu = torch.empty(size, dtype=torch.uint8, device=run.device).fill_(1)
    for index, variant in enumerate(("pinned", "pageable")):
        try:
            host = torch.empty(size, dtype=torch.uint8, pin_memory=variant == "pinned").fill_(1)

            def copy(host: Tensor = host) -> None:
                if to_device:
                    gpu.copy_(host, non_blocking=True)
                else:
                    host.copy_(gpu, non_blocking=True)

            with CpuLoad() as load:
                seconds, calls = seconds_per_call(copy, run.device, run.box.share(2 - index))
            events.result(
                "", rates(size / 1e9, seconds), variant, load.record(), buffer_bytes=size, calls=calls,
                counts="one direction",
            )  # fmt: skip
            del host
        except Exception as exc:
            events.error(exc, variant=variant)
        release_memory(run.device)
