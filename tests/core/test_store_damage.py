"""A damaged, truncated or unwritable database, or a stored value no check lets in: every command says which
file in one line (exit 2), and `gpuconfig data repair` moves it aside, rebuilds it and keeps what it can."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gpuconfig.core.build.model import Build, BuildLine
from gpuconfig.core.catalog.model import Price
from gpuconfig.core.paths import catalog_dir
from gpuconfig.core.store_file import DB_NAME
from gpuconfig.core.userdata.store import Store, repair_store
from gpuconfig.core.workload.fit import HeadroomError, default_headroom
from gpuconfig.probe.history import HISTORY_FILE

AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
BUILD = Build("lab box", (BuildLine("nvidia-geforce-rtx-4090", 2), BuildLine("amd-ryzen-9-9950x")))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuconfig", *args], capture_output=True, text=True, timeout=120, check=False
    )


def one_line_naming(result: subprocess.CompletedProcess[str], path: Path, words: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"gpuconfig: {path}: {words}"), result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "gpuconfig data repair" in result.stderr
    assert result.stdout == ""


@pytest.fixture
def user_db(_isolated_data_dir: Path) -> Path:
    """The user's database holding a saved build, a price override, an imported list and the user's rate."""
    _isolated_data_dir.mkdir(parents=True, exist_ok=True)
    path = _isolated_data_dir / DB_NAME
    store = Store.open(path, catalog_dir())
    store.user.save_build(BUILD)
    store.user.set_price_override("nvidia-geforce-rtx-4090", 1750.0, "USD")
    store.user.save_price_list("shop", [("amd-ryzen-9-9950x", Price(4100.0, "CNY", "2026-11-01", "a quote"))])
    store.user.set_exchange_rate(7.25)
    store.close()  # the last connection: the log is folded into the file
    return path


def kept_everything(path: Path) -> None:
    store = Store.open(path, catalog_dir())
    try:
        assert store.user.load_build("lab box") == BUILD
        gpu, cpu = store.part("nvidia-geforce-rtx-4090"), store.part("amd-ryzen-9-9950x")
        assert gpu is not None and gpu.price_origin == "override" and gpu.price is not None
        assert (gpu.price.amount, gpu.price.currency) == (1750.0, "USD")
        assert cpu is not None and cpu.price_origin == "import" and cpu.price is not None
        assert cpu.price.amount == 4100.0
        rate = store.exchange_rate()
        assert rate is not None and rate.user_set and rate.rate == 7.25
    finally:
        store.close()


def repair_json() -> list[dict[str, object]]:
    result = run("data", "repair", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_garbage_bytes_are_named_then_moved_aside_whole_and_rebuilt(user_db: Path) -> None:
    garbage = os.urandom(64 * 1024)
    user_db.write_bytes(garbage)
    one_line_naming(run("catalog", "list", "--kind", "gpu"), user_db, "damaged (file is not a database)")
    one_line_naming(run("catalog", "rate", "--json"), user_db, "damaged")
    store_report, history_report = repair_json()
    assert store_report["file"] == str(user_db) and store_report["repaired"] is True
    assert Path(str(store_report["moved_to"])).read_bytes() == garbage  # the user's file is kept as it was
    assert store_report["not_kept"], "what could not be read is said"
    assert history_report == {"file": str(user_db.parent / HISTORY_FILE), "repaired": False}
    listed = run("catalog", "list", "--kind", "gpu", "--json")
    assert listed.returncode == 0 and len(json.loads(listed.stdout)) > 40


def test_a_truncated_copy_is_named_and_the_repair_keeps_the_users_data(user_db: Path) -> None:
    data = user_db.read_bytes()
    user_db.write_bytes(data[: len(data) // 2])
    one_line_naming(run("build", "check", "nothing.json"), user_db, "damaged (database disk image is malformed)")
    result = run("data", "repair")
    assert result.returncode == 0, result.stderr
    assert f"{user_db}: rebuilt; the damaged file is kept as {user_db}.damaged-" in result.stdout
    assert "1 price_overrides, 1 price_lists, 1 imported_prices, 1 builds, 1 settings" in result.stdout
    kept_everything(user_db)
    again = run("data", "repair")
    assert again.returncode == 0 and f"{user_db}: sound, left as it is" in again.stdout


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (b"\x00\xff", "setting 'usd_cny_rate' holds b'\\x00\\xff', not text"),
        ("inf", "setting 'usd_cny_rate': exchange rate must be a finite number, got inf"),
        ("seven", "setting 'usd_cny_rate' holds 'seven', not a number"),
    ],
)
def test_a_stored_setting_of_the_wrong_type_is_named_and_repaired(user_db: Path, value: object, words: str) -> None:
    raw = sqlite3.connect(user_db, isolation_level=None)
    raw.execute("INSERT INTO settings VALUES ('theme', 'dark')")
    raw.execute("UPDATE settings SET value = ? WHERE key = 'usd_cny_rate'", (value,))
    raw.close()
    one_line_naming(run("catalog", "rate", "--json"), user_db, words)
    store_report = repair_json()[0]
    assert store_report["kept"] == {
        "price_overrides": 1,
        "price_lists": 1,
        "imported_prices": 1,
        "builds": 1,
        "settings": 1,
    }
    assert store_report["not_kept"] == [f"settings: {words}"]
    rate = json.loads(run("catalog", "rate", "--json").stdout)
    assert rate["user_set"] is False  # back to the published rate; the theme was kept
    store = Store.open(user_db, catalog_dir())
    assert store.user.setting("theme") == "dark"
    store.close()


def test_an_infinite_price_stored_by_an_older_gpuconfig_is_named(user_db: Path) -> None:
    raw = sqlite3.connect(user_db, isolation_level=None)
    raw.execute("UPDATE price_overrides SET amount = 1e999")  # SQLite reads 1e999 as infinity
    raw.close()
    one_line_naming(
        run("catalog", "show", "nvidia-geforce-rtx-4090"),
        user_db,
        "price_overrides: the price of 'nvidia-geforce-rtx-4090' must be a finite number, got inf",
    )


@pytest.mark.skipif(AS_ROOT, reason="root reads and writes a file or folder whatever its mode bits say")
def test_a_read_only_file_is_named_and_moved_aside(user_db: Path) -> None:
    user_db.chmod(0o444)
    one_line_naming(run("catalog", "rate", "--set", "7"), user_db, "cannot be written")
    repair_json()
    kept_everything(user_db)


@pytest.mark.skipif(AS_ROOT, reason="root reads and writes a file or folder whatever its mode bits say")
def test_a_read_only_folder_is_named_and_nothing_is_lost(user_db: Path) -> None:
    before = user_db.read_bytes()
    user_db.parent.chmod(0o555)
    try:
        one_line_naming(run("catalog", "rate"), user_db, "cannot be written")
        result = run("data", "repair")
        assert result.returncode == 2 and "cannot be moved aside" in result.stderr
        assert result.stderr.count("\n") == 1
    finally:
        user_db.parent.chmod(0o755)
    assert user_db.read_bytes() == before


def test_a_repair_that_cannot_rebuild_puts_the_damaged_file_back(user_db: Path, catalog_copy: Path) -> None:
    damaged = b"not a database" * 100
    user_db.write_bytes(damaged)
    (catalog_copy / "schema.toml").write_text("kinds = = broken", encoding="utf-8")
    with pytest.raises(ValueError, match="Invalid value"):  # no schema to rebuild the catalog from
        repair_store(user_db, catalog_copy)
    assert user_db.read_bytes() == damaged
    assert [p.name for p in user_db.parent.iterdir()] == [DB_NAME]


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("80", "setting 'fit_headroom': headroom: must be at most 50.0, got 80.0"),
        ("nan", "setting 'fit_headroom': headroom: must be a finite number, got nan"),
        ("ten", "setting 'fit_headroom' holds 'ten', not a number"),
    ],
)
def test_a_damaged_headroom_is_named_and_the_measured_one_comes_back(user_db: Path, value: str, words: str) -> None:
    raw = sqlite3.connect(user_db, isolation_level=None)
    raw.execute("INSERT OR REPLACE INTO settings VALUES ('fit_headroom', ?)", (value,))
    raw.close()
    one_line_naming(run("catalog", "rate", "--json"), user_db, words)
    assert f"settings: {words}" in repair_json()[0]["not_kept"]
    store = Store.open(user_db, catalog_dir())
    assert store.user.headroom() == default_headroom()
    store.user.set_headroom(5)
    assert store.user.headroom().share == pytest.approx(0.05) and store.user.headroom().why == "set by you"
    with pytest.raises(HeadroomError):
        store.user.set_headroom(-1)
    store.close()
