"""A price list is checked whole before anything is stored: a quote left open is an error on its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuconfig.core.catalog.prices import PriceListError, read_price_list
from gpuconfig.core.userdata.store import Store, open_default_store
from tests.core.test_cli import run

ROWS = (
    "id,amount,currency,date,source\n"
    'nvidia-geforce-rtx-4090,1599,USD,2026-01-05,"Shop A quote\n'
    "nvidia-geforce-rtx-3090,999,USD,2026-01-05,Shop A\n"
    "nvidia-geforce-rtx-3060-12gb,299,USD,2026-01-05,Shop A\n"
)


def test_an_unterminated_quote_names_its_line(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_text(ROWS, encoding="utf-8")
    with pytest.raises(PriceListError) as caught:
        read_price_list(path, store.part_ids())
    assert str(caught.value) == "prices.csv:2: a quote opened on this line is not closed on it"


def test_a_quote_closed_lines_later_is_the_same_error(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_text(
        ROWS.replace("Shop A\nnvidia-geforce-rtx-3060", 'Shop A"\nnvidia-geforce-rtx-3060'), encoding="utf-8"
    )
    with pytest.raises(PriceListError, match=r"^prices\.csv:2: a quote opened on this line"):
        read_price_list(path, store.part_ids())


def test_the_command_rejects_the_whole_list(tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_text(ROWS, encoding="utf-8")
    result = run("catalog", "import-prices", str(path))
    assert result.returncode == 2
    assert result.stderr == (
        "gpuconfig: price list not imported: prices.csv:2: a quote opened on this line is not closed on it\n"
    )
    store = open_default_store()
    try:
        assert store.user.price_lists() == []
        assert store.part("nvidia-geforce-rtx-4090").price_origin == "catalog"  # type: ignore[union-attr]
    finally:
        store.close()


def test_blank_lines_and_quoted_commas_still_import(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_text(
        'id,amount,currency,date,source\n\nnvidia-geforce-rtx-4090,1599,USD,2026-01-05,"Shop A, Berlin"\n',
        encoding="utf-8",
    )
    [(part_id, price)] = read_price_list(path, store.part_ids())
    assert part_id == "nvidia-geforce-rtx-4090" and price.source == "Shop A, Berlin"
