"""Feeding a model: DataLoader throughput against num_workers, and sequential disk read."""

from __future__ import annotations

import os
import tempfile
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

import torch
import torch.multiprocessing as torch_mp
import torch.nn.functional as F
from torch import Tensor
from torch.utils.data import DataLoader, Dataset

from .events import Events
from .load import CpuLoad
from .timing import MIB, TARGET_SAMPLES, Box, Run, enough, synchronize


class SyntheticImages(Dataset[tuple[Tensor, int]]):
    """Images made the way a loader makes them: decompressed (zlib, as a PNG decoder does), resized, cropped,
    flipped and normalised. The compressed images are made once; each item decodes and transforms one."""

    def __init__(self, items: int, stored: int = 256, side: int = 192) -> None:
        self.items = items
        self.stored = stored
        self.side = side
        generator = torch.Generator().manual_seed(0)
        self.files = []
        for _ in range(8):
            coarse = torch.rand(3, stored // 8, stored // 8, generator=generator)
            image = F.interpolate(coarse[None], size=(stored, stored), mode="bilinear", align_corners=False)[0]
            noise = torch.randint(0, 8, image.shape, generator=generator)
            pixels = (image * 247).to(torch.uint8) + noise.to(torch.uint8)  # smooth, with grain: compresses ~2x
            self.files.append(zlib.compress(pixels.numpy().tobytes(), 6))

    def __len__(self) -> int:
        return self.items

    def __getitem__(self, index: int) -> tuple[Tensor, int]:
        data = bytearray(zlib.decompress(self.files[index % len(self.files)]))
        raw = torch.frombuffer(data, dtype=torch.uint8).reshape(3, self.stored, self.stored)
        size = self.side + 32
        image = F.interpolate(raw[None].float(), size=(size, size), mode="bilinear", align_corners=False)[0]
        top, left = index % 32, (7 * index) % 32
        image = image[:, top : top + self.side, left : left + self.side]
        if index % 2:
            image = image.flip(2)
        image = (image / 255 - 0.45) / 0.225
        return image.contiguous(), index % 10


def dataloader(run: Run, events: Events) -> None:
    """Samples per second a DataLoader delivers once its workers run: the batches after the first, in
    windows that fill a share of the box (each window a sample); starting the workers and the first batch
    is said apart."""
    workers: tuple[int, ...] = run.pick((0, 2), (0, 2, 4))
    batch = 32
    dataset = SyntheticImages(100_000)  # more than a box can read: the loop stops at the box
    for index, count in enumerate(workers):
        variant = f"num_workers={count}"
        box = run.box.share(len(workers) - index)
        try:
            loader = DataLoader(dataset, batch_size=batch, num_workers=count, pin_memory=run.cuda, shuffle=False)
            with CpuLoad() as load:
                began = time.perf_counter()
                batches = iter(loader)
                next(batches)[0].to(run.device, non_blocking=True)
                synchronize(run.device)
                first = time.perf_counter() - began
                seconds, per_window = _windows(batches, run, box)
                del batches  # stops the workers
            events.result(
                "",
                [per_window * batch / s for s in seconds],
                variant,
                load.record(),
                batch=batch,
                batches_per_sample=per_window,
                items=(1 + per_window * (1 + len(seconds))) * batch,  # the first, the sizing window, the samples
                item_shape=[3, dataset.side, dataset.side],
                first_batch_s=round(first, 4),
                start_method=torch_mp.get_start_method(allow_none=True) or "default",
                excludes="starting the workers and the first batch (first_batch_s)",
            )
        except Exception as exc:
            events.error(exc, variant=variant)


def _windows(batches: Iterator[tuple[Tensor, Tensor]], run: Run, box: Box) -> tuple[list[float], int]:
    """Seconds of each window of batches, and the batches per window. The window is sized by taking batches
    for one window's time (the workers' prefetched batches come at once, so one batch cannot say it); that
    first window is not a sample."""

    def take() -> None:
        images, _ = next(batches)
        images.to(run.device, non_blocking=True)

    window_s = max(box.left(), 0.0) / (TARGET_SAMPLES + 1)
    per_window = 0
    began = time.perf_counter()
    while not per_window or time.perf_counter() - began < window_s:
        take()
        per_window += 1
    seconds: list[float] = []
    while not seconds or not enough(len(seconds), box, seconds[-1]):
        began = time.perf_counter()
        for _ in range(per_window):
            take()
        synchronize(run.device)
        seconds.append(time.perf_counter() - began)
    return seconds, per_window


def disk_read(run: Run, events: Events) -> None:
    """Write a file, then read it back in 8 MiB sequential reads, dropping it from the page cache before
    each read; each read is a sample, until the box is spent."""
    size = int(run.request.get("disk_bytes") or run.pick(64 * MIB, 256 * MIB))
    folder = Path(run.request.get("disk_dir") or tempfile.gettempdir())
    mount, source, fstype = _mount_of(folder)
    events.device = source or "disk"
    chunk = os.urandom(8 * MIB)
    handle, name = tempfile.mkstemp(prefix="gpuconfig-probe-", dir=folder)
    path = Path(name)
    samples: list[float] = []
    try:
        began = time.perf_counter()
        with os.fdopen(handle, "wb", buffering=0) as out:
            written = 0
            while written < size:
                written += out.write(chunk[: min(len(chunk), size - written)])
            os.fsync(out.fileno())
        write_s = time.perf_counter() - began
        buffer = bytearray(8 * MIB)
        with CpuLoad() as load:
            while not samples or not enough(len(samples), run.box, size / samples[-1] / 1e6):
                dropped, how = _drop_from_cache(path, fstype)
                began = time.perf_counter()
                with open(path, "rb", buffering=0) as source_file:
                    read = 0
                    while got := source_file.readinto(buffer):
                        read += got
                samples.append(read / (time.perf_counter() - began) / 1e6)
    finally:
        path.unlink(missing_ok=True)
    events.result(
        "",
        samples,
        load=load.record(),
        file_bytes=read,
        folder=str(folder),
        mount=mount,
        filesystem=fstype,
        cache_dropped=dropped,
        cache=how,
        write_mbs=round(size / write_s / 1e6, 1),
        read_size_bytes=len(buffer),
    )


def _drop_from_cache(path: Path, fstype: str) -> tuple[bool, str]:
    if fstype in ("tmpfs", "ramfs"):
        return False, f"{fstype}: the file lives in memory, so this is a memory figure, not a disk one"
    if not hasattr(os, "posix_fadvise"):
        return False, "this OS has no posix_fadvise: the read may come from the page cache"
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    except OSError as exc:
        return False, f"posix_fadvise(POSIX_FADV_DONTNEED) failed: {exc}"
    finally:
        os.close(fd)
    return True, "dropped with posix_fadvise(POSIX_FADV_DONTNEED) after fsync"


def _mount_of(folder: Path) -> tuple[str, str, str]:
    """The mount point, its source device and filesystem type that hold `folder` (from /proc/mounts)."""
    target = str(folder.resolve())
    best = ("", "", "")
    try:
        with open("/proc/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                parts = line.split()
                if len(parts) < 3:
                    continue
                source, point, fstype = parts[0], parts[1].replace("\\040", " "), parts[2]
                inside = target == point or target.startswith(point.rstrip("/") + "/")
                if inside and len(point) >= len(best[0]):
                    best = (point, source, fstype)
    except OSError:
        pass
    return best
