"""Measure this machine through PyTorch: the probe's benchmark suite, run as a script in a worker process.

Run as `python worker.py` in whichever Python the user chose (it needs only torch and imports nothing from
gpuconfig). It reads one JSON request on stdin and writes JSON lines on stdout:

    {"suite": "quick" | "full", "only": [names] | null, "device": null (every GPU in turn, or the CPU) | "cuda:1",
     "disk_bytes": optional, "disk_dir": optional, "plan_only": optional}

    {"event": "plan", "suite": "quick", "benchmarks": ["matmul", ...]}        before torch is imported
    {"event": "torch", "version": ..., "cuda": ..., "devices": [...], ...}  or {"event": "torch", "unavailable": why}
    {"event": "start", "name", "index", "total", "what", "device", "unit"}    per device for one GPU's figures
    {"event": "result", "name", "dtype", "device", "value", "unit", "variant", "detail"}   one or more
    {"event": "skipped", "name", "dtype", "device", "unit", "reason"}      a figure this device cannot give
    {"event": "error", "name", "dtype", "device", "unit", "message"}       a figure that raised; the suite goes on
    {"event": "done", "name"}

Every benchmark has a CPU path, so the whole suite runs on a machine without a GPU. Figures are timed with
time.perf_counter around loops of calls sized to a time budget; on a GPU each loop (and its warm-up) ends in
torch.cuda.synchronize, so the time covers the kernels, not just their launch.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import traceback
import weakref
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO, Any

# What each benchmark measures, in its unit, in suite order.
BENCHMARKS: dict[str, tuple[str, str]] = {
    "matmul": ("Matrix multiply throughput per precision", "TFLOP/s"),
    "memory_bandwidth": ("Device memory bandwidth (copy of buffers 8x the last-level cache)", "GB/s"),
    "h2d_bandwidth": ("Host-to-device copy bandwidth, pinned and pageable", "GB/s"),
    "d2h_bandwidth": ("Device-to-host copy bandwidth, pinned and pageable", "GB/s"),
    "train_cnn": ("Training step of a small CNN, with and without AMP and checkpointing", "samples/s"),
    "train_transformer": ("Training step of a small transformer, with and without AMP and checkpointing", "samples/s"),
    "train_from_host": (
        "Training step with its batch copied from host memory, against one already on the device",
        "samples/s",
    ),
    "dataloader": ("DataLoader throughput against num_workers", "samples/s"),
    "disk_read": ("Disk sequential read of a file not in the page cache", "MB/s"),
    "allreduce": ("All-reduce bus bandwidth between ranks started by torchrun", "GB/s"),
}
SUITES: dict[str, tuple[str, ...]] = {
    "quick": tuple(name for name in BENCHMARKS if name != "allreduce"),
    "full": tuple(BENCHMARKS),
}
MIB = 2**20
# Buffers at least 8x the last-level cache, so the copy is not served from cache
# (mli/transformers-benchmarks#4 read 3868 GB/s "bandwidth" on a 1008 GB/s RTX 4090 from L2).
CACHE_MULTIPLE = 8


class Events:
    """The JSON-lines channel to the runner: stdout as it was when the worker started."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.name = ""
        self.device = "cpu"

    def emit(self, event: dict[str, Any]) -> None:
        self.stream.write(json.dumps(event, default=str) + "\n")
        self.stream.flush()

    def result(self, dtype: str, value: float, variant: str = "", **detail: Any) -> None:
        self.emit(
            {
                "event": "result",
                "name": self.name,
                "dtype": dtype,
                "device": self.device,
                "value": round(value, 6),
                "unit": BENCHMARKS[self.name][1],
                "variant": variant,
                "detail": detail,
            }
        )

    def skipped(self, reason: str, dtype: str = "", variant: str = "") -> None:
        self.emit({**self._about("skipped", dtype, variant), "reason": reason})

    def error(self, exc: BaseException, dtype: str = "", variant: str = "") -> None:
        self.emit({**self._about("error", dtype, variant), "message": describe(exc)})
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)

    def _about(self, kind: str, dtype: str, variant: str) -> dict[str, Any]:
        unit = BENCHMARKS[self.name][1] if self.name in BENCHMARKS else ""
        about = {"event": kind, "name": self.name, "dtype": dtype, "device": self.device}
        return {**about, "unit": unit, "variant": variant}


def describe(exc: BaseException) -> str:
    """One line for a failure; allocation failures say "out of memory" first."""
    text = f"{type(exc).__name__}: {exc}".strip().splitlines()[0][:400]
    lowered = text.lower()
    if isinstance(exc, MemoryError) or "out of memory" in lowered or "can't allocate memory" in lowered:
        return text if text.lower().startswith("out of memory") else f"out of memory: {text}"
    return text


def plan(suite: str, only: list[str] | None) -> list[str]:
    """The benchmarks to run in order: the suite's, or only those named (unknown names kept, to fail)."""
    if only is None:
        return list(SUITES.get(suite, SUITES["quick"]))
    return [name for name in BENCHMARKS if name in only] + [name for name in only if name not in BENCHMARKS]


def read_request(events: Events) -> dict[str, Any]:
    """Read the request and announce the plan: before torch is imported, so a Python without it still answers."""
    request: dict[str, Any] = json.loads(sys.stdin.read() or "{}")
    suite = str(request.get("suite") or "quick")
    events.emit({"event": "plan", "suite": suite, "benchmarks": plan(suite, request.get("only"))})
    return request


# Set for the ranks torchrun starts for the all-reduce benchmark: they run `allreduce_rank`, not the suite.
RANK_ARGUMENTS = "GPUCONFIG_ALLREDUCE"

if __name__ == "__main__" and not os.environ.get(RANK_ARGUMENTS):
    # Events go to the real stdout; anything else printing (libraries, C code, child processes) goes to stderr.
    EVENTS = Events(os.fdopen(os.dup(1), "w", encoding="utf-8"))
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    REQUEST = read_request(EVENTS)
    if REQUEST.get("plan_only"):
        sys.exit(0)

try:
    import torch
    import torch.distributed as dist
    import torch.multiprocessing as torch_mp
    import torch.nn.functional as F
    from torch import Tensor, nn
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves
    from torch.utils.checkpoint import checkpoint
    from torch.utils.data import DataLoader, Dataset
except Exception as exc:  # ImportError, or a broken install raising OSError or RuntimeError
    if __name__ != "__main__" or os.environ.get(RANK_ARGUMENTS):
        raise
    reason = f"{type(exc).__name__}: {exc}".strip().splitlines()[0]
    EVENTS.emit({"event": "torch", "unavailable": f"no torch in {sys.executable}: {reason}"})
    sys.exit(0)


@dataclass(frozen=True)
class Run:
    """What one worker was asked to do, and where."""

    suite: str
    device: torch.device
    request: dict[str, Any]

    @property
    def quick(self) -> bool:
        return self.suite == "quick"

    @property
    def cuda(self) -> bool:
        return self.device.type == "cuda"

    def pick(self, quick: Any, full: Any, gpu_quick: Any = None, gpu_full: Any = None) -> Any:
        """The setting for this suite on this device (GPU settings default to the CPU ones)."""
        if self.cuda:
            chosen = gpu_quick if self.quick else gpu_full
            if chosen is not None:
                return chosen
        return quick if self.quick else full


def release_memory(device: torch.device) -> None:
    """Give freed memory back, so the next figure's peak starts from what is really in use."""
    gc.collect()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        torch.cuda.empty_cache()
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)  # glibc keeps freed heap pages otherwise


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def best_seconds_per_call(
    call: Callable[[], object], device: torch.device, budget_s: float, repeats: int = 3
) -> tuple[float, int]:
    """The fastest of `repeats` timed loops, in seconds per call, after a warm-up; and the calls per loop.

    The loop length is sized from a timed warm-up call so that all loops together take about `budget_s`.
    """
    call()
    synchronize(device)
    began = time.perf_counter()
    call()
    synchronize(device)
    one = max(time.perf_counter() - began, 1e-7)
    calls = max(1, int(budget_s / repeats / one))
    best = math.inf
    for _ in range(repeats):
        began = time.perf_counter()
        for _ in range(calls):
            call()
        synchronize(device)
        best = min(best, (time.perf_counter() - began) / calls)
    return best, calls


# --- matmul ---------------------------------------------------------------------------------------------

MATMUL_DTYPES = ("fp32", "tf32", "fp16", "bf16", "fp8")


def matmul(run: Run, events: Events) -> None:
    """Dense square matmul, best of several sizes (as ml-engineering's MAMF and torch-performance-test-data do)."""
    sizes: tuple[int, ...] = run.pick((1024, 2048), (1024, 2048, 4096), (4096, 8192), (4096, 8192, 16384))
    budget_s: float = run.pick(0.5, 1.5, 0.3, 1.0)
    for dtype in MATMUL_DTYPES:
        why_not = _matmul_unsupported(run, dtype)
        if why_not:
            events.skipped(why_not, dtype)
            continue
        try:
            per_size = {}
            for n in sizes:
                call = _matmul_call(run.device, dtype, n)
                # Five short loops: a shared or throttling machine has fast and slow moments; the best is the part's.
                seconds, calls = best_seconds_per_call(call, run.device, budget_s, repeats=5)
                per_size[n] = (2 * n**3 / seconds / 1e12, calls)
                del call
                release_memory(run.device)
            best = max(per_size, key=lambda n: per_size[n][0])
            events.result(
                dtype,
                per_size[best][0],
                n=best,
                calls=per_size[best][1],
                tflops_by_size={str(n): round(v, 4) for n, (v, _) in per_size.items()},
                flops_per_call="2*n^3",
            )
        except Exception as exc:
            events.error(exc, dtype)
            release_memory(run.device)
        finally:
            torch.set_float32_matmul_precision("highest")


def _matmul_unsupported(run: Run, dtype: str) -> str:
    if not run.cuda:
        if dtype == "tf32":
            return "TF32 is a tensor-core format of NVIDIA GPUs; CPUs multiply fp32 in full precision"
        if dtype == "fp8":
            return "no fp8 matmul kernels for CPUs in PyTorch"
        if dtype == "fp16":
            return _cpu_fp16_too_slow()
        return ""
    major, minor = torch.cuda.get_device_capability(run.device)
    if dtype == "tf32" and (torch.version.hip or major < 8):
        return "TF32 needs an NVIDIA GPU of compute capability 8.0 (Ampere) or newer"
    if dtype == "bf16" and not torch.cuda.is_bf16_supported():
        return "this GPU has no bf16 matmul"
    if dtype == "fp8" and (torch.version.hip or (major, minor) < (8, 9) or not hasattr(torch, "_scaled_mm")):
        return "fp8 matmul needs an NVIDIA GPU of compute capability 8.9 (Ada) or newer"
    return ""


def _cpu_fp16_too_slow() -> str:
    """Run fp16 on a CPU only where it is fast: many CPUs emulate it, far slower than fp32."""
    n = 512
    speed = {}
    for dtype in (torch.float32, torch.float16):
        a, b = torch.randn(n, n, dtype=dtype), torch.randn(n, n, dtype=dtype)
        seconds, _ = best_seconds_per_call(partial(torch.matmul, a, b), torch.device("cpu"), 0.05)
        speed[dtype] = 1 / seconds
    ratio = speed[torch.float16] / speed[torch.float32]
    if ratio < 0.5:
        return f"fp16 matmul on this CPU runs at {ratio:.2f}x fp32 (emulated, no native fp16 kernels)"
    return ""


def _matmul_call(device: torch.device, dtype: str, n: int) -> Callable[[], object]:
    torch.set_float32_matmul_precision("high" if dtype == "tf32" else "highest")
    if dtype == "fp8":
        a = torch.randn(n, n, device=device).to(torch.float8_e4m3fn)
        b = torch.randn(n, n, device=device).to(torch.float8_e4m3fn).t()  # _scaled_mm wants b column-major
        scale = torch.ones((), device=device)
        return lambda: torch._scaled_mm(a, b, scale_a=scale, scale_b=scale, out_dtype=torch.bfloat16)
    kind = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[dtype]
    a = torch.randn(n, n, device=device, dtype=kind)
    b = torch.randn(n, n, device=device, dtype=kind)
    out = torch.empty(n, n, device=device, dtype=kind)
    return lambda: torch.matmul(a, b, out=out)


# --- memory bandwidth -----------------------------------------------------------------------------------


def memory_bandwidth(run: Run, events: Events) -> None:
    """Copy between two buffers far larger than the last-level cache; a copy moves 2x its size (read + write)."""
    cache, source = _last_level_cache(run.device)
    floor = 1024 * MIB if run.cuda else 256 * MIB
    size = max(CACHE_MULTIPLE * cache, floor) if cache else floor
    limit = _memory_for_buffers(run.device)
    capped = size > limit
    size = min(size, limit) // MIB * MIB
    src = torch.empty(size, dtype=torch.uint8, device=run.device).fill_(1)
    dst = torch.empty_like(src)
    seconds, calls = best_seconds_per_call(lambda: dst.copy_(src), run.device, run.pick(0.6, 2.0, 0.3, 1.0))
    detail: dict[str, Any] = {
        "buffer_bytes": size,
        "cache_bytes": cache,
        "cache_source": source,
        "calls": calls,
        "counts": "read + write: 2 x buffer bytes per copy",
    }
    if capped:
        detail["capped"] = f"{CACHE_MULTIPLE}x the cache does not fit in free memory; used {size // MIB} MiB"
    events.result("", 2 * size / seconds / 1e9, **detail)


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
    for variant in ("pinned", "pageable"):
        try:
            host = torch.empty(size, dtype=torch.uint8, pin_memory=variant == "pinned").fill_(1)

            def copy(host: Tensor = host) -> None:
                if to_device:
                    gpu.copy_(host, non_blocking=True)
                else:
                    host.copy_(gpu, non_blocking=True)

            seconds, calls = best_seconds_per_call(copy, run.device, run.pick(0, 0, 0.5, 2.0))
            events.result("", size / seconds / 1e9, variant, buffer_bytes=size, calls=calls, counts="one direction")
            del host
        except Exception as exc:
            events.error(exc, variant=variant)
        release_memory(run.device)


# --- training steps -------------------------------------------------------------------------------------


class ConvBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
            nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True),
        )

    def forward(self, x: Tensor) -> Tensor:
        out: Tensor = self.layers(x)
        return out


class SmallCNN(nn.Module):
    """A CIFAR-sized convolutional classifier: two stages of three blocks (two 3x3 convolutions each), pooled,
    one linear head. Each block is one checkpointed segment."""

    def __init__(self, width: int, classes: int, checkpointing: bool) -> None:
        super().__init__()
        shapes = [(3, width, 1), (width, width, 1), (width, width, 1)]
        shapes += [(width, 2 * width, 2), (2 * width, 2 * width, 1), (2 * width, 2 * width, 1)]
        self.blocks = nn.ModuleList(ConvBlock(cin, cout, stride) for cin, cout, stride in shapes)
        self.head = nn.Linear(2 * width, classes)
        self.checkpointing = checkpointing

    def forward(self, x: Tensor) -> Tensor:
        for block in self.blocks:
            x = _maybe_checkpoint(block, x, self.checkpointing)
        out: Tensor = self.head(x.mean((2, 3)))
        return out


class SmallTransformer(nn.Module):
    """A pre-norm transformer language model built from torch.nn.TransformerEncoderLayer."""

    def __init__(self, vocab: int, width: int, layers: int, heads: int, length: int, checkpointing: bool) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.position = nn.Parameter(torch.zeros(length, width))
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(width, heads, 4 * width, dropout=0.0, batch_first=True, norm_first=True)
            for _ in range(layers)
        )
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)
        self.checkpointing = checkpointing

    def forward(self, tokens: Tensor) -> Tensor:
        x = self.embed(tokens) + self.position
        for layer in self.layers:
            x = _maybe_checkpoint(layer, x, self.checkpointing)
        out: Tensor = self.head(self.norm(x))
        return out


def _maybe_checkpoint(module: nn.Module, x: Tensor, enabled: bool) -> Tensor:
    out: Tensor = checkpoint(module, x, use_reentrant=False) if enabled else module(x)
    return out


@dataclass(frozen=True)
class Model:
    """A model to train, its batch and how to build it, on one device."""

    build: Callable[[bool], nn.Module]
    batch: Callable[[], tuple[Tensor, Tensor]]
    batch_size: int
    describe: dict[str, Any]


def train_cnn(run: Run, events: Events) -> None:
    width, batch, image = run.pick((16, 32, 32), (32, 64, 32), (64, 256, 32), (64, 256, 64))

    def data() -> tuple[Tensor, Tensor]:
        x = torch.randn(batch, 3, image, image, device=run.device)
        return x, torch.randint(0, 10, (batch,), device=run.device)

    model = Model(lambda ckpt: SmallCNN(width, 10, ckpt), data, batch, {"width": width, "image": image})
    _training(run, events, model)


def train_transformer(run: Run, events: Events) -> None:
    width, layers, length, batch = run.pick((128, 2, 128, 8), (128, 4, 256, 8), (512, 4, 512, 16), (768, 6, 512, 32))
    vocab: int = run.pick(1024, 1024, 8192, 8192)  # small enough that the logits do not outweigh the layers

    def data() -> tuple[Tensor, Tensor]:
        tokens = torch.randint(0, vocab, (batch, length + 1), device=run.device)
        return tokens[:, :-1], tokens[:, 1:]

    describe = {"width": width, "layers": layers, "length": length, "vocab": vocab}
    model = Model(lambda ckpt: SmallTransformer(vocab, width, layers, 8, length, ckpt), data, batch, describe)
    _training(run, events, model)


def _training(run: Run, events: Events, model: Model) -> None:
    """Throughput and peak memory of full steps (forward, loss, backward, AdamW), AMP and checkpointing on/off."""
    amp_name = "bf16" if _amp_dtype(run) == torch.bfloat16 else "fp16"
    budget_s: float = run.pick(0.5, 2.0, 0.5, 2.0)
    with contextlib.suppress(Exception):  # first-use costs (oneDNN primitives, cuBLAS handles) out of the figures
        _steps(run, model, amp=False, checkpointing=False)(1)
        _steps(run, model, amp=True, checkpointing=False)(1)
    for amp in (False, True):
        for checkpointing in (False, True):
            variant = "+".join(v for v, on in (("amp", amp), ("checkpointing", checkpointing)) if on)
            dtype = amp_name if amp else "fp32"
            try:
                release_memory(run.device)
                with PeakMemory(run.device) as peak:
                    seconds, steps = best_seconds_per_call(
                        partial(_steps(run, model, amp, checkpointing), 1), run.device, budget_s, repeats=2
                    )
                memory = {"peak_memory_bytes": peak.bytes, "peak_memory_source": peak.source}
                if not run.cuda:  # the process's RSS growth also counts malloc's kept pages: told apart here
                    release_memory(run.device)
                    with TensorPeak() as tensors:
                        _steps(run, model, amp, checkpointing)(1)
                    memory = {
                        "peak_memory_bytes": tensors.peak,
                        "peak_memory_source": "live CPU tensors, one step (the CPU's max_memory_allocated)",
                        "peak_rss_growth_bytes": peak.bytes,
                        "peak_rss_source": peak.source,
                    }
                events.result(
                    dtype,
                    model.batch_size / seconds,
                    variant,
                    **memory,
                    batch=model.batch_size,
                    steps=steps,
                    amp=amp,
                    checkpointing=checkpointing,
                    **model.describe,
                )
            except Exception as exc:
                events.error(exc, dtype, variant)
            release_memory(run.device)


def train_from_host(run: Run, events: Events) -> None:
    """The small CNN's step twice: with its batch already on the device, and with the batch copied from
    pinned host memory every step as a training loop does (on the same stream, before the step's kernels).
    The difference is what the host link costs this step: on an eGPU, the Thunderbolt or OCuLink tunnel."""
    width, batch, image = run.pick((16, 32, 32), (32, 64, 32), (64, 256, 64), (64, 256, 96))
    host_x = torch.randn(batch, 3, image, image, pin_memory=run.cuda)
    host_y = torch.randint(0, 10, (batch,), pin_memory=run.cuda)
    batch_bytes = host_x.numel() * host_x.element_size() + host_y.numel() * host_y.element_size()
    net = SmallCNN(width, 10, False).to(run.device).train()
    optimizer = torch.optim.AdamW(net.parameters(), lr=1e-4)
    resident_x, resident_y = host_x.to(run.device), host_y.to(run.device)

    def step(from_host: bool) -> None:
        if from_host:  # into fresh device memory, as `batch.to(device, non_blocking=True)` does
            x = torch.empty_like(resident_x).copy_(host_x, non_blocking=True)
            y = torch.empty_like(resident_y).copy_(host_y, non_blocking=True)
        else:
            x, y = resident_x, resident_y
        optimizer.zero_grad(set_to_none=True)
        loss = F.cross_entropy(net(x), y)
        torch.autograd.backward(loss)
        optimizer.step()

    with contextlib.suppress(Exception):  # first-use costs (allocator, kernels, AdamW state) out of both figures
        for from_host in (True, False, True, False):
            step(from_host)
        synchronize(run.device)
    budget_s: float = run.pick(0.5, 2.0, 1.0, 3.0)
    for variant in ("resident", "from_host"):
        try:
            seconds, steps = best_seconds_per_call(
                partial(step, variant == "from_host"), run.device, budget_s, repeats=2
            )
            events.result(
                "fp32",
                batch / seconds,
                variant,
                step_s=seconds,
                steps=steps,
                batch=batch,
                batch_bytes=batch_bytes,
                width=width,
                image=image,
                copy="pinned host memory to the GPU" if run.cuda else "host memory to host memory (no GPU: no link)",
            )
        except Exception as exc:
            events.error(exc, "fp32", variant)
    release_memory(run.device)


def _amp_dtype(run: Run) -> torch.dtype:
    return torch.bfloat16 if not run.cuda or torch.cuda.is_bf16_supported() else torch.float16


def _steps(run: Run, model: Model, amp: bool, checkpointing: bool) -> Callable[[int], None]:
    """A fresh model, optimizer and batch on the device; the returned function trains it for n steps."""
    net = model.build(checkpointing).to(run.device).train()
    optimizer = torch.optim.AdamW(net.parameters(), lr=1e-4)
    amp_dtype = _amp_dtype(run)
    scaling = amp and amp_dtype == torch.float16  # fp16 gradients underflow without loss scaling; bf16's do not
    scaler = torch.amp.GradScaler(run.device.type, enabled=scaling)
    inputs, targets = model.batch()

    def train(steps: int) -> None:
        for _ in range(steps):
            optimizer.zero_grad(set_to_none=True)
            with torch.autocast(run.device.type, dtype=amp_dtype, enabled=amp):
                logits = net(inputs)
                loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(), targets.reshape(-1))
            torch.autograd.backward(scaler.scale(loss))
            scaler.step(optimizer)
            scaler.update()
        synchronize(run.device)

    return train


class TensorPeak(TorchDispatchMode):  # type: ignore[no-untyped-call]
    """The most bytes held by live CPU tensors while it is active: for the CPU, what
    torch.cuda.max_memory_allocated is for a GPU. Each storage counts once, from the operator that
    returned it until it is freed; the process's RSS, by contrast, also holds what malloc keeps after a free.
    """

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.live: dict[int, weakref.ref[torch.UntypedStorage]] = {}
        self.current = 0
        self.peak = 0

    def __torch_dispatch__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None
    ) -> Any:
        out = func(*args, **(kwargs or {}))
        for leaf in tree_leaves(out):
            if isinstance(leaf, Tensor) and leaf.device.type == "cpu":
                self._track(leaf.untyped_storage())
        return out

    def _track(self, storage: torch.UntypedStorage) -> None:
        key = id(storage)
        if key in self.live:
            return
        size = storage.nbytes()
        self.live[key] = weakref.ref(storage, partial(self._free, key, size))
        self.current += size
        self.peak = max(self.peak, self.current)

    def _free(self, key: int, size: int, _: object) -> None:
        if self.live.pop(key, None) is not None:
            self.current -= size


class PeakMemory:
    """The most memory a block of code added: CUDA's allocator peak, or the growth of this process's peak RSS."""

    def __init__(self, device: torch.device) -> None:
        self.device = device
        self.bytes = 0
        self.source = ""
        self._base = 0

    def __enter__(self) -> PeakMemory:
        if self.device.type == "cuda":
            torch.cuda.reset_peak_memory_stats(self.device)
            self._base = torch.cuda.memory_allocated(self.device)
            self.source = "torch.cuda.max_memory_allocated"
        else:
            # Writing 5 to clear_refs resets VmHWM to the current RSS (Linux, proc(5)).
            try:
                Path("/proc/self/clear_refs").write_text("5")
                self.source = "/proc/self/status VmHWM growth (peak reset through clear_refs)"
            except OSError:
                self.source = "ru_maxrss growth (counts only what exceeds the process's earlier peak)"
            self._base = _resident_bytes()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.device.type == "cuda":
            self.bytes = torch.cuda.max_memory_allocated(self.device) - self._base
        else:
            self.bytes = max(0, _peak_resident_bytes() - self._base)


def _resident_bytes() -> int:
    return _status_kib("VmRSS") * 1024 or _peak_resident_bytes()


def _peak_resident_bytes() -> int:
    hwm = _status_kib("VmHWM")
    if hwm:
        return hwm * 1024
    try:
        import resource  # not on Windows
    except ImportError:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # macOS counts bytes, Linux KiB


def _status_kib(field: str) -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            line = next((x for x in status if x.startswith(field + ":")), "")
        return int(line.split()[1]) if line else 0
    except (OSError, ValueError, IndexError):
        return 0


# --- DataLoader -----------------------------------------------------------------------------------------


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
    """Samples per second over one pass of a synthetic dataset, starting the workers included."""
    items, workers = run.pick((192, (0, 2)), (768, (0, 2, 4)))
    batch = 32
    dataset = SyntheticImages(items)
    for count in workers:
        variant = f"num_workers={count}"
        try:
            loader = DataLoader(dataset, batch_size=batch, num_workers=count, pin_memory=run.cuda, shuffle=False)
            began = time.perf_counter()
            first = 0.0
            seen = 0
            for images, _ in loader:
                if not first:
                    first = time.perf_counter() - began
                images = images.to(run.device, non_blocking=True)
                seen += len(images)
            synchronize(run.device)
            seconds = time.perf_counter() - began
            method = torch_mp.get_start_method(allow_none=True) or "default"
            events.result(
                "",
                seen / seconds,
                variant,
                items=seen,
                batch=batch,
                item_shape=[3, dataset.side, dataset.side],
                first_batch_s=round(first, 4),
                start_method=method,
                includes="starting the workers",
            )
        except Exception as exc:
            events.error(exc, variant=variant)


# --- disk -----------------------------------------------------------------------------------------------


def disk_read(run: Run, events: Events) -> None:
    """Write a file, drop it from the page cache, read it back in 8 MiB sequential reads."""
    size = int(run.request.get("disk_bytes") or run.pick(64 * MIB, 256 * MIB))
    folder = Path(run.request.get("disk_dir") or tempfile.gettempdir())
    mount, source, fstype = _mount_of(folder)
    events.device = source or "disk"
    chunk = os.urandom(8 * MIB)
    handle, name = tempfile.mkstemp(prefix="gpuconfig-probe-", dir=folder)
    path = Path(name)
    try:
        began = time.perf_counter()
        with os.fdopen(handle, "wb", buffering=0) as out:
            written = 0
            while written < size:
                written += out.write(chunk[: min(len(chunk), size - written)])
            os.fsync(out.fileno())
        write_s = time.perf_counter() - began
        dropped, how = _drop_from_cache(path, fstype)
        buffer = bytearray(8 * MIB)
        began = time.perf_counter()
        with open(path, "rb", buffering=0) as source_file:
            read = 0
            while got := source_file.readinto(buffer):
                read += got
        seconds = time.perf_counter() - began
    finally:
        path.unlink(missing_ok=True)
    events.result(
        "",
        read / seconds / 1e6,
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


# --- all-reduce -----------------------------------------------------------------------------------------


def allreduce(run: Run, events: Events) -> None:
    """All-reduce bus bandwidth, reported as nccl-tests does: busbw = algbw x 2(n-1)/n (doc/PERFORMANCE.md).

    The ranks are started by torchrun (torch.distributed.run, standalone rendezvous), as a multi-GPU
    training job is: NCCL over every GPU torch sees, or gloo between two CPU processes.
    """
    if run.cuda:
        world, backend = torch.cuda.device_count(), "nccl"
        if world < 2 or not dist.is_nccl_available():
            events.skipped("all-reduce between GPUs needs two or more GPUs and NCCL")
            return
        sizes = [64 * MIB, 256 * MIB, 1024 * MIB]
    else:
        world, backend = 2, "gloo"
        sizes = [1 * MIB, 16 * MIB, 64 * MIB]
    iterations = 10
    env = {**os.environ, RANK_ARGUMENTS: json.dumps({"backend": backend, "sizes": sizes, "iterations": iterations})}
    env.setdefault("GLOO_SOCKET_IFNAME", "lo0" if sys.platform == "darwin" else "lo")
    env.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 2) // world)))
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={world}"]
    command += ["--max-restarts=0", "--monitor-interval=0.5", str(Path(__file__).resolve())]
    done = subprocess.run(command, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False)
    timings: dict[int, float] = {}
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            timings[int(row["bytes"])] = float(row["seconds"])
    if done.returncode != 0 or not timings:
        lines = [line for line in done.stderr.splitlines() if line.strip() and "Warning" not in line]
        why = lines[-1].strip() if lines else f"exit code {done.returncode}"
        raise RuntimeError(f"torchrun with {world} {backend} ranks failed: {why[:300]}")
    by_size = {}
    for size, seconds in sorted(timings.items()):
        algbw = size / seconds / 1e9
        by_size[str(size)] = {"algbw_gbs": round(algbw, 3), "busbw_gbs": round(algbw * 2 * (world - 1) / world, 3)}
    largest = str(max(timings))
    events.result(
        "fp32",
        by_size[largest]["busbw_gbs"],
        backend,
        processes=world,
        launcher="torchrun --standalone",
        bytes=int(largest),
        iterations=iterations,
        by_size=by_size,
        formula="busbw = algbw * 2(n-1)/n (nccl-tests doc/PERFORMANCE.md)",
    )


def allreduce_rank(arguments: dict[str, Any]) -> int:
    """One torchrun rank: time all_reduce per size; rank 0 prints {"bytes", "seconds"} lines."""
    backend = str(arguments["backend"])
    rank, local = int(os.environ["RANK"]), int(os.environ.get("LOCAL_RANK", "0"))
    dist.init_process_group(backend)  # env:// from torchrun: MASTER_ADDR, MASTER_PORT, RANK, WORLD_SIZE
    device = torch.device("cuda", local) if backend == "nccl" else torch.device("cpu")
    if device.type == "cuda":
        torch.cuda.set_device(device)
    try:
        for size in arguments["sizes"]:
            tensor = torch.ones(int(size) // 4, device=device)
            for _ in range(2):
                dist.all_reduce(tensor)
            synchronize(device)
            dist.barrier()
            began = time.perf_counter()
            for _ in range(int(arguments["iterations"])):
                dist.all_reduce(tensor)
            synchronize(device)
            seconds = (time.perf_counter() - began) / int(arguments["iterations"])
            if rank == 0:
                sys.stdout.write(json.dumps({"bytes": int(size), "seconds": seconds}) + "\n")
                sys.stdout.flush()
    finally:
        dist.destroy_process_group()
    return 0


# --- the worker -----------------------------------------------------------------------------------------

RUNNERS: dict[str, Callable[[Run, Events], None]] = {
    "matmul": matmul,
    "memory_bandwidth": memory_bandwidth,
    "h2d_bandwidth": h2d_bandwidth,
    "d2h_bandwidth": d2h_bandwidth,
    "train_cnn": train_cnn,
    "train_transformer": train_transformer,
    "train_from_host": train_from_host,
    "dataloader": dataloader,
    "disk_read": disk_read,
    "allreduce": allreduce,
}


def torch_facts(device: torch.device) -> dict[str, Any]:
    """The torch build, its devices, and whether each GPU's architecture is compiled in."""
    devices = []
    in_build: dict[str, bool] = {}
    how: dict[str, str] = {}
    arch_list = list(torch.cuda.get_arch_list()) if torch.cuda.is_available() else []
    for index in range(torch.cuda.device_count() if torch.cuda.is_available() else 0):
        props = torch.cuda.get_device_properties(index)
        devices.append(
            {
                "index": index,
                "name": props.name,
                "capability": f"{props.major}.{props.minor}",
                "memory_bytes": int(props.total_memory),
                "multiprocessors": int(props.multi_processor_count),
                # The join with NVML's GPU (whose numbering differs); torch < 2.0 has no uuid.
                "uuid": str(props.uuid) if getattr(props, "uuid", None) is not None else None,
            }
        )
        arch = str(getattr(props, "gcnArchName", "")) if torch.version.hip else ""
        in_build[str(index)], how[str(index)] = _arch_in_build(props.major, props.minor, arch, arch_list)
    cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None  # type: ignore[no-untyped-call]
    return {
        "event": "torch",
        "version": torch.__version__,
        "python": sys.executable,
        "cuda": torch.version.cuda,
        "hip": torch.version.hip,
        "cudnn": cudnn,
        "cuda_available": torch.cuda.is_available(),
        "arch_list": arch_list,
        "devices": devices,
        "arch_in_build": in_build,
        "arch_match": how,
        "mkldnn": torch.backends.mkldnn.is_available(),  # type: ignore[no-untyped-call]
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "threads": torch.get_num_threads(),
        "device": str(device),
    }


def _arch_in_build(major: int, minor: int, gcn: str, arch_list: list[str]) -> tuple[bool, str]:
    """CUDA runs sm_XY code on the same major version at an equal or higher minor, and JIT-compiles PTX
    (compute_XY) for any newer GPU (CUDA C Programming Guide, "Binary Compatibility")."""
    if gcn:
        base = gcn.split(":")[0]
        return base in arch_list, base if base in arch_list else f"{base} not in the build"
    exact = f"sm_{major}{minor}"
    if exact in arch_list:
        return True, exact
    for arch in arch_list:
        if arch.startswith("sm_") and arch[3:].isdigit():
            m, n = int(arch[3:-1]), int(arch[-1])
            if m == major and n <= minor:
                return True, f"{arch} (same major version)"
    for arch in arch_list:
        if arch.startswith("compute_") and arch[8:].isdigit() and (int(arch[8:-1]), int(arch[-1])) <= (major, minor):
            return True, f"{arch} PTX, compiled for this GPU at first use"
    return False, f"{exact} not in the build"


def choose_device(asked: str | None) -> torch.device:
    if asked:
        return torch.device(asked)
    return torch.device("cuda", 0) if torch.cuda.is_available() else torch.device("cpu")


def device_problem(device: torch.device) -> str:
    """Why the benchmarks cannot run on the device asked for, or "" when they can."""
    if device.type == "cpu":
        return ""
    if device.type != "cuda":
        return f"{device}: the probe runs on cpu or cuda devices"
    if not torch.cuda.is_available():
        build = f"built for CUDA {torch.version.cuda}" if torch.version.cuda else "a CPU-only build"
        return f"{device}: torch sees no CUDA device (torch {torch.__version__}, {build})"
    if (device.index or 0) >= torch.cuda.device_count():
        return f"{device}: torch sees only {torch.cuda.device_count()} CUDA device(s)"
    return ""


# Figures of one GPU: on a machine with several, each GPU is measured in turn. The rest measure the host
# (data loading, disk) or all GPUs together (all-reduce) and run once.
PER_DEVICE = (
    "matmul", "memory_bandwidth", "h2d_bandwidth", "d2h_bandwidth", "train_cnn", "train_transformer", "train_from_host",
)  # fmt: skip


def devices_to_measure(asked: str | None) -> list[torch.device]:
    """The device asked for; otherwise every CUDA device torch sees, or the CPU."""
    if asked or not torch.cuda.is_available() or torch.cuda.device_count() < 2:
        return [choose_device(asked)]
    return [torch.device("cuda", index) for index in range(torch.cuda.device_count())]


def main(request: dict[str, Any], events: Events) -> int:
    suite = str(request.get("suite") or "quick")
    names = plan(suite, request.get("only"))
    devices = devices_to_measure(request.get("device"))
    events.emit(torch_facts(devices[0]))
    torch.manual_seed(0)
    for index, name in enumerate(names):
        what, unit = BENCHMARKS.get(name, (name, ""))
        for device in devices if name in PER_DEVICE else devices[:1]:
            events.name, events.device = name, str(device)
            shown = f"{what} ({device})" if len(devices) > 1 and name in PER_DEVICE else what
            start = {"event": "start", "name": name, "index": index, "total": len(names), "what": shown}
            events.emit({**start, "device": str(device), "unit": unit})
            problem = device_problem(device)
            try:
                if name not in RUNNERS:
                    raise LookupError(f"no benchmark named {name!r}; known: {', '.join(BENCHMARKS)}")
                if problem:
                    raise RuntimeError(problem)
                with _quiet_warnings():
                    RUNNERS[name](Run(suite, device, request), events)
            except Exception as exc:
                events.error(exc)
            if not problem:
                release_memory(device)
        events.emit({"event": "done", "name": name})
    return 0


@contextlib.contextmanager
def _quiet_warnings() -> Iterator[None]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # library deprecation notes are not results
        yield


if __name__ == "__main__":
    if os.environ.get(RANK_ARGUMENTS):
        sys.exit(allreduce_rank(json.loads(os.environ[RANK_ARGUMENTS])))
    sys.exit(main(REQUEST, EVENTS))
