"""Finding a Python with torch, and the environment a program started from the installed app gets.

The frozen cases run in a real subprocess that marks itself as the bundle (sys.frozen, sys._MEIPASS),
with a home folder and PATH made for the test, so the discovery walks real files and asks real
interpreters."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest

from gpuconfig.core.userdata.store import open_default_store
from gpuconfig.core.workers import environment, interpreters, pythons, search
from tests.workload.model_files import linear_model

LINUX = sys.platform.startswith("linux")
TORCH = metadata.version("torch")


def test_outside_the_bundle_the_environment_is_passed_on_unchanged() -> None:
    env = {"LD_LIBRARY_PATH": "/opt/lib", "QT_PLUGIN_PATH": "/x", "PATH": "/usr/bin"}
    assert environment.clean_environment(env) == env


def test_what_the_bundle_added_is_taken_back(tmp_path: Path) -> None:
    bundle = tmp_path / "gpuconfig" / "_internal"
    bundle.mkdir(parents=True)
    env = {
        "LD_LIBRARY_PATH": f"{bundle}{os.pathsep}/opt/cuda/lib64",
        "LD_LIBRARY_PATH_ORIG": "/opt/cuda/lib64",
        "PYTHONHOME": str(bundle),
        "QT_PLUGIN_PATH": str(bundle / "PySide6" / "Qt" / "plugins"),
        "QML2_IMPORT_PATH": str(bundle / "qml"),
        "_PYI_APPLICATION_HOME_DIR": str(bundle),
        "PATH": f"{bundle / 'bin'}{os.pathsep}/usr/local/bin{os.pathsep}/usr/bin",
        "PYTHONPATH": f"{bundle / 'lib'}{os.pathsep}/home/me/src",
        "CONDA_PREFIX": "/home/me/miniconda3/envs/torch",
        "HOME": "/home/me",
    }
    clean = environment.clean_environment(env, bundle=bundle)
    assert clean == {
        "LD_LIBRARY_PATH": "/opt/cuda/lib64",  # the user's own value, as it was before the app started
        "PATH": f"/usr/local/bin{os.pathsep}/usr/bin",
        "PYTHONPATH": "/home/me/src",  # the user's own entry stays
        "CONDA_PREFIX": "/home/me/miniconda3/envs/torch",
        "HOME": "/home/me",
    }
    # No value of the user's to go back to: the bundle's is dropped, not kept.
    assert "LD_LIBRARY_PATH" not in environment.clean_environment({"LD_LIBRARY_PATH": str(bundle)}, bundle=bundle)


def _python_script(path: Path) -> str:
    """A stand-in interpreter at `path` that is this Python (it has torch): conda and venv layouts."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


@pytest.mark.skipif(not LINUX, reason="shell scripts stand in for the interpreters")
def test_candidates_come_in_order_each_once(tmp_path: Path) -> None:
    home = tmp_path / "home"
    chosen = _python_script(tmp_path / "chosen" / "bin" / "python")
    base = _python_script(home / "miniconda3" / "bin" / "python")
    env_a = _python_script(home / "miniconda3" / "envs" / "a" / "bin" / "python")
    venv = _python_script(home / ".venv" / "bin" / "python")
    (home / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (home / ".conda").mkdir()
    (home / ".conda" / "environments.txt").write_text(f"{home / 'miniconda3' / 'envs' / 'a'}\n", encoding="utf-8")
    on_path = tmp_path / "path"
    python3 = _python_script(on_path / "python3")
    env = {search.TORCH_PYTHON_ENV: chosen, "VIRTUAL_ENV": str(home / ".venv"), "PATH": str(on_path)}

    found = search.candidates(env=env, home=home)
    paths = [path for path, _source in found]
    assert paths[0] == chosen and found[0][1] == search.TORCH_PYTHON_ENV
    assert paths[1] == venv and found[1][1] == "active venv"
    # conda's own list, then the usual folders (the env listed by conda is not asked twice), then PATH
    assert paths.index(env_a) < paths.index(base) < paths.index(python3)
    assert paths.count(env_a) == 1 and paths.count(venv) == 1
    assert found[-1] == (python3, "PATH")


@pytest.mark.skipif(not LINUX, reason="shell scripts stand in for the interpreters")
def test_an_interpreter_is_asked_its_versions(tmp_path: Path) -> None:
    good = interpreters.ask(_python_script(tmp_path / "env" / "bin" / "python"), "added")
    assert good.has_torch and good.torch == TORCH and good.python == ".".join(map(str, sys.version_info[:3]))
    broken = tmp_path / "broken"
    broken.write_text("#!/bin/sh\necho 'Fatal Python error: init_fs_encoding' >&2\nexit 1\n", encoding="utf-8")
    broken.chmod(0o755)
    asked = interpreters.ask(str(broken), "added")
    assert not asked.has_torch
    assert asked.problem == f"{broken} exited with code 1: Fatal Python error: init_fs_encoding"
    missing = interpreters.ask(str(tmp_path / "nothing"), "added")
    assert missing.problem.startswith(f"cannot run {tmp_path / 'nothing'}: No such file")


FROZEN = textwrap.dedent(
    """
    import json, sys
    sys.frozen = True
    sys._MEIPASS = sys.argv[1]
    from gpuconfig.core.workers import pythons, search
    from gpuconfig.core.workload.runner import trace_python
    from gpuconfig.core.workload.spec import WorkloadError
    from gpuconfig.probe.runner import run_suite
    out = {"candidates": search.candidates()}
    try:
        out["worker"] = pythons.worker_python()
    except pythons.NoTorchPython as exc:
        out["worker_error"] = str(exc)
    try:
        out["trace"] = trace_python().path
    except WorkloadError as exc:
        out["trace_error"] = str(exc)
    if "worker_error" in out:
        outcome = run_suite("quick", only=["matmul"])
        out["suite_torch"] = outcome.torch.record()
        out["suite_results"] = [(r.name, r.status, r.reason) for r in outcome.results]
    print(json.dumps(out))
    """
)


def _as_the_app(tmp_path: Path, env: dict[str, str]) -> dict[str, object]:
    bundle = tmp_path / "bundle"
    bundle.mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", FROZEN, str(bundle)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**env, "PYTHONPATH": str(Path(__file__).parents[2]), "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.skipif(not LINUX, reason="shell scripts stand in for the interpreters")
def test_the_app_finds_a_conda_environment_with_torch(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "empty").mkdir()
    torch_env = _python_script(home / "miniforge3" / "envs" / "torch" / "bin" / "python")
    found = _as_the_app(tmp_path, {"HOME": str(home), "PATH": str(tmp_path / "empty")})
    assert found["worker"] == torch_env
    assert found["trace"] == torch_env


@pytest.mark.skipif(not LINUX, reason="shell scripts stand in for the interpreters")
def test_the_app_with_no_python_with_torch_says_where_it_looked(tmp_path: Path) -> None:
    home = tmp_path / "home"
    on_path = tmp_path / "path"
    # A Python without torch on PATH: found, asked, and passed over (the plan still comes from it).
    without = on_path / "python3"
    without.parent.mkdir(parents=True)
    without.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n', encoding="utf-8")
    without.chmod(0o755)
    found = _as_the_app(tmp_path, {"HOME": str(home), "PATH": str(on_path)})
    assert found["candidates"] == [[str(without), "PATH"]]
    assert found["worker_error"] == pythons.NO_TORCH_PYTHON
    assert found["trace_error"] == f"tracing needs PyTorch: {pythons.NO_TORCH_PYTHON}"
    assert found["suite_torch"] == {"unavailable": pythons.NO_TORCH_PYTHON, "failure": "no_torch"}
    assert found["suite_results"] == [["matmul", "skipped", pythons.NO_TORCH_PYTHON]]


def test_the_windows_launchers_list_is_read_with_spaces_in_paths() -> None:
    answer = (
        " -V:3.12 *        C:\\Program Files\\Python312\\python.exe\n"
        " -V:3.11          C:\\Users\\Li Wei\\AppData\\Local\\Programs\\Python\\Python311\\python.exe\n"
        " -V:ContinuumAnalytics/Anaconda39-64 C:\\ProgramData\\anaconda3\\python.exe\n"
        "\n"
    )
    assert search.launcher_paths(answer) == [
        "C:\\Program Files\\Python312\\python.exe",
        "C:\\Users\\Li Wei\\AppData\\Local\\Programs\\Python\\Python311\\python.exe",
        "C:\\ProgramData\\anaconda3\\python.exe",
    ]


def save_added_pythons(paths: list[str]) -> None:
    """Save Pythons as the Probe tab's Add... saves them: a JSON list in the settings of the user's database."""
    store = open_default_store()
    try:
        store.user.set_setting(search.ADDED_SETTING, json.dumps(paths))
    finally:
        store.close()


@pytest.mark.skipif(not LINUX, reason="shell scripts stand in for the interpreters")
def test_pythons_the_user_added_come_right_after_the_named_one(tmp_path: Path) -> None:
    added = _python_script(tmp_path / "added" / "bin" / "python")
    named = _python_script(tmp_path / "named" / "bin" / "python")
    save_added_pythons([added])
    found = search.candidates(env={search.TORCH_PYTHON_ENV: named, "PATH": ""}, home=tmp_path / "home")
    assert found[:2] == [(named, search.TORCH_PYTHON_ENV), (added, "added")]


@pytest.mark.skipif(not LINUX, reason="shell scripts stand in for the interpreters")
def test_an_environment_folder_names_its_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    python = _python_script(tmp_path / "env" / "bin" / "python")
    monkeypatch.setenv(search.TORCH_PYTHON_ENV, str(tmp_path / "env"))
    assert pythons.worker_python() == python


@pytest.mark.skipif(not LINUX, reason="shell scripts stand in for the interpreters")
def test_a_python_added_in_the_probe_tab_runs_the_command_lines_traces_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(search.TORCH_PYTHON_ENV, raising=False)
    log = tmp_path / "started.log"
    added = tmp_path / "added" / "bin" / "python"  # this Python (it has torch), noting each start
    added.parent.mkdir(parents=True)
    added.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    added.chmod(0o755)
    save_added_pythons([str(added)])
    assert pythons.chosen_python() == (str(added), "added")
    model = linear_model(tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "gpuconfig", "estimate", "--model", str(model), "--device", "cpu", "--no-cache",
         "--json"], capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "workers/tracer" in log.read_text(encoding="utf-8")  # the estimator's worker ran in it


def test_a_named_python_that_does_not_exist_is_said_to_be_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpuconfig.probe.runner import run_suite
    from tests.probe.reports import judge_json

    missing = "/nonexistent/bin/python"
    monkeypatch.setenv(search.TORCH_PYTHON_ENV, missing)
    said = f"{search.TORCH_PYTHON_ENV}={missing}: no such interpreter"
    for command in (["probe", "--quick"], ["estimate", "--model", "gpt2", "--device", "cpu"]):
        run = subprocess.run(
            [sys.executable, "-m", "gpuconfig", *command], capture_output=True, text=True, timeout=120, check=False
        )
        assert run.returncode == 2 and run.stderr.strip().splitlines() == [f"gpuconfig: {said}"], run.stderr
    outcome = run_suite("quick", only=["matmul"])  # as the Probe tab runs it, where no exit code can say so
    assert outcome.torch.record() == {"unavailable": said, "failure": "no_python"}
    assert [(r.name, r.status, r.reason) for r in outcome.results] == [("matmul", "skipped", said)]
    (verdict,) = [v for v in judge_json({}, [], outcome.torch, outcome.results) if v.check == "PyTorch"]
    assert verdict.status == "warn" and verdict.message == f"PyTorch unavailable: {said}"
    assert "reinstall" not in verdict.advice and "choose a Python that exists" in verdict.advice
