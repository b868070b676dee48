"""The README opens with the two fresh-machine commands, and CI runs the second."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _blocks() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return [b.strip() for b in re.findall(r"```(?:sh|bash)?\n(.*?)```", text, flags=re.S)]


def test_readme_starts_with_play_then_test_command() -> None:
    text = (ROOT / "README.md").read_text()
    first_code = text.index("```")
    # Nothing but the title precedes the two commands.
    assert text[:first_code].strip() == "# coldwater"
    play, test = _blocks()[:2]
    assert play.endswith(".venv/bin/coldwater") and "pip install" in play
    # Players get the built wheel (tests/test_wheel.py checks it), not an editable link to the checkout.
    assert " -e " not in play
    assert "'.[test]'" in test and "pytest" in test


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    test = _blocks()[1]
    ci = (ROOT / ".ci" / "run").read_text()
    assert test in ci.splitlines()
