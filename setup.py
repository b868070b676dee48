"""Which folders become which packages; everything else is in pyproject.toml.

The repository's top-level folders are installed under one name, ``coldwater``:
``core/`` as ``coldwater.core``, ``net/`` as ``coldwater.net`` and so on, and
``tui/root/`` as the ``coldwater`` package itself. pyproject.toml cannot say
"every package found under these folders, renamed", so this file does: the
packages are discovered, never listed by hand, and a new subpackage reaches the
wheel without anyone remembering to add it (tests/test_wheel.py compares the
built wheel with the tree).
"""

from setuptools import find_namespace_packages, setup

FOLDERS = ("core", "net", "tui", "themes")
"""Top-level folders installed as ``coldwater.<folder>``."""
ROOT = "tui/root"
"""The folder installed as ``coldwater`` (the version and ``__main__``)."""

# Namespace discovery, so data folders (core/crown/data, tui/help) are packages too and
# their files are package data, not files setuptools warns it may drop.
found = find_namespace_packages(
    include=[f"{f}{tail}" for f in FOLDERS for tail in ("", ".*")], exclude=["tui.root", "*.__pycache__"]
)
setup(
    package_dir={"coldwater": ROOT, **{f"coldwater.{f}": f for f in FOLDERS}},
    packages=["coldwater", *(f"coldwater.{p}" for p in sorted(found))],
)
