"""One run in a real terminal: tmux starts the installed `coldwater` command.

Starts a solo Crown game against a bot at 80×24 by keyboard, plays a few turns,
and reads the screen back with ``capture-pane``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("coldwater.core.crown.game", reason="the Crown engine is not in this build")

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")
COLDWATER = Path(sys.executable).with_name("coldwater")


def tmux(*args: str) -> str:
    assert TMUX is not None
    done = subprocess.run([TMUX, *args], capture_output=True, text=True, timeout=10)
    return done.stdout


@pytest.fixture
def session(home: Path) -> Iterator[str]:
    name = f"coldwater-test-{os.getpid()}"
    home.mkdir(parents=True, exist_ok=True)
    # Bots move without a pause, so the test does not wait on the pacing.
    (home / "settings.json").write_text('{"bot_delay": 0.0}')
    env_cmd = f"env COLDWATER_HOME={home} TERM=xterm-256color {COLDWATER}"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", env_cmd)
    try:
        yield name
    finally:
        tmux("kill-session", "-t", name)


def screen(name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name)


def wait_for(name: str, text: str, timeout: float = 60.0) -> str:
    end = time.monotonic() + timeout
    shown = ""
    while time.monotonic() < end:
        shown = screen(name)
        if text in shown:
            return shown
        time.sleep(0.1)
    raise AssertionError(f"{text!r} never appeared; the screen shows:\n{shown}")


def test_solo_game_in_a_real_terminal(session: str) -> None:
    assert COLDWATER.exists(), f"the console script is not installed at {COLDWATER}"
    wait_for(session, "Solo against bots")
    tmux("send-keys", "-t", session, "s")
    wait_for(session, "Solo game against bots")
    tmux("send-keys", "-t", session, "C-s")
    for turn in range(3):
        shown = wait_for(session, "Step 1: place your Angler token")
        assert "Player 1 (you)" in shown
        tmux("send-keys", "-t", session, "1")  # the first open space
        shown = wait_for(session, "Step 2: remove another token")
        tmux("send-keys", "-t", session, "1")
        # Casting can ask where each bait goes; answer until the turn can end.
        for _ in range(30):
            shown = screen(session)
            if "Step 3: end your turn" in shown:
                break
            if "Step 1: place" in shown or "is thinking" in shown:
                break
            tmux("send-keys", "-t", session, "1")
            time.sleep(0.2)
        if "Step 3: end your turn" in shown:
            tmux("send-keys", "-t", session, "1")
    shown = wait_for(session, "Step 1: place your Angler token")
    assert "Coldwater Crown" in shown
    assert "Greedy bot 2" in shown  # the bot's moves are in the log
    assert "The board" in shown
    tmux("send-keys", "-t", session, "C-q")
