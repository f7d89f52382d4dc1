"""The checker's problems, worst first: each with its severity, what is wrong, the fix, and its source on hover."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from gpuconfig.core.build.check import Problem
from gpuconfig.ui.theme import SEVERITY_ROLES, Colors


class ProblemList(QScrollArea):
    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.problems: list[Problem] = []
        self._empty = ""
        self.rows: list[QLabel] = []
        self.severity_names = {"fail": self.tr("Problem"), "warn": self.tr("Warning"), "info": self.tr("Note")}
        self._box = QWidget()
        self._layout = QVBoxLayout(self._box)
        self._layout.setContentsMargins(2, 2, 6, 2)
        self._layout.setSpacing(6)
        self._layout.addStretch(1)
        self.setWidget(self._box)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def set_problems(self, problems: Sequence[Problem], empty: str = "") -> None:
        """Show the problems; `empty`, when given, is shown instead of 'every rule passes' (nothing to check)."""
        self.problems = list(problems)
        self._empty = empty
        self._render()

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        self._render()

    def counts(self) -> dict[str, int]:
        return {s: sum(p.severity == s for p in self.problems) for s in self.severity_names}

    def _render(self) -> None:
        for row in self.rows:
            self._layout.removeWidget(row)
            row.hide()  # gone from the screen now; deleted when control returns to the event loop
            row.deleteLater()
        self.rows = []
        if self._empty:
            self._add(f'<span style="color:{self.colors.muted}">{escape(self._empty)}</span>', "")
            return
        if not self.problems:
            passes = self.tr("Every compatibility and power rule passes.")
            self._add(
                f'<span style="color:{self.colors.success}"><b>✔</b> {escape(passes)}</span>',
                "",
            )
            return
        fix_word = self.tr("Fix:")
        for problem in self.problems:
            color = getattr(self.colors, SEVERITY_ROLES[problem.severity])
            icon = {"fail": "✖", "warn": "▲", "info": "ℹ"}[problem.severity]
            fix = (
                f'<br><span style="color:{self.colors.muted}">{escape(fix_word)} {escape(problem.fix)}</span>'
                if problem.fix
                else ""
            )
            text = (
                f'<span style="color:{color}"><b>{icon} {escape(self.severity_names[problem.severity])}</b></span>'
                f" {escape(problem.message)}{fix}"
            )
            tip = self.tr("Source: {source}").format(source=problem.source) if problem.source else ""
            self._add(text, tip)

    def _add(self, html: str, tip: str) -> None:
        label = QLabel(html)
        label.setTextFormat(Qt.TextFormat.RichText)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setToolTip(tip)
        self._layout.insertWidget(self._layout.count() - 1, label)
        self.rows.append(label)
