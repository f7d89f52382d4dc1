"""The live sampler on this machine for real: cadence, ring buffer, rate limits, export, shutdown."""

from __future__ import annotations

import csv
import json
import math
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import psutil
import pytest

from gpuconfig.probe import nvml
from gpuconfig.probe.sampler import (
    LINUX,
    ProcCounters,
    PsutilCounters,
    Sampler,
    Series,
    host_counters,
    read_json,
    write_csv,
    write_json,
)

HOST_CHANNELS = ["cpu.total", "ram.used", "disk.read", "disk.write", "net.rx", "net.tx"]


@pytest.fixture
def sampler() -> Iterator[Callable[..., Sampler]]:
    """Makes samplers and stops them after the test, whatever happened."""
    made: list[Sampler] = []

    def make(hz: float, window_s: float = 600.0) -> Sampler:
        made.append(Sampler(hz=hz, window_s=window_s))
        return made[-1]

    yield make
    for s in made:
        s.stop()


def _spin(seconds: float) -> None:
    """Keep one core busy in another process (as a benchmark worker does), so the CPU channels see load.

    A busy thread in this process would hold the GIL and delay every sample's file reads.
    """
    code = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.skipif(not LINUX, reason="the /proc reader is Linux's")
def test_proc_reader_agrees_with_psutil() -> None:
    cores = psutil.cpu_count()
    fast = ProcCounters(cores)
    try:
        assert isinstance(host_counters(cores), ProcCounters)
        a, b = fast.read(), PsutilCounters(cores).read()
    finally:
        fast.close()
    assert len(a.cpu) == len(b.cpu) == cores + 1
    ticks = os.sysconf("SC_CLK_TCK")  # /proc/stat counts clock ticks, psutil seconds
    for (total, idle), (total_s, idle_s) in zip(a.cpu, b.cpu, strict=True):
        assert total / ticks == pytest.approx(total_s, abs=1.0)
        assert idle / ticks == pytest.approx(idle_s, abs=1.0)
    assert a.memory_used_pct == pytest.approx(b.memory_used_pct, abs=1.0)
    for name in ("disk_read_bytes", "disk_write_bytes", "net_rx_bytes", "net_tx_bytes"):
        assert getattr(a, name) == pytest.approx(getattr(b, name), rel=0.01, abs=2**20), name


def test_ten_hz_for_a_second_gives_ten_sane_samples(sampler: Callable[..., Sampler]) -> None:
    s = sampler(10)
    s.start()
    _spin(1.02)
    series = s.snapshot()
    s.stop()
    t = series.t
    assert 9 <= t.size <= 11, t
    assert np.all(np.diff(t) > 0)
    assert 0.05 < t[0] < 0.3  # the first sample is one period after start
    assert np.median(np.diff(t)) == pytest.approx(0.1, abs=0.01)
    cores = psutil.cpu_count()
    assert set(HOST_CHANNELS) <= set(series.channels)
    assert {f"cpu.core{i}" for i in range(cores)} <= set(series.channels)
    for name, values in series.channels.items():
        assert values.shape == t.shape, name
    cpu = series.channels["cpu.total"]
    assert np.all((cpu >= 0) & (cpu <= 100))
    assert cpu.max() > 100 / cores / 2  # one core was kept busy the whole time
    assert np.all((series.channels["ram.used"] > 0) & (series.channels["ram.used"] <= 100))
    for name in ("disk.read", "disk.write", "net.rx", "net.tx"):
        values = series.channels[name]
        assert np.all(np.isnan(values) | (values >= 0)), name
    assert series.units["cpu.total"] == "%" and series.units["disk.read"] == "MB/s"
    assert series.labels["cpu.core0"] == "CPU core 0"


def test_without_nvml_only_host_channels_and_the_reason(sampler: Callable[..., Sampler]) -> None:
    opened = nvml.Nvml.open()
    if isinstance(opened, nvml.Nvml):
        opened.close()
        pytest.skip("this machine has an NVIDIA driver")
    series = sampler(10).snapshot()
    assert not any(name.startswith("gpu") for name in series.channels)
    assert series.unavailable["gpu"] == opened.reason
    assert series.t.size == 0


def test_ring_buffer_keeps_the_last_window(sampler: Callable[..., Sampler]) -> None:
    s = sampler(10, window_s=0.5)
    s.start()
    time.sleep(1.5)
    series = s.snapshot()
    s.stop()
    assert s.count >= 12  # the buffer holds 6 samples (0.5 s at 10 Hz, plus one): it has wrapped
    assert 4 <= series.t.size <= 6
    assert np.all(np.diff(series.t) > 0)
    assert series.t[-1] - series.t[0] <= 0.5 + 1e-9
    assert series.t[-1] > 1.2
    for values in series.channels.values():
        assert values.shape == series.t.shape


def test_snapshot_is_a_copy(sampler: Callable[..., Sampler]) -> None:
    s = sampler(10)
    s.start()
    time.sleep(0.35)
    first = s.snapshot()
    kept = first.channels["ram.used"].copy()
    first.channels["ram.used"][:] = -1
    time.sleep(0.2)
    second = s.snapshot()
    s.stop()
    assert np.array_equal(second.channels["ram.used"][: kept.size], kept)
    assert second.t.size > first.t.size


def test_set_rate_clamps_and_says_so(sampler: Callable[..., Sampler]) -> None:
    s = sampler(50)
    assert s.hz == 10.0
    assert s.set_rate(0.2) == 1.0 and "0.2 Hz" in s.notice and "1 Hz" in s.notice
    assert s.set_rate(25) == 10.0 and "25 Hz" in s.notice
    assert s.set_rate(4) == 4.0 and s.notice == ""


def test_a_new_rate_applies_at_once(sampler: Callable[..., Sampler]) -> None:
    s = sampler(1)
    s.start()
    time.sleep(0.05)
    s.set_rate(10)
    time.sleep(0.6)
    series = s.snapshot()
    s.stop()
    assert series.t.size >= 4  # at 1 Hz there would be none yet
    assert series.hz == 10.0


def test_marks_are_in_the_snapshot(sampler: Callable[..., Sampler]) -> None:
    s = sampler(10)
    s.start()
    s.mark("matmul fp32")
    time.sleep(0.3)
    s.mark("memory bandwidth")
    series = s.snapshot()
    s.stop()
    (t1, first), (t2, second) = series.marks
    assert (first, second) == ("matmul fp32", "memory bandwidth")
    assert 0 <= t1 < 0.05 and 0.25 < t2 < 0.5


def _series() -> Series:
    return Series(
        t=np.array([0.1, 0.2, 0.3]),
        channels={"cpu.total": np.array([12.5, math.nan, 40.0]), "gpu0.throttle": np.array([0.0, 4.0, 72.0])},
        units={"cpu.total": "%", "gpu0.throttle": "bitmask"},
        labels={"cpu.total": "CPU, all cores", "gpu0.throttle": "GPU 0 clock event reasons"},
        marks=((0.15, "matmul"), (0.3, "copy")),
        hz=10.0,
        unavailable={"disk": "the OS reports no disk counters"},
    )


def test_json_export_round_trips(tmp_path: Path) -> None:
    original = _series()
    path = tmp_path / "series.json"
    write_json(original, path)
    assert json.loads(path.read_text(encoding="utf-8"))["channels"]["cpu.total"] == [12.5, None, 40.0]
    back = read_json(path)
    assert np.array_equal(back.t, original.t)
    for name, values in original.channels.items():
        assert np.array_equal(back.channels[name], values, equal_nan=True)
    assert (back.units, back.labels, back.marks, back.hz, back.unavailable) == (
        original.units,
        original.labels,
        original.marks,
        original.hz,
        original.unavailable,
    )
    assert [p.name for p in tmp_path.iterdir()] == ["series.json"]  # no temporary file left behind


def test_json_export_is_strict_json_with_null_for_a_figure_that_is_not_finite(tmp_path: Path) -> None:
    series = _series()
    series.channels["cpu.total"][2] = np.inf
    path = tmp_path / "series.json"
    write_json(series, path)

    def refuse(constant: str) -> object:
        raise ValueError(f"not JSON: {constant}")

    data = json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)
    assert data["channels"]["cpu.total"] == [12.5, None, None]


def test_csv_export_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "series.csv"
    path.write_text("an older export\n", encoding="utf-8")
    write_csv(_series(), path)
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == ["t (s)", "cpu.total (%)", "gpu0.throttle (bitmask)", "mark"]
    assert rows[1:] == [["0.1000", "12.5", "0", ""], ["0.2000", "", "4", "matmul"], ["0.3000", "40", "72", "copy"]]
    assert [p.name for p in tmp_path.iterdir()] == ["series.csv"]


def test_a_real_recording_exports_and_reads_back(sampler: Callable[..., Sampler], tmp_path: Path) -> None:
    s = sampler(10)
    s.start()
    s.mark("start")
    time.sleep(0.45)
    series = s.snapshot()
    s.stop()
    write_json(series, tmp_path / "live.json")
    back = read_json(tmp_path / "live.json")
    assert back.t == pytest.approx(series.t, abs=1e-4)
    for name, values in series.channels.items():
        assert back.channels[name] == pytest.approx(values, abs=1e-4, nan_ok=True), name
    write_csv(series, tmp_path / "live.csv")
    rows = (tmp_path / "live.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == series.t.size + 1 and rows[1].endswith(",start")


def test_stop_joins_the_worker_thread(sampler: Callable[..., Sampler]) -> None:
    s = sampler(2)
    s.start()
    assert s.running
    started = time.monotonic()
    s.stop()
    assert time.monotonic() - started < 0.5  # stop wakes the worker instead of waiting out the period
    assert not s.running
    assert not any(t.name == "gpuconfig-sampler" for t in threading.enumerate())
    s.stop()  # twice is harmless
    s.start()  # and it starts a new recording
    time.sleep(0.7)
    series = s.snapshot()
    s.stop()
    assert series.t.size >= 1 and series.t[0] < 0.6
