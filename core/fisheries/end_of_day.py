"""Phase IV: Ending the Day, and the overnight tidy-up.

- ``end`` is taken at the start of a turn instead of an action (not as the
  lobster's extra action). The first to end takes the initiative card and says
  whether they go ``first`` or ``second`` tomorrow (``end first`` / ``end second``);
  the other player keeps taking turns until they ``end`` too.
- After the sixth day the game ends. Otherwise each player keeps at most one
  ocean tile (``keep SHAPE``, or ``keep -`` for none); the rest go back to the
  general supply. The choice is asked only of a player holding two or more
  shapes; with one shape the engine keeps one of it.
"""

from __future__ import annotations

from typing import Literal

from .days import begin_turn
from .model import Ctx, Data


def end_options(d: Data) -> list[tuple[Literal["first", "second"] | None]]:
    if not any(d.ended):
        return [("first",), ("second",)]
    return [(None,)]


def apply_end(ctx: Ctx, d: Data, go: str | None) -> None:
    p = d.turn
    o = 1 - p
    if not any(d.ended):
        d.took_initiative = p
        d.initiative = p
        d.next_first = p if go == "first" else o
    d.ended[p] = True
    if not d.ended[o]:
        begin_turn(d, o)
        return
    close_day(ctx, d)


def close_day(ctx: Ctx, d: Data) -> None:
    d.double = False
    if d.day >= ctx.content.days:
        d.phase = "over"
        return
    d.first = d.next_first
    d.keep_queue = []
    for seat in (0, 1):
        held = [k for k, n in enumerate(d.supply[seat]) if n > 0]
        if len(held) > 1:
            d.keep_queue.append(seat)
        elif held:
            keep(ctx, d, seat, ctx.shapes[held[0]])
    if d.keep_queue:
        d.phase = "keep"
        d.turn = d.keep_queue[0]
    else:
        d.phase = "dawn"


def keep(ctx: Ctx, d: Data, seat: int, shape: str | None) -> None:
    limit = ctx.content.keep_tiles
    for k, n in enumerate(d.supply[seat]):
        stay = min(n, limit) if ctx.shapes[k] == shape else 0
        limit -= stay
        d.general[k] += n - stay
        d.supply[seat][k] = stay


def keep_options(ctx: Ctx, d: Data, seat: int) -> list[str | None]:
    return [ctx.shapes[k] for k, n in enumerate(d.supply[seat]) if n > 0] + [None]


def apply_keep(ctx: Ctx, d: Data, shape: str | None) -> None:
    seat = d.keep_queue.pop(0)
    keep(ctx, d, seat, shape)
    if d.keep_queue:
        d.turn = d.keep_queue[0]
    else:
        d.phase = "dawn"
