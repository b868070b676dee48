"""Action 1: Chart a Course (no hours). Place one ocean tile from your supply.

- At least one square orthogonally adjacent to a space with a ship (either colour).
- Inside the grid, on calm water only: never on a fish, an island, the shore, a
  ship, rough water, a starting space or another tile. A fish space whose fish
  has been taken is calm water again.
- Any rotation or reflection. One tile per action; the action may be repeated.
"""

from __future__ import annotations

from .content import CALM, FISH
from .model import Ctx, Data, Placed, cell_mask, ship_at


def coverable(ctx: Ctx, d: Data, cell: int, ships: dict[int, tuple[int, int]]) -> bool:
    t = d.terrain[cell]
    return (t == CALM or (t == FISH and not d.fish[cell])) and not d.cover[cell] and cell not in ships


def blocked_mask(ctx: Ctx, d: Data, ships: dict[int, tuple[int, int]]) -> int:
    """Spaces a tile may not cover now, as a :func:`model.cell_mask` (see :func:`coverable`)."""
    return (
        ctx.static_blocked(d.terrain)
        | int.from_bytes(bytes(d.cover), "little")
        | int.from_bytes(bytes(map(bool, d.fish)), "little")
        | cell_mask(list(ships))
    )


def near_free(ctx: Ctx, blocked: int, ships: dict[int, tuple[int, int]]) -> set[int]:
    """Free spaces beside a ship: every legal placement covers at least one of them."""
    nbrs = ctx.neighbours
    return {x for s in ships for x in nbrs[s] if not (blocked >> (8 * x)) & 1}


def placement_set(ctx: Ctx, shape: str, blocked: int, near: set[int]) -> set[tuple[int, ...]]:
    """Every legal placement of `shape`, unordered, given :func:`near_free`'s spaces."""
    fp = ctx.footprints(shape)
    return {cells for x in near for mask, cells in fp[x] if not mask & blocked}


def placements(ctx: Ctx, d: Data, shape: str, blocked: int | None = None) -> list[tuple[int, ...]]:
    """Every legal placement of `shape` now, as sorted cell tuples (for UI previews too)."""
    ships = ship_at(d)
    if blocked is None:
        blocked = blocked_mask(ctx, d, ships)
    return sorted(placement_set(ctx, shape, blocked, near_free(ctx, blocked, ships)))


def place(ctx: Ctx, d: Data, shape: str, cells: tuple[int, ...]) -> None:
    for x in cells:
        d.cover[x] = True
    d.placed.append(Placed(shape, list(cells)))


def shape_matches(ctx: Ctx, shape: str, cells: tuple[int, ...]) -> bool:
    if not cells:
        return False
    pts = [divmod(x, ctx.cols) for x in cells]
    mr = min(r for r, _ in pts)
    mc = min(c for _, c in pts)
    norm = tuple(sorted((r - mr, c - mc) for r, c in pts))
    return norm in ctx.orientations[shape]


def why_not(ctx: Ctx, d: Data, shape: str, cells: tuple[int, ...]) -> str:
    """The first placement rule that `cells` breaks, in words."""
    name = ctx.shape_names.get(shape, shape)
    if not cells:
        return f"name the squares the {name} tile covers"
    if not shape_matches(ctx, shape, cells):
        return f"those squares do not form a {name} tile"
    ships = ship_at(d)
    for x in cells:
        t = d.terrain[x]
        where = ctx.names[x]
        if d.fish[x]:
            return f"that tile would cover a fish ({where})"
        if x in ships:
            return f"that tile would cover a ship ({where})"
        if d.cover[x]:
            return f"{where} already has an ocean tile"
        if t == "#":
            return f"that tile would cover the shore ({where})"
        if t == "^":
            return f"that tile would cover rough water ({where})"
        if t in ctx.helms:
            return f"that tile would cover an island ({where})"
        if t in ("1", "2"):
            return f"that tile would cover a starting space ({where})"
    near = {n for s in ships for n in ctx.neighbours[s]}
    if not any(x in near for x in cells):
        return "a tile must be placed orthogonally next to a ship"
    return "that tile cannot go there"
