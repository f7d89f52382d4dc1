"""Messages for wrong input name the field, the value and what is expected, with the documented exit code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.spec import WorkloadError
from tests.core.test_cli import run


def _config(tmp_path: Path, model: str, **changes: object) -> Path:
    config = json.loads((catalog_dir() / "models" / f"{model}.json").read_text(encoding="utf-8"))
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**config, **changes}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("value", "shown"),
    [("twelve", "'twelve'"), (-1, "-1"), (0, "0"), (12.5, "12.5"), (True, "True")],
)
def test_a_config_size_of_the_wrong_type_or_sign_is_bad_input(tmp_path: Path, value: object, shown: str) -> None:
    path = _config(tmp_path, "gpt2", n_layer=value)
    result = run("estimate", "--model", str(path), "--seq", "64", "--gpu", "nvidia-geforce-rtx-3060-12gb")
    assert result.returncode == 2
    assert result.stderr == (f"gpuconfig: model: {path}: n_layer: expected a whole number of at least 1, got {shown}\n")


def test_a_wrong_type_the_trace_finds_is_named_whole_and_bad_input(tmp_path: Path) -> None:
    path = _config(tmp_path, "gpt2", n_positions="x")  # not a size gpuconfig checks: transformers' check says it
    result = run("estimate", "--model", str(path), "--seq", "64", "--device", "cpu", "--no-cache")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "n_positions" in result.stderr and "expected int, got str (value: 'x')" in result.stderr


@pytest.mark.parametrize(
    ("model", "key", "value", "expected"),
    [
        ("resnet-18", "depths", [2, "two", 2, 2], "a list of whole numbers of at least 1"),
        ("resnet-18", "layer_type", 3, "text"),
        ("sd-unet", "down_block_types", "CrossAttnDownBlock2D", "a list of block names (text)"),
        ("sd-unet", "cross_attention_dim", [768, -1], "a whole number of at least 1, or a list of them"),
        ("llama-2-7b", "num_attention_heads", None, "a whole number of at least 1"),
    ],
)
def test_each_kind_of_config_value_is_checked(
    tmp_path: Path, model: str, key: str, value: object, expected: str
) -> None:
    with pytest.raises(WorkloadError, match=re.escape(f": {key}: expected {expected}, got ")):
        resolve_model(str(_config(tmp_path, model, **{key: value})))


def test_every_built_in_config_passes_the_checks() -> None:
    from gpuconfig.core.workload.models import zoo

    for model in zoo():
        assert resolve_model(model).ref == model


def test_a_build_version_written_as_text_is_a_type_error(tmp_path: Path) -> None:
    path = tmp_path / "build.json"
    path.write_text(json.dumps({"version": "1", "parts": ["nvidia-geforce-rtx-4090"]}), encoding="utf-8")
    result = run("build", "check", str(path))
    assert result.returncode == 2
    assert result.stderr == f"gpuconfig: {path}: version must be a whole number such as 1, not '1'\n"


def test_an_empty_catalog_file_is_the_one_problem_named(catalog_copy: Path) -> None:
    (catalog_copy / "gpu.toml").write_text("", encoding="utf-8")
    result = run("catalog", "check", "--dir", str(catalog_copy))
    assert result.returncode == 2
    assert result.stderr == "gpu.toml: no parts: list each gpu as a [[part]] table\n"


def test_a_driver_that_is_not_a_version_is_bad_input() -> None:
    result = run("guide", "--gpu", "nvidia-geforce-rtx-3060-12gb", "--os", "ubuntu-24.04", "--driver", "abc")
    assert result.returncode == 2
    assert result.stderr == "gpuconfig: driver: 'abc' is not a version like 560.35.03\n"


def test_a_guide_with_a_failing_finding_exits_1() -> None:
    result = run(
        "guide",
        "--gpu",
        "nvidia-geforce-rtx-3060-12gb",
        "--os",
        "ubuntu-24.04",
        "--driver",
        "400.1",
        "--json",
    )
    assert result.returncode == 1, result.stderr
    assert any(f["severity"] == "fail" for f in json.loads(result.stdout)["findings"])
    sound = run("guide", "--gpu", "nvidia-geforce-rtx-3060-12gb", "--os", "ubuntu-24.04")
    assert sound.returncode == 0, sound.stderr
