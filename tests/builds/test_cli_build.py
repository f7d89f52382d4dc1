"""`gpuconfig build check` as users run it: exit 0 for a sound build, 1 for a failed rule, 2 for a bad file; the
workload a build was planned for judged against its cards (a real trace of GPT-2, once per module)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from gpuconfig.cli.main import build_parser
from gpuconfig.cli.options import workload
from gpuconfig.core.userdata.store import Store
from gpuconfig.core.workload.answer import gpu_spec
from gpuconfig.core.workload.fit import Verdict, user_headroom
from gpuconfig.core.workload.service import Fit, TraceService
from tests.builds.test_check import BIG_CARD, GIB, GPT2, SMALL_CARD, SOUND


def run(*args: str, data: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command; `data`, when given, is its data folder (where a module's trace is cached)."""
    env = {**os.environ, "GPUCONFIG_DATA_DIR": str(data)} if data is not None else None
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args], capture_output=True, text=True, timeout=300, check=False, env=env
    )


def write(tmp_path: Path, parts: dict[str, int], **extra: object) -> Path:
    path = tmp_path / "build.json"
    path.write_text(
        json.dumps({"name": "lab box", "parts": [{"id": i, "count": n} for i, n in parts.items()], **extra}),
        encoding="utf-8",
    )
    return path


def test_a_sound_build_passes(tmp_path: Path) -> None:
    result = run("build", "check", str(write(tmp_path, SOUND)), "--json")
    assert result.returncode == 0, result.stderr
    record = json.loads(result.stdout)
    assert record["verdict"] == "pass"
    assert record["total"]["currency"] == "USD" and record["total"]["amount"] > 2000
    assert record["power"]["psu_w"] == 1200 and record["power"]["required_psu_w"] <= 1200


def test_a_failing_build_exits_1_with_each_problem_and_fix(tmp_path: Path) -> None:
    parts = {**SOUND, "nvidia-geforce-rtx-4090": 2}
    result = run("build", "check", str(write(tmp_path, parts)))
    assert result.returncode == 1
    assert "FAIL  psu-watts" in result.stdout and "Fix:" in result.stdout
    assert "verdict: fail" in result.stdout


def test_totals_in_cny_and_a_circuit_from_the_command_line(tmp_path: Path) -> None:
    path = write(tmp_path, SOUND)
    record = json.loads(
        run("build", "check", str(path), "--currency", "CNY", "--circuit", "cn-220v-10a", "--json").stdout
    )
    assert record["total"]["currency"] == "CNY"
    assert record["power"]["circuit"]["watts"] == 1760


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not valid JSON"),
        ('{"parts": [{"id": "no-such-gpu"}]}', "'no-such-gpu' is not in the catalog"),
        ('{"parts": [{"id": "nvidia-geforce-rtx-4090"}], "circuit": "moon"}', "circuit: 'moon'"),
    ],
)
def test_a_bad_build_file_is_one_line_and_exit_2(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run("build", "check", str(path))
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    result = run("build", "check", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and "nope.json: no such file" in result.stderr


@pytest.fixture(scope="module")
def gpt2_fit(module_data_dir: Path) -> Fit:
    """Traced once into the module's data folder; the commands read it from the cache there."""
    return TraceService().fit_for(GPT2)


def on_card(tmp_path: Path, gpu: str, workload: object = GPT2.to_json()) -> Path:
    parts = {gpu: 1, **{i: n for i, n in SOUND.items() if i != BIG_CARD}}
    return write(tmp_path, parts, workload=workload)


def judged(store: Store, fit: Fit, gpu: str, percent: float | None = None) -> Verdict:
    headroom = user_headroom(percent) if percent is not None else store.user.headroom()
    found = fit.answer(GPT2, gpu_spec(store, gpu), headroom).verdict
    assert found is not None
    return found


def test_a_planned_workload_too_big_for_the_card_fails_the_check(
    tmp_path: Path, module_data_dir: Path, store: Store, gpt2_fit: Fit
) -> None:
    small = judged(store, gpt2_fit, SMALL_CARD)
    assert not small.fits  # the case, from the answer
    path = str(on_card(tmp_path, SMALL_CARD))
    result = run("build", "check", path, data=module_data_dir)
    assert result.returncode == 1, result.stderr
    row = next(line for line in result.stdout.splitlines() if "workload-memory" in line)
    assert row.startswith("FAIL  workload-memory: The workload, GPT-2 (124M) full fine-tune at batch 16 x 512, needs ")
    assert f"needs {small.peak / GIB:.1f} GiB; GeForce RTX 3070 has {small.usable / GIB:.1f} GiB usable" in row
    assert "it does not fit. Fix: A card with more memory, or one of the fits-if changes: gpuconfig estimate" in row
    assert "verdict: fail" in result.stdout

    record = json.loads(run("build", "check", path, "--json", data=module_data_dir).stdout)
    assert record["verdict"] == "fail"
    [problem] = [p for p in record["problems"] if p["rule"] == "workload-memory"]
    assert problem["severity"] == "fail" and problem["message"] in row and problem["fix"]
    [card] = record["workload_fit"]
    assert card["gpu"] == SMALL_CARD and card["gpus"] == 1 and card["workload"]["batch"] == 16
    assert card["fit"]["fits"] is False and card["fit"]["peak"] == small.peak and card["fit"]["usable"] == small.usable


def test_the_fix_names_the_estimate_command_of_this_workload_on_this_card(
    tmp_path: Path, module_data_dir: Path, gpt2_fit: Fit
) -> None:
    path = str(on_card(tmp_path, SMALL_CARD))
    record = json.loads(run("build", "check", path, "--json", data=module_data_dir).stdout)
    [problem] = [p for p in record["problems"] if p["rule"] == "workload-memory"]
    command = shlex.split(problem["fix"].split("changes: ", 1)[1].removesuffix(" lists them."))
    assert command[:2] == ["gpuconfig", "estimate"]
    args = build_parser().parse_args(command[1:])  # what the command line makes of it
    assert workload(args) == GPT2 and args.gpu == SMALL_CARD


def test_a_planned_workload_that_fits_passes_and_the_headroom_is_the_users(
    tmp_path: Path, module_data_dir: Path, store: Store, gpt2_fit: Fit
) -> None:
    big = judged(store, gpt2_fit, BIG_CARD)
    assert big.fits
    path = on_card(tmp_path, BIG_CARD)
    result = run("build", "check", str(path), data=module_data_dir)
    assert result.returncode == 0, result.stderr
    assert "INFO  workload-memory: The workload, GPT-2 (124M) full fine-tune at batch 16 x 512, needs " in result.stdout
    assert f"it fits, {big.spare / GIB:.1f} GiB to spare." in result.stdout and "verdict: pass" in result.stdout
    # Half the card kept free: the same workload only fits by using the headroom.
    half = judged(store, gpt2_fit, BIG_CARD, 50)
    assert half.tight
    result = run("build", "check", str(path), "--headroom", "50", "--json", data=module_data_dir)
    assert result.returncode == 1, result.stderr
    fit = json.loads(result.stdout)["workload_fit"][0]["fit"]
    assert fit["tight"] is True and fit["usable"] == half.usable and fit["headroom"]["why"] == "set by you"
    refused = run("build", "check", str(path), "--headroom", "60", data=module_data_dir)
    assert refused.returncode == 2 and "--headroom: must be at most 50" in refused.stderr


def test_a_damaged_workload_is_a_warning_and_a_missing_model_bad_input(tmp_path: Path) -> None:
    damaged = run("build", "check", str(on_card(tmp_path, BIG_CARD, {"model": "gpt2", "batch": 0})), "--json")
    assert damaged.returncode == 0, damaged.stderr  # the parts are checked; the workload's row says why not it
    [problem] = [p for p in json.loads(damaged.stdout)["problems"] if p["rule"] == "workload-memory"]
    assert problem["severity"] == "warn" and "batch: must be" in problem["message"]
    missing = run("build", "check", str(on_card(tmp_path, BIG_CARD, {"model": str(tmp_path / "gone.json")})))
    assert missing.returncode == 2 and missing.stderr.startswith("gpuconfig: workload: ")
    assert "gone.json" in missing.stderr and missing.stderr.count("\n") == 1


def test_the_build_list_exports_in_chinese_and_its_csv_keeps_english_identifiers(tmp_path: Path) -> None:
    build = str(write(tmp_path, SOUND))
    chinese = run("build", "export", build, "--lang", "zh_CN", "--currency", "CNY")
    assert chinese.returncode == 0, chinese.stderr
    assert "| 配件 | 名称 | 主要规格 | 数量 | 单价 | 合计 |" in chinese.stdout
    assert "## 功耗" in chinese.stdout and "## 检查" in chinese.stdout and "**合计**" in chinese.stdout
    html = run("build", "export", build, "--html", "--lang", "zh_CN")
    assert '<html lang="zh-CN">' in html.stdout and "<th>配件</th>" in html.stdout
    english = run("build", "export", build, "--csv")
    assert english.stdout.splitlines()[0] == "kind,part,id,key_specs,count,unit_price,line_total,currency,price_note"
    assert run("build", "export", build, "--csv", "--lang", "zh_CN").stdout.startswith("类别,配件,id,")


def test_an_unknown_language_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = run("build", "export", str(write(tmp_path, SOUND)), "--lang", "fr")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1].endswith("invalid choice: 'fr' (choose from 'en', 'zh_CN')")


def test_priced_in_cny_the_build_sits_on_a_chinese_220_v_circuit(tmp_path: Path) -> None:
    """A file without a circuit, or one priced for China: a 220 V / 10 A socket (1,760 W continuous), not 120 V."""
    usd = json.loads(run("build", "check", str(write(tmp_path, SOUND)), "--json").stdout)
    assert usd["power"]["circuit"]["id"] == "us-120v-15a"
    cny = json.loads(run("build", "check", str(write(tmp_path, SOUND)), "--currency", "CNY", "--json").stdout)
    assert (cny["power"]["circuit"]["id"], cny["power"]["circuit"]["watts"]) == ("cn-220v-10a", 1760)
    own = json.loads(run("build", "check", str(write(tmp_path, SOUND, currency="CNY")), "--json").stdout)
    assert own["power"]["circuit"]["id"] == "cn-220v-10a"
    named = write(tmp_path, SOUND, currency="CNY", circuit="cn-220v-16a")
    assert json.loads(run("build", "check", str(named), "--json").stdout)["power"]["circuit"]["watts"] == 2816
