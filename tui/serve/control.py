"""The control path between a served app and `coldwater serve`: its messages and its frames.

A table opened from inside an SSH session must outlive that session's app (the person may drop, or
quit, and come back with the same key), so the app does not host it: it asks the server process to,
and then sits at the table as an ordinary LAN peer over loopback. SSH players and LAN players
therefore meet at one table through one protocol, and the table is advertised on the LAN like any
other. The same path carries the history, replay and turn-based requests (turnwire.py).

The control path is a socket pair per app, made by the server when it starts the app; one end is
inherited by the app (its descriptor number is in ``COLDWATER_SERVE_FD``), the other stays with the
server. Nothing is on disk, nothing can be connected to from outside, and the server knows which key
a request comes from because it knows which app holds that end: the app never says who it is. Frames
are a 4-byte big-endian length and a msgspec MessagePack message; each request gets one reply, in
order. The app's end is applink.py, the server's tables.py; both read this module, so the words are
defined once.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec

from coldwater.net.play import framing
from coldwater.tui.serve.turnwire import TurnReply, TurnRequest

FD_ENV = "COLDWATER_SERVE_FD"
"""The descriptor of the app's end of its control socket (set only in served sessions)."""
KEY_ENV = "COLDWATER_SSH_KEY"
"""The fingerprint of the SSH key the session connected with (set only in served sessions)."""
OPENSSH_KEY_ENV = "COLDWATER_SSH_KEY_SHA256"
"""The same key's fingerprint as OpenSSH writes it (``SHA256:`` + unpadded base64), for the person to compare."""
MAX_FRAME = 64 * 1024


# ---- messages ---------------------------------------------------------------------------


class OpenTable(msgspec.Struct, tag="open", frozen=True, kw_only=True):
    """Host a table in the server. `seats` as the host form names them, ``host`` being the asker's."""

    game: str
    name: str
    seats: list[str]
    options: dict[str, Any] = {}
    passphrase: str | None = None
    watchers: int = 16  # the LAN host's default (net's WATCHERS; not imported here, to keep start-up light)
    """The most people who may watch at once (0: nobody), as the host form's Watchers field."""
    dealer: str = ""
    """``fair`` or ``committed`` as the host form's Dealer field ("": the game's default)."""
    turn: int = 180
    """Seconds a seat has for each move (0: no clock), as the host form's Turn timer field."""
    strict: bool = False
    """A strict clock (a bot plays a seat out of time at once), as the host form's Out of time field."""
    hints: bool = False
    """Every seat may ask for hints, as the host form's Hints field."""


class ListTables(msgspec.Struct, tag="list", frozen=True):
    """The tables open on this server."""


class CloseTable(msgspec.Struct, tag="close", frozen=True):
    """Close a table that has not started (only the key that opened it may)."""

    name: str


class RematchTable(msgspec.Struct, tag="rematch", frozen=True):
    """Open a finished table again (only the key that opened it may): the same seats, a new seed.

    The server offers it to every seat still at the finished table (``net.open_rematch``);
    the asker's app takes its own seat when the offer reaches it.
    """

    name: str


class History(msgspec.Struct, tag="history", frozen=True):
    """The asker's finished games on this server (newest first) and their ratings (docs/ssh.md)."""


class ReplayOf(msgspec.Struct, tag="replay", frozen=True):
    """Put the record of finished game `id` (one the asker played) in the asker's records folder."""

    id: int


class ServedTable(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    game: str
    port: int
    players: int
    open_seats: int
    fingerprint: str
    """The LAN key the table proves in its handshake (joiners pin it)."""
    content: str
    owner: str
    """The SSH key fingerprint of whoever opened it."""
    needs_passphrase: bool = False
    started: bool = False
    yours: bool = False
    """The asker's key has a seat here (taken, or reserved for it): they can sit back down."""


class Opened(msgspec.Struct, tag="opened", frozen=True):
    table: ServedTable


class Tables(msgspec.Struct, tag="tables", frozen=True):
    tables: list[ServedTable]


class Done(msgspec.Struct, tag="done", frozen=True):
    pass


class MyRating(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    rating: float
    """openskill's ordinal, as `coldwater serve --ratings` prints it (ratings.py)."""
    games: int


class PlayedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game of the asker's, as the history screen lists it."""

    id: int
    game: str
    table: str
    ended: float
    outcome: str
    place: int
    seats: int
    others: list[str]
    """The other seats: "Bob (2nd, 41)", bots marked."""
    score: int
    agreed: bool
    why_not: str = ""
    change: tuple[float, float] | None = None
    """The asker's rating before and after (None: the game was not rated)."""
    replay: bool = False
    """The server kept the game's record (ReplayOf brings it)."""


class HistoryReply(msgspec.Struct, tag="history-reply", frozen=True):
    ratings: list[MyRating]
    games: list[PlayedGame]


class Saved(msgspec.Struct, tag="saved", frozen=True):
    path: str
    """Where the record is now (in the asker's own data folder)."""


class Failed(msgspec.Struct, tag="failed", frozen=True):
    reason: str


Request = OpenTable | ListTables | CloseTable | RematchTable | History | ReplayOf | TurnRequest
Reply = Opened | Tables | Done | Failed | HistoryReply | Saved | TurnReply

request_decoder = msgspec.msgpack.Decoder(Request)
reply_decoder = msgspec.msgpack.Decoder(Reply)
_encoder = msgspec.msgpack.Encoder()


async def read_frame(reader: asyncio.StreamReader) -> bytes | None:
    """The next control frame, or None once the other end has gone (mid-frame too)."""
    try:
        return await framing.read_frame(reader, MAX_FRAME)
    except framing.FrameTooLarge as e:
        raise ValueError(f"a control frame over {MAX_FRAME} bytes ({e})") from None
    except (framing.FrameTruncated, ConnectionError):
        return None


def frame(msg: Request | Reply) -> bytes:
    return framing.encode_frame(_encoder.encode(msg), MAX_FRAME)
