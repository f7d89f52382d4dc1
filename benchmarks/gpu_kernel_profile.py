"""Where a real training step's GPU time goes, kernel by kernel: for the per-operator time model.

    python benchmarks/gpu_kernel_profile.py --out DIR [--cases a,b] [--budget 240]     # on a CUDA GPU

For each case of gpu_cases.toml named (the timed training ones by default), the step gpu_session.py times is built
the same way (the trace worker's measuring code: same model, inputs, optimizer, autocast), run three times to warm
up, then three more under torch.profiler with CUDA activity. Every kernel's device time is summed into classes read
from its name (matrix products, convolutions, normalisation, element-wise, reductions, optimizer, copies, other;
annotations that span other kernels, such as the optimizer's step, are not kernels and not counted),
beside the steps' wall time and the GPU's busy time; the 25 longest kernels are kept by name. Writes
DIR/kernel_profile.json: what the time model's parts (matrix products, convolutions, other operators, kernel
launches) are checked against, case by case.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_CASES = (
    "resnet-50-finetune-amp",
    "bert-base-finetune-amp",
    "vit-base-finetune-amp",
    "gpt2-finetune-amp",
    "qwen2.5-0.5b-finetune-amp",
    "llama-3-8b-lora-1024-b2",
)
# Kernel names by class, first match wins. cuBLAS/CUTLASS GEMMs (sm90_xmma, cutlass, gemm), cuDNN convolutions
# (cudnn, conv, implicit_gemm/precomputed convolution engines, winograd, fprop/dgrad/wgrad), flash/efficient
# attention (fmha, flash), then PyTorch's own ATen kernels by their templates' names.
CLASSES = (
    ("attention", r"fmha|flash|attention|pytorch_flash|mem_eff"),
    ("convolution", r"conv|cudnn|winograd|fprop|dgrad|wgrad|implicit_convolve|nchwToNhwc|nhwcToNchw"),
    ("matmul", r"gemm|xmma|cutlass|cublas|matmul|splitkreduce|nvjet"),
    ("normalization", r"norm|batch_norm|welford"),
    ("optimizer", r"multi_tensor|foreach|fused_adam|sgd|adam"),
    ("softmax", r"softmax"),
    ("reduction", r"reduce|sum_kernel|mean|argmax|nll|cross_entropy|log_softmax"),
    ("copy", r"copy|memcpy|memset|fill|cat|index|gather|scatter|transpose|permute"),
    ("elementwise", r"elementwise|vectorized|unrolled|gelu|relu|silu|dropout|add|mul|where|masked"),
)


def kernel_class(name: str) -> str:
    lowered = name.lower()
    for label, pattern in CLASSES:
        if re.search(pattern, lowered):
            return label
    return "other"


def profile_case(case: dict[str, Any]) -> dict[str, Any]:
    import torch  # noqa: TID251
    from gpu_session import request_of
    from torch.profiler import ProfilerActivity, profile  # noqa: TID251

    from gpuconfig.workers.tracer.models import build
    from gpuconfig.workers.tracer.point import one_step, prepare
    from gpuconfig.workers.tracer.real_run import autocast_device, building_on, real_attention

    request = request_of(case, 0)
    batch, seq, _ = request["points"][0]
    torch.manual_seed(0)
    with building_on(request):
        model, inputs, _ = build(request, batch, seq, None)
        optimizer = prepare(model, request, foreach=True)

    def step() -> None:
        with real_attention(request, model):
            one_step(model, inputs, optimizer, request, None, device=autocast_device(request))

    for _ in range(3):
        step()
    torch.cuda.synchronize()
    walls = []
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as profiled:
        for _ in range(3):
            started = time.perf_counter()
            step()
            torch.cuda.synchronize()
            walls.append(time.perf_counter() - started)
    by_class: dict[str, float] = {}
    by_kernel: dict[str, list[float]] = {}
    count = 0
    for event in profiled.events():
        device_us = getattr(event, "device_time", None)
        if device_us is None:
            device_us = getattr(event, "cuda_time", 0.0)
        # "#" names are annotations (Optimizer.step#AdamW.step, ProfilerStep#3) that span the kernels under them
        annotation = "#" in event.name
        if str(getattr(event, "device_type", "")).endswith("CUDA") and device_us > 0 and not annotation:
            count += 1
            label = kernel_class(event.name)
            by_class[label] = by_class.get(label, 0.0) + device_us / 3e6  # seconds per step
            entry = by_kernel.setdefault(event.name, [0.0, 0])
            entry[0] += device_us / 3e6
            entry[1] += 1
    longest = sorted(by_kernel.items(), key=lambda item: -item[1][0])[:25]
    return {
        "case": case["case"],
        "batch": batch,
        "seq": seq,
        "step_wall_seconds": sorted(walls),
        "gpu_busy_seconds_per_step": sum(by_class.values()),
        "kernels_per_step": count / 3,
        "by_class_seconds_per_step": dict(sorted(by_class.items(), key=lambda item: -item[1])),
        "longest_kernels": [
            {"name": name[:200], "class": kernel_class(name), "seconds_per_step": s, "calls_per_step": n / 3}
            for name, (s, n) in longest
        ],
    }


def main() -> int:
    sys.path.insert(0, str(HERE))  # gpu_session; gpuconfig as installed (with its catalog)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--cases", default=",".join(DEFAULT_CASES))
    parser.add_argument("--budget", type=float, default=240.0, help="seconds; no new case starts after it")
    args = parser.parse_args()
    import torch  # noqa: TID251
    from gpu_session import cases, machine

    wanted = [name for name in args.cases.split(",") if name]
    listed = {case["case"]: case for case in cases("gpu_cases.toml")}
    deadline = time.monotonic() + args.budget
    rows = []
    for name in wanted:
        if time.monotonic() > deadline:
            rows.append({"case": name, "status": "not run: out of time"})
            continue
        try:
            rows.append({"status": "profiled", **profile_case(listed[name])})
        except Exception as exc:  # a case that fails leaves the others' results
            rows.append({"case": name, "status": "failed", "reason": f"{type(exc).__name__}: {exc}"[:500]})
            torch.cuda.empty_cache()
        torch.cuda.empty_cache()
        print(json.dumps(rows[-1])[:300], flush=True)
        args.out.mkdir(parents=True, exist_ok=True)
        result = {"rows": rows, "machine": machine(), "torch": torch.__version__, "date": time.strftime("%Y-%m-%d")}
        (args.out / "kernel_profile.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
