"""`gpuconfig fleet run --slurm` on a real Slurm cluster of three nodes (tests/fleet/cluster.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.fleet.cluster import Cluster


def fleet(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", "fleet", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_three_nodes_report_and_reduce_together(slurm_env: Cluster, tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = fleet("run", "--slurm", "--nodes", "3", "--only", "matmul", "--out", str(out), "--json")
    assert done.returncode in (0, 1), done.stderr
    manifest = json.loads((out / "fleet.json").read_text())
    assert {n: s["state"] for n, s in manifest["nodes"].items()} == {"n1": "done", "n2": "done", "n3": "done"}
    for node in ("n1", "n2", "n3"):
        report = json.loads((out / f"{node}.json").read_text())
        assert report["node"] == node and report["scheduler"]["job"] == manifest["job"]
        assert any(b["name"] == "matmul" and b["status"] == "ok" for b in report["benchmarks"])
    reduced = manifest["allreduce"]
    assert reduced["backend"] == "gloo" and reduced["ranks"] == 3 and reduced["nodes"] == ["n1", "n2", "n3"]
    assert reduced["busbw_gbs"] > 0 and reduced["busbw_gbs"] == reduced["by_size"][str(reduced["bytes"])]["busbw_gbs"]
    assert abs(reduced["busbw_gbs"] - reduced["algbw_gbs"] * 4 / 3) < 0.01 * reduced["busbw_gbs"] + 1e-3
    record = json.loads(done.stdout)  # what run prints: the fleet report of its folder
    assert [n["node"] for n in sorted(record["nodes"], key=lambda n: n["node"])] == ["n1", "n2", "n3"]
    assert record["allreduce"]["ranks"] == 3
    assert "fleet: 3 done" in done.stderr  # the progress lines
    assert not _steps_left(slurm_env), "the allocation outlived the run"


def test_a_node_that_dies_mid_run_fails_alone(slurm_env: Cluster, tmp_path: Path) -> None:
    out = tmp_path / "run"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gpuconfig",
            "fleet",
            "run",
            "--slurm",
            "--nodes",
            "3",
            "--only",
            "matmul,memory_bandwidth",
            "--out",
            str(out),
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    killed = threading.Event()

    def kill_when_running() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and process.poll() is None:
            status = out / ".status" / "n2"
            if status.is_file() and "/" in status.read_text():  # n2 is inside its benchmarks
                slurm_env.kill_node("n2")
                killed.set()
                return
            time.sleep(0.1)

    killer = threading.Thread(target=kill_when_running)
    killer.start()
    try:
        stdout, stderr = process.communicate(timeout=300)
    finally:
        killer.join()
        slurm_env.start_node("n2")
    assert killed.is_set(), "n2 never started its benchmarks"
    assert process.returncode == 1, stderr  # a failed node is a failed verdict
    manifest = json.loads((out / "fleet.json").read_text())
    states = {n: s["state"] for n, s in manifest["nodes"].items()}
    assert states == {"n1": "done", "n2": "failed", "n3": "done"}
    reason = manifest["nodes"]["n2"]["reason"]
    assert "n2" in reason and ("Killed" in reason or "signal" in reason or "NODE FAILURE" in reason), reason
    assert not (out / "n2.json").exists()
    assert manifest["allreduce"]["nodes"] == ["n1", "n3"] and manifest["allreduce"]["ranks"] == 2
    record = json.loads(stdout)
    row = next(n for n in record["nodes"] if n["node"] == "n2")
    assert row["state"] == "failed" and reason in row["reasons"][0]["message"]
    assert record["exclude"] == "n2"
    slurm_env.wait_idle()


def test_a_node_past_its_time_limit_is_stopped_with_the_reason(slurm_env: Cluster, tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = fleet(
        "run",
        "--slurm",
        "--nodelist",
        "n[1-2]",
        "--only",
        "matmul",
        "--node-timeout",
        "0.5",
        "--no-allreduce",
        "--out",
        str(out),
        "--json",
    )
    assert done.returncode == 1, done.stderr
    manifest = json.loads((out / "fleet.json").read_text())
    assert set(manifest["nodes"]) == {"n1", "n2"}
    for state in manifest["nodes"].values():
        assert state["state"] == "failed" and state["reason"].startswith("stopped at its time limit, 0.5 s")
    assert manifest["allreduce"] is None
    assert not _steps_left(slurm_env)


def test_bad_requests_are_one_line_with_exit_2(tmp_path: Path) -> None:
    no_scheduler = fleet("run", "--out", str(tmp_path / "x"))
    assert no_scheduler.returncode == 2 and "--slurm" in no_scheduler.stderr
    assert len(no_scheduler.stderr.strip().splitlines()) == 1
    used = tmp_path / "used"
    used.mkdir()
    (used / "n1.json").write_text("{}")
    reused = fleet("run", "--slurm", "--out", str(used))
    assert reused.returncode == 2 and "already holds reports" in reused.stderr
    assert (used / "n1.json").read_text() == "{}"
    bad_list = fleet("run", "--slurm", "--nodelist", "n[3-1]")
    assert bad_list.returncode == 2 and "runs backwards" in bad_list.stderr
    env = {**os.environ, "PATH": "/nonexistent"}
    no_slurm = subprocess.run(
        [sys.executable, "-m", "gpuconfig", "fleet", "run", "--slurm", "--out", str(tmp_path / "y")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert no_slurm.returncode == 2 and "not found on PATH" in no_slurm.stderr
    assert len(no_slurm.stderr.strip().splitlines()) == 1


def _steps_left(cluster: Cluster) -> str:
    """Jobs still in the queue after a run (it cancels its allocation)."""
    for _ in range(40):
        left = cluster.command("squeue", "-h", "-o", "%i %T").strip()
        if not left or all("COMPLETING" in line for line in left.splitlines()):
            return ""
        time.sleep(0.25)
    return left


def test_ctrl_c_cancels_the_allocation_and_records_the_nodes(slurm_env: Cluster, tmp_path: Path) -> None:
    import signal

    out = tmp_path / "run"
    process = subprocess.Popen(
        [sys.executable, "-m", "gpuconfig", "fleet", "run", "--slurm", "--nodes", "3", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl+C as at a terminal: a shell starts background jobs (CI's) with SIGINT ignored, and so their children.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list((out / ".status").glob("n*")):
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    manifest = json.loads((out / "fleet.json").read_text())
    assert {(s["state"], s["reason"]) for s in manifest["nodes"].values()} == {("stopped", "stopped by the user")}
    assert not _steps_left(slurm_env), "the allocation outlived the run"
    slurm_env.wait_idle()
