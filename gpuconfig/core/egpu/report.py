"""One eGPU answer: the compatibility checks, whether the workload fits the card (core/workload/fit.py's verdict,
with the answer's headroom), what the link gives, the workload's slowdown (only for a workload that fits), a
measurement judged against the link; and its JSON form (`gpuconfig egpu --json`) and text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gpuconfig.core.build.rules import Rules
from gpuconfig.core.catalog.model import Part
from gpuconfig.core.egpu.check import CONTEXT, ORDER, Check, Compatibility, Host, check_egpu, port_label
from gpuconfig.core.egpu.speed import LinkSpeed, Slowdown, judge_measurement, link_speed, workload_slowdown
from gpuconfig.core.egpu.tables import EgpuTables
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.units import format_bytes
from gpuconfig.core.workload.fit import Verdict, verdict_record
from gpuconfig.core.workload.spec import TASKS, named

GIB = 1024**3
# In English; translate(CONTEXT, FIT_FIX) for the reader.
FIT_FIX = QT_TRANSLATE_NOOP(
    "Egpu", "Use a card with more memory, or one of the Workload tab's fits-if changes (gpuconfig estimate lists them)."
)
TIGHT_FIX = QT_TRANSLATE_NOOP(
    "Egpu",
    "Use a card with more memory, or one of the Workload tab's fits-if changes; it may run if nothing else uses "
    "the card and the estimate is not under, which is what the headroom guards against.",
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
        what = translate("Egpu", "{model} {task}, batch {batch} x {seq}").format(
            model=answer.estimate.model_name, task=named(TASKS, w.task), batch=w.batch, seq=answer.estimate.seq
        )
    if verdict is not None and not verdict.fits:
        note = translate("Egpu", "not estimated: the workload does not fit the card, so it would not run")
    elif answer is not None and speed is not None:
        found, note = workload_slowdown(answer, speed)
    elif answer is not None:
        if compatibility is not None and compatibility.dock is not None and link is None:
            note = translate("Egpu", "this port and enclosure do not work together: no link to time")
        elif link is not None:
            note = translate("Egpu", "no measured copy rate for {link} in catalog/egpu.toml").format(link=link.name)
        else:
            note = translate("Egpu", "no link to time: choose the port and the enclosure")
    checks = tuple(judge_measurement(measured, link, host)) if measured is not None else ()
    return EgpuReport(detection, compatibility, speed, found, note, checks, what, verdict, fit)


def fit_check(answer: Any, verdict: Verdict) -> Check:
    """The workload's peak on the card, judged with the answer's headroom, as a check of its own."""
    gpu, w = answer.gpu, answer.estimate.workload
    peak = verdict.peak / GIB
    need = translate("Egpu", "{peak:.1f} GiB per GPU").format(peak=peak) if w.gpus > 1 else f"{peak:.1f} GiB"
    figures = {
        "model": answer.estimate.model_name,
        "task": named(TASKS, w.task),
        "need": need,
        "gpu": gpu.name,
        "usable": verdict.usable / GIB,
        "memory": verdict.memory / GIB,
        "headroom": verdict.headroom.percent,
        "spare": verdict.spare / GIB,
    }
    source = translate(
        "Egpu", "Workload estimate: the model's trace, as gpuconfig estimate shows it; Fit headroom: {why}"
    ).format(why=verdict.headroom.why)
    if verdict.fits:
        fits = translate(
            "Egpu",
            "{model} {task} needs {need}; {gpu} has {usable:.1f} GiB usable ({memory:.1f} GiB less {headroom} "
            "headroom): it fits, {spare:.1f} GiB to spare",
        )
        return Check("fit", "ok", fits.format(**figures), "", source)
    if verdict.tight:
        tight = translate(
            "Egpu",
            "{model} {task} needs {need}; {gpu} has {usable:.1f} GiB usable ({memory:.1f} GiB less {headroom} "
            "headroom): it fits only by using the headroom",
        )
        return Check("fit", "fail", tight.format(**figures), translate(CONTEXT, TIGHT_FIX), source)
    misfit = translate(
        "Egpu",
        "{model} {task} needs {need}; {gpu} has {usable:.1f} GiB usable ({memory:.1f} GiB less {headroom} "
        "headroom): it does not fit",
    )
    return Check("fit", "fail", misfit.format(**figures), translate(CONTEXT, FIT_FIX), source)


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
            facts = [f"{h['port']}"]
            if h.get("lanes") and h.get("lane_gbps"):
                facts.append(
                    translate("Egpu", "link {lanes} x {lane_gbps:g} Gb/s").format(
                        lanes=h["lanes"], lane_gbps=h["lane_gbps"]
                    )
                )
            if h.get("security"):
                facts.append(translate("Egpu", "security {level}").format(level=h["security"]))
            out.append(
                translate("Egpu", "Host: {name} ({facts})").format(
                    name=h["name"] or port_label(h["port"]), facts=", ".join(facts)
                )
            )
            out += ["  " + translate("Egpu", "note: {note}").format(note=n) for n in h.get("notes", [])]
        else:
            out.append(translate("Egpu", "Host: {reason}").format(reason=d["reason"]))
        out += [f"  {hint}" for hint in d.get("hints", [])]
    c = report.compatibility
    if c is not None and (c.dock is not None or c.gpu is not None):
        parts = " + ".join(p.name for p in (c.dock, c.gpu) if p is not None)
        if report.fits is False:
            heading = translate("Egpu", "{port} with {parts}: {verdict}; the workload does not fit the card")
        else:
            heading = translate("Egpu", "{port} with {parts}: {verdict}")
        out.append("\n" + heading.format(port=port_label(c.host.port), parts=parts, verdict=c.verdict))
        for check in c.checks:
            out.append(f"  [{MARKS[check.status]:4s}] {check.rule}: {check.message}")
            if check.fix and check.status != "ok":
                out.append("         " + translate("Egpu", "fix: {fix}").format(fix=check.fix))
        out += ["  " + translate("Egpu", "note: {note}").format(note=n) for n in c.notes]
    if report.fit is not None:
        fit = report.fit
        fitting = (
            translate("Egpu", "{workload}: fits the card")
            if report.fits
            else translate("Egpu", "{workload}: does not fit the card")
        )
        out.append("\n" + fitting.format(workload=report.workload))
        out.append(f"  [{MARKS[fit.status]:4s}] fit: {fit.message}")
        if fit.fix and fit.status != "ok":
            out.append("         " + translate("Egpu", "fix: {fix}").format(fix=fit.fix))
        if report.verdict is not None:
            headroom = report.verdict.headroom
            out.append(
                "  "
                + translate("Egpu", "headroom: {percent}, {why}").format(percent=headroom.percent, why=headroom.why)
            )
    if report.speed is not None:
        s = report.speed
        speed = translate(
            "Egpu",
            "Host to device over {link}: about {egpu:g} GB/s measured; the same card in a desktop {slot} slot: "
            "{desktop:.3g} GB/s ({ratio:.0%}).",
        )
        out.append(
            "\n"
            + speed.format(
                link=s.link.name, egpu=s.egpu_gbs, slot=s.desktop_label, desktop=s.desktop_gbs, ratio=s.ratio
            )
        )
    if report.slowdown is not None:
        w = report.slowdown
        out.append(
            translate(
                "Egpu",
                "{workload}: {bytes} cross the link per step; the step takes {step:,.1f} ms of compute, the copy "
                "{egpu:,.2f} ms on the eGPU against {desktop:,.2f} ms in a desktop.",
            ).format(
                workload=report.workload,
                bytes=format_bytes(w.input_bytes),
                step=w.step_seconds * 1000,
                egpu=w.egpu_copy_s * 1000,
                desktop=w.desktop_copy_s * 1000,
            )
        )
        out.append(
            "  "
            + translate(
                "Egpu",
                "expected slowdown: {serial:.1%} (copy before each step), {overlapped:.1%} with a prefetching "
                "loader; loading the weights once: {load_egpu:,.1f} s against {load_desktop:,.1f} s.",
            ).format(serial=w.serial, overlapped=w.overlapped, load_egpu=w.load_egpu_s, load_desktop=w.load_desktop_s)
        )
    elif report.slowdown_note:
        out.append(translate("Egpu", "slowdown: {note}").format(note=report.slowdown_note))
    if report.measured:
        out.append("\n" + translate("Egpu", "Measured:"))
        for check in report.measured:
            out.append(f"  [{MARKS[check.status]:4s}] {check.message}")
            if check.fix and check.status != "ok":
                out.append("         " + translate("Egpu", "likely causes: {causes}").format(causes=check.fix))
    return "\n".join(out).strip()
