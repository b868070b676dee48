"""One key's running app (`AppProcess`): a `coldwater` process in its own pseudo-terminal.

Each SSH session gets its own `coldwater` process in its own pseudo-terminal. A process per session
is the simplest design that keeps sessions apart: a crash, a hang or a runaway bot in one person's app
cannot touch another's, and the operating system reclaims everything when the session ends. The app
outlives the connection showing it (below); the SSH session that shows it is session.py's.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import select
import signal
import struct
import termios
import time
from typing import TYPE_CHECKING

from coldwater.tui.serve import notify
from coldwater.tui.serve.keys import key_fingerprint

if TYPE_CHECKING:
    from coldwater.tui.serve.server import Server
    from coldwater.tui.serve.session import Session

TERMINAL_SETUP = b"\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h\x1b[?2004h\x1b[?1004h"
"""What the app (Textual) asks of a terminal when it starts: the alternate screen, no cursor, mouse
reporting, bracketed paste, focus events. A terminal that takes up a running app never saw it, so the
server sends it on every attach before the app redraws."""
TERMINAL_RESTORE = (
    b"\x1b[<u\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l\x1b[?2004l\x1b[?1004l\x1b[?1049l\x1b[?25h\x1b[?7h"
)
"""The undoing of it all (as the app does when it quits), sent before the server closes a session itself.
Line wrapping (``?7h``) too: Textual turns it off, and a shell left without it cuts every long line,
the server's own closing reason first."""


def set_winsize(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(rows, 1), max(cols, 1), 0, 0))


class AppProcess:
    """One person's running app in its own pty; it outlives the SSH session showing it.

    When a connection drops, the app keeps running detached (a game goes on, a
    LAN table it hosts stays open) and the same key's next connection sits back
    down at it, as `tmux attach` would. Output while detached is read and
    dropped, so the app never blocks on a full terminal.
    """

    def __init__(self, server: Server, key_blob: bytes, child: asyncio.subprocess.Process, master: int) -> None:
        self.server = server
        self.key_blob = key_blob
        self.child = child
        self.master = master
        self.session: Session | None = None
        self.attached_before = False
        self.last_input = time.monotonic()
        self.detached_at: float | None = None
        self._reading = False
        self.last_output = time.monotonic()
        self.closed_why = ""
        """Why the server ended this app (idle, nobody came back), told to the terminal showing it."""
        self.rest = notify.Rest()
        """Where the app's output stream is: a notice goes in only between two of its sequences."""
        self.notice = b""
        """A your-turn notice waiting for the stream to be at rest (notify.py)."""
        self.ended = asyncio.Event()
        """Set once the app has ended and its last output (and the server's word) went to its terminal."""

    @property
    def who(self) -> str:
        return key_fingerprint(self.key_blob)

    @property
    def running(self) -> bool:
        return self.child.returncode is None

    def attach(self, session: Session) -> None:
        old, self.session = self.session, session
        if old is not None and old is not session:
            old.taken_over()
        self.detached_at = None
        self.last_input = time.monotonic()
        if old is not None or self.attached_before:
            self._send(TERMINAL_SETUP)  # a new terminal: set it up as the app did its first
        self.attached_before = True
        self._read(True)
        cols, rows = session.size
        # A returning terminal is blank: a size change makes the app draw everything again.
        self.resize(cols, rows + 1 if rows < 500 else rows - 1)
        asyncio.get_running_loop().call_later(0.2, self.resize, *session.size)

    def detach(self) -> None:
        self.session = None
        self.detached_at = time.monotonic()
        self._read(True)

    def write(self, data: bytes) -> None:
        self.last_input = time.monotonic()
        with contextlib.suppress(OSError):
            os.write(self.master, data)

    def resize(self, cols: int, rows: int) -> None:
        if not self.running:
            return
        with contextlib.suppress(OSError):
            set_winsize(self.master, cols, rows)
        # The pty is not the app's controlling terminal, so the kernel sends no
        # SIGWINCH by itself: tell the app's process group.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.pid, signal.SIGWINCH)

    def _read(self, on: bool) -> None:
        loop = asyncio.get_running_loop()
        if on and not self._reading and self.running:
            loop.add_reader(self.master, self._pump)
            self._reading = True
        elif not on and self._reading:
            loop.remove_reader(self.master)
            self._reading = False

    def pause(self) -> None:
        # The client reads slower than the app draws: stop reading until it catches up
        # (the app then waits on its terminal, which is what a slow terminal means).
        if self.session is not None:
            self._read(False)

    def resume(self) -> None:
        self._read(True)

    def _pump(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app closed its terminal
            self._read(False)
            return
        self._send(data)

    def _send(self, data: bytes) -> None:
        if data:
            self.last_output = time.monotonic()
            self.rest.feed(data)
        if data and self.session is not None and self.session.chan is not None:
            with contextlib.suppress(Exception):  # the connection may be closing under us
                self.session.chan.write(data)
        if self.notice and self.rest.at_rest:
            self._tell()

    def tell(self, title: str, body: str) -> bool:
        """A desktop notice and a bell in the terminal showing this app (False: none shows it). Written
        at once if the app's output is between two sequences, else as soon as it is."""
        session = self.session
        if session is None or session.chan is None:
            return False
        self.notice = notify.notice(title, body, session.term or "")
        if self.rest.at_rest:
            self._tell()
        return True

    def _tell(self) -> None:
        notice, self.notice = self.notice, b""
        if self.session is not None and self.session.chan is not None:
            with contextlib.suppress(Exception):
                self.session.chan.write(notice)

    async def run(self) -> None:
        """Wait for the app to end, then end the session showing it (if any)."""
        try:
            await self._run()
        finally:
            self.ended.set()

    async def _run(self) -> None:
        status = await self.child.wait()
        self._read(False)
        while self._more():  # what the app drew last still reaches the person
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: nothing more
                break
            if not data:
                break
            self._send(data)
        with contextlib.suppress(OSError):
            os.close(self.master)
        if self in self.server.apps:
            self.server.apps.remove(self)
        self.server.log(f"app for {self.who} ended ({status})")
        session = self.session
        if session is not None and session.chan is not None:
            if self.closed_why:  # the server ended it: give the terminal back, and say why
                self._send(TERMINAL_RESTORE + f"[coldwater: {self.closed_why}]\r\n".encode())
            with contextlib.suppress(Exception):
                session.chan.exit(max(status, 0))

    def _more(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], 0)
        return bool(ready)

    def stop(self, why: str = "") -> None:
        if not self.running:
            return
        self.closed_why = self.closed_why or why
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.pid, signal.SIGHUP)
        child = self.child

        async def _reap() -> None:
            try:
                await asyncio.wait_for(child.wait(), 3.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)
