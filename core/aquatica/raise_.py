"""Raise N (split or not), fully rise, and the Wild Manta of a fully risen Location.

A Location on a board shows Depth ``pos`` (0 = the first); raising slides it up,
covering Depths, which are lost. Once every Depth is covered it is fully risen;
if its bottom shows a Wild Manta, its owner takes one (a chance draw).
"""

from __future__ import annotations

from .content import Deck
from .model import AqData, Draw, Loc


def remaining(k: Deck, loc: Loc) -> int:
    return len(k.loc_depths[loc.id]) - loc.pos


def find(d: AqData, seat: int, loc_id: int) -> Loc | None:
    for loc in d.ps[seat].board:
        if loc.id == loc_id:
            return loc
    return None


def check_risen(d: AqData, k: Deck, seat: int, loc: Loc) -> None:
    if not loc.risen and loc.pos >= len(k.loc_depths[loc.id]):
        loc.risen = True
        if k.loc_manta[loc.id]:
            d.draws.append(Draw("wild", "wild", seat))


def raise_by(d: AqData, k: Deck, seat: int, loc: Loc, by: int) -> None:
    loc.pos = min(len(k.loc_depths[loc.id]), loc.pos + by)
    check_risen(d, k, seat, loc)


def raise_targets(d: AqData, k: Deck, seat: int, src: int) -> list[Loc]:
    """Locations a Raise may move: not fully risen, never the source itself."""
    return [loc for loc in d.ps[seat].board if not loc.risen and loc.id != src]
