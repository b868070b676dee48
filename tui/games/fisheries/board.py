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

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from coldwater.core.fisheries.model import Data
from coldwater.core.fisheries.state import FisheriesState
from coldwater.core.state import Game
from coldwater.tui import keymap
from coldwater.tui.games.fisheries import info, words
from coldwater.tui.games.fisheries.cursor import Overlay
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.rows import break_row

NARROW_CELL = 3
WIDE_CELL = 5
SIDE_COLUMN = 31
"""Width of the column beside the small grid (day, chart card, the stacks)."""


def _line(text: Text) -> Text:
    """Board rows never wrap: a row too long for its column is cut with an ellipsis."""
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


class FisheriesBoard(BoardView[FisheriesState]):
    """Grid, player boards and cards. Focusable only while the screen has a cursor out."""

    BINDINGS = keymap.bindings("grid")
    """Arrows, r, f, n/p, Enter, Esc: ids ``fisheries.*`` in tui/keymap.py, remappable."""

    class CellClicked(Message):
        def __init__(self, cell: int) -> None:
            super().__init__()
            self.cell = cell

    class KeyPressed(Message):
        """A printable key the board does not use (the screen may treat it as a choice hotkey)."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, game: Game[Any, Any], *, id: str | None = None) -> None:
        super().__init__(game, id=id)
        self.ctx = info.ctx_of(game)
        self.overlay = Overlay()
        self._view: FisheriesState | None = None
        self._names: list[str] = []
        self._viewer: int | None = None
        self._origin: tuple[int, int, int] = (0, 0, NARROW_CELL)
        """(x, y, cell width) of the grid's first square inside the widget."""
        self._layout = "side"

    # ---- drawing --------------------------------------------------------------
    def show(self, view: FisheriesState, names: Sequence[str], viewer: int | None) -> None:
        self._view = view
        self._names = list(names)
        self._viewer = viewer
        self.redraw()

    def set_overlay(self, overlay: Overlay) -> None:
        self.overlay = overlay
        self.redraw()

    def room(self) -> tuple[int, int]:
        """(columns, rows) the board may use: its scrolling parent's inside, less a
        column for a scroll bar, so a bar that appears never makes a row wrap."""
        parent = self.parent
        try:
            w, h = parent.size if isinstance(parent, Widget) else self.screen.size
        except Exception:  # not mounted yet
            return 77, 12
        # (less the board's own left column too: the last move's marks, themes/table.tcss)
        return max(0, w - 3 - self.styles.padding.left), h

    def choose_layout(self) -> str:
        """The richest layout that fits the room:

        - "wide": five-by-two squares, the stacks in words beside the grid, the
          player boards side by side under it (200×60);
        - "big": five-by-two squares, everything under the grid (160×50);
        - "long": small squares, player boards and stacks in words below (120×40);
        - "side": small squares, the stacks beside the grid, one line per player
          under it (80×24).
        """
        w, h = self.room()
        grid_big = 3 + self.ctx.cols * WIDE_CELL
        if w >= grid_big + 2 + 46 and h >= 30:
            return "wide"
        if w >= grid_big and h >= 44:
            return "big"
        if h >= 30 and w >= 3 + self.ctx.cols * NARROW_CELL:
            return "long"
        return "side"

    def redraw(self) -> None:
        if self._view is None or self.ctx is None:
            return
        self._layout = self.choose_layout()
        self.update(self.compose_parts())

    def on_resize(self, event: events.Resize) -> None:
        if self._view is not None and self.choose_layout() != self._layout:
            self.redraw()
            # A new layout has a new height; a resize handler's own layout request can be
            # dropped while the resize is being laid out, so ask again after this frame.
            self.call_after_refresh(self.refresh, layout=True)

    def compose_parts(self) -> RenderableType:
        assert self._view is not None
        d = self._view.data
        lay = self._layout
        if lay in ("wide", "big"):
            grid = self.grid(d, WIDE_CELL)
            self._origin = (3, 2, WIDE_CELL)
            under = [self.legend(long=True), self.hint()]
            parties = [self.party(d, 0, cards=lay == "wide"), self.party(d, 1, cards=lay == "wide")]
            if lay == "wide":
                top = RichTable.grid(padding=(0, 2))
                grid_w = 3 + self.ctx.cols * WIDE_CELL
                top.add_column(no_wrap=True, width=grid_w, min_width=grid_w)
                # The rest of the row, exactly: Rich would otherwise squeeze the grid too.
                top.add_column(no_wrap=True, overflow="ellipsis", width=max(20, self.room()[0] - grid_w - 3))
                top.add_row(
                    Group(*grid),
                    Group(
                        self.day_line(d, long=True),
                        self.initiative_line(d, long=True),
                        Text(""),
                        *self.cards(d, long=True, medium=True),
                    ),
                )
                both = RichTable.grid(padding=(0, 3))
                both.add_column(no_wrap=True, overflow="ellipsis")
                both.add_column(no_wrap=True, overflow="ellipsis")
                both.add_row(Group(*parties[0]), Group(*parties[1]))
                return Group(top, *under, Text(""), both)
            return Group(
                self.day_line(d, long=True),
                self.initiative_line(d, long=True),
                *grid,
                *under,
                *parties[0],
                *parties[1],
                Text(""),
                *self.cards(d, long=True),
            )
        grid = self.grid(d, NARROW_CELL)
        self._origin = (3, 1, NARROW_CELL)
        if lay == "long":
            self._origin = (3, 2, NARROW_CELL)
            return Group(
                self.day_line(d, long=True),
                *grid,
                self.hint(),
                self.legend(long=False),
                *self.party(d, 0, long=True),
                *self.party(d, 1, long=True),
                Text(""),
                *self.cards(d, long=True),
            )
        right: list[RenderableType] = [
            self.day_line(d, long=False),
            self.initiative_line(d, long=False),
            *self.cards(d, long=False),
        ]
        outer = RichTable.grid(padding=(0, 1))
        outer.add_column(width=3 + self.ctx.cols * NARROW_CELL, no_wrap=True)
        outer.add_column(width=SIDE_COLUMN, no_wrap=True, overflow="ellipsis")
        outer.add_row(Group(*grid), Group(*right))
        hint = [self.hint()] if self.overlay.message else []  # no blank row when there is nothing to say
        return Group(outer, *hint, *self.party_line(d, 0), *self.party_line(d, 1))

    def label(self, seat: int) -> str:
        return self._names[seat] if seat < len(self._names) else f"Seat {seat + 1}"

    # ---- the grid ---------------------------------------------------------------
    def base(self, d: Data, i: int, ships: dict[int, int]) -> tuple[str, str]:
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

    def grid(self, d: Data, w: int) -> list[Text]:
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
                    style = f"{style} bold underline" if "on " in style else "bold green"
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
                        style = (
                            "bold black on bright_white"
                            if i not in ov.options and i not in path
                            else style + " reverse"
                        )
                top.append(cell, style=style)
                if tall:
                    filler = glyph.startswith(("▒", "≈≈")) and i not in ov.costs
                    bottom.append(
                        _fit(sub if not filler else glyph, w),
                        style=style
                        if (glyph.startswith(("▒", "≈≈")) or i in ghost or i in path or i == cursor)
                        else f"{style} {sub_style}",
                    )
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
        return _line(Text(ov.message, style="bold red" if ov.bad else "bold"))

    # ---- the day, the players, the cards ----------------------------------------------
    def day_line(self, d: Data, *, long: bool) -> Text:
        ctx = self.ctx
        days = ctx.content.days
        t = Text()
        if d.phase == "over":
            t.append("Game over", style="bold")
        elif d.day == 0:
            t.append("Setting up", style="bold")
        else:
            t.append(f"Day {d.day} of {days}" if long else f"Day {d.day}/{days}", style="bold")
        if d.chart_card:
            tiles = ctx.charts.get(d.chart_card, ())
            if long:
                t.append(" · chart card: " + " + ".join(info.shape_name(ctx, s) for s in tiles))
            else:
                t.append(" · chart " + " + ".join(info.shape_short(s) for s in tiles))
        return _line(t)

    def initiative_line(self, d: Data, *, long: bool) -> Text:
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
        return _line(t)

    def _head(self, d: Data, seat: int, name_width: int) -> Text:
        view = self._view
        current = view.current if view is not None else None
        tmax = self.ctx.content.time_max
        head = Text()
        head.append("▶" if current == seat else " ", style="bold")
        head.append(f" {info.SEAT_SHIP[seat]} ", style=info.SEAT_STYLE[seat])
        nm = self.label(seat)
        head.append(" " + nm[:name_width].ljust(name_width), style="bold")
        hours = d.time[seat]
        head.append(f" {hours:>2}h ")
        head.append("█" * hours, style=info.SEAT_TEXT[seat])
        head.append("·" * max(0, tmax - hours), style="dim")
        return head

    def _fish(self, d: Data, seat: int, sep: str) -> Text:
        t = Text()
        for k, colour in enumerate(self.ctx.colours):
            n = d.catch[seat][k]
            t.append_text(info.fish_text(colour))
            t.append(f"{sep}{n} ", style="" if n else "dim")
        t.append("lobster" if d.lobster[seat] else "no lobster", style="bold" if d.lobster[seat] else "dim")
        return t

    def party_line(self, d: Data, seat: int) -> list[Text]:
        """One player in one row (80×24): hours, fish, lobster, tiles, points; broken
        between its items onto a second row where they do not fit, never cut."""
        ctx = self.ctx
        t = self._head(d, seat, 11)
        t.append(" ")
        t.append_text(self._fish(d, seat, ""))
        held = [(s, n) for s, n in zip(ctx.shapes, d.supply[seat]) if n > 0]
        t.append(
            "  " + (" ".join(f"{info.shape_short(s)}×{n}" for s, n in held) if held else "no tiles"),
            style="" if held else "dim",
        )
        cards_vp, helm, islands = info.points(ctx, d, seat)
        t.append(f"  {cards_vp + helm + islands}pt", style="bold")
        if d.preserved[seat] and d.phase != "over":
            t.append(" ✓", style="italic")
        width = self.room()[0]
        return break_row(t, width if width >= 40 else 77, indent=6)  # (not laid out yet: 80 columns)

    def party(self, d: Data, seat: int, *, long: bool = True, cards: bool = False) -> list[Text]:
        """One player's board spelt out (from 120×40); with `cards`, each card earned
        on a row of its own (only where the height allows, 200×60)."""
        ctx = self.ctx
        head = self._head(d, seat, 16)
        if seat == self._viewer:
            head.append("  (you)", style="dim")
        out = [head]
        fish = Text("  Fish  ")
        fish.append_text(self._fish(d, seat, "×"))
        out.append(fish)
        tiles = Text("  Tiles ")
        held = [(s, n) for s, n in zip(ctx.shapes, d.supply[seat]) if n > 0]
        tiles.append(
            ", ".join(f"{info.shape_name(ctx, s)} ×{n}" for s, n in held) if held else "none",
            style="" if held else "dim",
        )
        out.append(tiles)
        cards_vp, helm, islands = info.points(ctx, d, seat)
        pts = Text("  Points ")
        pts.append(f"{cards_vp + helm + islands}", style="bold")
        pts.append(
            f" (cards {cards_vp} from {len(d.earned[seat])} earned, helms {helm}, islands {islands})", style="dim"
        )
        if d.preserved[seat] and d.phase != "over":
            pts.append("  · preserved today", style="italic")
        out.append(pts)
        for card in d.earned[seat] if cards else ():
            out.append(Text(f"  ✓ {words.card_long(ctx, card)}", style="dim"))
        ships = [c for c in d.ships[seat] if c >= 0]
        if ships:
            left = min(ctx.col(c) for c in ships)
            limit = min(ctx.cols - 1, left + ctx.content.fleet_span)
            fleet = Text("  Fleet ")
            fleet.append(f"leftmost ship in column {chr(97 + left)}; the others up to {chr(97 + limit)}", style="dim")
            out.append(fleet)
        return [_line(t) for t in out]

    def cards(self, d: Data, *, long: bool, medium: bool = False) -> list[Text]:
        """The preservation stacks (or the market row): what each top card takes and does."""
        ctx = self.ctx
        if d.market:
            entries = [(c, 0) for c in d.row]
            title = f"Market ({len(d.pile)} in the pile)" if long else f"Market · {len(d.pile)} in pile"
        else:
            entries = [(st.top, len(st.rest)) for st in d.stacks]
            title = "Preservation stacks (top card)" if long else "Stacks (top card):"
        out = [Text(title, style="bold underline" if long else "bold")]
        for card, below in entries:
            line = Text("  " if long else "")
            if card is None:
                line.append("— empty", style="dim")
            else:
                line.append(
                    words.card_medium(ctx, card)
                    if medium
                    else words.card_long(ctx, card)
                    if long
                    else words.card_short(ctx, card)
                )
            if below:
                line.append(f"  ({below} below)" if long else f" ·{below}", style="dim")
            out.append(_line(line))
        return out

    # ---- keys and the mouse ----------------------------------------------------
    # The cursor's keys are bound here (ids fisheries.* in tui/keymap.py) and act on
    # the table screen, which owns the cursor.
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("turn", "flip"):
            mode = getattr(self.screen, "mode", None)
            return mode is not None and mode.kind == "place"
        return True

    def _screen(self, name: str, *args: int) -> None:
        method = getattr(self.screen, f"action_fish_{name}", None)
        if method is not None:
            method(*args)

    def action_up(self) -> None:
        self._screen("move", -1, 0)

    def action_down(self) -> None:
        self._screen("move", 1, 0)

    def action_left(self) -> None:
        self._screen("move", 0, -1)

    def action_right(self) -> None:
        self._screen("move", 0, 1)

    def action_turn(self) -> None:
        self._screen("rotate")

    def action_flip(self) -> None:
        self._screen("flip")

    def action_next(self) -> None:
        self._screen("next", 1)

    def action_previous(self) -> None:
        self._screen("next", -1)

    def action_place(self) -> None:
        self._screen("commit")

    def action_back(self) -> None:
        self._screen("cancel")

    def on_key(self, event: events.Key) -> None:
        # Keys bound here (after any remapping) steer the cursor; a hotkey of the
        # list of spots chooses that spot; anything else (e, /, !, pane keys) goes on
        # to the screen's own bindings.
        char = event.character
        if not char or not char.isprintable() or event.key in self._bindings.key_to_bindings:
            return
        choices = self.screen.query("#decision")
        if choices and getattr(choices.first(), "has_key", lambda k: False)(char):
            event.stop()
            event.prevent_default()
            self.post_message(self.KeyPressed(char))

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
