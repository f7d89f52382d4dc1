"""`gpuconfig egpu` as users run it: this machine (no Thunderbolt host), described laptops, a workload's
slowdown from a real trace, a workload too big for the card (a real trace of Llama-3-8B, once per module), and
a real measurement on the CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuconfig.core.build.rules import build_rules
from gpuconfig.core.egpu.check import Host
from gpuconfig.core.egpu.report import egpu_record, egpu_text, evaluate
from gpuconfig.core.egpu.tables import egpu_tables
from gpuconfig.core.userdata.store import Store
from gpuconfig.core.workload.answer import gpu_spec
from gpuconfig.core.workload.fit import default_headroom
from gpuconfig.core.workload.service import Fit, TraceService
from gpuconfig.core.workload.spec import Workload
from tests.core.test_guide_cli import run

TINY_LLAMA = Path(__file__).parents[1] / "data" / "tiny_llama.json"
GIB = 1024**3
# The case: Llama-3-8B LoRA in bf16 at 2,048 tokens without checkpointing (about 29.5 GiB) on a 12 GB card.
LORA_8B = Workload("llama-3-8b", task="lora", precision="bf16", batch=1, seq=2048)
LORA_8B_ARGS = ("--model", "llama-3-8b", "--task", "lora", "--seq", "2048", "--precision", "bf16")
RTX_4070 = "nvidia-geforce-rtx-4070"


@pytest.fixture(scope="module")
def lora_8b(module_data_dir: Path) -> Fit:
    """Traced once into the module's data folder; the commands below read it from there."""
    return TraceService().fit_for(LORA_8B)


def test_a_workload_too_big_for_the_card_does_not_fit_and_gets_no_step_time(store: Store, lora_8b: Fit) -> None:
    answer = lora_8b.answer(LORA_8B, gpu_spec(store, RTX_4070))
    verdict = answer.verdict
    assert verdict is not None and not verdict.fits and not verdict.tight  # ~29.5 GiB against 12 GiB
    assert verdict.headroom == default_headroom()
    report = evaluate(
        Host("TB4", "linux"), store.part("razer-core-x"), store.part(RTX_4070), egpu_tables(), build_rules(), answer
    )
    assert report.compatibility is not None and report.compatibility.status != "fail"  # the parts work together
    assert report.status == "fail" and report.fits is False
    fit = report.fit
    assert fit is not None and fit.status == "fail" and fit.fix
    needed = f"needs {verdict.peak / GIB:.1f} GiB"
    usable = f"{verdict.usable / GIB:.1f} GiB usable ({verdict.memory / GIB:.1f} GiB less {verdict.headroom.percent}"
    assert needed in fit.message and usable in fit.message and fit.message.endswith("it does not fit")
    assert report.slowdown is None and "does not fit" in report.slowdown_note  # no step time for what cannot run
    record = egpu_record(report)
    assert record["status"] == "fail" and record["slowdown"] is None
    assert record["fit"]["verdict"]["fits"] is False and record["fit"]["verdict"]["peak"] == verdict.peak
    text = egpu_text(report)
    assert "compatible; the workload does not fit the card" in text
    assert f"[FAIL] fit: Llama 3 8B LoRA {needed}" in text and "GeForce RTX 4070 has" in text


def test_the_command_says_the_workload_does_not_fit_with_the_memory_it_needs(
    module_data_dir: Path, lora_8b: Fit
) -> None:
    env = {**os.environ, "GPUCONFIG_DATA_DIR": str(module_data_dir)}  # the module's trace, from its cache
    args = ["egpu", "--port", "TB4", "--dock", "razer-core-x", "--gpu", RTX_4070, *LORA_8B_ARGS]
    done = subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert done.returncode == 1, done.stderr  # a failed verdict
    record = json.loads(done.stdout)
    verdict = record["fit"]["verdict"]
    assert verdict["fits"] is False and verdict["peak"] > verdict["memory"] == 12 * GIB
    assert record["slowdown"] is None and record["compatibility"]["status"] != "fail"
    text = subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args], capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert text.returncode == 1, text.stderr
    assert "does not fit" in text.stdout and f"needs {verdict['peak'] / GIB:.1f} GiB" in text.stdout
    assert f"{verdict['usable'] / GIB:.1f} GiB usable" in text.stdout


def test_this_machine_reports_no_host_found_with_the_reason() -> None:
    result = run("egpu", "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    detected = record["detected"]
    if detected["found"]:
        return  # a machine with a Thunderbolt controller: nothing more to say here
    assert detected["reason"] == "no Thunderbolt/USB4 controller found (/sys/bus/thunderbolt has no devices)"
    assert record["compatibility"] is None and record["status"] == "unknown"
    text = run("egpu")
    assert text.returncode == 0 and "Host: no Thunderbolt/USB4 controller found" in text.stdout
    assert "--port" in text.stdout  # says how to describe the laptop instead


def test_a_card_too_hungry_for_its_enclosure_fails_with_exit_1() -> None:
    result = run("egpu", "--port", "TB3", "--dock", "sapphire-gearbox", "--gpu", "nvidia-geforce-rtx-4090", "--json")
    assert result.returncode == 1, result.stderr
    record = json.loads(result.stdout)
    assert record["compatibility"]["status"] == "fail"
    fails = [c for c in record["compatibility"]["checks"] if c["status"] == "fail"]
    assert [c["rule"] for c in fails] == ["power"]


def test_an_oculink_enclosure_on_a_thunderbolt_port() -> None:
    result = run("egpu", "--port", "TB4", "--dock", "aoostar-ag02", "--gpu", "nvidia-geforce-rtx-4070")
    assert result.returncode == 1
    assert "will not work" in result.stdout and "OCuLink enclosure needs an OCuLink port" in result.stdout


def test_bad_input_is_one_line_and_exit_2() -> None:
    for args, needle in (
        (("--dock", "no-such-dock"), "--dock: 'no-such-dock' is not a dock in the catalog"),
        (("--gpu", "razer-core-x"), "--gpu: 'razer-core-x' is not a gpu in the catalog"),
        (("--charger", "5000"), "--charger: 5000 W is not a laptop charger"),
        (("--port", "TB9"), "invalid choice: 'TB9'"),
        (("--model", "gpt2"), "--model: the slowdown needs the card (--gpu)"),
    ):
        result = run("egpu", *args)
        assert result.returncode == 2, args
        assert needle in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_workloads_slowdown_counts_the_bytes_its_steps_copy(tmp_path: Path) -> None:
    config = tmp_path / "tiny" / "config.json"
    config.parent.mkdir()
    config.write_text(TINY_LLAMA.read_text(encoding="utf-8"), encoding="utf-8")
    result = run(
        "egpu", "--port", "TB4", "--dock", "razer-core-x", "--gpu", "nvidia-geforce-rtx-4070",
        "--model", str(config), "--task", "pretrain", "--batch", "4", "--seq", "64", "--grad-accum", "2", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    slow = json.loads(result.stdout)["slowdown"]
    # input_ids and labels, int64, for each of the two micro-batches: what the trace saw, to the byte
    assert slow["input_bytes_per_step"] == 2 * (4 * 64 * 8 * 2)
    assert slow["egpu_copy_seconds"] > slow["desktop_copy_seconds"] > 0
    assert 0 <= slow["slowdown_overlapped"] <= slow["slowdown_serial"]
    assert slow["weights_bytes"] > 0 and slow["workload"].endswith("batch 4 x 64")
    fit = json.loads(result.stdout)["fit"]  # a tiny model fits the card, and says with what headroom
    assert fit["status"] == "ok" and fit["verdict"]["fits"] is True and "it fits" in fit["message"]


def test_measure_on_this_machine_runs_the_worker_and_says_no_link_was_crossed() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gpuconfig", "egpu", "--port", "TB3", "--measure", "--json"],
        env={**os.environ, "CUDA_VISIBLE_DEVICES": ""},  # no CUDA device, on a machine with a GPU too
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    measured = {c["rule"]: c for c in json.loads(result.stdout)["measured"]}
    assert measured["h2d-measured"]["status"] == "unknown"
    assert "no CUDA device" in measured["h2d-measured"]["message"]
    assert "no link was crossed" in measured["step-measured"]["message"]
