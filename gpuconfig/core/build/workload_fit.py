"""Whether the workload a build was planned for fits the build's cards: the one fit verdict (core/workload/fit.py)
as a row of the build checker, "Workload memory", for `gpuconfig build check` and the Build tab.

A build file may carry the workload it was planned for (`Build.workload`, written by the Recommend panel and
`gpuconfig recommend` with the micro-batch, accumulation, card count and strategy the plan chose). The trace
is the slow part and the caller's (TraceService); with its fit in hand every card is judged in milliseconds,
so a swapped card or a changed count is judged again at once.
"""

from __future__ import annotations

import shlex
from dataclasses import MISSING, dataclass, fields
from typing import Any

from gpuconfig.core.build.check import Problem
from gpuconfig.core.build.model import Build, Item, Resolved
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, translate
from gpuconfig.core.workload.answer import Answer
from gpuconfig.core.workload.estimate import GpuSpec
from gpuconfig.core.workload.fit import Headroom, Verdict
from gpuconfig.core.workload.service import Fit
from gpuconfig.core.workload.spec import STRATEGIES, TASKS, Workload, WorkloadError, named

RULE = "workload-memory"
GIB = 1024**3
REPLAN = QT_TRANSLATE_NOOP(
    "BuildChecks",
    'Plan the build again (the Recommend panel, or gpuconfig recommend), or correct "workload" in the build file.',
)


@dataclass(frozen=True)
class CardFit:
    """The workload as one GPU line of the build runs it, answered on that card with the headroom."""

    gpu: Item
    workload: Workload  # with the cards this line gives it
    answer: Answer
    planned_gpus: int  # the cards the workload asks

    @property
    def verdict(self) -> Verdict:
        found = self.answer.verdict
        assert found is not None  # answered with the card
        return found


def build_workload(build: Build) -> Workload | None:
    """The workload the build was planned for, or None when it carries none; WorkloadError naming what is wrong
    with a workload that does not read as one (an unknown field, a missing model, a value out of range)."""
    data = build.workload
    if data is None:
        return None
    defaults = {f.name: f.default for f in fields(Workload)}
    unknown = sorted(map(str, set(data) - set(defaults)))
    if unknown:
        raise WorkloadError(f"{', '.join(unknown)}: not a workload field")
    if "model" not in data:
        raise WorkloadError("model: missing")
    for name, value in data.items():  # Workload checks the numbers; the text and yes/no fields are checked here
        default = defaults[name]
        if (name == "model" or isinstance(default, str)) and not isinstance(value, str):
            raise WorkloadError(f"{name}: expected text, got {value!r}")
        if isinstance(default, bool) and not isinstance(value, bool):
            raise WorkloadError(f"{name}: expected true or false, got {value!r}")
    return Workload(**data)


def workload_to_trace(resolved: Resolved) -> Workload | None:
    """The workload whose trace the check needs: None when the build carries none, it cannot be read (the check
    says why without a trace), it runs on the CPU, or the build has no GPU to judge it on."""
    try:
        workload = build_workload(resolved.build)
    except WorkloadError:
        return None
    if workload is None or workload.device != "cuda" or not resolved.gpus():
        return None
    return workload


def run_on(workload: Workload, gpu: Item) -> Workload:
    """The workload as this GPU line runs it."""
    # The cards the run uses: the build's, but never more than the workload asks. Fewer cards than planned (a
    # count lowered) shard the same model over fewer cards and need more memory on each, so the build's count
    # wins; cards beyond what the workload asks are cards its run does not use (one trained on per card, or kept
    # for other work), and spreading it wider is another plan, not something the build check may assume.
    return workload.with_changes(gpus=min(workload.gpus, gpu.count))


def card_fits(resolved: Resolved, workload: Workload, fit: Fit, headroom: Headroom) -> list[CardFit]:
    """The workload judged on each GPU line of the build (milliseconds each: no trace)."""
    out = []
    for gpu in resolved.gpus():
        run = run_on(workload, gpu)
        spec = GpuSpec.from_specs(gpu.part.id, gpu.part.name, gpu.part.specs)
        out.append(CardFit(gpu, run, fit.answer(run, spec, headroom), workload.gpus))
    return out


def workload_problems(resolved: Resolved, fit: Fit | None, headroom: Headroom) -> list[Problem]:
    """The "Workload memory" rows of the build: one per GPU line, "info" when the workload fits that card with the
    headroom kept and "fail" when it does not (or only by using the headroom); none for a build without a workload
    or without a GPU. A workload that does not read is one "warn" row naming the problem; `fit` None (not traced
    yet) one "info" row saying it is not checked."""
    if resolved.build.workload is None or not resolved.gpus():
        return []
    try:
        workload = build_workload(resolved.build)
    except WorkloadError as exc:
        reason = translate("BuildChecks", "its workload cannot be read ({error})").format(error=exc)
        return [not_checked(reason, translate("BuildChecks", REPLAN))]
    assert workload is not None
    if workload.device != "cuda":
        on_cpu = translate(
            "BuildChecks", "The build's workload runs on the CPU: its memory is not judged against the cards."
        )
        return [Problem("info", RULE, on_cpu)]
    if fit is None:
        untraced = translate(
            "BuildChecks",
            "The workload ({model}) is not checked against the cards yet: its model has not been traced.",
        ).format(model=workload.model)
        return [Problem("info", RULE, untraced)]
    return [card_problem(card) for card in card_fits(resolved, workload, fit, headroom)]


def not_checked(reason: str, fix: str = "") -> Problem:
    """The row of a workload that could not be judged: a warning, so the build's other checks still decide."""
    text = translate("BuildChecks", "The build's workload is not checked against its cards: {reason}.")
    return Problem("warn", RULE, text.format(reason=reason), fix)


def card_problem(card: CardFit) -> Problem:
    """One card's verdict as a check row, in the eGPU report's words (core/egpu/report.py fit_check)."""
    verdict, w = card.verdict, card.workload
    planned = card.answer.estimate
    usable = translate("BuildChecks", "{usable:.1f} GiB usable ({memory:.1f} GiB less {headroom} headroom)").format(
        usable=verdict.usable / GIB, memory=verdict.memory / GIB, headroom=verdict.headroom.percent
    )
    needs_text = (
        translate(
            "BuildChecks",
            "The workload, {model} {task} at batch {batch} x {seq}{cards}, needs {peak:.1f} GiB per card; "
            "{gpu} has {usable}",
        )
        if w.gpus > 1
        else translate(
            "BuildChecks",
            "The workload, {model} {task} at batch {batch} x {seq}{cards}, needs {peak:.1f} GiB; {gpu} has {usable}",
        )
    )
    needs = needs_text.format(
        model=planned.model_name,
        task=named(TASKS, w.task),
        batch=w.batch,
        seq=planned.seq,
        cards=_cards(card),
        peak=verdict.peak / GIB,
        gpu=card.gpu.part.name,
        usable=usable,
    )
    source = translate(
        "BuildChecks", "Workload estimate: the model's trace, as gpuconfig estimate shows it; Fit headroom: {why}"
    ).format(why=verdict.headroom.why)
    if verdict.fits:
        fits = translate("BuildChecks", "{needs}: it fits, {spare:.1f} GiB to spare.")
        return Problem("info", RULE, fits.format(needs=needs, spare=verdict.spare / GIB), "", source)
    command = estimate_command(w, card.gpu.part.id)
    if verdict.tight:
        fix = translate(
            "BuildChecks",
            "A card with more memory, or one of the fits-if changes: {command} lists them; it may run if nothing "
            "else uses the card and the estimate is not under, which is what the headroom guards against.",
        ).format(command=command)
        tight = translate("BuildChecks", "{needs}: it fits only by using the headroom.").format(needs=needs)
        return Problem("fail", RULE, tight, fix, source)
    fix = translate("BuildChecks", "A card with more memory, or one of the fits-if changes: {command} lists them.")
    does_not = translate("BuildChecks", "{needs}: it does not fit.").format(needs=needs)
    return Problem("fail", RULE, does_not, fix.format(command=command), source)


def _cards(card: CardFit) -> str:
    """The cards the run uses, when more than one or fewer than planned."""
    w = card.workload
    used = (
        translate("BuildChecks", " on {n} cards ({strategy})").format(n=w.gpus, strategy=named(STRATEGIES, w.strategy))
        if w.gpus > 1
        else ""
    )
    if w.gpus < card.planned_gpus:
        fewer = translate("BuildChecks", "{used}, not the {planned} it was planned for")
        return fewer.format(used=used or translate("BuildChecks", " on one card"), planned=card.planned_gpus)
    return used


def estimate_command(workload: Workload, gpu_id: str) -> str:
    """The `gpuconfig estimate` command line of this workload on this card: the flags that differ from the
    defaults (every workload field is a flag of the same name)."""
    words = ["gpuconfig", "estimate"]
    for f in fields(Workload):
        value: Any = getattr(workload, f.name)
        default = f.default if f.default is not MISSING else None
        if f.name != "model" and value == default:
            continue
        flag = "--" + f.name.replace("_", "-")
        if isinstance(value, bool):
            words.append(flag)
        else:
            words += [flag, str(value)]
    return shlex.join([*words, "--gpu", gpu_id])
