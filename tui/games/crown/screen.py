"""The Coldwater Crown table screen: the shared table frame with Crown's board,
and choices written for people (grouped, named, previewed, safely pre-selected).

The words and the choice logic are in ``words.py`` and the drawing in
``board.py``, both free of Textual; this module only wires them to the frame's
hooks (docs/tui.md, "Table screen hooks").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Never

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.widget import Widget

from coldwater import themes
from coldwater.core.crown.actions import CrownAction
from coldwater.core.crown.content import Tables
from coldwater.core.crown.state import CrownState
from coldwater.core.state import Game
from coldwater.tui.games.words import TableWords
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.board import BoardView

from . import board as draw
from . import words
from .words import CrownWords, tables_of


class CrownBoard(BoardView[CrownState]):
    """The whole table: shared board and players, laid out for the width it has.

    Below ``board.WIDE`` columns the parts are stacked (your board first, then
    the shared board, then one line per opponent); from there the shared board
    and the players' boards stand side by side. In the full-screen board pane
    (``full``) every player's whole board is drawn, your fish with weight, tag
    and time.
    """

    DEFAULT_CSS = """
    CrownBoard {
        width: 1fr;
        height: auto;
    }
    """

    def __init__(self, game: Game[Any, Any], *, id: str | None = None) -> None:
        super().__init__(game, id=id)
        self.tables = tables_of(game)
        self._last: tuple[CrownState, list[str], int | None] | None = None
        self._cache: tuple[tuple[int, int, bool], RenderableType, int] | None = None
        self.parts: list[draw.Part] = []
        self.full = False

    def show(self, view: CrownState, names: Sequence[str], viewer: int | None) -> None:
        self._last = (view, list(names), viewer)
        old_rows = self._cache[2] if self._cache is not None else -1
        self._cache = None
        _, rows = self.layout_for(self.width_for_drawing())  # so `shown` and `parts` are current at once
        self.refresh(layout=rows != old_rows)  # a relayout only when the height changes

    def redraw(self) -> None:
        """Draw the board afresh at its next layout: its form (`full`) or its room changed, which the
        drawing kept for the last width does not know."""
        self._cache = None
        self.refresh(layout=True)

    def width_for_drawing(self) -> int:
        w = self.content_region.width if self.is_mounted else 0
        return w if w >= 20 else 78

    def layout_for(self, width: int) -> tuple[RenderableType, int]:
        """The board drawn for `width` columns and its height, cached until the next show().

        The drawing depends on the width (the layout) and on the room below (a tall
        board pane or terminal gets the full form), so Textual asks for it here, at
        the width it lays the board out at, rather than once on a resize."""
        if self._last is None:
            return Text(""), 0
        room = self.room()
        key = (width, room, self.full)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1], self._cache[2]
        view, names, viewer = self._last
        args = (view.data, self.tables, names, viewer, view.current, width)
        pal = self.palette()
        if not self.full and width >= draw.WIDE and room > 0:
            # A wide table with rows to spare under the board: your fish one per line there too.
            # (Tried first: it fits nearly always, and each drawing costs a keypress time.)
            shown, parts, rows = draw.render(*args, False, pal, True)
            if rows > room:
                shown, parts, rows = draw.render(*args, self.full, pal)
        else:
            shown, parts, rows = draw.render(*args, self.full, pal)
        if not self.full and width < draw.WIDE and room >= 20:
            # A tall terminal gets the full form (whole boards, your fish one per line)
            # where it fits without scrolling; else the compact one.
            for detail in (True, False):
                tall, tall_parts, tall_rows = draw.render(*args, True, pal, detail)
                if tall_rows <= room:
                    shown, parts, rows = tall, tall_parts, tall_rows
                    break
        self.shown, self.parts = shown, parts
        self._cache = (key, shown, rows)
        return shown, rows

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.layout_for(width)[1]

    def render(self) -> RenderableType:
        return self.layout_for(self.width_for_drawing())[0]

    def room(self) -> int:
        """Rows the board has on screen (its scrolling container's height)."""
        parent = self.parent
        if not self.is_mounted or not isinstance(parent, Widget):
            return 0
        return parent.content_region.height

    def palette(self) -> draw.Palette:
        """The game colours of the app's theme (bold/underline/reverse under NO_COLOR)."""
        if not self.is_mounted:
            return draw.FALLBACK
        return themes.game_palette(self.app.theme, no_color=self.app.no_color)

    def text(self) -> str:
        """What is drawn, as plain text (tests)."""
        return draw.text_of(self.parts)


class CrownTableScreen(TableScreen[CrownState, CrownAction, Never]):
    BOARD: ClassVar[type[BoardView[Any]]] = CrownBoard
    HELP: ClassVar[str] = (
        TableScreen.HELP
        + """
**Coldwater Crown.** Your board is at the top: your token, your Zones of bait,
your tackle, the Master Angler cards you are attempting and your fish (weight
and tag colour; only you see them). Then the seven Angler spaces clockwise from
the Port (`[2]` a token showing 2, `*` the one placed this turn), the Shore,
River and Lake with their fish and decks, the Master Angler row, the Mystery
Weight, the Tag and the next trophy of each stack, and a line per opponent. The
board pane (**B**) shows every player's whole board and your fish with their
timestamps. The line under the title gives the contest weights you would submit
now and everyone's points so far. Bait shows as letters: **B** blue, **R** red,
**P** purple, **K** black, **G** green, **Y** yellow. The highlighted choice
never spends tackle, discards bait or ends your turn; **e** ends the turn. A cast
bait with only one Master Angler card to go on goes there by itself (Settings →
*Answer the obvious*). The full rules: Esc, then *Rules*.
"""
    )

    words: CrownWords
    WORDS: ClassVar[type[TableWords[Any, Any, Any]]] = CrownWords

    @property
    def tables(self) -> Tables:
        return self.words.tables

    # ---- board and panes -----------------------------------------------------
    def action_pane(self, pane_id: str) -> None:
        super().action_pane(pane_id)
        board = self.query_one("#board", CrownBoard)
        full = self.pane == "board"
        if board.full != full:
            board.full = full
            board.redraw()

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        # The board's form depends on the room it has, which the side strip changes.
        self.query_one("#board", CrownBoard).redraw()

    # ---- the decision --------------------------------------------------------
    def alone_answer(self, view: CrownState, legal: list[CrownAction]) -> tuple[CrownAction | None, str]:
        """The frame's answers without asking, and Crown's one sensible answer: a cast bait
        that fits one Master Angler card goes there by itself (the rules page says so)."""
        action, why = super().alone_answer(view, legal)
        if action is not None or not self.auto_single:
            return action, why
        sensible = words.sensible(view.data, self.tables, legal)
        return (sensible, "the only sensible choice") if sensible is not None else (None, "")


SCREEN = CrownTableScreen
"""This game's table screen (the app's catalog finds it by the game's name)."""
