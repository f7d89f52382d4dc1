"""Odd files handed to gpuconfig (folders, symlink loops, deep nesting, huge numbers, a broken schema) and a
closed output pipe: one line and exit 2 (or a quiet stop), never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpuconfig.core.catalog.files import CatalogError, load_catalog
from gpuconfig.core.user_files import UserFileError, parse_json, parse_toml, read_text
from gpuconfig.core.userdata.store import Store
from tests.core.test_cli import run

GPU = "nvidia-geforce-rtx-4090"
DEEP_JSON = "[" * 100_000 + "]" * 100_000
LONG_NUMBER = "9" * 5001


def _build(count: str) -> str:
    return '{"parts": [{"id": "' + GPU + '", "count": ' + count + "}]}"


def _loop(tmp_path: Path, name: str) -> Path:
    link = tmp_path / name
    link.symlink_to(link.name)
    return link


def test_the_reader_says_what_is_wrong_in_one_line(tmp_path: Path) -> None:
    cases = {
        "is a folder, not a file": lambda: read_text(tmp_path),
        "cannot be read: Too many levels of symbolic links": lambda: read_text(_loop(tmp_path, "loop.json")),
        "no such file": lambda: read_text(tmp_path / "missing.json"),
        "nested too deeply to read": lambda: parse_json(DEEP_JSON, "deep.json"),
        "a number has 5,001 digits; at most 4,300 can be read": lambda: parse_json(
            '{\n"n": ' + LONG_NUMBER + "}", "n.json"
        ),
        "bad.json:2: not valid JSON: Expecting value (column 6)": lambda: parse_json('{\n"a": }', "bad.json"),
    }
    for message, read in cases.items():
        with pytest.raises(UserFileError) as caught:
            read()
        assert message in str(caught.value) and "\n" not in str(caught.value)
    with pytest.raises(UserFileError, match=r"^n\.json:2: a number"):
        parse_json('{\n"n": ' + LONG_NUMBER + "}", "n.json")
    with pytest.raises(UserFileError, match=r"^t\.toml: nested too deeply"):
        parse_toml("a = " + "[" * 100_000 + "]" * 100_000, "t.toml")
    with pytest.raises(UserFileError, match=r"^t\.toml:2: not valid TOML: Expected ']' at the end"):
        parse_toml("a = 1\n[kinds.gpu\n", "t.toml")


def _files(tmp_path: Path) -> dict[str, list[str]]:
    """Each odd input and the command that reads it."""
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP_JSON, encoding="utf-8")
    long_count = tmp_path / "long.json"
    long_count.write_text(_build(LONG_NUMBER), encoding="utf-8")
    huge_count = tmp_path / "huge.json"
    huge_count.write_text(_build("9" * 400), encoding="utf-8")
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    return {
        "deep-build": ["build", "check", str(deep)],
        "5001-digit-count": ["build", "check", str(long_count)],
        "400-digit-count": ["build", "check", str(huge_count)],
        "deep-config": ["estimate", "--model", str(deep)],
        "deep-probe-report": ["guide", "--from-probe", str(deep), "--os", "ubuntu-24.04"],
        "price-list-folder": ["catalog", "import-prices", str(folder)],
        "price-list-loop": ["catalog", "import-prices", str(_loop(tmp_path, "loop.csv"))],
    }


@pytest.mark.parametrize(
    "case",
    [
        "deep-build",
        "5001-digit-count",
        "400-digit-count",
        "deep-config",
        "deep-probe-report",
        "price-list-folder",
        "price-list-loop",
    ],
)
def test_an_odd_file_is_one_line_and_exit_2(tmp_path: Path, case: str) -> None:
    result = run(*_files(tmp_path)[case])
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("gpuconfig: ") and result.stderr.count("\n") == 1, result.stderr


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: (d / "schema.toml").write_text("[kinds.gpu\n"), "schema.toml:1: not valid TOML"),
        (lambda d: (d / "schema.toml").write_text('[kinds.gpu]\nlabel = "GPUs"\n'), "schema.toml:1: kind gpu: needs"),
        (lambda d: (d / "gpu.toml").write_text("a = " + "[" * 50_000 + "]" * 50_000), "gpu.toml: nested too deeply"),
        (lambda d: ((d / "gpu.toml").unlink(), (d / "gpu.toml").mkdir()), "gpu.toml: is a folder, not a file"),
    ],
)
def test_a_broken_catalog_file_is_named_by_catalog_check(catalog_copy: Path, change: object, message: str) -> None:
    change(catalog_copy)  # type: ignore[operator]
    result = run("catalog", "check", "--dir", str(catalog_copy))
    assert result.returncode == 2
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr


def test_catalog_check_of_a_folder_that_is_not_there(tmp_path: Path) -> None:
    result = run("catalog", "check", "--dir", str(tmp_path / "nowhere"))
    assert result.returncode == 2 and result.stderr == f"gpuconfig: --dir {tmp_path / 'nowhere'}: no such folder\n"


def test_a_broken_schema_keeps_the_last_good_catalog(tmp_path: Path, catalog_copy: Path) -> None:
    Store.open(tmp_path / "db.sqlite3", catalog_copy).close()
    (catalog_copy / "schema.toml").write_text("[kinds]\ngpu = 1\n", encoding="utf-8")
    with pytest.raises(CatalogError, match=r"^schema\.toml: kind gpu: needs a label"):
        load_catalog(catalog_copy)
    store = Store.open(tmp_path / "db.sqlite3", catalog_copy)  # the app starts on what it had
    try:
        assert store.last_refresh.error.startswith("schema.toml: kind gpu: needs a label")
        assert store.part(GPU) is not None
    finally:
        store.close()


def test_json_into_a_closed_pipe_is_one_line_and_exit_2() -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader (`head`) is gone before gpuconfig writes a byte
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gpuconfig", "catalog", "list", "--kind", "gpu", "--json"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.stderr == "gpuconfig: the output was closed before all of it was written (a pipe into head?)\n"
    assert done.returncode == 2


def test_a_fresh_store_on_a_broken_schema_says_which_line(tmp_path: Path, catalog_copy: Path) -> None:
    (catalog_copy / "schema.toml").write_text(json.dumps({"kinds": 1}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"^schema\.toml:1: not valid TOML"):
        Store.open(tmp_path / "fresh.sqlite3", catalog_copy)
