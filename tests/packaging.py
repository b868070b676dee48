"""What setup.py installs where, read from setup.py itself (so tests never keep a second list).

setup.py names the folders installed as ``coldwater.<folder>`` (``FOLDERS``) and the
folder installed as ``coldwater`` (``ROOT``); both are plain literals, read here with
``ast`` rather than by running setup.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _literal(name: str) -> object:
    tree = ast.parse((REPO / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(f"setup.py assigns no {name}")


def package_dirs() -> dict[str, str]:
    """Package name -> repository folder: ``coldwater`` -> ``tui/root``, ``coldwater.core`` -> ``core``, ..."""
    folders = _literal("FOLDERS")
    root = _literal("ROOT")
    assert isinstance(folders, tuple) and isinstance(root, str)
    return {"coldwater": root, **{f"coldwater.{f}": str(f) for f in folders}}
