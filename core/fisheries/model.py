"""The position (one msgspec Struct) and the fixed geometry derived from content.

Cells are numbered row by row, ``index = row * width + column`` (0-based), and
named like chess squares for notation: column letter then row number, so
``a2`` is the top starting space of column 1 and ``n8`` the bottom-right corner.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from functools import cached_property
from typing import Any, Literal

import msgspec

from .actions import Chart, Fish, Sail, Stock
from .content import CALM, FISH, ROUGH, START1, START2, CardSpec, Content


class Stack(msgspec.Struct, array_like=True):
    """A face-up preservation stack: the visible top card and the cards beneath.

    The order beneath is not state: each new top is a chance draw from ``rest``.
    """

    top: str | None
    rest: list[str]


class Placed(msgspec.Struct, array_like=True):
    shape: str
    cells: list[int]


Phase = Literal["setup", "place", "stock", "dawn", "turn", "fishing", "bonus", "lobster", "keep", "over"]
"""setup, place (B-side setup) and stock (fish) before day 1; dawn flips a chart
card; turn, fishing, bonus (a card's ship/tile) and lobster during a day; keep
overnight."""


class Data(msgspec.Struct):
    """Everything about a position. Nothing is hidden in this game."""

    board: str
    """Which side is in play: "A" or "B"."""
    market: bool
    terrain: str
    """One symbol per cell (see content.py); the B side's is edited during setup."""
    fish: list[str]
    """Colour of the fish on each cell, "" for none."""
    cover: list[bool]
    """Cells covered by an ocean tile."""
    placed: list[Placed]
    ships: list[list[int]]
    """``ships[seat]``: the cells of that seat's ships (-1 before setup)."""
    time: list[int]
    lobster: list[int]
    catch: list[list[int]]
    """``catch[seat][colour index]``: fish on that player's board."""
    supply: list[list[int]]
    """``supply[seat][shape index]``: ocean tiles in that player's personal supply."""
    general: list[int]
    """Ocean tiles per shape in the general supply."""
    chart_deck: list[str]
    """Chart cards not yet flipped (a set: each flip is a chance draw)."""
    chart_card: str | None
    stacks: list[Stack]
    row: list[str | None]
    """Market variant: the face-up row (None: an empty slot awaiting a flip)."""
    pile: list[str]
    """Market variant: cards not yet flipped (a set)."""
    earned: list[list[str]]
    spent: list[int]
    """Fish per colour discarded to preserve (out of the game)."""
    phase: Phase
    day: int = 0
    initiative: int = -1
    """Seat holding the initiative card (-1: back in the supply, during a day)."""
    first: int = 0
    """Seat going first today (or on day 1, once setup has chosen)."""
    next_first: int = 0
    took_initiative: int = -1
    """Seat that took the initiative card by ending the day first, this day."""
    turn: int = 0
    ended: list[bool] = msgspec.field(default_factory=lambda: [False, False])
    preserved: list[bool] = msgspec.field(default_factory=lambda: [False, False])
    double: bool = False
    """The current turn is the second action bought with a lobster."""
    bonus_move: int = 0
    bonus_tile: str | None = None
    keep_queue: list[int] = msgspec.field(default_factory=list)
    placer: int = 0
    """B-side setup: seat placing the next piece."""
    to_place: list[str] = msgspec.field(default_factory=list)
    """B-side setup: pieces still to place, islands by symbol, then "rough", then "fish"."""


class Ctx:
    """Fixed facts derived from content, shared by every position of one Game."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.rows = len(content.board_a)
        self.cols = len(content.board_a[0])
        self.n = self.rows * self.cols
        self.colours: tuple[str, ...] = content.colours
        self.colour_index = {c: i for i, c in enumerate(content.colours)}
        self.shapes = tuple(s.id for s in content.shapes)
        self.shape_index = {s: i for i, s in enumerate(self.shapes)}
        self.shape_names = {s.id: s.name for s in content.shapes}
        self.helms = {i.symbol: i.helms for i in content.islands}
        self.cards: dict[str, CardSpec] = {c.id: c for s in content.stacks for c in s.cards}
        self.card_stack = {c.id: k for k, s in enumerate(content.stacks) for c in s.cards}
        self.card_order = [c.id for s in content.stacks for c in s.cards]
        self.charts = {c.id: c.tiles for c in content.chart_cards}
        self.names = [self.cell_name(i) for i in range(self.n)]
        self.by_name = {nm: i for i, nm in enumerate(self.names)}
        nb: list[tuple[int, ...]] = []
        for i in range(self.n):
            r, c = divmod(i, self.cols)
            out = []
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < self.rows and 0 <= cc < self.cols:
                    out.append(rr * self.cols + cc)
            nb.append(tuple(out))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(nb)
        self.orientations = {s.id: _orientations(s.cells) for s in content.shapes}
        # Bit masks (see bit_mask) for moving a whole set of cells one step at once.
        self.all_bits = (1 << self.n) - 1
        self.upto_col = tuple(bit_mask(i for i in range(self.n) if i % self.cols <= k) for k in range(self.cols))
        """``upto_col[k]``: every cell in columns 0..k."""
        self.not_first_col = self.all_bits & ~self.upto_col[0]
        self.not_last_col = self.upto_col[self.cols - 2] if self.cols > 1 else 0
        self._footprints: dict[str, tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]] = {}
        self._entry: dict[str, tuple[int, ...]] = {}
        self._blocked: dict[str, int] = {}
        self._terrain_bits: dict[str, tuple[int, int, int]] = {}
        self._fish_spaces: dict[str, tuple[tuple[int, ...], Callable[[list[str]], tuple[str, ...]]]] = {}
        # Chart, sail and fish actions with their notation, built once per content
        # (legal() lists dozens each turn). Actions are frozen, so every position
        # may share them.
        self._chart_entries: dict[tuple[str, str], list[tuple[tuple[int, tuple[str, Chart]], ...] | None]] = {}
        self._chart_actions: dict[str, dict[tuple[int, ...], tuple[str, Chart]]] = {}
        self._sail_rows: list[list[tuple[str, Sail]] | None] = [None] * self.n
        self._fish_row: list[tuple[str, Fish]] | None = None
        self._stock_rows: dict[int, list[tuple[str, Stock]]] = {}
        self.outcome_memo: dict[Any, tuple[str, Any]] = {}
        """Each chance outcome met so far, as one shared (notation, action) pair."""

    def entry_base(self, terrain: str) -> tuple[int, ...]:
        """Hours to enter each space of an untiled, shipless board (0: not without a tile).

        A game's terrain string never changes after setup, so this is kept per board.
        """
        got = self._entry.get(terrain)
        if got is None:
            got = tuple(1 if (t in self.helms or t in (START1, START2)) else 2 if t == ROUGH else 0 for t in terrain)
            if len(self._entry) > 64:  # variant boards: keep the memo bounded
                self._entry.clear()
            self._entry[terrain] = got
        return got

    def terrain_bits(self, terrain: str) -> tuple[int, int, int]:
        """Bit masks (bit i for cell i) of an untiled, shipless board: the cells that
        cost 1 hour to enter (islands, starting spaces), 2 hours (rough water), and
        the islands (a ship entering one stops there). Kept per board, like entry_base.
        """
        got = self._terrain_bits.get(terrain)
        if got is None:
            base = self.entry_base(terrain)
            got = (
                bit_mask(i for i, e in enumerate(base) if e == 1),
                bit_mask(i for i, e in enumerate(base) if e == 2),
                bit_mask(i for i, t in enumerate(terrain) if t in self.helms),
            )
            if len(self._terrain_bits) > 64:  # variant boards: keep the memo bounded
                self._terrain_bits.clear()
            self._terrain_bits[terrain] = got
        return got

    def bits_of(self, flags: bytes) -> int:
        """One 0/1 byte per cell (``bytes(d.cover)``) as a bit mask, in C (no Python loop)."""
        return int(flags.translate(_BIT_DIGITS)[::-1], 2)

    def spread(self, m: int) -> int:
        """The cells orthogonally next to any cell of bit mask `m`."""
        cols = self.cols
        return (
            (m >> cols)
            | ((m << cols) & self.all_bits)
            | ((m & self.not_first_col) >> 1)
            | ((m & self.not_last_col) << 1)
        )

    def footprints(self, shape: str) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
        """For each cell, every in-grid placement of `shape` covering it: (mask, sorted cells).

        Derived from the content alone, so it is worked out once per shape: chart
        placements are then a filter over these instead of geometry on every legal().
        The mask has bit i set for each covered cell i (see :func:`bit_mask`).
        """
        got = self._footprints.get(shape)
        if got is None:
            per: list[set[tuple[int, ...]]] = [set() for _ in range(self.n)]
            for orient in self.orientations[shape]:
                for r0 in range(-self.rows, self.rows):
                    for c0 in range(-self.cols, self.cols):
                        pts = [(r0 + r, c0 + c) for r, c in orient]
                        if all(0 <= r < self.rows and 0 <= c < self.cols for r, c in pts):
                            cells = tuple(sorted(r * self.cols + c for r, c in pts))
                            for x in cells:
                                per[x].add(cells)
            got = self._footprints[shape] = tuple(tuple((bit_mask(c), c) for c in sorted(p)) for p in per)
        return got

    def chart_entries(self, terrain: str, shape: str) -> list[tuple[tuple[int, tuple[str, Chart]], ...] | None]:
        """Per cell, :meth:`footprints` on this board as (mask, (notation, Chart action)),
        or None for a cell not asked about yet (fill it with :meth:`chart_cell`).

        Placements over a space no tile may ever cover (see :meth:`static_blocked`)
        are left out, which leaves legal() a fraction of them to test. Cells are
        filled as legal() meets them, so a new board (B side) costs little.
        """
        got = self._chart_entries.get((terrain, shape))
        if got is None:
            if len(self._chart_entries) > 64:  # variant boards: keep the memo bounded
                self._chart_entries.clear()
            got = self._chart_entries[terrain, shape] = [None] * self.n
        return got

    def chart_cell(self, terrain: str, shape: str, cell: int) -> tuple[tuple[int, tuple[str, Chart]], ...]:
        """``chart_entries(terrain, shape)[cell]``, worked out and kept."""
        never = self.static_blocked(terrain)
        actions = self._chart_actions.setdefault(shape, {})
        out = []
        for mask, cells in self.footprints(shape)[cell]:
            if not mask & never:
                e = actions.get(cells)
                if e is None:
                    a = Chart(shape, tuple(self.names[c] for c in cells))
                    e = actions[cells] = (str(a), a)
                out.append((mask, e))
        got = self.chart_entries(terrain, shape)[cell] = tuple(out)
        return got

    def sail_row(self, frm: int) -> list[tuple[str, Sail]]:
        """``sail_row(frm)[to]``: (notation, Sail action) from cell `frm` to cell `to`."""
        got = self._sail_rows[frm]
        if got is None:
            names = self.names
            got = self._sail_rows[frm] = [(str(a), a) for a in (Sail(names[frm], t) for t in names)]
        return got

    def stock_row(self, cell: int) -> list[tuple[str, Stock]]:
        """``stock_row(cell)[k]``: (notation, Stock outcome) of colour k on `cell`."""
        got = self._stock_rows.get(cell)
        if got is None:
            got = self._stock_rows[cell] = [(str(a), a) for a in (Stock(self.names[cell], c) for c in self.colours)]
        return got

    @property
    def fish_row(self) -> list[tuple[str, Fish]]:
        """``fish_row[cell]``: (notation, Fish action) taking the fish on `cell`."""
        got = self._fish_row
        if got is None:
            got = self._fish_row = [(str(a), a) for a in map(Fish, self.names)]
        return got

    def fish_spaces(self, terrain: str) -> tuple[tuple[int, ...], Callable[[list[str]], tuple[str, ...]]]:
        """The fish spaces of a board in cell order, and a function reading their
        entries of ``Data.fish`` in that order (in C, for the setup's draws)."""
        got = self._fish_spaces.get(terrain)
        if got is None:
            cells = tuple(i for i, t in enumerate(terrain) if t == FISH)
            fish_on: Callable[[list[str]], tuple[str, ...]]
            if len(cells) >= 2:  # itemgetter of one item returns the item, not a tuple
                fish_on = operator.itemgetter(*cells)
            else:

                def fish_on(fish: list[str]) -> tuple[str, ...]:
                    return tuple(fish[c] for c in cells)

            if len(self._fish_spaces) > 64:  # variant boards: keep the memo bounded
                self._fish_spaces.clear()
            got = self._fish_spaces[terrain] = (cells, fish_on)
        return got

    def static_blocked(self, terrain: str) -> int:
        """Cells no tile may ever cover on this board (not calm water or a fish space), as a bit mask."""
        got = self._blocked.get(terrain)
        if got is None:
            got = bit_mask(i for i, t in enumerate(terrain) if t != CALM and t != FISH)
            if len(self._blocked) > 64:  # variant boards: keep the memo bounded
                self._blocked.clear()
            self._blocked[terrain] = got
        return got

    def cell_name(self, i: int) -> str:
        r, c = divmod(i, self.cols)
        return f"{chr(ord('a') + c)}{r + 1}"

    def col(self, i: int) -> int:
        return i % self.cols

    def terrain_of(self, board: str) -> str:
        return "".join(self.content.board_a if board == "A" else self.content.board_b)

    @cached_property
    def total_fish(self) -> int:
        return self.content.fish_per_colour * len(self.colours)

    @cached_property
    def total_tiles(self) -> int:
        return sum(s.count for s in self.content.shapes)

    @cached_property
    def total_cards(self) -> int:
        return len(self.cards)


def _orientations(cells: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every rotation and reflection of a shape, normalised and de-duplicated."""
    seen: list[tuple[tuple[int, int], ...]] = []
    pts = list(cells)
    for flip in (False, True):
        p = [(r, -c) if flip else (r, c) for r, c in pts]
        for _ in range(4):
            p = [(c, -r) for r, c in p]
            mr = min(r for r, _ in p)
            mc = min(c for _, c in p)
            norm = tuple(sorted((r - mr, c - mc) for r, c in p))
            if norm not in seen:
                seen.append(norm)
    return tuple(seen)


def bit_mask(cells: Iterable[int]) -> int:
    """A set of cells as an int with bit i set for cell i (the sailing search's masks)."""
    m = 0
    for c in cells:
        m |= 1 << c
    return m


_BIT_DIGITS = bytes.maketrans(b"\x00\x01", b"01")
"""bytes(flags).translate(_BIT_DIGITS) spells a flag list as binary digits."""


def ship_bits(d: Data) -> int:
    """Every ship's space as a bit mask."""
    m = 0
    for cells in d.ships:
        for c in cells:
            if c >= 0:
                m |= 1 << c
    return m


def ship_at(d: Data) -> dict[int, tuple[int, int]]:
    """Cell -> (seat, ship number) for every ship on the board."""
    out: dict[int, tuple[int, int]] = {}
    for seat, cells in enumerate(d.ships):
        for k, c in enumerate(cells):
            if c >= 0:
                out[c] = (seat, k)
    return out
