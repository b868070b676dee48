"""What a served app and `coldwater serve` say about turn-based tables (docs/ssh.md, "Turn-based tables").

Carried on the same control path as the live tables' requests (serve/control.py: one socket pair per
app, the key known from which app holds it, a 4-byte length and MessagePack). Kept apart so the
engine (serve/turns.py) and the screens (screens/turns.py) share the words without either importing
the other.
"""

from __future__ import annotations

import msgspec


class OpenTurnTable(msgspec.Struct, tag="turn-open", frozen=True, kw_only=True):
    """A turn-based table on the server. `seats`: ``"me"`` (the asker, exactly once), ``"bot"``, or an
    SSH key fingerprint (``ab12-cd34-ef56-7890``) the server knows."""

    game: str
    name: str
    seats: list[str]
    hours: float = 24.0
    """Time for each move, in hours (BGA's speeds: from 1 move a day, 24, to 24 a day, 1)."""
    window: tuple[int, int] | None = None
    """Hours of the day (the server's local time, start < end) in which the clock runs; None: always."""
    options: dict[str, object] = {}


class ListTurnTables(msgspec.Struct, tag="turn-list", frozen=True):
    """The asker's turn-based tables (where it is their turn first)."""


class TurnView(msgspec.Struct, tag="turn-view", frozen=True):
    """The asker's view of one of their turn-based tables."""

    id: int


class TurnMove(msgspec.Struct, tag="turn-move", frozen=True):
    """The asker's move at `ply` (its notation); refused unless it is their turn at that ply and legal."""

    id: int
    ply: int
    action: str


class TurnOutOfTime(msgspec.Struct, tag="turn-late", frozen=True):
    """The asker's choice for `seat`, out of time at `ply`: ``"skip"`` (the bot makes that seat's moves of
    this turn only) or ``"bot"`` (the bot plays the seat until its owner opens the table again). Refused,
    nothing changed, unless that seat is to move at that ply and out of time, and the asker holds another seat."""

    id: int
    ply: int
    seat: int
    choice: str


class TurnTableInfo(msgspec.Struct, frozen=True, kw_only=True):
    id: int
    name: str
    game: str
    names: list[str]
    """Every seat's name, in seat order."""
    seat: int
    """The asker's seat."""
    current: int
    """The seat to move (-1: none, the game is over)."""
    ply: int
    deadline: float
    """When the seat to move runs out of time (seconds since the epoch; 0: over)."""
    hours: float
    window: tuple[int, int] | None = None
    outcome: str = ""
    """Set once the game is over (and says which seats a bot played for or were skipped)."""
    late: bool = False
    """The seat to move is out of time: any other seated person may skip it or hand it to a bot."""
    handed: list[int] = []
    """The seats the bot plays now (handed to it out of time, until their owners open the table)."""

    @property
    def your_turn(self) -> bool:
        return self.current == self.seat


class TurnTables(msgspec.Struct, tag="turn-tables", frozen=True):
    tables: list[TurnTableInfo]


class TurnPosition(msgspec.Struct, tag="turn-position", frozen=True, kw_only=True):
    """A table as one seat sees it: its view (the game's canonical text; only what that seat may know),
    the legal moves when it is that seat's turn, and the last moves in words."""

    info: TurnTableInfo
    view: str
    legal: list[str]
    log: list[str]


# ---- the deal of the day (serve/deals.py) -------------------------------------------------


class DealList(msgspec.Struct, tag="deal-list", frozen=True):
    """Today's deal of every game, with its results board."""


class DealPlay(msgspec.Struct, tag="deal-play", frozen=True):
    """Play today's deal of `game` (or go back to it): a one-person table on the server."""

    game: str


class DealScore(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    player: str
    score: int
    rank: int
    """1 for the best score on the deal so far (ties share)."""
    result: int
    """The result's id (ReplayOf opens it, once the asker has finished the same deal)."""


class DealInfo(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    mode: str
    """``solo`` (the game's own solo mode) or ``vs-bot`` (one bot seat, the same bot moves for everyone)."""
    day: str
    seed: str
    """Announced: the deal is the game started from this seed."""
    table: int = 0
    """The asker's table for it (0: not started)."""
    mine: DealScore | None = None
    """The asker's finished score on it."""
    board: list[DealScore] = []


class DealBoards(msgspec.Struct, tag="deal-boards", frozen=True):
    deals: list[DealInfo]


TurnRequest = OpenTurnTable | ListTurnTables | TurnView | TurnMove | TurnOutOfTime | DealList | DealPlay
TurnReply = TurnTables | TurnPosition | DealBoards
