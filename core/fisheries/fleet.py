"""The Fleet Rule and the progress board.

No ship may be moved to more than ``fleet_span`` (3) columns right of your
leftmost ship (leftmost counted after the move). Ruling: only the destination
counts, not squares passed on the way. Moving backwards (towards shore, or
staying in the same column) is always allowed, so a ship already beyond the
limit because another ship went back may still move back or sideways.
"""

from __future__ import annotations

from .model import Ctx, Data


def fleet_ok(ctx: Ctx, d: Data, seat: int, frm: int, dest: int) -> bool:
    cols = [ctx.col(c) for c in d.ships[seat] if c != frm]
    dc = ctx.col(dest)
    leftmost = min(cols + [dc])
    return dc <= leftmost + ctx.content.fleet_span or dc <= ctx.col(frm)


def progress(ctx: Ctx, d: Data, seat: int) -> tuple[int, int]:
    """The progress board: (column of the ship closest to shore, furthest column others may reach), 1-based."""
    left = min(ctx.col(c) for c in d.ships[seat]) + 1
    return left, min(ctx.cols, left + ctx.content.fleet_span)
