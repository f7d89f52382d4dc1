"""The Catalog tab driven as a user drives it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt
from PySide6.QtWidgets import QApplication

from gpuconfig.core.userdata.store import Store
from gpuconfig.ui.main_window import MainWindow
from gpuconfig.ui.theme import DARK, LIGHT


def names(window: MainWindow) -> list[str]:
    return [p.name for p in window.catalog_tab.model.visible_parts]


def select_rows(window: MainWindow, rows: list[int]) -> None:
    table = window.catalog_tab.table
    table.clearSelection()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    for row in rows:
        table.selectionModel().select(window.catalog_tab.model.index(row, 0), flags)


def test_main_window_has_a_tab_per_area_and_a_status_bar(window: MainWindow) -> None:
    tabs = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert tabs == ["Catalog", "Workload", "Build", "Probe", "Guide", "eGPU", "Fleet"]
    for i in range(2, window.tabs.count()):
        assert len(window.tabs.widget(i).promise) > 80  # each later area says what it will do
    total = sum(window.store.counts().values())
    assert window.catalog_status.text() == f"Catalog: {total} parts"
    assert window.rate_status.text().startswith("1 USD = ")
    assert not window.banner.isVisible()


def test_search_filters_rows_as_you_type(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = window.catalog_tab
    everything = tab.model.rowCount()
    qtbot.keyClicks(tab.filters.search, "4090")
    assert 0 < tab.model.rowCount() < everything
    assert all("4090" in n for n in names(window))
    assert tab.count.text().startswith(f"{tab.model.rowCount()} of {everything}")
    tab.filters.search.clear()
    assert tab.model.rowCount() == everything


def test_vendor_and_memory_filters(window: MainWindow) -> None:
    tab = window.catalog_tab
    vendor = tab.filters.choice_box("vendor")
    vendor.setCurrentIndex(vendor.findData("AMD"))
    assert tab.model.visible_parts and all(p.vendor == "AMD" for p in tab.model.visible_parts)
    vendor.setCurrentIndex(0)
    tab.filters.minimum_box("memory_gb").setValue(80)
    assert tab.model.visible_parts and all(p.specs["memory_gb"] >= 80 for p in tab.model.visible_parts)
    tab.filters.clear.click()
    assert tab.model.rowCount() == len(tab.model.all_parts)


def test_price_range_filter_and_currency(window: MainWindow) -> None:
    tab = window.catalog_tab
    tab.filters.currency.setCurrentText("CNY")
    assert tab.model.headerData(tab.model.column_of("price"), Qt.Orientation.Horizontal) == "Price (CNY)"
    tab.filters.price_max.setValue(10000)
    shown = tab.model.visible_parts
    assert shown
    for part in shown:
        amount, currency = tab.model.price_amount(part)
        assert currency == "CNY" and amount is not None and amount <= 10000


def test_sorting_by_a_column(window: MainWindow) -> None:
    tab = window.catalog_tab
    column = tab.model.column_of("memory_gb")
    tab.table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
    memory = [p.specs["memory_gb"] for p in tab.model.visible_parts]
    assert memory == sorted(memory, reverse=True)


def test_detail_pane_shows_every_field_with_sources(window: MainWindow) -> None:
    tab = window.catalog_tab
    tab.table.selectRow(0)
    part = tab.model.part_at(0)
    html = tab.detail.browser.toHtml()
    assert part.name in html
    for source in part.sources:
        assert source.url in html
    assert "Board power" in html and "Sources" in html


def test_compare_opens_for_two_to_four_parts(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = window.catalog_tab
    select_rows(window, [0])
    assert not tab.compare.isEnabled()
    select_rows(window, [0, 1, 2])
    assert tab.compare.isEnabled() and tab.compare.text() == "Compare (3)"
    qtbot.mouseClick(tab.compare, Qt.MouseButton.LeftButton)
    dialog = tab.compare_dialog
    assert dialog is not None and dialog.isVisible()
    chosen = [tab.model.part_at(r).name for r in range(3)]
    headers = [dialog.table.horizontalHeaderItem(c).text() for c in range(3)]
    assert headers == chosen
    fields = [dialog.table.verticalHeaderItem(r).text() for r in range(dialog.table.rowCount())]
    memory_row = fields.index("Memory")
    values = [tab.model.part_at(r).specs["memory_gb"] for r in range(3)]
    if len(set(values)) > 1:
        best = [c for c in range(3) if values[c] == max(values)]
        assert dialog.best_marked(memory_row) == best
    select_rows(window, [0, 1, 2, 3, 4])
    assert not tab.compare.isEnabled()


def test_editing_a_price_becomes_an_override_and_revert_restores(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = window.catalog_tab
    store = window.store
    tab.filters.currency.setCurrentText("USD")
    column = tab.model.column_of("price")
    part = tab.model.part_at(0)
    original = store.part(part.id)
    assert original is not None
    tab.table.selectRow(0)
    assert tab.model.setData(tab.model.index(0, column), 1234.0)
    qtbot.waitUntil(lambda: store.part(part.id).price_origin == "override", timeout=2000)  # type: ignore[union-attr]
    stored = store.part(part.id)
    assert stored is not None and stored.price_origin == "override"
    assert (stored.price.amount, stored.price.currency) == (1234.0, "USD")  # type: ignore[union-attr]
    row = tab.model.row_of(part.id)
    shown = tab.model.data(tab.model.index(row, column))
    assert shown == "✎ $1,234"
    assert tab.model.data(tab.model.index(row, column), Qt.ItemDataRole.FontRole).italic()
    assert "Your price" in tab.model.data(tab.model.index(row, column), Qt.ItemDataRole.ToolTipRole)
    assert tab.detail.revert.isEnabled()
    tab.detail.revert.click()
    reverted = store.part(part.id)
    assert reverted is not None and reverted.price == original.price and reverted.price_origin == "catalog"
    assert not tab.model.data(tab.model.index(tab.model.row_of(part.id), column)).startswith("✎")


def test_editing_through_the_delegate(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = window.catalog_tab
    column = tab.model.column_of("price")
    index = tab.model.index(1, column)
    part_id = tab.model.part_at(1).id
    tab.table.edit(index)
    editor = QApplication.focusWidget()
    assert editor is not None and editor.metaObject().className() == "QDoubleSpinBox"
    editor.setValue(777.0)  # type: ignore[attr-defined]
    qtbot.keyClick(editor, Qt.Key.Key_Return)

    def committed() -> bool:  # Qt commits a spin-box editor through a queued call
        stored = window.store.part(part_id)
        return stored is not None and stored.price_origin == "override"

    qtbot.waitUntil(committed, timeout=2000)
    stored = window.store.part(part_id)
    assert stored is not None and stored.price is not None
    assert stored.price.amount == 777.0


def test_every_kind_opens(window: MainWindow) -> None:
    tab = window.catalog_tab
    for kind in window.store.schema.kind_names:
        tab.show_kind(kind)
        assert tab.model.rowCount() == window.store.counts()[kind]
        assert tab.model.headerData(0, Qt.Orientation.Horizontal) == "Name"
        assert tab.model.data(tab.model.index(0, 0)) == tab.model.part_at(0).name


def test_scatter_plots_the_visible_parts_and_clicks_select(window: MainWindow) -> None:
    tab = window.catalog_tab
    tab.chart_button.click()
    scatter = tab.scatter
    assert scatter is not None and tab.views.currentWidget() is scatter
    plotted = {p.id for _, _, p in scatter.points}
    assert scatter.y_axis.currentData() == "memory_gb"
    expected = {p.id for p in tab.model.visible_parts if p.price is not None}
    assert plotted == expected and plotted
    scatter.per_money.setChecked(True)
    x, y, part = scatter.points[0]
    assert y == part.specs["memory_gb"] / x * 1000
    scatter.y_axis.setCurrentIndex(scatter.y_axis.findData("bf16_tensor_tflops"))
    with_bf16 = {p.id for p in tab.model.visible_parts if p.price and p.specs["bf16_tensor_tflops"]}
    assert {p.id for _, _, p in scatter.points} == with_bf16
    tab.filters.search.setText("geforce")
    assert scatter.points
    assert all("GeForce" in p.name for _, _, p in scatter.points)
    clicked = scatter.points[0][2].id
    scatter.part_clicked.emit(clicked)
    assert tab.selected_ids() == [clicked]


def test_themes_switch_and_persist(window: MainWindow) -> None:
    window.set_theme("dark")
    assert QApplication.palette().color(QApplication.palette().ColorRole.Window).name() == DARK.window
    assert window.store.user.setting("theme") == "dark"
    window.set_theme("light")
    assert QApplication.palette().color(QApplication.palette().ColorRole.Window).name() == LIGHT.window


def test_window_starts_on_the_last_good_catalog_with_a_banner(
    qtbot,
    tmp_path: Path,
    catalog_copy: Path,  # type: ignore[no-untyped-def]
) -> None:
    Store.open(tmp_path / "db.sqlite3", catalog_copy).close()
    gpu = catalog_copy / "gpu.toml"
    gpu.write_text(gpu.read_text(encoding="utf-8").replace("memory_gb = ", 'memory_gb = "x" #', 1), encoding="utf-8")
    store = Store.open(tmp_path / "db.sqlite3", catalog_copy)
    main = MainWindow(store)
    qtbot.addWidget(main)
    main.show()
    assert main.banner.isVisible()
    assert "gpu.toml:" in main.banner.text() and "memory_gb: expected a number" in main.banner.text()
    assert main.catalog_tab.model.rowCount() == store.counts()["gpu"] > 0
    store.close()


def test_no_index_outside_the_rows(window: MainWindow) -> None:
    model = window.catalog_tab.model
    assert model.data(QModelIndex()) is None
    assert model.rowCount(model.index(0, 0)) == 0


def test_catalog_tab_and_shortcuts_arrive_after_the_first_paint(qtbot, store: Store) -> None:  # type: ignore[no-untyped-def]
    main = MainWindow(store)
    qtbot.addWidget(main)
    assert main.built.get("catalog") is None  # nothing heavy before the window is on screen
    main.show()
    qtbot.waitUntil(lambda: main.built.get("catalog") is not None, timeout=3000)
    assert main.tabs.widget(0) is main.catalog_tab
    shortcuts = {action.text(): action.shortcut().toString() for action, _ in main._shortcuts}
    assert shortcuts["Import price list…"] == "Ctrl+I"
    assert shortcuts["Quit"] == "Ctrl+Q"


def _colours_in(image, rect) -> set[int]:  # type: ignore[no-untyped-def]
    return {image.pixel(x, y) for x in range(rect.left(), rect.right()) for y in range(rect.top(), rect.bottom())}


def test_the_table_paints_selection_stripes_and_user_prices(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = window.catalog_tab
    tab.filters.currency.setCurrentText("USD")
    column = tab.model.column_of("price")
    part_id = tab.model.part_at(2).id
    assert tab.model.setData(tab.model.index(2, column), 4321.0)
    qtbot.waitUntil(lambda: tab.model.has_user_price(tab.model.row_of(part_id)), timeout=2000)
    row = tab.model.row_of(part_id)
    tab.table.selectRow(0)
    tab.table.scrollToTop()
    palette = tab.table.palette()
    image = tab.table.viewport().grab().toImage()

    def cell(r: int, c: int):  # type: ignore[no-untyped-def]
        return tab.table.visualRect(tab.model.index(r, c))

    assert palette.highlight().color().rgb() in _colours_in(image, cell(0, 0))
    assert palette.alternateBase().color().rgb() in _colours_in(image, cell(1, 0))
    assert row == 2  # a new price does not move a row when the table is not sorted by price
    assert palette.base().color().rgb() in _colours_in(image, cell(2, 0))
    price_colours = _colours_in(image, cell(row, column))
    assert tab.model.accent.rgb() in price_colours  # the user's own price is drawn in the accent colour
    assert tab.model.accent.rgb() not in _colours_in(image, cell(row, 0))


def test_sorting_keeps_the_selection_on_the_same_parts(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    tab = window.catalog_tab
    tab.table.selectRow(10)
    one = tab.model.part_at(10)
    assert tab.detail.browser.toPlainText().startswith(one.name)
    tab.table.sortByColumn(tab.model.column_of("memory_gb"), Qt.SortOrder.DescendingOrder)
    assert tab.model.part_at(10).id != one.id  # the sort moved the row
    assert tab.selected_ids() == [one.id]
    assert tab.detail.browser.toPlainText().startswith(one.name)

    select_rows(window, [1, 10])
    chosen = [tab.model.part_at(1), tab.model.part_at(10)]
    tab.table.sortByColumn(tab.model.column_of("tdp_w"), Qt.SortOrder.AscendingOrder)
    assert [tab.model.part_at(1).id, tab.model.part_at(10).id] != [p.id for p in chosen]
    assert sorted(tab.selected_ids()) == sorted(p.id for p in chosen)
    qtbot.mouseClick(tab.compare, Qt.MouseButton.LeftButton)
    dialog = tab.compare_dialog
    assert dialog is not None
    headers = {dialog.table.horizontalHeaderItem(c).text() for c in range(dialog.table.columnCount())}
    assert headers == {p.name for p in chosen}


def test_rows_start_in_the_order_the_header_arrow_shows(window: MainWindow) -> None:
    tab = window.catalog_tab
    header = tab.table.horizontalHeader()
    for kind in ("gpu", "cpu"):
        tab.show_kind(kind)
        assert header.isSortIndicatorShown() and header.sortIndicatorSection() == tab.model.column_of("name")
        assert header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
        shown = names(window)
        tab.model.sort(header.sortIndicatorSection(), header.sortIndicatorOrder())
        assert names(window) == shown  # sorting by what the arrow says moves nothing: it was already so
        assert shown != [p.name for p in tab.model.all_parts]  # the catalog's own file order is not it


def test_each_price_shows_its_date_and_age_and_old_ones_are_marked(window: MainWindow) -> None:
    from gpuconfig.core.catalog.age import is_stale

    tab = window.catalog_tab
    column = tab.model.column_of("price_date")
    assert tab.model.headerData(column, Qt.Orientation.Horizontal) == "Price date"
    rows = range(tab.model.rowCount())
    priced = [r for r in rows if tab.model.part_at(r).price_for("USD") is not None]
    old = [r for r in priced if is_stale(tab.model.part_at(r).price_for("USD"))]
    assert old, "the catalog keeps launch prices from years ago"
    for row in priced:
        price = tab.model.part_at(row).price_for("USD")
        assert tab.model.display_text(row, column).startswith(f"{price.date} · ")
        assert tab.model.has_stale_price(row) == (row in old)
        tip = tab.model.data(tab.model.index(row, column), Qt.ItemDataRole.ToolTipRole)
        assert (tip is not None and "more than six months" in tip) == (row in old)
    unpriced = [r for r in rows if r not in priced]
    assert all(tab.model.display_text(r, column) == "" for r in unpriced)
    tab.table.sortByColumn(column, Qt.SortOrder.DescendingOrder)
    dates = [p.price_for("USD").date for p in tab.model.visible_parts if p.price_for("USD") is not None]
    assert dates == sorted(dates, reverse=True)
