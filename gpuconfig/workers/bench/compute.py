"""Matrix multiply throughput per precision."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from functools import partial

import torch

from .events import Events
from .load import CpuLoad
from .timing import Box, Run, rates, release_memory, seconds_per_call

MATMUL_DTYPES = ("fp32", "tf32", "fp16", "bf16", "fp8")


def matmul(run: Run, events: Events) -> None:
    """Dense square matmul at several sizes, the size with the highest median (as ml-engineering's MAMF and
    torch-performance-test-data take the best size); its samples are the figure's."""
    sizes: tuple[int, ...] = run.pick((1024, 2048), (1024, 2048, 4096), (4096, 8192), (4096, 8192, 16384))
    for index, dtype in enumerate(MATMUL_DTYPES):
        why_not = _matmul_unsupported(run, dtype)
        if why_not:
            events.skipped(why_not, dtype)
            continue
        try:
            per_size = {}
            for position, n in enumerate(sizes):
                call = _matmul_call(run.device, dtype, n)
                figures_left = (len(MATMUL_DTYPES) - index) * len(sizes) - position
                with CpuLoad() as cpus:
                    seconds, calls = seconds_per_call(call, run.device, run.box.share(figures_left))
                per_size[n] = (rates(2 * n**3 / 1e12, seconds), calls, cpus.record())
                del call
                release_memory(run.device)
            best = max(per_size, key=lambda n: statistics.median(per_size[n][0]))
            samples, calls, load = per_size[best]
            events.result(
                dtype,
                samples,
                load=load,
                n=best,
                calls=calls,
                median_tflops_by_size={str(n): round(statistics.median(v), 4) for n, (v, _, _) in per_size.items()},
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
        seconds, _ = seconds_per_call(partial(torch.matmul, a, b), torch.device("cpu"), Box.of(0.05))
        speed[dtype] = 1 / min(seconds)
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
