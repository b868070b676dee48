"""Action 2: Sail (1+ hours). Move one ship along tiles, rough water, islands and starts.

Costs to *enter* a space: 1 for an ocean tile or a starting space; 1 for an
island, where the ship stops for the rest of the game; 2 for rough water (stop
or pass); 2 for a space with another ship, which the ship must pass through
(never stop). A ship on rough water still costs 2, not 4 (ruling); an island
with a ship on it cannot be entered.

Ruling on notation: a sail names its ship and destination (``sail a2 d3``) and
costs the cheapest legal path; :func:`destinations` gives that path for the UI.
The same routine moves ships for preservation cards, with the card's power in
place of hours (power cannot be topped up with time).
"""

from __future__ import annotations

import heapq

from .content import ROUGH, START1, START2
from .fleet import fleet_ok
from .model import Ctx, Data, ship_at, ship_bits


def passage(ctx: Ctx, d: Data, here: int | None = None, cover: int | None = None) -> tuple[int, int, int]:
    """Bit masks of the spaces that cost 1 hour and 2 hours to enter now, and of the ships.

    1: a tile, an island, a starting space; 2: rough water, or another ship's
    space (passed through, never stopped on); an island with a ship: never.
    `here` and `cover` are the ships' and tiles' bit masks, if already known.
    """
    one, two, island = ctx.terrain_bits(d.terrain)
    if here is None:
        here = ship_bits(d)
    if cover is None:
        cover = ctx.bits_of(bytes(d.cover))
    return (one | cover) & ~here, two | (here & ~island), here


def levels(ctx: Ctx, frm: int, budget: int, one: int, two: int, land: int) -> tuple[list[int], int]:
    """``found[c - 1]``: the cells whose cheapest cost from `frm` is c hours, for
    c = 1, 2, ... up to the last cost reached; and all of those cells (ships'
    spaces included) as one mask.

    `one` and `two` are :func:`passage`'s masks, `land` every cell but the
    islands (a ship entering an island stays there). Steps cost 1 or 2 hours, so
    the search goes hour by hour (Dial's algorithm) moving every cell of an hour
    at once as a bit mask: a few integer operations per hour instead of a loop
    over cells, as legal() searches for every ship on every turn.
    """
    cols = ctx.cols
    nf, nl = ctx.not_first_col, ctx.not_last_col
    src = 1 << frm
    fresh = ~src  # not reached yet
    # Bits shifted past the last cell vanish in `& one` and `& two`: no mask needed.
    near = (src >> cols) | (src << cols) | ((src & nf) >> 1) | ((src & nl) << 1)
    now, after = near & one, near & two  # reached at cost c, at cost c + 1
    out: list[int] = []
    add = out.append
    for _ in range(budget):
        level = now & fresh
        add(level)
        if level:
            fresh ^= level
            src = level & land
            near = (src >> cols) | (src << cols) | ((src & nf) >> 1) | ((src & nl) << 1)
            now, after = after | (near & one), near & two
        elif after:
            now, after = after, 0
        else:
            break
    return out, ~fresh ^ (1 << frm)


def _cells_by_cost(found: list[int], keep: int) -> dict[int, int]:
    out = {}
    for c, m in enumerate(found, 1):
        m &= keep
        while m:
            low = m & -m
            out[low.bit_length() - 1] = c
            m ^= low
    return out


def reach_costs(
    ctx: Ctx,
    d: Data,
    frm: int,
    budget: int,
    way: tuple[int, int, int] | None = None,
) -> dict[int, int]:
    """Cheapest cost to every space the ship on `frm` may stop on within `budget`.

    `way` is :func:`passage` of this position, shared by every ship's search.
    """
    if budget >= 64:  # an unbounded search (why_not): plain heap
        return {c: v[0] for c, v in reach(ctx, d, frm, budget).items()}
    if way is None:
        way = passage(ctx, d)
    one, two, here = way
    return _cells_by_cost(levels(ctx, frm, budget, one, two, ~ctx.terrain_bits(d.terrain)[2])[0], ~here)


def reach(ctx: Ctx, d: Data, frm: int, budget: int) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Cheapest cost and path (excluding `frm`) to every space the ship may stop on."""
    ships = ship_at(d)
    ships.pop(frm, None)
    best = {frm: 0}
    prev: dict[int, int] = {}
    heap = [(0, frm)]
    terrain, cover, helms = d.terrain, d.cover, ctx.helms
    while heap:
        cost, cell = heapq.heappop(heap)
        if cost > best.get(cell, 1 << 30):
            continue
        if cell != frm and terrain[cell] in helms:
            continue  # a ship entering an island stays there
        for n in ctx.neighbours[cell]:
            t = terrain[n]
            island = t in helms
            if n in ships:
                if island:
                    continue
                step = 2
            elif island:
                step = 1
            elif t == ROUGH:
                step = 2
            elif cover[n] or t in (START1, START2):
                step = 1
            else:
                continue
            c2 = cost + step
            if c2 > budget or c2 >= best.get(n, 1 << 30):
                continue
            best[n] = c2
            prev[n] = cell
            heapq.heappush(heap, (c2, n))
    out: dict[int, tuple[int, tuple[int, ...]]] = {}
    for cell, cost in best.items():
        if cell == frm or cell in ships:
            continue
        path = [cell]
        while path[-1] in prev and prev[path[-1]] != frm:
            path.append(prev[path[-1]])
        out[cell] = (cost, tuple(reversed(path)))
    return out


def movable(ctx: Ctx, d: Data, seat: int) -> list[int]:
    """Cells of `seat`'s ships that may still move (not docked at an island)."""
    return [c for c in d.ships[seat] if c >= 0 and d.terrain[c] not in ctx.helms]


def destinations(ctx: Ctx, d: Data, seat: int, frm: int, budget: int) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Legal destinations of the ship on `frm` within `budget`: cell -> (hours, path)."""
    if frm not in movable(ctx, d, seat):
        return {}
    # The fleet rule (fleet.fleet_ok), with the other ships' leftmost column worked out once.
    span = ctx.content.fleet_span
    cols = ctx.cols
    others = min((c % cols for c in d.ships[seat] if c != frm), default=cols)
    back = frm % cols
    out = {}
    for c, v in reach(ctx, d, frm, budget).items():
        dc = c % cols
        if dc <= min(others, dc) + span or dc <= back:
            out[c] = v
    return out


def destination_costs(
    ctx: Ctx,
    d: Data,
    seat: int,
    frm: int,
    budget: int,
    way: tuple[int, int, int] | None = None,
) -> dict[int, int]:
    """Like :func:`destinations` but hours only: what legal() and apply() need."""
    if frm not in movable(ctx, d, seat):
        return {}
    if budget >= 64:
        return {c: v[0] for c, v in destinations(ctx, d, seat, frm, budget).items()}
    if way is None:
        way = passage(ctx, d)
    # The fleet rule (fleet.fleet_ok): a destination in column dc is allowed when
    # dc <= min(others, dc) + span or dc <= back, that is dc <= max(others, others + span, back).
    cols = ctx.cols
    others = min((c % cols for c in d.ships[seat] if c != frm), default=cols)
    limit = max(others, others + ctx.content.fleet_span, frm % cols)
    one, two, here = way
    keep = ctx.upto_col[min(limit, cols - 1)] & ~here
    return _cells_by_cost(levels(ctx, frm, budget, one, two, ~ctx.terrain_bits(d.terrain)[2])[0], keep)


def move(d: Data, seat: int, frm: int, to: int) -> None:
    k = d.ships[seat].index(frm)
    d.ships[seat][k] = to


def why_not(ctx: Ctx, d: Data, seat: int, frm: int, to: int, budget: int, bonus: bool = False) -> str:
    if frm not in d.ships[seat]:
        return f"you have no ship on {ctx.names[frm]}"
    if d.terrain[frm] in ctx.helms:
        return "that ship has docked at an island and stays there for the rest of the game"
    if frm == to:
        return "the ship must move"
    unlimited = reach(ctx, d, frm, 1 << 20)
    if to not in unlimited:
        t = d.terrain[to]
        if to in ship_at(d):
            return "a ship may pass through another ship's space but never stop there"
        if t == "#":
            return f"{ctx.names[to]} is shore; ships cannot go there"
        if d.fish[to]:
            return f"{ctx.names[to]} holds a fish; ships sail only on tiles, rough water, islands and starting spaces"
        if not d.cover[to] and t not in ctx.helms and t not in (ROUGH, START1, START2):
            return f"{ctx.names[to]} is calm water: chart an ocean tile there before sailing onto it"
        return f"no route of tiles, rough water, islands or starting spaces leads to {ctx.names[to]}"
    cost = unlimited[to][0]
    if cost > budget:
        if bonus:
            return f"Sailing there needs power {cost}; the card gives {budget} (time cannot add to it)"
        return f"Sailing there costs {cost} hours; you have {budget}"
    if not fleet_ok(ctx, d, seat, frm, to):
        return f"fleet rule: no ship may end more than {ctx.content.fleet_span} columns right of your leftmost ship"
    return "that ship cannot sail there"
