"""Catching Shore, River and Lake fish: the catches owed for emptied Zones,
resolved one at a time in the player's chosen order, with the Rod, the Line and
the Zone 6 bonus; and restocking, which waits until the end of the Step.

Rulings (components file): a catch may only take a fish from a Zone that holds
one; a Zone emptied earlier in the Step stays empty until the Step ends, so a
default catch from it is lost (``lose``), though a Rod or Line may still reach
another Zone.
"""

from __future__ import annotations

from .actions import Catch, CrownAction, Lose, Zone6
from .content import Tables
from .model import COLOUR_LOCATION, LOCATION_INDEX, LOCATIONS, CrownData, Fish, Pending
from .tackle import consume, offer, usable
from .trophies import on_catch


def targets(d: CrownData, pend: Pending, rod: bool, line: bool) -> list[tuple[int, int]]:
    """(location, zone) pairs this catch may take from, given usable Rod/Line."""
    home = COLOUR_LOCATION[pend.colour]
    z = pend.zone
    locs = (home, *(li for li in range(3) if li != home)) if rod else (home,)
    ats = [z]
    if line:
        ats += [a for a in (z - 1, z + 1) if 3 <= a <= 6]
    return [(li, a) for li in locs for a in ats if d.zones[li][a - 3] is not None]


def options(d: CrownData, pend: Pending) -> list[CrownAction]:
    p = d.parties[d.turn]
    rod = usable(p, "rod") >= 0
    line = usable(p, "line") >= 0
    out: list[CrownAction] = [Catch(pend.zone, LOCATIONS[li], a) for li, a in targets(d, pend, rod, line)]
    home = COLOUR_LOCATION[pend.colour]
    # Zone 6 bonus: the top of the bait's own deck (never through a Rod or a Line).
    if pend.zone == 6 and d.tops[home] is not None:
        out.append(Zone6())
    if d.zones[home][pend.zone - 3] is None:
        out.append(Lose(pend.zone))
    return out


def legal(d: CrownData) -> list[CrownAction]:
    out: list[CrownAction] = []
    for pend in d.pending:
        out += options(d, pend)
    return out


def _take_pending(d: CrownData, zone: int) -> Pending:
    for i, pend in enumerate(d.pending):
        if pend.zone == zone:
            return d.pending.pop(i)
    raise AssertionError("no such pending catch")


def _after(d: CrownData, zone: int) -> None:
    # Zone 5 bonus: clearing Zone 5 itself (not a Line into Zone 5) offers tackle.
    if zone == 5:
        offer(d)


def receive(d: CrownData, T: Tables, party: int, fish: Fish) -> None:
    p = d.parties[party]
    p.fish.append(fish)
    d.log_catches += 1
    on_catch(d, T, p, fish)


def tackle_for(d: CrownData, a: Catch) -> list[str]:
    """The tackle a catch plays (the table's words ask this too): a Rod to fish at another location
    than its bait's own, a Line to fish another Zone than the one emptied."""
    pend = next((p for p in d.pending if p.zone == a.zone), None)
    out = []
    if pend is not None and LOCATION_INDEX[a.loc] != COLOUR_LOCATION[pend.colour]:
        out.append("rod")
    if a.at != a.zone:
        out.append("line")
    return out


def catch(d: CrownData, T: Tables, a: Catch) -> None:
    played = tackle_for(d, a)
    _take_pending(d, a.zone)
    p = d.parties[d.turn]
    for kind in played:
        consume(d, p, kind)
    li = LOCATION_INDEX[a.loc]
    fish = d.zones[li][a.at - 3]
    assert fish is not None
    d.zones[li][a.at - 3] = None
    receive(d, T, d.turn, fish)
    _after(d, a.zone)


def zone6(d: CrownData, T: Tables) -> None:
    pend = _take_pending(d, 6)
    home = COLOUR_LOCATION[pend.colour]
    fish = d.tops[home]
    assert fish is not None
    d.tops[home] = None  # the next card is revealed at once (a derived chance node)
    receive(d, T, d.turn, fish)


def lose(d: CrownData, zone: int) -> None:
    _take_pending(d, zone)
    _after(d, zone)


def stock_step(d: CrownData) -> None:
    """Restock one empty Zone from its deck top (lowest Zones first), or finish.

    A Zone whose deck is exhausted stays empty: that location cannot be
    restocked to four fish, which triggers the end of the game at turn end.
    """
    for li in range(3):
        row = d.zones[li]
        for zi in range(4):
            if row[zi] is None:
                top = d.tops[li]
                if top is not None:
                    row[zi] = top
                    d.tops[li] = None
                    return
                d.restock_failed = True
                break
    d.tasks.pop(0)
