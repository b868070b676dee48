"""Runs in a real terminal: tmux starts the installed `coldwater` command.

Starts a solo Crown game at 80×24 by keyboard, plays the person's turns and
reads the screen back with ``capture-pane``: three turns against one bot, and a
whole game against two bots that also opens the board (F2) and the log (F3)
panes and reads them. Every key is sent only once the screen shows the question
it answers (see :mod:`tests.tui.terminal`); nothing waits for a fixed time.
"""

from __future__ import annotations

import re
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
    left = [line.split("▏")[0] for line in lines[edge + 1 :]]
    title = left[0].strip()
    if any(CHOICE_ROW.match(row.strip()) for row in left[1:]) and title and not title.endswith("thinking…"):
        return title
    return None


CHOICE_ROW = re.compile(r"^[0-9a-z]  ")
"""A choice's first line: its hotkey, two spaces, its label. The list may be scrolled so
that the highlighted (safe) choice shows and choice 1 is above the fold."""


def first_key(shown: str) -> str:
    """The first choice's key ("1", which works whether or not it is scrolled into view), or
    "e" where ending the turn is all there is."""
    rows = [line.split("▏")[0].strip() for line in shown.splitlines()]
    return "1" if any(re.match(r"^[0-9]  ", row) for row in rows) else "e"


def play_turn(term: Terminal) -> list[str]:
    """Play one turn from its Step 1 by always taking the first choice; return the questions seen.

    A Step can ask more on the way (where each cast bait goes, which fish to
    catch, a Port action), so the turn is played question by question until the
    turn is ended.
    """
    shown = term.settled(lambda s: question(s) == STEP_1, f"the question {STEP_1!r}")
    assert "your turn" in shown.splitlines()[0]  # the title says whose turn it is (the board may have scrolled)
    seen: list[str] = []
    while True:
        asked = question(shown)
        assert asked is not None
        seen.append(asked)
        if len(seen) > 60:
            raise term.fail(f"the turn did not end; its questions were {seen}")
        if asked == STEP_3:
            term.answer("e", shown)  # the fixed key of "End your turn"
            return seen
        term.answer(first_key(shown), shown)  # the first choice: the first open space, the first bait target, ...
        shown = term.settled(lambda s: question(s) is not None, f"the next question after {asked!r}")


def test_solo_game_in_a_real_terminal(term: Terminal) -> None:
    shown = term.wait_for("Solo against bots")
    term.answer("s", shown)
    shown = term.settled(lambda s: "Solo game against bots" in s, "the new-game form")
    term.answer("C-s", shown)
    for turn in range(3):
        seen = play_turn(term)
        # (Step 2 may not be asked: a question with one answer answers itself.)
        assert seen[0] == STEP_1 and seen[-1] == STEP_3, f"turn {turn + 1} asked {seen}"
    shown = term.settled(lambda s: question(s) == STEP_1, f"the question {STEP_1!r} after three turns")
    assert "Coldwater Crown" in shown
    assert "Greedy bot 2" in shown  # the bot's moves are in the log
    assert "Master Angler" in shown  # the board
    term.press("C-q")
    term.wait_until(lambda s: term.exited() is not None, "the app quitting on Ctrl+Q")


def seats_form(term: Terminal, players: int) -> None:
    shown = term.wait_for("Solo against bots")
    term.answer("s", shown)
    term.settled(lambda s: "Solo game against bots" in s, "the new-game form")
    term.press("Down")  # from Game to Players
    for _ in range(players - 2):
        term.press("Right")
    term.answer("C-s", term.settled(lambda s: f"◀ {players} ▶" in s, f"{players} players on the form"))


@pytest.mark.slow
def test_whole_solo_game_against_two_bots_with_the_panes(term: Terminal) -> None:
    """Slow (a whole game, a few minutes): the issue's real-terminal check."""
    seats_form(term, 3)
    shown = term.settled(lambda s: question(s) == STEP_1, "the first turn")
    # F2: the board on the whole screen; PgDn shows the rest of it.
    shown = term.answer("F2", shown)
    board = term.settled(lambda s: "Master Angler" in s and "Step 1" not in s.split("\n", 2)[-1], "the board pane")
    # "Greedy bot 3" is already on the first page, so wait for the scroll itself
    # (the screen changing) and for the board's last line, not for a name.
    term.answer("PageDown", board)
    board += term.settled(lambda s: "Contests" in s, "the rest of the board")
    for part in ("Anglers", "Mystery Weight", "Trophies", "Greedy bot 2", "Greedy bot 3"):
        assert part in board, part
    term.answer("F2", term.screen())
    shown = term.settled(lambda s: question(s) == STEP_1, "back at the table")
    turns = 0
    while True:
        seen = play_turn(term)
        turns += 1
        assert seen[-1] == STEP_3
        if turns == 2:
            # F3: the full log, with the bots' turns under their names.
            shown = term.settled(lambda s: question(s) == STEP_1 or "final scores" in s, "the next turn")
            if "final scores" in shown:
                break
            term.answer("F3", shown)
            log = term.settled(lambda s: "Greedy bot 2" in s and question(s) is None, "the log pane")
            assert "Since your last turn" in log or "Greedy bot 3" in log
            term.answer("Escape", log)
        shown = term.settled(lambda s: question(s) == STEP_1 or "final scores" in s, "the next turn or the end")
        if "final scores" in shown:
            break
        if turns > 60:
            raise term.fail("the game did not end in 60 turns")
    assert "Coldwater Crown — final scores" in shown
    assert "Seat " not in shown


TABLE_HINT = "The name people see in their list of tables"


def test_host_a_table_from_the_form_with_a_typed_name(term: Terminal) -> None:
    shown = term.wait_for("Host a LAN table")
    term.answer("o", shown)
    shown = term.settled(lambda s: "Open table" in s and "Which game the table plays" in s, "the host form")
    for _ in range(12):  # ↓ from field to field until the hint line explains the table's name
        if TABLE_HINT in shown:
            break
        shown = term.answer("Down", shown)
        shown = term.settled(lambda s: "Open table" in s, "the next field")
    assert TABLE_HINT in shown, shown
    shown = term.type_into_field("Frosty Pike")
    assert "Coldwater table" not in shown
    term.answer("C-s", shown)
    shown = term.settled(lambda s: "Lobby" in s, "the lobby")
    assert "Lobby — Frosty Pike" in shown
    assert "open — waiting for a player" in shown
    term.press("C-q")
    term.wait_until(lambda s: term.exited() is not None, "the app quitting on Ctrl+Q")
