"""A Hugging Face Hub model id (`meta-llama/Meta-Llama-3-8B`) found in the local Hugging Face cache.

The cache is read by its layout (models--org--name/refs/<revision> holds a commit, snapshots/<commit>/ its
files), as huggingface_hub writes it, so that no network and no huggingface_hub are needed here.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from gpuconfig.core.workload.spec import WorkloadError

# org/name[@revision], as the Hub spells repository ids
HUB_ID = re.compile(r"^(?P<repo>[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)(?:@(?P<revision>[\w./-]+))?$")


def is_hub_id(ref: str) -> bool:
    return HUB_ID.match(ref) is not None


def hub_cache() -> Path:
    """Where huggingface_hub keeps downloaded repositories: HF_HUB_CACHE, else HF_HOME/hub, else the default."""
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if os.environ.get(name):
            return Path(os.environ[name]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    cache_home = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache_home).expanduser() / "huggingface" / "hub"


def cached_config(ref: str) -> Path:
    """The config.json of Hub model `ref` in the local cache; WorkloadError, in one line, where it is not there."""
    match = HUB_ID.match(ref)
    if match is None:
        raise WorkloadError(f"model: {ref!r} is not a Hugging Face model id like org/name")
    repo, revision = match["repo"], match["revision"] or "main"
    folder = hub_cache() / f"models--{repo.replace('/', '--')}"
    ref_file = folder / "refs" / revision
    try:
        commit = ref_file.read_text(encoding="utf-8").strip() if ref_file.is_file() else revision
    except OSError:
        commit = revision
    path = folder / "snapshots" / commit / "config.json"
    if not path.is_file():
        raise WorkloadError(
            f"model: {repo} is not in the Hugging Face cache ({hub_cache()}) with a config.json; download it with "
            f"`hf download {repo} config.json` (or give a config.json path)"
        )
    return path
