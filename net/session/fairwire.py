"""A fair-dealer table's messages as the session carries them: their kinds, their limits, what a seat signs.

Both sides use these: a process's :class:`~.fairtable.FairDriver` checks and signs with
them, the host's relay (``host/fairhost.py``) keeps each seat's messages within its
:class:`Allowance`, and a forfeit's evidence (``forfeit.py``) is checked against the same
formats. docs/fairplay.md has the rounds; docs/lan.md the wire.
"""

from __future__ import annotations

import hashlib
from typing import Final

from .. import messages as m

KINDS: Final = frozenset({"key", "pass", "link", "deal", "act", "astrips", "word", "pstrips", "keyreveal"})
"""The rounds a seat sends messages for (the host's own "abort" only comes from the host)."""
ANSWERS: Final = frozenset({"forfeit", "verdict", "dispute"})
"""The end by forfeit (forfeit.py): the host's proposal, and each seat's signature over it or its answer."""
STRIP_KINDS: Final = frozenset({"deal", "astrips", "pstrips"})
"""The rounds whose messages are strips (checked as they arrive: :meth:`FairDriver._precheck`)."""
MAX_STRIPS: Final = 64
"""No round asks one seat for more strips (the most: every thrown-back fish at the end)."""
AHEAD: Final = 64
"""How many plies ahead of this process a message may be taken at once. A seat's own moves need no
one else's message, so a seat runs ahead of a slower process by up to a turn of moves (and the rounds
they open); further ahead, a genuine message waits in :attr:`FairDriver.later`."""
STRIP_TIMEOUT: Final = 10.0
"""Seconds the host waits for a seat's message in a round (sent by the program, not the player)."""
MAX_LATER: Final = 16384
"""Genuine messages kept for rounds this process has not reached yet (a seat restored from its save
catching up from the relay log; its save is at most a fraction of a second old, so a few hundred).
Past this, later ones are dropped: the seat then stalls its round and is named, as any stalled seat."""

MAX_BODY: Final = {
    "key": 1 << 10,
    "pass": 64 << 10,
    "link": 256,
    "deal": 16 << 10,
    "act": 1 << 10,
    "astrips": 16 << 10,
    "word": 8 << 10,
    "pstrips": 16 << 10,
    "keyreveal": 64 << 10,
    "abort": 4 << 10,
    "forfeit": 4 << 10,
    "verdict": 4 << 10,
    "dispute": 48 << 10,
}
"""The largest body each round's message may carry. Whole 4-seat games send at most: a pass 4.2 KB,
a key reveal 6.7 KB, a round's strips 250 bytes, a word 0.8 KB, a move 21 bytes (measured; the
limits leave room for bigger content files). A dispute carries the accused's own messages for one ply
(forfeit.Dispute), so it may hold a pass or strips. A frame may be 1 MB; a round's message may not."""
MAX_REF: Final = 64
"""A pass names its deck (a deck id the game declares); no other round has a ref."""
MAX_DIGEST: Final = 32
SEAT_BYTES: Final = 4 << 20
SEAT_MESSAGES: Final = 20_000
"""What one seat's messages may hold in another process over a whole game. The longest game the
bundled games play (four seats), keeps ~30 KB and ~600 messages of each seat; a seat past either limit is refused
(at the host, each refusal is a strike) so no seat's signed flood grows anyone's memory."""
_OVERHEAD: Final = 256
"""Bytes counted per kept message beside its fields (the Struct, its dict entry)."""


def _size(msg: m.Fair) -> int:
    return len(msg.body) + len(msg.ref) + len(msg.digest) + len(msg.sig) + _OVERHEAD


class Allowance:
    """What each seat's messages may hold in one place (a driver's rounds, the host's relay log)."""

    def __init__(self) -> None:
        self._held: dict[int, tuple[int, int]] = {}

    def why_not(self, msg: m.Fair) -> str | None:
        """Why keeping `msg` would take its seat past one game's messages (None: it fits)."""
        n, size = self._held.get(msg.seat, (0, 0))
        if n < SEAT_MESSAGES and size + _size(msg) <= SEAT_BYTES:
            return None
        return (
            f"seat {msg.seat + 1} has sent more than one game's messages "
            f"({n} kept, {size >> 10} KB; at most {SEAT_MESSAGES}, {SEAT_BYTES >> 20} MB)"
        )

    def keep(self, msg: m.Fair) -> None:
        n, size = self._held.get(msg.seat, (0, 0))
        self._held[msg.seat] = (n + 1, size + _size(msg))

    def held(self, seat: int) -> tuple[int, int]:
        """How many of `seat`'s messages are kept, and their bytes."""
        return self._held.get(seat, (0, 0))


def autoplay_message(joint: bytes, ply: int, seat: int, on: bool) -> bytes:
    """What a seat signs for an :class:`~coldwater.net.messages.AutoPlay`: its bot plays it from `ply` (on),
    or its person is back (the seat signs it, the host checks it: one encoding for both)."""
    return fair_message(joint, "autoplay", ply, "", seat, b"\x01" if on else b"\x00")


def fair_message(joint: bytes, kind: str, ply: int, ref: str, seat: int, body: bytes, digest: bytes = b"") -> bytes:
    """What a seat signs for a :class:`~coldwater.net.messages.Fair` message (bound to this table)."""
    h = hashlib.sha256(b"cw-fair1\x00" + joint)
    # (A seat is signed as two bytes, -1 the host with no seat: the same bytes as unsigned for every seat.)
    seat_b = seat.to_bytes(2, "big", signed=True)
    for part in (kind.encode(), ply.to_bytes(8, "big", signed=True), ref.encode(), seat_b, digest):
        h.update(len(part).to_bytes(2, "big") + part)
    h.update(body)
    return h.digest()
