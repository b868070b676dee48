"""The labelled mistakes of recently reviewed games, kept for the menu's drill (issue 48 item 5).

Each review that finds labelled decisions of its seat keeps that game (its record, the seat,
and each labelled decision's ply, the choice made and the better one) in ``drills.json`` in
the data folder, newest first, at most :data:`KEEP` games; a game reviewed again replaces
its entry. Written through the one atomic writer; a file that cannot be read is set aside
and the drill starts empty.
"""

from __future__ import annotations

import msgspec

from coldwater.core import games, grading
from coldwater.core.record import GameRecord
from coldwater.core.review import SeatReview
from coldwater.net.play import files, paths

KEEP = 8
"""Games kept (the newest)."""


class Mistake(msgspec.Struct, frozen=True):
    ply: int
    chosen: str
    best: str
    label: str
    loss: float = 0.0
    loss_se: float = 0.0
    round: int = 0
    turn: int = 0
    why: str = ""
    """What the better choice gains, in second person (the review's words; "" where unconfirmed)."""


class DrillGame(msgspec.Struct, frozen=True):
    record: GameRecord
    seat: int
    mistakes: tuple[Mistake, ...]


class Store(msgspec.Struct):
    games: list[DrillGame] = []


def path() -> str:
    return str(paths.data_dir() / "drills.json")


def load() -> Store:
    try:
        with open(path(), "rb") as f:
            raw = f.read(8_000_000)
    except FileNotFoundError:
        return Store()
    try:
        return msgspec.json.decode(raw, type=Store)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        files.set_aside(path(), str(e))
        return Store()


def mistakes_of(r: SeatReview) -> tuple[Mistake, ...]:
    """The seat's labelled decisions, in order of play."""
    unit = games.get(r.game).unit if r.game in games.names() else "points"
    return tuple(
        Mistake(d.ply, d.chosen, d.best, grading.label(d), d.loss, d.loss_se, d.round, d.turn, grading.why(d, unit))
        for d in r.reviewed
        if grading.label(d) and d.best != d.chosen
    )


def remember(rec: GameRecord, r: SeatReview) -> None:
    """Keep `r`'s labelled mistakes (nothing when it has none)."""
    found = mistakes_of(r)
    if not found:
        return
    store = load()
    same = [g for g in store.games if not (g.record.start_digest == rec.start_digest and g.seat == r.seat)]
    store.games = [DrillGame(rec, r.seat, found), *same][:KEEP]
    files.write_atomic(path(), msgspec.json.encode(store))
