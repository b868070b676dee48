"""``coldwater.tui.serve``'s public names, and what importing the package costs a served app.

Each public name is listed for mypy (the TYPE_CHECKING block), in ``__all__`` and in the lazy loader's
table, and loads at run time. A served app imports the package's ``applink`` at every start: that
must not load asyncssh or the server (the app's memory per session is a figure the issue holds)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import coldwater.tui.serve as serve

INIT = Path(serve.__file__)


def test_every_export_is_typed_listed_and_loads() -> None:
    tree = ast.parse(INIT.read_text())
    typed: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom):
                    typed |= {alias.asname or alias.name for alias in stmt.names}
    lazy = set(serve._EXPORTS)
    assert typed == lazy == set(serve.__all__), (typed ^ lazy, lazy ^ set(serve.__all__))
    modules = {p.stem for p in INIT.parent.glob("*.py")}
    assert not lazy & modules, "an export named as a module is hidden by that module once it is imported"
    for name in sorted(lazy):
        assert getattr(serve, name) is not None, name


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        serve.Nothing  # type: ignore[attr-defined]  # noqa: B018


def test_the_apps_end_loads_neither_asyncssh_nor_the_server() -> None:
    code = (
        "import sys\n"
        "from coldwater.tui.serve import applink, control\n"
        "from coldwater.tui.serve.history import ordinal\n"
        "print(sorted(m for m in sys.modules if m == 'asyncssh' or m.startswith('coldwater.tui.serve.')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60).stdout
    assert out.strip() == str(
        [
            "coldwater.tui.serve.applink",
            "coldwater.tui.serve.control",
            "coldwater.tui.serve.history",
            "coldwater.tui.serve.turnwire",  # the turn-based tables' messages, which the app speaks too
        ]
    )
