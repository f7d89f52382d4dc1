"""The attention implementation traced for real: the worker runs a small encoder under fake tensors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.core.workload.answer import answer_record
from gpuconfig.core.workload.service import Fit, TraceService
from gpuconfig.core.workload.spec import Workload
from gpuconfig.workers.tracer.events import TraceError
from gpuconfig.workers.tracer.point import trace_point

# A two-layer BERT with BERT's attention dropout (0.1): seq 512 makes its attention matrices the bulk.
TINY_BERT: dict[str, Any] = {
    "model_type": "bert",
    "hidden_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "intermediate_size": 128,
    "vocab_size": 1000,
    "max_position_embeddings": 512,
}
BATCH, SEQ = 2, 512


@pytest.fixture(scope="module")
def tiny_bert(module_data_dir: Path) -> Path:
    path = module_data_dir / "tiny-bert" / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(TINY_BERT))
    return path


@pytest.fixture(scope="module")
def fits(module_data_dir: Path, tiny_bert: Path) -> dict[tuple[str, str], Fit]:
    path = tiny_bert
    service = TraceService()
    cases = [("fp32", "eager"), ("fp32", "sdpa_efficient"), ("fp32", "auto"), ("amp_bf16", "auto")]
    return {
        (precision, attention): service.fit_for(
            Workload(str(path), precision=precision, batch=BATCH, seq=SEQ, attention=attention)
        )
        for precision, attention in cases
    }


def saved_after_forward(fit: Fit) -> float:
    return fit.fitted.at("forward.activations", BATCH, SEQ)


def test_eager_keeps_the_attention_probabilities_that_sdpa_does_not(fits: dict[tuple[str, str], Fit]) -> None:
    # Eager attention keeps, per layer, batch x heads x length^2 of: the softmax output (fp32, 4 bytes) for
    # softmax's backward, CUDA dropout's bool mask (1 byte) and the dropped probabilities (4 bytes) for the
    # matmul with the values. The memory-efficient kernel keeps one log-sum-exp per query instead.
    layers, heads = int(TINY_BERT["num_hidden_layers"]), int(TINY_BERT["num_attention_heads"])
    elements = layers * BATCH * heads * SEQ * SEQ
    expected = elements * (4 + 1 + 4)
    difference = saved_after_forward(fits["fp32", "eager"]) - saved_after_forward(fits["fp32", "sdpa_efficient"])
    assert difference == pytest.approx(expected, rel=0.01)
    assert fits["fp32", "eager"].fitted.attention["transformers"] == "eager"
    assert fits["fp32", "eager"].fitted.attention["kernels"] == []  # transformers' eager attention calls no SDPA


def test_auto_traces_what_an_sm80_card_runs_and_the_answer_names_it(fits: dict[tuple[str, str], Fit]) -> None:
    fp32, bf16 = fits["fp32", "auto"], fits["amp_bf16", "auto"]
    assert fp32.fitted.attention["kernels"] == ["efficient"]  # flash takes no fp32
    assert saved_after_forward(fp32) == saved_after_forward(fits["fp32", "sdpa_efficient"])
    assert bf16.fitted.attention["kernels"] == ["flash"] and bf16.fitted.attention["dtypes"] == ["bfloat16"]
    workload = Workload("bert-base", precision="amp_bf16", batch=BATCH, seq=SEQ)
    record = answer_record(bf16.answer(workload, None))
    assert record["attention"]["implementation"] == "sdpa_flash"
    assert record["attention"]["chosen_by"].startswith("auto: transformers picks sdpa")


def tiny_request(model_type: str, attention: str, **config: Any) -> dict[str, Any]:
    fields = {**TINY_BERT, "model_type": model_type, **config}
    return {
        "model": {"kind": "hf_config", "config": fields},
        "task": "finetune",
        "precision": "fp32",
        "optimizer": "adamw",
        "checkpointing": False,
        "lora_rank": 16,
        "device": "cuda",
        "attention": attention,
    }


def test_a_model_without_sdpa_runs_eager_and_refuses_sdpa_by_name() -> None:
    gemma2 = {"num_key_value_heads": 2, "head_dim": 16}  # transformers: no SDPA, for its logit soft-capping
    point = trace_point(tiny_request("gemma2", "auto", **gemma2), 1, 16)
    assert point["attention"]["transformers"] == "eager" and point["attention"]["supports_sdpa"] is False
    with pytest.raises(TraceError, match="no SDPA attention"):
        trace_point(tiny_request("gemma2", "sdpa_efficient", **gemma2), 1, 16)


def test_grouped_heads_run_math_where_flash_does_not_and_refuse_a_forced_efficient_kernel() -> None:
    """transformers passes a grouped-query model's keys grouped (enable_gqa); PyTorch's memory-efficient kernel
    does not take them, so fp32 (which flash does not take) falls back to math and keeps the scores."""
    llama = {"num_key_value_heads": 2, "hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128}
    fp32 = trace_point(tiny_request("llama", "auto", **llama), 1, 128)
    assert fp32["attention"]["kernels"] == ["math"] and fp32["attention"]["grouped"] is True
    bf16 = trace_point({**tiny_request("llama", "auto", **llama), "precision": "bf16"}, 1, 128)
    assert bf16["attention"]["kernels"] == ["flash"] and bf16["attention"]["grouped"] is True
    ungrouped = trace_point(tiny_request("llama", "auto", **{**llama, "num_key_value_heads": 4}), 1, 128)
    assert ungrouped["attention"]["kernels"] == ["efficient"] and ungrouped["attention"]["grouped"] is False
    # math keeps heads x length^2 scores per layer that memory-efficient does not: more activations at once
    assert fp32["memory"]["activations"] > ungrouped["memory"]["activations"]
    with pytest.raises(TraceError, match="sdpa_efficient takes no grouped key/value heads"):
        trace_point(tiny_request("llama", "sdpa_efficient", **llama), 1, 128)


def estimate(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`gpuconfig estimate` with the module's trace cache (the fits above are on disk there)."""
    env = {**os.environ, "GPUCONFIG_DATA_DIR": str(data)}
    command = [sys.executable, "-m", "gpuconfig", "estimate", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=False, env=env)


def test_the_attention_flag_reaches_the_workload_and_the_answer(
    module_data_dir: Path, tiny_bert: Path, fits: dict[tuple[str, str], Fit]
) -> None:
    asked = ("--model", str(tiny_bert), "--batch", str(BATCH), "--seq", str(SEQ), "--precision", "fp32")
    result = estimate(module_data_dir, *asked, "--attention", "eager", "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["workload"]["attention"] == "eager"
    assert record["attention"] == {"implementation": "eager", "chosen_by": "asked", "note": ""}
    assert (
        record["memory"]["activations"]
        > fits["fp32", "sdpa_efficient"]
        .answer(Workload(str(tiny_bert), precision="fp32", batch=BATCH, seq=SEQ), None)
        .estimate.memory.activations
    )
    text = estimate(module_data_dir, *asked, "--gpu", "nvidia-h100-sxm", "--attention", "auto")
    assert text.returncode == 0, text.stderr
    assert "attention: sdpa_efficient (auto: transformers picks sdpa; PyTorch picks memory-efficient: flash needs" in (
        text.stdout
    )
    refused = estimate(module_data_dir, *asked, "--device", "cpu", "--attention", "sdpa_efficient")
    assert refused.returncode == 2 and refused.stderr.strip() == (
        "gpuconfig: attention: sdpa_efficient runs on CUDA GPUs only"
    )
