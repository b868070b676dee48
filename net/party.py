"""What the app needs of any one process's side of a LAN table.

A LAN table is seen from three places: its host (:class:`~coldwater.net.session.TableHost`),
a seat's peer (:class:`~coldwater.net.session.TablePeer`) and a watcher
(:class:`~coldwater.net.session.TableWatcher`). The lobby and table screens hold
whichever they were given as a :class:`Party` and use what all three share through
it; what only one role has (the host's ``lobby()`` and ``start_game()``, a peer's
``set_ready()`` and the bot that plays its seat past the turn timer) they reach
after an ``isinstance`` check, which mypy follows. Nothing here imports the
session modules at run time, so the screens' imports stay cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from coldwater.core.notation import Action
from coldwater.core.state import Game

if TYPE_CHECKING:
    from coldwater.net.messages import TableInfo
    from coldwater.net.session.events import Event, Result
    from coldwater.net.session.turnclock import TurnClock


class Party(Protocol):
    """A host, a peer or a watcher, as the screens use it (mypy checks that each of the three is one)."""

    @property
    def game(self) -> Game[Any, Any]: ...

    @property
    def info(self) -> TableInfo | None:
        """The table's terms (game, options, dealer, turn timer); None until a peer or watcher is let in."""

    host_seat: int
    """The seat the host plays (-1: the host only hosts)."""

    linger: bool
    """Stay connected after the end (chat, a rematch offer): the lobby sets it."""

    clock: TurnClock
    """The seat to move's time as this process measures it (every process keeps its own, docs/lan.md)."""

    result: Result | None
    """How the game ended, once it has (after the end's audit for a seat or a watcher)."""

    def subscribe(self, listener: Callable[[Event], None]) -> Callable[[], None]: ...

    def submit(self, action: Action) -> None:
        """This process's move (IllegalAction when it has none to make now)."""

    async def run(self) -> Result: ...

    async def close(self) -> None: ...


if TYPE_CHECKING:  # each of the three is a Party (a type error here, not at a table, if one drifts)
    from coldwater.net.session import TableHost, TablePeer, TableWatcher

    def _parties(host: TableHost, peer: TablePeer, watcher: TableWatcher) -> list[Party]:
        return [host, peer, watcher]
