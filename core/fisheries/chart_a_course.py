"""Action 1: Chart a Course (no hours). Place one ocean tile from your supply.

- At least one square orthogonally adjacent to a space with a ship (either colour).
- Inside the grid, on calm water only: never on a fish, an island, the shore, a
  ship, rough water, a starting space or another tile. A fish space whose fish
  has been taken is calm water again.
- Any rotation or reflection. One tile per action; the action may be repeated.
"""

from __future__ import annotations

from collections.abc import Iterable

from .actions import Chart
from .content import CALM, FISH
from .model import Ctx, Data, Placed, ship_at, ship_bits


def coverable(ctx: Ctx, d: Data, cell: int, ships: dict[int, tuple[int, int]]) -> bool:
    t = d.terrain[cell]
    return (t == CALM or (t == FISH and not d.fish[cell])) and not d.cover[cell] and cell not in ships


def blocked_mask(ctx: Ctx, d: Data, here: int | None = None, cover: int | None = None) -> int:
    """Spaces a tile may not cover now, as a bit mask (see :func:`coverable`).

    `here` and `cover` are the ships' and tiles' bit masks, if already known.
    """
    if here is None:
        here = ship_bits(d)
    if cover is None:
        cover = ctx.bits_of(bytes(d.cover))
    return ctx.static_blocked(d.terrain) | cover | ctx.bits_of(bytes(map(bool, d.fish))) | here


def placement_set(ctx: Ctx, shape: str, blocked: int, near: int) -> set[tuple[int, ...]]:
    """Every legal placement of `shape`, unordered. `near`: the free spaces beside a
    ship (``ctx.spread(ships) & ~blocked``), one of which every legal tile covers."""
    fp = ctx.footprints(shape)
    out: set[tuple[int, ...]] = set()
    while near:
        low = near & -near
        near ^= low
        out.update(cells for mask, cells in fp[low.bit_length() - 1] if not mask & blocked)
    return out


def keyed_placements(ctx: Ctx, terrain: str, shape: str, blocked: int, near: int) -> Iterable[tuple[str, Chart]]:
    """:func:`placement_set` as legal() wants it: each (notation, Chart action) once."""
    fp = ctx.chart_entries(terrain, shape)
    found = {}
    while near:
        low = near & -near
        near ^= low
        x = low.bit_length() - 1
        here = fp[x]
        if here is None:
            here = ctx.chart_cell(terrain, shape, x)
        for mask, e in here:
            if not mask & blocked:
                found[mask] = e
    return found.values()


def placements(ctx: Ctx, d: Data, shape: str, blocked: int | None = None) -> list[tuple[int, ...]]:
    """Every legal placement of `shape` now, as sorted cell tuples (for UI previews too)."""
    here = ship_bits(d)
    if blocked is None:
        blocked = blocked_mask(ctx, d, here)
    return sorted(placement_set(ctx, shape, blocked, ctx.spread(here) & ~blocked))


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
