"""The checker's PyTorch rule: does the newest PyTorch release ship code for each GPU of the build?"""

from __future__ import annotations

from gpuconfig.core.build.check import Problem
from gpuconfig.core.build.model import Item
from gpuconfig.core.guide.choose import choose_wheel, runs_on, target_from_part
from gpuconfig.core.guide.records import version_key
from gpuconfig.core.guide.tables import load_tables
from gpuconfig.core.i18n import translate


def wheel_problem(item: Item) -> Problem | None:
    """A warning when no build of the newest release runs the GPU, naming the last one that does."""
    try:
        target = target_from_part(item.part)
    except ValueError as exc:
        return Problem(
            "warn",
            "pytorch-wheels",
            translate("BuildChecks", "{gpu}: {problem}.").format(gpu=item.part.name, problem=exc),
            translate("BuildChecks", "Choose an NVIDIA or AMD GPU."),
        )
    tables = load_tables()
    # The newest release the tables list builds of this GPU's kind for (CUDA for NVIDIA, ROCm for AMD).
    platform = "rocm" if target.vendor == "amd" else "cuda"
    kind = [b for b in tables.builds if b.platform == platform]
    if not kind:
        return None
    newest = max((b.torch for b in kind), key=version_key)
    current = [b for b in kind if b.torch == newest]
    if any(runs_on(build, target) for build in current):
        return None
    choice = choose_wheel(target, "ubuntu-24.04")
    if not choice.runs_gpu:
        return Problem(
            "fail",
            "pytorch-wheels",
            translate("BuildChecks", "No PyTorch build in the tables runs {gpu}.").format(gpu=target.label),
            translate("BuildChecks", "Choose a GPU that PyTorch supports."),
            "catalog/compat/torch_builds.toml",
        )
    last = choice.build
    older = version_key(last.torch) < version_key(newest)
    return Problem(
        "warn",
        "pytorch-wheels",
        (
            translate("BuildChecks", "PyTorch {newest} ships no code for {gpu}; {last} is the newest build that does.")
            if older
            else translate("BuildChecks", "PyTorch {newest} ships no code for {gpu}.")
        ).format(newest=newest, gpu=target.label, last=last.label),
        translate("BuildChecks", "Pin {last} (the setup guide gives the command), or choose a newer GPU.").format(
            last=last.label
        ),
        "catalog/compat/torch_builds.toml",
    )
