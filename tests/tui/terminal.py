"""A real terminal for tests: the installed app inside a private tmux server.

Everything here waits for what the screen shows, never for a fixed time, so a
slow or busy machine only makes a test slower. Each wait has one generous
deadline; when it passes, the error shows the last screen that was captured
(and whether the app had exited), so the cause of a failure is visible.

Each :class:`Terminal` runs its own tmux server (``tmux -L``, no config file), so
tests running at the same time never share, restart or stop each other's
server, and a person's ``~/.tmux.conf`` cannot change the pane.
"""

from __future__ import annotations

import itertools
import os
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

TMUX = shutil.which("tmux")

DEADLINE = 90.0
"""Seconds one wait may take before the test fails; generous for a loaded CI machine."""
POLL = 0.05
"""Seconds between two captures of the screen."""
QUIET = 0.15
"""A screen counts as settled when two captures this far apart are the same."""
RESEND = 10.0
"""Seconds an unchanged screen may show after a key before the key is sent again (see :meth:`Terminal.answer`)."""

_serial = itertools.count()


class Terminal:
    """One tmux pane of `width`×`height` running `command` with `env` set."""

    def __init__(
        self,
        command: Sequence[str | Path],
        *,
        env: Mapping[str, str],
        config_dir: Path,
        width: int = 80,
        height: int = 24,
    ) -> None:
        assert TMUX is not None, "tmux is not installed"
        self.socket = f"coldwater-test-{os.getpid()}-{next(_serial)}"
        # The pane stays after the app exits, so a crash's traceback can be read back.
        config = config_dir / "tmux.conf"
        config.write_text("set-option -g remain-on-exit on\n")
        self._config = config
        self.last = ""
        line = shlex.join(["env", *(f"{k}={v}" for k, v in env.items()), *map(str, command)])
        self.tmux("new-session", "-d", "-s", "test", "-x", str(width), "-y", str(height), line)

    # ---- tmux ---------------------------------------------------------------
    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-L", self.socket, "-f", str(self._config), *args], capture_output=True, text=True, timeout=30
        )
        if done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}{self._last_words()}")
        return done.stdout

    def close(self) -> None:
        """Stop this terminal's tmux server and remove its socket (tmux leaves it behind)."""
        try:
            path = self.tmux("display-message", "-p", "#{socket_path}").strip()
        except AssertionError:
            path = ""
        subprocess.run([TMUX or "tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)
        if path:
            Path(path).unlink(missing_ok=True)

    # ---- reading ------------------------------------------------------------
    def screen(self) -> str:
        self.last = self.tmux("capture-pane", "-p", "-t", "test")
        return self.last

    def exited(self) -> str | None:
        """None while the app runs; else how it ended."""
        dead, status = self.tmux("display-message", "-p", "-t", "test", "#{pane_dead} #{pane_dead_status}").split(
            " ", 1
        )
        return f"the app exited with status {status.strip()}" if dead == "1" else None

    def _last_words(self) -> str:
        return f"\nthe last screen was:\n{self.last}" if self.last else ""

    def fail(self, why: str) -> AssertionError:
        try:
            ended = self.exited()
        except AssertionError:
            ended = "the tmux server is gone"
        note = f" ({ended})" if ended else ""
        return AssertionError(f"{why}{note}; the screen shows:\n{self.last}")

    def wait_until(self, ok: Callable[[str], bool], what: str, timeout: float = DEADLINE) -> str:
        """Capture the screen until `ok` accepts it; return that screen."""
        end = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if ok(shown):
                return shown
            if time.monotonic() > end:
                raise self.fail(f"{what} did not happen within {timeout:.0f}s")
            time.sleep(POLL)

    def wait_for(self, text: str, timeout: float = DEADLINE) -> str:
        """Wait until `text` is on the screen."""
        return self.wait_until(lambda s: text in s, f"{text!r} appearing", timeout)

    def settled(self, ok: Callable[[str], bool], what: str, timeout: float = DEADLINE) -> str:
        """Wait until `ok` accepts the screen and it stays the same for QUIET seconds.

        A frame drawn while the app is still working (a log line already there,
        the next question not yet) is seldom still the same a moment later.
        """
        end = time.monotonic() + timeout
        while True:
            shown = self.wait_until(ok, what, max(end - time.monotonic(), 0.0))
            time.sleep(QUIET)
            if self.screen() == shown:
                return shown

    # ---- typing -------------------------------------------------------------
    def press(self, *keys: str) -> None:
        """Send keys in tmux's names (``s``, ``C-s``, ``Enter``)."""
        self.tmux("send-keys", "-t", "test", *keys)

    def type_into_field(self, text: str, timeout: float = DEADLINE) -> str:
        """Clear the focused text field (Ctrl+U) and type `text` into it; return the screen showing it.

        Clearing and typing again gives the same field however often it is done, so,
        as with :meth:`answer`, the keys are sent again when the text has not shown
        up RESEND seconds later (once, in a loaded CI run, it never appeared).
        """
        end = time.monotonic() + timeout
        while True:
            self.press("C-u")
            self.press("-l", text)  # tmux send-keys -l: the literal text, key by key
            wait = min(RESEND, max(end - time.monotonic(), 0.0))
            try:
                return self.settled(lambda s: text in s, f"{text!r} typed into the field", wait)
            except AssertionError:
                if time.monotonic() > end:
                    raise

    def answer(self, key: str, shown: str, timeout: float = DEADLINE) -> str:
        """Press `key` on the screen `shown` (a question, settled); return the first different screen.

        The table drops a key that arrives while it is still busy with the last
        one (it never applies a key to a list the person did not see). If the
        screen is unchanged RESEND seconds after the key, the app dropped it, so
        it is sent again, as a person would; it can only answer the question on
        screen.
        """
        end = time.monotonic() + timeout
        while True:
            self.press(key)
            wait = min(RESEND, max(end - time.monotonic(), 0.0))
            try:
                return self.wait_until(lambda s: s != shown, f"the screen changing after {key!r}", wait)
            except AssertionError:
                if time.monotonic() > end or self.exited() is not None:
                    raise
