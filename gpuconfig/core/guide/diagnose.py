"""A setup guide for a probed machine: what is wrong with its driver, torch and PCIe links, with the fix.

Reads the JSON form of a probe run (gpuconfig.probe.session.ProbeRun.record(): system, devices, torch,
verdicts). A value the probe could not read is {"unavailable": why}; a missing or malformed key becomes a
finding, or a ValueError naming the key when the report cannot be read at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from gpuconfig.core.failures import Failure
from gpuconfig.core.guide.choose import GpuTarget, choose_wheel_for, code_for
from gpuconfig.core.guide.guide import Finding, Guide, guide_for_gpus
from gpuconfig.core.guide.oses import os_info
from gpuconfig.core.guide.records import DRIVER_PATTERN, gpu_label, version_key
from gpuconfig.core.guide.steps import index_option, packages
from gpuconfig.core.guide.tables import load_tables

# Verdicts the findings below restate with the exact fix; every other failing verdict is passed on.
RESTATED = ("PyTorch", "PyTorch sees the GPU", "GPU architecture in the torch build", "Driver supports torch's CUDA")
LINK_CHECKS = ("PCIe link", "Host to device (pinned)")
CPU_ONLY = GpuTarget("CPU only", "cpu")


def _section(report: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in report:
        raise ValueError(f"probe report: missing key {key!r}")
    value = report[key]
    if not isinstance(value, kind):
        raise ValueError(f"probe report: key {key!r} should be {kind.__name__}, got {type(value).__name__}")
    return value


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def guide_from_probe(report: Mapping[str, Any], os_id: str, china_mirrors: bool = False) -> Guide:
    """The setup guide for the machine a probe report describes, its problems first as findings."""
    if not isinstance(report, Mapping):
        raise ValueError(f"probe report: expected a JSON object, got {type(report).__name__}")
    system = os_info(os_id)
    machine = _section(report, "system", dict)
    devices = _section(report, "devices", list)
    torch = _section(report, "torch", dict)
    verdicts = report.get("verdicts", [])
    if not isinstance(verdicts, list):
        raise ValueError(f"probe report: key 'verdicts' should be list, got {type(verdicts).__name__}")
    findings: list[Finding] = []
    targets = _targets(devices, findings)
    drivers = sorted({v for d in devices if isinstance(d, dict) and (v := _text(d.get("driver_version")))})
    driver = next((d for d in drivers if DRIVER_PATTERN.fullmatch(d)), None)
    counted: dict[GpuTarget, int] = {}
    for target in targets or [CPU_ONLY]:
        counted[target] = counted.get(target, 0) + 1
    choice = choose_wheel_for(list(counted), os_id, driver)
    install = f"python -m pip install {packages(choice)}{index_option(choice, system)}"
    driver_findings = _driver_findings(machine, devices, torch, targets, driver, system.wheel_os)
    findings += driver_findings
    findings += _torch_findings(torch, devices, install, any(f.severity == "fail" for f in driver_findings))
    findings += _verdict_findings(verdicts)
    guide = guide_for_gpus(list(counted.items()), os_id, driver=driver, extra=findings, china_mirrors=china_mirrors)
    host = _text(report.get("host")) or "this machine"
    when = _text(report.get("started_at"))
    return replace(guide, title=f"Setup guide for {host}" + (f", probed {when}" if when else "") + f" ({system.name})")


def _targets(devices: list[Any], findings: list[Finding]) -> list[GpuTarget]:
    targets = []
    for index, device in enumerate(devices):
        if not isinstance(device, dict):
            findings.append(Finding("warn", f"probe report: devices[{index}] is not an object; skipped"))
            continue
        name = _text(device.get("name")) or f"GPU {index}"
        cc = device.get("compute_capability")
        if not (isinstance(cc, str) and re.fullmatch(r"\d+\.\d", cc)):
            why = cc.get("unavailable") if isinstance(cc, dict) else f"key 'compute_capability' is {cc!r}"
            findings.append(
                Finding(
                    "warn",
                    f"{gpu_label(device, index)} {name}: compute capability unknown ({why}); left out of the choice",
                )
            )
            continue
        targets.append(GpuTarget(name, "nvidia", cc))
    return targets


def _driver_findings(
    machine: dict[str, Any],
    devices: list[Any],
    torch: dict[str, Any],
    targets: list[GpuTarget],
    driver: str | None,
    wheel_os: str,
) -> list[Finding]:
    tables, found = load_tables(), []
    gpu = machine.get("gpu")
    cuda = _text(torch.get("cuda"))
    if not devices:
        reason = gpu.get("unavailable") if isinstance(gpu, dict) else None
        if reason and cuda:
            found.append(
                Finding(
                    "fail",
                    f"torch {torch.get('version', '?')} is a CUDA {cuda} build, but no NVIDIA driver answered: "
                    f"{reason}",
                    "install the NVIDIA driver (step 'Install the NVIDIA driver'), or the CPU build if there is no GPU",
                )
            )
        elif reason:
            found.append(Finding("info", f"No NVIDIA GPU found by NVML: {reason}. This guide sets up the CPU build."))
        return found
    if cuda is None or driver is None:
        return found
    family, toolkit = tables.family(cuda), tables.toolkit(cuda)
    floor = (family.windows if wheel_os == "windows" else family.linux) if family else None
    wanted = (toolkit.windows if wheel_os == "windows" else toolkit.linux) if toolkit else None
    supports = next((_text(d.get("cuda_driver_version")) for d in devices if isinstance(d, dict)), None)
    said = f" (it supports CUDA {supports})" if supports else ""
    if floor and version_key(driver) < version_key(floor):
        found.append(
            Finding(
                "fail",
                f"torch {torch.get('version', '?')} is built for CUDA {cuda}, which needs driver {floor} or newer; "
                f"this machine's driver is {driver}{said}.",
                f"update the NVIDIA driver to {wanted or floor} or newer, or install a torch built for the CUDA "
                "the driver supports (the install step below does this for the current driver)",
            )
        )
    elif wanted and version_key(driver) < version_key(wanted):
        found.append(
            Finding(
                "warn",
                f"torch {torch.get('version', '?')} is built for CUDA {cuda}; driver {driver}{said} runs it only "
                f"through CUDA minor-version compatibility (NVIDIA lists {wanted} for CUDA {cuda}).",
                f"update the driver to {wanted} or newer",
            )
        )
    return found


def _torch_findings(torch: dict[str, Any], devices: list[Any], install: str, driver_failed: bool) -> list[Finding]:
    if "unavailable" in torch:
        reason, failure = str(torch["unavailable"]), torch.get("failure")
        if failure == Failure.NO_TORCH:
            return [Finding("info", f"torch is not installed in the probed Python ({reason}).", install)]
        if failure in (Failure.NO_PYTHON, Failure.CANCELLED, Failure.TIMEOUT):
            return [Finding("info", f"torch was not checked: {reason}.", install)]
        if failure is None:  # a report from before the probe said why: not judged broken on its words alone
            return [Finding("warn", f"torch could not be used in the probed Python: {reason}.", install)]
        return [Finding("fail", f"torch is installed but does not work: {reason}", f"reinstall it: {install}")]
    version, cuda, hip = torch.get("version", "?"), _text(torch.get("cuda")), _text(torch.get("hip"))
    if not devices:
        return []
    if hip:
        return [Finding("fail", f"torch {version} is a ROCm (HIP {hip}) build on a machine with NVIDIA GPUs.", install)]
    if not cuda:
        return [
            Finding(
                "fail",
                f"torch {version} is a CPU-only build, but this machine has {len(devices)} NVIDIA GPU(s).",
                f"install the CUDA build: {install}",
            )
        ]
    found = []
    arch_list = torch.get("arch_list")
    recorded = torch.get("arch_in_build")
    in_build: dict[str, Any] = recorded if isinstance(recorded, dict) else {}
    for index, device in enumerate(devices):
        cc = device.get("compute_capability") if isinstance(device, dict) else None
        if not isinstance(cc, str) or not re.fullmatch(r"\d+\.\d", cc):
            continue
        # arch_in_build is keyed by torch's device index, which the probe links to each NVML GPU.
        linked = device.get("torch_device") if isinstance(device, dict) else None
        known = in_build.get(linked.removeprefix("cuda:")) if isinstance(linked, str) else None
        runs = known if isinstance(known, bool) else bool(isinstance(arch_list, list) and code_for(arch_list, cc))
        if not runs:
            shown = " ".join(str(a) for a in arch_list) if isinstance(arch_list, list) else "unknown"
            name = _text(device.get("name")) or f"GPU {index}"
            found.append(
                Finding(
                    "fail",
                    f"{gpu_label(device, index)} {name} (compute capability {cc}, sm_{cc.replace('.', '')}) is not in "
                    f"torch {version}'s architecture list ({shown}): every kernel fails with 'no kernel image'.",
                    f"install a build with code for it: {install}",
                )
            )
    # A driver too old for torch's CUDA already explains is_available() being False.
    if torch.get("cuda_available") is False and not found and not driver_failed:
        found.append(
            Finding(
                "fail",
                f"torch {version} (CUDA {cuda}) sees no GPU: torch.cuda.is_available() is False.",
                "check nvidia-smi and the driver findings above; then reinstall: " + install,
            )
        )
    return found


def _verdict_findings(verdicts: list[Any]) -> list[Finding]:
    found = []
    for index, verdict in enumerate(verdicts):
        if not isinstance(verdict, dict):
            found.append(Finding("warn", f"probe report: verdicts[{index}] is not an object; skipped"))
            continue
        check, status = str(verdict.get("check", "")), verdict.get("status")
        if check in RESTATED or status not in ("fail", "warn"):
            continue
        if status == "warn" and check not in LINK_CHECKS:
            continue
        subject = verdict.get("subject", "")
        text = f"{subject}: {check}: {verdict.get('message', '')}".strip()
        found.append(Finding(str(status), text, str(verdict.get("advice", ""))))
    return found
