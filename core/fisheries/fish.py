"""Action 3: Fish (1 hour per fish) from spaces orthogonally next to any of your ships.

Atomic: each ``fish CELL`` takes one fish; after the first the player takes
another or says ``done``. The action ends by itself when no fish can be taken.
Diagonal spaces never count. Ships on any kind of space (islands too) may fish.
"""

from __future__ import annotations

from .model import Ctx, Data


def fishable(ctx: Ctx, d: Data, seat: int) -> list[int]:
    if d.time[seat] < 1:
        return []
    cells = {n for s in d.ships[seat] if s >= 0 for n in ctx.neighbours[s] if d.fish[n]}
    return sorted(cells)


def take(ctx: Ctx, d: Data, seat: int, cell: int) -> None:
    d.catch[seat][ctx.colour_index[d.fish[cell]]] += 1
    d.fish[cell] = ""
    d.time[seat] -= 1


def why_not(ctx: Ctx, d: Data, seat: int, cell: int) -> str:
    if not d.fish[cell]:
        return f"there is no fish on {ctx.names[cell]}"
    if d.time[seat] < 1:
        return "Fishing costs 1 hour per fish; you have 0"
    return f"the fish on {ctx.names[cell]} is not orthogonally next to any of your ships (diagonals do not count)"
