"""The Probe tab's live plot at 10 Hz with 16 curves of a full 600 s window: does every display tick get
served, and what does each update cost on the GUI thread?

A feeder thread appends one sample of 16 channels every 100 ms into a ring buffer already holding 600 s
(6,000 points a curve, the sampler's window at its highest rate), as the sampler does; the LivePlot's own
display timer (10 Hz) takes a snapshot and feeds every curve with setData. Measured over `--seconds`:
the interval between display ticks, the time of each tick (snapshot + setData) and of each repaint of the
plot, and the GUI thread's CPU time against the wall clock. Target: every 100 ms tick served, an update
well under 100 ms.

    QT_QPA_PLATFORM=offscreen python benchmarks/probe_plot.py
    xvfb-run -a -s "-screen 0 1920x1080x24" env QT_QPA_PLATFORM=xcb python benchmarks/probe_plot.py
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
from machine import machine

HZ = 10.0
WINDOW_S = 600.0
CHANNELS = (
    ["cpu.total"]
    + [f"cpu.core{i}" for i in range(8)]
    + ["ram.used", "disk.read", "disk.write", "net.rx", "net.tx", "gpu0.util", "gpu0.power"]
)
UNITS = dict.fromkeys(CHANNELS, "%") | dict.fromkeys(("disk.read", "disk.write", "net.rx", "net.tx"), "MB/s")
UNITS["gpu0.power"] = "W"


class Feeder:
    """16 channels sampled at 10 Hz into a ring buffer that starts full (600 s), snapshotted under a lock."""

    def __init__(self) -> None:
        from gpuconfig.probe.sampler import Series

        self.Series = Series
        self.size = int(WINDOW_S * HZ)
        rng = np.random.default_rng(0)
        self.data = rng.uniform(0, 100, (len(CHANNELS), self.size))
        self.t = np.arange(-self.size + 1, 1, dtype=np.float64) / HZ + WINDOW_S
        self.count = self.size
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.marks = tuple((float(s), f"benchmark {i}") for i, s in enumerate(range(30, 600, 45)))

    def _run(self) -> None:
        rng = np.random.default_rng(1)
        tick = time.monotonic()
        while not self.stop.is_set():
            tick += 1 / HZ
            self.stop.wait(max(0.0, tick - time.monotonic()))
            row = rng.uniform(0, 100, len(CHANNELS))
            with self.lock:
                slot = self.count % self.size
                self.data[:, slot] = row
                self.t[slot] = self.t[(slot - 1) % self.size] + 1 / HZ
                self.count += 1

    def snapshot(self) -> Any:
        with self.lock:
            start = self.count % self.size
            t = np.concatenate((self.t[start:], self.t[:start]))
            data = np.concatenate((self.data[:, start:], self.data[:, :start]), axis=1)
        return self.Series(
            t=t,
            channels={name: data[j] for j, name in enumerate(CHANNELS)},
            units=dict(UNITS),
            labels={},
            marks=self.marks,
            hz=HZ,
        )


def summary_ms(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "mean": round(statistics.fmean(ordered) * 1000, 2),
        "p95": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
        "max": round(ordered[-1] * 1000, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "probe_plot.json"))
    args = parser.parse_args()

    import pyqtgraph as pg
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from gpuconfig.ui import theme
    from gpuconfig.ui.probe.live_plot import DISPLAY_HZ, LivePlot

    app = QApplication(sys.argv)
    colors = theme.apply(app, "light")
    plot = LivePlot(colors)
    plot.resize(900, 700)
    plot.show()
    feeder = Feeder()
    plot.source = feeder.snapshot

    paints: list[float] = []
    original_paint = pg.GraphicsView.paintEvent

    def timed_paint(view: Any, event: Any) -> Any:
        begin = time.perf_counter()
        try:
            return original_paint(view, event)
        finally:
            paints.append(time.perf_counter() - begin)

    pg.GraphicsView.paintEvent = timed_paint  # every repaint of the plot's view, timed
    ticks: list[tuple[float, float]] = []  # (start, duration) of each display tick

    def timed_tick() -> None:
        begin = time.perf_counter()
        plot.tick()
        ticks.append((begin, time.perf_counter() - begin))

    plot.timer.timeout.disconnect(plot.tick)
    plot.timer.timeout.connect(timed_tick)

    # Warm-up: the curves are made on the first snapshot; then measure from a clean slate.
    plot.start()
    feeder.thread.start()
    end = time.perf_counter() + 2.0
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.001)
    ticks.clear()
    paints.clear()
    stop = QTimer()
    stop.setSingleShot(True)
    stop.setTimerType(Qt.TimerType.PreciseTimer)
    stop.timeout.connect(app.quit)
    stop.start(int(args.seconds * 1000))
    wall0, cpu0 = time.perf_counter(), time.thread_time()
    app.exec()
    wall, cpu = time.perf_counter() - wall0, time.thread_time() - cpu0
    plot.stop()
    feeder.stop.set()
    feeder.thread.join()

    platform = os.environ.get("QT_QPA_PLATFORM", "default")
    starts = [s for s, _ in ticks]
    intervals = [b - a for a, b in itertools.pairwise(starts)]
    period = 1 / DISPLAY_HZ
    expected = int(args.seconds * DISPLAY_HZ)
    update = [d for _, d in ticks]
    frame = [d + p for d, p in zip(update, paints, strict=False)]
    result = {
        "curves": len(plot.curves),
        "points_per_curve": feeder.size,
        "display_hz_target": DISPLAY_HZ,
        "seconds": round(wall, 2),
        "ticks": len(ticks),
        "ticks_expected": expected,
        "achieved_hz": round(len(ticks) / wall, 2),
        "interval_ms": summary_ms(intervals),
        "late_ticks": sum(1 for i in intervals if i > 1.5 * period),  # a tick more than 50 ms late
        "repaints": len(paints),
        "update_ms": summary_ms(update),
        "repaint_ms": summary_ms(paints),
        "update_plus_repaint_ms": summary_ms(frame),
        "gui_thread_cpu_share": round(cpu / wall, 4),
        "target": "every 100 ms tick served; update well under 100 ms",
        "machine": machine(),
        "command": " ".join([f"QT_QPA_PLATFORM={platform}", "python", "benchmarks/probe_plot.py", *sys.argv[1:]]),
        "display": "Xvfb X server (xvfb-run)" if platform == "xcb" else "none",
    }
    out = Path(args.out)
    runs = json.loads(out.read_text(encoding="utf-8")).get("runs", {}) if out.exists() else {}
    runs[result["machine"]["qt_platform"]] = result
    out.write_text(json.dumps({"benchmark": "probe_plot", "runs": runs}, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
