"""The compatibility tables in catalog/compat/, row by row, and the errors a malformed table gives."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from gpuconfig.core.guide.records import TorchBuild, arch_key, gfx_key, version_key
from gpuconfig.core.guide.tables import (
    ARCHITECTURES_FILE,
    BUILDS_FILE,
    DRIVERS_FILE,
    CompatTableError,
    compat_dir,
    load_tables,
    read_tables,
)

TABLES = load_tables()
DRIVER = re.compile(r"^\d+(\.\d+){0,2}$")
# What `pip install torch==X --dry-run --report` gave for the Linux x86_64 wheel on PyPI (2026-11-22): the CUDA
# runtime the PyPI default depends on (nvidia-cuda-runtime-cuXX / cuda-toolkit pins). Recorded independently of
# torch_builds.toml, so a wrong pypi_default there fails here.
PYPI_DEFAULT_CUDA = {
    "2.0": "11.7", "2.1": "12.1", "2.2": "12.1", "2.3": "12.1", "2.4": "12.1", "2.5": "12.4", "2.6": "12.4",
    "2.7": "12.6", "2.8": "12.8", "2.9": "12.8", "2.10": "12.8", "2.11": "13.0", "2.12": "13.0", "2.13": "13.0",
    "2.14": "13.0", "2.15": "13.2",
}  # fmt: skip


def build_id(build: TorchBuild) -> str:
    return f"{build.torch}-{build.variant}"


def cc_of(arch: str) -> str:
    major, minor, _ = arch_key(arch)
    return f"{major}.{minor}"


@pytest.mark.parametrize("build", TABLES.builds, ids=build_id)
def test_every_build_row_is_consistent(build: TorchBuild) -> None:
    assert build.sources and all(
        s.url.startswith("https://") and s.title and re.fullmatch(r"\d{4}-\d{2}-\d{2}", s.read) for s in build.sources
    )
    assert build.index == f"https://download.pytorch.org/whl/{build.variant}"
    assert version_key(build.python_min) <= version_key(build.python_max)
    assert set(build.os) <= {"linux", "windows"} and build.os
    if build.platform == "cuda":
        assert build.variant == "cu" + build.cuda.replace(".", "")
        toolkit, family = TABLES.toolkit(build.cuda), TABLES.family(build.cuda)
        assert toolkit is not None and family is not None, f"no driver minimum for CUDA {build.cuda}"
        assert version_key(toolkit.linux) >= version_key(family.linux)
        assert build.sm, "a CUDA build carries SASS"
        assert list(build.sm) == sorted(build.sm, key=arch_key) and len(set(build.sm)) == len(build.sm)
        assert all(re.fullmatch(r"sm_\d{2,3}a?", a) for a in build.sm)
        # PyTorch embeds PTX only for its newest architecture (RELEASE.md "12.0+PTX").
        assert all(arch_key(p)[:2] == arch_key(build.sm[-1])[:2] for p in build.ptx)
        for arch in build.sm:
            row = TABLES.nvidia_arch(cc_of(arch))
            assert row is not None, f"{arch} has no gpu_architectures.toml row"
            # A toolkit cannot compile for a GPU it predates.
            assert not row.first_cuda or version_key(build.cuda) >= version_key(row.first_cuda), arch
        if version_key(build.cuda) >= (13, 0):
            assert arch_key(build.sm[0]) >= (7, 5, ""), "CUDA 13 dropped Maxwell, Pascal and Volta"
        if version_key(build.cuda) >= (12, 8):
            assert all(arch_key(a)[0] >= 7 for a in build.sm), "12.8+ builds carry no Maxwell or Pascal code"
    elif build.platform == "rocm":
        assert build.os == ("linux",) and not build.sm and not build.ptx
        assert list(build.gfx) == sorted(build.gfx, key=gfx_key) and all(
            re.fullmatch(r"gfx[0-9a-f]{3,4}", g) for g in build.gfx
        )
        assert build.gfx or "not verified" in build.note
    else:
        assert build.variant == "cpu" and not (build.sm or build.ptx or build.gfx)
    assert build.note or build.platform == "cpu" or len(build.sources) >= 2, "one source alone needs a note"


def test_releases_2_0_to_2_15_each_with_one_pypi_default_that_matches_pypi() -> None:
    releases = [r.torch for r in TABLES.releases]
    assert releases == [f"2.{n}" for n in range(16)]
    assert TABLES.newest_release() == "2.15"
    for torch, cuda in PYPI_DEFAULT_CUDA.items():
        defaults = [b for b in TABLES.builds if b.torch == torch and b.pypi_default]
        assert len(defaults) == 1 and defaults[0].cuda == cuda, torch
    for release in TABLES.releases:
        assert release.sources
        assert any(b.torch == release.torch and b.platform == "cpu" for b in TABLES.builds)
        # torchvision follows torch 2.N with 0.(N+15); torchaudio stopped at 2.11 (PyPI, read 2026-11-22).
        minor = version_key(release.torch)[1]
        assert release.torchvision == (f"0.{minor + 15}" if minor <= 14 else "")
        assert release.torchaudio == (release.torch if minor <= 11 else "")


def test_architecture_drops_the_guide_relies_on() -> None:
    def sm(torch: str, variant: str) -> tuple[str, ...]:
        return next(b.sm for b in TABLES.builds if (b.torch, b.variant) == (torch, variant))

    assert "sm_120" in sm("2.7", "cu128") and "sm_120" not in sm("2.7", "cu126")
    assert "sm_70" in sm("2.8", "cu128") and "sm_70" not in sm("2.11", "cu128")  # pytorch#157517, #172352
    assert "sm_60" in sm("2.14", "cu126") and not any(b.torch == "2.15" and b.variant == "cu126" for b in TABLES.builds)
    # The Linux pip wheels never carried sm_61 (builder's manywheel/build_cuda.sh; only conda and Windows had it).
    assert "sm_61" not in sm("2.5", "cu124") and "sm_60" in sm("2.6", "cu124")


@pytest.mark.parametrize("toolkit", TABLES.toolkits, ids=lambda t: t.cuda)
def test_every_driver_row_is_consistent(toolkit: object) -> None:
    from gpuconfig.core.guide.records import DriverMinimum

    assert isinstance(toolkit, DriverMinimum)
    assert DRIVER.match(toolkit.linux) and (toolkit.windows == "" or DRIVER.match(toolkit.windows))
    assert toolkit.sources and all(s.url.startswith("https://docs.nvidia.com/") for s in toolkit.sources)
    family = TABLES.family(toolkit.cuda)
    assert family is not None
    assert version_key(toolkit.linux) >= version_key(family.linux) or "earlier driver" in toolkit.note
    # NVIDIA lists no Windows driver for 13.x (the installer stopped bundling one); 11.x and 12.x all have one.
    assert (toolkit.windows == "") == (version_key(toolkit.cuda)[0] >= 13)
    if toolkit.windows == "":
        assert "family" in toolkit.note


def test_driver_minimums_rise_with_the_toolkit_and_the_families_match_nvidia() -> None:
    ordered = sorted(TABLES.toolkits, key=lambda t: version_key(t.cuda))
    linux = [version_key(t.linux) for t in ordered]
    assert linux == sorted(linux)
    families = {f.major: (f.linux, f.windows) for f in TABLES.families}
    assert families == {11: ("450.80.02", "452.39"), 12: ("525.60.13", "528.33"), 13: ("580.65.06", "580")}
    assert all(f.sources for f in TABLES.families)
    assert TABLES.toolkit("12.8") is not None and TABLES.toolkit("12.8").linux == "570.26"  # type: ignore[union-attr]


@pytest.mark.parametrize("arch", TABLES.nvidia, ids=lambda a: a.compute_capability)
def test_every_nvidia_architecture_row(arch: object) -> None:
    from gpuconfig.core.guide.records import NvidiaArch

    assert isinstance(arch, NvidiaArch)
    assert re.fullmatch(r"\d+\.\d", arch.compute_capability) and arch.architecture and arch.examples
    assert arch.sources and all(s.url.startswith("https://") for s in arch.sources)
    assert not arch.first_cuda or TABLES.toolkit(arch.first_cuda) is not None
    assert arch.last_driver_branch in ("", "470", "580")
    if any(s.url.startswith("https://michaelbommarito.com") for s in arch.sources):
        assert "NOT VERIFIED" in arch.note


def test_architecture_rows_are_ordered_and_name_the_well_known_gpus() -> None:
    ccs = [version_key(a.compute_capability) for a in TABLES.nvidia]
    assert ccs == sorted(ccs) and len(set(ccs)) == len(ccs)
    names = {a.compute_capability: a for a in TABLES.nvidia}
    assert "GeForce GTX 1080" in names["6.1"].examples and names["6.1"].last_driver_branch == "580"
    assert "GeForce RTX 5090" in names["12.0"].examples and names["12.0"].first_cuda == "12.8"
    gfx = [a.gfx for a in TABLES.amd]
    assert gfx == sorted(gfx, key=gfx_key) and len(set(gfx)) == len(gfx)
    assert {"gfx90a", "gfx942", "gfx1100"} <= set(gfx) and all(a.sources and a.examples for a in TABLES.amd)


# --- malformed tables: one line naming the file, the line and the field --------------------------------------


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "compat"
    shutil.copytree(compat_dir(), target)
    return target


def spoil(folder: Path, name: str, old: str, new: str, count: int = 1) -> None:
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def one_line_error(folder: Path) -> str:
    with pytest.raises(CompatTableError) as caught:
        read_tables(folder)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_the_shipped_tables_read_from_a_copy_like_the_cached_ones(copy: Path) -> None:
    assert read_tables(copy) == TABLES


# (file, text to replace, replacement, what the one-line error must say)
MALFORMED = [
    (
        BUILDS_FILE,
        'sm = ["sm_37", "sm_50"',
        'sm = ["sm_50", "sm_37"',
        r"torch_builds\.toml:\d+: build\[0\] sm: not in ascending",
    ),
    (
        BUILDS_FILE,
        'sm = ["sm_37", "sm_50"',
        'sm = ["sm37", "sm_50"',
        r"torch_builds\.toml:\d+: build\[0\] sm: 'sm37' does not",
    ),
    (BUILDS_FILE, 'cuda = "11.7"', 'cuda = "11.8"', r"build\[0\] cuda: variant cu117 means cuda = '11\.7'"),
    (BUILDS_FILE, "pypi_default = true", 'pypi_default = "yes"', r"build\[0\] pypi_default: expected true or false"),
    (BUILDS_FILE, 'python_max = "3.11"', 'python_max = "3.11"\nmax_python = "3.12"', r"build\[0\] max_python: unknown"),
    (
        DRIVERS_FILE,
        'linux = "570.26"',
        'linux = "570.26.x"',
        r"cuda_drivers\.toml:\d+: toolkit\[\d+\] linux: '570\.26\.x'",
    ),
    (
        DRIVERS_FILE,
        'cuda = "12.8"',
        'cuda = "12.7"',
        r"torch_builds\.toml:\d+: torch 2\.\d+ cu128 cuda: no cuda_drivers",
    ),
    (ARCHITECTURES_FILE, '"6.1"', '"6.1.0"', r"gpu_architectures\.toml:\d+: nvidia\[\d+\] compute_capability"),
    (ARCHITECTURES_FILE, "open_kernel_modules = false", "open_kernel_modules = 0", r"nvidia\[0\] open_kernel_modules"),
    (BUILDS_FILE, "\n[[build]]\n", "\n[[build]\n", r"torch_builds\.toml:[1-9]\d*: not valid TOML: "),
]


@pytest.mark.parametrize(("name", "old", "new", "expected"), MALFORMED)
def test_a_malformed_table_names_file_line_and_field(copy: Path, name: str, old: str, new: str, expected: str) -> None:
    spoil(copy, name, old, new)
    assert re.search(expected, one_line_error(copy))


def test_a_row_without_sources_is_refused_with_its_line(copy: Path) -> None:
    path = copy / BUILDS_FILE
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line == "[[build]]")
    begin = next(i for i in range(start, len(lines)) if lines[i] == "sources = [")
    end = next(i for i in range(begin, len(lines)) if lines[i] == "]")
    path.write_text("\n".join(lines[:begin] + lines[end + 1 :]) + "\n", encoding="utf-8")
    message = one_line_error(copy)
    assert re.match(
        rf"torch_builds\.toml:{start + 1}: build\[0\] sources: every row needs at least one source", message
    )


def test_two_pypi_defaults_in_one_release_are_refused(copy: Path) -> None:
    spoil(copy, BUILDS_FILE, 'variant = "cu118"\ncuda = "11.8"', 'variant = "cu118"\ncuda = "11.8"')
    path = copy / BUILDS_FILE
    text = path.read_text(encoding="utf-8")
    first = text.index('torch = "2.0"\nvariant = "cu118"')
    path.write_text(
        text[:first] + text[first:].replace("pypi_default = false", "pypi_default = true", 1), encoding="utf-8"
    )
    assert "pypi_default: torch 2.0 needs exactly one default, has 2" in one_line_error(copy)


def test_a_missing_file_is_named(copy: Path) -> None:
    (copy / DRIVERS_FILE).unlink()
    assert one_line_error(copy).startswith("cuda_drivers.toml: cannot read")
