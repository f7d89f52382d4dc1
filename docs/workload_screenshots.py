"""Render the Workload tab timing a GPT-2 fine-tune on this machine's CPU at the rates its probe measured.

QT_QPA_PLATFORM=offscreen python docs/workload_screenshots.py [REPORT.json]

The report (default: a fresh `gpuconfig probe --quick --json` of this machine) is saved in a temporary probe
history, as the Probe tab saves a run; the tab's "At this machine's measured speed" then reads it.
Writes docs/screenshots/workload-cpu-measured-light.png and -dark.png.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(__file__).parent / "screenshots"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["GPUCONFIG_DATA_DIR"] = tempfile.mkdtemp(prefix="gpuconfig-shots-")
    if len(sys.argv) > 1:
        report = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    else:
        out = Path(os.environ["GPUCONFIG_DATA_DIR"]) / "probe.json"
        command = [sys.executable, "-m", "gpuconfig", "probe", "--quick", "--json", "--output", str(out)]
        subprocess.run(command, check=True, timeout=300)
        report = json.loads(out.read_text(encoding="utf-8"))

    from gpuconfig.core.userdata.store import open_default_store
    from gpuconfig.core.workload.spec import Workload
    from gpuconfig.probe.history import ProbeHistory
    from gpuconfig.probe.session import ProbeRun
    from gpuconfig.ui.app import create_application
    from gpuconfig.ui.main_window import INDEX, MainWindow

    history = ProbeHistory.open_default()
    history.save(ProbeRun.from_record(report))
    history.close()
    app = create_application(sys.argv[:1])
    window = MainWindow(open_default_store())
    window.resize(1500, 880)
    window.show()
    window.tabs.setCurrentIndex(INDEX["workload"])
    tab = window.workload_tab
    tab.form.set_workload(Workload("gpt2", task="finetune", precision="fp32", batch=2, seq=128, device="cpu"))
    tab.form.measured.setChecked(True)
    deadline = time.monotonic() + 300
    while (tab.answer is None or tab.answer.timing is None) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.05)
    OUT.mkdir(exist_ok=True)
    for theme in ("light", "dark"):
        window.set_theme(theme)
        for _ in range(5):
            app.processEvents()
        window.grab().save(str(OUT / f"workload-cpu-measured-{theme}.png"))
    tab.shutdown()
    print(tab.view.timing.text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
