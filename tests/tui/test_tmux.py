"""One run in a real terminal: tmux starts the installed `coldwater` command.

Starts a solo Crown game against a bot at 80×24 by keyboard, plays three of the
person's turns and reads the screen back with ``capture-pane``. Every key is
sent only once the screen shows the question it answers (see
:mod:`tests.tui.terminal`); nothing waits for a fixed time.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tui.terminal import TMUX, Terminal

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
COLDWATER = Path(sys.executable).with_name("coldwater")

STEP_1 = "Step 1: place your Angler token"
STEP_2 = "Step 2: remove another token"
STEP_3 = "Step 3: end your turn"


@pytest.fixture
def term(home: Path, tmp_path: Path) -> Iterator[Terminal]:
    assert COLDWATER.exists(), f"the console script is not installed at {COLDWATER}"
    home.mkdir(parents=True, exist_ok=True)
    # Bots move without a pause, so the test does not wait on the pacing.
    (home / "settings.json").write_text('{"bot_delay": 0.0}')
    t = Terminal([COLDWATER], env={"COLDWATER_HOME": str(home), "TERM": "xterm-256color"}, config_dir=tmp_path)
    try:
        yield t
    finally:
        t.close()


def question(shown: str) -> str | None:
    """The table's question to the person, if the screen shows one with choices.

    Below the board's bottom edge (a row of ``▔``) the left column holds the
    question, then its choices, each after its hotkey; a bot's turn shows
    "… is thinking…" and no choices.
    """
    lines = shown.splitlines()
    edge = next((i for i, line in enumerate(lines) if line.strip() and set(line.strip()) == {"▔"}), None)
    if edge is None or edge + 1 >= len(lines):
        return None
    left = [line.split("▏")[0] for line in lines[edge + 1:]]
    title = left[0].strip()
    if any(row.strip().startswith("1  ") for row in left[1:]) and title and not title.endswith("thinking…"):
        return title
    return None


def play_turn(term: Terminal) -> list[str]:
    """Play one turn from its Step 1 by always taking the first choice; return the questions seen.

    A Step can ask more on the way (where each cast bait goes, which fish to
    catch, a Port action), so the turn is played question by question until the
    turn is ended.
    """
    shown = term.settled(lambda s: question(s) == STEP_1, f"the question {STEP_1!r}")
    assert "Player 1 (you)" in shown
    seen: list[str] = []
    while True:
        asked = question(shown)
        assert asked is not None
        seen.append(asked)
        if len(seen) > 60:
            raise term.fail(f"the turn did not end; its questions were {seen}")
        term.answer("1", shown)  # the first choice: the first open space, the first bait target, ...
        if asked == STEP_3:
            return seen
        shown = term.settled(lambda s: question(s) is not None, f"the next question after {asked!r}")


def test_solo_game_in_a_real_terminal(term: Terminal) -> None:
    shown = term.wait_for("Solo against bots")
    term.answer("s", shown)
    shown = term.settled(lambda s: "Solo game against bots" in s, "the new-game form")
    term.answer("C-s", shown)
    for turn in range(3):
        seen = play_turn(term)
        assert seen[0] == STEP_1 and STEP_2 in seen and seen[-1] == STEP_3, f"turn {turn + 1} asked {seen}"
    shown = term.settled(lambda s: question(s) == STEP_1, f"the question {STEP_1!r} after three turns")
    assert "Coldwater Crown" in shown
    assert "Greedy bot 2" in shown  # the bot's moves are in the log
    assert "The board" in shown
    term.press("C-q")
    term.wait_until(lambda s: term.exited() is not None, "the app quitting on Ctrl+Q")
