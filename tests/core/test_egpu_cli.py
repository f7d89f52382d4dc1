"""`gpuconfig egpu` as users run it: this machine (no Thunderbolt host), described laptops, a workload's
slowdown from a real trace, and a real measurement on the CPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.core.test_guide_cli import run

TINY_LLAMA = Path(__file__).parents[1] / "data" / "tiny_llama.json"


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
