"""Reaching the same host again: what a seated peer and a watcher share when their connection breaks.

Both know where the host was and the key it proved in the first handshake. A reconnect goes back to
that address with backoff and accepts only that key (an impostor at the address gets nothing), until a
deadline the caller chooses: a peer keeps it short when the host fell silent, so failover comes soon.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from coldwater.core.state import Game

from ..identity import Identity
from ..transport import Backoff, Connection, Refusal, connect, expect_key


class HostLink:
    """Where the host listens and the fingerprint it proved ("" before the first handshake)."""

    def __init__(self, game: Game[Any, Any], identity: Identity, passphrase: str | None) -> None:
        self.game = game
        self.identity = identity
        self.passphrase = passphrase

    async def reach_again(
        self,
        addr: str,
        port: int,
        fingerprint: str,
        hello: Callable[[Connection], Awaitable[None]],
        *,
        within: float,
        fatal: tuple[type[BaseException], ...] = (),
    ) -> str | None:
        """Connect to `addr`:`port` proving `fingerprint` (any key when ""), and `hello` on it, until
        `within` seconds pass. None once a `hello` went through; else the last reason it did not.
        A `fatal` refusal (the table does not want us back) is raised at once, never retried."""
        deadline = time.monotonic() + within
        backoff = Backoff(cap=1.0)
        last = "no answer"
        same_host = expect_key(fingerprint) if fingerprint else None
        while time.monotonic() < deadline:
            try:
                conn, _ = await connect(
                    addr,
                    port,
                    self.identity,
                    self.game.name,
                    self.game.content_hash,
                    passphrase=self.passphrase,
                    timeout=2.0,
                    check_host=same_host,
                )
                await hello(conn)
                return None
            except fatal:
                raise
            except (TimeoutError, Refusal, OSError) as e:
                last = str(e)
            await backoff.sleep()
        return last
