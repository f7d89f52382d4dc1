"""The workload description and model resolution: every bad input named in one line, before any trace."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuconfig.core.workload.advice import smaller_micro_batches
from gpuconfig.core.workload.estimate import Term, fit_term
from gpuconfig.core.workload.families import family_of
from gpuconfig.core.workload.models import resolve_model, zoo
from gpuconfig.core.workload.spec import MAX_GPUS, MAX_LORA_RANK, MAX_SIZE, Workload, WorkloadError


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"batch": 0}, "batch: must be a positive number, got 0"),
        ({"grad_accum": -2}, "grad_accum: must be a positive number, got -2"),
        ({"seq": 0}, "seq: must be a positive number, got 0"),
        ({"batch": 2.0}, "batch: expected a whole number, got 2.0"),
        ({"batch": True}, "batch: expected a whole number, got True"),
        ({"batch": 10**20}, "batch: must be at most 1,000,000, got 100000000000000000000"),
        ({"seq": 1_000_001}, "seq: must be at most 1,000,000"),
        ({"generate": -1}, "generate: must be zero or a positive number, got -1"),
        ({"generate": 10**7}, "generate: must be at most 1,000,000"),
        ({"grad_accum": 2**63}, "grad_accum: must be at most 1,000,000"),
        ({"gpus": 1025}, "gpus: must be at most 1,024, got 1025"),
        ({"lora_rank": 4097}, "lora_rank: must be at most 4,096, got 4097"),
        ({"lora_targets": "q_proj, v_proj"}, "lora_targets: default, all-linear or module names"),
        ({"lora_targets": ""}, "lora_targets: default, all-linear or module names"),
        ({"lora_alpha": 0}, "lora_alpha: must be a positive number, got 0"),
        ({"lora_dropout": 1.0}, "lora_dropout: must be below 1"),
        ({"lora_dropout": -0.1}, "lora_dropout: must be zero or a positive number"),
        ({"task": "train"}, "task: 'train' is not one of"),
        ({"precision": "fp64"}, "precision: 'fp64' is not one of"),
        ({"precision": "int4", "task": "finetune"}, "precision: int4 weights are for inference"),
        ({"device": "cpu", "gpus": 2}, "gpus: a CPU workload runs on one device"),
        ({"model": " "}, "model: empty"),
    ],
)
def test_bad_workloads_are_refused_with_the_field_named(changes: dict[str, object], message: str) -> None:
    fields = {"model": "gpt2", **changes}
    with pytest.raises(WorkloadError, match="^" + message.replace("(", r"\(")):
        Workload(**fields)  # type: ignore[arg-type]


def test_a_workload_may_ask_up_to_each_ceiling() -> None:
    Workload("gpt2", task="inference", batch=MAX_SIZE, seq=MAX_SIZE, generate=MAX_SIZE, lora_rank=MAX_LORA_RANK)
    Workload("gpt2", grad_accum=MAX_SIZE, gpus=MAX_GPUS)
    Workload("gpt2", task="qlora", lora_targets="c_attn,c_proj", lora_dropout=0.99, double_quant=True)


def test_smaller_micro_batches_stop_where_the_accumulation_would_pass_its_ceiling() -> None:
    workload = Workload("gpt2", batch=2**19, grad_accum=4)
    halves = [(w.batch, w.grad_accum) for w in smaller_micro_batches(workload)]
    assert halves[0] == (2**18, 8)
    assert halves[-1][1] * 2 > MAX_SIZE and all(accum <= MAX_SIZE for _, accum in halves)
    assert all(batch * accum == 2**21 for batch, accum in halves)


def test_the_zoo_has_every_model_the_wizard_offers() -> None:
    wanted = {
        "resnet-18",
        "resnet-50",
        "resnet-152",
        "vit-base",
        "vit-large",
        "bert-base",
        "bert-large",
        "gpt2",
        "gpt2-medium",
        "gpt2-large",
        "gpt2-xl",
        "llama-2-7b",
        "llama-2-13b",
        "llama-2-70b",
        "llama-3-8b",
        "llama-3-70b",
        "mistral-7b",
        "qwen2.5-0.5b",
        "qwen2.5-72b",
        "whisper-small",
        "sd-unet",
    }
    assert wanted <= set(zoo())
    for model_id, entry in zoo().items():
        assert entry.sources, model_id
        source = resolve_model(model_id)  # every shipped config passes the field check
        assert source.family in ("llm", "encoder", "vision", "speech", "diffusion"), model_id
        assert family_of(source.config).id == entry.family, model_id  # the zoo's family is the one decided


def test_unknown_model_type_and_missing_fields_are_named(tmp_path: Path) -> None:
    odd = tmp_path / "odd" / "config.json"
    odd.parent.mkdir()
    odd.write_text(json.dumps({"model_type": "perceiver", "d_model": 8}))
    # a model type no rule names is taken for a decoder LLM and checked for what one needs
    with pytest.raises(WorkloadError, match=re.escape("config for perceiver is missing num_hidden_layers (or n_layer")):
        resolve_model(str(odd))
    short = tmp_path / "short.json"
    short.write_text(json.dumps({"model_type": "llama", "hidden_size": 64, "vocab_size": 100}))
    with pytest.raises(
        WorkloadError, match="config for llama is missing num_hidden_layers, num_attention_heads, intermediate_size"
    ):
        resolve_model(str(short))
    broken = tmp_path / "broken.json"
    broken.write_text('{"model_type": "gpt2",\n  "n_embd": }')
    with pytest.raises(WorkloadError, match=r"broken.json:2: not valid JSON"):
        resolve_model(str(broken))
    with pytest.raises(
        WorkloadError, match=r"is not a built-in model, a config\.json, a \.py file or a Hugging Face id"
    ):
        resolve_model("gpt-7")
    with pytest.raises(WorkloadError, match="no such file"):
        resolve_model(str(tmp_path / "missing.py"))


def test_a_fitted_term_reproduces_the_traced_points_exactly() -> None:
    truth = Term(c=1000.0, alpha=3.0, beta=0.25)
    points = [(b, s, truth.at(b, s)) for b, s in ((4, 128), (8, 128), (4, 64))]
    fitted = fit_term(points)
    for b, s in ((4, 128), (8, 128), (4, 64), (16, 512), (1, 1)):
        assert fitted.at(b, s) == pytest.approx(truth.at(b, s), rel=1e-9)
    assert fit_term(points[:2]).at(4, 128) == pytest.approx(truth.at(4, 128))
