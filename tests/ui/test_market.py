"""The market: the currency prices start in and the wall circuit a build assumes, from the language or File > Market."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from gpuconfig.core.build.model import Build, BuildLine
from gpuconfig.core.userdata.store import Store
from gpuconfig.ui.language import install_translations
from gpuconfig.ui.main_window import INDEX, MainWindow
from gpuconfig.ui.market import MARKET_SETTING

pytestmark = pytest.mark.usefixtures("shared_trace_cache")


@pytest.fixture
def chinese(qapp: QApplication) -> Iterator[None]:
    install_translations(qapp, "zh_CN")
    yield
    install_translations(qapp, "en")


def opened(qtbot, store: Store) -> MainWindow:  # type: ignore[no-untyped-def]
    window = MainWindow(store)
    qtbot.addWidget(window)
    window.show()
    window.tabs.setCurrentIndex(INDEX["build"])
    return window


def test_a_chinese_reader_starts_in_cny_on_a_220_v_circuit(qtbot, store: Store, chinese: None) -> None:  # type: ignore[no-untyped-def]
    window = opened(qtbot, store)
    tab = window.build_tab
    assert (tab.build.currency, tab.build.circuit) == ("CNY", "cn-220v-10a")
    assert tab.circuit.currentText() == "中国，220 V / 10 A 插座"
    form = tab.recommend.form
    assert (form.currency.currentData(), form.circuit.currentData()) == ("CNY", "cn-220v-10a")
    assert form.electricity.placeholderText() == "不计入（例如 0.538）"
    assert "Zhejiang" in form.electricity.toolTip() and "github.com/cc01cc/Eru" in form.electricity.toolTip()
    assert window.catalog_tab.filters.currency.currentText() == "CNY"
    assert window.market_actions["cn"].isChecked()


def test_an_english_reader_starts_in_usd_and_file_market_moves_the_tabs(qtbot, store: Store) -> None:  # type: ignore[no-untyped-def]
    window = opened(qtbot, store)
    tab = window.build_tab
    assert (tab.build.currency, tab.build.circuit) == ("USD", "us-120v-15a")
    assert window.catalog_tab.filters.currency.currentText() == "USD"
    window.set_market("cn")
    assert store.user.setting(MARKET_SETTING) == "cn"
    assert window.catalog_tab.filters.currency.currentText() == "CNY"
    assert tab.recommend.form.circuit.currentData() == "cn-220v-10a"
    assert tab.build.currency == "USD"  # the build at hand keeps its own
    tab.files.new_build()
    assert (tab.build.currency, tab.build.circuit) == ("CNY", "cn-220v-10a")


def test_the_circuit_follows_the_currency_unless_the_user_picked_one(qtbot, store: Store) -> None:  # type: ignore[no-untyped-def]
    tab = opened(qtbot, store).build_tab
    tab.set_build(Build("Two cards", (BuildLine("nvidia-geforce-rtx-4090", 2),)))
    tab.currency.setCurrentIndex(tab.currency.findData("CNY"))
    assert tab.build.circuit == "cn-220v-10a" and tab.budget is not None and tab.budget.circuit.watts == 1760
    tab.circuit.setCurrentIndex(tab.circuit.findData("eu-230v-16a"))
    tab.currency.setCurrentIndex(tab.currency.findData("USD"))
    assert tab.build.circuit == "eu-230v-16a"


def test_the_guide_goes_through_china_s_mirrors_in_the_china_market(qtbot, store: Store) -> None:  # type: ignore[no-untyped-def]
    window = opened(qtbot, store)
    window.tabs.setCurrentIndex(INDEX["guide"])
    guide = window.guide_tab
    assert not guide.source.china_mirrors.isChecked()
    window.set_market("cn")
    assert guide.source.china_mirrors.isChecked()
    assert guide.guide is not None and any("mainland China" in s.title for s in guide.guide.steps)
