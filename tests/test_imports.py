"""The dependency rules: import-linter's contracts in pyproject.toml hold (the core knows no window, torch runs
only in the worker programs, the core's capabilities are layered), and no package imports one that imports
it back."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def _unit(module: str) -> str:
    """What a module counts in: each package and shared module of gpuconfig.core on its own, else the first
    level under gpuconfig (ui, probe, cli, ...)."""
    parts = module.split(".")
    return ".".join(parts[: 3 if parts[1:2] == ["core"] else 2])


def _cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The groups of nodes that reach each other (Tarjan's strongly connected components), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while (top := stack.pop()) != node:
                group.append(top)
            if group:
                groups.append(sorted([*group, node]))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def _graph(*, type_checking: bool) -> grimp.ImportGraph:
    return grimp.build_graph("gpuconfig", cache_dir=None, exclude_type_checking_imports=not type_checking)


def test_the_import_contracts_hold() -> None:
    run = subprocess.run(
        [sys.executable, "-c", LINT, "--no-cache", "--no-logo", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_no_package_imports_one_that_imports_it_back() -> None:
    graph = _graph(type_checking=True)
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if _unit(imported) != _unit(module):
                edges.setdefault(_unit(module), set()).add(_unit(imported))
    cycles = _cycles(edges)
    assert not cycles, "packages that import each other: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_no_module_imports_one_that_imports_it_back_at_run_time() -> None:
    # An import only for type hints (under TYPE_CHECKING) is how a module names the one that holds it.
    graph = _graph(type_checking=False)
    edges = {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    cycles = _cycles(edges)
    assert not cycles, "modules that import each other: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_finder_finds_a_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert _cycles(edges) == [["a", "b", "c"]]
    assert _unit("gpuconfig.core.catalog.store") == "gpuconfig.core.catalog"
    assert _unit("gpuconfig.core.money") == "gpuconfig.core.money"
    assert _unit("gpuconfig.ui.build_tab") == "gpuconfig.ui"
    assert _unit("gpuconfig") == "gpuconfig"
