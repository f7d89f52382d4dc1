"""The detail pane: every field of one part, each with the source it was read from."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from gpuconfig.core.catalog.age import is_stale, price_age
from gpuconfig.core.catalog.derived import DERIVED_FIELDS
from gpuconfig.core.catalog.model import Part, Price
from gpuconfig.core.catalog.schema import KindSpec
from gpuconfig.core.links import web_link
from gpuconfig.core.money import ExchangeRate, convert_price, format_money
from gpuconfig.core.units import MISSING, format_value
from gpuconfig.ui.theme import LIGHT


class PartDetail(QWidget):
    """Shows one part; `revert_requested(part_id)` asks to drop the user's price for it."""

    revert_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.browser = QTextBrowser()
        self.browser.setObjectName("detail")
        self.browser.setOpenExternalLinks(True)
        self.revert = QPushButton(self.tr("Revert to catalog price"))
        self.revert.setObjectName("revert")
        self.revert.setEnabled(False)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.revert)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.browser, 1)
        layout.addLayout(buttons)
        self._part: Part | None = None
        self.warning_color = LIGHT.accent  # an old price's age; the catalog tab sets its theme's
        self.revert.clicked.connect(self._on_revert)
        self.show_part(None, None, "USD", None)

    def _on_revert(self) -> None:
        if self._part is not None:
            self.revert_requested.emit(self._part.id)

    def show_part(self, part: Part | None, spec: KindSpec | None, currency: str, rate: ExchangeRate | None) -> None:
        self._part = part
        self.revert.setEnabled(part is not None and part.price_origin == "override")
        if part is None or spec is None:
            prompt = self.tr("Select a part to see every figure and its source.")
            self.browser.setHtml(f"<p>{escape(prompt)}</p>")
            return
        self.browser.setHtml(self._html(part, spec, currency, rate))

    def _price_text(self, price: Price | None, currency: str, rate: ExchangeRate | None) -> str:
        if price is None:
            return escape(self.tr("no public price"))
        per = self.tr(" per hour") if price.per else ""
        own = format_money(price.amount, price.currency) + per
        converted = convert_price(price, currency, rate)
        if price.currency != currency and converted is not None and rate is not None:
            own += f" ≈ {format_money(converted, currency)}" + self.tr(" at {rate:g} CNY/USD").format(rate=rate.rate)
        return escape(own)

    def _html(self, part: Part, spec: KindSpec, currency: str, rate: ExchangeRate | None) -> str:
        refs = {source.url: number for number, source in enumerate(part.sources, start=1)}
        rows = []
        for field in spec.fields:
            value = part.specs.get(field.key)
            source = part.source_for(field.key)
            ref = f"<sup>[{refs[source.url]}]</sup>" if source and value is not None else ""
            shown = format_value(field, value)
            why = part.unknown.get(field.key, "")
            missing = f"{MISSING} {why}" if why else MISSING  # the row says why it has no figure
            cell = f'<span style="color: gray">{escape(missing)}</span>' if value is None else escape(shown)
            rows.append(f"<tr><td>{escape(field.title)}</td><td>{cell}{ref}</td></tr>")
        for field in DERIVED_FIELDS.get(part.kind, ()):
            value = part.extra.get(field.key)
            computed = self.tr("computed from the slot positions")
            rows.append(
                f"<tr><td>{escape(field.title)}</td><td>{escape(format_value(field, value))}"
                f" <i>({escape(computed)})</i></td></tr>"
            )
        price = part.price_for(currency)
        if part.price_origin == "override":
            origin = self.tr("your price, set {date}").format(date=price.date if price else "")
            catalog = self.tr("Catalog price: {price}").format(
                price=self._price_text(part.catalog_price, currency, rate)
            )
            price_note = f"{escape(origin)}<br>{catalog}"
        elif price is not None:
            link = web_link(price.source, self.tr("source")) if price.source else ""
            age = self.tr("{age} old").format(age=price_age(price))
            if is_stale(price):  # older than six months: said in the warning colour
                warning = self.tr("{age}: check a current price").format(age=age)
                age = f'<span style="color: {self.warning_color}">{escape(warning)}</span>'
            else:
                age = escape(age)
            price_note = f"{escape(price.basis)}, {escape(price.date)} ({age}) {link}"
        elif part.unpriced:
            price_note = escape(self.tr("No public price: {why}").format(why=part.unpriced))
        else:
            price_note = ""
        others = [p for p in part.catalog_prices if p != price]
        if others:  # every price the catalog gives, each as published: a US launch price beside a Chinese one
            per_hour, source_word, also = self.tr(" per hour"), self.tr("source"), self.tr("Also published:")
            listed = "".join(
                f"<li>{escape(format_money(p.amount, p.currency))}{escape(per_hour if p.per else '')}"
                f" — {escape(p.basis)}, {escape(p.date)} {web_link(p.source, source_word)}</li>"
                for p in others
            )
            price_note += f"<br>{escape(also)}<ul>{listed}</ul>"
        read = self.tr("read")
        sources = "".join(
            f"<li>{web_link(s.url, s.title)} — {escape(read)} {escape(s.read)}"
            + (f"<br><small>{escape(', '.join(s.fields))}</small>" if s.fields else "")
            + "</li>"
            for s in part.sources
        )
        released_word, notes_word = self.tr("released"), self.tr("Notes")
        price_word, sources_word = self.tr("Price"), self.tr("Sources")
        released = f" · {escape(released_word)} {escape(part.released)}" if part.released else ""
        notes = f"<h4>{escape(notes_word)}</h4><p>{escape(part.notes)}</p>" if part.notes else ""
        return f"""
            <h2 style="margin-bottom: 0">{escape(part.name)}</h2>
            <p style="margin-top: 2px">{escape(part.vendor)}{released} · <code>{escape(part.id)}</code></p>
            <p><b>{escape(price_word)}:</b> {self._price_text(price, currency, rate)}<br>
               <small>{price_note}</small></p>
            <table cellspacing="0" cellpadding="3" width="100%">{"".join(rows)}</table>
            {notes}
            <h4>{escape(sources_word)}</h4><ol>{sources}</ol>
        """


class PartDetailDialog(QDialog):
    """One part's every figure, opened from a build's row; `show_in_catalog(part_id)` asks for its catalog row."""

    show_in_catalog = Signal(str)

    def __init__(
        self, part: Part, spec: KindSpec, currency: str, rate: ExchangeRate | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(part.name)
        self.part_id = part.id
        self.detail = PartDetail()
        self.detail.revert.hide()  # prices are edited in the Catalog tab
        self.detail.show_part(part, spec, currency, rate)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        catalog = buttons.addButton(self.tr("Show in the Catalog tab"), QDialogButtonBox.ButtonRole.ActionRole)
        catalog.setObjectName("show_in_catalog")
        catalog.clicked.connect(self._on_show_in_catalog)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.detail, 1)
        layout.addWidget(buttons)
        self.resize(520, 640)

    def _on_show_in_catalog(self) -> None:
        self.show_in_catalog.emit(self.part_id)
        self.accept()
