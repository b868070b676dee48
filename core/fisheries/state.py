"""The Fisheries of Gloucester position: dispatches to the rule modules.

Each rule lives in the module named after it (setup, days, chart_a_course,
sail, fleet, fish, preserve, lobster, end_of_day, scoring, variant_setup,
market); this file only routes phases and actions to them.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from coldwater.core.state import CHANCE, Scores, State, notation_key

from . import chart_a_course, end_of_day, fish, fleet, lobster, market, preserve, sail, scoring, setup, variant_setup
from .actions import (
    CODEC,
    BonusSail,
    BonusTile,
    Chart,
    Done,
    EndDay,
    FAction,
    Fish,
    Flip,
    Keep,
    Lobster,
    Pass,
    Preserve,
    Put,
    Reveal,
    Sail,
    Start,
    Stock,
)
from .days import apply_flip, finish_action, flip_outcomes
from .model import Ctx, Data, ship_at

_CHANCE_PHASES = ("setup", "stock", "dawn")


def _first(kv: tuple[str, Any]) -> str:
    return kv[0]


class FisheriesState(State[FAction, Data]):
    GAME = "fisheries"
    DATA = Data
    CODEC = CODEC
    CTX: ClassVar[Ctx]

    @property
    def players(self) -> int:
        return 2

    # ---- helpers ------------------------------------------------------------
    def _cell(self, name: str) -> int:
        """Index of a cell name, -1 if it is not a cell of this board."""
        return self.CTX.by_name.get(name, -1)

    def _names(self, cells: tuple[int, ...] | list[int]) -> tuple[str, ...]:
        return tuple(self.CTX.names[c] for c in cells)

    def _reveals(self) -> list[tuple[Reveal, int]]:
        d = self.data
        return market.row_outcomes(d) if d.market else preserve.stack_reveal_outcomes(d)

    # ---- UI helpers ---------------------------------------------------------
    def chart_options(self, shape: str) -> list[tuple[str, ...]]:
        """Every legal placement of `shape` right now (cell names), for previews."""
        if shape not in self.CTX.shape_index:
            return []
        return [self._names(p) for p in chart_a_course.placements(self.CTX, self.data, shape)]

    def sail_options(self, frm: str, budget: int | None = None) -> dict[str, tuple[int, tuple[str, ...]]]:
        """Legal destinations of the ship on `frm`: name -> (hours, path of cell names).

        `budget` defaults to the owner's hours (or the sailing power of a pending card).
        """
        d = self.data
        c = self._cell(frm)
        seat = next((s for s in (0, 1) if c in d.ships[s]), -1)
        if c < 0 or seat < 0:
            return {}
        if budget is None:
            budget = d.bonus_move if d.phase == "bonus" else d.time[seat]
        dests = sail.destinations(self.CTX, d, seat, c, budget)
        return {self.CTX.names[k]: (cost, self._names(path)) for k, (cost, path) in sorted(dests.items())}

    def cell_name(self, row: int, col: int) -> str:
        """Notation name of the square at 0-based (row, col), e.g. (1, 0) -> "a2"."""
        return self.CTX.names[row * self.CTX.cols + col]

    def cell_coords(self, name: str) -> tuple[int, int]:
        """0-based (row, col) of a square's notation name; ValueError if it is not on the board."""
        i = self._cell(name)
        if i < 0:
            raise ValueError(f"{name!r} is not a square of this board")
        return divmod(i, self.CTX.cols)

    def fleet_limits(self, seat: int) -> tuple[int, int]:
        """The progress board: (column of the ship nearest shore, furthest column allowed), 1-based."""
        return fleet.progress(self.CTX, self.data, seat)

    # ---- contract hooks -----------------------------------------------------
    def _current(self) -> int | None:
        d = self.data
        if d.phase == "over":
            return None
        if self._reveals() or d.phase in _CHANCE_PHASES:
            return CHANCE
        if d.phase == "place":
            return d.placer
        return d.turn

    def _chance_weights(self) -> list[tuple[Any, int]]:
        d = self.data
        rev = self._reveals()
        if rev:
            return list(rev)
        if d.phase == "setup":
            return list(setup.start_outcomes(d))
        if d.phase == "stock":
            return list(setup.stock_outcomes(self.CTX, d))
        if d.phase == "dawn":
            return list(flip_outcomes(d))
        return []

    def _legal_actions(self) -> list[Any]:
        ctx, d = self.CTX, self.data
        if self._current() == CHANCE:
            return [a for a, _ in self._chance_weights()]
        p = d.turn
        ph = d.phase
        out: list[Any] = []
        if ph == "place":
            return [Put(piece, ctx.names[c]) for piece, c in variant_setup.options(ctx, d)]
        if ph == "keep":
            return [Keep(s) for s in end_of_day.keep_options(ctx, d, p)]
        if ph == "lobster":
            return [Lobster(), Pass()]
        if ph == "fishing":
            return [Fish(ctx.names[c]) for c in fish.fishable(ctx, d, p)] + [Done()]
        if ph == "bonus":
            out = [BonusSail(ctx.names[f], ctx.names[t]) for f, t in preserve.bonus_sails(ctx, d, p)]
            out += [BonusTile(self._names(cells)) for cells in preserve.bonus_tiles(ctx, d)]
            return out + [Done()]
        # phase "turn"
        if d.double:
            out.append(Pass())
        else:
            out += [EndDay(go) for (go,) in end_of_day.end_options(d)]
        blocked = None
        for k, n in enumerate(d.supply[p]):
            if n > 0:
                shape = ctx.shapes[k]
                if blocked is None:
                    blocked = chart_a_course.blocked_mask(ctx, d, ship_at(d))
                out += [Chart(shape, self._names(cells)) for cells in chart_a_course.placements(ctx, d, shape, blocked)]
        if d.time[p] > 0:
            ships = ship_at(d)
            entry = sail.entry_costs(ctx, d, ships)  # shared by every ship's search
            for frm in sail.movable(ctx, d, p):
                for to in sail.destination_costs(ctx, d, p, frm, d.time[p], entry, ships):
                    out.append(Sail(ctx.names[frm], ctx.names[to]))
        out += [Fish(ctx.names[c]) for c in fish.fishable(ctx, d, p)]
        out += [Preserve(card, pay) for card, pay in preserve.options(ctx, d, p)]
        return out

    def _sorted_legal(self) -> list[Any]:
        # Charts and sails are most of a turn's actions: their notation is built
        # here directly ("chart L a1,a2", "sail a1 b2") rather than encoded.
        keyed = []
        for a in self._legal_actions():
            t = type(a)
            if t is Chart:
                k = "chart " + a.shape + " " + ",".join(a.cells)
            elif t is Sail:
                k = "sail " + a.frm + " " + a.to
            else:
                k = notation_key(a)
            keyed.append((k, a))
        keyed.sort(key=_first)
        return [a for _, a in keyed]

    def _apply(self, a: Any) -> None:
        ctx, d = self.CTX, self.data
        p = d.turn
        if isinstance(a, Reveal):
            if d.market:
                market.apply_row_reveal(d, a.card)
            else:
                preserve.apply_stack_reveal(d, a.card)
        elif isinstance(a, Start):
            setup.apply_start(ctx, d, a.seat)
        elif isinstance(a, Stock):
            setup.apply_stock(ctx, d, self._cell(a.cell), a.colour)
        elif isinstance(a, Flip):
            apply_flip(ctx, d, a.card)
        elif isinstance(a, Put):
            variant_setup.apply_put(ctx, d, a.piece, self._cell(a.cell))
        elif isinstance(a, Chart):
            d.supply[p][ctx.shape_index[a.shape]] -= 1
            chart_a_course.place(ctx, d, a.shape, tuple(self._cell(c) for c in a.cells))
            finish_action(d)
        elif isinstance(a, Sail):
            frm, to = self._cell(a.frm), self._cell(a.to)
            cost = sail.destination_costs(ctx, d, p, frm, d.time[p])[to]
            d.time[p] -= cost
            sail.move(d, p, frm, to)
            finish_action(d)
        elif isinstance(a, Fish):
            fish.take(ctx, d, p, self._cell(a.cell))
            d.phase = "fishing"
            if not fish.fishable(ctx, d, p):
                finish_action(d)
        elif isinstance(a, Done):
            preserve.clear_bonus(d)
            finish_action(d)
        elif isinstance(a, Preserve):
            if preserve.apply_preserve(ctx, d, p, a.card, a.fish):
                d.phase = "bonus"
            else:
                preserve.clear_bonus(d)
                finish_action(d)
        elif isinstance(a, BonusSail):
            sail.move(d, p, self._cell(a.frm), self._cell(a.to))
            d.bonus_move = 0
            self._after_bonus()
        elif isinstance(a, BonusTile):
            assert d.bonus_tile is not None
            d.general[ctx.shape_index[d.bonus_tile]] -= 1
            chart_a_course.place(ctx, d, d.bonus_tile, tuple(self._cell(c) for c in a.cells))
            d.bonus_tile = None
            self._after_bonus()
        elif isinstance(a, Lobster):
            lobster.apply_lobster(d)
        elif isinstance(a, Pass):
            lobster.apply_pass(d)
        elif isinstance(a, EndDay):
            end_of_day.apply_end(ctx, d, a.go)
        elif isinstance(a, Keep):
            end_of_day.apply_keep(ctx, d, a.shape)
        else:  # pragma: no cover - legal() never offers anything else
            raise AssertionError(a)

    def _after_bonus(self) -> None:
        d = self.data
        if not preserve.bonus_possible(self.CTX, d, d.turn):
            preserve.clear_bonus(d)
            finish_action(d)

    def _redact(self, seat: int | None) -> Data:
        # Nothing is hidden: future chart cards and reveals are chance, not state.
        return msgspec.msgpack.decode(msgspec.msgpack.encode(self.data), type=Data)

    def _scores(self) -> Scores:
        return scoring.scores(self.CTX, self.data)

    # ---- words for people -----------------------------------------------------
    def why_illegal(self, action: FAction) -> str:
        from .explain import why_illegal

        return why_illegal(self, action)

    def describe(self, action: FAction) -> str:
        from .explain import describe

        return describe(self, action)
