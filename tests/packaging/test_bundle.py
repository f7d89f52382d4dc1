"""The built Linux bundle (dist/gpuconfig, from packaging/linux/build.sh): it starts, passes its own
self-test from the built folder, carries no torch and no unused Qt, and fails its self-test, with the
reason, when its catalog data is missing. .ci/run builds the bundle before it runs the tests; without a
build these tests are skipped and say so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpuconfig import __version__
from tests.probe.fake_nvml import build

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = Path(os.environ.get("GPUCONFIG_BUNDLE", ROOT / "dist" / "gpuconfig"))
EXECUTABLE = BUNDLE / ("gpuconfig-cli.exe" if sys.platform == "win32" else "gpuconfig")
# The bundle measured 183 MB when this was written (benchmarks/results/bundle_size.json); one far past
# it has picked up something it should not carry.
MAX_MEGABYTES = 230

pytestmark = pytest.mark.skipif(
    not EXECUTABLE.exists(), reason=f"no bundle at {BUNDLE}: build it with bash packaging/linux/build.sh"
)


def _run(executable: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    # This test's Python (it has torch) first on PATH: the app finds it there, as it would a user's venv.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GPUCONFIG_", "QT_QPA"))}
    env["GPUCONFIG_DATA_DIR"] = os.environ["GPUCONFIG_DATA_DIR"]  # the test's own data folder, never the user's
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return subprocess.run(
        [str(executable), *args], capture_output=True, text=True, timeout=timeout, check=False, env=env, cwd="/"
    )


def test_the_bundle_says_its_version() -> None:
    done = _run(EXECUTABLE, "--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"gpuconfig {__version__}"


def test_the_self_test_passes_from_the_built_folder(tmp_path: Path) -> None:
    out = tmp_path / "self-test.json"
    done = _run(EXECUTABLE, "--self-test", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    run = json.loads(out.read_text(encoding="utf-8"))
    assert run["frozen"] is True and run["passed"] is True
    steps = {step["name"]: step for step in run["steps"]}
    assert list(steps) == ["version", "nvidia", "catalog", "files", "tabs", "python", "estimate", "probe"]
    assert all(step["status"] == "passed" for step in steps.values()), steps
    assert "7 tabs opened and drawn" in steps["tabs"]["detail"]
    assert "399,370 parameters" in steps["estimate"]["detail"]
    assert steps["probe"]["detail"].startswith("matmul on cpu")
    assert len(run["files"]) == 7 and all(Path(f).stat().st_size > 1000 for f in run["files"])


def test_the_self_test_fails_with_the_reason_when_the_catalog_is_missing(tmp_path: Path) -> None:
    damaged = tmp_path / "gpuconfig"
    shutil.copytree(BUNDLE, damaged, symlinks=True)
    catalog = damaged / "_internal" / "gpuconfig" / "catalog"
    shutil.rmtree(catalog)
    out = tmp_path / "self-test.json"
    done = _run(damaged / EXECUTABLE.name, "--self-test", "--out", str(out))
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == f"gpuconfig self-test failed: catalog: the catalog data is missing: no folder {catalog}"
    steps = {step["name"]: step["status"] for step in json.loads(out.read_text(encoding="utf-8"))["steps"]}
    assert steps["catalog"] == "failed" and "tabs" not in steps  # nothing opened on a missing catalog


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the stand-in NVIDIA library is a Linux .so")
def test_the_bundle_asks_itself_whether_nvml_starts_and_survives_a_crashing_library(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The installed app has no Python to run `-c` in: it runs itself with --check-nvml (nvml_guard.py).
    monkeypatch.setenv("LD_LIBRARY_PATH", str(build(tmp_path, crash=True)))
    done = _run(EXECUTABLE, "egpu", "--json")
    assert done.returncode == 0, done.stderr
    gpus = json.loads(done.stdout)["detected"]["gpus"]
    assert gpus["unavailable"].startswith("the NVIDIA library (libnvidia-ml) crashed (signal 11, SIGSEGV)")


def test_the_bundle_carries_no_torch_and_no_unused_qt() -> None:
    files = [p for p in BUNDLE.rglob("*") if p.is_file() and not p.is_symlink()]
    names = [str(p.relative_to(BUNDLE)).replace("\\", "/") for p in files]
    packages = {n.split("/")[1] for n in names if n.startswith("_internal/") and n.count("/") > 1}
    assert not packages & {"torch", "torchgen", "functorch", "triton", "transformers", "diffusers", "mypy", "yaml"}
    assert not [n for n in names if "libtorch" in n or "torch-" in n]
    unused = ("Qt6Qml", "Qt6Quick", "Qt6Network", "Qt6Pdf", "Qt6WebEngine", "/qml/", "libqgtk3", "libqeglfs")
    assert not [n for n in names if any(u in n for u in unused)]
    megabytes = sum(p.stat().st_size for p in files) / 1e6
    assert megabytes < MAX_MEGABYTES, f"the bundle grew to {megabytes:.0f} MB"
