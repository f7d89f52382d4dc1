"""A pip install carries every package of the source tree: pyproject.toml lists its packages by name (catalog/ and
resources/ are mapped into the package from the top of the tree), so a new subpackage left off that list would be
missing from wheels while every test run from the checkout still passes. The probe's verdicts were once."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_of_the_tree_is_installed() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    in_tree = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "gpuconfig").rglob("__init__.py")}
    assert "gpuconfig.probe.verdicts" in in_tree
    assert in_tree - listed == set()
    mapped = {name for name in listed if name not in in_tree}
    assert mapped == set(setuptools["package-dir"]) == {"gpuconfig.catalog", "gpuconfig.resources"}
