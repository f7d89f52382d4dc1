"""What the verdicts share: the figures that were measured, and a figure judged against a reference or
shown without one."""

from __future__ import annotations

from collections.abc import Iterable

from gpuconfig.probe.model import BenchmarkResult, Verdict
from gpuconfig.probe.references import REFERENCES_FILE, references


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
