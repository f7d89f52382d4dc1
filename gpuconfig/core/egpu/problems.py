"""An eGPU build's problems: the eGPU rules against the build's laptop, in the build checker's words.

The build checker takes this as its `egpu_check` (gpuconfig.core.build.check.check).
"""

from __future__ import annotations

from gpuconfig.core.build.check import Problem, Severity
from gpuconfig.core.build.model import Resolved
from gpuconfig.core.build.rules import Rules
from gpuconfig.core.egpu.check import Host, check_egpu
from gpuconfig.core.egpu.tables import egpu_tables
from gpuconfig.core.i18n import translate


def egpu_problems(resolved: Resolved, rules: Rules) -> list[Problem]:
    """An eGPU build (a dock, one card, perhaps a supply for the dock): the eGPU rules against its laptop."""
    dock, gpus = resolved.by_kind["dock"][0], resolved.gpus()
    problems: list[Problem] = []
    if resolved.count("gpu") > 1 or resolved.count("dock") > 1:
        problems.append(
            Problem(
                "fail",
                "egpu-count",
                translate("Egpu", "An eGPU enclosure holds one card."),
                translate("Egpu", "One dock and one GPU per build."),
            )
        )
    laptop = resolved.build.laptop or {}
    port = str(laptop.get("port") or dock.spec("link"))
    if not laptop.get("port"):
        problems.append(
            Problem(
                "info",
                "egpu-laptop",
                translate("Egpu", "The build does not say which port the laptop has: a {port} port is assumed.").format(
                    port=port
                ),
                translate("Egpu", 'Set the laptop\'s port in the build (eGPU tab, or "laptop" in the build file).'),
            )
        )
    host = Host(port, str(laptop.get("os") or "linux"), laptop.get("charger_w"))
    severity: dict[str, Severity] = {"fail": "fail", "warn": "warn", "unknown": "info"}
    found = check_egpu(host, dock.part, gpus[0].part if gpus else None, egpu_tables(), rules)
    problems.extend(
        Problem(severity[c.status], f"egpu-{c.rule}", c.message, c.fix, c.source)
        for c in found.checks
        if c.status != "ok"
    )
    return problems
