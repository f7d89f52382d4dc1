"""A setup guide as documents: Markdown, a standalone HTML page, and a JSON-able record."""

from __future__ import annotations

from html import escape
from typing import Any

from gpuconfig.core.guide.guide import Guide
from gpuconfig.core.guide.settings import env_command
from gpuconfig.core.guide.steps import Step
from gpuconfig.core.i18n import QT_TRANSLATE_NOOP, html_language, translate
from gpuconfig.core.links import markdown_web_link, web_link
from gpuconfig.core.markdown import md_line, md_text

SEVERITY_COLOURS = {"fail": "#cf222e", "warn": "#9a6700", "info": "#57606a"}
# The severity as a finding is marked in the documents (Markdown writes it in capitals).
SEVERITY_WORDS = {
    "fail": QT_TRANSLATE_NOOP("Guide", "fail"),
    "warn": QT_TRANSLATE_NOOP("Guide", "warn"),
    "info": QT_TRANSLATE_NOOP("Guide", "info"),
}
STYLE = """
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; font-size: 11pt; color: #1f2328;
       max-width: 60em; margin: 2em auto; padding: 0 1em; line-height: 1.45; }
h1 { font-size: 18pt; } h2 { font-size: 14pt; margin-top: 1.6em; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 12pt; margin-bottom: 0.3em; }
pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: 0.6em 0.8em; overflow-x: auto; }
code { font-family: ui-monospace, 'SFMono-Regular', Consolas, monospace; font-size: 10pt; }
.summary { background: #f6f8fa; border-radius: 6px; padding: 0.6em 1em; }
.finding { border-left: 4px solid; padding: 0.3em 0.8em; margin: 0.6em 0; }
.severity { font-weight: bold; text-transform: uppercase; }
.expect { color: #1a7f37; } .muted { color: #57606a; font-size: 10pt; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d0d7de; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
"""


def _severity(severity: str) -> str:
    return translate("Guide", SEVERITY_WORDS[severity]) if severity in SEVERITY_WORDS else severity


def _summary(guide: Guide) -> list[str]:
    choice, build = guide.choice, guide.choice.build
    gpus = ", ".join(f"{n} x {t.label}" for t, n in guide.targets)
    lines = [
        translate("Guide", "GPUs: {gpus}").format(gpus=gpus),
        translate("Guide", "OS: {os}").format(os=guide.os.label),
        translate("Guide", "PyTorch: {build} from {index}").format(build=build.label, index=build.index),
    ]
    if choice.min_driver:
        lines.append(
            translate("Guide", "NVIDIA driver: {wanted} or newer (runs from {oldest})").format(
                wanted=choice.min_driver, oldest=choice.required_driver
            )
        )
    why = choice.reason + (f" {choice.driver_note}" if choice.driver_note else "")
    lines.append(translate("Guide", "Why this build: {why}").format(why=why))
    return lines


def _fence(shell: str) -> str:
    return "powershell" if shell == "powershell" else "bash"


def _markdown_step(number: str, step: Step) -> list[str]:
    lines = [f"### {number}{md_line(step.title)}", "", md_text(step.why), ""]
    for shell in dict.fromkeys(shell for shell, _ in step.commands):
        lines += [f"```{_fence(shell)}", *(text for s, text in step.commands if s == shell), "```", ""]
    if step.expect:
        lines += [translate("Guide", "Expected: {expect}").format(expect=md_text(step.expect)), ""]
    return lines


def guide_markdown(guide: Guide) -> str:
    """The guide in Markdown; its texts are escaped (see core.markdown), its commands are code blocks."""
    lines = [f"# {md_line(guide.title)}", "", *(f"- {md_line(line)}" for line in _summary(guide)), ""]
    if guide.findings:
        lines += ["## " + translate("Guide", "Findings"), ""]
        for f in guide.findings:
            fix = " " + translate("Guide", "Fix: {fix}.").format(fix=md_line(f.fix)) if f.fix else ""
            lines.append(f"- **{_severity(f.severity).upper()}** {md_line(f.message)}{fix}")
        lines.append("")
    lines += ["## " + translate("Guide", "Steps"), ""]
    for number, step in enumerate(guide.steps, 1):
        lines += _markdown_step(f"{number}. ", step)
    if guide.env_vars:
        heads = (translate("Guide", "Variable"), translate("Guide", "Value"), translate("Guide", "Why"))
        lines += ["## " + translate("Guide", "Environment variables"), "", f"| {' | '.join(heads)} |"]
        lines += ["| --- | --- | --- |"]
        lines += [f"| `{v.name}` | `{v.value}` | {md_line(v.why)} |" for v in guide.env_vars]
        lines.append("")
    lines += ["## " + translate("Guide", "Troubleshooting"), ""]
    for step in guide.troubleshooting:
        lines += _markdown_step("", step)
    lines += ["## " + translate("Guide", "Sources"), ""]
    lines += [
        "- "
        + translate("Guide", "{source}, read {date}").format(
            source=markdown_web_link(s.url, s.title), date=md_line(s.read)
        )
        for s in guide.sources
    ]
    return "\n".join(lines).rstrip() + "\n"


def _html_step(number: str, step: Step) -> list[str]:
    parts = [f"<h3>{escape(number + step.title)}</h3>", f"<p>{escape(step.why)}</p>"]
    for shell in dict.fromkeys(shell for shell, _ in step.commands):
        text = "\n".join(t for s, t in step.commands if s == shell)
        parts.append(f"<pre><code class='{escape(_fence(shell))}'>{escape(text)}</code></pre>")
    if step.expect:
        expect = escape(translate("Guide", "Expected: {expect}")).format(expect=escape(step.expect))
        parts.append(f"<p class='expect'>{expect}</p>")
    return parts


def _h2(text: str) -> str:
    return f"<h2>{escape(text)}</h2>"


def guide_html(guide: Guide) -> str:
    """A standalone page (inline CSS, nothing fetched); every text from the guide is escaped."""
    parts = [
        "<!DOCTYPE html>",
        f"<html lang='{html_language()}'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{escape(guide.title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(guide.title)}</h1>",
        "<div class='summary'><ul>",
        *(f"<li>{escape(line)}</li>" for line in _summary(guide)),
        "</ul></div>",
    ]
    if guide.findings:
        parts.append(_h2(translate("Guide", "Findings")))
        fix_word = escape(translate("Guide", "Fix:"))
        for f in guide.findings:
            colour = SEVERITY_COLOURS.get(f.severity, "#57606a")
            fix = f"<br><b>{fix_word}</b> {escape(f.fix)}" if f.fix else ""
            parts.append(
                f"<div class='finding' style='border-color:{colour}'><span class='severity' "
                f"style='color:{colour}'>{escape(_severity(f.severity))}</span> {escape(f.message)}{fix}</div>"
            )
    parts.append(_h2(translate("Guide", "Steps")))
    for number, step in enumerate(guide.steps, 1):
        parts += _html_step(f"{number}. ", step)
    if guide.env_vars:
        heads = (translate("Guide", "Variable"), translate("Guide", "Value"), translate("Guide", "Why"))
        cells = "".join(f"<th>{escape(head)}</th>" for head in heads)
        parts.append(_h2(translate("Guide", "Environment variables")) + f"<table><tr>{cells}</tr>")
        parts += [
            f"<tr><td><code>{escape(v.name)}</code></td><td><code>{escape(v.value)}</code></td>"
            f"<td>{escape(v.why)}</td></tr>"
            for v in guide.env_vars
        ]
        parts.append("</table>")
    parts.append(_h2(translate("Guide", "Troubleshooting")))
    for step in guide.troubleshooting:
        parts += _html_step("", step)
    parts.append(_h2(translate("Guide", "Sources")) + "<ul class='muted'>")
    read = escape(translate("Guide", "{source}, read {date}"))
    parts += [f"<li>{read.format(source=web_link(s.url, s.title), date=escape(s.read))}</li>" for s in guide.sources]
    parts.append("</ul></body></html>")
    return "\n".join(parts) + "\n"


def _step_record(step: Step) -> dict[str, Any]:
    return {
        "title": step.title,
        "why": step.why,
        "commands": [{"shell": shell, "text": text} for shell, text in step.commands],
        "expect": step.expect,
    }


def guide_record(guide: Guide) -> dict[str, Any]:
    """The JSON form (`gpuconfig guide --json`): plain types, stable keys."""
    choice, build = guide.choice, guide.choice.build
    return {
        "title": guide.title,
        "os": {"id": guide.os.id, "name": guide.os.name},
        "targets": [
            {
                "name": t.name,
                "vendor": t.vendor,
                "compute_capability": t.compute_capability,
                "gfx_target": t.gfx_target,
                "count": n,
            }
            for t, n in guide.targets
        ],
        "wheel": {
            "torch": build.torch,
            "variant": build.variant,
            "cuda": build.cuda or None,
            "rocm": build.rocm or None,
            "index": build.index,
            "python_min": build.python_min,
            "python_max": build.python_max,
            "arch_list": list(build.arch_list),
            "runs_gpu": choice.runs_gpu,
            "how": list(choice.how),
            "min_driver": choice.min_driver,
            "required_driver": choice.required_driver,
            "driver_ok": choice.driver_ok,
            "dropped_in": [b.label for b in choice.dropped_in],
            "last_cuda": choice.last_cuda or None,
            "reason": choice.reason,
            "driver_note": choice.driver_note,
        },
        "install_command": guide.install_command,
        "findings": [{"severity": f.severity, "message": f.message, "fix": f.fix} for f in guide.findings],
        "steps": [_step_record(s) for s in guide.steps],
        "env_vars": [
            {"name": v.name, "value": v.value, "why": v.why, "command": env_command(v, guide.os.shell)}
            for v in guide.env_vars
        ],
        "troubleshooting": [_step_record(s) for s in guide.troubleshooting],
        "sources": [{"url": s.url, "title": s.title, "read": s.read} for s in guide.sources],
    }
