"""The greedy bot: one-step rules of thumb, no search. Deterministic given its Rng.

In order of preference on a turn: preserve the most valuable card it can pay
for; fish next to its ships; dock at a free island it can reach; sail next to
fish; chart a tile towards fish or islands; sail towards them; end the day.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.search import score_values
from coldwater.core.state import State

from . import fish, preserve, sail
from .actions import BonusSail, BonusTile, Chart, Done, EndDay, Fish, Keep, Lobster, Pass, Preserve, Put, Sail
from .content import SHORE
from .model import Ctx, Data, ship_at

_FAR = 1 << 20


def target_distance(ctx: Ctx, d: Data, islands_only: bool = False) -> list[int]:
    """Steps from each cell to the nearest place worth a ship: next to a fish, or a free island."""
    ships = ship_at(d)
    dist = [_FAR] * ctx.n
    todo: list[int] = []
    for i in range(ctx.n):
        t = d.terrain[i]
        if (t in ctx.helms and i not in ships) or (
            not islands_only and t not in ctx.helms and t != SHORE and any(d.fish[n] for n in ctx.neighbours[i])
        ):
            dist[i] = 0
            todo.append(i)
    k = 0
    while k < len(todo):
        x = todo[k]
        k += 1
        for n in ctx.neighbours[x]:
            t = d.terrain[n]
            if dist[n] == _FAR and t != SHORE and t not in ctx.helms:
                dist[n] = dist[x] + 1
                todo.append(n)
    return dist


# How the search ranks the moves the greedy bot would not make (its pick ranks first).
_PRIOR: dict[type, float] = {
    Preserve: 0.8,
    Fish: 0.7,
    BonusSail: 0.6,
    Sail: 0.5,
    BonusTile: 0.45,
    Chart: 0.4,
    Lobster: 0.3,
    EndDay: 0.3,
    Keep: 0.3,
}


class GreedyBot:
    name = "greedy"

    def values(self, view: State[Any, Any], legal: Sequence[Action]) -> list[float]:
        """For the search: the greedy pick first, then the rest by kind of move."""
        pick = self.choose(view, Rng("fisheries-greedy"))
        return [1.0 if a == pick else _PRIOR.get(type(a), 0.2) for a in legal]

    def __init__(self, preserve_min: int = 3, lobster_from_day: int = 1, island_day: int = 99) -> None:
        self.island_day = island_day
        """From this day on, chart and sail towards islands rather than fish."""
        self.preserve_min = preserve_min
        """Early in the game, preserve only cards worth at least this much."""
        self.lobster_from_day = lobster_from_day

    def choose(self, view: State[Any, Any], rng: Rng) -> Action:
        legal: list[Action] = view.legal()
        if len(legal) == 1:
            return legal[0]
        ctx: Ctx = view.CTX  # type: ignore[attr-defined]
        d: Data = view.data
        ph = d.phase
        if ph == "place":
            # Islands far out (worth the trip, as on the A side); the rest anywhere legal.
            far = [
                a
                for a in legal
                if isinstance(a, Put)
                and a.piece in ctx.helms
                and ctx.col(ctx.by_name[a.cell]) >= ctx.cols // 2 + ctx.helms[a.piece]
            ]
            return rng.choice(far or legal)
        if ph == "keep":
            shapes = [a.shape for a in legal if isinstance(a, Keep) and a.shape is not None]
            best = max(shapes, key=lambda sh: (len(ctx.orientations[sh][0]), ctx.shape_index[sh]))
            return Keep(best)
        if ph == "lobster":
            late = d.day >= self.lobster_from_day
            useful = fish.fishable(ctx, d, d.turn) or preserve.options(ctx, d, d.turn)
            return Lobster() if late and useful else Pass()
        if ph == "fishing":
            return self._pick_fish(ctx, d, legal) or Done()
        if ph == "bonus":
            return self._bonus(ctx, d, legal)
        return self._turn(ctx, d, legal)

    # ---- pieces ---------------------------------------------------------------
    def _pick_fish(self, ctx: Ctx, d: Data, legal: list[Action]) -> Action | None:
        fishes = [a for a in legal if isinstance(a, Fish)]
        if not fishes:
            return None
        have = d.catch[d.turn]
        # Prefer a colour not yet held (different-colour cards), then the most held.
        return min(
            fishes,
            key=lambda a: (
                have[ctx.colour_index[d.fish[ctx.by_name[a.cell]]]] != 0,
                -have[ctx.colour_index[d.fish[ctx.by_name[a.cell]]]],
                a.cell,
            ),
        )

    def _bonus(self, ctx: Ctx, d: Data, legal: list[Action]) -> Action:
        dist = target_distance(ctx, d)
        # Ordered by (kind, distance, cells): sails to a helm, other sails, then tiles.
        key: tuple[int, int, str]
        best: tuple[tuple[int, int, str], Action] | None = None
        for a in legal:
            if isinstance(a, BonusSail):
                to = ctx.by_name[a.to]
                key = (0 if d.terrain[to] in ctx.helms else 1, dist[to], a.to)
            elif isinstance(a, BonusTile):
                key = (2, min(dist[ctx.by_name[c]] for c in a.cells), ",".join(a.cells))
            else:
                continue
            if best is None or key < best[0]:
                best = (key, a)
        return best[1] if best else Done()

    def _turn(self, ctx: Ctx, d: Data, legal: list[Action]) -> Action:
        p = d.turn
        days = ctx.content.days
        # 1. Preserve the best card (skip 1-point cards early while fish are few).
        pres = [a for a in legal if isinstance(a, Preserve)]
        if pres:

            def value(a: Preserve) -> tuple[int, int]:
                card = ctx.cards[a.card]
                helm = card.action.amount if card.action.kind == "helm" else 0
                return (card.vp + helm, -len(a.fish))

            best = max(pres, key=lambda a: (value(a), a.card, a.fish))
            if value(best)[0] >= self.preserve_min or d.day >= days - 1 or sum(d.catch[p]) >= 4:
                return best
        # 2. Fish.
        f = self._pick_fish(ctx, d, legal)
        if f is not None:
            return f
        sails = [a for a in legal if isinstance(a, Sail)]
        costs = {}
        for a in sails:
            frm = ctx.by_name[a.frm]
            if frm not in costs:
                costs[frm] = sail.destination_costs(ctx, d, p, frm, d.time[p])
        # 3. Dock at an island (the most helms, cheapest).
        docks = [a for a in sails if d.terrain[ctx.by_name[a.to]] in ctx.helms]
        if docks:
            return max(
                docks,
                key=lambda a: (
                    ctx.helms[d.terrain[ctx.by_name[a.to]]],
                    -costs[ctx.by_name[a.frm]][ctx.by_name[a.to]],
                    a.to,
                ),
            )

        # 4. Sail next to fish, keeping an hour to fish with.
        def near_fish(cell: int) -> int:
            return sum(1 for n in ctx.neighbours[cell] if d.fish[n])

        fishy = [
            a
            for a in sails
            if near_fish(ctx.by_name[a.to]) and costs[ctx.by_name[a.frm]][ctx.by_name[a.to]] < d.time[p]
        ]
        if fishy:
            return max(
                fishy,
                key=lambda a: (near_fish(ctx.by_name[a.to]) * 3 - costs[ctx.by_name[a.frm]][ctx.by_name[a.to]], a.to),
            )
        dist = target_distance(ctx, d, islands_only=d.day >= self.island_day)
        if min(dist) >= _FAR:
            dist = target_distance(ctx, d)
        here = min((dist[c] for c in d.ships[p] if d.terrain[c] not in ctx.helms), default=_FAR)
        # 5. Chart towards fish or islands: the tile must get closer than the ship it touches.
        charts = [a for a in legal if isinstance(a, Chart)]
        if charts:
            mine = [c for c in d.ships[p] if d.terrain[c] not in ctx.helms]

            def gain(a: Chart) -> tuple[int, int, int, str]:
                cells = [ctx.by_name[c] for c in a.cells]
                near = min(dist[c] for c in cells)
                touching = [dist[s] for s in mine if any(s in ctx.neighbours[c] for c in cells)]
                base = min(touching) if touching else here
                return (base - near, -near, len(cells), ",".join(a.cells))

            best_c = max(charts, key=gain)
            if gain(best_c)[0] > 0:
                return best_c
        # 6. Sail towards the targets: the most progress per hour.
        if sails:

            def progress(a: Sail) -> tuple[float, int, str]:
                frm, to = ctx.by_name[a.frm], ctx.by_name[a.to]
                cost = costs[frm][to]
                return ((dist[frm] - dist[to]) / cost, -dist[to], a.to)

            best_s = max(sails, key=progress)
            if progress(best_s)[0] > 0:
                return best_s
        # 7. Bring the rear ship forward when the fleet rule holds the others back.
        if sails:
            mov = [c for c in d.ships[p] if d.terrain[c] not in ctx.helms]
            cols = [ctx.col(c) for c in d.ships[p]]
            if mov and max(cols) - min(cols) >= ctx.content.fleet_span - 1:
                rear = min(d.ships[p], key=lambda c: (ctx.col(c), c))
                ahead = [a for a in sails if ctx.by_name[a.frm] == rear and ctx.col(ctx.by_name[a.to]) > ctx.col(rear)]
                if ahead:
                    return max(ahead, key=lambda a: (ctx.col(ctx.by_name[a.to]), -costs[rear][ctx.by_name[a.to]], a.to))
        # 8. End the day (going second brings an extra hour).
        for act in legal:
            if isinstance(act, EndDay) and act.go in (None, "second"):
                return act
        if Pass() in legal:
            return Pass()
        return legal[0]


def evaluate(state: State[Any, Any], anchor: tuple[int, ...]) -> list[float]:
    """Worth of a position to each seat: the win and the margin in points.

    Points come from preserved cards and islands as the game goes, so the
    sheet part-way through is a fair stand-in for the end.
    """
    return score_values(state.scores(), state.players, scale=2.0)
