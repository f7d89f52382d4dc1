"""Installing PyTorch from mainland China, where pypi.org and download.pytorch.org are often slow: a PyPI mirror for
what PyPI serves, PyTorch's own index for the builds only it has.

USTC's mirror help (https://mirrors.ustc.edu.cn/help/pypi.html, built from ustclug/mirrorhelp docs/pypi.md) gives the
index and the commands used here: `pip config set global.index-url https://mirrors.ustc.edu.cn/pypi/simple`, and uv's
`--default-index`; the mirror takes its metadata from TUNA's and redirects what it has not cached to TUNA. No mirror
carries PyTorch's own index officially, so a build that is not PyPI's own torch wheel still comes from
download.pytorch.org.
"""

from __future__ import annotations

from gpuconfig.core.catalog.model import Source
from gpuconfig.core.guide.choose import WheelChoice
from gpuconfig.core.guide.oses import OsInfo
from gpuconfig.core.guide.steps import Step, packages
from gpuconfig.core.i18n import translate

MIRROR_INDEX = "https://mirrors.ustc.edu.cn/pypi/simple"
MIRROR_HELP = "https://mirrors.ustc.edu.cn/help/pypi.html"
CONDA_HELP = "https://mirrors.ustc.edu.cn/help/anaconda.html"
SOURCES = (
    Source(
        url="https://github.com/ustclug/mirrorhelp/blob/01d8408d19a1f627e89211216fd3e497af562eec/docs/pypi.md",
        title="USTC mirror help, PyPI (the source of https://mirrors.ustc.edu.cn/help/pypi.html): "
        "pip config set global.index-url https://mirrors.ustc.edu.cn/pypi/simple; uv pip install --default-index",
        read="2026-11-26",
    ),
    Source(
        url="https://github.com/ustclug/mirrorhelp/blob/64a140cf0c8148d79b6f4b48a17d0768fd9da405/docs/anaconda.md",
        title="USTC mirror help, Anaconda: conda-forge and bioconda cached; Anaconda's own channels not mirrored "
        "(an organisation of more than 200 people needs Anaconda's commercial licence for them)",
        read="2026-11-26",
    ),
)


def mirror_step(system: OsInfo, choice: WheelChoice) -> Step:
    """The install step for a reader in mainland China: through the USTC PyPI mirror where PyPI has the build."""
    shell, pins, build = system.shell, packages(choice), choice.build
    on_pypi = system.wheel_os == "macos" or (system.wheel_os == "linux" and build.pypi_default)
    configure = (shell, f"python -m pip config set global.index-url {MIRROR_INDEX}")
    if on_pypi:
        why = translate(
            "GuideMirrors",
            "pypi.org and download.pytorch.org are often slow from mainland China. {label} is the torch wheel PyPI "
            "itself serves here, so USTC's PyPI mirror ({help}) has it: make the mirror pip's default index and "
            "install without PyTorch's index (uv: the mirror as the default index, in the environment made above). "
            "conda: USTC caches conda-forge ({conda}).",
        )
        commands = (configure, (shell, f"python -m pip install {pins}"))
        uv = f"uv pip install {pins} --default-index {MIRROR_INDEX}"
        indexes = MIRROR_INDEX
    else:
        why = translate(
            "GuideMirrors",
            "pypi.org and download.pytorch.org are often slow from mainland China. {label} is only on PyTorch's "
            "own index, which no mirror carries officially: torch comes from there, and everything else (NumPy, "
            "the CUDA libraries PyPI holds, ...) can come from USTC's PyPI mirror ({help}). conda: USTC caches "
            "conda-forge ({conda}).",
        )
        index = build.index
        commands = (
            configure,
            (shell, f"python -m pip install {pins} --index-url {index} --extra-index-url {MIRROR_INDEX}"),
        )
        uv = f"uv pip install {pins} --index {index} --default-index {MIRROR_INDEX}"
        indexes = f"{index}, {MIRROR_INDEX}"
    return Step(
        translate("GuideMirrors", "In mainland China: through a mirror"),
        why.format(label=build.label, help=MIRROR_HELP, conda=CONDA_HELP),
        (*commands, (shell, uv)),
        translate("GuideMirrors", "pip prints Looking in indexes: {indexes}").format(indexes=indexes),
    )
