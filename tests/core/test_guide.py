"""The setup guide: wheel choice by compute capability, driver findings, probe diagnosis, documents."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gpuconfig.core.catalog.files import load_catalog
from gpuconfig.core.catalog.model import Part, Source
from gpuconfig.core.guide.choose import GpuTarget, choose_wheel, code_for, runs_on, target_from_part
from gpuconfig.core.guide.diagnose import guide_from_probe
from gpuconfig.core.guide.guide import OSES, Guide, guide_for_gpus, guide_for_part
from gpuconfig.core.guide.records import version_key
from gpuconfig.core.guide.render import guide_html, guide_markdown, guide_record
from gpuconfig.core.guide.tables import load_tables
from gpuconfig.core.paths import catalog_dir
from gpuconfig.probe import nvml
from gpuconfig.probe.session import ProbeRun
from gpuconfig.probe.verdicts import judge
from tests.probe.reports import typed

TABLES = load_tables()
RTX_5090 = GpuTarget("GeForce RTX 5090", "nvidia", "12.0")
GTX_1080 = GpuTarget("GeForce GTX 1080", "nvidia", "6.1")
H100 = GpuTarget("H100", "nvidia", "9.0")
RX_7900_XTX = GpuTarget("Radeon RX 7900 XTX", "amd", gfx_target="gfx1100")
PROBE_DATA = Path(__file__).resolve().parents[1] / "probe" / "data"


def build(torch: str, variant: str) -> Any:
    return next(b for b in TABLES.builds if (b.torch, b.variant) == (torch, variant))


def findings(guide: Guide, severity: str) -> list[str]:
    return [f"{f.message} {f.fix}" for f in guide.findings if f.severity == severity]


@pytest.fixture(scope="module")
def parts() -> dict[str, Part]:
    return {p.id: p for p in load_catalog(catalog_dir()).parts}


# --- which wheel ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("os_id", list(OSES))
def test_an_rtx_5090_gets_a_wheel_built_for_sm_120(os_id: str) -> None:
    choice = choose_wheel(RTX_5090, os_id)
    if os_id == "macos":
        assert not choice.runs_gpu and choice.build.platform == "cpu"
        return
    assert choice.runs_gpu and "sm_120" in choice.build.sm and choice.how == ("sm_120 code",)
    assert version_key(choice.build.cuda) >= (12, 8) and version_key(choice.build.torch) >= (2, 7)
    assert choice.build.pypi_default  # 2.15's default, cu132, carries sm_120
    assert version_key(choice.required_driver or "0") >= version_key(TABLES.toolkit("12.8").linux)  # type: ignore[union-attr]


def test_sm_120_runs_only_on_cuda_12_8_builds_and_newer() -> None:
    assert not runs_on(build("2.6", "cu126"), RTX_5090)
    assert not runs_on(build("2.7", "cu118"), RTX_5090)  # CUDA 11.8's libraries predate Blackwell
    assert runs_on(build("2.7", "cu128"), RTX_5090)
    first = min((b for b in TABLES.builds if runs_on(b, RTX_5090)), key=lambda b: b.order)
    assert (first.torch, first.variant) == ("2.7", "cu128")


def test_a_gtx_1080_keeps_a_build_with_pascal_code_and_is_told_what_dropped_it() -> None:
    choice = choose_wheel(GTX_1080, "ubuntu-24.04")
    assert choice.runs_gpu and (choice.build.torch, choice.build.variant) == ("2.14", "cu126")
    assert "sm_60" in choice.build.sm and choice.how == ("sm_60 code (same major version)",)
    dropped = {b.label for b in choice.dropped_in}
    assert dropped == {"torch 2.14 cu130", "torch 2.14 cu132", "torch 2.15 cu130", "torch 2.15 cu132"}
    assert choice.last_cuda == "12.6"
    assert "The CUDA 12.6 wheels are the last PyTorch wheels with code for it" in choice.reason
    assert "torch 2.15 cu130, cu132" in choice.reason
    guide = guide_for_gpus([(GTX_1080, 1)], "ubuntu-24.04")
    assert guide.install_command == (
        'python -m pip install "torch==2.14.*" "torchvision==0.29.*" --index-url https://download.pytorch.org/whl/cu126'
    )
    assert any("torch 2.15 cu130, cu132" in text and "pip install -U torch" in text for text in findings(guide, "warn"))
    driver = guide.steps[0]
    assert (
        "nvidia-driver-580" in driver.commands[1][1]
        and "R580 branch is the last NVIDIA driver for Pascal" in driver.why
    )


def test_the_catalog_rows_give_the_same_answers(parts: dict[str, Part]) -> None:
    assert target_from_part(parts["nvidia-geforce-rtx-5090"]) == GpuTarget("GeForce RTX 5090", "nvidia", "12.0")
    if "nvidia-geforce-gtx-1080" in parts:
        guide = guide_for_part(parts["nvidia-geforce-gtx-1080"], 1, "windows-11")
        assert guide.choice.build.variant == "cu126" and guide.choice.last_cuda == "12.6"
    two = guide_for_part(parts["nvidia-geforce-rtx-4090"], 2, "ubuntu-22.04")
    assert parts["nvidia-geforce-rtx-4090"].specs["p2p"] is False
    assert any(v.name == "NCCL_P2P_DISABLE" and v.value == "1" for v in two.env_vars)
    assert any("no peer-to-peer path" in text for text in findings(two, "warn"))
    amd = guide_for_part(parts["amd-radeon-rx-7900-xtx"], 1, "ubuntu-24.04")
    assert amd.choice.build.platform == "rocm" and "gfx1100" in amd.choice.build.gfx
    assert any(v.name == "PYTORCH_HIP_ALLOC_CONF" for v in amd.env_vars)
    with pytest.raises(ValueError, match="expected a GPU part"):
        target_from_part(
            parts["amd-radeon-rx-7900-xtx"].__class__(**{**parts["amd-radeon-rx-7900-xtx"].__dict__, "kind": "cpu"})
        )


def test_binary_compatibility_rules() -> None:
    assert code_for(["sm_80", "sm_86", "sm_90"], "8.9") == "sm_86 code (same major version)"
    assert code_for(["sm_80", "sm_90a"], "9.0") == "sm_90a code"
    assert code_for(["sm_80", "sm_90a"], "9.1") == ""  # an architecture-specific target runs on 9.0 only
    assert code_for(["sm_75", "sm_120", "compute_120"], "12.1") == "sm_120 code (same major version)"
    assert code_for(["sm_90", "compute_90"], "10.0") == "compute_90 PTX, compiled for this GPU when first used"
    assert code_for(["sm_75", "sm_80"], "7.0") == ""
    linux, windows = (
        choose_wheel(GpuTarget("future GPU", "nvidia", "13.0"), os) for os in ("ubuntu-24.04", "windows-11")
    )
    assert linux.runs_gpu and "PTX" in linux.how[0]  # the +PTX is in the Linux wheels only
    assert not windows.runs_gpu


# --- drivers -----------------------------------------------------------------------------------------------


def test_a_driver_older_than_the_chosen_cuda_runtime_fails_naming_both_versions() -> None:
    guide = guide_for_gpus([(RTX_5090, 1)], "ubuntu-24.04", driver="560.35.03")
    assert guide.choice.driver_ok is False
    failed = findings(guide, "fail")
    assert any("560.35.03" in text and "580.65.06" in text and "CUDA 13.2" in text for text in failed), failed
    assert any("570.26 (torch 2.11 cu128)" in text for text in failed)  # the oldest driver any 5090 build accepts
    old = guide_for_gpus([(H100, 1)], "debian-12", driver="418.67")
    assert any("418.67" in text and "520.61.05" in text for text in findings(old, "fail"))


def test_an_installed_driver_is_honoured() -> None:
    guide = guide_for_gpus([(H100, 1)], "ubuntu-22.04", driver="550.54.15")
    assert (guide.choice.build.torch, guide.choice.build.variant) == ("2.14", "cu126") and guide.choice.driver_ok
    assert (
        guide.choice.driver_note == "torch 2.15 cu132 would need driver 580.65.06 or newer; this machine has 550.54.15."
    )
    # 550 is above the 12.x family minimum but below 12.6's own driver: minor-version compatibility, a warning.
    assert any("550.54.15" in text and "560.28.03" in text for text in findings(guide, "warn"))
    assert not findings(guide, "fail")
    fresh = guide_for_gpus([(H100, 1)], "ubuntu-22.04", driver="595.71.05")
    assert fresh.choice.build.torch == "2.15" and not findings(fresh, "fail")


# --- other platforms -----------------------------------------------------------------------------------


def test_wsl2_installs_the_windows_driver_only() -> None:
    step = guide_for_gpus([(RTX_5090, 1)], "wsl2").steps[0]
    assert step.title == "Install the NVIDIA driver on Windows, not in WSL"
    assert "never install a Linux NVIDIA driver inside WSL" in step.why
    assert all("apt" not in text for _, text in step.commands)


def test_apple_cpu_and_amd_guides() -> None:
    mac = guide_for_gpus([(GpuTarget("M3 Max", "apple"), 1)], "macos")
    assert "--index-url" not in mac.install_command and "mps" in mac.steps[-1].commands[1][1]
    assert not findings(mac, "fail")
    cpu = guide_for_gpus([(GpuTarget("CPU only", "cpu"), 1)], "ubuntu-24.04")
    assert cpu.install_command.endswith("--index-url https://download.pytorch.org/whl/cpu") and not cpu.env_vars
    amd_windows = guide_for_gpus([(RX_7900_XTX, 1)], "windows-11")
    assert not amd_windows.choice.runs_gpu and any("ROCm" in text for text in findings(amd_windows, "fail"))
    odd = guide_for_gpus([(GpuTarget("Radeon RX 6700 XT", "amd", gfx_target="gfx1031"), 1)], "ubuntu-24.04")
    assert any("HSA_OVERRIDE_GFX_VERSION=10.3.0" in text for text in findings(odd, "info"))


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match=r"unknown OS 'ubuntu-20\.04'"):
        guide_for_gpus([(H100, 1)], "ubuntu-20.04")
    with pytest.raises(ValueError, match="compute_capability"):
        GpuTarget("H100", "nvidia", "sm_90")
    with pytest.raises(ValueError, match="vendor"):
        GpuTarget("Arc A770", "intel")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="count"):
        guide_for_gpus([(H100, 0)], "ubuntu-22.04")


def test_every_version_in_the_text_comes_from_the_tables() -> None:
    known = (
        {t.linux for t in TABLES.toolkits}
        | {t.windows for t in TABLES.toolkits}
        | {v for f in TABLES.families for v in (f.linux, f.windows)}
    )
    for target, os_id in ((RTX_5090, "windows-11"), (GTX_1080, "ubuntu-22.04"), (H100, "debian-12")):
        text = guide_markdown(guide_for_gpus([(target, 2)], os_id, driver="550.54.15"))
        body = text.split("## Sources")[0]
        drivers = set(re.findall(r"\b(5\d\d(?:\.\d+){1,2})\b", body)) - {"550.54.15"}
        assert drivers <= known, drivers - known


# --- probe reports ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def recorded_devices() -> list[dict[str, Any]]:
    """The documented-values NVML recording (tests/probe/data), parsed by the probe's own code."""
    recording = json.loads((PROBE_DATA / "nvml_documented.json").read_text(encoding="utf-8"))
    return [nvml.facts_from_raw(d["facts"]).record() for d in recording["devices"]]


@pytest.fixture(scope="module")
def this_torch() -> dict[str, Any]:
    """The torch facts the probe's worker reports for this machine's Python (a subprocess; CPU-only here)."""
    from gpuconfig.probe.runner import run_suite

    return run_suite("quick", only=[]).torch.record()


def report(
    devices: list[dict[str, Any]], torch: dict[str, Any], series: dict[str, Any] | None = None
) -> dict[str, Any]:
    system: dict[str, Any] = {"gpu": {"count": len(devices), "driver_version": "550.54.15"}}
    machine, gpus, facts = typed(system, devices, torch)
    run = ProbeRun(
        "2026-11-22T10:00:00+00:00", "quick", "python", "lab-07", machine, gpus, facts, (),
        judge(machine, gpus, facts, [], series), series=series,
    )  # fmt: skip
    return run.record()


def test_a_cpu_only_torch_on_a_machine_with_nvidia_gpus(
    recorded_devices: list[dict[str, Any]], this_torch: dict[str, Any]
) -> None:
    guide = guide_from_probe(report(recorded_devices, this_torch), "ubuntu-22.04")
    assert guide.title.startswith("Setup guide for lab-07, probed 2026-11-22")
    failed = findings(guide, "fail")
    if "unavailable" in this_torch:
        assert any("torch" in text for text in [*failed, *findings(guide, "info")])
    else:
        assert any("CPU-only build" in text and guide.install_command in text for text in failed), failed
    # The fixture's GPUs are 9.0 and 8.9 on a 550.54.15 driver: cu126 is the newest build that driver runs.
    assert guide.choice.build.variant == "cu126" and guide.choice.driver_ok
    warned = findings(guide, "warn")
    # A CPU-only torch has no cuda:0: the GPU is named as nvidia-smi numbers it.
    assert any("GPU 0: PCIe link: PCIe 1.0 x16 of 5.0 x16" in text for text in warned), warned


def test_torch_built_for_a_newer_cuda_than_the_driver(recorded_devices: list[dict[str, Any]]) -> None:
    torch = {"version": "2.13.0+cu130", "cuda": "13.0", "hip": None, "cuda_available": False,
             "arch_list": ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"],
             "arch_in_build": {"0": True, "1": True}}  # fmt: skip
    guide = guide_from_probe(report(recorded_devices, torch), "ubuntu-24.04")
    failed = findings(guide, "fail")
    assert any("CUDA 13.0" in t and "580.65.06" in t and "550.54.15" in t and "CUDA 12.4" in t for t in failed), failed
    assert not any("sees no GPU" in t for t in failed)  # the arch list is fine; the driver is the problem


def test_an_architecture_missing_from_the_installed_torch(recorded_devices: list[dict[str, Any]]) -> None:
    recording = json.loads((PROBE_DATA / "nvml_documented.json").read_text(encoding="utf-8"))
    raw = copy.deepcopy(recording["devices"][1]["facts"])
    raw["nvmlDeviceGetCudaComputeCapability()"] = [6, 1]  # the desktop device of the recording, as a Pascal card
    pascal = nvml.facts_from_raw(raw)
    torch = {"version": "2.13.0+cu130", "cuda": "13.0", "hip": None, "cuda_available": True,
             "arch_list": ["sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120", "compute_120"]}  # fmt: skip
    guide = guide_from_probe(report([pascal], torch), "ubuntu-24.04")
    failed = findings(guide, "fail")
    assert any("compute capability 6.1, sm_61" in t and "sm_75 sm_80" in t and "cu126" in t for t in failed), failed
    assert guide.choice.build.variant == "cu126"


def test_a_link_below_its_width_under_load_fails(recorded_devices: list[dict[str, Any]]) -> None:
    loaded_at_x8 = {"channels": {"gpu0.util": [0, 99], "gpu0.pcie_rx": [0, 3000], "gpu0.pcie_tx": [0, 10],
                                 "gpu0.pcie_gen": [1, 5], "gpu0.pcie_width": [8, 8]}}  # fmt: skip
    torch = {"version": "2.14.0+cu126", "cuda": "12.6", "cuda_available": True, "arch_list": ["sm_90"]}
    guide = guide_from_probe(report(recorded_devices[:1], torch, loaded_at_x8), "ubuntu-24.04")
    assert any("PCIe 5.0 x8 of 5.0 x16 under load" in t and "reseat" in t for t in findings(guide, "fail"))


def test_no_nvidia_driver() -> None:
    system = {"gpu": {"unavailable": "no NVIDIA driver (libnvidia-ml not found)"}}
    cuda_torch = {"version": "2.14.0+cu126", "cuda": "12.6", "cuda_available": False, "arch_list": []}
    base = {"system": system, "devices": [], "verdicts": []}
    guide = guide_from_probe({**base, "torch": cuda_torch}, "ubuntu-24.04")
    assert any("no NVIDIA driver answered" in t and "libnvidia-ml" in t for t in findings(guide, "fail"))
    cpu = guide_from_probe({**base, "torch": {"version": "2.14.0+cpu", "cuda": None}}, "ubuntu-24.04")
    assert cpu.choice.build.platform == "cpu" and any("No NVIDIA GPU found" in t for t in findings(cpu, "info"))
    no_torch = {"unavailable": "No module named 'torch'", "failure": "no_torch"}  # as the probe's worker says it
    missing = guide_from_probe({**base, "torch": no_torch}, "windows-11")
    assert any("not installed" in t for t in findings(missing, "info"))
    earlier = guide_from_probe({**base, "torch": {"unavailable": no_torch["unavailable"]}}, "windows-11")
    assert not findings(earlier, "fail") and any("could not be used" in t for t in findings(earlier, "warn"))


def test_a_malformed_report_is_named_never_a_crash(recorded_devices: list[dict[str, Any]]) -> None:
    good = {"system": {}, "devices": [], "torch": {}}
    with pytest.raises(ValueError, match="missing key 'system'"):
        guide_from_probe({"devices": [], "torch": {}}, "ubuntu-22.04")
    with pytest.raises(ValueError, match="key 'devices' should be list"):
        guide_from_probe({**good, "devices": "GPU 0"}, "ubuntu-22.04")
    with pytest.raises(ValueError, match="expected a JSON object"):
        guide_from_probe([], "ubuntu-22.04")  # type: ignore[arg-type]
    unreadable = {**recorded_devices[0], "compute_capability": {"unavailable": "NVML_ERROR_NOT_SUPPORTED"}}
    guide = guide_from_probe({**good, "devices": [unreadable, 7], "verdicts": ["?"]}, "ubuntu-22.04")
    warned = findings(guide, "warn")
    assert any("compute capability unknown (NVML_ERROR_NOT_SUPPORTED)" in t for t in warned)
    assert any("devices[1] is not an object" in t for t in warned) and any("verdicts[0]" in t for t in warned)


# --- documents -------------------------------------------------------------------------------------------


def test_a_source_that_is_not_a_web_address_is_text_not_a_link() -> None:
    guide = guide_for_gpus([(RTX_5090, 1)], "ubuntu-24.04")
    notes = Source("file:///etc/passwd", "Local notes", "2026-01-05")
    guide = replace(guide, sources=(*guide.sources, notes))
    html = guide_html(guide)
    links = re.findall(r"href=[\"']([^\"']*)", html)
    assert links and all(link.startswith("https://") for link in links), links
    assert "Local notes: file:///etc/passwd" in html
    markdown = guide_markdown(guide)
    assert "](file:" not in markdown and "- Local notes: file:///etc/passwd, read 2026-01-05" in markdown
    assert markdown.count("](https://") == len(guide.sources) - 1


def test_markdown_html_and_json_carry_the_install_command() -> None:
    guide = guide_for_gpus([(GpuTarget("<GTX 1080 & co>", "nvidia", "6.1"), 2)], "ubuntu-22.04", p2p=False)
    command = guide.install_command
    markdown = guide_markdown(guide)
    assert command in markdown and "## Troubleshooting" in markdown and "NCCL_P2P_DISABLE" in markdown
    assert "https://docs.nvidia.com/cuda/archive/13.2.2/cuda-toolkit-release-notes/index.html" in markdown
    html = guide_html(guide)
    assert html.startswith("<!DOCTYPE html>") and "<style>" in html and "<script" not in html
    assert command.replace('"', "&quot;") in html
    assert "&lt;GTX 1080 &amp; co&gt;" in html and "<GTX 1080" not in html
    record = guide_record(guide)
    assert json.loads(json.dumps(record)) == record
    assert record["install_command"] == command and record["wheel"]["variant"] == "cu126"
    assert record["wheel"]["dropped_in"] == [
        "torch 2.14 cu130",
        "torch 2.14 cu132",
        "torch 2.15 cu130",
        "torch 2.15 cu132",
    ]
    assert {s["title"] for s in record["troubleshooting"]} >= {
        "Out of memory",
        "Multi-GPU training stalls or hangs",
        "Slow inference",
    }
    assert record["env_vars"][0]["command"] == "export CUDA_DEVICE_ORDER=PCI_BUS_ID"


def test_powershell_commands_on_windows() -> None:
    record = guide_record(guide_for_gpus([(RTX_5090, 1)], "windows-11"))
    shells = {c["shell"] for step in record["steps"] for c in step["commands"]}
    assert shells == {"powershell"}
    assert any(v["command"] == '$env:CUDA_DEVICE_ORDER = "PCI_BUS_ID"' for v in record["env_vars"])


def test_mainland_china_installs_through_the_mirror_where_pypi_has_the_build() -> None:
    """PyPI's own Linux wheel comes whole from USTC's mirror; a build only PyTorch's index has keeps that index."""
    linux = guide_for_gpus([(RTX_5090, 1)], "ubuntu-24.04", china_mirrors=True)
    step = next(s for s in linux.steps if "mainland China" in s.title)
    assert linux.choice.build.pypi_default
    commands = [text for _, text in step.commands]
    assert commands[0] == "python -m pip config set global.index-url https://mirrors.ustc.edu.cn/pypi/simple"
    assert "--index-url" not in commands[1] and commands[1].startswith('python -m pip install "torch==')
    assert step.expect.endswith("Looking in indexes: https://mirrors.ustc.edu.cn/pypi/simple")
    assert any("ustclug/mirrorhelp" in s.url for s in linux.sources)
    windows = guide_for_gpus([(RTX_5090, 1)], "windows-11", china_mirrors=True)
    step = next(s for s in windows.steps if "mainland China" in s.title)
    pip = step.commands[1][1]
    assert f"--index-url {windows.choice.build.index}" in pip
    assert pip.endswith("--extra-index-url https://mirrors.ustc.edu.cn/pypi/simple")
    assert not any("mainland China" in s.title for s in guide_for_gpus([(RTX_5090, 1)], "windows-11").steps)
