"""What the verdicts share: the names of the checks, the figures that were measured, and a figure judged
against a reference or shown without one.

A verdict's words are in the language in use (core/i18n.py, context "ProbeVerdicts"); each check also keeps
its English name (Verdict.key), which code and other programs find it by."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.probe.model import BenchmarkResult, Verdict
from gpuconfig.probe.references import REFERENCES_FILE, references
from gpuconfig.probe.stability import Stability, stability

CONTEXT = "ProbeVerdicts"
RERUN_ADVICE = QT_TRANSLATE_NOOP(
    "ProbeVerdicts", "run the probe again when the machine is idle (close other programs and jobs)"
)
DRIFT_ADVICE = QT_TRANSLATE_NOOP(
    "ProbeVerdicts",
    "this machine's speed changes between runs, as a shared or virtual machine's can: judge a part on a "
    "machine no one else uses, or run the probe several times and compare the runs",
)


def marked(text: str) -> str:
    """A text marked with QT_TRANSLATE_NOOP("ProbeVerdicts", ...) where it is written, in the language in use
    (translate() marks the others for lupdate itself)."""
    return translate(CONTEXT, text)


@dataclass(frozen=True)
class Check:
    """A check's name in the language in use, and in English (what code and other programs find it by)."""

    name: str
    english: str


def check(template: str, **values: object) -> Check:
    """The check `template` names, filled in with `values`: `template` is marked with
    QT_TRANSLATE_NOOP("ProbeVerdicts", ...) where it is written."""
    return Check(marked(template).format(**values), template.format(**values))


def verdict(
    check: Check | str,
    subject: str,
    status: str,
    message: str,
    measured: float | None = None,
    expected: float | None = None,
    unit: str = "",
    threshold: str = "",
    source: str = "",
    advice: str = "",
) -> Verdict:
    """A verdict on `check`, keeping the check's English name where its name reads otherwise (a plain str
    names a check as it reads in every language)."""
    if isinstance(check, str):
        check = Check(check, check)
    english = None if check.name == check.english else check.english
    return Verdict(check.name, subject, status, message, measured, expected, unit, threshold, source, advice, english)


def measured(results: Iterable[BenchmarkResult], name: str, device: str | None = None) -> list[BenchmarkResult]:
    """The results of benchmark `name` (on `device`, where given) that have a value."""
    return [
        r
        for r in results
        if r.name == name and r.status == "ok" and r.value is not None and (device is None or r.device == device)
    ]


def ratio_verdict(
    check: Check | str, subject: str, measured: float, expected: float, unit: str, source: str, advice: str
) -> Verdict:
    """A figure against the reference a healthy part measures: pass, warn or fail by the thresholds' ratios."""
    t = references().thresholds
    ratio = measured / expected
    status = "pass" if ratio >= t["pass_ratio"] else "warn" if ratio >= t["fail_ratio"] else "fail"
    return verdict(
        check,
        subject,
        status,
        translate(
            "ProbeVerdicts",
            "{measured:.4g} {unit}, {percent:.0f} % of the {expected:.4g} {unit} a healthy part measures",
        ).format(measured=measured, unit=unit, percent=100 * ratio, expected=expected),
        measured,
        expected,
        unit,
        translate(
            "ProbeVerdicts", "pass at {pass_ratio:.0%}, fail below {fail_ratio:.0%} of the reference ({source})"
        ).format(pass_ratio=t["pass_ratio"], fail_ratio=t["fail_ratio"], source=t["ratio_source"]),
        source,
        "" if status == "pass" else advice,
    )


def no_reference(check: Check | str, subject: str, result: BenchmarkResult, part: str) -> Verdict:
    """A figure shown as information: there is no measured reference for `part` (its name in the language
    in use; "" for this part)."""
    threshold = (
        translate("ProbeVerdicts", "no measured reference for {part} in {file}")
        if part
        else translate("ProbeVerdicts", "no measured reference for this part in {file}")
    )
    return verdict(
        check,
        subject,
        "info",
        f"{result.value:.4g} {result.unit}",
        result.value,
        None,
        result.unit,
        threshold.format(part=part, file=REFERENCES_FILE),
    )


def unstable(
    check: Check | str, subject: str, result: BenchmarkResult, expected: float | None = None
) -> Verdict | None:
    """A warning in place of the figure's verdict when it is unstable (not judged); None when it is stable."""
    return unstable_verdict(check, subject, result.value, result.unit, stability(result), expected)


def unstable_verdict(
    check: Check | str, subject: str, value: float | None, unit: str, found: Stability, expected: float | None = None
) -> Verdict | None:
    if found.stable:
        return None
    t = references().thresholds
    shown = (
        translate("ProbeVerdicts", "no figure")
        if value is None
        else f"{value:.2f}x"
        if unit == "x"
        else f"{value:.4g} {unit}".strip()
    )
    return verdict(
        check,
        subject,
        "warn",
        translate("ProbeVerdicts", "not judged: {figure} is unstable, {why}").format(figure=shown, why=found.why),
        value,
        expected,
        unit,
        translate(
            "ProbeVerdicts",
            "judged only when the middle half of the samples lies within ±{stable:.0f} % of the median, others "
            "take at most {busy:.0f} % of the CPUs, and the figure lies within ±{repeat:.0f} % of this "
            "machine's earlier runs",
        ).format(stable=100 * t["stable_spread"], busy=100 * t["busy_share"], repeat=100 * t["repeat_spread"]),
        t["stability_source"],
        marked(DRIFT_ADVICE if found.drifting and not found.busy else RERUN_ADVICE),
    )
