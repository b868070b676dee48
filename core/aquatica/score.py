"""Score: move a fully risen Location from your board to your Scoring Pile.

A Location's own Score Depth never scores itself. The Scoring Pile is face down
in the box, but every player saw what went in: it is public in views.
"""

from __future__ import annotations

from .actions import AqAction, Score
from .model import AqData


def options(d: AqData, src: int) -> list[AqAction]:
    return [Score(loc.id) for loc in d.ps[d.turn].board if loc.risen and loc.id != src]


def score(d: AqData, loc_id: int) -> None:
    p = d.ps[d.turn]
    for i, loc in enumerate(p.board):
        if loc.id == loc_id:
            del p.board[i]
            p.scored.append(loc_id)
            return
    raise AssertionError("scored a Location that is not on the board")
