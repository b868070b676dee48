"""The Coldwater Crown table screen: the generic table with Crown's board, and
choices written for people (grouped, named, previewed, safely pre-selected).

The words and the choice logic are in ``wording.py`` and the drawing in
``board.py``, both free of Textual; this module only wires them to the screen.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

from textual import events

from coldwater.core.crown.content import Tables
from coldwater.core.crown.model import COLOUR_INDEX, CrownData
from coldwater.core.state import CHANCE, State
from coldwater.net.table import Applied, GameOver
from coldwater.tui.screens.table import TableScreen, with_names
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import Item

from . import board as draw
from . import wording

BAIT_DRAWN = re.compile(r"an? (\w+) bait is drawn from the bag")


def tables_of(game: Any) -> Tables:
    """The engine's content tables (weights, tags, spots) for `game`."""
    t = getattr(game, "tables", None)
    if isinstance(t, Tables):
        return t
    from coldwater.core.crown.content import load_default

    return load_default()


class CrownBoard(BoardView):
    """The whole table: shared board and players, laid out for the width it has.

    Below ``board.WIDE`` columns the parts are stacked (your board first, then
    the shared board, then one line per opponent); from there the shared board
    and the players' boards stand side by side.
    """

    def __init__(self, game: Any, *, id: str | None = None) -> None:
        super().__init__(game, id=id)
        self.tables = tables_of(game)
        self._last: tuple[State[Any, Any], list[str], int | None] | None = None
        self.parts: list[draw.Part] = []

    def show(self, view: State[Any, Any], names: Sequence[str], viewer: int | None) -> None:
        self._last = (view, list(names), viewer)
        self._draw()

    def width_for_drawing(self) -> int:
        w = self.content_region.width if self.is_mounted else 0
        return w if w >= 20 else 78

    def _draw(self) -> None:
        if self._last is None:
            return
        view, names, viewer = self._last
        self.shown, self.parts = draw.render(view.data, self.tables, names, viewer, view.current,
                                             self.width_for_drawing())
        self.update(self.shown)

    def text(self) -> str:
        return draw.text_of(self.parts)

    def on_resize(self, event: events.Resize) -> None:
        self._draw()


class CrownTableScreen(TableScreen):
    BOARD: ClassVar[type[BoardView]] = CrownBoard
    HELP: ClassVar[str] = TableScreen.HELP + """
**Coldwater Crown.** Your board is at the top: your token, your Zones of bait,
your tackle, the Master Angler cards you are attempting and your fish (weight
and tag colour; only you see them). Then the seven Angler spaces clockwise from
the Port, the Shore, River and Lake with their fish and decks, the Master Angler
row, the Mystery Weight, the Tag and the trophies left, and a line per opponent.
Bait shows as letters: **B** blue, **R** red, **P** purple, **K** black, **G**
green, **Y** yellow. The highlighted choice never spends tackle, discards bait
or ends your turn. The full rules: Esc, then *Rules*.
"""

    @property
    def tables(self) -> Tables:
        return self.query_one("#board", CrownBoard).tables

    def names(self) -> list[str]:
        return [s.name for s in self.table.seats]

    # ---- the log -------------------------------------------------------------
    def summarize_chance(self, lines: list[str]) -> list[str]:
        """Runs of bait draws become one line: "bait drawn: red, blue, blue"."""
        out: list[str] = []
        run: list[str] = []
        for line in lines + [""]:
            m = BAIT_DRAWN.fullmatch(line)
            if m:
                run.append(m[1])
                continue
            if run:
                out.append(("bait drawn: " if len(run) > 1 else "a bait drawn: ") + ", ".join(run))
                run = []
            if line:
                out.append(line)
        return out

    def _on_event(self, event: Applied | GameOver) -> None:
        before = self._describe_view
        if isinstance(event, Applied) and event.seat == CHANCE and before is not None and self.is_mounted:
            d0: CrownData = before.data
            if d0.tasks and d0.tasks[0].kind == "silent" and event.action.startswith("bait "):
                # The silent player's draw: say what it did, not only which bait came out.
                self.flush_chance()
                after = self.table.view(self.log_seat).data
                colour = COLOUR_INDEX.get(event.action.split()[1], 6)
                self.log_line("", wording.silent_turn(d0, after, self.tables, colour))
                self._announce(d0, after)
                return
        if isinstance(event, GameOver) and self.is_mounted:
            self.log_line("", with_names(event.outcome or "The game is over.", self.names()))
            return
        super()._on_event(event)
        if isinstance(event, Applied) and before is not None and self.is_mounted:
            self._announce(before.data, self.table.view(self.log_seat).data)

    def _announce(self, before: CrownData, after: CrownData) -> None:
        for line in wording.announcements(before, after, self.tables, self.names()):
            self.log_line("", line)

    def log_line(self, who: str, text: str) -> None:
        from coldwater.tui.widgets.log import GameLog

        self.query_one("#log", GameLog).add(who, text)

    # ---- the decision --------------------------------------------------------
    def choice_items(self, view: State[Any, Any], legal: list[Any]) -> tuple[list[Item], int | None]:
        d: CrownData = view.data
        ordered = wording.order(legal)
        items = [Item(self.label(view, a), a, group=wording.group(d, self.tables, a)) for a in ordered]
        return items, wording.preferred(d, self.tables, ordered)

    def label(self, view: State[Any, Any], a: Any) -> str:
        try:
            return wording.label(view.data, self.tables, a, self.viewer)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError, StopIteration):
            return super().label(view, a)  # an engine change should not hide a legal choice

    def prompt(self, view: State[Any, Any]) -> str:
        return wording.prompt(view.data, self.tables, view.legal())

    def status(self, view: State[Any, Any]) -> str:
        d: CrownData = view.data
        title = self.table.game.title
        cur = self.table.current
        if cur is None:
            return f"{title} — game over"
        names = wording.names_of(self.names(), len(d.parties))
        if cur == CHANCE:
            whose = names[d.turn] if 0 <= d.turn < len(names) else "?"
            base = f"{title} — {whose}'s turn"
        else:
            base = f"{title} — {'your' if cur == self.viewer else names[cur] + chr(39) + 's'} turn"
            if cur == self.viewer:
                base = f"{title} — your turn"
        extra = []
        if 1 <= d.step <= 3:
            extra.append(f"Step {d.step}")
        if d.end_triggered:
            extra.append("final round")
        if d.step == 4:
            extra.append("contests")
        return base + (f" · {' · '.join(extra)}" if extra else "")
