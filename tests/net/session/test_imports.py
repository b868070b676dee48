"""The session modules' import graph has no cycle, and the host's side never imports a seat's.

Read from the source with ``ast``: every ``import`` and ``from ... import`` counts, those
inside functions and under ``if TYPE_CHECKING:`` too (an annotation is a dependency a
reader follows). A phase reaches another only through what its constructor was given,
so no phase module needs another that needs it back.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.packaging import REPO, package_dirs

PKG = "coldwater.net.session"


def _session() -> dict[str, Path]:
    """Every module of net/session by its installed name."""
    folder = REPO / package_dirs()["coldwater.net"] / "session"
    out: dict[str, Path] = {}
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        out[".".join((PKG, *parts)).removesuffix(".__init__")] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The session modules `name` imports (a name imported from a package counts as its module when it is one)."""
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
            for a in node.names:
                found.add(f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem)
    return {f for f in found if f in known and f != name}


def _graph() -> dict[str, set[str]]:
    mods = _session()
    known = set(mods)
    return {n: _imports(n, p, known) for n, p in mods.items()}


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of `graph` as a path (its first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        path.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                return path[path.index(w) :] + [w]
            if w not in state and (found := visit(w)) is not None:
                return found
        path.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state and (found := visit(v)) is not None:
            return found
    return None


def test_the_session_modules_import_one_another_without_a_cycle() -> None:
    graph = _graph()
    assert f"{PKG}.host.host" in graph and f"{PKG}.seat.peer" in graph, "the sides are where the test looks"
    found = cycle(graph)
    assert found is None, "an import cycle among the session modules: " + " → ".join(
        x.removeprefix(PKG + ".") for x in found
    )


def test_the_hosts_side_imports_nothing_of_a_seats() -> None:
    """A seat may become the host (failover), so the seat's side imports the host's; never the other way."""
    graph = _graph()
    wrong = sorted(
        f"{a} imports {b}"
        for a, deps in graph.items()
        if a.startswith(f"{PKG}.host.")
        for b in deps
        if b.startswith(f"{PKG}.seat.")
    )
    assert not wrong, wrong


def test_the_cycle_check_can_fail(tmp_path: Path) -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None
    src = tmp_path / "m.py"  # an import under TYPE_CHECKING and one inside a function both count
    src.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .x import A\ndef f():\n    from .y import B\n"
    )
    assert _imports("p.q.m", src, {"p.q.x", "p.q.y"}) == {"p.q.x", "p.q.y"}
