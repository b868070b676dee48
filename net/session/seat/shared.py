"""What every phase of a seat shares: the seat's life (:class:`PeerPhase`), the refusal that ends
it (:class:`SentAway`) and the :class:`Outbox` a phase speaks through.

:class:`~.peer.TablePeer` is the seat; each phase of its side of the protocol is a class of
its own (``peerseed.py``, ``stepcheck.py``, ``fairpeer.py``, ``audit.py``, ``peersave.py``,
``peerfailover.py``, ``lobbyview.py``) whose constructor names everything it may touch: the
table's shared :class:`~..record.TableRecord`, this outbox, the :class:`~..turnclock.TurnClock`
where it keeps time, the other phases it works with, and a small Protocol of its own listing
the few further members of the seat it reads or writes (mypy holds it to them). No phase is
handed the whole seat, and none reaches another through it (``tests/net/session/test_seat_phases.py``).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Protocol

from ...transport import Refusal

if TYPE_CHECKING:
    from ... import messages as m
    from ..events import Event


class SentAway(Refusal):
    """The table itself refused us (our seat went to a bot, we were sent away): do not retry."""


class PeerPhase(enum.Enum):
    LOBBY = "lobby"
    """Seated (or joining); no game yet."""
    PLAYING = "playing"
    RESYNCING = "resyncing"
    """We reported a mismatch or a gap; steps are ignored until the host's Sync arrives."""
    FINISHED = "finished"
    """The End arrived and was audited; the save is deleted on close."""
    HOSTING = "hosting"
    """The host went away and this peer hosts the table now."""


class Outbox(Protocol):
    """What a seat's phase says: to the host, to the app, and what it saw go wrong."""

    def send(self, msg: m.Message) -> None:
        """To the host on the connection open now (nothing while this seat is cut off)."""

    def emit(self, event: Event) -> None:
        """To the app (the screens subscribe)."""

    def problem(self, text: str) -> None:
        """Something this seat saw go wrong: kept, logged and shown."""
