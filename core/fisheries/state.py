"""The Fisheries of Gloucester position: dispatches to the rule modules.

Each rule lives in the module named after it (setup, days, chart_a_course,
sail, fleet, fish, preserve, lobster, end_of_day, scoring, variant_setup,
market); this file only routes phases and actions to them.
"""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any, ClassVar

from coldwater.core.state import CHANCE, SETUP, Scores, State, Turn, notation_key

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
from .days import apply_flip, flip_outcomes
from .lobster import after_action as finish_action
from .model import Ctx, Data, bit_mask

_CHANCE_PHASES = ("setup", "stock", "dawn")


_KEY = operator.itemgetter(0)
_ACTION = operator.itemgetter(1)
_TOP = operator.attrgetter("top")
_BIT = (1).__lshift__
"""Cell -> its bit (see model.bit_mask)."""


def _keyed(a: Any) -> tuple[str, Any]:
    return notation_key(a), a


_PASS = (_keyed(Pass()),)
_END_FIRST = (_keyed(EndDay("first")), _keyed(EndDay("second")))
_END_ALONE = (_keyed(EndDay(None)),)
_LOBSTER = (_keyed(Lobster()), _keyed(Pass()))


class FisheriesState(State[FAction, Data]):
    GAME = "fisheries"
    DATA = Data
    CODEC = CODEC
    CTX: ClassVar[Ctx]
    _sail_levels: dict[int, list[int]] | None = None
    """Each ship's cells by sailing cost (sail.levels), found by legal() and read
    by the apply that follows it; per instance, so clones and views never share it."""
    _chance: list[tuple[tuple[str, Any], int]] | None = None
    """This position's chance outcomes (see _chance_keyed); per instance too."""

    @property
    def players(self) -> int:
        return 2

    def turn(self) -> Turn | None:
        d = self.data
        if d.day == 0:
            return Turn(SETUP)
        return Turn(d.turn, round=d.day)  # each day is a round

    # ---- helpers ------------------------------------------------------------
    def _cell(self, name: str) -> int:
        """Index of a cell name, -1 if it is not a cell of this board."""
        return self.CTX.by_name.get(name, -1)

    def _names(self, cells: tuple[int, ...] | list[int]) -> tuple[str, ...]:
        return tuple(self.CTX.names[c] for c in cells)

    def _reveals(self) -> list[tuple[Reveal, int]]:
        d = self.data
        if d.market:
            return market.row_outcomes(d)
        # `in` over map tests every stack's top in C: usually none is waiting.
        return preserve.stack_reveal_outcomes(d) if None in map(_TOP, d.stacks) else []

    def _reveal_pending(self) -> bool:
        """Whether :meth:`_reveals` is non-empty, without building the outcomes."""
        d = self.data
        if d.market:
            return bool(d.pile) and None in d.row
        for s in d.stacks:  # noqa: SIM110 - a loop, not any(genexpr): current asks this on every call
            if s.top is None and s.rest:
                return True
        return False

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
        ph = d.phase
        if ph in _CHANCE_PHASES:
            return CHANCE
        if ph == "over":
            return None
        # A preservation card waiting to be revealed is chance, whatever the phase.
        if d.market:
            if d.pile and None in d.row:
                return CHANCE
        elif None in map(_TOP, d.stacks) and self._reveal_pending():  # `in` over map: no Python loop
            return CHANCE
        return d.placer if ph == "place" else d.turn

    def _chance_keyed(self) -> list[tuple[tuple[str, Any], int]]:
        """The pending chance outcomes as ((notation, outcome), weight), in the engine's order.

        Worked out once per position: legal() and then sample_chance() both ask.
        The copy is kept on this instance only while its legal() is (apply clears
        both), so a clone, a view or a position changed by hand never sees it.
        """
        got = self._chance
        if got is not None and self._legal is not None:
            return got
        d = self.data
        rev: list[tuple[Any, int]] = self._reveals()
        if not rev and d.phase == "stock":  # a quarter of a game's plies: its own table
            self._chance = out = setup.keyed_stock_outcomes(self.CTX, d)
            return out
        if not rev:
            if d.phase == "setup":
                rev = setup.start_outcomes(d)
            elif d.phase == "dawn":
                rev = flip_outcomes(d)
        # The same outcome is the same object every time, so apply() finds it by identity.
        memo = self.CTX.outcome_memo
        out = []
        for a, w in rev:
            e = memo.get(a)
            if e is None:
                e = memo[a] = _keyed(a)
            out.append((e, w))
        self._chance = out
        return out

    def _chance_weights(self) -> list[tuple[Any, int]]:
        return [(e[1], w) for e, w in self._chance_keyed()]

    def chance_outcomes(self) -> list[tuple[Any, int]]:
        if self._current() != CHANCE:
            return []
        # By notation, as the base class sorts them: each pair starts with its
        # notation, and equal outcomes are one shared pair, so tuples compare.
        return [(e[1], w) for e, w in sorted(self._chance_keyed())]

    def _legal_actions(self) -> list[Any]:
        cur = self._current()
        return [] if cur is None else [a for _, a in self._keyed_legal(cur)]

    def legal(self) -> list[Any]:
        # The base class's legal(), asking _current() once instead of twice:
        # a search calls this on every position it reaches.
        got = self._legal
        if got is None:
            cur = self._current()
            if cur is None:
                got = []
            else:
                keyed = self._keyed_legal(cur)
                keyed.sort(key=_KEY)
                got = list(map(_ACTION, keyed))
            self._legal = got
        return list(got)

    def _keyed_legal(self, cur: int) -> list[tuple[str, Any]]:
        """Every legal action with its notation (the sort key), in any order; `cur`
        is :meth:`_current` of this position, not None."""
        ctx, d = self.CTX, self.data
        self._sail_levels = None
        if cur == CHANCE:
            return [e for e, _ in self._chance_keyed()]
        ph = d.phase
        if ph == "turn":
            return self._keyed_turn()
        out: list[Any] = []
        if ph == "place":
            out = [Put(piece, ctx.names[c]) for piece, c in variant_setup.options(ctx, d)]
        elif ph == "keep":
            out = [Keep(s) for s in end_of_day.keep_options(ctx, d, d.turn)]
        elif ph == "lobster":
            return list(_LOBSTER)
        elif ph == "fishing":
            out = [Fish(ctx.names[c]) for c in fish.fishable(ctx, d, d.turn)] + [Done()]
        elif ph == "bonus":
            out = [BonusSail(ctx.names[f], ctx.names[t]) for f, t in preserve.bonus_sails(ctx, d, d.turn)]
            out += [BonusTile(self._names(cells)) for cells in preserve.bonus_tiles(ctx, d)]
            out.append(Done())
        return [(notation_key(a), a) for a in out]

    def _keyed_turn(self) -> list[tuple[str, Any]]:
        """The actions of phase "turn", keyed; the hours of each sail are kept for apply.

        This is most of a search's time, so it works on bit masks (bit i: cell i)
        and takes each chart, sail and fish action with its notation from the
        Ctx, built once per content.
        """
        ctx, d = self.CTX, self.data
        p = d.turn
        keyed = list(_PASS if d.double else _END_FIRST if not any(d.ended) else _END_ALONE)
        mine = d.ships[p]
        theirs = d.ships[1 - p]
        try:  # bit masks of the ships, in C
            mine_bits = reduce(operator.or_, map(_BIT, mine), 0)
            here = reduce(operator.or_, map(_BIT, theirs), mine_bits)
        except ValueError:  # a ship off the board (-1): only in a position edited by hand
            mine_bits = bit_mask(c for c in mine if c >= 0)
            here = mine_bits | bit_mask(c for c in theirs if c >= 0)
        cover = ctx.bits_of(bytes(d.cover))
        fishes = ctx.bits_of(bytes(map(bool, d.fish)))
        spread = ctx.spread
        supply = d.supply[p]
        if any(supply):
            blocked = ctx.static_blocked(d.terrain) | cover | fishes | here
            # Every legal tile covers a free space beside a ship.
            near = spread(here) & ~blocked
            if near:
                for k, n in enumerate(supply):
                    if n:
                        keyed += chart_a_course.keyed_placements(ctx, d.terrain, ctx.shapes[k], blocked, near)
        budget = d.time[p]
        if budget > 0:
            self._sail_levels = found = {}
            one, two, island = ctx.terrain_bits(d.terrain)
            one = (one | cover) & ~here
            two |= here & ~island
            land = ~island
            cols = ctx.cols
            span = ctx.content.fleet_span
            upto = ctx.upto_col
            # The fleet rule (fleet.fleet_ok): a destination in column dc is allowed when
            # dc <= min(others, dc) + span or dc <= back, i.e. dc <= max(others, others + span, back),
            # `others` being the leftmost column of the seat's other ships.
            left = sorted([c % cols for c in mine])
            add = keyed.append
            for frm in mine:
                if frm < 0 or (island >> frm) & 1:
                    continue  # not on the board, or docked at an island for good
                back = frm % cols
                others = cols if len(left) < 2 else left[1] if back == left[0] else left[0]
                levels, reached = sail.levels(ctx, frm, budget, one, two, land)
                found[frm] = levels
                m = reached & upto[min(max(others, others + span, back), cols - 1)] & ~here
                row = ctx.sail_row(frm)
                while m:
                    low = m & -m
                    m ^= low
                    add(row[low.bit_length() - 1])
            m = spread(mine_bits) & fishes
            if m:
                fish_row = ctx.fish_row
                while m:
                    low = m & -m
                    m ^= low
                    keyed.append(fish_row[low.bit_length() - 1])
        if not d.preserved[p] and any(d.catch[p]):
            keyed += [_keyed(Preserve(card, pay)) for card, pay in preserve.options(ctx, d, p)]
        return keyed

    def _sorted_legal(self) -> list[Any]:
        cur = self._current()
        if cur is None:
            return []
        keyed = self._keyed_legal(cur)
        keyed.sort(key=_KEY)
        return list(map(_ACTION, keyed))

    def _apply(self, a: Any) -> None:
        ctx, d = self.CTX, self.data
        p = d.turn
        found, self._sail_levels = self._sail_levels, None  # the position changes now
        self._chance = None
        t = type(a)  # actions are leaf classes: an identity test, the commonest first
        if t is Sail:
            frm, to = ctx.by_name[a.frm], ctx.by_name[a.to]
            # legal() has just searched this position's sails (apply checks
            # against it first); a fresh search only if it has not.
            cost = 0
            if found is not None and self._legal is not None:
                for c, m in enumerate(found.get(frm, ()), 1):
                    if (m >> to) & 1:
                        cost = c
                        break
            if not cost:
                cost = sail.destination_costs(ctx, d, p, frm, d.time[p])[to]
            d.time[p] -= cost
            sail.move(d, p, frm, to)
            finish_action(d)
        elif t is Stock:
            setup.apply_stock(ctx, d, self._cell(a.cell), a.colour)
        elif t is Chart:
            d.supply[p][ctx.shape_index[a.shape]] -= 1
            chart_a_course.place(ctx, d, a.shape, tuple(self._cell(c) for c in a.cells))
            finish_action(d)
        elif t is EndDay:
            end_of_day.apply_end(ctx, d, a.go)
        elif t is Keep:
            end_of_day.apply_keep(ctx, d, a.shape)
        elif t is Flip:
            apply_flip(ctx, d, a.card)
        elif t is Reveal:
            if d.market:
                market.apply_row_reveal(d, a.card)
            else:
                preserve.apply_stack_reveal(d, a.card)
        elif t is Pass:
            lobster.apply_pass(d)
        elif t is Lobster:
            lobster.apply_lobster(d)
        elif t is Fish:
            fish.take(ctx, d, p, self._cell(a.cell))
            d.phase = "fishing"
            if not fish.fishable(ctx, d, p):
                finish_action(d)
        elif t is Done:
            preserve.clear_bonus(d)
            finish_action(d)
        elif t is Preserve:
            if preserve.apply_preserve(ctx, d, p, a.card, a.fish):
                d.phase = "bonus"
            else:
                preserve.clear_bonus(d)
                finish_action(d)
        elif t is BonusSail:
            sail.move(d, p, self._cell(a.frm), self._cell(a.to))
            d.bonus_move = 0
            self._after_bonus()
        elif t is BonusTile:
            assert d.bonus_tile is not None
            d.general[ctx.shape_index[d.bonus_tile]] -= 1
            chart_a_course.place(ctx, d, d.bonus_tile, tuple(self._cell(c) for c in a.cells))
            d.bonus_tile = None
            self._after_bonus()
        elif t is Start:
            setup.apply_start(ctx, d, a.seat)
        elif t is Put:
            variant_setup.apply_put(ctx, d, a.piece, self._cell(a.cell))
        else:  # pragma: no cover - legal() never offers anything else
            raise AssertionError(a)

    def _after_bonus(self) -> None:
        d = self.data
        if not preserve.bonus_possible(self.CTX, d, d.turn):
            preserve.clear_bonus(d)
            finish_action(d)

    def _redact(self, seat: int | None) -> Data:
        # Nothing is hidden: future chart cards and reveals are chance, not state.
        return self.copy_data(self.data)

    def _scores(self) -> Scores:
        return scoring.scores(self.CTX, self.data)

    # ---- words for people -----------------------------------------------------
    def why_illegal(self, action: FAction) -> str:
        from .explain import why_illegal

        return why_illegal(self, action)

    def describe(self, action: FAction) -> str:
        from .explain import describe

        return describe(self, action)
