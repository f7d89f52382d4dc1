"""The SQLite store: rebuilds when the files change, keeps the user's prices, never half-loads."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from gpuconfig.core.build.model import Build, BuildError, BuildLine
from gpuconfig.core.catalog.prices import PriceListError, read_price_list
from gpuconfig.core.database import StoreError, migrate
from gpuconfig.core.userdata.store import MIGRATIONS, SCHEMA_VERSION, Store


def _priced_gpu(store: Store) -> str:
    return next(p.id for p in store.parts("gpu") if p.price is not None and p.price.currency == "USD")


def _bump_first_price(catalog: Path, kind: str) -> float:
    """Change the first USD price in a catalog file; returns the new amount."""
    path = catalog / f"{kind}.toml"
    text = path.read_text(encoding="utf-8")
    match = re.search(r'price = \{ amount = ([0-9.]+), currency = "USD"', text)
    assert match, f"{kind}.toml has a USD price"
    new = float(match.group(1)) + 1
    path.write_text(text[: match.start(1)] + repr(new) + text[match.end(1) :], encoding="utf-8")
    return new


def test_fresh_database_holds_every_catalog_part(store: Store) -> None:
    assert store.last_refresh.rebuilt
    assert store.last_refresh.error == ""
    counts = store.counts()
    assert set(counts) == set(store.schema.kind_names)
    assert sum(counts.values()) == store.last_refresh.part_count


def test_unchanged_files_do_not_rebuild(tmp_path: Path, catalog_copy: Path) -> None:
    Store.open(tmp_path / "db.sqlite3", catalog_copy).close()
    again = Store.open(tmp_path / "db.sqlite3", catalog_copy)
    assert not again.last_refresh.rebuilt
    assert again.last_refresh.part_count > 0


def test_changed_file_rebuilds(store: Store, catalog_copy: Path) -> None:
    new_amount = _bump_first_price(catalog_copy, "cpu")
    result = store.refresh()
    assert result.rebuilt
    assert new_amount in [p.price.amount for p in store.parts("cpu") if p.price]


def test_price_override_survives_a_rebuild(store: Store, catalog_copy: Path) -> None:
    part_id = _priced_gpu(store)
    store.user.set_price_override(part_id, 1234.5, "CNY")
    _bump_first_price(catalog_copy, "gpu")
    assert store.refresh().rebuilt
    part = store.part(part_id)
    assert part is not None
    assert part.price_origin == "override"
    assert (part.price.amount, part.price.currency) == (1234.5, "CNY")  # type: ignore[union-attr]
    assert part.catalog_price is not None and part.catalog_price.currency == "USD"


def test_revert_restores_the_catalog_price(store: Store) -> None:
    part_id = _priced_gpu(store)
    before = store.part(part_id)
    store.user.set_price_override(part_id, 1.0, "USD")
    assert store.user.clear_price_override(part_id)
    after = store.part(part_id)
    assert after is not None and before is not None
    assert after.price == before.price
    assert after.price_origin == "catalog"
    assert not store.user.clear_price_override(part_id)


def test_override_rejects_bad_values(store: Store) -> None:
    part_id = _priced_gpu(store)
    with pytest.raises(ValueError, match="positive"):
        store.user.set_price_override(part_id, 0, "USD")
    with pytest.raises(ValueError, match="currency"):
        store.user.set_price_override(part_id, 10, "EUR")
    with pytest.raises(KeyError):
        store.user.set_price_override("no-such-part", 10, "USD")


def test_malformed_file_keeps_the_last_good_catalog(store: Store, catalog_copy: Path) -> None:
    before = {p.id: p for p in store.parts("gpu")}
    gpu = catalog_copy / "gpu.toml"
    gpu.write_text(gpu.read_text(encoding="utf-8").replace("tdp_w = ", "tdp_w = -", 1), encoding="utf-8")
    result = store.refresh()
    assert not result.rebuilt
    assert re.match(r"gpu\.toml:\d+: tdp_w: must be a positive number", result.error)
    assert {p.id: p for p in store.parts("gpu")} == before


def test_store_opens_on_the_last_good_catalog(tmp_path: Path, catalog_copy: Path) -> None:
    Store.open(tmp_path / "db.sqlite3", catalog_copy).close()
    (catalog_copy / "ssd.toml").write_text("[[part]\n", encoding="utf-8")
    reopened = Store.open(tmp_path / "db.sqlite3", catalog_copy)
    assert reopened.last_refresh.error.startswith("ssd.toml:1: not valid TOML")
    assert reopened.counts()["ssd"] > 0


def test_imported_prices_apply_and_overrides_win(store: Store, tmp_path: Path) -> None:
    part_id = _priced_gpu(store)
    csv_file = tmp_path / "shop-2026-11.csv"
    csv_file.write_text(
        f"id,amount,currency,date,source\n{part_id},9999,CNY,2026-11-20,https://example.com/listing\n",
        encoding="utf-8",
    )
    store.user.save_price_list("shop-2026-11", read_price_list(csv_file, store.part_ids()))
    part = store.part(part_id)
    assert part is not None and part.price_origin == "import"
    assert (part.price.amount, part.price.currency) == (9999, "CNY")  # type: ignore[union-attr]
    store.user.set_price_override(part_id, 5, "USD")
    assert store.part(part_id).price_origin == "override"  # type: ignore[union-attr]
    store.user.clear_price_override(part_id)
    assert store.part(part_id).price_origin == "import"  # type: ignore[union-attr]
    assert store.user.price_lists()[0][0] == "shop-2026-11"
    assert store.user.delete_price_list("shop-2026-11")
    assert store.part(part_id).price_origin == "catalog"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("id,amount,currency\n", "prices.csv:1: header must name the columns id, amount, currency, date, source"),
        ("id,amount,currency,date,source\nnope,1,USD,2026-01-01,x\n", "prices.csv:2: id: 'nope' is not a part"),
        ("id,amount,currency,date,source\n{id},abc,USD,2026-01-01,x\n", "prices.csv:2: amount: expected a number"),
        ("id,amount,currency,date,source\n{id},-5,USD,2026-01-01,x\n", "prices.csv:2: amount: must be a positive"),
        ("id,amount,currency,date,source\n{id},5,EUR,2026-01-01,x\n", "prices.csv:2: currency: must be one of"),
        ("id,amount,currency,date,source\n{id},5,USD,yesterday,x\n", "prices.csv:2: date: expected a real day as"),
        ("id,amount,currency,date,source\n{id},5,USD,2026-02-30,x\n", "prices.csv:2: date: expected a real day as"),
        ("id,amount,currency,date,source\n{id},5,USD,2999-01-01,x\n", "prices.csv:2: date: 2999-01-01 is in the"),
        ("id,amount,currency,date,source\n{id},5,USD,2026-01-01,\n", "prices.csv:2: source: say where"),
        ("id,amount,currency,date,source\n{id},5,USD,2026-01-01,x,extra\n", "prices.csv:2: expected 5 columns"),
        (
            "id,amount,currency,date,source\n{id},5,USD,2026-01-01,x\n{id},6,USD,2026-01-01,x\n",
            "prices.csv:3: id: '{id}' is priced twice",
        ),
        ("id,amount,currency,date,source\n", "prices.csv:1: the price list has no rows"),
    ],
)
def test_bad_price_list_is_rejected_and_changes_nothing(store: Store, tmp_path: Path, body: str, message: str) -> None:
    part_id = _priced_gpu(store)
    before = store.parts("gpu")
    path = tmp_path / "prices.csv"
    path.write_text(body.replace("{id}", part_id), encoding="utf-8")
    with pytest.raises(PriceListError) as caught:
        read_price_list(path, store.part_ids())
    assert str(caught.value).startswith(message.replace("{id}", part_id))
    assert "\n" not in str(caught.value)
    assert store.parts("gpu") == before
    assert store.user.price_lists() == []


def test_price_list_that_is_not_text(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_bytes(b"\xff\xfe\x00\x00garbage")
    with pytest.raises(PriceListError, match=r"^prices\.csv:1: not UTF-8 text"):
        read_price_list(path, store.part_ids())


def test_new_database_is_at_the_current_schema_version(store: Store, tmp_path: Path) -> None:
    version = sqlite3.connect(tmp_path / "test.sqlite3").execute("PRAGMA user_version").fetchone()[0]
    assert version == SCHEMA_VERSION == len(MIGRATIONS)


def test_older_database_is_migrated_keeping_user_data(tmp_path: Path, catalog_copy: Path) -> None:
    db = tmp_path / "old.sqlite3"
    connection = sqlite3.connect(db, isolation_level=None)
    migrate(connection, db, MIGRATIONS[:1])
    connection.execute("INSERT INTO price_overrides VALUES ('some-part', 10, 'USD', '2026-01-01')")
    connection.close()
    store = Store.open(db, catalog_copy)
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store.user.price_lists() == []
    rows = sqlite3.connect(db).execute("SELECT part_id, amount FROM price_overrides").fetchall()
    assert rows == [("some-part", 10.0)]


def test_database_from_a_newer_version_is_refused(tmp_path: Path, catalog_copy: Path) -> None:
    db = tmp_path / "future.sqlite3"
    sqlite3.connect(db).execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer than this gpuconfig understands"):
        Store.open(db, catalog_copy)


def test_exchange_rate_published_then_user_set_then_reset(store: Store) -> None:
    published = store.exchange_rate()
    assert published is not None and not published.user_set
    assert published.source.startswith("https://")
    store.user.set_exchange_rate(7.5)
    mine = store.exchange_rate()
    assert mine is not None and mine.user_set and mine.rate == 7.5
    assert mine.convert(100, "USD", "CNY") == 750
    assert mine.convert(750, "CNY", "USD") == 100
    store.user.set_exchange_rate(None)
    assert store.exchange_rate() == published
    with pytest.raises(ValueError, match="positive"):
        store.user.set_exchange_rate(-1)


def _build(name: str = "Lab box") -> Build:
    return Build(
        name,
        (BuildLine("nvidia-geforce-rtx-4090", 2), BuildLine("amd-ryzen-9-9950x")),
        currency="CNY",
        circuit="cn-220v-10a",
        workload={"model": "llama-3-8b", "task": "lora"},
        notes="quotes: 'a' \"b\"",
    )


def test_saved_build_loads_back_equal(store: Store) -> None:
    build = _build()
    store.user.save_build(build)
    assert store.user.load_build("Lab box") == build
    assert [name for name, _ in store.user.saved_builds()] == ["Lab box"]
    changed = build.with_line("amd-ryzen-9-9950x", 0)
    store.user.save_build(changed)  # the same name replaces it
    assert store.user.load_build("Lab box") == changed
    assert len(store.user.saved_builds()) == 1


def test_saved_builds_survive_a_catalog_rebuild_and_delete(store: Store, catalog_copy: Path) -> None:
    store.user.save_build(_build("one"))
    store.user.save_build(_build("two"))
    _bump_first_price(catalog_copy, "gpu")
    assert store.refresh().rebuilt
    assert {name for name, _ in store.user.saved_builds()} == {"one", "two"}
    assert store.user.delete_build("one")
    assert not store.user.delete_build("one")
    assert [name for name, _ in store.user.saved_builds()] == ["two"]
    with pytest.raises(BuildError, match="saved build 'one': no such build"):
        store.user.load_build("one")


def test_a_build_needs_a_name_to_be_saved(store: Store) -> None:
    with pytest.raises(ValueError, match="needs a name"):
        store.user.save_build(_build("  "))
    assert store.user.saved_builds() == []


def test_a_damaged_saved_build_gives_a_clear_error(store: Store, tmp_path: Path) -> None:
    store.user.save_build(_build("good"))
    raw = sqlite3.connect(tmp_path / "test.sqlite3", isolation_level=None)
    raw.execute("INSERT INTO builds VALUES ('truncated', '2026-01-01T00:00:00', '{\"parts\": [')")
    raw.execute("INSERT INTO builds VALUES ('no parts', '2026-01-01T00:00:00', '{\"name\": \"x\"}')")
    raw.close()
    with pytest.raises(BuildError, match=r"^saved build 'truncated': the stored text is not JSON"):
        store.user.load_build("truncated")
    with pytest.raises(BuildError, match=r"^saved build 'no parts': 'parts' must be a non-empty list"):
        store.user.load_build("no parts")
    assert store.user.load_build("good") == _build("good")  # the others still load
    assert len(store.user.saved_builds()) == 3


def test_database_before_saved_builds_is_migrated_keeping_its_data(tmp_path: Path, catalog_copy: Path) -> None:
    db = tmp_path / "v2.sqlite3"
    connection = sqlite3.connect(db, isolation_level=None)
    migrate(connection, db, MIGRATIONS[:1])
    migrate(connection, db, MIGRATIONS[:2])
    connection.execute("INSERT INTO settings VALUES ('theme', 'dark')")
    connection.execute("INSERT INTO price_lists (name, imported) VALUES ('shop', '2026-01-01')")
    connection.close()
    store = Store.open(db, catalog_copy)
    assert store.user.setting("theme") == "dark"
    assert [row[0] for row in store.user.price_lists()] == ["shop"]
    assert store.user.saved_builds() == []
    store.user.save_build(_build())
    assert store.user.load_build("Lab box") == _build()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5


def test_a_catalog_table_from_before_unpriced_reasons_is_rebuilt_with_them(tmp_path: Path, catalog_copy: Path) -> None:
    db = tmp_path / "v3.sqlite3"
    store = Store.open(db, catalog_copy)
    store.close()
    connection = sqlite3.connect(db, isolation_level=None)  # as version 3 left it: no column for the reasons
    connection.execute("ALTER TABLE parts DROP COLUMN unpriced")
    connection.execute("ALTER TABLE parts DROP COLUMN unknown")
    connection.execute("PRAGMA user_version = 3")  # before the reasons (4: unpriced, 5: unknown)
    connection.close()
    store = Store.open(db, catalog_copy)
    reasons = {p.id: p.unpriced for p in store.parts("gpu") if p.unpriced}
    assert reasons and all(p.price is None for p in store.parts("gpu") if p.id in reasons)
    assert reasons.get("nvidia-gb200", "").startswith("GB200 GPUs are sold only inside")
