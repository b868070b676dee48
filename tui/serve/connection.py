"""One SSH connection (`Connection`, asyncssh's server object): its authentication and its limits.

Every connection must authenticate with a key; passwords and keyboard-interactive are never offered.
A key is let in when it is on the allowed list, or any key when the server takes guests. A connection
that never asks for a session (``ssh -N``) is counted against its key, a few at once.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from coldwater.tui.serve.keys import key_fingerprint, openssh_fingerprint
from coldwater.tui.serve.session import Session
from coldwater.tui.serve.sshlib import asyncssh

if TYPE_CHECKING:
    from coldwater.tui.serve.server import Server

NO_SESSION_PER_KEY = 4
"""Connections of one key with no session (``ssh -N``) at once; more are closed."""
SESSION_GRACE = 5.0
"""Seconds after authentication a connection has to ask for its session before it counts as sessionless.
OpenSSH asks within milliseconds; counting at authentication shut the key's real logins out whenever
its ``ssh -N`` connections had filled the cap."""


class Connection(asyncssh.SSHServer):
    """One SSH connection: it authenticates with a key, and asks for sessions (or holds none)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.key_blob: bytes | None = None
        self.conn: asyncssh.SSHServerConnection | None = None
        self.has_session = False
        self.grace: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.server.conns.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.server.conns.discard(self.conn)
            self.server.with_session.discard(self.conn)
        if self.grace is not None:
            self.grace.cancel()
        self.server.no_session_gone(self)

    def auth_completed(self) -> None:
        # `ssh -N` (or a client that never asks for a session) holds a connection and a
        # task here for nothing: a few per key at once, and a further one is closed. It is
        # counted only once it had its time to ask for a session (SESSION_GRACE), so a real
        # login of a key whose cap is full is never taken for one more `ssh -N`.
        self.grace = asyncio.get_running_loop().call_later(self.server.session_grace, self.count_bare)

    def count_bare(self) -> None:
        assert self.key_blob is not None and self.conn is not None
        if self.has_session or self.conn not in self.server.conns:
            return
        bare = self.server.no_session.setdefault(self.key_blob, [])
        if len(bare) >= NO_SESSION_PER_KEY:
            self.server.log(
                f"closed a connection of {key_fingerprint(self.key_blob)}: "
                f"{len(bare)} of its connections already have no session"
            )
            self.conn.close()
            return
        bare.append(self)

    def begin_auth(self, username: str) -> bool:
        return True  # every connection must authenticate with a key

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        blob = key.public_data
        if self.server.admits_key(blob):
            self.key_blob = blob
            return True
        self.server.log(f"refused key {openssh_fingerprint(blob)} (not on the allowed list; no guests)")
        return False

    def session_requested(self) -> asyncssh.SSHServerSession[bytes]:
        assert self.key_blob is not None  # sessions come only after authentication
        self.has_session = True
        if self.conn is not None:
            self.server.with_session.add(self.conn)
        self.server.no_session_gone(self)
        return Session(self.server, self.key_blob)
