"""Parts and models named as users name them: an id, a name, words of a name, in any letters; a slip of the
keyboard gets the closest names back. Against the shipped catalog and the built-in models."""

from __future__ import annotations

import json

import pytest

from gpuconfig.core.catalog.model import Part
from gpuconfig.core.catalog.names import PartNotFound, closest, either, find_part
from gpuconfig.core.userdata.store import Store
from gpuconfig.core.workload.models import resolve_model, zoo
from gpuconfig.core.workload.spec import WorkloadError
from tests.core.test_guide_cli import run


@pytest.fixture
def parts(store: Store) -> list[Part]:
    return [p for kind in store.schema.kind_names for p in store.parts(kind)]


@pytest.mark.parametrize(
    ("text", "part_id"),
    [
        ("nvidia-geforce-gtx-1080", "nvidia-geforce-gtx-1080"),
        ("NVIDIA-GeForce-GTX-1080", "nvidia-geforce-gtx-1080"),
        ("GeForce GTX 1080", "nvidia-geforce-gtx-1080"),
        ("geforce  gtx 1080 ", "nvidia-geforce-gtx-1080"),
        ("NVIDIA GeForce RTX 4090", "nvidia-geforce-rtx-4090"),  # the vendor in front of a name without it
        ("RTX A4000", "nvidia-rtx-a4000"),  # and a name that has it, without
        ("rtx 4090", "nvidia-geforce-rtx-4090"),
        ("4090", "nvidia-geforce-rtx-4090"),
        ("RTX4090", "nvidia-geforce-rtx-4090"),
        ("rtx 3090", "nvidia-geforce-rtx-3090"),  # not the 3090 Ti: its words are the 3090's and one more
        ("gtx 1080", "nvidia-geforce-gtx-1080"),
        ("rtx a6000", "nvidia-rtx-a6000"),
    ],
)
def test_a_gpu_is_found_by_id_name_or_words(parts: list[Part], text: str, part_id: str) -> None:
    assert find_part(text, parts, "gpu").id == part_id


def test_words_that_fit_several_parts_list_them(parts: list[Part]) -> None:
    with pytest.raises(PartNotFound) as caught:
        find_part("rtx", parts, "gpu")
    message = str(caught.value)
    assert message.startswith("'rtx' could be any of ") and message.endswith("; give more of its name")
    assert "GeForce RTX 3060 12GB (nvidia-geforce-rtx-3060-12gb)" in message and " more;" in message
    assert len(caught.value.suggestions) > 5 and "\n" not in message
    with pytest.raises(PartNotFound, match=r"'a100' could be any of 3: A100 40GB SXM \(nvidia-a100-40gb-sxm\)"):
        find_part("a100", parts, "gpu")


def test_any_kind_searches_the_whole_catalog(parts: list[Part]) -> None:
    assert find_part("Razer Core X", parts).id == "razer-core-x"  # not the Core X V2: it has one word more
    with pytest.raises(PartNotFound, match=r"could be any of 4: GeForce RTX 4090 .* RunPod RTX 4090 .* Compshare"):
        find_part("4090", parts)
    assert find_part("rtx 4090", parts, "gpu").id == "nvidia-geforce-rtx-4090"  # not the China-only 4090 D
    assert find_part("4090 d", parts, "gpu").id == "nvidia-geforce-rtx-4090-d"


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("GeForce GTX 1800", "GeForce GTX 1080 (nvidia-geforce-gtx-1080)"),
        ("rtx 4900", "GeForce RTX 4090 (nvidia-geforce-rtx-4090)"),
        ("gefroce rtx 4090", "GeForce RTX 4090 (nvidia-geforce-rtx-4090)"),
        ("nvidia-geforce-rtx-4009", "GeForce RTX 4090 (nvidia-geforce-rtx-4090)"),
    ],
)
def test_a_typo_is_told_the_closest_part_first(parts: list[Part], text: str, meant: str) -> None:
    with pytest.raises(PartNotFound) as caught:
        find_part(text, parts, "gpu")
    assert str(caught.value).startswith(f"{text!r} is not a GPU in the catalog; did you mean {meant}")
    assert 1 <= len(caught.value.suggestions) <= 3


def test_nothing_like_it_and_another_kinds_part(parts: list[Part]) -> None:
    with pytest.raises(PartNotFound) as caught:
        find_part("nope", parts, "gpu")
    assert str(caught.value) == "'nope' is not a GPU in the catalog" and caught.value.suggestions == ()
    with pytest.raises(PartNotFound, match=r"^'razer-core-x' is not a gpu in the catalog but a dock \(Razer Core X\)$"):
        find_part("razer-core-x", parts, "gpu")


def test_closest_names_ignore_case() -> None:
    assert closest("LLAMA-2-7", ["llama-2-7b", "llama-2-70b", "gpt2"]) == ["llama-2-7b", "llama-2-70b"]
    assert closest("xyzzy", ["llama-2-7b"]) == []
    assert [either(c) for c in ([], ["a"], ["a", "b"], ["a", "b", "c"])] == ["", "a", "a or b", "a, b or c"]


def test_a_zoo_id_in_other_letters_is_the_zoo_model() -> None:
    source = resolve_model("Llama-3-8B")
    assert (source.ref, source.name) == ("llama-3-8b", zoo()["llama-3-8b"].name)
    assert source.digest == resolve_model("llama-3-8b").digest


def test_an_unknown_model_is_told_the_closest_zoo_ids() -> None:
    with pytest.raises(WorkloadError) as caught:
        resolve_model("llama-9b")
    message = str(caught.value)
    assert "'llama-9b' is not a built-in model, a config.json, a .py file or a Hugging Face id" in message
    meant = message.split("; did you mean ", 1)[1].split("?", 1)[0].replace(" or ", ", ").split(", ")
    assert meant and all(m.startswith("llama-") and m in zoo() for m in meant)
    with pytest.raises(WorkloadError) as caught:
        resolve_model("xyzzy")
    assert "did you mean" not in str(caught.value)


def test_the_guide_takes_a_cards_name() -> None:
    result = run("guide", "--gpu", "GeForce GTX 1080", "--os", "ubuntu-22.04")
    assert result.returncode == 0, result.stderr
    assert "whl/cu126" in result.stdout


def test_catalog_show_takes_words_of_a_name() -> None:
    result = run("catalog", "show", "razer core x", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["id"] == "razer-core-x"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ("guide", "--gpu", "rtx 4900", "--os", "ubuntu-22.04"),
            "gpuconfig: --gpu: 'rtx 4900' is not a GPU in the catalog; did you mean GeForce RTX 4090 "
            "(nvidia-geforce-rtx-4090)",
        ),
        (("guide", "--gpu", "rtx", "--os", "ubuntu-22.04"), "gpuconfig: --gpu: 'rtx' could be any of "),
        (
            ("guide", "--gpu", "nope", "--os", "ubuntu-22.04"),
            "gpuconfig: --gpu: 'nope' is not a GPU in the catalog (gpuconfig catalog list --kind gpu --query WORDS)",
        ),
        (("estimate", "--model", "llama-9b"), "did you mean llama-"),
        (("estimate", "--model", "gpt2", "--gpu", "GeForce GTX 1800"), "did you mean GeForce GTX 1080"),
        (("egpu", "--port", "TB4", "--dock", "razer core x9"), "--dock: 'razer core x9' is not a dock"),
    ],
)
def test_a_name_that_names_no_one_part_is_one_line_and_exit_2(args: tuple[str, ...], needle: str) -> None:
    result = run(*args)
    assert result.returncode == 2, result.stderr
    assert needle in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("typed", "model_id"),
    [("Llama 3 8B", "llama-3-8b"), ("llama 3 8b", "llama-3-8b"), ("qwen2.5 72b", "qwen2.5-72b"), ("GPT2", "gpt2")],
)
def test_a_built_in_model_resolves_by_its_name_or_words(typed: str, model_id: str) -> None:
    assert resolve_model(typed).ref == model_id


def test_words_that_name_several_models_list_them() -> None:
    with pytest.raises(WorkloadError, match=r"^model: 'llama' names several built-in models: llama-2-13b, "):
        resolve_model("llama")
