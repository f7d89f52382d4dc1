"""What an eGPU link costs: its measured copy rate against a desktop x16 slot, the slowdown of the user's own
workload from the bytes that cross the link each step, and a measurement judged against the link.

The slowdown is not a flat percentage: a LoRA step of a language model sends a few kilobytes of token ids
and loses nothing measurable, an image model at batch 256 sends hundreds of megabytes and can lose a third.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gpuconfig.core.build.rules import Rules
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.egpu.check import CONTEXT, KERNEL_ABI, Check, Host
from gpuconfig.core.egpu.tables import Link
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate

# Why copies and kernels serialise in a plain training loop: a non_blocking copy returns to the host at
# once but runs on the same CUDA stream as the step's kernels, so they wait for it.
STREAM_SOURCE = (
    "PyTorch tutorial 'A guide on good usage of non_blocking and pin_memory()' "
    "(https://pytorch.org/tutorials/intermediate/pinmem_nonblock.html); meta-pytorch/torchrec#3485 "
    "('without this side stream the data transfer runs on current (main) stream')"
)
LINK_FIGURES = "catalog/egpu.toml [links]: host-to-device rates measured over each link, each with its source"
# Causes of a slow eGPU link that no reading rules out (in English; general_causes() for the reader).
GENERAL_CAUSES = (
    QT_TRANSLATE_NOOP(
        "Egpu",
        "The port: laptops often wire only some USB-C ports to the Thunderbolt/USB4 controller; use the one "
        "marked with the Thunderbolt or USB4 40 logo, directly, not through a hub or dock.",
    ),
    QT_TRANSLATE_NOOP(
        "Egpu", "The power mode: on battery or a power-saving plan the link and the card may clock down."
    ),
)
X2_SOURCE = (
    "the tunnel's width is the narrowest link above the GPU (Linux sysfs current_link_width, "
    "Documentation/ABI/testing/sysfs-bus-pci; ewagner12/all-ways-egpu#37); osy/HaC-Mini#149"
)


@dataclass(frozen=True)
class LinkSpeed:
    link: Link
    egpu_gbs: float  # a typical measured host-to-device rate over the link, pinned memory
    desktop_gbs: float  # the same card in a desktop x16 slot of its generation, measured
    desktop_label: str

    @property
    def ratio(self) -> float:
        return self.egpu_gbs / self.desktop_gbs

    def to_json(self) -> dict[str, Any]:
        return {
            "link": self.link.id,
            "link_name": self.link.name,
            "egpu_h2d_gbs": self.egpu_gbs,
            "egpu_h2d_range_gbs": list(self.link.h2d_range_gbs) if self.link.h2d_range_gbs else None,
            "egpu_source": "; ".join(self.link.sources[:3]),
            "desktop_h2d_gbs": round(self.desktop_gbs, 2),
            "desktop_label": self.desktop_label,
            "pass_gbs": self.link.pass_gbs,
            "fail_gbs": self.link.fail_gbs,
        }


def link_speed(link: Link, gpu: Part | None, rules: Rules) -> LinkSpeed | None:
    """The link's measured rate against the card's own slot (its PCIe generation, x16) in a desktop."""
    if link.h2d_gbs is None:
        return None
    gen = int(gpu.specs.get("pcie_gen") or 4) if gpu is not None else 4
    lanes = int(gpu.specs.get("pcie_lanes") or 16) if gpu is not None else 16
    if gpu is not None and gpu.specs.get("pcie_gen"):
        label = f"PCIe {gen}.0 x{lanes}"
    else:
        label = translate("Egpu", "PCIe {gen}.0 x{lanes} (assumed)").format(gen=gen, lanes=lanes)
    return LinkSpeed(link, link.h2d_gbs, rules.link_gbs(gen, lanes), label)


@dataclass(frozen=True)
class Slowdown:
    """One step of the workload on the eGPU against the same card in a desktop slot."""

    step_seconds: float  # the step's compute on this card, as the estimator times it (no copies)
    input_bytes: float  # what every micro-batch of one step copies to the card
    weights_bytes: int  # loaded once, at the start
    egpu_copy_s: float
    desktop_copy_s: float
    serial: float  # fraction slower: the copy runs before the step's kernels (a plain loop)
    overlapped: float  # fraction slower when a side-stream prefetch hides the copy behind compute
    load_egpu_s: float
    load_desktop_s: float

    def to_json(self) -> dict[str, Any]:
        return {
            "step_seconds": self.step_seconds,
            "input_bytes_per_step": round(self.input_bytes),
            "weights_bytes": self.weights_bytes,
            "egpu_copy_seconds": self.egpu_copy_s,
            "desktop_copy_seconds": self.desktop_copy_s,
            "slowdown_serial": self.serial,
            "slowdown_overlapped": self.overlapped,
            "weights_load_egpu_seconds": self.load_egpu_s,
            "weights_load_desktop_seconds": self.load_desktop_s,
            "basis": translate(
                "Egpu",
                "input tensors of one step (traced) over the link's measured copy rate; the step's compute from "
                "the estimator. Serial: the copy waits on the same stream ({source}). No CPU offload or "
                "second GPU is modelled, so nothing else crosses the link.",
            ).format(source=STREAM_SOURCE),
        }


def slowdown(step_seconds: float, input_bytes: float, weights_bytes: int, speed: LinkSpeed) -> Slowdown:
    egpu = input_bytes / (speed.egpu_gbs * 1e9)
    desktop = input_bytes / (speed.desktop_gbs * 1e9)
    serial = (step_seconds + egpu) / (step_seconds + desktop) - 1 if step_seconds + desktop > 0 else 0.0
    hidden = max(step_seconds, egpu) / max(step_seconds, desktop) - 1 if max(step_seconds, desktop) > 0 else 0.0
    return Slowdown(
        step_seconds,
        input_bytes,
        weights_bytes,
        egpu,
        desktop,
        serial,
        hidden,
        weights_bytes / (speed.egpu_gbs * 1e9),
        weights_bytes / (speed.desktop_gbs * 1e9),
    )


def workload_slowdown(answer: Any, speed: LinkSpeed) -> tuple[Slowdown | None, str]:
    """The slowdown of an estimator answer on this link, or None and why not."""
    if answer.timing is None:
        return None, answer.time_note or translate("Egpu", "the estimate has no step time for this card")
    if "input_bytes" not in answer.fitted.terms:
        return None, translate("Egpu", "this trace does not record the input bytes: estimate again")
    workload = answer.estimate.workload
    per_micro = answer.fitted.at("input_bytes", workload.batch, answer.estimate.seq)
    weights = answer.estimate.memory.weights
    return slowdown(answer.timing.step_seconds, per_micro * workload.grad_accum, weights, speed), ""


# --- a measurement on the attached eGPU -------------------------------------------------------------------


def _ok(results: Sequence[dict[str, Any]], name: str, variant: str) -> dict[str, Any] | None:
    return next(
        (r for r in results if r.get("name") == name and r.get("variant") == variant and r.get("status") == "ok"),
        None,
    )


def measured_h2d(results: Sequence[dict[str, Any]]) -> float | None:
    """The pinned host-to-device rate a measurement gave, in GB/s, or None."""
    h2d = _ok(results, "h2d_bandwidth", "pinned")
    return float(h2d["value"]) if h2d is not None else None


def shortfall_reasons(measured: float, link: Link, host: Host | None) -> list[str]:
    """The likely causes of a slow link, the ones the probe saw first."""
    reasons = []
    if host is not None and host.link_gbps is not None and link.raw_gbps and host.link_gbps < link.raw_gbps:
        reasons.append(
            translate(
                "Egpu",
                "The Thunderbolt link trained at {lanes} x {lane_gbps:g} Gb/s: a 20 Gb/s cable or a port that is not "
                "{link} ({source}).",
            ).format(lanes=host.lanes, lane_gbps=host.lane_gbps, link=link.name, source=KERNEL_ABI)
        )
    if host is not None and host.pcie_lanes and link.pcie_lanes and host.pcie_lanes < link.pcie_lanes:
        reasons.append(
            translate("Egpu", "The PCIe tunnel is x{lanes}, not x{link_lanes} ({source}).").format(
                lanes=host.pcie_lanes, link_lanes=link.pcie_lanes, source=X2_SOURCE
            )
        )
    typical = link.h2d_gbs or 0
    if typical:
        share = measured / typical
        if 0.35 <= share < 0.75:
            reasons.append(
                translate(
                    "Egpu",
                    "{measured:.2g} GB/s is about half the usual {typical:g} GB/s: the pattern of a PCIe x2 tunnel "
                    "(some laptops wire their Thunderbolt controller with two lanes) or a link at half its rate.",
                ).format(measured=measured, typical=typical)
            )
        elif share < 0.35:
            reasons.append(
                translate(
                    "Egpu",
                    "{measured:.2g} GB/s is a quarter or less of the usual {typical:g} GB/s: an x1 tunnel, or other "
                    "devices (a display, storage) sharing the controller's bandwidth.",
                ).format(measured=measured, typical=typical)
            )
    return reasons + general_causes()


def general_causes() -> list[str]:
    """GENERAL_CAUSES in the language in use."""
    return [translate(CONTEXT, cause) for cause in GENERAL_CAUSES]


def judge_measurement(results: Sequence[dict[str, Any]], link: Link | None, host: Host | None) -> list[Check]:
    """The probe's host-to-device copy and training-step results (records) against what `link` should give."""
    h2d = _ok(results, "h2d_bandwidth", "pinned")
    checks: list[Check] = []
    if h2d is None:
        skipped = next((r for r in results if r.get("name") == "h2d_bandwidth"), None)
        why = (skipped or {}).get("reason") or translate("Egpu", "the host-to-device test did not run")
        checks.append(
            Check("h2d-measured", "unknown", translate("Egpu", "Nothing crossed a link: {why}.").format(why=why))
        )
    else:
        measured = float(h2d["value"])
        if link is None or link.pass_gbs is None:
            checks.append(
                Check(
                    "h2d-measured",
                    "unknown",
                    translate("Egpu", "Host to device {measured:.3g} GB/s; no link to judge it by.").format(
                        measured=measured
                    ),
                )
            )
        else:
            if link.h2d_gbs:
                message = translate(
                    "Egpu",
                    "Host to device {measured:.3g} GB/s (pinned); good on {link} is at least {good:g} GB/s; {link} "
                    "usually gives {typical:g} GB/s.",
                )
            else:
                message = translate(
                    "Egpu", "Host to device {measured:.3g} GB/s (pinned); good on {link} is at least {good:g} GB/s."
                )
            fail = link.fail_gbs if link.fail_gbs is not None else 0.0
            status = "ok" if measured >= link.pass_gbs else "warn" if measured >= fail else "fail"
            fix = "" if status == "ok" else " ".join(shortfall_reasons(measured, link, host))
            checks.append(
                Check(
                    "h2d-measured",
                    status,  # type: ignore[arg-type]
                    message.format(measured=measured, link=link.name, good=link.pass_gbs, typical=link.h2d_gbs),
                    fix,
                    "; ".join(link.sources[:2]) or LINK_FIGURES,
                )
            )
    checks += _step(results, h2d)
    return checks


def _step(results: Sequence[dict[str, Any]], h2d: dict[str, Any] | None) -> list[Check]:
    resident, fed = _ok(results, "train_from_host", "resident"), _ok(results, "train_from_host", "from_host")
    if resident is None or fed is None:
        return [
            Check(
                "step-measured",
                "unknown",
                translate("Egpu", "The training step with copies from the host did not run."),
            )
        ]
    detail = resident.get("detail", {})
    step_s = float(detail.get("step_s") or 0) or float(detail.get("batch", 1)) / float(resident["value"])
    # The pairs measured moments apart (resident over fed seconds per step) where the run has them.
    pairs = [float(v) for v in fed.get("detail", {}).get("vs_resident_samples") or [] if isinstance(v, int | float)]
    lost = 1 / statistics.median(pairs) - 1 if pairs else float(resident["value"]) / float(fed["value"]) - 1
    batch_bytes = int(detail.get("batch_bytes") or 0)
    mib = batch_bytes / 2**20
    if h2d is None:
        ran = translate(
            "Egpu",
            "The step ran ({mib:.1f} MiB per step; {fed:,.0f} samples/s with the batch copied, {resident:,.0f} "
            "without), but no link was crossed: no GPU.",
        ).format(mib=mib, fed=float(fed["value"]), resident=float(resident["value"]))
        return [Check("step-measured", "unknown", ran)]
    expected = batch_bytes / (float(h2d["value"]) * 1e9) / step_s if step_s > 0 else 0.0
    explained = lost <= expected * 1.5 + 0.05
    return [
        Check(
            "step-measured",
            "ok" if explained else "warn",
            translate(
                "Egpu",
                "Copying each batch ({mib:.1f} MiB per step) from the host made the training step {lost:.0%} slower; "
                "the measured copy rate predicts {expected:.0%}.",
            ).format(mib=mib, lost=lost, expected=expected),
            ""
            if explained
            else translate(
                "Egpu",
                "The step loses more than the copy explains: the CPU may be starved (power mode), or the copy "
                "competes with other traffic on the controller (a display or storage on the same enclosure).",
            ),
            STREAM_SOURCE,
        )
    ]
