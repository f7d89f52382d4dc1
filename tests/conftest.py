"""Shared fixtures: every test gets its own data directory and never touches the user's."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuconfig.core.paths import DATA_DIR_ENV, catalog_dir
from gpuconfig.core.userdata.store import Store

# GUI tests draw offscreen: no display is needed, and none is touched where one exists.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Until a test's own data folder is set, gpuconfig's data folder (and the XDG folders platformdirs would
# fall back to) point into a sandbox of this run, which must stay empty: whatever lands there was written
# by a module or session fixture, or at import, outside any test's temporary folder.
SANDBOX = Path(tempfile.mkdtemp(prefix="gpuconfig-tests-"))
OUTSIDE_ANY_TEST = SANDBOX / "data-outside-any-test"
os.environ[DATA_DIR_ENV] = str(OUTSIDE_ANY_TEST)
for variable in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
    os.environ[variable] = str(SANDBOX / variable.lower())


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    shutil.rmtree(SANDBOX, ignore_errors=True)


def _written_outside_tests() -> list[str]:
    folders = [OUTSIDE_ANY_TEST, *(SANDBOX / name / "gpuconfig" for name in ("xdg_data_home", "xdg_config_home"))]
    return sorted(str(path) for folder in folders if folder.exists() for path in [folder, *folder.rglob("*")])


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Each test's own data folder; fails the test when something wrote outside every test's folder."""
    stray = _written_outside_tests()
    if stray:
        for folder in (OUTSIDE_ANY_TEST, SANDBOX / "xdg_data_home", SANDBOX / "xdg_config_home"):
            shutil.rmtree(folder, ignore_errors=True)
        pytest.fail(f"written outside any test's temporary data folder (a module fixture or an import?): {stray[:5]}")
    data = tmp_path / "user-data"
    monkeypatch.setenv(DATA_DIR_ENV, str(data))
    yield data
    stray = _written_outside_tests()
    assert stray == [], f"the test wrote outside its temporary data folder: {stray[:5]}"


@pytest.fixture(scope="module")
def module_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A data folder for a module's fixtures (a trace shared by the module's tests)."""
    data = tmp_path_factory.mktemp("module-data")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DATA_DIR_ENV, str(data))
        yield data


UNPRICED_CPU = "amd-ryzen-9-9950x"


@pytest.fixture
def catalog_copy(tmp_path: Path) -> Path:
    """A private copy of the shipped catalog that a test may edit or break. Its UNPRICED_CPU has no price: the tests
    of unpriced lines (never counted as free) need one part without any, and every shipped CPU has one."""
    target = tmp_path / "catalog"
    shutil.copytree(catalog_dir(), target, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
    cpus = target / "cpu.toml"
    rows = cpus.read_text(encoding="utf-8").split("\n[[part]]\n")
    for at, row in enumerate(rows):
        if f'id = "{UNPRICED_CPU}"' in row:
            lines, kept, in_prices = row.split("\n"), [], False
            for line in lines:
                in_prices = in_prices or line.startswith("prices = [")
                if not in_prices and not line.startswith("price = "):
                    kept.append(line)
                in_prices = in_prices and line != "]"
            # CPUs are a kind held to prices (schema.toml): a row without one says why
            kept.insert(kept.index(next(x for x in kept if x.startswith("sources = ["))), 'unpriced = "test row"')
            rows[at] = "\n".join(kept)
    cpus.write_text("\n[[part]]\n".join(rows), encoding="utf-8")
    return target


@pytest.fixture
def store(tmp_path: Path, catalog_copy: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "test.sqlite3", catalog_copy)
    yield opened
    opened.close()
