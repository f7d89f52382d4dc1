"""Render the probe's report screenshots in docs/screenshots/ from real probe runs.

    QT_QPA_PLATFORM=offscreen python docs/probe_screenshots.py CPU_RUN.json [SECOND_CPU_RUN.json]

CPU_RUN.json is a run of this machine (`gpuconfig probe --quick --json --output CPU_RUN.json`); the GPU
pictures use the recorded H100 run (benchmarks/results/gpu_h100/probe_full.json). Each PDF is the one the
Probe tab exports, its first page drawn by pdftoppm; the HTML is drawn by wkhtmltoimage where it is
installed; the Probe tab is shown with the CPU run opened.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
H100 = ROOT / "benchmarks" / "results" / "gpu_h100" / "probe_full.json"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["GPUCONFIG_DATA_DIR"] = tempfile.mkdtemp(prefix="gpuconfig-shots-")
    from gpuconfig.probe.report import compare_html, html
    from gpuconfig.probe.session import ProbeRun
    from gpuconfig.probe.verdicts import judge
    from gpuconfig.ui.app import create_application
    from gpuconfig.ui.widgets.pdf import write_pdf

    def load(path: Path) -> ProbeRun:
        """A saved run, judged again by this version's rules from its raw samples (as the report keeps them)."""
        run = ProbeRun.from_record(json.loads(path.read_text(encoding="utf-8")))
        return replace(run, verdicts=judge(run.system, run.devices, run.torch, run.results, run.series))

    app = create_application(sys.argv)
    cpu = load(Path(sys.argv[1]))
    second = load(Path(sys.argv[2])) if len(sys.argv) > 2 else None
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        pages = {"probe-report-pdf": html(load(H100)), "probe-report-pdf-cpu": html(cpu)}
        if second is not None:
            pages["probe-compare-pdf"] = compare_html(cpu, second)
        for name, document in pages.items():
            write_pdf(document, folder / f"{name}.pdf", "gpuconfig probe")
            first = folder / name
            subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile",
                            str(folder / f"{name}.pdf"), str(first)], check=True)  # fmt: skip
            shutil.copy(first.with_suffix(".png"), OUT / f"{name}.png")
        if shutil.which("wkhtmltoimage"):
            (folder / "run.html").write_text(html(cpu), encoding="utf-8")
            subprocess.run(["wkhtmltoimage", "--quiet", "--width", "800", "--height", "1600", "--quality", "20",
                            str(folder / "run.html"), str(OUT / "probe-report-html.png")], check=True)  # fmt: skip
    tab_shot(app, cpu)
    return 0


def tab_shot(app: object, run: object) -> None:
    """The Probe tab with the run opened from the history, its results and verdicts on the right."""
    from gpuconfig.core.userdata.store import open_default_store
    from gpuconfig.ui.main_window import INDEX, MainWindow

    window = MainWindow(open_default_store())
    window.resize(1500, 880)
    window.show()
    window.tabs.setCurrentIndex(INDEX["probe"])
    tab = window.tabs.currentWidget()
    history = tab.history
    run_id = history.save(run)
    tab.refresh_history()
    tab.open_run(run_id)
    for _ in range(20):
        app.processEvents()  # type: ignore[attr-defined]
    window.grab().save(str(OUT / "probe-run-distributions.png"))
    tab.shutdown()


if __name__ == "__main__":
    sys.exit(main())
