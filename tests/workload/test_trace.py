"""The traced tier for real: the worker process runs PyTorch on CPU with fake tensors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.runner import TraceCancelled, run_trace
from gpuconfig.core.workload.spec import Workload
from tests.workload.model_files import linear_model

# A two-layer Llama small enough to trace in seconds. Its "torch_dtype": "bfloat16" is there as real
# checkpoints have it: their storage dtype, which must not override the workload's precision.
TINY_LLAMA = json.loads((Path(__file__).parents[1] / "data" / "tiny_llama.json").read_text(encoding="utf-8"))


def estimate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", "estimate", *args], capture_output=True, text=True, timeout=600, check=False
    )


def real_tiny_llama() -> Any:
    """The tiny Llama built for real by transformers: what the trace's counts are checked against."""
    import transformers

    return transformers.AutoModelForCausalLM.from_config(transformers.AutoConfig.for_model(**TINY_LLAMA))


@pytest.fixture
def tiny_llama(tmp_path: Path) -> Path:
    path = tmp_path / "tiny-llama" / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(TINY_LLAMA))
    return path


def test_json_has_every_key_and_exact_parameter_count(tiny_llama: Path) -> None:
    result = estimate(
        "--model",
        str(tiny_llama),
        "--task",
        "finetune",
        "--batch",
        "2",
        "--seq",
        "32",
        "--precision",
        "fp32",
        "--device",
        "cpu",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    real = real_tiny_llama()
    assert record["params"] == sum(p.numel() for p in real.parameters())
    # 6 FLOPs per weight per token (forward 2, backward 4), embedding lookups excepted, plus attention
    matmul_params = record["params"] - TINY_LLAMA["vocab_size"] * TINY_LLAMA["hidden_size"]
    assert isinstance(record["flops_per_step"], int)
    assert record["flops_per_step"] == pytest.approx(6 * matmul_params * 2 * 32, rel=0.1)
    memory = record["memory"]
    for key in ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead", "peak"):
        assert isinstance(memory[key], int) and memory[key] >= 0, key
    # fp32 weights and AdamW's two fp32 states per parameter; storages are counted in 512-byte blocks
    # as PyTorch's allocators hand them out, so a few small tensors round up
    assert 0 <= memory["weights"] - 4 * record["params"] < 512 * 32
    assert 0 <= memory["optimizer"] - 8 * record["params"] < 2 * 512 * 32
    parts = sum(memory[k] for k in ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"))
    assert memory["peak"] == parts
    lines = {line["name"]: line for line in memory["overheads"]}
    assert memory["overhead"] == sum(line["bytes"] for line in lines.values())
    if sys.platform.startswith("linux"):  # glibc: the heap is replayed, and what it keeps beyond that added
        from gpuconfig.core.workload import cpu_heap

        measured = cpu_heap.measured_share()
        assert measured is not None, "catalog/cpu_heap.toml is written by benchmarks/estimate_accuracy_cpu.py"
        predictor, share, source = measured
        assert "autograd_objects.py" in lines["CPU allocator (freed memory glibc keeps for reuse)"]["source"]
        if predictor == "none":  # the held-out benchmark found nothing to add to the replay
            assert cpu_heap.NAME not in lines
        else:
            kept = lines[cpu_heap.NAME]
            assert kept["source"] == source and "estimate_accuracy_cpu" in source
            if predictor == "activations":
                assert kept["bytes"] == pytest.approx(share * memory["activations"], abs=2)
            else:  # heap-served bytes: some of the activations' churn, never none
                assert kept["bytes"] > 0
    band = memory["expected_error"]
    assert band["device"] == "cpu" and band["text"].endswith(f"over {band['band']['cases']} cases")


def test_zoo_model_parameter_count_matches_the_real_model() -> None:
    import transformers

    result = estimate(
        "--model",
        "gpt2",
        "--task",
        "inference",
        "--batch",
        "1",
        "--seq",
        "16",
        "--precision",
        "fp32",
        "--device",
        "cpu",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    config = resolve_model("gpt2").config
    real = transformers.AutoModelForCausalLM.from_config(transformers.AutoConfig.for_model(**config))
    assert json.loads(result.stdout)["params"] == sum(p.numel() for p in real.parameters())  # tied weights once


def test_inference_reports_the_kv_cache_for_prompt_and_generated_tokens(tiny_llama: Path) -> None:
    result = estimate(
        "--model",
        str(tiny_llama),
        "--task",
        "inference",
        "--batch",
        "3",
        "--seq",
        "40",
        "--generate",
        "24",
        "--precision",
        "bf16",
        "--device",
        "cpu",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    memory = json.loads(result.stdout)["memory"]
    # K and V, per layer, per KV head of head_dim 16, in bf16, for every token of every sequence
    expected = 2 * TINY_LLAMA["num_hidden_layers"] * TINY_LLAMA["num_key_value_heads"] * 16 * 2 * 3 * (40 + 24)
    assert memory["kv_cache"] == expected


def test_a_user_file_builds_the_model(tmp_path: Path) -> None:
    path = tmp_path / "mlp.py"
    path.write_text(
        "import torch\n"
        "def model_and_inputs(batch, seq):\n"
        "    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10))\n"
        "    return model, (torch.randn(batch, 32),)\n"
    )
    result = estimate("--model", str(path), "--batch", "8", "--precision", "fp32", "--device", "cpu", "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["params"] == 32 * 64 + 64 + 64 * 10 + 10


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("raise RuntimeError('no data here')\n", "mlp.py: raised RuntimeError: no data here"),
        ("x = 1\n", "mlp.py: defines no model_and_inputs(batch, seq) function"),
        ("def model_and_inputs(batch, seq):\n    return 3, ()\n", "returned int, not an nn.Module"),
    ],
)
def test_a_user_file_that_fails_is_one_line_and_exit_2(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "mlp.py"
    path.write_text(body)
    result = estimate("--model", str(path), "--device", "cpu", "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "gpt2", "--batch", "0"], "batch: must be a positive number, got 0"),
        (["--model", "gpt2", "--batch", "99999999999999999999"], "batch: must be at most 1,000,000"),
        (["--model", "gpt2", "--seq", "2000000"], "seq: must be at most 1,000,000"),
        (["--model", "gpt2", "--gpus", "100000"], "gpus: must be at most 1,024"),
        (["--model", "no-such-model"], "is not a built-in model"),
        (["--model", "gpt2", "--gpu", "nvidia-gtx-9999"], "is not a GPU in the catalog"),
        (["--model", "gpt2", "--precision", "fp64"], "invalid choice: 'fp64'"),
    ],
)
def test_bad_estimate_input_exits_2_in_one_line(args: list[str], message: str) -> None:
    result = estimate(*args, "--json")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr
    assert not (Path(os.environ["GPUCONFIG_DATA_DIR"]) / "traces").exists(), "refused before any trace"


def test_cancelling_kills_the_trace_at_once(tiny_llama: Path) -> None:
    source = resolve_model("gpt2-xl")
    workload = Workload(model="gpt2-xl", task="finetune", precision="fp32", device="cpu")
    started = time.monotonic()
    with pytest.raises(TraceCancelled):
        run_trace(source, workload, 2, 512, cancelled=lambda: time.monotonic() - started > 1.0, use_cache=False)
    assert time.monotonic() - started < 10


@pytest.mark.parametrize(("precision", "bytes_per_weight"), [("int8", 1.0), ("int4", 0.5 + 1 / 64)])
def test_quantized_weights_are_stored_at_their_width(tiny_llama: Path, precision: str, bytes_per_weight: float) -> None:
    result = estimate(
        "--model", str(tiny_llama), "--task", "inference", "--batch", "1", "--seq", "16",
        "--precision", precision, "--device", "cpu", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    real = real_tiny_llama()
    linears = [m for name, m in real.named_modules() if type(m).__name__ == "Linear" and name != "lm_head"]
    quantized = sum(m.weight.numel() for m in linears)
    rest = sum(p.numel() for p in real.parameters()) - quantized  # embeddings, norms and the head stay bf16
    scales = sum(m.out_features * 4 for m in linears) if precision == "int8" else 4 * len(linears)
    expected = quantized * bytes_per_weight + 2 * rest + scales
    tensors = 3 * len(linears) + 2 * TINY_LLAMA["num_hidden_layers"] + 3
    assert json.loads(result.stdout)["memory"]["weights"] == pytest.approx(expected, abs=512 * tensors)


def test_a_workload_too_big_for_the_gpu_gets_changes_that_make_it_fit(tiny_llama: Path) -> None:
    # A small model at a huge micro-batch: its activations alone are far more than 8 GB.
    result = estimate(
        "--model", str(tiny_llama), "--task", "finetune", "--batch", "4096", "--seq", "256",
        "--precision", "amp_bf16", "--gpu", "nvidia-geforce-rtx-3070", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["gpu"]["fits"] is False
    advice = record["advice"]
    labels = [a["change"] for a in advice]
    assert any("micro-batch" in label for label in labels)
    assert any("checkpointing" in label for label in labels)
    fitting = [a for a in advice if a["fits"]]
    assert fitting, labels
    assert all(a["peak"] <= record["gpu"]["memory"] for a in fitting)
    assert record["gpu"]["verdict"] == f"fits if: {fitting[0]['change']}"
    # a change that keeps what is trained comes before one that changes it
    kinds = [a["changes_result"] for a in fitting]
    assert kinds == sorted(kinds)
    smaller = [a for a in advice if a["change"].startswith("micro-batch")]
    smaller.sort(key=lambda a: -a["workload"]["batch"])
    assert all(a["workload"]["batch"] * a["workload"]["grad_accum"] == 4096 for a in smaller)
    assert [a["peak"] for a in smaller] == sorted((a["peak"] for a in smaller), reverse=True)


def test_a_cuda_trace_runs_attention_fused_where_the_cpu_keeps_the_scores(tmp_path: Path) -> None:
    # With attention dropout on, the CPU takes SDPA's math path and keeps batch x heads x length x length
    # scores, their softmax and the dropout mask for backward; a GPU's memory-efficient kernel keeps none. As
    # many key/value heads as query heads: the kernel takes no grouped ones (test_attention_trace.py).
    path = tmp_path / "config.json"
    heads = TINY_LLAMA["num_attention_heads"]
    path.write_text(json.dumps({**TINY_LLAMA, "attention_dropout": 0.1, "num_key_value_heads": heads}))
    batch, seq = 2, 256
    activations = {}
    for device in ("cpu", "cuda"):
        result = estimate(
            "--model", str(path), "--task", "finetune", "--batch", str(batch), "--seq", str(seq),
            "--precision", "fp32", "--device", device, "--json",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        activations[device] = json.loads(result.stdout)["memory"]["activations"]
    scores = batch * TINY_LLAMA["num_attention_heads"] * seq * seq * 4  # one fp32 score matrix per layer
    assert activations["cpu"] - activations["cuda"] >= 2 * scores * TINY_LLAMA["num_hidden_layers"]


def test_eight_bit_adamw_states_are_counted_as_optimizer_states(tiny_llama: Path) -> None:
    import math

    result = estimate(
        "--model", str(tiny_llama), "--task", "finetune", "--batch", "2", "--seq", "32",
        "--precision", "fp32", "--optimizer", "adamw8bit", "--device", "cuda", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    real = real_tiny_llama()
    # two uint8 moments per weight and one fp32 absmax per 2,048-value block for each moment
    expected = sum(2 * p.numel() + 2 * 4 * math.ceil(p.numel() / 2048) for p in real.parameters())
    assert json.loads(result.stdout)["memory"]["optimizer"] == expected


def test_a_model_that_prints_protocol_lines_is_not_taken_for_the_worker(tmp_path: Path) -> None:
    spoof = [
        {"event": "progress"},  # a message missing its fields
        {"event": "error", "kind": "model", "message": "spoofed"},
        {"event": "point", "batch": 1, "seq": 1, "memory": {}},
    ]
    lines = "".join(json.dumps(event) + "\n" for event in spoof)
    path = tmp_path / "chatty.py"
    path.write_text(
        "import os, subprocess, sys, torch\n"
        f"LINES = {lines!r}\n"
        "print(LINES, end='', flush=True)\n"
        "os.write(1, LINES.encode())  # past sys.stdout, to the descriptor\n"
        "subprocess.run([sys.executable, '-c', f'print({LINES!r})'], check=True)  # a child process\n"
        "def model_and_inputs(batch, seq):\n"
        "    print(LINES, flush=True)\n"
        "    model = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.ReLU(), torch.nn.Linear(64, 10))\n"
        "    return model, (torch.randn(batch, 32),)\n",
        encoding="utf-8",
    )
    result = estimate("--model", str(path), "--batch", "8", "--precision", "fp32", "--device", "cpu", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["params"] == 32 * 64 + 64 + 64 * 10 + 10
    assert "Traceback" not in result.stderr and "spoofed" not in result.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a shell script stands in for the interpreter")
def test_the_trace_cache_is_kept_per_interpreter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = linear_model(tmp_path)
    source, workload = resolve_model(str(path)), Workload(model=str(path), precision="fp32", device="cpu")
    other = tmp_path / "other" / "bin" / "python"  # another interpreter (that starts this one)
    other.parent.mkdir(parents=True)
    other.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    other.chmod(0o755)
    traces = (Path(os.environ["GPUCONFIG_DATA_DIR"]) / "traces").glob("*.json")

    monkeypatch.setenv("GPUCONFIG_TORCH_PYTHON", sys.executable)
    first = run_trace(source, workload, 2, 1)
    assert run_trace(source, workload, 2, 1).key == first.key  # the same interpreter: the cached trace
    monkeypatch.setenv("GPUCONFIG_TORCH_PYTHON", str(other))
    assert run_trace(source, workload, 2, 1).key != first.key
    assert len(list(traces)) == 2  # traced again, in the other interpreter


def test_the_trace_cache_key_holds_the_versions_of_what_the_worker_imports(tmp_path: Path) -> None:
    from gpuconfig.core.workers.interpreters import Interpreter
    from gpuconfig.core.workload.runner import cache_key, plan_points, trace_python, trace_request

    asked = trace_python()  # this Python, asked its versions from package metadata
    assert (asked.torch, asked.transformers) == (metadata.version("torch"), metadata.version("transformers"))
    assert asked.diffusers == metadata.version("diffusers")
    source = resolve_model("gpt2")
    workload = Workload(model="gpt2", precision="fp32", device="cpu")
    request = trace_request(source, workload, plan_points(source, 1, 64)[0])
    python = Interpreter("/envs/a/bin/python", "chosen", "3.11.9", "2.13.0", transformers="4.56.0", diffusers="0.35.1")
    key = cache_key(request, source, python)
    assert cache_key(request, source, replace(python, source="added")) == key  # how it was found does not matter
    for changed in (
        replace(python, path="/envs/b/bin/python"),
        replace(python, python="3.12.4"),
        replace(python, torch="2.14.0"),
        replace(python, transformers="4.57.0"),
        replace(python, diffusers=None),
    ):
        assert cache_key(request, source, changed) != key, changed


REAL_GRAPH = """
import gc, json, sys
sys.path.insert(0, sys.argv[1])
from tracer import point
from tracer.attention import attention_kernels
from tracer.autograd_nodes import node_marker
request = json.loads(sys.argv[2])
model, inputs, _ = point.build(request, 1, 8, None)
optimizer = point.prepare(model, request, foreach=False)
marker = node_marker([])
for _ in range(2):
    with attention_kernels(request, model), marker:
        point.one_step(model, inputs, optimizer, request)
gc.collect()
print(sum(kind != 0 for _, _, kind in marker.marks), sum(kind == 0 for _, _, kind in marker.marks))
"""


def test_the_trace_marks_every_autograd_node_a_real_step_builds(tiny_llama: Path) -> None:
    """The heap replay places small objects per autograd node: the fake-tensor trace must see the nodes the
    same two training steps create when the model is built and run for real, and each released once."""
    from gpuconfig.core.workload.runner import trace_request

    workload = Workload(model=str(tiny_llama), task="finetune", device="cpu", precision="fp32", batch=1, seq=8)
    trace = run_trace(resolve_model(str(tiny_llama)), workload, 1, 8, use_cache=False)
    traced = {point["autograd_nodes"] for point in trace.points if point["batch"] == 1 and point["seq"] == 8}
    request = trace_request(resolve_model(str(tiny_llama)), workload, [(1, 8, None)])
    workers = Path(__file__).parents[2] / "gpuconfig" / "workers"
    real = subprocess.run(
        [sys.executable, "-c", REAL_GRAPH, str(workers), json.dumps(request)],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    created, released = map(int, real.stdout.split()[-2:])
    assert created == released > 100  # a two-layer Llama's two steps: a few hundred nodes
    assert traced == {created}


def test_accumulating_gradients_holds_the_whole_gradient_through_each_forward(tiny_llama: Path) -> None:
    """With --grad-accum 4 the micro-batches after the first run forward and backward with the summed
    gradient alive, so the peak holds every gradient; one micro-batch's forward holds none."""
    common = ["--model", str(tiny_llama), "--task", "finetune", "--batch", "2", "--seq", "64"]
    common += ["--precision", "fp32", "--device", "cpu", "--json"]
    alone, accumulated = (json.loads(estimate(*common, "--grad-accum", n).stdout) for n in ("1", "4"))
    gradient_bytes = 4 * alone["trainable_params"]
    assert alone["memory"]["peak_phase"] == accumulated["memory"]["peak_phase"] == "backward"
    assert alone["memory"]["gradients"] == 0  # one micro-batch: its backward peaks before the gradients exist
    assert accumulated["memory"]["gradients"] == pytest.approx(gradient_bytes, rel=0.01)
    assert accumulated["memory"]["peak"] - alone["memory"]["peak"] == pytest.approx(gradient_bytes, rel=0.01)


def test_a_trace_that_left_kernel_calls_out_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a convolution is too large to measure depends on the memory free when it is traced, which the
    cache key cannot hold: such a trace is used once and traced again next time (calls left out for the time
    they would take, or because they failed, are left out the same way every time: that trace is kept)."""
    from gpuconfig.core.workers.interpreters import Interpreter
    from gpuconfig.core.workload import runner

    source = resolve_model("gpt2")
    workload = Workload(model="gpt2", precision="fp32", device="cpu")
    python = Interpreter(sys.executable, "chosen", "3.11.9", "2.13.0", transformers="4.56.0", diffusers="0.35.1")
    traces = Path(os.environ["GPUCONFIG_DATA_DIR"]) / "traces"
    for left_out, kept in ((2.0, 0), (0.0, 1)):
        point = {
            "event": "point",
            "batch": 1,
            "seq": 8,
            "kernel_calls_left_out": 3.0,
            "kernel_calls_too_large": left_out,
        }
        monkeypatch.setattr(runner, "_run_worker", lambda *_, point=point: [point])
        runner.trace_at(source, workload, [(1, 8, None)], None, python)
        assert len(list(traces.glob("*.json"))) == kept, left_out


def test_a_cpu_trace_is_kept_per_processor_and_thread_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CPU trace holds its convolutions' buffers as this CPU's kernels allocate them, which follow the
    instruction sets and the threads: another thread count is another trace; a GPU trace does not depend on it."""
    from gpuconfig.core.workers.interpreters import Interpreter
    from gpuconfig.core.workload.runner import cache_key, plan_points, trace_request

    source = resolve_model("gpt2")
    python = Interpreter("/envs/a/bin/python", "chosen", "3.11.9", "2.13.0", transformers="4.56.0", diffusers="0.35.1")
    keys: dict[str, list[str]] = {"cpu": [], "cuda": []}
    for threads in ("2", "8"):
        monkeypatch.setenv("OMP_NUM_THREADS", threads)
        for device in keys:
            workload = Workload(model="gpt2", precision="fp32", device=device)
            request = trace_request(source, workload, plan_points(source, 1, 64)[0])
            keys[device].append(cache_key(request, source, python))
    assert keys["cpu"][0] != keys["cpu"][1]
    assert keys["cuda"][0] == keys["cuda"][1]
