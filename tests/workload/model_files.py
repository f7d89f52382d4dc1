"""Model files as a user writes them, for the tests that trace one."""

from __future__ import annotations

from pathlib import Path

LINEAR = "import torch\ndef model_and_inputs(batch, seq):\n    return torch.nn.Linear(8, 4), (torch.randn(batch, 8),)\n"


def linear_model(folder: Path) -> Path:
    """A .py file that builds one small Linear layer: traced in a second or two."""
    path = folder / "linear.py"
    path.write_text(LINEAR, encoding="utf-8")
    return path
