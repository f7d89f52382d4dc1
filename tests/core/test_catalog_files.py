"""Malformed catalog files are rejected whole, with file, line and field named in one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuconfig.core.catalog.files import CatalogError, load_catalog


def _line_of(path: Path, pattern: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if re.search(pattern, line):
            return number
    raise AssertionError(f"{pattern!r} not in {path.name}")


def _first_row_key(path: Path, key: str) -> tuple[int, str]:
    """Line number and text of `key = ...` in the first [[part]] of a file."""
    number = _line_of(path, rf"^{key}\s*=")
    return number, path.read_text(encoding="utf-8").splitlines()[number - 1]


def _replace_line(path: Path, number: int, new: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[number - 1] = new
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _error(directory: Path) -> CatalogError:
    with pytest.raises(CatalogError) as caught:
        load_catalog(directory)
    assert "\n" not in str(caught.value), "the message must be one line"
    return caught.value


def test_shipped_catalog_loads(catalog_copy: Path) -> None:
    loaded = load_catalog(catalog_copy)
    assert loaded.parts, "the shipped catalog has parts"


def test_wrong_type_names_file_line_and_field(catalog_copy: Path) -> None:
    gpu = catalog_copy / "gpu.toml"
    number, _ = _first_row_key(gpu, "memory_gb")
    _replace_line(gpu, number, 'memory_gb = "lots"')
    error = _error(catalog_copy)
    assert str(error).startswith(f"gpu.toml:{number}: memory_gb: expected a number, got 'lots'")


def test_zero_is_rejected_because_missing_figures_are_left_out(catalog_copy: Path) -> None:
    gpu = catalog_copy / "gpu.toml"
    number, _ = _first_row_key(gpu, "tdp_w")
    _replace_line(gpu, number, "tdp_w = 0")
    assert str(_error(catalog_copy)).startswith(f"gpu.toml:{number}: tdp_w: must be a positive number")


def test_toml_syntax_error_names_the_line(catalog_copy: Path) -> None:
    cpu = catalog_copy / "cpu.toml"
    number, _ = _first_row_key(cpu, "cores")
    _replace_line(cpu, number, "cores = = 16")
    error = _error(catalog_copy)
    assert str(error).startswith(f"cpu.toml:{number}: not valid TOML")


def test_missing_required_field(catalog_copy: Path) -> None:
    psu = catalog_copy / "psu.toml"
    number, _ = _first_row_key(psu, "watts")
    _replace_line(psu, number, "")
    error = _error(catalog_copy)
    assert error.problems[0].file == "psu.toml"
    assert error.problems[0].field == "watts"
    assert "required field is missing" in str(error)


def test_unknown_field_is_a_typo(catalog_copy: Path) -> None:
    ssd = catalog_copy / "ssd.toml"
    number, line = _first_row_key(ssd, "capacity_gb")
    _replace_line(ssd, number, line.replace("capacity_gb", "capacity_gib"))
    error = _error(catalog_copy)
    assert (error.problems[0].file, error.problems[0].line) == ("ssd.toml", number)
    assert "capacity_gib: unknown field for kind ssd" in str(error)


def test_choice_outside_its_list(catalog_copy: Path) -> None:
    dock = catalog_copy / "dock.toml"
    number, _ = _first_row_key(dock, "link")
    _replace_line(dock, number, 'link = "Thunderbolt 9"')
    assert str(_error(catalog_copy)).startswith(f"dock.toml:{number}: link: 'Thunderbolt 9' is not one of")


def test_price_in_an_unknown_currency(catalog_copy: Path) -> None:
    path = catalog_copy / "gpu.toml"
    number = _line_of(path, r'^price = \{.*currency = "USD"')
    line = path.read_text(encoding="utf-8").splitlines()[number - 1]
    _replace_line(path, number, line.replace('currency = "USD"', 'currency = "EUR"'))
    assert str(_error(catalog_copy)).startswith(f"gpu.toml:{number}: price: currency must be one of USD, CNY")


def test_row_without_sources(catalog_copy: Path) -> None:
    ram = catalog_copy / "ram.toml"
    text = ram.read_text(encoding="utf-8")
    start = text.index("sources = [")
    end = text.index("]", text.index("}", start)) + 1
    ram.write_text(text[:start] + "sources = []" + text[end:], encoding="utf-8")
    error = _error(catalog_copy)
    assert error.problems[0].field == "sources"
    assert "every row needs at least one source" in str(error)


def test_duplicate_id_points_at_both_rows(catalog_copy: Path) -> None:
    case = catalog_copy / "case.toml"
    text = case.read_text(encoding="utf-8")
    first = text[text.index("[[part]]") : text.index("[[part]]", text.index("[[part]]") + 1)]
    case.write_text(text + "\n" + first, encoding="utf-8")
    error = _error(catalog_copy)
    assert "id: " in str(error)
    assert "already used at case.toml:" in str(error)


def test_cloud_instance_must_name_a_catalog_gpu(catalog_copy: Path) -> None:
    cloud = catalog_copy / "cloud.toml"
    number, _ = _first_row_key(cloud, "gpu")
    _replace_line(cloud, number, 'gpu = "nvidia-imaginary-9000"')
    assert "gpu: 'nvidia-imaginary-9000' is not a GPU in gpu.toml" in str(_error(catalog_copy))


def test_file_that_is_not_utf8(catalog_copy: Path) -> None:
    (catalog_copy / "motherboard.toml").write_bytes(b'[[part]]\nname = "\xff\xfe"\n')
    assert str(_error(catalog_copy)).startswith("motherboard.toml:2: not UTF-8 text")


def test_missing_catalog_file(catalog_copy: Path) -> None:
    (catalog_copy / "cloud.toml").unlink()
    assert str(_error(catalog_copy)) == "cloud.toml: catalog file is missing"


def test_bad_motherboard_slot(catalog_copy: Path) -> None:
    board = catalog_copy / "motherboard.toml"
    text = board.read_text(encoding="utf-8")
    patched = re.sub(r"lanes = 16", "lanes = 12", text, count=1)
    assert patched != text
    board.write_text(patched, encoding="utf-8")
    error = _error(catalog_copy)
    assert error.problems[0].field.startswith("x16_slots[")
    assert "lanes must be one of (1, 2, 4, 8, 16), got 12" in str(error)
