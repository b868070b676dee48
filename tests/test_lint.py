"""The code passes ruff's linter and is formatted as ruff formats it (settings in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, str(ROOT)], capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def test_ruff_finds_nothing() -> None:
    done = ruff("check", "--no-cache", "--output-format", "concise")
    assert done.returncode == 0, "ruff check:\n" + done.stdout + done.stderr


def test_the_code_is_formatted() -> None:
    done = ruff("format", "--no-cache", "--check")
    assert done.returncode == 0, "ruff format --check (run `ruff format` to fix):\n" + done.stdout + done.stderr
