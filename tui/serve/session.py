"""One SSH session (`Session`): it shows one app, new or left running by this key before.

A session that is refused outright (no terminal, a command asked for) is answered at its start and
closed with an exit status; any other gets its key's app, started or taken up again (server.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

from coldwater.net.names import shown
from coldwater.tui.serve.process import TERMINAL_RESTORE
from coldwater.tui.serve.sshlib import asyncssh

if TYPE_CHECKING:
    from coldwater.tui.serve.process import AppProcess
    from coldwater.tui.serve.server import Server

NEEDS_TERMINAL = "coldwater needs a terminal: connect with `ssh -t` (a plain `ssh HOST` asks for one).\r\n"


class Session(asyncssh.SSHServerSession[bytes]):
    """One SSH session: it shows one app, new or left running by this key before."""

    def __init__(self, server: Server, key_blob: bytes) -> None:
        self.server = server
        self.key_blob = key_blob
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.command: str | None = None
        self.app: AppProcess | None = None

    # asyncssh session callbacks ------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self.term = term_type
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command.strip()  # answered in session_started
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        # A session that is refused outright is answered here, before any other callback can run.
        assert self.chan is not None
        if self.term is None:
            self._finish(NEEDS_TERMINAL, 1)
        elif self.command:
            asked = shown(self.command, limit=200)  # (echoed: escaped, as any text from elsewhere)
            self._finish(f"coldwater serves only its app; `{asked}` is not a command here.\r\n", 1)
        else:
            self.server.spawn(self._start())

    def data_received(self, data: bytes, datatype: int | None) -> None:
        if self.app is not None:
            self.app.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width, height)
        if self.app is not None:
            self.app.resize(width, height)

    def eof_received(self) -> bool:
        # Stay half open: `ssh host cmd </dev/null` sends EOF at once, and closing then raced the
        # refusal (its text and exit status were lost, and the client waited). The app ends the channel.
        return True

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal_name: str) -> None:
        return None

    def soft_eof_received(self) -> None:
        return None

    def pause_writing(self) -> None:
        if self.app is not None:
            self.app.pause()

    def resume_writing(self) -> None:
        if self.app is not None:
            self.app.resume()

    def connection_lost(self, exc: Exception | None) -> None:
        app, self.app = self.app, None
        if app is not None and app.session is self and app.running:
            app.detach()
            self.server.log(f"app for {app.who} left running; the same key returns to it")

    # the session's life ------------------------------------------------------------
    def _finish(self, text: str, status: int) -> None:
        assert self.chan is not None
        with contextlib.suppress(Exception):
            self.chan.write(text.encode())
            self.chan.write_eof()
        with contextlib.suppress(Exception):
            self.chan.exit(status)

    def taken_over(self) -> None:
        """Another connection with this key took the app: say so here and close."""
        self.app = None
        self._finish(
            TERMINAL_RESTORE.decode() + "[coldwater: your game was taken up by a newer connection with your key]\r\n", 0
        )

    async def _start(self) -> None:
        assert self.chan is not None and self.term is not None  # (refusals were answered at the start)
        async with self.server.starting:  # two connections of one key must not start two apps
            app = self.server.app_of(self.key_blob)
            if app is None:
                refusal = self.server.refusal()
                if refusal is not None:
                    self._finish(refusal + "\r\n", 1)
                    return
                try:
                    app = await self.server.launch(self.key_blob, self.term, self.size, self._client_env())
                except OSError as e:
                    self._finish(f"coldwater could not start: {e}\r\n", 1)
                    return
            else:
                self.server.log(f"app for {app.who} taken up again")
        if self.chan.is_closing():
            if app.session is None:
                app.detach()  # the connection went while the app started; it waits for the key
            return
        self.app = app
        app.attach(self)

    def _client_env(self) -> dict[str, str]:
        assert self.chan is not None
        try:
            return {str(k): str(v) for k, v in self.chan.get_environment().items()}
        except Exception:
            return {}
