"""The repository's root holds what the project was asked to lay out there, and nothing left by a run.

A newcomer reads the layout from the root: the five top-level folders (``core/``,
``net/``, ``tui/``, ``themes/``, ``tests/``), the docs, and the files every Python
project of this shape has. Logs and pid files from a manual run were committed here
once (``a.err``, ``h.pid``); this test keeps the next one out.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

ALLOWED = {
    ".ci",
    ".gitignore",
    "CHANGELOG.md",
    "LICENSE",
    "README.md",
    "core",
    "docs",
    "net",
    "pyproject.toml",
    "setup.py",
    "tests",
    "themes",
    "tui",
}
"""Every name tracked at the top of the repository; a new one is a decision to add here."""


def _tracked_top_level() -> set[str]:
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True, text=True).stdout
    return {path.split("/", 1)[0] for path in out.split("\0") if path}


@pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(),
    reason="needs a git checkout to list tracked files (an unpacked sdist has none)",
)
def test_the_root_holds_only_the_projects_own_files() -> None:
    extra = _tracked_top_level() - ALLOWED
    assert not extra, f"files at the repository root that belong elsewhere (or in ALLOWED): {sorted(extra)}"


def test_the_docs_stand_on_their_own_in_a_clone() -> None:
    # A clone has no design brief or rulebook files beside it: docs cite the rulebooks by
    # name, never a path outside the repository.
    outside = re.compile(r"\.\./shared|shared/(rules|components|DESIGN)")
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
    hits = [
        f"{p.name}:{n}" for p in pages for n, line in enumerate(p.read_text().splitlines(), 1) if outside.search(line)
    ]
    assert not hits, f"docs that point outside the repository: {hits}"
