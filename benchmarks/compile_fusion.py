"""How well the estimate's model of torch.compile's fusion (gpuconfig/workers/tracer/counting.py, Fusion) counts the
bytes and kernels of a training step's forward and backward, against TorchInductor's own count of the same step.

    python benchmarks/compile_fusion.py [--cases a,b,...] [--layers 2]

For each case, a small fp32 fine-tune of one model family (the models of cpu_step_time.py, at `--layers` layers
where the model has layers), built as the trace worker builds it and run for real on this CPU:
- once in eager PyTorch under the trace's op counter: the bytes and kernels the Fusion model gives the forward and
  backward, and the eager bytes beside them;
- once under torch.compile (default mode, caches off), with Inductor's metrics log on: for every node its scheduler
  made, the bytes it reads and writes (GraphLowering.count_bytes: each buffer once per node, the fewest bytes a kernel
  needs) and whether it is a library ("extern") kernel or one Inductor generates.
Nothing is fitted. The CPU backend generates C++ rather than Triton, but the scheduler that decides what fuses and
what reaches memory is the same. Writes results/compile_fusion.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "compile_fusion.json"
MODELS = HERE / "estimate_accuracy_models"
# Library ("extern") kernels that the estimate prices as matrix products, convolutions and attention.
LIBRARY = ("mm", "convolution", "scaled_dot_product", "bmm", "addmm")
# (case, model, batch, seq): the families of cpu_step_time.py, as small fine-tunes.
CASES = (
    ("gpt2", "gpt2", 2, 128),
    ("bert-base", "bert-base", 4, 128),
    ("llama-small", "llama-small.json", 2, 128),
    ("t5-small", "t5-small.json", 4, 128),
    ("vit-base", "vit-base", 4, 224),
    ("resnet-18", "resnet-18", 8, 224),
)


def request_of(model: str, batch: int, seq: int) -> dict[str, Any]:
    from gpuconfig.core.workload.models import resolve_model
    from gpuconfig.core.workload.runner import trace_request
    from gpuconfig.core.workload.spec import Workload

    path = str(MODELS / model) if model.endswith(".json") else model
    workload = Workload(
        model=path, task="finetune", precision="fp32", optimizer="sgd", batch=batch, seq=seq, device="cpu"
    )
    return trace_request(resolve_model(path), workload, [(batch, seq, None)])


def counted(model: Any, inputs: Any) -> dict[str, int]:
    """The forward and backward in eager PyTorch under the trace's op counter."""
    from gpuconfig.workers.tracer.counting import op_counter
    from gpuconfig.workers.tracer.models import call, loss_of

    counter = op_counter()
    with counter:
        loss = loss_of(call(model, inputs))
        counter.end("forward")
        loss.backward()
        counter.end("backward")
    return {
        "fused_bytes": counter.fusion.bytes,
        "generated_kernels": counter.fusion.generated,
        "library_kernels": counter.fusion.kernels - counter.fusion.generated,
        "eager_other_bytes": counter.other_bytes,
        "eager_kernels": counter.kernels,
        "matmul_bytes": counter.matmul_bytes,
    }


def inductor(model: Any, inputs: Any) -> dict[str, Any]:
    """The same forward and backward under torch.compile: Inductor's scheduler nodes, their bytes by kind."""
    import torch  # noqa: TID251
    import torch._inductor.config as config  # noqa: TID251
    import torch._inductor.metrics as metrics  # noqa: TID251
    from torch._inductor.scheduler import ExternKernelSchedulerNode, NopKernelSchedulerNode  # noqa: TID251

    from gpuconfig.workers.tracer.models import call, loss_of

    config.force_disable_caches = True  # a cached graph is not scheduled again, and logs no metrics
    torch._logging.set_logs(inductor_metrics=True)
    torch._dynamo.reset()
    torch._dynamo.utils.counters.clear()  # reset() leaves the counters of earlier cases
    metrics.reset()
    compiled = torch.compile(model)
    started = time.monotonic()
    loss_of(call(compiled, inputs)).backward()
    seconds = time.monotonic() - started
    generated = library = fallback = 0
    generated_bytes = library_bytes = fallback_bytes = 0
    for node, elements in metrics.nodes_num_elem:  # (node, its bytes // 4)
        if isinstance(node, NopKernelSchedulerNode):
            continue
        if isinstance(node, ExternKernelSchedulerNode):
            name = str(getattr(node.node, "python_kernel_name", None) or type(node.node).__name__)
            if name == "MultiOutput":  # unpacks a kernel's outputs: no kernel of its own
                continue
            if any(word in name for word in LIBRARY):
                library, library_bytes = library + 1, library_bytes + 4 * elements
            else:  # an operator Inductor cannot generate code for runs as PyTorch's own kernel
                fallback, fallback_bytes = fallback + 1, fallback_bytes + 4 * elements
        else:
            generated, generated_bytes = generated + 1, generated_bytes + 4 * elements
    return {
        # what the estimate's other operators stand for: the generated kernels and PyTorch's fallback kernels
        "fused_bytes": generated_bytes + fallback_bytes,
        "generated_kernels": generated + fallback,
        "fallback_kernels": fallback,
        "library_kernels": library,
        "library_bytes": library_bytes,
        "graph_breaks": int(torch._dynamo.utils.counters["stats"]["unique_graphs"]) - 1,  # one graph: no break
        "compile_seconds": round(seconds, 1),
    }


def one_case(name: str, model_name: str, batch: int, seq: int, layers: int) -> dict[str, Any]:
    import torch  # noqa: TID251

    from gpuconfig.workers.tracer.models import build
    from gpuconfig.workers.tracer.point import prepare

    request = request_of(model_name, batch, seq)
    torch.manual_seed(0)
    has_layers = model_name not in ("resnet-18", "t5-small.json")  # ResNet has stages; T5-small is small at 6 layers
    model, inputs, family = build(request, batch, seq, layers if has_layers else None)
    prepare(model, request, foreach=False)
    ours = counted(model, inputs)
    model.zero_grad(set_to_none=True)
    theirs = inductor(model, inputs)
    row = {
        "case": name,
        "model": model_name,
        "family": family,
        "batch": batch,
        "seq": seq,
        "layers": layers if has_layers else None,
        "fusion_model": ours,
        "inductor": theirs,
        "bytes_error": round(ours["fused_bytes"] / theirs["fused_bytes"] - 1, 4),
        "generated_kernels_error": round(ours["generated_kernels"] / theirs["generated_kernels"] - 1, 4),
        "eager_bytes_over_inductor": round(ours["eager_other_bytes"] / theirs["fused_bytes"], 3),
    }
    print(
        f"{name:<12} fused bytes {ours['fused_bytes'] / 1e6:8.1f} MB, Inductor {theirs['fused_bytes'] / 1e6:8.1f} MB "
        f"({row['bytes_error']:+.1%}; eager {ours['eager_other_bytes'] / 1e6:8.1f} MB); generated kernels "
        f"{ours['generated_kernels']} vs {theirs['generated_kernels']}; library {ours['library_kernels']} vs "
        f"{theirs['library_kernels']}",
        flush=True,
    )
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="", help="comma-separated case names (default: all)")
    parser.add_argument("--layers", type=int, default=2)
    args = parser.parse_args()
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")  # no pool of compile workers (read at import)
    sys.path.insert(0, str(HERE.parent))
    from machine import machine

    chosen = [c for c in CASES if not args.cases or c[0] in args.cases.split(",")]
    rows = []
    for name, model, batch, seq in chosen:
        try:
            rows.append(one_case(name, model, batch, seq, args.layers))
        except Exception as exc:  # a model torch.compile cannot take is reported, not hidden
            rows.append({"case": name, "status": "failed", "reason": f"{type(exc).__name__}: {exc}"[:500]})
            print(f"{name:<12} failed: {rows[-1]['reason']}", flush=True)
    compared = [r for r in rows if "bytes_error" in r]
    result = {
        "benchmark": "compile_fusion",
        "what": "the Fusion model's bytes and generated kernels of a training step's forward and backward, against "
        "TorchInductor's scheduler on the same step (nothing fitted)",
        "median_abs_bytes_error": round(statistics.median(abs(r["bytes_error"]) for r in compared), 4)
        if compared
        else None,
        "median_abs_generated_kernels_error": round(
            statistics.median(abs(r["generated_kernels_error"]) for r in compared), 4
        )
        if compared
        else None,
        "rows": rows,
        "torch": __import__("torch").__version__,
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "command": "python benchmarks/compile_fusion.py",
    }
    print(json.dumps({k: result[k] for k in ("median_abs_bytes_error", "median_abs_generated_kernels_error")}))
    RESULTS.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
