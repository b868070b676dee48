"""The Fisheries of Gloucester board: the grid, both player boards, the cards.

Drawn entirely from a view (``table.view(seat)``); nothing in this game is
secret, but the widget never looks past the view it is given. The widget is one
Static of Rich text rebuilt on every update.

Two layouts: in a small terminal (80×24) the grid uses three characters per
square and the player boards sit beside it; with room (about 100×40 for the
board) each square is five characters by two lines, with its name or the hours
a ship would pay to get there, and the player boards and stacks spell things out.

The table screen draws its cursor, previews and messages through
:class:`Overlay`; the replay screen uses the widget without one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message

from coldwater.core.state import State
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.games.fisheries import info

NARROW_CELL = 3
WIDE_CELL = 5
WIDE_MIN_WIDTH = 100
WIDE_MIN_HEIGHT = 40
SIDE_MIN_WIDTH = 77
"""The small grid with the player boards beside it needs this many columns."""
SIDE_PANEL = 56
"""Width of the table screen's side column from 120 columns on (themes/table.tcss)."""


class Overlay(msgspec.Struct):
    """What the table screen draws over the position: cursor, previews, a message."""

    cursor: tuple[int, int] | None = None
    """(row, col) of the keyboard cursor, or None."""
    ghost: list[tuple[int, int]] = msgspec.field(default_factory=list)
    """Squares of the tile being placed (may fall outside the grid)."""
    ghost_ok: bool = True
    options: set[int] = msgspec.field(default_factory=set)
    """Cells worth marking: squares some legal placement covers, or legal destinations."""
    path: list[int] = msgspec.field(default_factory=list)
    costs: dict[int, int] = msgspec.field(default_factory=dict)
    """Hours to reach a destination, shown on large boards."""
    focus: set[int] = msgspec.field(default_factory=set)
    """Cells the highlighted choice is about (a fish, a ship)."""
    message: str = ""
    bad: bool = False
    """`message` is a refusal (drawn in the error colour)."""


class FisheriesBoard(BoardView):
    """Grid, player boards and cards. Focusable only while the screen has a cursor out."""

    BINDINGS = [
        Binding("up", "screen.fish_move(-1,0)", "Move", show=False),
        Binding("down", "screen.fish_move(1,0)", "Move", show=False),
        Binding("left", "screen.fish_move(0,-1)", "Move", show=False),
        Binding("right", "screen.fish_move(0,1)", "Move", show=False),
        Binding("r", "screen.fish_rotate", "Rotate"),
        Binding("f", "screen.fish_flip", "Flip"),
        Binding("n,tab", "screen.fish_next(1)", "Next legal"),
        Binding("p,shift+tab", "screen.fish_next(-1)", "Previous", show=False),
        Binding("enter,space", "screen.fish_commit", "Confirm"),
        Binding("escape,backspace", "screen.fish_cancel", "Back"),
    ]

    class CellClicked(Message):
        def __init__(self, cell: int) -> None:
            super().__init__()
            self.cell = cell

    class KeyPressed(Message):
        """A printable key the board does not use (the screen may treat it as a choice hotkey)."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, game: Any, *, id: str | None = None) -> None:
        super().__init__(game, id=id)
        self.ctx = info.ctx_of(game)
        self.overlay = Overlay()
        self._view: State[Any, Any] | None = None
        self._names: list[str] = []
        self._viewer: int | None = None
        self._origin: tuple[int, int, int] = (0, 0, NARROW_CELL)
        """(x, y, cell width) of the grid's first square inside the widget."""
        self._layout = "side"

    # ---- drawing --------------------------------------------------------------
    def show(self, view: State[Any, Any], names: Sequence[str], viewer: int | None) -> None:
        self._view = view
        self._names = list(names)
        self._viewer = viewer
        self.redraw()

    def set_overlay(self, overlay: Overlay) -> None:
        self.overlay = overlay
        self.redraw()

    def choose_layout(self) -> str:
        """"big" (five-by-two squares, everything stacked), "side" (small squares, player
        boards beside the grid) or "stack" (small squares, player boards below)."""
        try:
            w, h = self.screen.size
        except Exception:  # not mounted yet
            return "side"
        room = (w - SIDE_PANEL if w >= 120 else w) - 3  # padding and the scroll bar
        if room >= WIDE_MIN_WIDTH and h >= WIDE_MIN_HEIGHT:
            return "big"
        return "side" if room >= SIDE_MIN_WIDTH else "stack"

    def redraw(self) -> None:
        if self._view is None or self.ctx is None:
            return
        self._layout = self.choose_layout()
        self.update(self.compose_parts())

    def on_resize(self, event: events.Resize) -> None:
        if self._view is not None and self.choose_layout() != self._layout:
            self.redraw()

    def compose_parts(self) -> RenderableType:
        assert self._view is not None
        d = self._view.data
        if self._layout == "big":
            top = self.day_line(d, long=True)
            grid = self.grid(d, WIDE_CELL)
            self._origin = (3, 2, WIDE_CELL)
            return Group(top, *grid, self.legend(long=True), self.hint(), Text(""),
                         *self.party(d, 0, long=True), Text(""), *self.party(d, 1, long=True), Text(""),
                         *self.cards(d, long=True))
        grid = self.grid(d, NARROW_CELL)
        self._origin = (3, 1, NARROW_CELL)
        left = Group(*grid, self.hint(), *self.cards(d, long=False))
        right: list[RenderableType] = [self.day_line(d, long=False), self.initiative_line(d, long=False)]
        for seat in (0, 1):
            right += self.party(d, seat, long=False)
        right.append(self.legend(long=False))
        if self._layout == "stack":
            return Group(*grid, self.hint(), *right, *self.cards(d, long=False))
        outer = RichTable.grid(padding=(0, 1))
        outer.add_column(width=3 + self.ctx.cols * NARROW_CELL)  # a long message wraps under the grid
        outer.add_column(no_wrap=True)
        outer.add_row(left, Group(*right))
        return outer

    def label(self, seat: int) -> str:
        return self._names[seat] if seat < len(self._names) else f"Seat {seat + 1}"

    # ---- the grid ---------------------------------------------------------------
    def base(self, d: Any, i: int, ships: dict[int, int]) -> tuple[str, str]:
        """(up to 3 characters, style) for cell `i` without overlays."""
        ctx = self.ctx
        t = d.terrain[i]
        if i in ships:
            seat = ships[i]
            ship = info.SEAT_SHIP[seat]
            if t in ctx.helms:
                return f"{ship}▲{ctx.helms[t]}", info.SEAT_STYLE[seat]
            if t == "^":
                return f"≈{ship}≈", info.SEAT_STYLE[seat]
            return ship, info.SEAT_STYLE[seat]
        if d.fish[i]:
            return info.letter(d.fish[i]), info.FISH_STYLE.get(d.fish[i], "bold")
        if d.cover[i]:
            return "=", info.TILE_STYLE
        if t in ctx.helms:
            return f"▲{ctx.helms[t]}", info.ISLAND_STYLE
        if t == "#":
            return "▒▒▒▒▒", info.SHORE_STYLE
        if t == "^":
            return "≈≈≈≈≈", info.ROUGH_STYLE
        if t in ("1", "2"):
            return t, info.START_STYLE
        return "·", info.CALM_STYLE

    def grid(self, d: Any, w: int) -> list[Text]:
        ctx = self.ctx
        ov = self.overlay
        ships = {c: seat for seat, cs in enumerate(d.ships) for c in cs if c >= 0}
        ghost = {info.cell_at(ctx, r, c) for r, c in ov.ghost} - {-1}
        cursor = info.cell_at(ctx, *ov.cursor) if ov.cursor is not None else -1
        path = set(ov.path)
        head = Text("   ")
        for c in range(ctx.cols):
            head.append(chr(ord("a") + c).center(w), style="bold")
        lines = [head]
        tall = w >= WIDE_CELL
        for r in range(ctx.rows):
            top = Text(f"{r + 1:>2} ", style="bold")
            bottom = Text("   ")
            for c in range(ctx.cols):
                i = r * ctx.cols + c
                glyph, style = self.base(d, i, ships)
                plain = glyph in ("·", "=", "1", "2") or glyph.startswith(("▒", "≈≈"))
                sub = ctx.names[i]
                sub_style = "dim"
                if i in ov.options:
                    if glyph == "≈≈≈≈≈":
                        glyph = "≈+≈" if w < WIDE_CELL else "≈ + ≈"
                    elif plain and glyph != "▒▒▒▒▒":
                        glyph = "+"
                    style = f"{style} bold underline" if "on " in style else "bold bright_green"
                if i in ov.costs:
                    sub, sub_style = f"{ov.costs[i]}h", "bold"
                if i in path:
                    style = "bold black on bright_white"
                    if plain:
                        glyph = ("≈•≈" if w < WIDE_CELL else "≈ • ≈") if glyph.startswith("≈") else "•"
                if i in ghost:
                    style = "bold black on bright_green" if ov.ghost_ok else "bold bright_white on red"
                    if plain:
                        glyph = "■"
                if i in ov.focus:
                    style = f"{style} reverse"
                cell = _fit(glyph, w)
                if i == cursor:
                    cell = "[" + _fit(glyph, w - 2) + "]"
                    if i not in ghost:
                        style = "bold black on bright_white" if i not in ov.options and i not in path else style + " reverse"
                top.append(cell, style=style)
                if tall:
                    filler = glyph.startswith(("▒", "≈≈")) and i not in ov.costs
                    bottom.append(_fit(sub if not filler else glyph, w),
                                  style=style if (glyph.startswith(("▒", "≈≈")) or i in ghost or i in path
                                                  or i == cursor) else f"{style} {sub_style}")
            lines.append(top)
            if tall:
                lines.append(bottom)
        return lines

    def legend(self, *, long: bool) -> Text:
        t = Text()
        if not long:
            t.append("=", style=info.TILE_STYLE)
            t.append("tile ")
            t.append("≈", style=info.ROUGH_STYLE)
            t.append("rough ")
            t.append("▲n", style=info.ISLAND_STYLE)
            t.append("island ")
            t.append("▒", style=info.SHORE_STYLE)
            t.append("shore")
            return t
        for seat in (0, 1):
            t.append(f" {info.SEAT_SHIP[seat]} ", style=info.SEAT_STYLE[seat])
            t.append(f" {self.label(seat)[:8]} ")
        t.append(" = ", style=info.TILE_STYLE)
        t.append(" tile ")
        t.append("≈", style=info.ROUGH_STYLE)
        t.append(" rough ")
        t.append("▲n", style=info.ISLAND_STYLE)
        t.append(" island ")
        for colour in ("silver", "blue", "black", "red"):
            t.append_text(info.fish_text(colour))
        t.append(" fish")
        return t

    def hint(self) -> Text:
        ov = self.overlay
        if not ov.message:
            return Text("")
        return Text(ov.message, style="bold red" if ov.bad else "bold")

    # ---- the day, the players, the cards ----------------------------------------------
    def day_line(self, d: Any, *, long: bool) -> Text:
        ctx = self.ctx
        days = ctx.content.days
        t = Text()
        if d.phase == "over":
            t.append("Game over", style="bold")
        elif d.day == 0:
            t.append("Setting up", style="bold")
        else:
            t.append(f"Day {d.day}/{days}", style="bold")
        if d.chart_card:
            tiles = ctx.charts.get(d.chart_card, ())
            if long:
                t.append(f" · chart card {d.chart_card}: " + " + ".join(info.shape_name(ctx, s) for s in tiles))
            else:
                t.append(f" · chart {d.chart_card} " + " ".join(info.shape_short(s) for s in tiles))
        if long:
            t.append(" · ")
            t.append_text(self.initiative_line(d, long=True))
        return t

    def initiative_line(self, d: Any, *, long: bool) -> Text:
        t = Text("Initiative card: " if long else "Initiative: ", style="")
        holder = d.initiative
        if holder >= 0:
            t.append(self.label(holder) if long else self.label(holder)[:10], style=info.SEAT_TEXT[holder])
            if d.day == 0:
                t.append(" (starts)")
            elif d.phase != "over":
                first = d.next_first
                if long:
                    t.append(f" (goes {'first' if first == holder else 'second'} tomorrow)")
                else:
                    t.append(f" ({'1st' if first == holder else '2nd'} next)")
        else:
            t.append("in the supply" if long else "supply", style="dim")
        return t

    def party(self, d: Any, seat: int, *, long: bool) -> list[Text]:
        ctx = self.ctx
        view = self._view
        current = view.current if view is not None else None
        tmax = ctx.content.time_max
        head = Text()
        head.append("▶" if current == seat else " ", style="bold")
        head.append(f" {info.SEAT_SHIP[seat]} ", style=info.SEAT_STYLE[seat])
        nm = self.label(seat) + (" (you)" if seat == self._viewer and long else "")
        head.append(" " + (nm if long else nm[:9].ljust(9)), style="bold")
        hours = d.time[seat]
        track = Text()
        track.append("█" * hours, style=info.SEAT_TEXT[seat])
        track.append("·" * max(0, tmax - hours), style="dim")
        if not long:
            head.append(f" {hours:>2}h ")
            head.append_text(track)
        out = [head]
        if long:
            line = Text("  Time  ")
            line.append(f"{hours:>2}h ", style="bold")
            line.append_text(track)
            line.append(f" (max {tmax})", style="dim")
            out.append(line)
        fish = Text("  Fish  " if long else "  fish ")
        for k, colour in enumerate(ctx.colours):
            n = d.catch[seat][k]
            fish.append_text(info.fish_text(colour))
            fish.append(f"{n} " if not long else f"×{n}  ", style="" if n else "dim")
        fish.append("lobster" if d.lobster[seat] else "no lobster", style="bold" if d.lobster[seat] else "dim")
        out.append(fish)
        tiles = Text("  Tiles " if long else "  tiles ")
        held = [(s, n) for s, n in zip(ctx.shapes, d.supply[seat]) if n > 0]
        if held:
            if long:
                tiles.append(", ".join(f"{info.shape_name(ctx, s)} ×{n}" for s, n in held))
            else:
                tiles.append(" ".join(f"{info.shape_short(s)}×{n}" for s, n in held))
        else:
            tiles.append("none", style="dim")
        out.append(tiles)
        cards_vp, helm, islands = info.points(ctx, d, seat)
        cards = Text("  Cards " if long else "  ")
        if long:
            cards.append(", ".join(info.card_line(ctx, c) for c in d.earned[seat]) or "none",
                         style="" if d.earned[seat] else "dim")
        else:
            cards.append(f"{cards_vp + helm + islands}pt ", style="bold")
            cards.append(" ".join(d.earned[seat]) or "no cards", style="" if d.earned[seat] else "dim")
        if d.preserved[seat] and d.phase != "over":
            cards.append(" ✓today" if not long else "  · preserved today", style="italic")
        out.append(cards)
        if long:
            pts = Text("  Points ")
            pts.append(f"{cards_vp + helm + islands}", style="bold")
            pts.append(f" (cards {cards_vp}, helms {helm}, islands {islands})", style="dim")
            out.append(pts)
            ships = [c for c in d.ships[seat] if c >= 0]
            if ships:
                left = min(ctx.col(c) for c in ships)
                limit = min(ctx.cols - 1, left + ctx.content.fleet_span)
                fleet = Text("  Fleet ")
                fleet.append(f"leftmost ship in column {chr(97 + left)}; the others up to {chr(97 + limit)}",
                             style="dim")
                out.append(fleet)
        return out

    def cards(self, d: Any, *, long: bool) -> list[Text]:
        ctx = self.ctx
        if d.market:
            entries = [(c, "") for c in d.row]
            title = f"Market ({len(d.pile)} in the pile)"
        else:
            entries = [(s.top, f"+{len(s.rest)}" if s.rest else "") for s in d.stacks]
            title = "Preservation stacks (top card, cards beneath)"
        if long:
            out = [Text(title, style="bold underline")]
            for card, below in entries:
                line = Text("  ")
                if card is None:
                    line.append("— empty", style="dim")
                else:
                    line.append(card, style="bold")
                    line.append(f"  {info.requirement(ctx, card, long=True)} → "
                                f"{info.card_action(ctx, card, long=True)}, ")
                    line.append(f"{info.card_vp(ctx, card)} VP", style="bold")
                if below:
                    line.append(f"   ({below[1:]} beneath)", style="dim")
                out.append(line)
            return out
        out = []
        width = 22
        row = Text()
        for n, (card, below) in enumerate(entries):
            cell = Text()
            if card is None:
                cell.append("—", style="dim")
            else:
                cell.append(card, style="bold")
                cell.append(f" {info.requirement(ctx, card)} {info.card_action(ctx, card)} {info.card_vp(ctx, card)}VP")
            if below:
                cell.append(f" {below}", style="dim")
            cell.truncate(width - 1)
            cell.pad_right(width - cell.cell_len)
            row.append_text(cell)
            if n % 2 == 1:
                out.append(row)
                row = Text()
        if row.plain:
            out.append(row)
        return out

    # ---- keys and the mouse ----------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        if event.character and event.character.isprintable() and event.key not in ("r", "f", "n", "p", "space"):
            event.stop()
            event.prevent_default()
            self.post_message(self.KeyPressed(event.character))

    def on_click(self, event: events.Click) -> None:
        if self.ctx is None:
            return
        x0, y0, w = self._origin
        rows_per = 2 if w >= WIDE_CELL else 1
        col = (event.x - x0) // w if event.x >= x0 else -1
        row = (event.y - y0) // rows_per if event.y >= y0 else -1
        cell = info.cell_at(self.ctx, row, col)
        if cell >= 0:
            self.post_message(self.CellClicked(cell))


def _fit(glyph: str, w: int) -> str:
    if len(glyph) >= w:
        return glyph[:w]
    return glyph.center(w)
