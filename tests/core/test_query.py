"""Search, filters and sorting over the shipped catalog."""

from __future__ import annotations

from gpuconfig.core.catalog.derived import gpus_that_fit
from gpuconfig.core.catalog.query import PartFilter, PartIndex, field_value
from gpuconfig.core.money import ExchangeRate
from gpuconfig.core.userdata.store import Store


def test_every_word_must_match(store: Store) -> None:
    index = PartIndex(store.parts("gpu"))
    rows = index.matching_rows(PartFilter(text="rtx 4090"), None)
    assert rows
    assert all("4090" in index.parts[r].name and "RTX" in index.parts[r].name for r in rows)
    assert index.matching_rows(PartFilter(text="4090 hopper"), None) == []


def test_search_is_case_insensitive_and_covers_text_fields(store: Store) -> None:
    index = PartIndex(store.parts("gpu"))
    by_architecture = index.matching_rows(PartFilter(text="HOPPER"), None)
    assert by_architecture
    assert all(index.parts[r].specs["architecture"] == "Hopper" for r in by_architecture)


def test_typing_onward_narrows_to_the_same_rows_as_a_fresh_search(store: Store) -> None:
    index = PartIndex(store.parts("gpu"))
    for query in ("rtx 4090", "nvidia a100 80", "geforce  50", "AMD mi"):
        shown = index.matching_rows(PartFilter(), None)
        previous = PartFilter()
        for end in range(1, len(query) + 1):
            typed = PartFilter(text=query[:end])
            assert typed.narrows(previous)
            shown = index.matching_rows(typed, None, shown)
            assert shown == index.matching_rows(typed, None), query[:end]
            previous = typed


def test_a_changed_filter_or_deleted_text_does_not_narrow() -> None:
    typed = PartFilter(text="rtx 40")
    assert not PartFilter(text="rtx 4").narrows(typed)
    assert not PartFilter(text="rtx 409", currency="CNY").narrows(typed)
    assert not PartFilter(text="rtx 409", minimums={"memory_gb": 24}).narrows(typed)
    assert not PartFilter(text="rtx 409", choices={"vendor": "NVIDIA"}).narrows(typed)
    assert not PartFilter(text="rtx 409", price_max=2000).narrows(typed)
    assert PartFilter(text="RTX 409").narrows(typed)


def test_choice_and_minimum_filters(store: Store) -> None:
    index = PartIndex(store.parts("gpu"))
    amd = index.matching_rows(PartFilter(choices={"vendor": "AMD"}), None)
    assert amd and all(index.parts[r].vendor == "AMD" for r in amd)
    big = index.matching_rows(PartFilter(minimums={"memory_gb": 80}), None)
    assert big and all(index.parts[r].specs["memory_gb"] >= 80 for r in big)
    assert len(big) < len(index.parts)


def test_price_range_converts_currencies() -> None:
    from gpuconfig.core.catalog.model import Part, Price

    def part(pid: str, amount: float, currency: str) -> Part:
        return Part("gpu", pid, pid, "V", {}, (), Price(amount, currency, "2026-01-01", "https://x"))

    index = PartIndex([part("a", 100, "USD"), part("b", 700, "CNY"), part("c", 1000, "USD")])
    rate = ExchangeRate("USD", "CNY", 7.0, "2026-01-01", "https://x")
    in_usd = index.matching_rows(PartFilter(price_min=90, price_max=150, currency="USD"), rate)
    assert [index.parts[r].id for r in in_usd] == ["a", "b"]
    in_cny = index.matching_rows(PartFilter(price_min=6000, currency="CNY"), rate)
    assert [index.parts[r].id for r in in_cny] == ["c"]
    assert index.matching_rows(PartFilter(price_min=6000, currency="CNY"), None) == []


def test_sorting_puts_missing_figures_last(store: Store) -> None:
    index = PartIndex(store.parts("gpu"))
    order = index.sorted_rows("fp8_tensor_tflops", True, "USD", None)
    values = [field_value(index.parts[r], "fp8_tensor_tflops") for r in order]
    present = [v for v in values if v is not None]
    assert present == sorted(present, reverse=True)
    assert values[len(present) :] == [None] * (len(values) - len(present))
    assert None in values, "some GPUs have no FP8 (before Ada/Hopper)"


def test_gpus_that_fit_respects_card_thickness() -> None:
    slots = [{"position": p, "lanes": 16, "pcie_gen": 5, "source": "cpu"} for p in (1, 3, 5, 7)]
    assert gpus_that_fit(slots, 2) == 4
    assert gpus_that_fit(slots, 3) == 2
    assert gpus_that_fit(slots, 2.5) == 2
    assert gpus_that_fit(slots[:1], 4) == 1
