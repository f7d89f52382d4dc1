"""What one GPU achieves, operator by operator, under eager PyTorch: matrix products by shape and dtype, element-wise
bandwidth by size, the host's cost per launched operator, and the kernels a decode step of a Hugging Face model
launches. The measurements a per-operator time estimate is checked against on a real card.

    python benchmarks/gpu_kernels.py --out DIR [--budget 150]

Run on a machine with a CUDA GPU. Timing follows the usual method: warm-up first, CUDA events around each repeat,
the median of the repeats with their spread, inputs drawn at random (never zeros), two input sets alternated so
that a repeat does not read what the last one left in L2. Writes DIR/kernels.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# (M, N, K): square products, and the products of transformer layers (tokens x hidden x hidden, x 4 hidden).
SQUARE = (256, 512, 1024, 2048, 4096, 8192, 16384)
TOKENS = (16, 128, 512, 2048, 8192)
HIDDEN = (768, 1024, 2048, 4096)
DTYPES = ("bf16", "fp16", "tf32", "fp32")


def shapes() -> list[tuple[int, int, int]]:
    out = [(n, n, n) for n in SQUARE]
    for tokens in TOKENS:
        for hidden in HIDDEN:
            out += [(tokens, hidden, hidden), (tokens, 4 * hidden, hidden), (tokens, hidden, 4 * hidden)]
    return out


def timed(work: Any, repeats: int, warmup: int = 3) -> dict[str, Any]:
    import torch

    for _ in range(warmup):
        work(0)
    samples = []
    for i in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        work(i)
        end.record()
        end.synchronize()
        samples.append(start.elapsed_time(end) / 1000.0)
    middle = statistics.median(samples)
    return {"median_s": middle, "spread": (max(samples) - min(samples)) / middle, "samples": len(samples)}


def per_call(operator: Any, sets: list[tuple[Any, Any]], out: Any, inner: int) -> tuple[float, float]:
    """(seconds per call, spread) of `operator(a, b, out=out)` called `inner` times a repeat, the two input sets
    alternating between repeats."""

    def work(i: int) -> None:
        a, b = sets[i % 2]
        for _ in range(inner):
            operator(a, b, out=out)

    result = timed(work, 10)
    return result["median_s"] / inner, round(result["spread"], 4)


def matmuls(deadline: float) -> list[dict[str, Any]]:
    import torch

    rows = []
    torch_dtype = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32, "fp32": torch.float32}
    for dtype in DTYPES:
        torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
        for m, n, k in shapes():
            if time.monotonic() > deadline:
                rows.append({"dtype": dtype, "m": m, "n": n, "k": k, "skipped": "budget"})
                continue
            if dtype in ("fp32", "tf32") and m * n * k > 8192**3:
                continue
            sets = [
                (
                    torch.randn(m, k, device="cuda", dtype=torch_dtype[dtype]),
                    torch.randn(k, n, device="cuda", dtype=torch_dtype[dtype]),
                )
                for _ in range(2)
            ]
            out = torch.empty(m, n, device="cuda", dtype=torch_dtype[dtype])
            flops = 2.0 * m * n * k
            inner = max(1, min(50, int(2e11 / flops)))  # a repeat of at least ~0.2 ms of work

            seconds, spread = per_call(torch.mm, sets, out, inner)
            rows.append(
                {
                    "dtype": dtype,
                    "m": m,
                    "n": n,
                    "k": k,
                    "seconds": seconds,
                    "tflops": flops / seconds / 1e12,
                    "spread": spread,
                }
            )
            del sets, out
    torch.backends.cuda.matmul.allow_tf32 = False
    return rows


def bandwidth(deadline: float) -> list[dict[str, Any]]:
    """c = a + b over fp32 tensors of 2**k elements: bytes read and written per second, and time per call."""
    import torch

    rows = []
    for power in range(10, 30, 2):
        if time.monotonic() > deadline:
            break
        n = 2**power
        sets = [(torch.randn(n, device="cuda"), torch.randn(n, device="cuda")) for _ in range(2)]
        out = torch.empty(n, device="cuda")
        inner = max(1, min(200, int(2**26 / n)))

        seconds, spread = per_call(torch.add, sets, out, inner)
        rows.append(
            {
                "elements": n,
                "bytes": 12 * n,
                "seconds": seconds,
                "gb_per_s": 12 * n / seconds / 1e9,
                "spread": spread,
            }
        )
        del sets, out
    return rows


def host_per_operator() -> dict[str, Any]:
    """Wall seconds per call of small operators launched back to back (the host's dispatch and launch cost:
    on small tensors the GPU waits for the host), median of five loops."""
    import torch

    a, b = torch.randn(64, 64, device="cuda"), torch.randn(64, 64, device="cuda")
    linear = torch.nn.Linear(64, 64, device="cuda")
    norm = torch.nn.LayerNorm(64, device="cuda")
    calls = {
        "torch.add": lambda: torch.add(a, b),
        "torch.mm": lambda: torch.mm(a, b),
        "nn.Linear module": lambda: linear(a),
        "nn.LayerNorm module": lambda: norm(a),
        "F.silu": lambda: torch.nn.functional.silu(a),
    }
    out: dict[str, Any] = {}
    with torch.no_grad():
        for name, call in calls.items():
            loops = []
            for _ in range(5):
                torch.cuda.synchronize()
                began = time.perf_counter()
                for _ in range(2000):
                    call()
                torch.cuda.synchronize()
                loops.append((time.perf_counter() - began) / 2000)
            out[name] = {"median_s": statistics.median(loops), "min_s": min(loops), "max_s": max(loops)}
    return out


def decode_profile(case_name: str) -> dict[str, Any]:
    """One case's decode steps under torch.profiler: kernels launched per step, host time per step."""
    import torch
    from gpu_allocations import case_named
    from gpu_session import request_of
    from torch.profiler import ProfilerActivity, profile

    from gpuconfig.workers.tracer.models import build
    from gpuconfig.workers.tracer.real_run import building_on, real_attention

    case = case_named(case_name)
    request = request_of(case, 0)
    batch, seq, _ = request["points"][0]
    seq = min(seq, 1024)
    with building_on(request):
        model, inputs, _ = build(request, batch, seq, None)
    model.eval()
    with torch.no_grad(), real_attention(request, model):
        output = model(**inputs, use_cache=True)
        cache, token = output.past_key_values, output.logits[:, -1:].argmax(-1)
        for _ in range(5):  # warm
            output = model(input_ids=token, past_key_values=cache, use_cache=True)
            cache, token = output.past_key_values, output.logits[:, -1:].argmax(-1)
        torch.cuda.synchronize()
        steps = 5
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(steps):
                output = model(input_ids=token, past_key_values=cache, use_cache=True)
                cache, token = output.past_key_values, output.logits[:, -1:].argmax(-1)
            torch.cuda.synchronize()
        walls = []
        for _ in range(20):
            torch.cuda.synchronize()
            began = time.perf_counter()
            output = model(input_ids=token, past_key_values=cache, use_cache=True)
            cache, token = output.past_key_values, output.logits[:, -1:].argmax(-1)
            torch.cuda.synchronize()
            walls.append(time.perf_counter() - began)
    events = prof.key_averages()
    launches = sum(
        e.count
        for e in events
        if e.key in ("cudaLaunchKernel", "cuLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernelEx")
    )
    device_us = sum(e.self_device_time_total for e in events if e.device_type.name == "CUDA")
    aten_ops = sum(e.count for e in events if e.key.startswith("aten::"))
    return {
        "case": case_name,
        "batch": batch,
        "prompt": seq,
        "kernels_per_step": launches / steps,
        "aten_ops_per_step": aten_ops / steps,
        "gpu_busy_s_per_step": device_us / 1e6 / steps,
        "wall_s_per_step": statistics.median(walls),
        "wall_spread": (max(walls) - min(walls)) / statistics.median(walls),
        "top_kernels": [
            {"name": e.key[:80], "count": e.count / steps, "device_us": e.self_device_time_total / steps}
            for e in sorted(events, key=lambda e: -e.self_device_time_total)[:12]
            if e.device_type.name == "CUDA"
        ],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--budget", type=float, default=150.0)
    parser.add_argument("--decode", default="llama-small-generate-4096,qwen2.5-1.5b-generate,llama-3-8b-generate")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    import torch

    began = time.monotonic()
    result: dict[str, Any] = {
        "gpu": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "date": time.strftime("%Y-%m-%d"),
    }
    args.out.mkdir(parents=True, exist_ok=True)

    def save() -> None:
        (args.out / "kernels.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")

    result["host_per_operator"] = host_per_operator()
    print(
        "host per operator",
        {k: round(v["median_s"] * 1e6, 2) for k, v in result["host_per_operator"].items()},
        flush=True,
    )
    save()
    result["bandwidth"] = bandwidth(began + args.budget * 0.2)
    print("bandwidth GB/s", [round(r["gb_per_s"]) for r in result["bandwidth"]], flush=True)
    save()
    result["matmul"] = matmuls(began + args.budget * 0.65)
    for dtype in DTYPES:
        best = max((r.get("tflops", 0) for r in result["matmul"] if r["dtype"] == dtype), default=0)
        print(
            f"matmul {dtype}: best {best:.0f} TFLOP/s over {sum(r['dtype'] == dtype for r in result['matmul'])}",
            flush=True,
        )
    save()
    result["decode"] = []
    for name in filter(None, args.decode.split(",")):
        if time.monotonic() - began > args.budget - 20:
            break
        try:
            row = decode_profile(name)
        except Exception as exc:  # one model failing leaves the others' profiles
            row = {"case": name, "error": f"{type(exc).__name__}: {exc}"[:1000]}
        result["decode"].append(row)
        print("decode", {k: v for k, v in row.items() if k != "top_kernels"}, flush=True)
        torch.cuda.empty_cache()
        save()
    result["seconds"] = round(time.monotonic() - began, 1)
    save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
