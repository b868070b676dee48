"""What a peer and a watcher do alike: reach a named table, and check a resync.

Both connect with the same handshake and must be at the table they asked for;
both take a host's :class:`~messages.Sync` only if it extends what they already
hold and ends at the view it brings. The seat-specific checks (signatures, a
rewritten record as evidence, fair-play data) stay with the peer.
"""

from __future__ import annotations

from typing import Any

import msgspec

from coldwater.core.state import Game, State

from .. import fairplay as fp
from .. import messages as m
from ..identity import Identity
from ..link import Link, Network
from ..transport import HostCheck, Refusal
from .persist import unpack_view


async def connect_to_table(
    network: Network,
    host: str,
    port: int,
    identity: Identity,
    game: Game[Any, Any],
    *,
    passphrase: str | None,
    check_host: HostCheck | None,
    table: str = "",
    wrong: type[Refusal] = Refusal,
) -> tuple[Link, str]:
    """The link to `host`:`port` over `network` and the table's name; with `table`, only at that table
    (else `wrong`, a Refusal, and the connection is closed)."""
    conn, answered = await network.connect(
        host,
        port,
        identity,
        game.name,
        game.content_hash,
        passphrase=passphrase,
        check_host=check_host,
    )
    if table and answered != table:
        await conn.close()
        raise wrong(f"{host}:{port} hosts the table {answered!r}, not {table!r}")
    return conn, answered


class SyncRefused(Exception):
    """A resync that cannot be taken; the message says why (a problem to report, not evidence)."""


def read_sync(game: Game[Any, Any], msg: m.Sync, held: int) -> tuple[State[Any, Any], int]:
    """The view a resync brings and the number of our `held` steps it keeps (its steps follow them).

    Refused (:class:`SyncRefused`): a view that does not unpack, steps that leave a gap
    after what we hold or start before the game, a last step whose digest is not the view's.
    """
    try:
        view = unpack_view(game, msg.view, msg.ply)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise SyncRefused(f"refused a malformed resync: {e}") from None
    start = msg.ply - len(msg.steps)
    if start < 0 or start > held:
        raise SyncRefused("refused a resync that does not join what we hold")
    if msg.steps and msg.steps[-1].digest != fp.public_digest(view):
        raise SyncRefused("refused a resync whose view does not match its last step")
    return view, start


def rematch_refusal(over: bool, offered: int, port: int) -> str | None:
    """Why a seat or a watcher refuses a `Rematch(port)` from its table (None: it takes it).

    `over`: its game has ended and it stayed to hear of a rematch; `offered`: the port of
    an offer it already took (0: none)."""
    if not over:
        return "refused a rematch offer from the table: the game is not over"
    if offered:
        return "refused a second rematch offer from the table"
    if not 0 < port < 65536:
        return f"refused a rematch offer from the table: {port} is not a port"
    return None
