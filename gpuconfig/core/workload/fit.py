"""One fit verdict: whether a workload's peak fits a card's memory with a stated share of it kept free.

Every place that says "fits" or "compatible" (the Workload tab, its fits-if table, the Build and Recommend
panels, the eGPU tab, the commands) judges through `judge`, with one headroom: the share of the card's memory
kept free for what the estimate does not see (other processes and the desktop on the card, allocator
fragmentation a longer run builds up, the estimate's own error). By default it is the largest under-estimate
benchmarks/estimate_accuracy_gpu.py measured against real runs' reserved memory (catalog/estimate_accuracy.toml),
rounded up to a whole percent: a workload judged to fit would still fit had the estimate been as far under as
the worst case measured. The user may set another share (`--headroom`, or the Workload tab's setting); it is
kept in the user's database under HEADROOM_SETTING.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gpuconfig.core.i18n import translate
from gpuconfig.core.numbers import NumberError, checked_number
from gpuconfig.core.workload.accuracy import band

HEADROOM_SETTING = "fit_headroom"
MOST_HEADROOM = 0.5  # keeping more than half the card free is not a fit test any more
# The policy where no GPU band has been measured: a tenth of the card, stated as a choice, not a measurement.
UNMEASURED_HEADROOM = 0.10


class HeadroomError(ValueError):
    """A headroom that cannot be used; the message says why."""


@dataclass(frozen=True)
class Headroom:
    share: float  # of the card's memory kept free, 0 to MOST_HEADROOM
    why: str  # where the share comes from

    @property
    def percent(self) -> str:
        return f"{round(100 * self.share, 1):g} %"


def default_headroom(device: str = "cuda") -> Headroom:
    """The largest measured under-estimate on the device (a GPU, or the CPU when a workload runs there), rounded up
    to a whole percent; a stated tenth without one."""
    found = band(device)
    kind = "CPU" if device == "cpu" else "GPU"
    if found is None:
        why = translate("Workload", "no {kind} accuracy band has been measured: a tenth kept free").format(kind=kind)
        return Headroom(UNMEASURED_HEADROOM, why)
    if found.worst_under_error is None:
        why = translate("Workload", "{benchmark} records no under-estimate: a tenth kept free").format(
            benchmark=found.benchmark
        )
        return Headroom(UNMEASURED_HEADROOM, why)
    share = math.ceil(round(-found.worst_under_error * 100, 6)) / 100
    why = translate(
        "Workload",
        "the largest under-estimate against real {kind} runs ({error:+.1f} %, {benchmark} over {cases} cases), "
        "rounded up",
    ).format(kind=kind, error=100 * found.worst_under_error, benchmark=found.benchmark, cases=found.cases)
    return Headroom(min(MOST_HEADROOM, share), why)


def device_headroom(device: str, card: Headroom) -> Headroom:
    """The headroom a fit on `device` keeps: `card` (the user's, a share of a GPU's memory) for a GPU, the CPU
    band's own for a workload on the CPU, which no card setting speaks for."""
    return default_headroom("cpu") if device == "cpu" else card


def user_headroom(percent: float) -> Headroom:
    """A headroom the user set, in percent of the card; HeadroomError naming the problem."""
    try:
        checked_number(percent, zero_ok=True, most=100 * MOST_HEADROOM)
    except NumberError as exc:
        raise HeadroomError(f"headroom: {exc}") from None
    return Headroom(percent / 100, translate("Workload", "set by you"))


def headroom_from_setting(text: str | None) -> Headroom:
    """The saved headroom (percent as text), or the default when none is saved or it cannot be read."""
    if text is None:
        return default_headroom()
    try:
        return user_headroom(float(text))
    except (HeadroomError, ValueError):
        return default_headroom()


@dataclass(frozen=True)
class Verdict:
    """A peak against one card with the headroom kept: `fits` is the verdict; `tight` a peak that fits only by
    using the headroom (judged as not fitting, and said so)."""

    peak: int
    memory: int
    headroom: Headroom

    @property
    def usable(self) -> int:
        return int(self.memory * (1 - self.headroom.share))

    @property
    def fits(self) -> bool:
        return self.peak <= self.usable

    @property
    def tight(self) -> bool:
        return self.usable < self.peak <= self.memory

    @property
    def spare(self) -> int:
        """Usable bytes left (negative: how much is missing)."""
        return self.usable - self.peak

    def text(self) -> str:
        """One line for the commands and the reports."""
        gib = 1024**3
        usable = translate("Workload", "{usable:,.1f} GiB usable ({memory:,.1f} GiB less {headroom} headroom)").format(
            usable=self.usable / gib, memory=self.memory / gib, headroom=self.headroom.percent
        )
        if self.fits:
            text = translate("Workload", "fits: {peak:,.1f} GiB of {usable}")
        elif self.tight:
            text = translate("Workload", "does not fit with the headroom: needs {peak:,.1f} GiB of {usable}")
        else:
            text = translate("Workload", "does not fit: needs {peak:,.1f} GiB, {usable}")
        return text.format(peak=self.peak / gib, usable=usable)


def verdict_record(verdict: Verdict) -> dict[str, object]:
    """The verdict as the JSON outputs carry it."""
    return {
        "fits": verdict.fits,
        "tight": verdict.tight,
        "peak": verdict.peak,
        "memory": verdict.memory,
        "usable": verdict.usable,
        "headroom": {"share": verdict.headroom.share, "why": verdict.headroom.why},
        "text": verdict.text(),
    }


def judge(peak: int | float, memory: int, headroom: Headroom | None = None) -> Verdict:
    """The verdict for a per-device `peak` on a card of `memory` bytes; the default headroom unless given."""
    return Verdict(round(peak), int(memory), headroom if headroom is not None else default_headroom())
