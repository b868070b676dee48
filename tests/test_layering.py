"""The import graph is the one docs/architecture.md states ("One-way dependencies").

Read from the source with ``ast`` (every ``import`` and ``from ... import``, relative
ones resolved, those under ``if TYPE_CHECKING:`` too: an annotation is a dependency
a reader follows), not from what happens to be imported at run time:

- the layers run one way, in the order the page gives (``tui → net → net/play → core``):
  no module imports from a layer above its own. A layer is a folder; a module belongs to
  the deepest layer folder it sits in (``net/play/table.py`` to ``net/play``, every other
  module of ``net/`` to ``net``, the LAN);
- ``net`` reaches a game only through the contract: it imports no per-game core
  package (``coldwater.core.<game>`` for a name the registry lists) and its source,
  comments and docstrings included, names no game;
- the TUI outside its games' own folders (``tui/games/<game>/``) holds the same rule: it
  imports neither a game's core package nor its folder, and names no game, nor a game's panes.

Beside it, read the same way, the maintainers' checks of the source's shape: a module over
600 lines keeps to a line budget listed here, which only shrinks, and no module reaches into
another module's object's private (``_name``) members.
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
    """The layers (folders), top first, as the architecture page states them."""
    m = re.search(r"`(\w+(?:/\w+)*(?: → \w+(?:/\w+)*)+)`", DOC.read_text())
    assert m is not None, "docs/architecture.md states the layers as `a → b → c`"
    return m.group(1).split(" → ")


def _package(layer: str) -> str:
    """A layer folder's package: ``net/play`` -> ``coldwater.net.play``."""
    return "coldwater." + layer.replace("/", ".")


def _modules(layer: str) -> dict[str, Path]:
    """Every module of one layer by its installed name (``coldwater.net.fairdeal.seat``).

    Modules of a deeper layer inside this one's folder (``net/play`` in ``net``) are not this layer's.
    """
    top, _, sub = layer.partition("/")
    folder = REPO / package_dirs()[f"coldwater.{top}"] / sub
    deeper = [_package(x) for x in _layers() if x.startswith(f"{layer}/")]
    out: dict[str, Path] = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        name = ".".join((_package(layer), *parts)).removesuffix(".__init__")
        if not any(name == d or name.startswith(f"{d}.") for d in deeper):
            out[name] = path
    return out


def _layer_of(module: str) -> str | None:
    """The deepest layer whose package holds `module` (None: outside every layer, e.g. ``coldwater``)."""
    held = [x for x in _layers() if module == _package(x) or module.startswith(f"{_package(x)}.")]
    return max(held, key=len, default=None)


def _direct_imports(name: str, path: Path) -> set[str]:
    """What `name` (at `path`) imports, absolute: each module, or each name in a module, its statements name."""
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
    return found


def _imports(name: str, path: Path) -> set[str]:
    """The modules `name` (at `path`) imports, absolute, each with its every parent package."""
    found = _direct_imports(name, path)
    return {".".join(m.split(".")[:i]) for m in found for i in range(1, len(m.split(".")) + 1)}


def test_the_page_states_the_rules_this_test_checks() -> None:
    text = DOC.read_text()
    assert _layers() == ["tui", "net", "net/play", "core"]
    assert "net` knows no game by name" in text, "the page says what the last test checks"


LAYERS = ["tui", "net", "net/play", "core"]


@pytest.mark.parametrize("layer", LAYERS)
def test_no_module_imports_from_a_layer_above_its_own(layer: str) -> None:
    """Read from what the import statements name, not their parents: importing ``coldwater.net.play.table``
    runs ``coldwater/net/__init__.py`` (lazy, importing nothing), but ``from coldwater import net`` is a use
    of the LAN's exports, and ``from coldwater.net import lan`` of a LAN module."""
    order = _layers()
    above = set(order[: order.index(layer)])
    wrong = sorted(
        f"{name} imports {dep}"
        for name, path in _modules(layer).items()
        for dep in _direct_imports(name, path)
        if _layer_of(dep) in above
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


# ---- the TUI names no game outside its games' own folders ----
NOT_YET: dict[str, int] = {}
"""Generic modules allowed, for a while, some lines that name a game (none now): each with at most
that many lines; a count only shrinks, and a module at 0 leaves the list."""


def _generic_tui() -> dict[str, Path]:
    """Every module of the app outside ``tui/games/<game>/`` (a game's own folder, found by its registry name)."""
    own = tuple(f"coldwater.tui.games.{g}" for g in games.names())
    return {
        name: path
        for name, path in _modules("tui").items()
        if not any(name == o or name.startswith(f"{o}.") for o in own)
    }


def _names_games(text: str) -> list[tuple[int, str]]:
    """Each line of `text` that names a game: its registry name or its title, any case."""
    words = [w for g in games.names() for w in (g, games.get(g).title)]
    named = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    return [(i, line.strip()) for i, line in enumerate(text.splitlines(), 1) if named.search(line)]


def test_a_generic_tui_module_imports_no_game_of_its_own() -> None:
    """The app reaches a game's own modules (core/<game>/, tui/games/<game>/) only by its name, through the
    registry and tui/games (``words_of``, the catalog's screens, the tutor's books), never by an import."""
    own = {f"coldwater.core.{g}" for g in games.names()} | {f"coldwater.tui.games.{g}" for g in games.names()}
    wrong = sorted(
        f"{name} imports {dep}" for name, path in _generic_tui().items() for dep in _imports(name, path) if dep in own
    )
    assert not wrong, "\n".join(wrong)


def test_a_generic_tui_module_names_no_game() -> None:
    """Not in code, comments or docstrings, as net: a game's facts (its units, options, milestones, lessons)
    come from its own words and lessons objects or its engine, and a fourth game touches its own folders."""
    wrong = []
    for name, path in _generic_tui().items():
        rel = path.relative_to(REPO).as_posix()
        hits = _names_games(path.read_text())
        if len(hits) > NOT_YET.get(rel, 0):
            wrong += [f"{rel}:{i}: {line}" for i, line in hits]
        elif rel in NOT_YET and not hits:
            wrong.append(f"{rel}: names no game now; remove it from NOT_YET")
    assert not wrong, "\n".join(wrong)


def _pane_titles(game: str) -> set[str]:
    """The titles of a game's own panes, as its folder declares them (``Pane("ocean", "Ocean", "O")``)."""
    titles: set[str] = set()
    for path in (REPO / "tui" / "games" / game).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) == "Pane":
                given = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "title")]
                titles.update(a.value for a in given if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return titles


def _names_panes(text: str) -> list[str]:
    """The games whose panes `text` names: two or more of one game's pane titles, each a whole string literal.
    One alone is a word the app may use for its own (the new game form's "Players" is the seat count); a
    game's set of panes in generic code is that game's (the keymap once listed "Ocean", "Players", "Goals")."""
    literals = {n.value for n in ast.walk(ast.parse(text)) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return [g for g in games.names() if len(_pane_titles(g) & literals) >= 2]


def test_a_generic_tui_module_names_no_games_panes() -> None:
    """The names check reads game names and titles; a game's panes are its own words too (what a pane key
    opens comes from the game's screen, ``PANES``)."""
    wrong = [
        f"{path.relative_to(REPO).as_posix()}: names {g}'s panes"
        for path in _generic_tui().values()
        for g in _names_panes(path.read_text())
    ]
    assert not wrong, "\n".join(wrong)


def test_the_tui_checks_can_fail() -> None:
    """A line naming a game by name or title is seen; a game's own folder is not generic."""
    assert [i for i, _ in _names_games("x = 1\nif name == 'Crown': pass\n# Fisheries of Gloucester\n")] == [2, 3]
    panes = {g: sorted(_pane_titles(g)) for g in games.names() if len(_pane_titles(g)) >= 2}
    assert panes, "a game declares its panes"
    g, titles = next(iter(panes.items()))
    assert _names_panes(f"LABELS = {tuple(titles)!r}\n") == [g]
    assert _names_panes(f"yield Cycler({titles[0]!r})\n# {titles[1]}\n") == []
    generic = _generic_tui()
    assert "coldwater.tui.screens.newgame" in generic and "coldwater.tui.games.words" in generic
    assert not any(n.startswith("coldwater.tui.games.crown") for n in generic)
    imports = _imports("coldwater.tui.games.crown.words", REPO / "tui" / "games" / "crown" / "words.py")
    assert "coldwater.core.crown" in imports


def test_the_checks_can_fail() -> None:
    """The import reader sees relative and absolute imports alike (so a clean result means something)."""
    name, path = "coldwater.net.fairdeal.seat", _modules("net")["coldwater.net.fairdeal.seat"]
    got = _imports(name, path)
    assert {"coldwater.net.fairdeal.deck", "coldwater.net.beacon", "coldwater.core.dealing"} <= got
    assert "coldwater.core" in got and "coldwater" in got


def test_the_layers_are_told_apart() -> None:
    """A module is in the deepest layer folder it sits in, so a local-play module reaching the LAN is seen."""
    assert _layer_of("coldwater.net.play.table") == "net/play"
    assert _layer_of("coldwater.net.session.host.host") == _layer_of("coldwater.net") == "net"
    assert _layer_of("coldwater.tui.app") == "tui" and _layer_of("coldwater") is None
    play, lan = _modules("net/play"), _modules("net")
    assert "coldwater.net.play.table" in play and "coldwater.net.play.table" not in lan
    assert "coldwater.net.lan" in lan and not set(play) & set(lan)
    # `from coldwater import net` names the LAN's exports, which are above local play
    # `from coldwater import net` names the LAN's exports (a use of the layer `net`), not only a parent package
    assert "coldwater.net" in _direct_imports("coldwater.tui.cli", REPO / "tui" / "cli.py")


# ---- the maintainers' checks: a long module keeps to a budget, no private access across modules ----
SOURCE_FOLDERS = ("core", "net", "tui", "themes")
"""The package's own source folders (tests are not held to these checks)."""

LONG = 600
"""Lines past which a module needs a budget below."""

BUDGET: dict[str, int] = {
    "net/fairdeal/seat.py": 802,
}
"""The modules allowed past LONG, each at most its size when it was last measured. A budget only
shrinks: a module that grows past it is split (or its growth argued here, in review); one that
drops to LONG or below leaves this list. The aim is no entry but the fair seat's state machine."""


def _sources() -> list[Path]:
    """Every module of the package's source folders."""
    dirs = package_dirs()
    return sorted(p for top in SOURCE_FOLDERS for p in (REPO / dirs[f"coldwater.{top}"]).rglob("*.py"))


def test_a_long_module_keeps_to_its_budget() -> None:
    """A module over LONG lines has a line budget here that it keeps (the size, not a sentence in its
    docstring, is what the test holds); a budget for a module back under LONG is removed."""
    wrong = []
    seen = set()
    for path in _sources():
        text = path.read_text()
        lines = len(text.splitlines())
        rel = path.relative_to(REPO).as_posix()
        if lines <= LONG:
            if rel in BUDGET:
                wrong.append(f"{rel}: {lines} lines now; remove its budget ({BUDGET[rel]})")
            continue
        seen.add(rel)
        budget = BUDGET.get(rel)
        if budget is None:
            wrong.append(f"{rel}: {lines} lines, over {LONG} with no budget: split it")
        elif lines > budget:
            wrong.append(f"{rel}: {lines} lines, over its budget of {budget}: split it")
    wrong += [f"{rel}: budgeted but not found" for rel in sorted(set(BUDGET) - seen) if not (REPO / rel).exists()]
    assert not wrong, "\n".join(wrong)


def _own_private_names(tree: ast.Module) -> set[str]:
    """The private names a module's own classes have: defined in a class body (a method, class attribute or
    field), assigned as ``self._x`` / ``cls._x``, or used on ``self`` (inherited from a base elsewhere)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(item.name)
                elif isinstance(item, ast.Assign):
                    names.update(t.id for t in item.targets if isinstance(t, ast.Name))
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            names.add(node.attr)
    return names


def _library_modules(tree: ast.Module) -> set[str]:
    """Names bound by ``import x`` of a module not ours: ``os._exit`` is the standard library's own
    documented name, not another object's member."""
    return {
        a.asname or a.name.partition(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for a in node.names
        if a.name.partition(".")[0] != "coldwater"
    }


def _private_reaches(source: str, filename: str = "<source>") -> list[str]:
    """Each ``x._name`` (not a dunder) in `source` where ``x`` is not ``self``, ``cls`` or ``super()`` and
    ``_name`` is not one of the module's own: a reach into another module's object's private member."""
    tree = ast.parse(source, filename)
    own = _own_private_names(tree)
    libraries = _library_modules(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        name, of = node.attr, node.value
        if not name.startswith("_") or name.startswith("__") or name in own:
            continue
        if isinstance(of, ast.Name) and (of.id in ("self", "cls") or of.id in libraries):
            continue
        if isinstance(of, ast.Call) and isinstance(of.func, ast.Name) and of.func.id == "super":
            continue
        found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
    return sorted(found)


def test_no_module_reaches_into_another_modules_private_members() -> None:
    """A ``_name`` is its module's own: another module uses a public, documented name its owner offers
    (a method or property), so the owner can change its insides without breaking a reader elsewhere."""
    found = [hit for path in _sources() for hit in _private_reaches(path.read_text(), str(path.relative_to(REPO)))]
    assert not found, "\n".join(found)


def test_the_private_check_can_fail() -> None:
    """It sees a reach into another module's object, and lets a module's own names, ``self``, ``super()``
    and a library's module through."""
    source = (
        "import os\n"
        "class A(Base):\n"
        "    _kept = 1\n"
        "    def __init__(self) -> None:\n"
        "        self._mine = 0\n"
        "    def _helper(self) -> None:\n"
        "        super()._setup()\n"
        "        self._inherited()\n"
        "    def same(self, other: A) -> None:\n"
        "        other._mine, other._kept, other._helper(), other._inherited()\n"
        "        os._exit(0)\n"
        "    def across(self, seat: Seat) -> None:\n"
        "        seat._told, self.seat._chain(), seat.__class__\n"
    )
    assert _private_reaches(source, "m.py") == ["m.py:13: seat._told", "m.py:13: self.seat._chain"]
