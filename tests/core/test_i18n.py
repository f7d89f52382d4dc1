"""The core's own texts in the language asked for, read from the same translations the window loads."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gpuconfig.core import i18n
from gpuconfig.core.build.sheet import kind_name
from gpuconfig.core.catalog.schema import FieldSpec
from gpuconfig.core.units import format_value


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.use(i18n.ENGLISH)


@pytest.mark.parametrize(
    ("name", "language"),
    [
        ("zh_CN", "zh_CN"),
        ("zh-Hans-CN", "zh_CN"),
        ("zh_CN.UTF-8", "zh_CN"),
        ("zh", "zh_CN"),
        ("zh_TW", "en"),
        ("zh-Hant-HK", "en"),
        ("en_US", "en"),
        ("C", "en"),
        (None, "en"),
    ],
)
def test_a_locale_name_picks_a_language_the_core_writes(name: str | None, language: str) -> None:
    assert i18n.language_of(name) == language


def test_chinese_labels_choices_and_kinds_and_back() -> None:
    market = FieldSpec("market", "choice", "Market", choices=("consumer", "datacenter"))
    ecc = FieldSpec("ecc", "bool", "ECC memory")
    i18n.use("zh_CN")
    assert (market.title, format_value(market, "datacenter"), format_value(ecc, True)) == ("市场定位", "数据中心", "是")
    assert kind_name("psu") == "电源"
    assert i18n.html_language() == "zh-CN"
    i18n.use("en")
    english = (market.title, format_value(market, "datacenter"), kind_name("psu"))
    assert english == ("Market", "datacenter", "Power supply")


def test_a_text_without_a_finished_translation_reads_in_english() -> None:
    i18n.use("zh_CN")
    assert i18n.translate("NoSuchContext", "Some text {n}") == "Some text {n}"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(i18n.UnknownLanguage, match="unknown language 'fr'"):
        i18n.use("fr")
