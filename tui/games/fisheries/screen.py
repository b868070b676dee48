"""The Fisheries of Gloucester table screen (the Textual side).

The generic table with the Fisheries board. The engine lists every legal
placement and ship destination as its own action (hundreds on a busy turn), so
the decision list offers them in two steps: *what* (a tile shape, a ship, a
fish, a card, ending the day) and then, for tiles, ships and B-side pieces,
*where*, with a cursor on the grid (arrows, ``r`` turn, ``f`` flip, ``n`` next
legal spot, Enter commits, Esc goes back).

The words live in :mod:`.words` and the cursor in :mod:`.cursor`, both free of
Textual and unit-tested on their own; this module only wires them to keys,
the list and the board. Only actions from ``view.legal()`` are submitted.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.widgets import OptionList

from coldwater.core.fisheries.actions import FAction
from coldwater.core.fisheries.model import Ctx
from coldwater.core.fisheries.state import FisheriesState
from coldwater.net.play.tablelike import TableLike
from coldwater.tui.games.fisheries import cursor, info, words
from coldwater.tui.games.fisheries.board import FisheriesBoard
from coldwater.tui.games.fisheries.cursor import Mode, Overlay
from coldwater.tui.games.fisheries.words import FChoice, FisheriesWords, UiCmd, Value, tag_of
from coldwater.tui.games.words import TableWords
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import ChoiceList, Item

__all__ = ["FisheriesTableScreen", "Mode", "Overlay", "UiCmd"]

MODE_KEYS = "123456789abcdghijklmoqstuvwxyz"
"""Hotkeys for the spots listed while the cursor is out (r, f, n and p steer the cursor;
e is the done key on every turn)."""
NO_KEY = "\u00a0"
"""A key label no key press produces, for list entries beyond the hotkeys."""


class FisheriesTableScreen(TableScreen[FisheriesState, FAction, FChoice]):
    words: FisheriesWords
    WORDS: ClassVar[type[TableWords[Any, Any, Any]]] = FisheriesWords
    BOARD: ClassVar[type[BoardView[Any]]] = FisheriesBoard
    CSS_PATH = info.stylesheet()
    HELP_KEYS = TableScreen.HELP_KEYS + (
        "\n| ← ↑ ↓ → | Move the cursor on the grid (placing a tile, sailing) |"
        "\n| r / f | Turn / flip the tile |"
        "\n| n / Tab, p | Next / previous legal spot |"
        "\n| Enter / Space | Place the tile, sail there |"
        "\n| Esc | Put the cursor away (back to the list of choices) |"
    )
    HELP: ClassVar[str] = (
        TableScreen.HELP
        + """
**Fisheries of Gloucester.** The grid: columns **a–n**, rows **1–8**.
**▒** shore, **·** calm water (where tiles go), **=** an ocean tile, **≈** rough
water, **▲n** an island with *n* helms, **S B K R** a silver, blue, black or red
fish, **1 2** starting spaces. Ships: **X** the first seat, **O** the second.
Beside the grid: the day and its chart card, who holds the initiative card, and
each player's hours (█ on the 12-hour track), fish, lobster, tiles in supply and
cards earned (with points so far). Under it: the preservation stacks (top card:
what it takes → what it does, points: *2 alike* two fish of one colour, *3 mixed*
three colours; "·N under" counts the cards beneath).

**A turn.** Pick one choice from the list:

- *Chart a course*: pick a tile shape, then place it with the cursor. Squares
  marked **+** are covered by some legal placement. **r** turns, **f** flips,
  **n** jumps to the next legal spot; the tile shows green where it may go, red
  (with the reason under the grid) where it may not. **Enter** places it.
- *Sail*: pick a ship; each square it can reach is marked, and the cursor shows
  the path and the hours it costs (1 a tile or start, 2 rough water or passing a
  ship). **Enter** sails.
- *Fish*: pick a fish next to one of your ships (1 hour each); then another, or
  *stop fishing*.
- *Preserve* (once a day): the cards you can pay for, with the fish they take.
  A card's ship or tile action follows with the cursor.
- *End the day*: the first to end takes the initiative card and says whether
  they go first (6 hours) or second (7 hours) tomorrow.

After an action you may discard your lobster to act again at once, or keep it
with **e**, which ends your turn; neither is highlighted, so Enter alone does
neither. Highlight one (↑ ↓) and press **!** to give that answer for the rest of
the game; the question answers itself when a second action would buy nothing.
Overnight you keep one tile. The final scores are broken down by cards, helms and islands.
"""
    )

    def __init__(self, table: TableLike) -> None:
        super().__init__(table)
        self.mode: Mode | None = None
        self._focus_cells: set[int] = set()

    @property
    def ctx(self) -> Ctx:
        return self.words.ctx

    @property
    def board(self) -> FisheriesBoard:
        return self.query_one("#board", FisheriesBoard)

    # ---- the decision list: the cursor's own while it is out, else the words' -----------
    def choice_items(
        self, view: FisheriesState, legal: list[FAction]
    ) -> tuple[list[Item[FAction | FChoice]], int | None]:
        if self.mode is None:
            return super().choice_items(view, legal)
        ctx = self.ctx
        keys = iter(MODE_KEYS)
        items: list[Item[FAction | FChoice]] = [
            Item(c.label, c.value, group=c.group, key=next(keys, NO_KEY))
            for c in cursor.mode_choices(ctx, view, self.mode)
        ]
        items.append(Item("Back (Esc)", "back", group="", key=next(keys, NO_KEY)))
        return items, self.mode.index(ctx)

    def prompt(self, view: FisheriesState) -> str:
        return self.mode.title if self.mode is not None else super().prompt(view)

    def step_note(self, view: FisheriesState) -> str:
        return "" if self.mode is not None else super().step_note(view)

    def is_costly(self, view: FisheriesState, action: FAction | FChoice) -> bool:
        # While the cursor is out the person has already chosen to spend (a tile, hours):
        # its list follows the cursor, which only Enter on the board commits.
        return self.mode is None and super().is_costly(view, action)

    def preview(self, view: FisheriesState, action: FAction | FChoice) -> str:
        return "" if self.mode is not None else super().preview(view, action)

    def alone_answer(self, view: FisheriesState, legal: list[FAction]) -> tuple[FAction | FChoice | None, str]:
        """Besides the frame's cases, the lobster question answers "keep it" by itself
        when a second action would buy nothing (no tile, hours, fish or card to use)."""
        action, why = super().alone_answer(view, legal)
        if action is not None or view.data.phase != "lobster" or words.lobster_buys_something(view):
            return action, why
        from coldwater.core.fisheries.actions import Pass

        keep = Pass()
        return (keep, "the lobster would buy nothing now") if keep in legal else (None, "")

    # ---- the board -----------------------------------------------------------------
    def update_board(self, view: FisheriesState) -> None:
        board = self.board
        board.overlay = self.overlay()
        board.show(view, [s.name for s in self.table.seats], self.viewer)

    def overlay(self) -> Overlay:
        return cursor.overlay(self.ctx, self.current_view(), self.mode, self._focus_cells)

    # ---- modes -------------------------------------------------------------------------
    def choose(self, action: FAction | FChoice) -> None:
        if isinstance(action, UiCmd):
            if self.my_turn() and not self.busy:
                self.mode = cursor.open_mode(self.ctx, self.current_view(), action, self.table.state.ply)
                if self.mode is not None:
                    self.refresh_view()
            return
        if action == "back":
            self.leave_mode()
            return
        self.mode = None
        super().choose(action)

    def leave_mode(self) -> None:
        if self.mode is None:
            return
        self.mode = None
        self.refresh_view()

    def refresh_view(self) -> None:
        if self.mode is not None and (not self.my_turn() or self.table.state.ply != self.mode.ply):
            self.mode = None
        self._focus_cells = set()
        super().refresh_view()
        self._sync_focus()
        # Not `is_mounted` alone: a drive worker can finish while the screen is taken down,
        # its rows already gone (seen at an app's exit in CI).
        if self.mode is None and self._drawable() and (found := list(self.query("#decision").results(ChoiceList))):
            decision = found[0]
            at = decision.highlighted
            if at is not None and 0 <= at < decision.option_count:
                oid = decision.get_option_at_index(at).id
                self._show_focus(decision.value_of(oid) if oid else None)

    def _sync_focus(self) -> None:
        try:
            board = self.board
            decision = self.query_one("#decision", ChoiceList)
        except Exception:  # not composed yet
            return
        self.refresh_bindings()
        if self.mode is not None:
            board.can_focus = True
            if self.focused is not board:
                board.focus()
        else:
            board.can_focus = False
            if self.focused is None or self.focused is board:
                decision.focus()

    def _redraw_mode(self) -> None:
        """The cursor moved: redraw the board (the list stays as it is)."""
        self.board.set_overlay(self.overlay())
        title = self.query_one("#decision-title")
        if self.mode is not None:
            title.update(self.mode.title)  # type: ignore[attr-defined]

    # ---- cursor keys (bound on the board while it has focus) --------------------
    def action_fish_move(self, dr: int, dc: int) -> None:
        if self.mode is not None:
            self.mode.move(self.ctx, dr, dc)
            self._redraw_mode()

    def action_fish_rotate(self) -> None:
        if self.mode is not None:
            self.mode.turn(self.ctx)
            self._redraw_mode()

    def action_fish_flip(self) -> None:
        if self.mode is not None:
            self.mode.turn(self.ctx, flip=True)
            self._redraw_mode()

    def action_fish_next(self, step: int) -> None:
        if self.mode is not None:
            self.mode.step(self.ctx, step)
            self._redraw_mode()

    def action_fish_commit(self) -> None:
        m = self.mode
        if m is None:
            return
        action = m.action(self.ctx)
        if action is None:
            m.refused = True
            self._redraw_mode()
            self.app.bell()
            return
        self.choose(action)

    def action_fish_cancel(self) -> None:
        self.leave_mode()

    # ---- messages from the board and the list --------------------------------------
    def on_fisheries_board_key_pressed(self, event: FisheriesBoard.KeyPressed) -> None:
        event.stop()
        self.query_one("#decision", ChoiceList).choose_key(event.key)

    def on_fisheries_board_cell_clicked(self, event: FisheriesBoard.CellClicked) -> None:
        event.stop()
        if not self.my_turn() or self.busy:
            return
        ctx = self.ctx
        m = self.mode
        if m is not None:
            rc = info.rc(ctx, event.cell)
            if rc == m.cursor:
                self.action_fish_commit()
            else:
                m.cursor = rc
                m.refused = False
                self._redraw_mode()
            return
        # No cursor out: a click on a ship sails it, a click on a fish catches it.
        name = info.name(ctx, event.cell)
        for value in self.query_one("#decision", ChoiceList).values:
            if (isinstance(value, UiCmd) and value.kind == "sail" and value.arg == name) or (
                tag_of(value) == "fish" and getattr(value, "cell", None) == name
            ):
                self.choose(value)
                return

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if getattr(event.option_list, "id", None) != "decision":
            return
        oid = event.option.id
        decision = self.query_one("#decision", ChoiceList)
        value = decision.value_of(oid) if oid else None
        m = self.mode
        if m is not None:
            if value is not None and value != "back":
                before = (m.cursor, m.orient)
                m.goto_action(self.ctx, value)
                if (m.cursor, m.orient) != before:
                    self._redraw_mode()
            return
        self._show_focus(value)

    def _show_focus(self, value: Value | None) -> None:
        """Mark the squares the highlighted first-step choice is about (a ship, a fish);
        what it does is said by the frame's preview under the list."""
        cells = cursor.focus_cells(self.ctx, value)
        if cells != self._focus_cells:
            self._focus_cells = cells
            self.board.set_overlay(self.overlay())


SCREEN = FisheriesTableScreen
"""This game's table screen (the app's catalog finds it by the game's name)."""
