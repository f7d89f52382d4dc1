"""The worker programs (gpuconfig/workers) as the app runs them: through boot.py, in a Python that has torch
but in which gpuconfig cannot be imported, as in a user's own environment; the trace cache follows every
file of the trace program; the private PyTorch API the tracer uses is found, or named when it is not."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.core.workers.process import run_worker
from gpuconfig.core.workers.programs import BENCH, TRACE, program_files
from gpuconfig.core.workers.search import TORCH_PYTHON_ENV
from gpuconfig.core.workload import runner
from gpuconfig.core.workload.models import resolve_model
from gpuconfig.core.workload.spec import Workload
from tests.workload.model_files import linear_model

CANNOT_IMPORT_GPUCONFIG = (
    "import json, os, sys\n"
    "try:\n    import gpuconfig\n    found = gpuconfig.__file__\n"
    "except ImportError as exc:\n    found = str(exc)\n"
    "channel = os.fdopen(int(os.environ['GPUCONFIG_EVENTS_FD']), 'w')\n"
    "channel.write(json.dumps({'gpuconfig': found}) + '\\n')\n"
)


@pytest.fixture
def python_without_gpuconfig(tmp_path: Path) -> Path:
    """This Python with every package it has but gpuconfig: started without site (-S), its packages on
    PYTHONPATH through a folder of links to each, gpuconfig's own (its editable finder, its metadata) left out."""
    packages = tmp_path / "site-packages"
    packages.mkdir()
    for folder in dict.fromkeys(sysconfig.get_path(name) for name in ("purelib", "platlib")):
        for entry in Path(folder).iterdir():
            if not entry.name.startswith(("gpuconfig", "__editable__")) and not (packages / entry.name).exists():
                (packages / entry.name).symlink_to(entry)
    python = tmp_path / "env" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nPYTHONPATH="{packages}" exec "{sys.executable}" -S "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    script = tmp_path / "import_gpuconfig.py"  # run as a worker is: through boot.py
    script.write_text(CANNOT_IMPORT_GPUCONFIG, encoding="utf-8")
    said: list[dict[str, Any]] = []
    ended = run_worker(script, {}, said.append, str(python))
    assert ended.ok and said == [{"gpuconfig": "No module named 'gpuconfig'"}], (ended, said)
    return python


pytestmark = pytest.mark.skipif(os.name == "nt", reason="a shell script stands in for the interpreter")


def test_the_benchmark_program_runs_where_gpuconfig_is_not_installed(python_without_gpuconfig: Path) -> None:
    from gpuconfig.probe.runner import benchmark_names, run_suite
    from gpuconfig.probe.torch_devices import TorchFacts

    outcome = run_suite("quick", python=str(python_without_gpuconfig), only=["disk_read"])
    torch = outcome.torch
    assert isinstance(torch, TorchFacts) and torch.version != "?" and torch.python == sys.executable, torch
    (result,) = outcome.results
    assert (result.name, result.status, result.unit) == ("disk_read", "ok", "MB/s"), result
    said: list[dict[str, Any]] = []
    run_worker(BENCH, {"suite": "full", "plan_only": True}, said.append, str(python_without_gpuconfig))
    assert said == [{"event": "plan", "suite": "full", "benchmarks": list(benchmark_names())}]


def test_the_trace_program_runs_where_gpuconfig_is_not_installed(
    python_without_gpuconfig: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TORCH_PYTHON_ENV, str(python_without_gpuconfig))
    source = resolve_model(str(linear_model(tmp_path)))
    trace = runner.run_trace(source, Workload(model=source.ref, device="cpu"), 2, 1, use_cache=False)
    assert len(trace.points) == 2 and trace.runtime["torch"]
    assert all(point["params"] == 8 * 4 + 4 for point in trace.points)


def test_editing_any_file_of_the_trace_program_traces_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "tracer"
    shutil.copytree(TRACE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(runner, "TRACE", copy)
    source = resolve_model("gpt2")
    workload = Workload(model="gpt2", precision="fp32", device="cpu")
    request = runner.trace_request(source, workload, runner.plan_points(source, 1, 64)[0])
    python = runner.trace_python()
    key = runner.cache_key(request, source, python)
    files = program_files(copy)
    assert len(files) > 5 and {path.name for path in files} == {path.name for path in program_files(TRACE)}
    for path in files:
        text = path.read_text(encoding="utf-8")
        path.write_text(text + "\n", encoding="utf-8")
        assert runner.cache_key(request, source, python) != key, path.name
        path.write_text(text, encoding="utf-8")
    assert runner.cache_key(request, source, python) == key


def _in_a_worker_python(code: str) -> Any:
    """What `code` prints last, as JSON, run in a Python of its own: torch is imported only in workers."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_every_private_torch_api_the_tracer_uses_is_in_this_torch() -> None:
    found = _in_a_worker_python(
        "import json\n"
        "from gpuconfig.workers.tracer import torch_private as p\n"
        "found = [p.fake_tensor_mode(), p.dispatch_mode(), p.tree_flatten(), p.flop_registry(),\n"
        "         p.aten('_unsafe_view'), p.aten('_convolution'), p.aten('_scaled_dot_product_efficient_attention')]\n"
        "tracker = p.recording_tracker()\n"
        "p.restart_peak(tracker)\n"
        "print(json.dumps([type(tracker).__name__, all(x is not None for x in found)]))\n"
    )
    assert found == ["RecordingTracker", True]


def test_a_private_torch_api_this_torch_lacks_is_named_with_the_torch_version() -> None:
    said = _in_a_worker_python(
        "import json, torch\n"
        "from gpuconfig.workers.tracer import torch_private\n"
        "try:\n    torch_private.private('torch.utils._pytree', 'no_such_function')\n"
        "except Exception as exc:\n    print(json.dumps([type(exc).__name__, exc.kind, str(exc), torch.__version__]))\n"
    )
    kind, category, message, version = said
    assert (kind, category) == ("TraceError", "unsupported")
    assert message.startswith(f"tracing needs torch.utils._pytree.no_such_function, which torch {version} does not")
