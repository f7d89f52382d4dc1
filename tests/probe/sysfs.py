"""Fixture sysfs trees: JSON manifests in tests/probe/data turned into folders, files and links."""

from __future__ import annotations

import json
import os
from pathlib import Path

DATA = Path(__file__).parent / "data"


def sysfs_tree(name: str, root: Path) -> Path:
    """Build the fixture sysfs tree `name` (files, folders, links as the manifest lists them) under `root`."""
    manifest = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    for relative, text in manifest.get("files", {}).items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for relative in manifest.get("folders", []):
        (root / relative).mkdir(parents=True, exist_ok=True)
    for relative, target in manifest.get("symlinks", {}).items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, root / relative)
    return root
