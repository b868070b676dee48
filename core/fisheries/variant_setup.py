"""Variant Setup (option ``board="B"``): the players lay out the B side.

Reading of the rulebook ("place the island tiles, rough water tiles, and fish
tokens ... as you see fit; keep the first two columns clear; both evaluate the
placement ... so it is not unfair"), made into rules a program can enforce:

- After the starting player is drawn, the players alternate, the *non-starting*
  player first (the starter already moves first on day 1).
- Order of pieces: the 6 islands (the placer picks which helm value), then the 6
  rough-water tiles, then 24 fish spaces. Each goes on an empty calm space
  outside the first ``variant_clear_columns`` (2) columns.
- Reachability: ships travel over every space but shore and islands (calm water
  can be charted, rough water sailed, fish spaces emptied and charted). Every
  island must border a space reachable from the starting spaces that way, and
  every fish space must be reachable; a placement that breaks this is illegal.
- The fish themselves are then drawn at random onto the chosen spaces, exactly
  as on the A side, so nobody chooses colours.
"""

from __future__ import annotations

from .content import CALM, FISH, ROUGH, SHORE
from .model import Ctx, Data


def begin_placement(ctx: Ctx, d: Data) -> None:
    c = ctx.content
    d.phase = "place"
    d.placer = 1 - d.initiative
    d.to_place = list(c.variant_islands) + ["rough"] * c.variant_rough + ["fish"] * ctx.total_fish


def _component(ctx: Ctx, terrain: str) -> set[int]:
    """Spaces a ship could eventually reach from the starting spaces."""
    todo = [i for i, t in enumerate(terrain) if t in ("1", "2")]
    seen = set(todo)
    while todo:
        x = todo.pop()
        for n in ctx.neighbours[x]:
            if n not in seen and terrain[n] != SHORE and terrain[n] not in ctx.helms:
                seen.add(n)
                todo.append(n)
    return seen


def _all_reachable(ctx: Ctx, terrain: str) -> bool:
    comp = _component(ctx, terrain)
    for i, t in enumerate(terrain):
        if t in ctx.helms and not any(n in comp for n in ctx.neighbours[i]):
            return False
        if t == FISH and i not in comp:
            return False
    return True


def _room(ctx: Ctx, terrain: str, d: Data) -> bool:
    """With `terrain`, enough free spaces remain for the rough water and fish."""
    comp = _component(ctx, terrain)
    clear = ctx.content.variant_clear_columns
    free = [i for i, t in enumerate(terrain) if t == CALM and ctx.col(i) >= clear]
    fish_left = d.to_place.count("fish")
    rough_left = d.to_place.count("rough")
    return sum(1 for i in free if i in comp) >= fish_left and len(free) >= fish_left + rough_left


def _ring(ctx: Ctx, cell: int) -> list[int]:
    """The 8 cells around `cell` in cyclic order (-1 off the board)."""
    r, c = divmod(cell, ctx.cols)
    out = []
    for dr, dc in ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)):
        rr, cc = r + dr, c + dc
        out.append(rr * ctx.cols + cc if 0 <= rr < ctx.rows and 0 <= cc < ctx.cols else -1)
    return out


def _locally_safe(ctx: Ctx, terrain: str, cell: int) -> bool:
    """True if blocking `cell` cannot cut the passable area: its passable orthogonal
    neighbours are joined by one unbroken run of passable cells around it."""
    ring = _ring(ctx, cell)
    ok = [x >= 0 and terrain[x] != SHORE and terrain[x] not in ctx.helms for x in ring]
    if all(ok):
        return True
    runs = 0
    seen_edge_runs = set()
    start = ok.index(False)
    run_id = -1
    for k in range(1, 9):
        i = (start + k) % 8
        if ok[i]:
            if not ok[(i - 1) % 8]:
                runs += 1
                run_id = runs
            if i % 2 == 1:  # orthogonal neighbours sit at odd ring positions
                seen_edge_runs.add(run_id)
    return len(seen_edge_runs) <= 1


def _island_ok(ctx: Ctx, d: Data, cell: int, comp: set[int], comp_free: int, free: int, fish_left: int) -> bool:
    """Placing an island on `cell` keeps every island reachable and leaves room for the rest."""
    t2 = d.terrain[:cell] + next(iter(ctx.helms)) + d.terrain[cell + 1 :]
    if cell in comp and not _locally_safe(ctx, d.terrain, cell):
        return _all_reachable(ctx, t2) and _room(ctx, t2, d)  # a possible cut: check in full
    for i in [k for k, t in enumerate(d.terrain) if t in ctx.helms] + [cell]:
        if not any(n in comp and n != cell for n in ctx.neighbours[i]):
            return False
    rough_left = d.to_place.count("rough")
    return comp_free - (cell in comp) >= fish_left and free - 1 >= fish_left + rough_left


def pieces_now(d: Data) -> list[str]:
    """Pieces the placer may choose from now (all islands come first)."""
    islands = sorted({p for p in d.to_place if p not in ("rough", "fish")})
    if islands:
        return islands
    return [d.to_place[0]] if d.to_place else []


def symbol(piece: str) -> str:
    return ROUGH if piece == "rough" else FISH if piece == "fish" else piece


def _free(ctx: Ctx, d: Data, cell: int) -> bool:
    return d.terrain[cell] == CALM and ctx.col(cell) >= ctx.content.variant_clear_columns


def options(ctx: Ctx, d: Data) -> list[tuple[str, int]]:
    out = []
    comp = _component(ctx, d.terrain)
    fish_left = d.to_place.count("fish")
    comp_free = sum(1 for c in comp if _free(ctx, d, c))
    free = sum(1 for c in range(ctx.n) if _free(ctx, d, c))
    island_ok: dict[int, bool] = {}  # every island symbol blocks alike: test each cell once
    for piece in pieces_now(d):
        for cell in range(ctx.n):
            if not _free(ctx, d, cell):
                continue
            if piece == "fish":
                ok = cell in comp  # a fish space never blocks anything
            elif piece == "rough":
                # Rough water can be sailed, so it never blocks; it must only leave
                # enough reachable calm spaces for the fish still to come.
                ok = comp_free - (cell in comp) >= fish_left
            else:
                if cell not in island_ok:
                    island_ok[cell] = _island_ok(ctx, d, cell, comp, comp_free, free, fish_left)
                ok = island_ok[cell]
            if ok:
                out.append((piece, cell))
    return out


def apply_put(ctx: Ctx, d: Data, piece: str, cell: int) -> None:
    d.terrain = d.terrain[:cell] + symbol(piece) + d.terrain[cell + 1 :]
    d.to_place.remove(piece)
    d.placer = 1 - d.placer
    if not d.to_place:
        d.phase = "stock"


def why_not(ctx: Ctx, d: Data, piece: str, cell: int) -> str:
    if piece not in pieces_now(d):
        return f"place one of: {', '.join(pieces_now(d))}" if pieces_now(d) else "nothing is left to place"
    if ctx.col(cell) < ctx.content.variant_clear_columns:
        return f"keep the first {ctx.content.variant_clear_columns} columns clear"
    if d.terrain[cell] != CALM:
        return f"{ctx.names[cell]} is not an empty calm space"
    return "that would leave an island or fish that no ship can ever reach"
