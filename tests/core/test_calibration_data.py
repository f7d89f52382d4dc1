"""The published results the time model is calibrated on: each complete, cited, and about a known GPU and model."""

from __future__ import annotations

import tomllib
from urllib.parse import urlparse

from gpuconfig.core.paths import catalog_dir

UNITS = {"samples_per_s", "tokens_per_s", "tokens_per_s_per_gpu"}


def load(name: str) -> dict:
    with (catalog_dir() / name).open("rb") as handle:
        return tomllib.load(handle)


def test_every_result_is_complete_cited_and_names_a_known_gpu_and_model() -> None:
    results = load("calibration.toml")["result"]
    gpus = {part["id"] for part in load("gpu.toml")["part"]}
    models = {model["id"] for model in load("models.toml")["model"]}
    assert len({r["id"] for r in results}) == len(results)
    for r in results:
        assert r["unit"] in UNITS, r["id"]
        assert r["throughput"] > 0 and r["batch"] > 0 and r["seq"] > 0, r["id"]
        assert urlparse(r["source"]["url"]).scheme == "https" and r["source"]["title"], r["id"]
        assert r["gpu"] in gpus and r["model"] in models, r["id"]
        if r.get("gpus", 1) > 1:
            assert r["parallel"] in ("ddp", "fsdp"), r["id"]
        else:
            assert not r["unit"].endswith("_per_gpu"), r["id"]


def test_the_results_span_the_sources_gpus_and_workloads_the_calibration_claims() -> None:
    results = load("calibration.toml")["result"]
    sources = {"/".join(urlparse(r["source"]["url"]).path.split("/")[1:3]) for r in results}
    assert len(results) >= 40 and len(sources) >= 5
    assert len({r["gpu"] for r in results}) >= 10
    assert {"lora", "finetune", "pretrain"} <= {r["task"] for r in results}
    assert any(r.get("gpus", 1) > 1 for r in results)
