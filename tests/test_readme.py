"""The README: its "Set up" section holds exactly two commands, and CI runs those two as they are written;
its "Development" tree names every package."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def set_up_section() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8").split("## Set up", 1)[1].split("\n## ", 1)[0]


def test_set_up_is_two_commands_that_ci_reads_from_the_readme() -> None:
    section = set_up_section()
    blocks = re.findall(r"```(\w*)\n(.*?)\n```", section, re.S)
    assert [language for language, _ in blocks] == ["bash", "bash"]
    install_and_run, install_and_test = (command.strip() for _, command in blocks)
    assert "\n" not in install_and_run and install_and_run.endswith("pip install . && gpuconfig")
    assert "pip install torch==2.13.0 " in install_and_test and install_and_test.endswith("&& pytest")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # CI takes both commands from this section and runs them, each after removing the venv.
    assert 'split("## Set up", 1)' in ci and "readme_command 0" in ci and "readme_command 1" in ci
    assert 'bash -c "$INSTALL_AND_RUN"' in ci and 'bash -c "$INSTALL_AND_TEST"' in ci
    assert ci.count("rm -rf .venv") == 2
    assert "pip install -q torch" not in ci.split("INSTALL_AND_TEST=")[0]  # nothing installed before them


def test_the_development_tree_names_every_package() -> None:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("## Development", 1)[1].split("\n## ", 1)[0]
    tree = re.findall(r"```\n(.*?)\n```", section, re.S)[0]
    package = ROOT / "gpuconfig"
    folders = sorted(p.parent.relative_to(package) for p in package.rglob("__init__.py") if p.parent != package)
    assert len(folders) > 20
    for folder in folders:
        assert f"{folder.name}/" in tree, f"the README's tree leaves out gpuconfig/{folder}"
