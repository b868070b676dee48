"""``coldwater.net``'s public names: each one listed for mypy (the TYPE_CHECKING block), in
``__all__`` and in the lazy loader's table, and each loads at run time."""

from __future__ import annotations

import ast
from pathlib import Path

import coldwater.net as net

INIT = Path(net.__file__)


def test_every_export_is_typed_listed_and_loads() -> None:
    tree = ast.parse(INIT.read_text())
    typed: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom):
                    typed |= {alias.asname or alias.name for alias in stmt.names}
    lazy = set(net._EXPORTS)
    assert typed == lazy == set(net.__all__), (typed ^ lazy, lazy ^ set(net.__all__))
    for name in sorted(lazy):
        assert getattr(net, name) is not None, name
