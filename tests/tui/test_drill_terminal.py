"""The drill by keys in a real terminal (issue 48): tmux starts the installed `coldwater`, the
menu's x opens the drill over a reviewed game's mistakes, the better choice passes, the
mistake made in the game is refused, s shows the solution. Every key waits for the screen
that asks for it (tests/tui/terminal.py); nothing waits for a fixed time."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from coldwater.core import games
from coldwater.tui import drillstore
from coldwater.tui.keymap import CHOICE_KEYS
from coldwater.tui.screens.drill import drill_items
from tests.tui.terminal import TMUX, Terminal
from tests.tui.test_drill import reviewed

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
COLDWATER = Path(sys.executable).with_name("coldwater")
KEYS = [k for k in CHOICE_KEYS if k not in "tsn"]
"""The drill's choice keys: the table's, less its own t, s and n."""


@pytest.fixture
def term(home: Path, tmp_path: Path) -> Iterator[Terminal]:
    assert COLDWATER.exists(), f"the console script is not installed at {COLDWATER}"
    home.mkdir(parents=True, exist_ok=True)
    rec, r = reviewed()
    drillstore.remember(rec, r)  # written under this test's COLDWATER_HOME
    t = Terminal([COLDWATER], env={"COLDWATER_HOME": str(home), "TERM": "xterm-256color"}, config_dir=tmp_path)
    try:
        yield t
    finally:
        t.close()


def key_of(view: object, action: str) -> str:
    legal = [str(a) for a in view.legal()]  # type: ignore[attr-defined]
    i = legal.index(action)
    if i >= len(KEYS):
        pytest.skip("the choice has no key of its own in this position")
    return KEYS[i]


def test_the_drill_in_a_real_terminal(term: Terminal) -> None:
    items = drill_items(*_game())
    assert len(items) >= 2
    shown = term.wait_for("Drill your mistakes")
    term.answer("x", shown)
    shown = term.settled(lambda s: f"Drill · 1 of {len(items)}" in s, "the drill's first position")
    assert items[0].where in shown
    term.answer(key_of(items[0].view, items[0].mistake.best), shown)
    shown = term.settled(lambda s: "Right: that is" in s, "the better choice passing")
    term.answer("n", shown)
    shown = term.settled(lambda s: f"Drill · 2 of {len(items)}" in s, "the second position")
    term.answer(key_of(items[1].view, items[1].mistake.chosen), shown)
    shown = term.settled(lambda s: "That is the choice" in s, "the mistake refused")
    assert "t: try again" in shown and "s: see the" in shown
    term.answer("s", shown)
    term.settled(lambda s: "The solution:" in s, "the solution shown")
    term.press("C-q")
    term.wait_until(lambda s: term.exited() is not None, "the app quitting on Ctrl+Q")


def _game() -> tuple[object, object, object]:
    rec, r = reviewed()
    return rec, games.get("crown"), r
