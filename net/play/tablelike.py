"""What a table screen needs of a table, whoever drives the game.

:class:`coldwater.net.play.table.Table` (solo, hotseat, and the LAN host's own table)
and the TUI's ``LanTable`` (a LAN seat seen through the host or a peer) both
satisfy :class:`TableLike`, so the screens are written, and type-checked, once.
Members are read-only properties so an implementation may keep a plain
attribute of a narrower type (a Table's ``save_path`` is a Path).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from coldwater.core.notation import Action
from coldwater.core.record import GameRecord
from coldwater.core.state import Game, State

from .table import ContentRef, Listener, Seat


class TableLike(Protocol):
    @property
    def game(self) -> Game[Any, Any]: ...

    @property
    def state(self) -> State[Any, Any]: ...

    @property
    def seats(self) -> list[Seat]: ...

    @property
    def record(self) -> GameRecord | None:
        """The game's record; None where the net layer keeps it (a LAN seat)."""

    @property
    def save_path(self) -> Path | str | None: ...

    @property
    def content(self) -> ContentRef | None:
        """The person's own card data in use; None for the packaged content."""

    @property
    def current(self) -> int | None: ...

    @property
    def waiting_for_person(self) -> bool: ...

    def person_seats(self) -> list[int]: ...

    def view(self, seat: int | None) -> State[Any, Any]: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...

    def submit(self, action: Action) -> None: ...

    async def step(self) -> bool: ...

    def delete_save(self) -> None: ...

    # ---- what differs between a local table and a LAN one, asked, never probed ----
    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` exists here at all (solo and hotseat; never at a LAN table)."""

    def undo(self) -> None:
        """Take back the current person's last decision; IllegalAction says why not."""

    @property
    def lan_role(self) -> str:
        """Whose LAN table this is: "host" / "host-failover", "seat" or "watcher" ("" at a local table)."""

    @property
    def hints_on(self) -> bool:
        """Whether ``h`` gives hints here: at every local table (solo, hotseat); at a LAN
        table only where its host turned hints on for everyone (``TableInfo.hints``)."""

    @property
    def opening_note(self) -> str:
        """A line for the top of the log ("" for none): a watcher who came in mid-game."""

    @property
    def bot_plays(self) -> bool:
        """This seat's own process's bot plays it now (its turn timer ran out at a LAN table)."""

    @property
    def bot_idle(self) -> float:
        """While :attr:`bot_plays`: seconds the person had not moved when the bot took the seat (the
        move's time, and the bank, or longer: what the person is told)."""

    @property
    def turn_timer(self) -> int:
        """Seconds a seat has for each move before a bot plays it (0: no limit)."""

    def take_back(self) -> bool:
        """The person takes the seat back from the bot (False: the bot did not have it)."""

    def countdown(self) -> str:
        """The seat to move's clock for the title ("0:42", "bank 3:12", "out of time"; "" with none)."""

    @property
    def can_hand_over(self) -> bool:
        """Another seat's move is out of time at a normal clock, and this seat may hand it to a bot."""

    def hand_over(self) -> str | None:
        """Hand the seat to move, out of time, to a bot; why not, or None (docs/lan.md, "The turn clock")."""
