"""The compatibility tables held to what their sources say: the arch lists of PyTorch's Linux pip wheels, the
targets the ROCm rows name, and the architecture rows the guide needs.

The expected values below were read from the sources named beside them (read 2026-11-26) and are recorded here
independently of catalog/compat/*.toml, so a row that drifts from its source fails.
"""

from __future__ import annotations

import pytest

from gpuconfig.core.guide.choose import GpuTarget, how_it_runs
from gpuconfig.core.guide.records import TorchBuild, arch_key, gfx_key, version_key
from gpuconfig.core.guide.tables import BUILDS_FILE, compat_dir, read_tables

TABLES = read_tables(compat_dir())
CUDA_BUILDS = [b for b in TABLES.builds if b.platform == "cuda"]


def build(torch: str, variant: str) -> TorchBuild:
    found = [b for b in TABLES.builds if (b.torch, b.variant) == (torch, variant)]
    assert len(found) == 1, f"torch {torch} {variant}: expected one row, found {len(found)}"
    return found[0]


def sm(arch_list: str) -> tuple[str, ...]:
    """'5.0;6.0;3.7' (TORCH_CUDA_ARCH_LIST) -> ('sm_37', 'sm_50', 'sm_60'), ascending as the table keeps them."""
    names = {f"sm_{a.replace('.', '').removesuffix('+PTX')}" for a in arch_list.split(";")}
    return tuple(sorted(names, key=arch_key))


# --- the Linux wheel's TORCH_CUDA_ARCH_LIST, 2.0-2.5 ------------------------------------------------------------
# pytorch/builder manywheel/build_cuda.sh at the head of each release branch, the branch the release's Linux wheel
# builds checked out (git -C pytorch+builder show release/2.X:manywheel/build_cuda.sh):
#   release/2.0 @ 9f0fad92f342: base "3.7;5.0;6.0;7.0"; 11.8) += ";7.5;8.0;8.6;9.0"; 11.[67]) += ";7.5;8.0;8.6"
#   release/2.1 @ 55d40b1b0637, 2.2 @ af60d1144744, 2.3 @ ba10bae9fe9b: base "5.0;6.0;7.0;7.5;8.0;8.6";
#       12.1) += ";9.0"; 11.8) += ";3.7;9.0"
#   release/2.4 @ 4ce1afeb2262, 2.5 @ aec5fb5de238: the same, and 12.4) += ";9.0" (x86_64); on release/2.5 the
#       "9.0+PTX" of builder#1932 was reverted on 2024-10-04 (builder#2008, fa48aaf5), before 2.5.0.
# No list has 6.1 (that was the conda build, conda/pytorch-nightly/build.sh) and none has +PTX.
BASE_21 = "5.0;6.0;7.0;7.5;8.0;8.6"
BUILD_SCRIPT = {
    ("2.0", "cu117"): sm("3.7;5.0;6.0;7.0;7.5;8.0;8.6"),
    ("2.0", "cu118"): sm("3.7;5.0;6.0;7.0;7.5;8.0;8.6;9.0"),
    **{(r, "cu118"): sm(BASE_21 + ";3.7;9.0") for r in ("2.1", "2.2", "2.3", "2.4", "2.5")},
    **{(r, "cu121"): sm(BASE_21 + ";9.0") for r in ("2.1", "2.2", "2.3", "2.4", "2.5")},
    **{(r, "cu124"): sm(BASE_21 + ";9.0") for r in ("2.4", "2.5")},
}

# --- what the PyPI wheel itself carries ---------------------------------------------------------------------------
# `pip download torch==X.Y.0 --no-deps` (cp311, Linux x86_64, from PyPI), then the arch list compiled into
# torch/lib/libtorch_python.so (CUDA_ARCH_FLAGS, what torch.cuda.get_arch_list() prints): release -> (CUDA, list).
# No wheel had a compute_XX entry.
PYPI_WHEEL = {
    "2.0": ("11.7", "sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86"),
    "2.1": ("12.1", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"),
    "2.2": ("12.1", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"),
    "2.3": ("12.1", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"),
    "2.4": ("12.1", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"),
    "2.5": ("12.4", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"),
    "2.6": ("12.4", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"),
    "2.7": ("12.6", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"),
    "2.8": ("12.8", "sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"),
    "2.9": ("12.8", "sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"),
    "2.10": ("12.8", "sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"),
    "2.11": ("13.0", "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"),
    "2.12": ("13.0", "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"),
    "2.13": ("13.0", "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"),
    "2.14": ("13.0", "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"),
    "2.15": ("13.2", "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"),
}

PYPI_RELEASES: list[str] = sorted(PYPI_WHEEL, key=lambda torch: version_key(torch))

# --- torch.cuda.get_arch_list() of Linux wheels, quoted in issues --------------------------------------------------
#   nikopueringer/CorridorKey#141: 2.7.1+cu128 Linux [... 'sm_120', 'compute_120'] (Windows: sm_50 ... sm_120 with
#       sm_61, no PTX); 2.10 cu126 Linux sm_50 ... sm_90 without sm_61; 2.10 cu128 sm_70 ... sm_120.
#   pytorch/pytorch#182250: 2.11.0+cu126, 2.11.0+cu128, 2.10.0+cu128.
# The 2.7 cu128 arm of .ci/manywheel/build_cuda.sh was "7.5;8.0;8.6;9.0;10.0;12.0+PTX" (pytorch#145792 added 12.8
# with "...;9.0;10.0;12.0+PTX", pytorch#146265 removed sm50 and sm60 from it).
QUOTED = {
    ("2.7", "cu128"): ("sm_75 sm_80 sm_86 sm_90 sm_100 sm_120", "compute_120"),
    ("2.10", "cu126"): ("sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90", ""),
    ("2.10", "cu128"): ("sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120", ""),
    ("2.11", "cu126"): ("sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90", ""),
    ("2.11", "cu128"): ("sm_75 sm_80 sm_86 sm_90 sm_100 sm_120", ""),
}

# The only release build that keeps its "+PTX": 2.7's 12.8 ("12.0+PTX"). The others were stripped for the release:
# 12.6 by pytorch#145616 (2.6) and #148000 (2.7), 12.8 by #157516 (2.8), 13.0 by the release-only #175567 (2.11),
# the branch-cut change of 2.12 and pytorch#188914 / #188925 (2.13 on); the PyPI wheels above carry no PTX.
PLUS_PTX_AT_RELEASE = {("2.7", "cu128"): ("compute_120",)}


def test_the_rows_of_2_0_to_2_5_cover_the_build_script() -> None:
    rows = {(b.torch, b.variant) for b in CUDA_BUILDS if version_key(b.torch) <= (2, 5)}
    assert rows == set(BUILD_SCRIPT)


@pytest.mark.parametrize("key", sorted(BUILD_SCRIPT), ids="-".join)
def test_2_0_to_2_5_rows_are_the_linux_build_script_list(key: tuple[str, str]) -> None:
    row = build(*key)
    assert row.sm == BUILD_SCRIPT[key]
    assert row.ptx == ()
    assert any(
        s.url.startswith("https://github.com/pytorch/builder/blob/") and s.url.endswith("/manywheel/build_cuda.sh")
        for s in row.sources
    ), "the row cites the build script it follows"


@pytest.mark.parametrize("build_row", [b for b in CUDA_BUILDS if version_key(b.torch) <= (2, 5)], ids=lambda b: b.label)
def test_no_linux_pip_wheel_of_2_0_to_2_5_lists_sm_61(build_row: TorchBuild) -> None:
    assert "sm_61" not in build_row.sm
    assert "sm_90a" not in build_row.sm  # not in any TORCH_CUDA_ARCH_LIST of these releases
    assert "Windows" in build_row.note and "sm_61" in build_row.note  # the Windows wheel's list differs


def test_no_cuda_row_of_any_release_lists_sm_61_and_none_cites_the_conda_packages() -> None:
    assert all("sm_61" not in b.sm for b in CUDA_BUILDS)
    assert not [b.label for b in TABLES.builds if any("moi90" in s.url or "conda" in s.url for s in b.sources)]


@pytest.mark.parametrize("torch", PYPI_RELEASES)
def test_the_pypi_default_row_is_the_list_compiled_into_the_pypi_wheel(torch: str) -> None:
    cuda, arch_flags = PYPI_WHEEL[torch]
    (row,) = [b for b in TABLES.builds if b.torch == torch and b.pypi_default]
    assert row.cuda == cuda
    assert row.arch_list == tuple(arch_flags.split())  # sm then ptx: no compute_XX in any PyPI wheel
    assert any(
        s.url == f"https://pypi.org/project/torch/{torch}.0/#files" and arch_flags in s.title for s in row.sources
    )


@pytest.mark.parametrize("key", sorted(QUOTED), ids="-".join)
def test_rows_match_get_arch_list_quoted_in_issues(key: tuple[str, str]) -> None:
    sass, ptx = QUOTED[key]
    row = build(*key)
    assert row.sm == tuple(sass.split()) and row.ptx == tuple(ptx.split())


@pytest.mark.parametrize("build_row", CUDA_BUILDS, ids=lambda b: b.label)
def test_ptx_only_where_the_release_build_kept_plus_ptx(build_row: TorchBuild) -> None:
    assert build_row.ptx == PLUS_PTX_AT_RELEASE.get((build_row.torch, build_row.variant), ())
    if not build_row.ptx and version_key(build_row.cuda) >= (12, 8) and "NOT VERIFIED" in build_row.note:
        assert "ptx = [] (not known)" in build_row.note


def test_2_7_cu128_embeds_compute_120_ptx_and_the_guide_uses_it_on_linux_only() -> None:
    row = build("2.7", "cu128")
    assert row.ptx == ("compute_120",) and row.sm[-1] == "sm_120"
    cu_12_8 = [b for b in CUDA_BUILDS if version_key(b.cuda) >= (12, 8)]
    assert [b.label for b in cu_12_8 if b.ptx] == ["torch 2.7 cu128"]
    # A GPU newer than every SASS in the wheel runs only through the PTX, and the Windows wheel has none.
    future = GpuTarget("a GPU of compute capability 13.0", "nvidia", "13.0")
    assert how_it_runs(row, future, tables=TABLES) == "compute_120 PTX, compiled for this GPU when first used"
    assert how_it_runs(row, future, windows=True, tables=TABLES) == ""
    assert how_it_runs(build("2.8", "cu128"), future, tables=TABLES) == ""


def test_a_pascal_6_1_gpu_runs_the_sm_60_code_of_the_2_5_wheel() -> None:
    gtx_1080 = GpuTarget("GeForce GTX 1080", "nvidia", "6.1")
    assert how_it_runs(build("2.5", "cu124"), gtx_1080, tables=TABLES) == "sm_60 code (same major version)"
    assert how_it_runs(build("2.0", "cu117"), gtx_1080, tables=TABLES) == "sm_60 code (same major version)"


@pytest.mark.parametrize("build_row", CUDA_BUILDS, ids=lambda b: b.label)
def test_sm_and_ptx_lists_are_ascending_and_unique(build_row: TorchBuild) -> None:
    for names in (build_row.sm, build_row.ptx):
        assert list(names) == sorted(names, key=arch_key) and len(set(names)) == len(names)
    assert build_row.sm and all(a.startswith("sm_") for a in build_row.sm)
    assert all(p.startswith("compute_") for p in build_row.ptx)


def test_the_file_header_states_the_one_method() -> None:
    header = (compat_dir() / BUILDS_FILE).read_text(encoding="utf-8").split("\n[[release]]\n")[0]
    assert "One method for sm and ptx, every release" in header
    assert "TORCH_CUDA_ARCH_LIST" in header and "torch.cuda.get_arch_list()" in header
    assert "Never the conda packages" in header


def test_every_source_read_for_this_revision_is_dated() -> None:
    new = [
        s
        for b in TABLES.builds
        for s in b.sources
        if s.url.startswith("https://github.com/pytorch/builder/") or s.url.endswith("/#files")
    ]
    assert len(new) >= 30 and all(s.read == "2026-11-26" for s in new)


# --- gpu_architectures.toml -------------------------------------------------------------------------------------


def test_every_gfx_target_of_a_rocm_row_has_an_architecture_row() -> None:
    named = {g for b in TABLES.builds if b.platform == "rocm" for g in b.gfx}
    assert {"gfx900", "gfx906", "gfx1150", "gfx1151"} <= named
    assert named - {a.gfx for a in TABLES.amd} == set()


def test_the_amd_rows_added_from_llvm() -> None:
    # LLVM AMDGPUUsage, AMDGPU Processors table (llvm-project f5c8b0a9139b), and llvm-project#163717 for the RDNA 3.5
    # product names.
    expected = {
        "gfx900": ("GCN 5 (Vega)", "Radeon Instinct MI25"),
        "gfx906": ("GCN 5.1 (Vega 7nm)", "Radeon VII"),
        "gfx1150": ("RDNA 3.5", "Radeon 890M"),
        "gfx1151": ("RDNA 3.5", "Radeon 8060S"),
    }
    for gfx, (architecture, example) in expected.items():
        row = TABLES.amd_target(gfx)
        assert row is not None, gfx
        assert row.architecture == architecture and example in row.examples
        assert any("llvm/llvm-project" in s.url and s.read == "2026-11-26" for s in row.sources)
    targets = [a.gfx for a in TABLES.amd]
    assert targets == sorted(targets, key=gfx_key) and len(set(targets)) == len(targets)


def test_the_nvidia_11_0_row_jetson_thor() -> None:
    row = TABLES.nvidia_arch("11.0")
    assert row is not None
    assert row.architecture == "Blackwell" and {"Jetson T5000", "Jetson T4000"} <= set(row.examples)
    assert row.first_cuda == "13.0"  # CUDA 13.0 renumbered SM101 as SM110
    assert TABLES.toolkit("13.0") is not None
    urls = {s.url for s in row.sources}
    assert "https://developer.nvidia.com/cuda-gpus" in urls
    assert "https://docs.nvidia.com/cuda/cuda-features-archive/index.html" in urls
    ccs = [version_key(a.compute_capability) for a in TABLES.nvidia]
    assert ccs == sorted(ccs) and len(set(ccs)) == len(ccs)


def test_the_6_1_note_says_what_the_linux_wheels_carry() -> None:
    row = TABLES.nvidia_arch("6.1")
    assert row is not None and "sm_60" in row.note and "2.0" in row.note and "2.6" not in row.note
