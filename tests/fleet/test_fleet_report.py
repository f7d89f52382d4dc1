"""`gpuconfig fleet report`: a folder of node reports judged together (core/fleet), from fleet run or any scheduler."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.fleet_synthetic import node_record, template, write_fleet
from gpuconfig.core.fleet.diagnose import FAILED, OK, OUTLIER, WARNING, diagnose, load_baseline, tone
from gpuconfig.core.fleet.hostlist import HostlistError, compress, expand
from gpuconfig.core.fleet.reports import FleetError, read_folder
from gpuconfig.core.fleet.rules import RulesError, load_rules

BF16 = "matmul/bf16@cuda:0"


def report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", "fleet", "report", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def fleet_with(folder: Path, count: int = 8, **changes: object) -> dict[str, dict]:
    """`count` reports with ±1 % noise; changes[node] edits that node's record (a function of it)."""
    import random

    rng = random.Random(3)
    base = template()
    folder.mkdir(parents=True, exist_ok=True)
    records = {}
    for i in range(1, count + 1):
        node = f"n{i}"
        record = node_record(base, node, rng, 0.01)
        edit = changes.get(node)
        if callable(edit):
            edit(record)
        (folder / f"{node}.json").write_text(json.dumps(record))
        records[node] = record
    return records


def scale(name: str, dtype: str, factor: float):
    def edit(record: dict) -> None:
        for row in record["benchmarks"]:
            if row["name"] == name and row["dtype"] == dtype:
                row["value"] *= factor

    return edit


def test_a_slow_node_is_named_with_the_metric_and_left_out(tmp_path: Path) -> None:
    fleet_with(tmp_path, n3=scale("matmul", "bf16", 0.80), n5=scale("matmul", "fp32", 1.25))
    done = report(str(tmp_path), "--json")
    assert done.returncode == 1  # an outlier is a failed verdict
    record = json.loads(done.stdout)
    rows = {n["node"]: n for n in record["nodes"]}
    assert rows["n3"]["state"] == OUTLIER
    slow = rows["n3"]["reasons"][0]
    assert (
        slow["kind"] == "slow"
        and slow["metric"] == BF16
        and re.search(r"(19|20|21) % below the fleet's median", slow["message"])
    )
    assert "Matrix multiply bf16 (cuda:0)" in slow["message"]
    assert rows["n5"]["state"] == WARNING and rows["n5"]["reasons"][0]["kind"] == "fast"
    assert {n for n, row in rows.items() if row["reasons"]} == {"n3", "n5"}
    assert record["exclude"] == "n3"
    assert record["counts"] == {FAILED: 0, OUTLIER: 1, WARNING: 1, OK: 6}
    assert rows["n3"]["deviations"][BF16] == pytest.approx(-0.2, abs=0.02)
    text = report(str(tmp_path))
    assert "n3  outlier" in text.stdout and "--exclude=n3" in text.stdout


def test_every_moved_figure_is_found_and_noise_names_nobody(tmp_path: Path) -> None:
    fleet = write_fleet(tmp_path / "fleet", 60, noise=0.03, inject=6, low=0.15, high=0.30, seed=7)
    found = diagnose(read_folder(fleet.folder))
    named = {v.node: v for v in found.nodes if v.reasons}
    assert set(named) == set(fleet.injected)
    for node, (key, _) in fleet.injected.items():
        assert [r.metric for r in named[node].reasons] == [key]


def test_links_checks_and_software_that_differ(tmp_path: Path) -> None:
    def narrow(record: dict) -> None:
        record["series"]["channels"]["gpu0.pcie_width"] = [8] * len(record["series"]["channels"]["gpu0.pcie_width"])

    def ecc(record: dict) -> None:
        record["verdicts"].append(
            {
                "check": "Uncorrectable ECC errors",
                "subject": "cuda:0",
                "status": "fail",
                "message": "2 uncorrectable ECC errors since the driver loaded",
            }
        )

    def driver(record: dict) -> None:
        record["system"]["gpu"]["driver_version"] = "550.54.15"

    fleet_with(tmp_path, n2=narrow, n4=ecc, n6=driver)
    found = diagnose(read_folder(tmp_path))
    n2, n4, n6 = (found.verdict(n) for n in ("n2", "n4", "n6"))
    assert n2.state == OUTLIER and n2.reasons[0].metric == "pcie_width@cuda:0" and "8 lanes" in n2.reasons[0].message
    assert n4.state == OUTLIER and n4.reasons[0].kind == "check" and "ECC" in n4.reasons[0].message
    assert n6.state == WARNING and n6.reasons[0].kind == "software"
    assert "550.54.15" in n6.reasons[0].message and "7 of 8 nodes have 580.159.04" in n6.reasons[0].message
    assert found.exclude == "n[2,4]"


def test_a_failed_node_from_the_run_manifest(tmp_path: Path) -> None:
    fleet_with(tmp_path, count=3)
    (tmp_path / "n3.json").unlink()
    manifest = {
        "format": "gpuconfig.fleet.run/1",
        "job": "7",
        "started_at": "2026-11-27T00:00:00+00:00",
        "nodes": {
            "n1": {"state": "done"},
            "n2": {"state": "done"},
            "n3": {"state": "failed", "reason": "exit code 137: srun: error: n3: task 0: Killed"},
        },
        "allreduce": {
            "backend": "gloo",
            "nodes": ["n1", "n2"],
            "ranks": 2,
            "bytes": 67108864,
            "busbw_gbs": 1.19,
            "algbw_gbs": 1.19,
        },
    }
    (tmp_path / "fleet.json").write_text(json.dumps(manifest))
    found = diagnose(read_folder(tmp_path))
    assert found.nodes[0].node == "n3" and found.nodes[0].state == FAILED
    assert "Killed" in found.nodes[0].reasons[0].message
    assert found.allreduce["ranks"] == 2
    text = report(str(tmp_path))
    assert "All-reduce across 2 nodes (gloo, 2 ranks): bus bandwidth 1.190 GB/s at 64 MiB" in text.stdout


def test_baseline_rules_and_history(tmp_path: Path) -> None:
    earlier, later = tmp_path / "runs" / "1", tmp_path / "runs" / "2"
    fleet_with(earlier)
    records = fleet_with(later, n1=scale("matmul", "bf16", 0.88))
    for folder, when in ((earlier, "2026-11-01T10:00:00+00:00"), (later, "2026-11-20T10:00:00+00:00")):
        for path in folder.glob("n*.json"):
            data = json.loads(path.read_text())
            data["started_at"] = when
            path.write_text(json.dumps(data))
    found = diagnose(read_folder(tmp_path / "runs"))
    n1 = found.verdict("n1")
    assert len(n1.history) == 1 and n1.history[0].started_at.startswith("2026-11-01")
    assert n1.state == OUTLIER  # 12 % below the fleet
    assert [r.kind for r in n1.reasons] == ["slow"]  # the fall since its last run is that same figure
    # A baseline: another node's probe report, with bf16 10 % higher than this fleet's
    base = dict(records["n2"])
    base["benchmarks"] = [dict(b) for b in base["benchmarks"]]
    scale("matmul", "bf16", 1.10)(base)
    (tmp_path / "baseline.json").write_text(json.dumps(base))
    judged = diagnose(read_folder(tmp_path / "runs"), baseline=load_baseline(tmp_path / "baseline.json"))
    assert all(any(r.kind == "baseline" for r in v.reasons) for v in judged.nodes)
    # Rules: a 15 % threshold for matmul leaves n1 with its history warning only
    rules = tmp_path / "rules.toml"
    rules.write_text('threshold = 0.10\n[[metric]]\nmatch = "matmul/*"\nthreshold = 0.15\n')
    relaxed = diagnose(read_folder(tmp_path / "runs"), load_rules(rules))
    assert relaxed.verdict("n1").state == WARNING
    history = relaxed.verdict("n1").reasons
    assert [r.kind for r in history] == ["history"] and "below its own run of 2026-11-01" in history[0].message
    done = report(
        str(tmp_path / "runs"), "--rules", str(rules), "--baseline", str(tmp_path / "baseline.json"), "--json"
    )
    assert done.returncode == 1 and json.loads(done.stdout)["rules"]["metrics"][0]["threshold"] == 0.15


def test_too_few_nodes_are_not_judged(tmp_path: Path) -> None:
    fleet_with(tmp_path, count=2, n2=scale("matmul", "bf16", 0.5))
    found = diagnose(read_folder(tmp_path))
    assert all(not v.reasons for v in found.nodes)
    assert not any(s.judged for s in found.metrics)


def test_any_scheduler_plain_probe_reports_named_by_host(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    for i, record in enumerate(fleet_with(tmp_path / "made", count=4).values()):
        record.pop("node")  # as `gpuconfig probe --json > FILE` writes it: the host names the node
        record["host"] = f"gpu{i + 7:02d}"
        (plain / f"whatever-{i}.json").write_text(json.dumps(record))
    found = diagnose(read_folder(plain))
    assert sorted(v.node for v in found.nodes) == ["gpu07", "gpu08", "gpu09", "gpu10"]
    assert all(not v.history and v.state == OK for v in found.nodes)
    assert compress(v.node for v in found.nodes) == "gpu[07-10]"


def test_bad_input_is_one_line_with_exit_2(tmp_path: Path) -> None:
    fleet_with(tmp_path / "ok", count=3)
    (tmp_path / "ok" / "broken.json").write_text("{not json")
    (tmp_path / "ok" / "nan.json").write_text('{"gpuconfig": "0.1", "benchmarks": [{"name": "matmul", "value": NaN}]}')
    done = report(str(tmp_path / "ok"), "--json")
    assert done.returncode == 0
    assert "broken.json: left out: not readable as JSON" in done.stderr and "nan.json: left out" in done.stderr
    assert json.loads(done.stdout)["skipped"][0]["file"].endswith("broken.json")
    (tmp_path / "empty").mkdir()
    for args, words in (
        ((str(tmp_path / "empty"),), "no gpuconfig probe reports"),
        ((str(tmp_path / "missing"),), "not a folder"),
        ((str(tmp_path / "ok"), "--rules", str(tmp_path / "ok" / "broken.json")), "not a TOML file"),
        ((str(tmp_path / "ok"), "--baseline", str(tmp_path / "ok" / "broken.json")), "not readable as a baseline"),
    ):
        done = report(*args)
        assert done.returncode == 2 and words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    rules = tmp_path / "rules.toml"
    for text, words in (
        ("threshold = 2\n", "threshold = 2"),
        ("thresold = 0.1\n", "unknown key 'thresold'"),
        ("[[metric]]\nthreshold = 0.1\n", "match must name"),
        ("min_nodes = 1\n", "min_nodes"),
    ):
        rules.write_text(text)
        with pytest.raises(RulesError, match=words):
            load_rules(rules)
    with pytest.raises(FleetError):
        read_folder(tmp_path / "empty")


def test_html_is_a_heatmap_coloured_by_deviation(tmp_path: Path) -> None:
    fleet_with(tmp_path, n3=scale("matmul", "bf16", 0.70))
    done = report(str(tmp_path), "--html")
    page = done.stdout
    heatmap = page.split("table class='heat'")[1].split("</table>")[0]
    assert page.startswith("<html") and heatmap.count("<tr><td class='node") == 8
    assert "sbatch --exclude): n3" in page and "background-color:#" in page
    assert tone(-0.3, 0.1) == -1.0 and tone(0.05, 0.1) == 0.25 and tone(0.0, 0.0) == 0.0


def test_chinese_report(tmp_path: Path) -> None:
    fleet_with(tmp_path, n3=scale("matmul", "bf16", 0.70))
    done = report(str(tmp_path), "--lang", "zh_CN")
    assert done.returncode == 1 and "n3" in done.stdout
    assert "fleet's median" not in done.stdout and "Leave out" not in done.stdout


@pytest.mark.parametrize(
    ("hosts", "text"),
    [(["n1", "n2", "n3", "n7", "x"], "n[1-3,7],x"), (["gpu08", "gpu09", "gpu10", "gpu1"], "gpu1,gpu[08-10]"), ([], "")],
)
def test_host_lists_round_trip(hosts: list[str], text: str) -> None:
    assert compress(hosts) == text
    assert sorted(expand(text)) == sorted(hosts)


def test_host_list_errors() -> None:
    for bad in ("n[1-", "n[a-b]", "n[5-2]"):
        with pytest.raises(HostlistError):
            expand(bad)


def _manifest(folder: Path, allreduce: dict) -> None:
    nodes = {p.stem: {"state": "done"} for p in folder.glob("n*.json")}
    manifest = {"format": "gpuconfig.fleet.run/1", "job": "9", "started_at": "2026-11-27T00:00:00+00:00",
                "nodes": nodes, "allreduce": allreduce}  # fmt: skip
    (folder / "fleet.json").write_text(json.dumps(manifest))


def test_the_fleets_all_reduce_against_a_baseline_and_when_it_failed(tmp_path: Path) -> None:
    earlier, later = tmp_path / "earlier", tmp_path / "later"
    fleet_with(earlier, count=4)
    fleet_with(later, count=4)
    _manifest(earlier, {"backend": "nccl", "nodes": ["n1", "n2", "n3", "n4"], "ranks": 32, "bytes": 1 << 30,
                        "busbw_gbs": 180.0, "algbw_gbs": 92.9})  # fmt: skip
    _manifest(later, {"backend": "nccl", "nodes": ["n1", "n2", "n3", "n4"], "ranks": 32, "bytes": 1 << 30,
                      "busbw_gbs": 120.0, "algbw_gbs": 61.9})  # fmt: skip
    before = report(str(earlier), "--json", "--output", str(tmp_path / "before.json"))
    assert before.returncode == 0
    after = report(str(later), "--baseline", str(tmp_path / "before.json"), "--json")
    assert after.returncode == 1  # every node within the fleet, but the fleet's all-reduce fell a third
    finding = json.loads(after.stdout)["findings"][0]
    assert finding["kind"] == "allreduce" and "33 % below the baseline's 180 GB/s over 32" in finding["message"]
    _manifest(later, {"failed": "exit code 1: srun: error: n3: task 2: Exited with exit code 1", "nodes": ["n1"]})
    failed = diagnose(read_folder(later))
    assert failed.failed and "n3: task 2" in failed.findings[0].message
    assert all(v.state == OK for v in failed.nodes)


def test_csv_is_the_node_by_metric_table(tmp_path: Path) -> None:
    fleet_with(tmp_path, count=4, n2=scale("matmul", "bf16", 0.7))
    done = report(str(tmp_path), "--csv")
    rows = [line.split(",") for line in done.stdout.splitlines()]
    assert rows[0][:4] == ["node", "state", "gpus", "matmul/fp32@cuda:0"] and BF16 in rows[0]
    assert [r[0] for r in rows[1:]] == ["n2", "n1", "n3", "n4"] and rows[1][1] == OUTLIER
    column = rows[0].index(BF16)
    assert float(rows[1][column]) == pytest.approx(0.7 * float(rows[2][column]), rel=0.05)


def _gpus(names: list[str]):
    def edit(record: dict) -> None:
        first = record["devices"][0]
        record["devices"] = [
            {**first, "index": i, "name": name, "torch_device": f"cuda:{i}"} for i, name in enumerate(names)
        ]

    return edit


def test_a_node_that_lost_gpus_or_failed_a_benchmark_is_named(tmp_path: Path) -> None:
    def no_gpu(record: dict) -> None:
        record["devices"] = []
        for row in record["benchmarks"]:
            if row["device"].startswith("cuda"):
                row.update(status="skipped", value=None, reason="no CUDA device")

    def failed_matmul(record: dict) -> None:
        for row in record["benchmarks"]:
            if row["name"] == "matmul" and row["dtype"] == "fp8":
                row.update(status="failed", value=None, reason="CUDA error: an illegal memory access")

    h100 = "NVIDIA H100 80GB HBM3"

    def four_failed(record: dict) -> None:
        _gpus([h100] * 4)(record)
        failed_matmul(record)

    fleet_with(tmp_path, count=8, n2=no_gpu, n3=four_failed, n4=_gpus([h100] * 2), **{
        f"n{i}": _gpus([h100] * 4) for i in (1, 5, 6, 7, 8)
    })  # fmt: skip
    found = diagnose(read_folder(tmp_path))
    n2, n3, n4 = (found.verdict(n) for n in ("n2", "n3", "n4"))
    assert (
        n2.state == OUTLIER and n2.reasons[0].kind == "gpus" and "no GPU found, where 7 of 8" in n2.reasons[0].message
    )
    assert n3.state == OUTLIER and any(
        r.kind == "unmeasured" and "illegal memory access" in r.message for r in n3.reasons
    )
    assert (
        n4.state == OUTLIER and "2 GPUs, where 6 of 7 nodes with NVIDIA H100 80GB HBM3 have 4" in n4.reasons[0].message
    )
    assert found.exclude == "n[2-4]"


def test_a_mixed_fleet_is_judged_by_gpu_model(tmp_path: Path) -> None:
    def slower_card(record: dict) -> None:  # another model, 40 % slower everywhere: no fault of its own
        _gpus(["NVIDIA GeForce RTX 3090"])(record)
        for row in record["benchmarks"]:
            row["value"] = row["value"] * 0.6 if isinstance(row.get("value"), float) else row.get("value")

    fleet_with(tmp_path, count=9, n7=slower_card, n8=slower_card, n9=slower_card)
    found = diagnose(read_folder(tmp_path))
    assert all(v.state == OK for v in found.nodes), [(v.node, v.reasons) for v in found.nodes if v.reasons]
    assert found.groups == ["NVIDIA H100 80GB HBM3", "NVIDIA GeForce RTX 3090"]
    pooled = diagnose(read_folder(tmp_path), load_rules(_rules(tmp_path, "min_nodes = 10\n")))
    assert not any(s.judged for s in pooled.metrics)  # groups of 6 and 3: too few to judge either


def _rules(folder: Path, text: str) -> Path:
    path = folder.parent / f"{folder.name}-rules.toml"
    path.write_text(text)
    return path


def test_a_metric_noisy_on_every_node_names_nobody_for_its_noise(tmp_path: Path) -> None:
    import random

    rng = random.Random(11)

    def noisy(record: dict) -> None:
        for row in record["benchmarks"]:
            if row["name"] == "disk_read":
                row["value"] *= 1 + rng.uniform(-0.25, 0.25)

    fleet_with(tmp_path, count=12, **{f"n{i}": noisy for i in range(1, 13)})
    found = diagnose(read_folder(tmp_path))
    disk = next(s for s in found.metrics if s.metric.key == "disk_read")
    assert disk.threshold > 0.2 and disk.threshold == pytest.approx(3 * disk.spread)  # the spread rule, not 10 %
    assert not any(r.metric == "disk_read" for v in found.nodes for r in v.reasons)


def test_malformed_reports_are_left_out_not_fatal(tmp_path: Path) -> None:
    records = fleet_with(tmp_path, count=4)
    bad = {
        "null-row": {**records["n1"], "benchmarks": [None]},
        "system-text": {**records["n1"], "system": "x"},
        "devices-table": {**records["n1"], "devices": {"a": 1}},
        "verdicts-text": {**records["n1"], "verdicts": ["fail"]},
    }
    for name, record in bad.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(record))
    huge = json.loads(json.dumps(records["n1"]))
    huge["node"], huge["benchmarks"][0]["value"] = "huge", 10**400  # an integer too large for a float
    (tmp_path / "huge.json").write_text(json.dumps(huge))
    found = read_folder(tmp_path)
    assert sorted(Path(p).stem for p, _ in found.skipped) == sorted([*bad, "huge"])
    assert {r.node for r in found.reports} == {"n1", "n2", "n3", "n4"}


def test_machines_that_share_a_name_stay_apart(tmp_path: Path) -> None:
    for i, record in enumerate(fleet_with(tmp_path / "made", count=4, n4=scale("matmul", "bf16", 0.5)).values()):
        record.pop("node")
        record["host"] = "vm"
        (tmp_path / f"clone{i + 1}.json").write_text(json.dumps(record))
    found = read_folder(tmp_path)
    assert {r.node for r in found.reports if Path(r.path).parent == tmp_path} == {
        "clone1",
        "clone2",
        "clone3",
        "clone4",
    }
    assert any("name the node 'vm'" in note for note in found.notes)


def test_a_node_missing_from_the_newest_run_is_not_judged_on_old_figures(tmp_path: Path) -> None:
    earlier, later = tmp_path / "runs" / "1", tmp_path / "runs" / "2"
    fleet_with(earlier, count=5)
    fleet_with(later, count=4)
    for folder, when in ((earlier, "2026-01-10T10:00:00+00:00"), (later, "2026-11-20T10:00:00+01:00")):
        for path in folder.glob("n*.json"):
            data = json.loads(path.read_text())
            data["started_at"] = when
            path.write_text(json.dumps(data))
    found = diagnose(read_folder(tmp_path / "runs"))
    n5 = found.verdict("n5")
    assert n5.state == WARNING and n5.reasons[0].kind == "stale" and "2026-01-10" in n5.reasons[0].message
    assert all(s.nodes == 4 for s in found.metrics)  # its old figures are not in the medians


def test_nodes_stopped_by_the_user_are_not_failures(tmp_path: Path) -> None:
    fleet_with(tmp_path, count=3)
    (tmp_path / "n3.json").unlink()
    (tmp_path / "n2.json").unlink()
    manifest = {"format": "gpuconfig.fleet.run/1", "job": "7", "started_at": "2026-11-27T00:00:00+00:00",
                "nodes": {"n1": {"state": "done"}, "n2": {"state": "stopped", "reason": "stopped by the user"},
                          "n3": {"state": "done"}}, "allreduce": None}  # fmt: skip
    (tmp_path / "fleet.json").write_text(json.dumps(manifest))
    found = diagnose(read_folder(tmp_path))
    assert {v.node for v in found.nodes} == {"n1", "n3"}
    assert "report is missing" in found.verdict("n3").reasons[0].message and found.exclude == "n3"
