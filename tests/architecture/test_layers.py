"""Imports run one way: games never import the platform, the shared vocabulary imports
neither, the platform reaches games only through the catalog, and no two packages
import each other (directly or through others).

Every ``import`` statement counts, at module level or inside a function; doctests and
the catalog's loading of the built-in games by name (``importlib``) do not.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "rummykit"

GAMES = ("gin", "rami", "carousel")
PLATFORM = ("server", "terminal", "sim", "rl", "cli", "__main__")
SHARED = (
    "cards",
    "melds",
    "errors",
    "core",
    "options",
    "match",
    "hand_engine",
    "table_game",
    "catalog",
    "bots",
    "rules",
    "i18n",
    "refusal_facts",
    "refusals",
    "screen_words",
    "memo",
)


def _unit(module: str) -> str:
    """The package a module belongs to: ``games.gin``, ``server``, ``cards``..."""
    parts = module.split(".")[1:]
    if not parts:
        return "rummykit"
    if parts[0] == "games" and len(parts) > 1:
        return f"games.{parts[1]}"
    return parts[0]


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC.parent).with_suffix("")
        parts = list(relative.parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] == "rummykit"}


def _edges() -> dict[str, set[str]]:
    known = {_unit(module) for module, _ in _modules()}
    graph: dict[str, set[str]] = {unit: set() for unit in known}
    for module, path in _modules():
        source = _unit(module)
        for name in _imports(path):
            target = _unit(name)
            if target in known and target != source:
                graph[source].add(target)
    return graph


def test_games_never_import_the_platform() -> None:
    graph = _edges()
    for game in GAMES:
        wrong = graph[f"games.{game}"] & set(PLATFORM)
        assert not wrong, f"games.{game} imports the platform: {sorted(wrong)}"


@pytest.mark.parametrize("unit", SHARED)
def test_the_shared_vocabulary_imports_no_game_and_no_platform(unit: str) -> None:
    graph = _edges()
    wrong = {t for t in graph.get(unit, set()) if t.startswith("games.") or t in PLATFORM}
    assert not wrong, f"{unit} imports {sorted(wrong)}"


@pytest.mark.parametrize("unit", ["server", "terminal", "sim", "cli"])
def test_the_platform_reaches_games_only_through_the_catalog(unit: str) -> None:
    graph = _edges()
    wrong = {t for t in graph.get(unit, set()) if t.startswith("games.")}
    assert not wrong, f"{unit} imports {sorted(wrong)} directly"


def test_no_import_cycle_between_packages() -> None:
    graph = _edges()
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(unit: str) -> None:
        state[unit] = 1
        path.append(unit)
        for target in sorted(graph[unit]):
            if state.get(target) == 1:
                cycle = [*path[path.index(target) :], target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        path.pop()
        state[unit] = 2

    for unit in sorted(graph):
        if unit not in state:
            visit(unit)
