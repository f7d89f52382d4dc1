"""`gpuconfig --self-test`: whether this installation works, checked the way a user would use it.

Offscreen and in a temporary data folder (the user's database, settings and trace cache are not touched),
it reads the NVIDIA driver's library (NVML) without risking a crash, loads the catalog, checks the shipped
files, opens every tab, runs a real estimate (a small model traced by a Python with torch, answered by the
instant tier for a catalog GPU) and a quick CPU benchmark through that Python. Each step is printed as it
ends and the whole run is written as JSON. Exit 0 when nothing failed (a step with no Python with torch to
run in is skipped, with the reason), 1 otherwise, with the first failure's reason as the last line on stderr.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gpuconfig import __version__
from gpuconfig.core.numbers import json_text
from gpuconfig.core.paths import DATA_DIR_ENV, catalog_dir, resources_dir, user_data_dir, write_text_atomic
from gpuconfig.core.workers import environment, interpreters, pythons, search

EXIT_OK, EXIT_FAILED = 0, 1
# The estimate's model: a small network in plain torch, so any Python with torch can trace it.
MODEL_FILE = "selftest_model.py"
# Its three Linear layers, 256 -> 512 -> 512 -> 10, weights and biases: what the trace must count.
MODEL_PARAMS = (256 * 512 + 512) + (512 * 512 + 512) + (512 * 10 + 10)
# A benchmark that runs on the CPU in seconds: the probe's worker end to end, without a GPU.
PROBE_BENCHMARK = "matmul"
PROBE_TIMEOUT_S = 180.0
ESTIMATE_GPU = "nvidia-geforce-rtx-4090"


class Skipped(Exception):
    """A step with nothing to run on (no Python with torch): not a failure of the installation."""


@dataclass
class Step:
    name: str
    status: str = "passed"  # passed, failed or skipped
    detail: str = ""
    seconds: float = 0.0


@dataclass
class Run:
    version: str
    frozen: bool
    executable: str
    steps: list[Step] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    pythons: list[dict[str, Any]] = field(default_factory=list)  # every Python asked, when the app looked

    @property
    def failed(self) -> list[Step]:
        return [s for s in self.steps if s.status == "failed"]

    def record(self) -> dict[str, Any]:
        return asdict(self) | {"passed": not self.failed}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gpuconfig --self-test", description=__doc__.splitlines()[0])
    parser.add_argument("--out", metavar="FILE", help="where to write the run as JSON (default: self-test.json "
                        "in gpuconfig's data folder)")  # fmt: skip
    parser.add_argument("--python", metavar="PATH", help="the Python with torch for the estimate and the probe "
                        "(default: the one gpuconfig finds)")  # fmt: skip
    args = parser.parse_args(argv)  # a wrong option: argparse's one line, exit 2
    try:
        out = Path(args.out) if args.out else user_data_dir() / "self-test.json"
        out.parent.mkdir(parents=True, exist_ok=True)  # the screenshots go there as the tabs open
    except OSError as exc:
        print(f"gpuconfig self-test failed: cannot write the report: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAILED
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # another platform (xcb) when the caller names one
    # Windows cannot delete a database still open; what is left in the temporary folder is the system's.
    added = search.added_pythons()  # the user's setting, read before the data folder moves
    with tempfile.TemporaryDirectory(prefix="gpuconfig-self-test-", ignore_cleanup_errors=True) as scratch:
        os.environ[DATA_DIR_ENV] = scratch  # the user's own database and settings stay as they are
        run = self_test(args.python, out.parent, added)
    if not write(run, out):
        return EXIT_FAILED
    print(f"wrote {out}")
    if run.failed:
        first = run.failed[0]
        print(f"gpuconfig self-test failed: {first.name}: {first.detail}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def write(run: Run, out: Path) -> bool:
    try:
        write_text_atomic(out, json_text(run.record()))
    except OSError as exc:
        print(f"gpuconfig self-test failed: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def self_test(python: str | None, shots: Path, added: list[str]) -> Run:
    """The run; `added`: the Pythons the user added, read before the data folder moved to the scratch one."""
    run = Run(__version__, environment.frozen(), sys.executable)
    state: dict[str, Any] = {}

    def step(name: str, check: Callable[[], str]) -> bool:
        began = time.monotonic()
        result = Step(name)
        try:
            result.detail = check()
        except Skipped as exc:
            result.status, result.detail = "skipped", str(exc)
        except Exception as exc:  # the step failed: say how, and go on to the next
            result.status, result.detail = "failed", _one_line(exc)
        result.seconds = round(time.monotonic() - began, 2)
        run.steps.append(result)
        print(f"{result.status:<8} {name:<10} {result.detail}  ({result.seconds:.1f} s)", flush=True)
        return result.status == "passed"

    step("version", lambda: _version())
    step("nvidia", lambda: _nvidia())
    if step("catalog", lambda: _catalog(state)):
        step("files", lambda: _files())
        step("tabs", lambda: _tabs(state, shots, run.files))
    step("python", lambda: _python(state, python, added))
    step("estimate", lambda: _estimate(state))
    step("probe", lambda: _probe(state))
    run.pythons = state.get("pythons", [])
    if "store" in state:
        state["store"].close()
    return run


def _one_line(exc: BaseException) -> str:
    """A check's own words as they are; any other error with its type and where it was raised."""
    first = (str(exc).strip().splitlines() or [""])[0]
    if isinstance(exc, CheckFailed):
        return first
    where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    place = f" (at {Path(where.filename).name}:{where.lineno})" if where else ""
    return f"{type(exc).__name__}: {first}{place}"


class CheckFailed(Exception):
    """A check that found something wrong, in words."""


def _version() -> str:
    where = f"installed app in {environment.bundle_dir()}" if environment.frozen() else f"Python at {sys.executable}"
    return f"gpuconfig {__version__}, Python {platform.python_version()}, {platform.system()}; {where}"


def _nvidia() -> str:
    """What NVML says of this machine's NVIDIA GPUs, read as the probe reads it. No driver is an answer;
    a library that crashes or hangs when NVML starts fails the step (the probe can show no GPU then)."""
    from gpuconfig.probe import nvml, nvml_guard
    from gpuconfig.probe.model import Unavailable

    crashed = nvml_guard.problem()
    if crashed:
        raise CheckFailed(f"NVML unavailable: {crashed}")
    session = nvml.Nvml.open()
    if isinstance(session, Unavailable):
        return f"no NVIDIA GPU: {session.reason}"
    with session:
        count, driver = session.device_count(), nvml.call("nvmlSystemGetDriverVersion")
    return f"NVML sees {count} NVIDIA GPU(s), driver {driver}"


def _catalog(state: dict[str, Any]) -> str:
    from gpuconfig.core.userdata.store import open_default_store

    folder = catalog_dir()
    if not folder.is_dir():
        raise CheckFailed(f"the catalog data is missing: no folder {folder}")
    files = sorted(p.name for p in folder.glob("*.toml"))
    if not files:
        raise CheckFailed(f"the catalog data is missing: no .toml files in {folder}")
    store = open_default_store()
    if store.last_refresh.error:
        raise CheckFailed(f"the catalog files were not loaded: {store.last_refresh.error}")
    counts = store.counts()
    if not sum(counts.values()):
        raise CheckFailed(f"the catalog in {folder} has no parts")
    state["store"] = store
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    return f"{sum(counts.values())} parts ({kinds}) from {len(files)} files in {folder}"


def _files() -> str:
    """What the bundle must carry besides code: the worker scripts, the icon, the compiled translations, the model
    zoo."""
    from gpuconfig.core.workers.programs import BENCH, BOOT, TRACE

    needed = [BOOT, BENCH / "__main__.py", TRACE / "__main__.py", resources_dir() / "gpuconfig.svg"]
    needed += [resources_dir() / MODEL_FILE, resources_dir() / "translations" / "gpuconfig_zh_CN.qm"]
    needed += [catalog_dir() / "models.toml", catalog_dir() / "compat"]
    missing = [str(p) for p in needed if not p.exists()]
    if missing:
        raise CheckFailed(f"missing from the installation: {', '.join(missing)}")
    zoo = len(list((catalog_dir() / "models").glob("*.json")))
    return f"worker scripts, icon, Chinese translation, {zoo} model configs and the compatibility tables are present"


def _tabs(state: dict[str, Any], shots: Path, files: list[str]) -> str:
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from gpuconfig.ui.app import create_application
    from gpuconfig.ui.main_window import MainWindow

    app = create_application([sys.argv[0]])
    messages: list[str] = state.setdefault("qt_messages", [])

    def on_message(kind: QtMsgType, _context: object, text: str) -> None:
        # The offscreen platform says this of every top-level window; it is not about gpuconfig.
        if "does not support propagateSizeHints" not in text:
            messages.append(f"{kind.name}: {text}")

    qInstallMessageHandler(on_message)
    icon = QIcon(str(resources_dir() / "gpuconfig.svg"))
    if icon.pixmap(64, 64).isNull():
        raise CheckFailed("the app icon (an SVG) does not render: Qt's SVG plugin is missing")
    window = MainWindow(state["store"])
    window.show()
    titles = []
    try:
        for index in range(window.tabs.count()):
            window.tabs.setCurrentIndex(index)
            _settle(app, 0.3)
            title = window.tabs.tabText(index)
            try:  # switching built it, as for a user; if that failed, building again says why
                tab = window.area(index)
            except Exception as exc:
                raise CheckFailed(f"the {title} tab did not open: {_one_line(exc)}") from exc
            picture = tab.grab()
            if picture.isNull() or picture.width() < 100:
                raise CheckFailed(f"the {title} tab did not draw")
            shot = shots / f"self-test-{index}-{title.lower()}.png"
            if picture.save(str(shot), "PNG"):
                files.append(str(shot))
            else:
                messages.append(f"could not save {shot}")
            titles.append(title)
        if window.banner.text():
            raise CheckFailed(f"the window reports: {window.banner.text()}")
    finally:
        window.close()
        _settle(app, 0.2)
        window.deleteLater()
        QApplication.processEvents()
        qInstallMessageHandler(None)
    said = f"; Qt said: {' | '.join(messages[:3])}" if messages else ""
    return f"{len(titles)} tabs opened and drawn ({', '.join(titles)}); screenshots beside the report{said}"


def _settle(app: Any, seconds: float) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        app.processEvents()
        time.sleep(0.01)


def _python(state: dict[str, Any], python: str | None, added: list[str]) -> str:
    if python:  # the user named one: it is checked, not passed over for another that works
        found = interpreters.ask(python, "--python")
    else:  # the one choice the estimator and the probe make, with the Pythons the user added
        if environment.frozen() and not os.environ.get(search.TORCH_PYTHON_ENV):  # the report says where it looked
            state["pythons"] = [asdict(i) for i in search.find_pythons(added)]
        try:
            path, how = pythons.chosen_python(added)
        except pythons.PythonNotFound as exc:
            raise CheckFailed(str(exc)) from exc
        except pythons.NoTorchPython as exc:
            looked = f" ({len(state['pythons'])} Pythons asked)" if state.get("pythons") else ""
            raise Skipped(f"{exc}{looked}") from exc
        found = interpreters.ask(path, how)
    if found.problem:
        raise CheckFailed(found.problem)
    if not found.has_torch:  # a Python named by --python or GPUCONFIG_TORCH_PYTHON
        raise CheckFailed(f"{found.path} ({found.source}) has no torch")
    state["python"] = found.path
    return f"{found.path} (Python {found.python}, torch {found.torch}; {found.source})"


def _estimate(state: dict[str, Any]) -> str:
    if "python" not in state:
        raise Skipped("no Python with torch to trace the model in")
    from gpuconfig.core.units import format_bytes
    from gpuconfig.core.workload.answer import gpu_spec
    from gpuconfig.core.workload.service import TraceService
    from gpuconfig.core.workload.spec import Workload

    os.environ[search.TORCH_PYTHON_ENV] = state["python"]
    workload = Workload(str(resources_dir() / MODEL_FILE), task="finetune", precision="fp32", batch=8)
    traced = TraceService(use_cache=False).fit_for(workload)
    store = state.get("store")
    gpu = gpu_spec(store, ESTIMATE_GPU) if store is not None else None
    answer = traced.answer(workload, gpu, store.user.headroom() if store is not None else None)
    params, peak = answer.estimate.params, answer.estimate.memory.peak
    if params != MODEL_PARAMS:
        raise CheckFailed(f"the trace counted {params:,} parameters in {MODEL_FILE}, not {MODEL_PARAMS:,}")
    if peak <= 0:
        raise CheckFailed(f"the estimate's peak memory is {peak} bytes")
    verdict = answer.verdict
    where = f" on {gpu.name}: {verdict.text()}" if gpu and verdict else ""
    return (
        f"{traced.source.name}, batch 8: {params:,} parameters, peak {format_bytes(peak)}{where} "
        f"(traced in {traced.trace_seconds:.1f} s)"
    )


def _probe(state: dict[str, Any]) -> str:
    if "python" not in state:
        raise Skipped("no Python with torch to run the benchmark in")
    from gpuconfig.probe.model import Unavailable
    from gpuconfig.probe.runner import Limits, run_suite

    limits = Limits(benchmark_s=PROBE_TIMEOUT_S)
    outcome = run_suite("quick", python=state["python"], only=[PROBE_BENCHMARK], limits=limits)
    if isinstance(outcome.torch, Unavailable):
        raise CheckFailed(f"torch in {state['python']}: {outcome.torch.reason}")
    ok = [r for r in outcome.results if r.status == "ok"]
    bad = [r for r in outcome.results if r.status == "failed"]
    if bad or not ok:
        first = bad[0] if bad else None
        raise CheckFailed(f"{PROBE_BENCHMARK}: {first.reason if first else 'no result'}")
    figures = ", ".join(f"{r.dtype} {r.value:.3g} {r.unit}" for r in ok if r.value is not None)
    took = f"{outcome.seconds:.1f} s, torch {outcome.torch.version}"
    return f"{PROBE_BENCHMARK} on {ok[0].device}: {figures} ({took})"
