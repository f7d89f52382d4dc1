"""The eGPU answer: a verdict banner coloured by status (never "Compatible" for a workload that does not fit the
card), and every check (worst first) with its finding, fix and source, the measured checks under their own
heading, and the driver notes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.egpu.check import Check, port_label
from gpuconfig.core.egpu.report import EgpuReport
from gpuconfig.core.links import web_link
from gpuconfig.core.units import format_bytes
from gpuconfig.core.workload.fit import Verdict
from gpuconfig.ui.theme import Colors
from gpuconfig.ui.widgets.tables import shape_table

STATUS, RULE, FINDING, FIX, SOURCE = range(5)
FIX_SHARE, SOURCE_SHARE = 0.34, 0.2
ROW_AIR, MIN_HEIGHT = 6, 120
STATUS_ROLES = {"ok": "success", "warn": "warning", "fail": "error", "unknown": "muted"}
ICONS = {"ok": "✔", "warn": "▲", "fail": "✖", "unknown": "?"}
# A source's address, whatever its scheme: web_link decides which become links.
URL = re.compile(r"\s*\(([a-zA-Z][a-zA-Z0-9+.-]*://[^)\s]+)\)")
PART_PREFIX = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+: ")  # "razer-core-x: Geektopia: ..." names the part first
NAME_LENGTH = 32


def split_sources(text: str) -> list[str]:
    """A check's sources, joined with '; ' by the core, apart again: each 'title (url)' ends at its address
    (a title may hold a '; ' of its own); text after the last address is split at '; '."""
    out, start = [], 0
    for match in URL.finditer(text):
        out.append(text[start : match.end()].strip().lstrip(";").strip())
        start = match.end()
    out += [part.strip() for part in text[start:].split("; ")]
    return [part for part in out if part]


def source_name(source: str) -> str:
    """What a source is called: its title up to the colon ('Tom's Hardware'), or its first words."""
    title = PART_PREFIX.sub("", URL.sub("", source).strip())
    head, colon, _ = title.partition(":")
    if colon and len(head) <= NAME_LENGTH + 8:
        return head.split(", '", 1)[0].strip()
    return title if len(title) <= NAME_LENGTH else title[:NAME_LENGTH].rsplit(" ", 1)[0] + "…"


def short_source(source: str) -> str:
    """A check's sources by name only; the titles and addresses are in the tooltip."""
    return " · ".join(source_name(s) for s in split_sources(source))


def source_links(sources: Sequence[str]) -> str:
    """'Title (url)' sources as HTML links, each named as source_name() calls it (an address that is not a
    web address is shown as text)."""
    links = []
    for source in sources:
        match = URL.search(source)
        name = source_name(source)
        links.append(web_link(match.group(1), name) if match else escape(name))
    return " · ".join(links)


class VerdictBanner(QFrame):
    """The answer in one line, on a tint of its status's colour with a bar of it on the left."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.status = "unknown"
        self.title = QLabel()
        self.title.setObjectName("egpu_verdict")
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setWeight(QFont.Weight.DemiBold)
        self.title.setFont(font)
        self.summary = QLabel()
        self.summary.setObjectName("egpu_summary")
        self.summary.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 8, 12, 8)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.summary)

    def show_report(self, report: EgpuReport, parts: Sequence[str]) -> None:
        """The verdict on the laptop's port with `parts` (the enclosure's and card's names), and the counts."""
        c = report.compatibility
        if c is None:
            self.show_verdict("unknown", self.tr("Describe the laptop's port"), "")
            return
        verdicts = {
            "ok": self.tr("Compatible"),
            "warn": self.tr("Works, with warnings"),
            "fail": self.tr("Will not work"),
        }
        port = self.tr("{port} port").format(port=port_label(c.host.port))
        checks = [*c.checks, *report.measured, *([report.fit] if report.fit is not None else [])]
        counts = {s: sum(check.status == s for check in checks) for s in ("ok", "warn", "fail", "unknown")}
        summary = self.tr("Pass: {ok} · warnings: {warn} · problems: {fail} · not checked: {unknown}").format(**counts)
        if counts["unknown"]:
            summary += " " + self.tr("(the catalog lacks a figure, or nothing was measured)")
        if c.host.how == "detected":
            summary += " · " + self.tr("the laptop as detected")
        hardware = ", ".join([port, *parts])
        verdict = report.verdict
        if verdict is not None and not verdict.fits and c.status != "fail":
            # The parts work together, but the workload cannot run on the card: that is the answer.
            title = self.misfit_text(report.workload, c.gpu.name if c.gpu is not None else "", verdict)
            together = (
                self.tr("The laptop, enclosure and card work together")
                if c.status == "ok"
                else self.tr("The laptop, enclosure and card work together, with warnings")
            )
            self.show_verdict(report.status, title, f"{together}: {hardware} · {summary}")
            return
        self.show_verdict(report.status, f"{verdicts[c.status]}: {hardware}", summary)

    def misfit_text(self, workload: str, card: str, verdict: Verdict) -> str:
        """'Does not fit: <workload> needs 29.54 GiB; <card> has 10.68 GiB usable (12.00 GiB less 11 % headroom)'."""
        text = (
            self.tr("Fits only by using the headroom: {workload} needs {peak}; {card} has {usable}")
            if verdict.tight
            else self.tr("Does not fit: {workload} needs {peak}; {card} has {usable}")
        )
        usable = self.tr("{usable} usable ({memory} less {headroom} headroom)").format(
            usable=format_bytes(verdict.usable),
            memory=format_bytes(verdict.memory),
            headroom=verdict.headroom.percent.replace(" ", "\N{NO-BREAK SPACE}"),  # '11 %' on one line
        )
        return text.format(workload=workload, peak=format_bytes(verdict.peak), card=card, usable=usable)

    def show_verdict(self, status: str, title: str, summary: str) -> None:
        self.status = status
        self._title, self._summary = title, summary
        self._render()

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        if hasattr(self, "_title"):
            self._render()

    def _color(self) -> str:
        return str(getattr(self.colors, STATUS_ROLES.get(self.status, "muted")))

    def _render(self) -> None:
        color = self._color()
        self.title.setText(f'<span style="color:{color}">{ICONS.get(self.status, "")}</span> {escape(self._title)}')
        self.summary.setText(self._summary)
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = QColor(self._color())
        fill = QColor(color)
        fill.setAlpha(28)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(self.rect()), 4, 4)
        painter.fillRect(QRectF(0, 0, 5, self.height()), color)
        painter.end()


class ChecksTable(QTableWidget):
    """The checks as rows, worst first: the compatibility rules, then (when there are any) the measured ones
    under a heading row of their own."""

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.checks: list[Check] = []
        self.measured: list[Check] = []
        self.status_names = {
            "ok": self.tr("ok"),
            "warn": self.tr("warning"),
            "fail": self.tr("fail"),
            "unknown": self.tr("not checked"),
        }
        self.rule_names = {
            "port": self.tr("Port and enclosure"),
            "security": self.tr("Thunderbolt security"),
            "authorized": self.tr("Authorisation"),
            "link-rate": self.tr("Link rate"),
            "os": self.tr("OS and driver"),
            "length": self.tr("Card length"),
            "width": self.tr("Card thickness"),
            "power": self.tr("Card power"),
            "connectors": self.tr("Power cables"),
            "charging": self.tr("Charging"),
            "hotplug": self.tr("Hot-plug"),
            "h2d-measured": self.tr("Host to device"),
            "step-measured": self.tr("Training step"),
            "fit": self.tr("Workload memory"),
        }
        shape_table(
            self, [self.tr("Status"), self.tr("Rule"), self.tr("Finding"), self.tr("Fix"), self.tr("Source")], FINDING
        )
        self.setWordWrap(True)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        header = self.horizontalHeader()
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        for column in (FIX, SOURCE):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        header.sectionResized.connect(lambda *_: self._fit_rows())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._share_width()

    def _share_width(self) -> None:
        """The finding, fix and source columns share what the status and rule leave, in fixed shares (the
        finding takes the fix's share when no row has a fix)."""
        header = self.horizontalHeader()
        spare = self.viewport().width() - header.sectionSize(STATUS) - header.sectionSize(RULE)
        if not self.isColumnHidden(FIX):
            header.resizeSection(FIX, int(spare * FIX_SHARE))
        header.resizeSection(SOURCE, int(spare * SOURCE_SHARE))

    def set_checks(self, checks: Sequence[Check], measured: Sequence[Check] = ()) -> None:
        self.checks, self.measured = list(checks), list(measured)
        self._fill()

    def rows(self) -> list[tuple[str, str, str]]:
        """(rule, status, finding) of each row shown, headings left out: what the tests read."""
        out = []
        for row in range(self.rowCount()):
            item = self.item(row, RULE)
            if item is not None and item.data(Qt.ItemDataRole.UserRole):
                status = self.item(row, STATUS)
                finding = self.item(row, FINDING)
                assert status is not None
                assert finding is not None
                out.append(
                    (
                        str(item.data(Qt.ItemDataRole.UserRole)),
                        str(status.data(Qt.ItemDataRole.UserRole)),
                        finding.text(),
                    )
                )
        return out

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self._fill()

    def _fill(self) -> None:
        self.clearSpans()
        self.setRowCount(0)
        for check in self.checks:
            self._add(check)
        if self.measured:
            self._heading(self.tr("Measured on this machine"))
            for check in self.measured:
                self._add(check)
        self.setColumnHidden(FIX, not any(c.fix and c.status != "ok" for c in [*self.checks, *self.measured]))
        self._share_width()
        self._fit_rows()

    def _fit_rows(self) -> None:
        """Rows as tall as their wrapped text and a little air; the table as tall as its rows, so what is
        below it follows the last row."""
        self.resizeRowsToContents()
        for row in range(self.rowCount()):
            self.setRowHeight(row, self.rowHeight(row) + ROW_AIR)
        rows = sum(self.rowHeight(r) for r in range(self.rowCount()))
        self.setMaximumHeight(max(MIN_HEIGHT, self.horizontalHeader().height() + rows + 2 * self.frameWidth() + 2))

    def _heading(self, text: str) -> None:
        row = self.rowCount()
        self.insertRow(row)
        item = QTableWidgetItem(text)
        font = QFont(self.font())
        font.setBold(True)
        item.setFont(font)
        item.setBackground(QColor(self.colors.grid))
        self.setItem(row, 0, item)
        self.setSpan(row, 0, 1, self.columnCount())

    def _add(self, check: Check) -> None:
        row = self.rowCount()
        self.insertRow(row)
        color = QColor(getattr(self.colors, STATUS_ROLES[check.status]))
        status = QTableWidgetItem(f"{ICONS[check.status]} {self.status_names[check.status]}")
        status.setData(Qt.ItemDataRole.UserRole, check.status)
        status.setForeground(color)
        font = QFont(self.font())
        font.setBold(check.status in ("fail", "warn"))
        status.setFont(font)
        rule = QTableWidgetItem(self.rule_names.get(check.rule, check.rule))
        rule.setData(Qt.ItemDataRole.UserRole, check.rule)
        finding = QTableWidgetItem(check.message)
        finding.setToolTip(check.message)
        fix = QTableWidgetItem(check.fix if check.status != "ok" else "")
        fix.setToolTip(check.fix)
        fix.setForeground(QColor(self.colors.muted if check.status in ("ok", "unknown") else self.colors.text))
        source = QTableWidgetItem(short_source(check.source))
        source.setToolTip("\n".join(split_sources(check.source)))
        source.setForeground(QColor(self.colors.muted))
        for column, item in enumerate((status, rule, finding, fix, source)):
            item.setTextAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            self.setItem(row, column, item)


class NotesList(QLabel):
    """The driver notes for the OS and the card's vendor, one bullet each."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.notes: list[str] = []
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)

    def set_notes(self, notes: Sequence[str]) -> None:
        self.notes = list(notes)
        items = "".join(f"<li>{escape(note)}</li>" for note in notes)
        self.setText(f'<ul style="margin-left:-24px">{items}</ul>' if notes else "")
