"""What the verdicts share: the figures that were measured, and a figure judged against a reference or
shown without one."""

from __future__ import annotations

from collections.abc import Iterable

from gpuconfig.probe.model import BenchmarkResult, Verdict
from gpuconfig.probe.references import REFERENCES_FILE, references
from gpuconfig.probe.stability import Stability, stability

RERUN_ADVICE = "run the probe again when the machine is idle (close other programs and jobs)"
DRIFT_ADVICE = (
    "this machine's speed changes between runs, as a shared or virtual machine's can: judge a part on a "
    "machine no one else uses, or run the probe several times and compare the runs"
)


def measured(results: Iterable[BenchmarkResult], name: str, device: str | None = None) -> list[BenchmarkResult]:
    """The results of benchmark `name` (on `device`, where given) that have a value."""
    return [
        r
        for r in results
        if r.name == name and r.status == "ok" and r.value is not None and (device is None or r.device == device)
    ]


def ratio_verdict(
    check: str, subject: str, measured: float, expected: float, unit: str, source: str, advice: str
) -> Verdict:
    """A figure against the reference a healthy part measures: pass, warn or fail by the thresholds' ratios."""
    t = references().thresholds
    ratio = measured / expected
    status = "pass" if ratio >= t["pass_ratio"] else "warn" if ratio >= t["fail_ratio"] else "fail"
    return Verdict(
        check,
        subject,
        status,
        f"{measured:.4g} {unit}, {100 * ratio:.0f} % of the {expected:.4g} {unit} a healthy part measures",
        measured,
        expected,
        unit,
        f"pass at {t['pass_ratio']:.0%}, fail below {t['fail_ratio']:.0%} of the reference ({t['ratio_source']})",
        source,
        "" if status == "pass" else advice,
    )


def no_reference(check: str, subject: str, result: BenchmarkResult, part: str) -> Verdict:
    """A figure shown as information: there is no measured reference for `part`."""
    return Verdict(
        check,
        subject,
        "info",
        f"{result.value:.4g} {result.unit}",
        result.value,
        None,
        result.unit,
        f"no measured reference for {part or 'this part'} in {REFERENCES_FILE}",
    )


def unstable(check: str, subject: str, result: BenchmarkResult, expected: float | None = None) -> Verdict | None:
    """A warning in place of the figure's verdict when it is unstable (not judged); None when it is stable."""
    return unstable_verdict(check, subject, result.value, result.unit, stability(result), expected)


def unstable_verdict(
    check: str, subject: str, value: float | None, unit: str, found: Stability, expected: float | None = None
) -> Verdict | None:
    if found.stable:
        return None
    t = references().thresholds
    shown = "no figure" if value is None else f"{value:.2f}x" if unit == "x" else f"{value:.4g} {unit}".strip()
    return Verdict(
        check,
        subject,
        "warn",
        f"not judged: {shown} is unstable, {found.why}",
        value,
        expected,
        unit,
        f"judged only when the middle half of the samples lies within ±{100 * t['stable_spread']:.0f} % of the "
        f"median, others take at most {100 * t['busy_share']:.0f} % of the CPUs, and the figure lies within "
        f"±{100 * t['repeat_spread']:.0f} % of this machine's earlier runs",
        t["stability_source"],
        DRIFT_ADVICE if found.drifting and not found.busy else RERUN_ADVICE,
    )
