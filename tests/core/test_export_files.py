"""Exported files: the permissions an ordinary save gives, on disk before they replace the old file, and
Markdown that shows HTML as text."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuconfig.core.guide.diagnose import guide_from_probe
from gpuconfig.core.guide.render import guide_markdown
from gpuconfig.core.paths import write_text_atomic
from tests.core.test_cli import run


@pytest.fixture
def umask() -> Iterator[int]:
    previous = os.umask(0o022)
    try:
        yield 0o022
    finally:
        os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_new_export_gets_the_mode_the_umask_gives(tmp_path: Path, umask: int) -> None:
    path = tmp_path / "build.md"
    write_text_atomic(path, "# box\n")
    assert _mode(path) == 0o666 & ~umask == 0o644
    os.umask(0o077)
    private = tmp_path / "private.md"
    write_text_atomic(private, "# box\n")
    assert _mode(private) == 0o600


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_overwriting_an_export_keeps_its_mode(tmp_path: Path, umask: int) -> None:
    path = tmp_path / "build.md"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o640)
    write_text_atomic(path, "new")
    assert path.read_text(encoding="utf-8") == "new" and _mode(path) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["build.md"]  # no temporary file left


def test_the_file_is_on_disk_before_it_replaces_the_old_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(handle: int) -> None:
        events.append("fsync:" + ("folder" if stat.S_ISDIR(os.fstat(handle).st_mode) else "file"))
        real_fsync(handle)

    def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        events.append("replace")
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_text_atomic(tmp_path / "guide.md", "text")
    assert events[:2] == ["fsync:file", "replace"]
    assert (tmp_path / "guide.md").read_text(encoding="utf-8") == "text"


def test_html_in_a_probe_report_is_text_in_the_markdown_guide() -> None:
    report = {
        "host": "<img src=x onerror=alert(1)>",
        "started_at": "2026-01-01T00:00:00",
        "system": {"gpu": {"unavailable": "no driver <script>alert(1)</script>"}},
        "devices": [],
        "verdicts": [],
        "torch": {"version": "2.14.0+cu126", "cuda": "12.6", "cuda_available": False, "arch_list": []},
    }
    markdown = guide_markdown(guide_from_probe(report, "ubuntu-24.04"))
    assert "<img" not in markdown and "<script" not in markdown
    assert markdown.startswith("# Setup guide for &lt;img src=x onerror=alert(1)&gt;")
    assert "no driver &lt;script&gt;alert(1)&lt;/script&gt;" in markdown


def test_the_help_says_a_python_model_file_is_run() -> None:
    help_text = " ".join(run("estimate", "--help").stdout.split())
    assert "a .py file is run as Python code, so give only files you trust" in help_text
