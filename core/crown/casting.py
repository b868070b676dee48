"""Casting bait from the Zones, routing each cast bait to a Master Angler spot or
the discard, and completing Master Angler cards."""

from __future__ import annotations

from collections.abc import Sequence

from . import trophies
from .actions import CrownAction, Discard, Route
from .content import Tables
from .model import CrownData, MAProgress, Pending, Player


def cast_from(zones: Sequence[Sequence[int]], colour: int, side: int) -> tuple[int, list[int]]:
    """What a cast takes: (bait cast, the Zones it empties, numbered 3 to 6). A "1" casts one bait of
    `colour` from each Zone holding it; a "2" casts all of them. (The table's preview asks this too.)"""
    n = 0
    emptied = []
    for zi, z in enumerate(zones):
        k = z[colour]
        if k:
            take = 1 if side == 1 else k
            n += take
            if sum(z) == take:
                emptied.append(zi + 3)
    return n, emptied


def cast(d: CrownData, colour: int, side: int) -> None:
    """Cast as :func:`cast_from` says; a Zone emptied by the cast owes a catch with that colour."""
    p = d.parties[d.turn]
    n, emptied = cast_from(p.zones, colour, side)
    for z in p.zones:
        z[colour] -= min(z[colour], 1 if side == 1 else z[colour])
    d.pending += [Pending(z, colour) for z in emptied]
    start_route(d, colour, n)


def start_route(d: CrownData, colour: int, n: int) -> None:
    d.phase = "route"
    d.colour = colour
    d.route_left = n


def open_cards(T: Tables, p: Player, colour: int) -> list[int]:
    """`p`'s Master Angler cards with a spot open for bait of `colour` (the table's words ask this too)."""
    # A card may repeat a colour (MA16 Char: red, red, ...): a spot is open while
    # fewer bait of its colour sit on the card than it has spots of that colour.
    return [m.card for m in p.ma if m.filled.count(colour) < T.ma_spots[m.card].count(colour)]


def spots_left(T: Tables, m: MAProgress) -> int:
    """The spots of a Master Angler card still empty: at 0 it is caught."""
    return len(T.ma_spots[m.card]) - len(m.filled)


def route_targets(d: CrownData, T: Tables, p: Player) -> list[int]:
    return open_cards(T, p, d.colour)


def legal(d: CrownData, T: Tables) -> list[CrownAction]:
    out: list[CrownAction] = [Discard()]
    return out + [Route(c) for c in route_targets(d, T, d.parties[d.turn])]


def route(d: CrownData, T: Tables, card: int) -> None:
    p = d.parties[d.turn]
    m = next(m for m in p.ma if m.card == card)
    m.filled.append(d.colour)
    d.route_left -= 1
    if spots_left(T, m) == 0:
        complete(d, T, p, m)


def discard_one(d: CrownData) -> None:
    d.discard[d.colour] += 1
    d.route_left -= 1


def discard_rest(d: CrownData) -> None:
    d.discard[d.colour] += d.route_left
    d.route_left = 0


def complete(d: CrownData, T: Tables, p: Player, m: MAProgress) -> None:
    """A full card is caught: to the score pile, its bait to the discard."""
    p.ma.remove(m)
    p.ma_done.append(m.card)
    for c in m.filled:
        d.discard[c] += 1
    trophies.check_master_angler(d, T, p)
