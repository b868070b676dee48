"""Scout (optional since the Cold Waters rule change).

Discard the top row; if the bottom row holds more than 4 Locations, the
scouting player discards Locations of their choice down to 4; the bottom row
slides into the top row; 6 new Locations are dealt into the bottom row (chance
draws; fewer if the deck runs out). In base solo the virtual rival places a Manta.
"""

from __future__ import annotations

from . import solo
from .actions import AqAction, Cut, Scout
from .model import ROW_SIZE, AqData, Draw


def options(d: AqData) -> list[AqAction]:
    return [Scout()] if d.loc_deck or d.loc_bottom or d.loc_top else []


def begin(d: AqData) -> None:
    if len(d.loc_bottom) > 4:
        d.cutting = True
    else:
        finish(d)


def cut_options(d: AqData) -> list[AqAction]:
    return [Cut(x) for x in d.loc_bottom]


def cut(d: AqData, loc_id: int) -> None:
    d.loc_bottom.remove(loc_id)
    d.loc_discard.append(loc_id)
    if len(d.loc_bottom) <= 4:
        d.cutting = False
        finish(d)


def finish(d: AqData) -> None:
    d.loc_discard += d.loc_top
    d.loc_top = d.loc_bottom
    d.loc_bottom = []
    d.draws += [Draw("ld", "lbot") for _ in range(ROW_SIZE)]
    solo.rival_moves(d)
