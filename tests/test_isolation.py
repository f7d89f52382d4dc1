"""No test writes outside its temporary data folder: the conftest fails the test that finds such a write."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WRITES_FROM_A_MODULE_FIXTURE = """
import pytest
from gpuconfig.core.paths import user_data_dir


@pytest.fixture(scope="module")
def written():
    (user_data_dir() / "traces").mkdir()


def test_uses_it(written):
    pass
"""


def run_tests(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(folder), str(folder)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_module_fixture_writing_to_the_data_folder_fails(tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_writes.py").write_text(WRITES_FROM_A_MODULE_FIXTURE)
    result = run_tests(tmp_path)
    assert result.returncode == 1, result.stdout[-2000:]
    assert "written outside any test's temporary data folder" in result.stdout


def test_a_test_of_its_own_folder_passes(tmp_path: Path) -> None:
    shutil.copy(ROOT / "tests" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_writes.py").write_text(WRITES_FROM_A_MODULE_FIXTURE.replace('scope="module"', 'scope="function"'))
    result = run_tests(tmp_path)
    assert result.returncode == 0, result.stdout[-2000:]
