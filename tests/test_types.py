"""The package type-checks: mypy, configured by ``[tool.mypy]`` in pyproject.toml.

The folders core/, net/, tui/ and themes/ are installed as ``coldwater.core`` and
so on (setup.py's package_dir). mypy finds modules by their place on disk and
cannot follow the import hook of an editable install, so checking ``core/``
directly would name its modules ``core.*`` while the code imports
``coldwater.core.*``. Instead the test lays out ``coldwater/<sub>`` as symlinks
to the real folders and runs ``mypy -p coldwater`` against that, which checks
every module under its installed name. Errors are reported with repository
paths (``core/state.py:12: error: ...``).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from mypy import api as mypy_api

from tests.packaging import package_dirs

ROOT = Path(__file__).resolve().parent.parent


def _package_dirs() -> dict[str, str]:
    """``coldwater.<sub>`` -> folder, exactly as setup.py installs them (without the root)."""
    return {name: folder for name, folder in package_dirs().items() if name != "coldwater"}


def _link_tree(base: Path) -> dict[str, str]:
    """Builds ``base/coldwater/<sub>`` -> the real folder, and the root package's modules in
    ``base/coldwater`` itself; returns shown path -> repo path."""
    top = base / "coldwater"
    top.mkdir()
    shown: dict[str, str] = {}
    root = package_dirs()["coldwater"]
    for module in sorted((ROOT / root).glob("*.py")):
        (top / module.name).symlink_to(module)
        shown[f"coldwater/{module.name}"] = f"{root}/{module.name}"
    for name, folder in _package_dirs().items():
        parent, _, sub = name.partition(".")
        assert parent == "coldwater" and sub and "." not in sub, name
        try:
            (top / sub).symlink_to(ROOT / folder, target_is_directory=True)
        except OSError as e:  # e.g. Windows without the symlink privilege
            pytest.skip(f"cannot make symlinks here: {e}")
        shown[f"coldwater/{sub}/"] = f"{folder}/"
    return shown


PROBES = ROOT / "tests" / "type_probes.py"
"""Deliberate mistakes at the typed seams, checked in the same mypy run."""


def run_mypy(base: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    shown = _link_tree(base)
    shutil.copy(PROBES, base / PROBES.name)
    monkeypatch.chdir(base)  # mypy prints paths relative to the working directory
    monkeypatch.setenv("MYPYPATH", str(base))
    out, err, status = mypy_api.run(
        [
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(base / ".mypy_cache"),
            "-p",
            "coldwater",
            "-m",
            PROBES.stem,
        ]
    )
    report = out + err
    for link, real in shown.items():
        report = report.replace(link, real)
    return report, status


def expected_probe_errors() -> set[tuple[int, str]]:
    """(line, error code) of every line of the probes marked ``# error: CODE``."""
    out = set()
    for n, line in enumerate(PROBES.read_text().splitlines(), 1):
        if "# error: " in line:
            out.add((n, line.rsplit("# error: ", 1)[1].strip()))
    return out


def test_package_type_checks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    report, status = run_mypy(tmp_path, monkeypatch)
    errors = [line for line in report.splitlines() if ": error: " in line]
    probe_errors = {line for line in errors if line.startswith(PROBES.name + ":")}
    assert not [line for line in errors if line not in probe_errors], "mypy found type errors:\n" + report
    # The seams refuse what they must: each marked probe line is an error with its
    # code, and no other probe line is (one mypy run checks both, for speed).
    found = {(int(line.split(":")[1]), line.rsplit("[", 1)[1].rstrip("]")) for line in probe_errors}
    assert found == expected_probe_errors(), report
    assert status == 1, report
    # Guard against a check that passes because it looked at nothing:
    # "(checked N source files)", N counting every module (and the probes).
    sources = sum(1 for d in _package_dirs().values() for _ in (ROOT / d).rglob("*.py"))
    checked = int(re.findall(r"(\d+) source files?", report)[-1])
    assert checked >= sources, report
