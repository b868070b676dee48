"""After the end of a LAN game: the host offers the same table again and hears each seat's answer.

The seats keep their places (each remote seat is kept for the key that played it) and
the watchers are told where the table listens next; a seat whose connection closes
before it answers counts as a no.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ... import messages as m
from ...link import Link
from ..events import RematchAnswered
from .shared import HostPhase, Outbox, Remote, Tasks, fp_text

if TYPE_CHECKING:
    from ..events import Result
    from .spectators import Spectators


class RematchTable(Protocol):
    """What :class:`RematchOffer` reads of the host: the seats as opened and as played, the game's end."""

    @property
    def remotes(self) -> dict[int, Remote]: ...

    @property
    def kinds(self) -> list[str]: ...

    @property
    def reserved(self) -> dict[int, str]: ...

    @property
    def started(self) -> bool: ...

    @property
    def phase(self) -> HostPhase: ...

    @property
    def result(self) -> Result | None: ...


class RematchOffer:
    """The rematch of one host (``TableHost.rematch``): offered once, after the end."""

    def __init__(self, out: Outbox, tasks: Tasks, host: RematchTable, *, watch: Spectators) -> None:
        self.out = out
        self.tasks = tasks
        self.host = host
        self.watch = watch
        """The watchers, told of the rematch too."""
        self.answers: dict[int, bool | None] = {}
        """After :meth:`offer`: each offered seat's answer (None: not yet)."""

    def seats(self) -> list[str]:
        """The seat list for the same table again: the host and bots where they were, and each
        remote seat kept for the key that played it (``reserved:FP``), so everyone sits where they sat.

        A seat whose player was sent away (played by a bot for good) is open: it is not kept for them.
        """
        out: list[str] = []
        for i, kind in enumerate(self.host.kinds):
            r = self.host.remotes.get(i)
            if r is None:
                out.append(kind)
            elif r.key and not r.by_bot:
                out.append(f"reserved:{fp_text(r.key)}")
            else:
                out.append("open")
        return out

    def open_seat(self, seat: int) -> None:
        """Free a seat kept for a key (its player declined a rematch): anyone may sit there now."""
        if self.host.started or seat not in self.host.remotes or seat not in self.host.reserved:
            return
        del self.host.reserved[seat]
        self.out.lobby_changed()

    def offer(self, port: int) -> list[int]:
        """Tell every seat still connected after the end that the same table listens again at `port`.

        Returns the seats told. Their answers come as :class:`RematchAnswered` events (a seat
        whose connection closes before it answers counts as a no). Only once the game is over
        and its final digests are out; only once per table.
        """
        if self.host.result is None or self.host.phase is not HostPhase.ENDED:
            raise RuntimeError("a rematch is offered once the game is over and its final digests are out")
        if self.answers:
            raise RuntimeError("a rematch was already offered at this table")
        if not 0 < port < 65536:
            raise ValueError(f"no such port: {port}")
        told = [r.seat for r in self.host.remotes.values() if r.present and r.key and not r.by_bot]
        for seat in told:
            self.answers[seat] = None
            conn = self.host.remotes[seat].conn
            assert conn is not None
            conn.send_nowait(m.Rematch(port=port))
        # The watchers too (they may follow the table there), and then they go with the old table.
        self.watch.offer_rematch(port)
        self.tasks.spawn(self.watch.close())
        return told

    def on_reply(self, r: Remote, conn: Link, msg: m.RematchReply) -> None:
        if r.seat not in self.answers:
            self.out.refuse(conn, "rematch reply", "no rematch was offered to this seat")
            return
        if self.answers[r.seat] is not None:
            self.out.refuse(conn, "rematch reply", "this seat has already answered the rematch offer")
            return
        self.answers[r.seat] = msg.accept
        self.out.emit(RematchAnswered(r.seat, r.name, msg.accept))

    def seat_left(self, r: Remote) -> None:
        """`r`'s connection closed: gone without answering the offer is a no."""
        if self.answers.get(r.seat, False) is None:
            self.answers[r.seat] = False
            self.out.emit(RematchAnswered(r.seat, r.name, False, left=True))
