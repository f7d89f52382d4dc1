"""What the GUI writes and links: PDFs whole or not at all, web links only, and a model dialog that says a
Python file is run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from gpuconfig.core.catalog.model import Price
from gpuconfig.core.userdata.store import Store
from gpuconfig.ui.widgets.part_detail import PartDetail
from gpuconfig.ui.widgets.pdf import write_pdf
from gpuconfig.ui.workload.form import WorkloadForm

HTML = "<html><head><title>t</title></head><body><h1>Build</h1><p>text</p></body></html>"
NOT_UTF8 = os.fsdecode(b"caf\xe9")  # a name in Latin-1, as an old archive or disk may hold


def _pdf(path: Path) -> bytes:
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-32:]
    return data


def test_a_pdf_whose_name_is_not_utf8_is_written_whole(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / f"{NOT_UTF8}.pdf"
    write_pdf(HTML, target, "Build")
    _pdf(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


@pytest.mark.qt_log_ignore(r"QPainter::begin\(\): Returned false")
def test_a_pdf_qt_cannot_write_is_reported_and_the_old_file_kept(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    folder = tmp_path / NOT_UTF8  # Qt cannot spell this folder, so it cannot open any file in it
    folder.mkdir()
    target = folder / "build.pdf"
    target.write_bytes(b"the PDF exported yesterday")
    with pytest.raises(OSError, match="the PDF could not be written there"):
        write_pdf(HTML, target, "Build")
    assert target.read_bytes() == b"the PDF exported yesterday"
    assert [p.name for p in folder.iterdir()] == ["build.pdf"]


def test_only_web_addresses_become_links_in_the_detail_pane(qtbot, store: Store) -> None:  # type: ignore[no-untyped-def]
    sources = {
        "file:///etc/passwd": False,
        "smb://fileserver/share/quote.pdf": False,
        "Shop A, counter quote": False,
        "https://shop.example/q": True,
    }
    quotes = dict(zip(sorted(store.part_ids()), sources, strict=False))
    store.user.save_price_list(
        "quotes", [(i, Price(100.0, "USD", "2026-01-05", s, "imported")) for i, s in quotes.items()]
    )
    detail = PartDetail()
    qtbot.addWidget(detail)
    for part_id, source in quotes.items():
        part = store.part(part_id)
        assert part is not None and part.price is not None and part.price.source == source
        detail.show_part(part, store.schema[part.kind], "USD", None)
        html = detail.browser.toHtml()
        links = [link.split('"')[0] for link in html.split('href="')[1:]]
        assert all(link.startswith(("http://", "https://")) for link in links), links
        assert (source in links) == sources[source]
        assert sources[source] or source in detail.browser.toPlainText()  # not a link: shown as text


def test_the_model_dialog_says_a_python_file_is_run(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    form = WorkloadForm([])
    qtbot.addWidget(form)
    form.browse.click()
    dialog = form.findChild(QFileDialog)
    assert dialog is not None
    assert "a .py file is run as Python code" in dialog.windowTitle()
    assert any("run as code (*.py)" in f for f in dialog.nameFilters())
    model = tmp_path / "my_model.py"
    model.write_text("", encoding="utf-8")
    dialog.fileSelected.emit(str(model))
    dialog.reject()
    assert form.model.currentText() == str(model)


def test_the_detail_pane_says_a_price_age_and_why_a_part_has_none(qtbot, store: Store) -> None:  # type: ignore[no-untyped-def]
    from gpuconfig.core.catalog.age import is_stale

    detail = PartDetail()
    qtbot.addWidget(detail)
    gpus = store.parts("gpu")
    old = next(p for p in gpus if p.price is not None and is_stale(p.price_for("USD")))
    detail.show_part(old, store.schema["gpu"], "USD", None)
    assert "check a current price" in detail.browser.toPlainText()
    recent = [p for p in gpus if p.price is not None and not is_stale(p.price_for("USD"))]
    for part in recent[:1]:  # a catalog read within six months of today has some
        detail.show_part(part, store.schema["gpu"], "USD", None)
        assert " old)" in detail.browser.toPlainText() and "check a current price" not in detail.browser.toPlainText()
    reasoned = next(p for p in gpus if p.price is None and p.unpriced)
    detail.show_part(reasoned, store.schema["gpu"], "USD", None)
    assert f"No public price: {reasoned.unpriced}" in detail.browser.toPlainText()
