"""The repository's root holds what the project was asked to lay out there, and nothing left by a run.

A newcomer reads the layout from the root: the five top-level folders (``core/``,
``net/``, ``tui/``, ``themes/``, ``tests/``), the docs, and the files every Python
project of this shape has. Logs and pid files from a manual run were committed here
once (``a.err``, ``h.pid``); this test keeps the next one out. Likewise tests/ mirrors the
source tree (a test of ``core/crown/`` under ``tests/core/crown/``), and the docs stand on their
own in a clone.
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


OUTSIDE = re.compile(r"\.\./shared|\.\./\.\./|(^|[\s`(\[])(shared|components|rules)/|DESIGN\.md|/work/")
"""A path to the design brief, the rulebooks' or the components' files beside the repository (or any
absolute path of the machine it was built on): none of them is in a clone."""


def test_the_outside_check_can_fail() -> None:
    bad = ["read `../shared/DESIGN.md` first", "values from `components/aquatica.md`", "see rules/crown.txt"]
    good = ["`net/session/shared/record.py`", "tui/components/x.py", "docs/rulings-crown.md"]
    assert all(OUTSIDE.search(b) for b in bad) and not any(OUTSIDE.search(g) for g in good)


def test_the_docs_stand_on_their_own_in_a_clone() -> None:
    # A clone has no design brief or rulebook files beside it: docs cite the rulebooks by
    # name, never a path outside the repository.
    outside = OUTSIDE
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
    hits = [
        f"{p.name}:{n}" for p in pages for n, line in enumerate(p.read_text().splitlines(), 1) if outside.search(line)
    ]
    assert not hits, f"docs that point outside the repository: {hits}"


SUITE_WIDE = {
    "__init__.py",
    "conftest.py",
    "packaging.py",  # where setup.py puts each folder, for the checks below and the wheel test
    "toygame.py",  # a game every layer's tests play (core's contract, net's tables, the app)
    "type_probes.py",  # read by test_types.py
    "test_layering.py",
    "test_lint.py",
    "test_readme.py",
    "test_tree.py",
    "test_types.py",
    "test_wheel.py",
}
"""The modules at the top of tests/: checks of the whole repository and helpers every layer uses."""

OWN_FOLDERS = {"bench", "__snapshots__", "__pycache__"}
"""Folders of tests/ that mirror no package: benchmarks (they print figures) and stored snapshots."""


def test_tests_mirror_the_source_tree() -> None:
    """A test of ``core/crown/`` is under ``tests/core/crown/``, of ``tui/`` under ``tests/tui/``: every folder
    of tests/ is a package folder of the source, and the top holds only what tests the whole repository."""
    tests = ROOT / "tests"
    folders = [
        d.relative_to(tests)
        for d in tests.rglob("*")
        if d.is_dir() and not OWN_FOLDERS & set(d.relative_to(tests).parts) and any(d.glob("*.py"))
    ]
    stray = sorted(str(f) for f in folders if not (ROOT / f).is_dir())
    assert not stray, f"test folders with no source folder of the same path: {stray}"
    top = {p.name for p in tests.glob("*.py")}
    misplaced = sorted(top - SUITE_WIDE)
    assert not misplaced, f"tests at the top of tests/ that belong beside their package: {misplaced}"
    assert {"core", "net", "tui"} <= {str(f) for f in folders}


def test_the_notebook_says_what_it_is() -> None:
    """Dated runs go in one lab notebook, and the page says so before anything else: a reader who opens it
    from a reference page knows its figures are measurements of a day, not promises."""
    top = (ROOT / "docs" / "benchmarks.md").read_text().split("\n## ", 1)[0]
    assert "one lab notebook of dated runs" in top
