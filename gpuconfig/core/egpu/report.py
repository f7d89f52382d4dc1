"""One eGPU answer: the compatibility checks, whether the workload fits the card (core/workload/fit.py's verdict,
with the answer's headroom), what the link gives, the workload's slowdown (only for a workload that fits), a
measurement judged against the link; and its JSON form (`gpuconfig egpu --json`) and text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gpuconfig.core.build.rules import Rules
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.egpu.check import ORDER, PORT_LABELS, Check, Compatibility, Host, check_egpu
from gpuconfig.core.egpu.speed import LinkSpeed, Slowdown, judge_measurement, link_speed, workload_slowdown
from gpuconfig.core.egpu.tables import EgpuTables
from gpuconfig.core.units import format_bytes
from gpuconfig.core.workload.fit import Verdict, verdict_record
from gpuconfig.core.workload.spec import TASKS

GIB = 1024**3
FIT_FIX = "Use a card with more memory, or one of the Workload tab's fits-if changes (gpuconfig estimate lists them)."
TIGHT_FIX = (
    "Use a card with more memory, or one of the Workload tab's fits-if changes; it may run if nothing else uses "
    "the card and the estimate is not under, which is what the headroom guards against."
)


@dataclass(frozen=True)
class EgpuReport:
    detection: dict[str, Any] | None  # what the probe read (Detection.to_json()), None when not asked
    compatibility: Compatibility | None  # None: no port known (nothing detected, nothing described)
    speed: LinkSpeed | None
    slowdown: Slowdown | None
    slowdown_note: str
    measured: tuple[Check, ...] = ()
    workload: str = ""  # what the slowdown is of, in words
    verdict: Verdict | None = None  # whether the workload fits the card, with the headroom kept
    fit: Check | None = None  # the verdict as a check: "ok" when it fits, else "fail"

    @property
    def fits(self) -> bool | None:
        """Whether the workload fits the card; None without a workload answered on it."""
        return self.verdict.fits if self.verdict is not None else None

    @property
    def status(self) -> str:
        checks = list(self.compatibility.checks if self.compatibility else ()) + list(self.measured)
        checks += [self.fit] if self.fit is not None else []
        worst = min((c.status for c in checks), key=ORDER.__getitem__, default="unknown")
        return "ok" if worst == "unknown" and self.compatibility else worst


def evaluate(
    host: Host | None,
    dock: Part | None,
    gpu: Part | None,
    tables: EgpuTables,
    rules: Rules,
    answer: Any = None,
    measured: Sequence[dict[str, Any]] | None = None,
    detection: dict[str, Any] | None = None,
) -> EgpuReport:
    """Everything the eGPU tab and `gpuconfig egpu` show, for what is known so far."""
    compatibility = check_egpu(host, dock, gpu, tables, rules) if host is not None else None
    link = compatibility.link if compatibility else None
    if link is None and dock is not None and compatibility is None:
        link = tables.links.get(str(dock.specs.get("link")))
    speed = link_speed(link, gpu, rules) if link is not None else None
    found, note, what = None, "", ""
    verdict = answer.verdict if answer is not None else None
    fit = fit_check(answer, verdict) if answer is not None and verdict is not None else None
    if answer is not None:
        w = answer.estimate.workload
        what = f"{answer.estimate.model_name} {TASKS[w.task]}, batch {w.batch} x {answer.estimate.seq}"
    if verdict is not None and not verdict.fits:
        note = "not estimated: the workload does not fit the card, so it would not run"
    elif answer is not None and speed is not None:
        found, note = workload_slowdown(answer, speed)
    elif answer is not None:
        if compatibility is not None and compatibility.dock is not None and link is None:
            note = "this port and enclosure do not work together: no link to time"
        elif link is not None:
            note = f"no measured copy rate for {link.name} in catalog/egpu.toml"
        else:
            note = "no link to time: choose the port and the enclosure"
    checks = tuple(judge_measurement(measured, link, host)) if measured is not None else ()
    return EgpuReport(detection, compatibility, speed, found, note, checks, what, verdict, fit)


def fit_check(answer: Any, verdict: Verdict) -> Check:
    """The workload's peak on the card, judged with the answer's headroom, as a check of its own."""
    gpu, w = answer.gpu, answer.estimate.workload
    per_gpu = " per GPU" if w.gpus > 1 else ""
    usable = (
        f"{verdict.usable / GIB:.1f} GiB usable ({verdict.memory / GIB:.1f} GiB less {verdict.headroom.percent} "
        "headroom)"
    )
    needs = (
        f"{answer.estimate.model_name} {TASKS[w.task]} needs {verdict.peak / GIB:.1f} GiB{per_gpu}; "
        f"{gpu.name} has {usable}"
    )
    source = (
        f"Workload estimate: the model's trace, as gpuconfig estimate shows it; Fit headroom: {verdict.headroom.why}"
    )
    if verdict.fits:
        return Check("fit", "ok", f"{needs}: it fits, {verdict.spare / GIB:.1f} GiB to spare", "", source)
    if verdict.tight:
        return Check("fit", "fail", f"{needs}: it fits only by using the headroom", TIGHT_FIX, source)
    return Check("fit", "fail", f"{needs}: it does not fit", FIT_FIX, source)


def egpu_record(report: EgpuReport) -> dict[str, Any]:
    c = report.compatibility
    return {
        "status": report.status,
        "detected": report.detection,
        "compatibility": None
        if c is None
        else {
            "status": c.status,
            "verdict": c.verdict,
            "host": c.host.to_json(),
            "dock": c.dock.id if c.dock else None,
            "gpu": c.gpu.id if c.gpu else None,
            "link": c.link.id if c.link else None,
            "checks": [check.to_json() for check in c.checks],
            "driver_notes": list(c.notes),
        },
        "speed": report.speed.to_json() if report.speed else None,
        "slowdown": {**report.slowdown.to_json(), "workload": report.workload} if report.slowdown else None,
        "fit": None
        if report.verdict is None or report.fit is None
        else {**report.fit.to_json(), "verdict": verdict_record(report.verdict), "workload": report.workload},
        "slowdown_note": report.slowdown_note,
        "measured": [check.to_json() for check in report.measured],
    }


MARKS = {"ok": "ok", "warn": "WARN", "fail": "FAIL", "unknown": "?"}


def egpu_text(report: EgpuReport) -> str:
    """The plain-text answer the CLI prints."""
    out = []
    d = report.detection
    if d is not None:
        if d.get("found"):
            h = d["host"]
            link = f", link {h['lanes']} x {h['lane_gbps']:g} Gb/s" if h.get("lanes") and h.get("lane_gbps") else ""
            security = f", security {h['security']}" if h.get("security") else ""
            out.append(f"Host: {h['name'] or PORT_LABELS.get(h['port'], h['port'])} ({h['port']}{link}{security})")
            out += [f"  note: {n}" for n in h.get("notes", [])]
        else:
            out.append(f"Host: {d['reason']}")
        out += [f"  {hint}" for hint in d.get("hints", [])]
    c = report.compatibility
    if c is not None and (c.dock is not None or c.gpu is not None):
        parts = " + ".join(p.name for p in (c.dock, c.gpu) if p is not None)
        misfit = "; the workload does not fit the card" if report.fits is False else ""
        out.append(f"\n{PORT_LABELS.get(c.host.port, c.host.port)} with {parts}: {c.verdict}{misfit}")
        for check in c.checks:
            out.append(f"  [{MARKS[check.status]:4s}] {check.rule}: {check.message}")
            if check.fix and check.status != "ok":
                out.append(f"         fix: {check.fix}")
        out += [f"  note: {n}" for n in c.notes]
    if report.fit is not None:
        fit = report.fit
        out.append(f"\n{report.workload}: {'fits the card' if report.fits else 'does not fit the card'}")
        out.append(f"  [{MARKS[fit.status]:4s}] fit: {fit.message}")
        if fit.fix and fit.status != "ok":
            out.append(f"         fix: {fit.fix}")
        if report.verdict is not None:
            out.append(f"  headroom: {report.verdict.headroom.percent}, {report.verdict.headroom.why}")
    if report.speed is not None:
        s = report.speed
        out.append(
            f"\nHost to device over {s.link.name}: about {s.egpu_gbs:g} GB/s measured; the same card in a desktop "
            f"{s.desktop_label} slot: {s.desktop_gbs:.3g} GB/s ({s.ratio:.0%})."
        )
    if report.slowdown is not None:
        w = report.slowdown
        out.append(
            f"{report.workload}: {format_bytes(w.input_bytes)} cross the link per step; the step takes "
            f"{w.step_seconds * 1000:,.1f} ms of compute, the copy {w.egpu_copy_s * 1000:,.2f} ms on the eGPU "
            f"against {w.desktop_copy_s * 1000:,.2f} ms in a desktop."
        )
        out.append(
            f"  expected slowdown: {w.serial:.1%} (copy before each step), {w.overlapped:.1%} with a prefetching "
            f"loader; loading the weights once: {w.load_egpu_s:,.1f} s against {w.load_desktop_s:,.1f} s."
        )
    elif report.slowdown_note:
        out.append(f"slowdown: {report.slowdown_note}")
    if report.measured:
        out.append("\nMeasured:")
        for check in report.measured:
            out.append(f"  [{MARKS[check.status]:4s}] {check.message}")
            if check.fix and check.status != "ok":
                out.append(f"         likely causes: {check.fix}")
    return "\n".join(out).strip()
