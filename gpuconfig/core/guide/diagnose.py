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
from gpuconfig.core.i18n import translate

# Verdicts (by their English check names) the findings below restate with the exact fix; every other failing
# verdict is passed on.
RESTATED = ("PyTorch", "PyTorch sees the GPU", "GPU architecture in the torch build", "Driver supports torch's CUDA")
LINK_CHECKS = ("PCIe link", "Host to device (pinned)")


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
    for target in targets or [GpuTarget(translate("Guide", "CPU only"), "cpu")]:
        counted[target] = counted.get(target, 0) + 1
    choice = choose_wheel_for(list(counted), os_id, driver)
    install = f"python -m pip install {packages(choice)}{index_option(choice, system)}"
    driver_findings = _driver_findings(machine, devices, torch, targets, driver, system.wheel_os)
    findings += driver_findings
    findings += _torch_findings(torch, devices, install, any(f.severity == "fail" for f in driver_findings))
    findings += _verdict_findings(verdicts)
    guide = guide_for_gpus(list(counted.items()), os_id, driver=driver, extra=findings, china_mirrors=china_mirrors)
    host = _text(report.get("host")) or translate("Guide", "this machine")
    when = _text(report.get("started_at"))
    title = (
        translate("Guide", "Setup guide for {host}, probed {when} ({os})")
        if when
        else translate("Guide", "Setup guide for {host} ({os})")
    )
    return replace(guide, title=title.format(host=host, when=when, os=system.label))


def _targets(devices: list[Any], findings: list[Finding]) -> list[GpuTarget]:
    targets = []
    for index, device in enumerate(devices):
        if not isinstance(device, dict):
            findings.append(
                Finding(
                    "warn",
                    translate("Guide", "probe report: devices[{index}] is not an object; skipped").format(index=index),
                )
            )
            continue
        name = _text(device.get("name")) or f"GPU {index}"
        cc = device.get("compute_capability")
        if not (isinstance(cc, str) and re.fullmatch(r"\d+\.\d", cc)):
            why = (
                cc.get("unavailable")
                if isinstance(cc, dict)
                else translate("Guide", "key 'compute_capability' is {value}").format(value=repr(cc))
            )
            findings.append(
                Finding(
                    "warn",
                    translate(
                        "Guide", "{gpu} {name}: compute capability unknown ({why}); left out of the choice"
                    ).format(gpu=gpu_label(device, index), name=name, why=why),
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
                    translate(
                        "Guide", "torch {version} is a CUDA {cuda} build, but no NVIDIA driver answered: {reason}"
                    ).format(version=torch.get("version", "?"), cuda=cuda, reason=reason),
                    translate(
                        "Guide",
                        "install the NVIDIA driver (step 'Install the NVIDIA driver'), "
                        "or the CPU build if there is no GPU",
                    ),
                )
            )
        elif reason:
            found.append(
                Finding(
                    "info",
                    translate(
                        "Guide", "No NVIDIA GPU found by NVML: {reason}. This guide sets up the CPU build."
                    ).format(reason=reason),
                )
            )
        return found
    if cuda is None or driver is None:
        return found
    family, toolkit = tables.family(cuda), tables.toolkit(cuda)
    floor = (family.windows if wheel_os == "windows" else family.linux) if family else None
    wanted = (toolkit.windows if wheel_os == "windows" else toolkit.linux) if toolkit else None
    supports = next((_text(d.get("cuda_driver_version")) for d in devices if isinstance(d, dict)), None)
    said = (
        translate("Guide", "{driver} (it supports CUDA {cuda})").format(driver=driver, cuda=supports)
        if supports
        else driver
    )
    version = torch.get("version", "?")
    if floor and version_key(driver) < version_key(floor):
        found.append(
            Finding(
                "fail",
                translate(
                    "Guide",
                    "torch {version} is built for CUDA {cuda}, which needs driver {floor} or newer; "
                    "this machine's driver is {driver}.",
                ).format(version=version, cuda=cuda, floor=floor, driver=said),
                translate(
                    "Guide",
                    "update the NVIDIA driver to {driver} or newer, or install a torch built for the CUDA "
                    "the driver supports (the install step below does this for the current driver)",
                ).format(driver=wanted or floor),
            )
        )
    elif wanted and version_key(driver) < version_key(wanted):
        found.append(
            Finding(
                "warn",
                translate(
                    "Guide",
                    "torch {version} is built for CUDA {cuda}; driver {driver} runs it only "
                    "through CUDA minor-version compatibility (NVIDIA lists {wanted} for CUDA {cuda}).",
                ).format(version=version, cuda=cuda, driver=said, wanted=wanted),
                translate("Guide", "update the driver to {driver} or newer").format(driver=wanted),
            )
        )
    return found


def _torch_findings(torch: dict[str, Any], devices: list[Any], install: str, driver_failed: bool) -> list[Finding]:
    if "unavailable" in torch:
        reason, failure = str(torch["unavailable"]), torch.get("failure")
        if failure == Failure.NO_TORCH:
            message = translate("Guide", "torch is not installed in the probed Python ({reason}).")
            return [Finding("info", message.format(reason=reason), install)]
        if failure in (Failure.NO_PYTHON, Failure.CANCELLED, Failure.TIMEOUT):
            return [
                Finding("info", translate("Guide", "torch was not checked: {reason}.").format(reason=reason), install)
            ]
        if failure is None:  # a report from before the probe said why: not judged broken on its words alone
            message = translate("Guide", "torch could not be used in the probed Python: {reason}.")
            return [Finding("warn", message.format(reason=reason), install)]
        return [
            Finding(
                "fail",
                translate("Guide", "torch is installed but does not work: {reason}").format(reason=reason),
                translate("Guide", "reinstall it: {command}").format(command=install),
            )
        ]
    version, cuda, hip = torch.get("version", "?"), _text(torch.get("cuda")), _text(torch.get("hip"))
    if not devices:
        return []
    if hip:
        message = translate("Guide", "torch {version} is a ROCm (HIP {hip}) build on a machine with NVIDIA GPUs.")
        return [Finding("fail", message.format(version=version, hip=hip), install)]
    if not cuda:
        return [
            Finding(
                "fail",
                translate(
                    "Guide", "torch {version} is a CPU-only build, but this machine has {n} NVIDIA GPU(s)."
                ).format(version=version, n=len(devices)),
                translate("Guide", "install the CUDA build: {command}").format(command=install),
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
            shown = (
                " ".join(str(a) for a in arch_list) if isinstance(arch_list, list) else translate("Guide", "unknown")
            )
            name = _text(device.get("name")) or f"GPU {index}"
            found.append(
                Finding(
                    "fail",
                    translate(
                        "Guide",
                        "{gpu} {name} (compute capability {cc}, {sm}) is not in "
                        "torch {version}'s architecture list ({arch_list}): every kernel fails with 'no kernel image'.",
                    ).format(
                        gpu=gpu_label(device, index),
                        name=name,
                        cc=cc,
                        sm=f"sm_{cc.replace('.', '')}",
                        version=version,
                        arch_list=shown,
                    ),
                    translate("Guide", "install a build with code for it: {command}").format(command=install),
                )
            )
    # A driver too old for torch's CUDA already explains is_available() being False.
    if torch.get("cuda_available") is False and not found and not driver_failed:
        found.append(
            Finding(
                "fail",
                translate(
                    "Guide", "torch {version} (CUDA {cuda}) sees no GPU: torch.cuda.is_available() is False."
                ).format(version=version, cuda=cuda),
                translate("Guide", "check nvidia-smi and the driver findings above; then reinstall: {command}").format(
                    command=install
                ),
            )
        )
    return found


def _verdict_findings(verdicts: list[Any]) -> list[Finding]:
    found = []
    for index, verdict in enumerate(verdicts):
        if not isinstance(verdict, dict):
            found.append(
                Finding(
                    "warn",
                    translate("Guide", "probe report: verdicts[{index}] is not an object; skipped").format(index=index),
                )
            )
            continue
        check, status = str(verdict.get("check", "")), verdict.get("status")
        # A report in another language names each check in it and keeps the English name as check_id.
        key = str(verdict.get("check_id") or check)
        if key in RESTATED or status not in ("fail", "warn"):
            continue
        if status == "warn" and key not in LINK_CHECKS:
            continue
        subject = verdict.get("subject", "")
        text = f"{subject}: {check}: {verdict.get('message', '')}".strip()
        found.append(Finding(str(status), text, str(verdict.get("advice", ""))))
    return found
