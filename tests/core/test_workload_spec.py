"""The workload description and model resolution: every bad input named in one line, before any trace."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuconfig.core.workload.advice import smaller_micro_batches
from gpuconfig.core.workload.estimate import Term, fit_term
from gpuconfig.core.workload.families import check_length, family_of
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


@pytest.mark.parametrize(
    ("config", "seq", "generated", "refused"),
    [
        ({"model_type": "gpt2", "n_positions": 1024}, 1024, 0, ""),
        ({"model_type": "gpt2", "n_positions": 1024}, 1025, 0, "1,025 tokens is longer than m's 1,024 learned"),
        ({"model_type": "gpt2", "n_positions": 1024}, 1000, 24, ""),
        ({"model_type": "gpt2", "n_positions": 1024}, 1000, 25, "1,000 + 25 generated tokens is longer"),
        ({"model_type": "roberta", "max_position_embeddings": 514}, 512, 0, ""),  # numbered from pad_token_id + 1
        ({"model_type": "roberta", "max_position_embeddings": 514}, 513, 0, "m's 512 learned positions"),
        ({"model_type": "opt", "max_position_embeddings": 2048}, 2048, 0, ""),  # its offset of 2 is in the table
        ({"model_type": "whisper", "max_target_positions": 448}, 449, 0, "(max_target_positions in its config)"),
        ({"model_type": "llama", "max_position_embeddings": 4096}, 16384, 0, ""),  # rotary: no table to run past
        ({"model_type": "vit", "image_size": 224}, 224, 0, ""),
        ({"model_type": "vit", "image_size": 224}, 32, 0, "takes images of 224 pixels a side only"),
        ({"model_type": "resnet", "image_size": 224}, 160, 0, ""),  # convolutions take any side
    ],
)
def test_a_length_a_real_run_could_not_take_is_refused_before_any_trace(
    config: dict[str, object], seq: int, generated: int, refused: str
) -> None:
    if not refused:
        check_length("m", config, seq, generated)
        return
    with pytest.raises(WorkloadError, match=re.escape(refused)):
        check_length("m", config, seq, generated)


def test_the_zoos_gpt2_at_4096_tokens_is_refused_in_one_line_with_its_table() -> None:
    from gpuconfig.core.workload.service import TraceService

    service = TraceService()
    assert service.resolve(Workload(model="gpt2", seq=1024)).shape == (1, 1024)
    refused = r"^seq: 4,096 tokens is longer than GPT-2 \(124M\)'s 1,024 learned positions"
    with pytest.raises(WorkloadError, match=refused):
        service.resolve(Workload(model="gpt2", seq=4096))
