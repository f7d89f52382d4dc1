"""A setup guide on screen: what to know first (findings), then numbered steps with their commands, each
command selectable and with its own Copy button, then the environment variables, troubleshooting and sources;
beside it, the page's contents, each entry a jump to its section.

The page is rebuilt from the frozen Guide whenever the guide or the theme changes (milliseconds).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.guide.guide import Guide
from gpuconfig.core.guide.steps import Step
from gpuconfig.core.links import web_link
from gpuconfig.ui.theme import SEVERITY_ROLES, Colors, mark

CONTENTS_WIDTH = 280  # the contents beside the page also keep its lines to a readable length
COPIED_MS = 1500
ICONS = {"fail": "✖", "warn": "▲", "info": "ℹ"}


def _label(text: str, rich: bool = False) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class GuideView(QWidget):
    """`copied(command)` says a command went to the clipboard."""

    copied = Signal(str)

    def __init__(self, colors: Colors, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.colors = colors
        self.guide: Guide | None = None
        self.message = ""
        self.commands: list[str] = []  # every command shown, in order (the Copy buttons copy these)
        self.copy_buttons: list[QPushButton] = []
        self.findings: list[QLabel] = []
        self.severity_names = {"fail": self.tr("Problem"), "warn": self.tr("Warning"), "info": self.tr("Note")}
        self._sections: list[QWidget] = []  # what each contents entry jumps to
        self.area = QScrollArea()
        self.area.setObjectName("guide_area")
        self.area.setWidgetResizable(True)
        self.area.setFrameShape(QFrame.Shape.NoFrame)
        self.area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.contents = QListWidget()
        self.contents.setObjectName("guide_contents")
        self.contents.setFrameShape(QFrame.Shape.NoFrame)
        self.contents.viewport().setBackgroundRole(QPalette.ColorRole.Window)
        self.contents.setSpacing(2)
        self.contents.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
        self.contents.setToolTip(self.tr("Jump to a section"))
        self.contents.setWordWrap(True)
        self.contents.itemClicked.connect(self._on_jump)
        side = QVBoxLayout()
        side.setContentsMargins(0, 0, 0, 0)
        on_page = QLabel(self.tr("On this page"))
        mark(on_page, "muted")
        side.addWidget(on_page)
        side.addWidget(self.contents, 1)
        self._side = QWidget()
        self._side.setLayout(side)
        self._side.setFixedWidth(CONTENTS_WIDTH)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(12)
        layout.addWidget(self.area, 1)
        layout.addWidget(self._side)
        self._render()

    def show_guide(self, guide: Guide) -> None:
        self.guide, self.message = guide, ""
        self._render()
        self.area.verticalScrollBar().setValue(0)

    def show_message(self, text: str) -> None:
        """Show a line instead of a guide: what to choose next, or why no guide can be written."""
        self.guide, self.message = None, text
        self._render()

    def apply_colors(self, colors: Colors) -> None:
        self.colors = colors
        at = self.area.verticalScrollBar().value()
        self._render()
        self.area.verticalScrollBar().setValue(at)

    def text(self) -> str:
        """Everything the page says, as plain text (what a reader sees, for tests and the accessibility tree)."""
        page = self.area.widget()
        return "\n".join(label.text() for label in page.findChildren(QLabel)) if page else ""

    # -- the page ---------------------------------------------------------------------------------

    def _render(self) -> None:
        self.commands, self.copy_buttons, self.findings, self._sections = [], [], [], []
        self.contents.clear()
        page = QWidget()
        page.setObjectName("guide_page")
        layout = QVBoxLayout(page)
        layout.setContentsMargins(4, 4, 12, 16)
        layout.setSpacing(6)
        if self.guide is None:
            note = _label(self.message)
            note.setObjectName("guide_message")
            mark(note, "muted")
            layout.addWidget(note)
        else:
            self._fill(layout, self.guide)
        layout.addStretch(1)
        self.area.setWidget(page)  # the old page is deleted by the scroll area
        self._side.setVisible(self.guide is not None)

    def _fill(self, layout: QVBoxLayout, guide: Guide) -> None:
        title = _label(guide.title)
        title.setObjectName("guide_title")
        mark(title, "heading")
        layout.addWidget(title)
        layout.addWidget(self._summary(guide))
        if guide.findings:
            layout.addWidget(self._section(self.tr("Before you start")))
            for finding in guide.findings:
                color = getattr(self.colors, SEVERITY_ROLES[finding.severity])
                fix_word = self.tr("Fix:")
                fix = (
                    f'<br><span style="color:{self.colors.muted}"><b>{escape(fix_word)}</b> '
                    f"{escape(finding.fix)}</span>"
                    if finding.fix
                    else ""
                )
                name = self.severity_names.get(finding.severity, finding.severity)
                label = _label(
                    f'<span style="color:{color}"><b>{ICONS.get(finding.severity, "")} {escape(name)}</b></span> '
                    f"{escape(finding.message)}{fix}",
                    rich=True,
                )
                label.setObjectName(f"finding_{finding.severity}")
                self.findings.append(label)
                layout.addWidget(self._barred(label, color))
        layout.addWidget(self._section(self.tr("Steps"), listed=False))
        for number, step in enumerate(guide.steps, 1):
            self._step(layout, f"{number}. ", step)
        if guide.env_vars:
            layout.addWidget(self._section(self.tr("Environment variables")))
            grid = QGridLayout()
            grid.setHorizontalSpacing(16)
            grid.setVerticalSpacing(4)
            for row, var in enumerate(guide.env_vars):
                for col, text in enumerate((var.name, var.value)):
                    cell = _label(text)
                    cell.setFont(self._mono())
                    cell.setWordWrap(False)
                    grid.addWidget(cell, row, col, Qt.AlignmentFlag.AlignTop)
                grid.addWidget(_label(var.why), row, 2)
            grid.setColumnStretch(2, 1)
            layout.addLayout(grid)
        if guide.troubleshooting:
            layout.addWidget(self._section(self.tr("If something goes wrong")))
            for step in guide.troubleshooting:
                self._step(layout, "", step)
        if guide.sources:
            layout.addWidget(self._section(self.tr("Sources")))
            read = self.tr("read {date}")
            items = "".join(
                f"<li>{web_link(s.url, s.title, style=f'color:{self.colors.link}')}"
                f" — {escape(read.format(date=s.read))}</li>"
                for s in guide.sources
            )
            sources = _label(f'<ul style="margin-left:-24px">{items}</ul>', rich=True)
            sources.setObjectName("guide_sources")
            sources.setOpenExternalLinks(True)
            sources.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
            layout.addWidget(sources)

    def _summary(self, guide: Guide) -> QFrame:
        choice, build = guide.choice, guide.choice.build
        box = QFrame()
        box.setObjectName("guide_summary")
        box.setFrameShape(QFrame.Shape.StyledPanel)
        box.setAutoFillBackground(True)
        box.setBackgroundRole(QPalette.ColorRole.Base)
        form = QFormLayout(box)
        form.setContentsMargins(12, 8, 12, 8)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        gpus = ", ".join(f"{n} × {t.label}" if n > 1 else t.label for t, n in guide.targets)
        rows = [(self.tr("GPUs"), gpus), (self.tr("PyTorch"), f"{build.label} · {build.index}")]
        if choice.min_driver:
            rows.append(
                (
                    self.tr("NVIDIA driver"),
                    self.tr("{wanted} or newer (runs from {oldest})").format(
                        wanted=choice.min_driver, oldest=choice.required_driver or choice.min_driver
                    ),
                )
            )
        rows.append((self.tr("Why this build"), " ".join(filter(None, (choice.reason, choice.driver_note)))))
        for name, value in rows:
            key = QLabel(name)
            mark(key, "muted")
            form.addRow(key, _label(value))
        return box

    def _section(self, text: str, listed: bool = True) -> QLabel:
        label = QLabel(text)
        font = label.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setWeight(QFont.Weight.DemiBold)
        label.setFont(font)
        label.setContentsMargins(0, 12, 0, 2)
        if listed:
            self._list(text, label)
        return label

    def _list(self, text: str, target: QWidget) -> None:
        self.contents.addItem(text)
        self._sections.append(target)

    def _on_jump(self, item: QListWidgetItem) -> None:
        page = self.area.widget()
        target = self._sections[self.contents.row(item)]
        if page is not None:
            self.area.verticalScrollBar().setValue(target.mapTo(page, QPoint(0, 0)).y())

    def _barred(self, content: QWidget, color: str) -> QWidget:
        """`content` with a coloured bar on its left, as the findings are marked."""
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 2, 0, 2)
        line.setSpacing(10)
        bar = QFrame()
        bar.setFixedWidth(4)
        bar.setAutoFillBackground(True)
        palette = bar.palette()
        palette.setColor(QPalette.ColorRole.Window, color)
        bar.setPalette(palette)
        line.addWidget(bar)
        line.addWidget(content, 1)
        return row

    def _step(self, layout: QVBoxLayout, number: str, step: Step) -> None:
        title = _label(number + step.title)
        font = title.font()
        font.setWeight(QFont.Weight.DemiBold)
        title.setFont(font)
        title.setContentsMargins(0, 8, 0, 0)
        if number:
            self._list(number + step.title, title)
        layout.addWidget(title)
        layout.addWidget(_label(step.why))
        if step.commands:
            layout.addWidget(self._commands([text for _, text in step.commands]))
        if step.expect:
            expect_word = self.tr("Expect:")
            expect = _label(
                f'<span style="color:{self.colors.success}"><b>{escape(expect_word)}</b></span> {escape(step.expect)}',
                rich=True,
            )
            expect.setObjectName("expect")
            layout.addWidget(expect)

    def _commands(self, commands: list[str]) -> QFrame:
        box = QFrame()
        box.setObjectName("commands")
        box.setFrameShape(QFrame.Shape.StyledPanel)
        box.setAutoFillBackground(True)
        box.setBackgroundRole(QPalette.ColorRole.Base)
        grid = QGridLayout(box)
        grid.setContentsMargins(10, 6, 6, 6)
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(4)
        for row, command in enumerate(commands):
            text = _label(command)
            text.setObjectName("command")
            text.setFont(self._mono())
            text.setTextInteractionFlags(
                Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
            )
            text.setCursor(Qt.CursorShape.IBeamCursor)
            copy = QPushButton(self.tr("Copy"))
            copy.setObjectName("copy_command")
            copy.setToolTip(self.tr("Copy this command to the clipboard"))
            copy.setCursor(Qt.CursorShape.PointingHandCursor)
            copy.clicked.connect(lambda _checked=False, b=copy, c=command: self._copy(b, c))
            grid.addWidget(text, row, 0, Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(copy, row, 1, Qt.AlignmentFlag.AlignTop)
            self.commands.append(command)
            self.copy_buttons.append(copy)
        grid.setColumnStretch(0, 1)
        return box

    def _copy(self, button: QPushButton, command: str) -> None:
        QGuiApplication.clipboard().setText(command)
        button.setText(self.tr("Copied"))
        restore = QTimer(button)  # a child: gone with the button when the page is rebuilt
        restore.setSingleShot(True)
        restore.timeout.connect(lambda: button.setText(self.tr("Copy")))
        restore.start(COPIED_MS)
        self.copied.emit(command)

    def _mono(self) -> QFont:
        return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
