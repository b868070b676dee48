"""Fisheries of Gloucester content: the schema of ``data/fisheries.json`` and its checks.

The file format is documented in ``docs/content-fisheries.md``. msgspec checks the
types; :func:`check` adds the rules that span fields (board symbols, counts, ids
that refer to each other), naming the item and field that is wrong.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from coldwater.core.errors import ContentError

SHORE, CALM, ROUGH, FISH, START1, START2 = "#", ".", "^", "F", "1", "2"
"""Board symbols; islands use the symbols declared in ``islands``."""


class IslandSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    symbol: str
    helms: int


class ShapeSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    id: str
    name: str
    cells: tuple[tuple[int, int], ...]
    """(row, column) offsets of the squares in one orientation."""
    count: int


class ChartCardSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    id: str
    tiles: tuple[str, ...]


class Requirement(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    kind: Literal["same", "different", "colour"]
    count: int = 1
    colour: str | None = None


class CardAction(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    kind: Literal["time", "ship", "ship_tile", "helm"]
    amount: int
    tile: str | None = None


class CardSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    id: str
    requirement: Requirement
    action: CardAction
    vp: int


class StackSpec(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    id: str
    name: str
    cards: tuple[CardSpec, ...]


class Content(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    title: str
    stand_in: bool
    source: str
    colours: tuple[str, ...]
    fish_per_colour: int
    ships_per_player: int
    days: int
    time_first: int
    time_second: int
    time_max: int
    fleet_span: int
    keep_tiles: int
    lobsters_per_player: int
    board_a: tuple[str, ...]
    board_b: tuple[str, ...]
    islands: tuple[IslandSpec, ...]
    variant_islands: tuple[str, ...]
    variant_rough: int
    variant_clear_columns: int
    shapes: tuple[ShapeSpec, ...]
    starting_tiles: tuple[str, ...]
    second_player_extra: tuple[str, ...]
    chart_cards: tuple[ChartCardSpec, ...]
    stacks: tuple[StackSpec, ...]


def _fail(msg: str) -> None:
    raise ContentError(msg)


def _unique(ids: list[str], what: str) -> None:
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            _fail(f"{what}: id {i!r} appears twice")
        if not i or " " in i or "," in i or i == "-":
            _fail(f"{what}: id {i!r} cannot be written in notation")
        seen.add(i)


def _connected(cells: tuple[tuple[int, int], ...]) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    cs = set(cells)
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in cs and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cs)


def _check_board(name: str, rows: tuple[str, ...], c: Content, side_b: bool) -> None:
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        _fail(f"{name}: every row must have the same length")
    island_syms = {i.symbol for i in c.islands}
    allowed = {SHORE, CALM, ROUGH, FISH, START1, START2} | island_syms
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in allowed:
                _fail(f"{name}: row {y + 1} column {x + 1}: unknown symbol {ch!r}")
            if side_b and (ch in island_syms or ch in (ROUGH, FISH)):
                _fail(f"{name}: row {y + 1} column {x + 1}: the B side has no printed {ch!r}; players place those")
    flat = "".join(rows)
    for s in (START1, START2):
        if flat.count(s) != c.ships_per_player:
            _fail(f"{name}: needs {c.ships_per_player} starting spaces {s!r}, has {flat.count(s)}")
    if not side_b and flat.count(FISH) != c.fish_per_colour * len(c.colours):
        _fail(f"{name}: {flat.count(FISH)} fish spaces, but there are {c.fish_per_colour * len(c.colours)} fish")
    if side_b:
        width = len(rows[0])
        free = sum(1 for row in rows for x, ch in enumerate(row) if ch == CALM and x >= c.variant_clear_columns)
        need = len(c.variant_islands) + c.variant_rough + c.fish_per_colour * len(c.colours)
        if free < need or width <= c.variant_clear_columns:
            _fail(f"{name}: only {free} calm spaces beyond the clear columns for {need} pieces")


def check(c: Content) -> None:
    """Cross-field rules; raises ContentError naming the item and field."""
    if not c.colours:
        _fail("colours: at least one fish colour is needed")
    _unique(list(c.colours), "colours")
    for f, v in (
        ("fish_per_colour", c.fish_per_colour),
        ("ships_per_player", c.ships_per_player),
        ("days", c.days),
        ("time_max", c.time_max),
        ("fleet_span", c.fleet_span),
    ):
        if v < 1:
            _fail(f"{f}: must be at least 1, not {v}")
    for f, v in (
        ("time_first", c.time_first),
        ("time_second", c.time_second),
        ("keep_tiles", c.keep_tiles),
        ("lobsters_per_player", c.lobsters_per_player),
        ("variant_rough", c.variant_rough),
        ("variant_clear_columns", c.variant_clear_columns),
    ):
        if v < 0:
            _fail(f"{f}: may not be negative ({v})")
    _unique([i.symbol for i in c.islands], "islands")
    for k, i in enumerate(c.islands):
        if len(i.symbol) != 1 or i.symbol in (SHORE, CALM, ROUGH, FISH, START1, START2):
            _fail(f"islands[{k}].symbol: {i.symbol!r} must be one character not used by the board legend")
        if i.helms < 0:
            _fail(f"islands[{k}] ({i.symbol}).helms: may not be negative")
    for k, sym in enumerate(c.variant_islands):
        if sym not in {i.symbol for i in c.islands}:
            _fail(f"variant_islands[{k}]: unknown island symbol {sym!r}")
    _unique([sh.id for sh in c.shapes], "shapes")
    for sh in c.shapes:
        if not sh.cells or len(set(sh.cells)) != len(sh.cells) or not _connected(sh.cells):
            _fail(f"shapes {sh.id}.cells: squares must be distinct and orthogonally connected")
        if sh.count < 0:
            _fail(f"shapes {sh.id}.count: may not be negative")
    shape_ids = {sh.id for sh in c.shapes}
    for f, lst in (("starting_tiles", c.starting_tiles), ("second_player_extra", c.second_player_extra)):
        for t in lst:
            if t not in shape_ids:
                _fail(f"{f}: unknown tile shape {t!r}")
    _unique([chart.id for chart in c.chart_cards], "chart_cards")
    for chart in c.chart_cards:
        for t in chart.tiles:
            if t not in shape_ids:
                _fail(f"chart_cards {chart.id}.tiles: unknown tile shape {t!r}")
    if len(c.chart_cards) != c.days:
        # The rulebook ends the game when the chart deck runs out: one card a day.
        _fail(f"chart_cards: {len(c.chart_cards)} cards, but the game lasts {c.days} days (one card a day)")
    _unique([s.id for s in c.stacks], "stacks")
    _unique([card.id for s in c.stacks for card in s.cards], "stacks cards")
    for s in c.stacks:
        if not s.cards:
            _fail(f"stacks {s.id}.cards: a stack needs at least one card")
        for card in s.cards:
            r, a = card.requirement, card.action
            where = f"stacks {s.id} card {card.id}"
            if r.kind == "colour":
                if r.colour not in c.colours:
                    _fail(f"{where}.requirement.colour: unknown colour {r.colour!r}")
                if r.count != 1:
                    _fail(f"{where}.requirement.count: a coloured requirement is one fish")
            else:
                if r.colour is not None:
                    _fail(f"{where}.requirement.colour: only 'colour' requirements name a colour")
                if r.count < 1:
                    _fail(f"{where}.requirement.count: must be at least 1")
                if r.kind == "different" and r.count > len(c.colours):
                    _fail(f"{where}.requirement.count: {r.count} different fish, but only {len(c.colours)} colours")
                if r.kind == "same" and r.count > c.fish_per_colour:
                    _fail(f"{where}.requirement.count: {r.count} of the same, but only {c.fish_per_colour} per colour")
            if a.amount < 0:
                _fail(f"{where}.action.amount: may not be negative")
            if a.kind == "ship_tile":
                if a.tile not in shape_ids:
                    _fail(f"{where}.action.tile: unknown tile shape {a.tile!r}")
            elif a.tile is not None:
                _fail(f"{where}.action.tile: only ship_tile actions name a tile")
            if card.vp < 0:
                _fail(f"{where}.vp: may not be negative")
    if sum(len(s.cards) for s in c.stacks) < 5:
        _fail("stacks: the market variant needs at least 5 preservation cards")
    _check_board("board_a", c.board_a, c, False)
    _check_board("board_b", c.board_b, c, True)
    if len(c.board_b) != len(c.board_a) or len(c.board_b[0]) != len(c.board_a[0]):
        _fail("board_b: must have the same size as board_a")
    if len(c.board_a[0]) > 26:
        _fail("board_a: at most 26 columns (columns are named a to z)")
