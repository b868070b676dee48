"""The link to the host: what a seated peer and a watcher share while connected and when it breaks.

While connected, :func:`heartbeat` pings a quiet host and closes the connection of a host gone
silent (frozen, cut off), so that a dead link is noticed rather than waited on. Both know where
the host was and the key it proved in the first handshake. A reconnect goes back to that address
with backoff and accepts only that key (an impostor at the address gets nothing), until a deadline
the caller chooses: a peer keeps it short when the host fell silent, so failover comes soon.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from coldwater.core.state import Game

from .. import messages as m
from ..identity import Identity
from ..link import Link, Network
from ..transport import Backoff, Refusal, expect_key
from .host.host import HEARTBEAT


def _never() -> bool:
    return False


def _always() -> bool:
    return True


async def heartbeat(
    conn: Link,
    silence: float,
    gone: Callable[[float], None],
    *,
    excused: Callable[[], bool] = _never,
    counts: Callable[[], bool] = _always,
) -> None:
    """Ping a quiet host; close `conn` once its host has been silent for over `silence` seconds.

    `gone` hears how long it was silent, before the close (a peer fails over sooner after it).
    While `excused()`, silence is not counted (we read nothing, so its answers wait unread); while
    not `counts()`, it is counted but not acted on (a lobby's host may be quiet). Runs until `conn`
    closes; the caller cancels it when it stops reading.
    """
    seen_in, seen_out, quiet_since = conn.bytes_in, conn.bytes_out, time.monotonic()
    while not conn.closed:
        await asyncio.sleep(HEARTBEAT)
        now = time.monotonic()
        if conn.bytes_out == seen_out:
            conn.send_nowait(m.Ping(t=now))
        seen_out = conn.bytes_out
        if conn.bytes_in != seen_in or excused():
            seen_in, quiet_since = conn.bytes_in, now
        elif now - quiet_since > silence and counts():
            gone(now - quiet_since)
            await conn.close()
            return


class HostLink:
    """Where the host listens and the fingerprint it proved ("" before the first handshake)."""

    def __init__(self, network: Network, game: Game[Any, Any], identity: Identity, passphrase: str | None) -> None:
        self.network = network
        self.game = game
        self.identity = identity
        self.passphrase = passphrase

    async def reach_again(
        self,
        addr: str,
        port: int,
        fingerprint: str,
        hello: Callable[[Link], Awaitable[None]],
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
                conn, _ = await self.network.connect(
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
