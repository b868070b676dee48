"""The import graph is the one docs/architecture.md states ("One-way dependencies").

Read from the source with ``ast`` (every ``import`` and ``from ... import``, relative
ones resolved, those under ``if TYPE_CHECKING:`` too: an annotation is a dependency
a reader follows), not from what happens to be imported at run time:

- the layers run one way, in the order the page gives (``tui → net → core``): no
  module imports from a layer above its own;
- ``net`` reaches a game only through the contract: it imports no per-game core
  package (``coldwater.core.<game>`` for a name the registry lists) and its source,
  comments and docstrings included, names no game.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from coldwater.core import games
from tests.packaging import REPO, package_dirs

DOC = REPO / "docs" / "architecture.md"


def _layers() -> list[str]:
    """The layers, top first, as the architecture page states them."""
    m = re.search(r"`(\w+) → (\w+) → (\w+)`", DOC.read_text())
    assert m is not None, "docs/architecture.md states the layers as `a → b → c`"
    return list(m.groups())


def _modules(layer: str) -> dict[str, Path]:
    """Every module of one layer by its installed name (``coldwater.net.fairdeal.seat``)."""
    folder = REPO / package_dirs()[f"coldwater.{layer}"]
    out: dict[str, Path] = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        name = ".".join(("coldwater", layer, *parts))
        out[name.removesuffix(".__init__")] = path
    return out


def _imports(name: str, path: Path) -> set[str]:
    """The modules `name` (at `path`) imports, absolute, each with its every parent package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            found.add(stem)
            found.update(f"{stem}.{a.name}" for a in node.names if a.name != "*")  # (a submodule, or a name in it)
    return {".".join(m.split(".")[:i]) for m in found for i in range(1, len(m.split(".")) + 1)}


def test_the_page_states_the_rules_this_test_checks() -> None:
    text = DOC.read_text()
    assert _layers() == ["tui", "net", "core"]
    assert "net` knows no game by name" in text, "the page says what the last test checks"


@pytest.mark.parametrize("layer", ["core", "net", "tui"])
def test_no_module_imports_from_a_layer_above_its_own(layer: str) -> None:
    order = _layers()
    above = [f"coldwater.{x}" for x in order[: order.index(layer)]]
    wrong = sorted(
        f"{name} imports {dep}"
        for name, path in _modules(layer).items()
        for dep in _imports(name, path)
        if dep in above
    )
    assert not wrong, "\n".join(wrong)


def test_net_imports_no_game_package_of_core() -> None:
    per_game = {f"coldwater.core.{g}" for g in games.names()}
    wrong = sorted(
        f"{name} imports {dep}"
        for name, path in _modules("net").items()
        for dep in _imports(name, path)
        if dep in per_game
    )
    assert not wrong, "\n".join(wrong)


def test_net_names_no_game() -> None:
    """Not in code, comments or docstrings: a fourth game, or a change to one, touches core/<game> only."""
    named = re.compile("|".join(re.escape(g) for g in games.names()), re.IGNORECASE)
    hits = [
        f"{path.relative_to(REPO)}:{i}: {line.strip()}"
        for path in _modules("net").values()
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if named.search(line)
    ]
    assert not hits, "\n".join(hits)


def test_the_checks_can_fail() -> None:
    """The import reader sees relative and absolute imports alike (so a clean result means something)."""
    name, path = "coldwater.net.fairdeal.seat", _modules("net")["coldwater.net.fairdeal.seat"]
    got = _imports(name, path)
    assert {"coldwater.net.fairdeal.deck", "coldwater.net.beacon", "coldwater.core.dealing"} <= got
    assert "coldwater.core" in got and "coldwater" in got
