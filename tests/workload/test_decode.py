"""Generation priced in its phases: the prompt's pass (prefill), then decode steps that read every weight once
for the whole batch and the batch's KV cache as it grows, plus eager PyTorch's kernel launches."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gpuconfig.core.workload import answer
from gpuconfig.core.workload.estimate import DecodeEfficiency, Efficiency, Fitted, GpuSpec, Term, decode_at, time_at
from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.spec import Workload

GB = 1e9
WEIGHTS = 14e9  # a 7B model in bf16
KV_PER_TOKEN = 0.5e6  # bytes per token per sequence
KERNELS = 1000.0
GPU = GpuSpec("gpu", "A GPU", 80 * 1024**3, 2000.0, 19.5, 156.0, 312.0, 312.0, None, 8, 0)
DECODE = DecodeEfficiency(bandwidth=0.75, launch_seconds=20e-6, source="test")
COMPILED = DecodeEfficiency(bandwidth=0.75, launch_seconds=0.0, source="test")


def fitted() -> Fitted:
    """A decoder whose traced prompt pass has these weights, this cache per token, 2 FLOPs per weight per
    token in bf16 and no other bytes."""
    terms = {
        "forward.weights": Term(WEIGHTS, 0.0, 0.0),
        "kv_cache_bytes": Term(0.0, KV_PER_TOKEN, 0.0),
        "kernels": Term(KERNELS, 0.0, 0.0),
        "flops": Term(0.0, 2 * 7e9, 0.0),
        "flops.bfloat16": Term(0.0, 2 * 7e9, 0.0),
    }
    return Fitted(terms, 0, None)


def workload(batch: int = 1, generate: int = 101, seq: int = 1000) -> Workload:
    return Workload(model="x", task="inference", batch=batch, seq=seq, generate=generate, precision="bf16")


def test_a_decode_step_reads_the_weights_and_the_cache_at_the_fitted_bandwidth_plus_its_launches() -> None:
    g = decode_at(fitted(), workload(), 1, 1000, GPU, DECODE, prefill_seconds=0.5)
    bandwidth = 2000 * GB * 0.75
    first = (WEIGHTS + KV_PER_TOKEN * 1001) / bandwidth + KERNELS * 20e-6
    last = (WEIGHTS + KV_PER_TOKEN * 1100) / bandwidth + KERNELS * 20e-6
    assert g.first_step_seconds == pytest.approx(first) and g.last_step_seconds == pytest.approx(last)
    assert g.decode_seconds == pytest.approx(100 * (first + last) / 2)  # 100 steps after the prompt's token
    assert g.prefill_seconds == 0.5
    assert g.tokens_per_s_per_sequence == pytest.approx(100 / g.decode_seconds)
    assert g.bound == "kernel launches" and g.engine == "eager"  # 20 ms of launches against 9.3 ms of reads
    assert decode_at(fitted(), workload(), 1, 1000, GPU, COMPILED, 0.5).bound == "memory bandwidth"
    assert g.compiled_tokens_per_s_per_sequence > g.tokens_per_s_per_sequence


def test_the_batch_shares_the_weights_so_total_rate_grows_and_each_sequence_slows() -> None:
    one = decode_at(fitted(), workload(), 1, 1000, GPU, COMPILED, 0.0)
    eight = decode_at(fitted(), workload(batch=8), 8, 1000, GPU, COMPILED, 0.0)
    assert eight.tokens_per_s_total > 6 * one.tokens_per_s_total  # the weights are read once for all eight
    assert eight.tokens_per_s_per_sequence < one.tokens_per_s_per_sequence  # eight caches to read


def test_long_generations_are_priced_at_spaced_contexts_without_losing_the_sum() -> None:
    exact = decode_at(fitted(), workload(generate=513), 1, 1000, GPU, COMPILED, 0.0)
    sampled = decode_at(fitted(), workload(generate=20_001), 1, 1000, GPU, COMPILED, 0.0)
    bandwidth = 2000 * GB * 0.75
    mean_context = 1000 + (1 + 20_000) / 2
    assert sampled.decode_seconds == pytest.approx(
        20_000 * (WEIGHTS + KV_PER_TOKEN * mean_context) / bandwidth, rel=1e-3
    )
    assert exact.decode_seconds < sampled.decode_seconds


def test_the_request_time_is_prefill_and_decode_and_its_rate_counts_generated_tokens() -> None:
    efficiency = Efficiency(compute=0.5, memory=0.5, source="test")
    source = resolve_model("llama-2-7b")
    timing = time_at(fitted(), workload(batch=2), source, 2, 1000, GPU, efficiency, DECODE)
    g = timing.generation
    assert g is not None
    prompt = 2 * 1000 * 2 * 7e9 / (312e12 * 0.5)
    assert g.prefill_seconds == pytest.approx(prompt)
    assert timing.step_seconds == pytest.approx(g.prefill_seconds + g.decode_seconds)
    assert timing.tokens_per_s == pytest.approx(2 * 101 / timing.step_seconds)


def test_without_a_decode_calibration_generation_is_not_priced_by_its_prompt_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(answer, "decode_efficiency", lambda: None)
    source = resolve_model("llama-2-7b")
    timing, note = answer.timing_for(fitted(), workload(), source, 1, 1000, GPU)
    assert timing is None and note == answer.NO_DECODE
    prompt_only, _ = answer.timing_for(fitted(), workload(generate=0), source, 1, 1000, GPU)
    assert prompt_only is not None and prompt_only.generation is None


def test_the_decode_calibration_is_the_benchmarks() -> None:
    fitted_decode = answer.decode_efficiency()
    assert fitted_decode is not None, "catalog/decode_efficiency.toml is written by benchmarks/decode_calibration.py"
    assert 0.3 < fitted_decode.bandwidth <= 1 and 0 < fitted_decode.launch_seconds < 1e-3
    assert "decode_calibration.py" in fitted_decode.source


def test_the_command_line_prices_a_generation_in_its_phases(tmp_path: object) -> None:
    """Llama-3-8B, a 1,024-token prompt and 256 tokens on an RTX 4090: every decode step reads the ~15 GiB of
    weights, so 256 tokens take seconds, not the prompt pass's fraction of one."""
    args = ["--model", "llama-3-8b", "--task", "inference", "--batch", "1", "--seq", "1024", "--generate", "256"]
    args += ["--precision", "bf16", "--gpu", "nvidia-geforce-rtx-4090", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "gpuconfig", "estimate", *args], capture_output=True, text=True, timeout=600, check=True
    )
    time = json.loads(done.stdout)["time"]
    g = time["generation"]
    floor = 255 * g["weight_bytes_per_step"] / (1008e9)  # every weight read per token at the full bandwidth
    assert g["decode_seconds"] > floor > 3.0
    assert time["step_seconds"] == pytest.approx(g["time_to_first_token_seconds"] + g["decode_seconds"])
    assert g["tokens_per_s_per_sequence"] < 1 / (g["weight_bytes_per_step"] / 1008e9)


def test_data_parallel_replicas_each_generate_their_batch() -> None:
    efficiency = Efficiency(compute=0.5, memory=0.5, source="test")
    source = resolve_model("llama-2-7b")
    one = time_at(fitted(), workload(), source, 1, 1000, GPU, efficiency, DECODE)
    two = time_at(fitted(), workload().with_changes(gpus=2, strategy="ddp"), source, 1, 1000, GPU, efficiency, DECODE)
    assert two.step_seconds == pytest.approx(one.step_seconds)  # each card runs its own requests
    assert two.tokens_per_s == pytest.approx(2 * (one.tokens_per_s or 0))


def test_one_generated_token_is_the_prompts_pass_alone() -> None:
    efficiency = Efficiency(compute=0.5, memory=0.5, source="test")
    timing = time_at(fitted(), workload(generate=1), resolve_model("llama-2-7b"), 1, 1000, GPU, efficiency, DECODE)
    assert timing.generation is None and timing.step_seconds > 0


def test_an_eager_step_takes_at_least_its_kernel_launches() -> None:
    """The host issues one kernel at a time: a training micro-batch whose 1,000 kernels take 20 ms to launch
    is paced by them when the GPU's work is shorter, and by the GPU when it is longer; compiled, no floor."""
    efficiency = Efficiency(1.0, 1.0, "test", 1.0)
    source = resolve_model("llama-2-7b")
    training = Workload(model="x", task="finetune", batch=1, seq=16, precision="bf16", grad_accum=3)
    short = time_at(fitted(), training, source, 1, 16, GPU, efficiency, DECODE)  # 224 GFLOP: 0.7 ms of matmuls
    assert short.bound == "kernel launches" and short.kernels == KERNELS
    assert short.launch_seconds == pytest.approx(KERNELS * 20e-6)
    assert short.step_seconds == pytest.approx(3 * KERNELS * 20e-6)  # each micro-batch launches its kernels
    long = time_at(fitted(), training, source, 1, 4096, GPU, efficiency, DECODE)  # 57 TFLOP: 184 ms per micro
    assert long.bound == "GPU" and long.step_seconds == pytest.approx(3 * 4096 * 2 * 7e9 / 312e12)
    compiled = time_at(fitted(), training, source, 1, 16, GPU, efficiency, COMPILED)
    assert compiled.bound == "GPU" and compiled.step_seconds < short.step_seconds
