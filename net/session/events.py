"""What a LAN table tells its listeners (the TUI's lobby and table screens, the headless CLI).

Both :class:`~.host.TableHost` and :class:`~.peer.TablePeer` are an
:class:`~coldwater.net.play.emitter.Emitter` of these :data:`Event` values; nothing in the session prints.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import Game, State

from .. import messages as m
from ..play.emitter import Emitter as Emitter  # the session's events go out through the one emitter
from ..play.thinker import timed


class LobbyChanged(msgspec.Struct, frozen=True):
    seats: list[m.SeatInfo]
    started: bool
    watchers: list[m.WatcherInfo] = []
    """Who is watching the table (public view only)."""


class ChatReceived(msgspec.Struct, frozen=True):
    seat: int
    name: str
    text: str


class PresenceChanged(msgspec.Struct, frozen=True):
    seat: int
    away: bool


class GameStarted(msgspec.Struct, frozen=True):
    seat: int
    """This process's seat."""


class StepApplied(msgspec.Struct, frozen=True):
    ply: int
    seat: int
    action: str | None
    """None for a sealed chance outcome that is not ours."""


class Problem(msgspec.Struct, frozen=True):
    """Something refused, a desync repaired, a fair-play failure; for the log pane."""

    text: str


class HostChanged(msgspec.Struct, frozen=True):
    seat: int
    addr: str
    port: int


class Finished(msgspec.Struct, frozen=True):
    result: Result


class RematchOffered(msgspec.Struct, frozen=True):
    """A peer or a watcher, after the end: the host opened the same table again
    (a peer answers with `TablePeer.answer_rematch`; a watcher may follow it, `lan.watch_rematch`)."""

    port: int


class HostLeft(msgspec.Struct, frozen=True):
    """A peer or a watcher, after the end: the host's connection closed. No rematch offer can come now (one
    already offered stands: it is another table)."""


class RematchAnswered(msgspec.Struct, frozen=True):
    """The host, after offering a rematch: a seat accepted or declined (or left without answering)."""

    seat: int
    name: str
    accept: bool
    left: bool = False
    """The seat's connection closed before it answered (counted as a no)."""


FINALS_WAIT = 5.0
"""Seconds the host waits for every present seat's signed final digest before relaying them (a seat
waits twice that for the relayed finals before it says they are late)."""


def scores_of(state: State[Any, Any]) -> tuple[dict[str, int], str]:
    """A finished position's totals by row label, and its outcome, as a Result carries them."""
    sc = state.scores()
    return dict(zip(sc.labels, sc.totals)), sc.outcome


class Result(msgspec.Struct, frozen=True):
    game: str
    table: str
    seat: int
    scores: dict[str, int]
    digest: str
    """Digest of the final full position (every sealed value revealed); all peers agree."""
    plies: int
    outcome: str
    audit_ok: bool
    problems: list[str] = []
    forfeit: list[int] = []
    """Seats that forfeited (0-based): the game ended early and `scores` are the standings then."""
    verdict: str = ""
    """The standings of a forfeit as the seats signed them, best first, forfeiters last."""
    signed_by: list[int] = []
    """The seats whose signatures over the forfeit this process holds and checked."""
    contested: bool = False
    """A forfeit not agreed: the accused answered with its own signed messages, or a seat other than
    the accused did not sign (forfeit.judge). False for a game played to its end."""
    disputed_by: list[int] = []
    """The seats whose signed dispute of the forfeit this process holds and checked."""


Event = (
    LobbyChanged
    | ChatReceived
    | PresenceChanged
    | GameStarted
    | StepApplied
    | Problem
    | HostChanged
    | Finished
    | RematchOffered
    | RematchAnswered
    | HostLeft
)
Listener = Callable[[Event], None]
Chooser = Callable[[State[Any, Any], int], Awaitable[Action]]
"""Plays a seat: given that seat's view and the seat, returns the chosen action."""


def bot_chooser(game: Game[Any, Any], bot: str | None = None, *, think: float = 0.0) -> Chooser:
    """A Chooser that lets the game's bot play, thinking in a worker thread (at least `think` seconds)."""
    b = timed(game.bot(bot or game.bots[0]))

    async def choose(view: State[Any, Any], seat: int) -> Action:
        rng = Rng(os.urandom(16))
        if think > 0:
            await asyncio.sleep(think)
        return await asyncio.to_thread(b.choose, view, rng)

    return choose
