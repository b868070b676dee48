"""Hints at the table (``h``; issue 31): the hard bot's best few choices, found off the UI thread.

:class:`TableHints` is the table screen's part that asks for a hint and shows it.
The search is ``core.review.hint`` (the review's evaluation of one position, from
the asking seat's view), run in the bots' worker process (``Thinker.hint``), or in
a thread without one, inside a Textual worker of the screen: the keys stay live
all along. While it thinks the panel says so and Esc stops it; a move made
meanwhile (or anything that changes the position: undo, the other player's turn)
drops it, and the worker process is told to stop at its next world, so no late
answer is shown. A hint is shown only at the position it was asked at.

Where hints are given: solo and hotseat tables, and LAN tables whose host turned
them on for everyone (``TableLike.hints_on``); a watcher gets none.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from textual.worker import Worker

from coldwater.core.review import Hint
from coldwater.core.state import State
from coldwater.net.play.thinker import hint_here
from coldwater.tui.widgets.hint import HintPanel

from .logwriter import with_names

if TYPE_CHECKING:
    from .screen import TableScreen

CLOSE_CALL = 0.05
"""Points behind the best below which a choice is "about as good" whatever its error."""


class TableHints:
    def __init__(self, screen: TableScreen[Any, Any, Any]) -> None:
        self.screen = screen
        self.digest: str | None = None
        """The position the hint on screen (or being thought) is for; None: no hint."""
        self.shown: Hint | None = None
        """The hint on screen, once found."""
        self.lines: list[str] = []
        self.depth = 1
        """The hint's worlds times this (tests ask deeper, to have time to act while it thinks)."""
        self._worker: Worker[None] | None = None

    @property
    def active(self) -> bool:
        """A hint is on screen or being thought."""
        return self.digest is not None

    @property
    def thinking(self) -> bool:
        return self.active and self.shown is None

    def panel(self) -> HintPanel:
        return self.screen.query_one("#hint-panel", HintPanel)

    def refusal(self) -> str:
        """Why no hint can be given now ("" when it can)."""
        s = self.screen
        if s.read_only:
            return "Watchers get no hints."
        if not s.table.hints_on:
            return "The host has hints off at this table: nobody gets hints in this game."
        if not s.my_turn() or s.busy:
            return "A hint is for your own turn: ask when the choice is yours."
        return ""

    def ask(self) -> None:
        s = self.screen
        why = self.refusal()
        if why:
            s.notify(why, timeout=5)
            return
        view = s.current_view()
        digest = view.digest()
        if digest == self.digest:
            if self.shown is not None:
                self.panel().page()  # h again: the rest of a hint longer than the panel
            return  # (or it is on its way)
        self.drop()
        self.digest = digest
        self.shown = None
        self.lines = []
        self._show_panel(True)
        self.panel().thinking()
        self._worker = s.run_worker(self._think(view, digest), name="hint", group="hint", exclusive=True)

    async def _think(self, view: State[Any, Any], digest: str) -> None:
        s = self.screen
        t = s.table
        thinker = s.cw.thinker
        content = t.content.path if t.content is not None else None
        try:
            if thinker is not None:
                found = await thinker.hint(t.game, content, view, depth=self.depth)
            else:
                found = await hint_here(t.game, view, depth=self.depth)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a position the search cannot read: said in the panel, nothing else
            if self.digest == digest:
                self.shown = None
                self.panel().show([f"No hint here: {str(e) or type(e).__name__}"])
            return
        if self.digest != digest or not s.my_turn():
            return  # the position moved on meanwhile: this hint is for a position gone
        self.shown = found
        self.lines = self.words_for(found, view)
        self.panel().show(self.lines, f"Hint · {found.worlds} playouts a choice")

    def words_for(self, h: Hint, view: State[Any, Any]) -> list[str]:
        """The panel's lines: each choice with its key, how far behind the best, and why."""
        s = self.screen
        words = s.words
        unit = words.HINT_UNIT
        out: list[str] = []
        decision = s.decision
        names = [seat.name for seat in s.table.seats]
        for n, c in enumerate(h.choices):
            action = _parsed(s, c.action)
            label = with_names(s.label_of(view, action) if action is not None else c.action, names)
            key = decision.key_for(action) if action is not None else ""
            # The evaluator's own words on its noise (HintChoice.close, Hint.clear): the first is
            # "best" only when no other shown choice is within its error, never a coin toss.
            if n == 0:
                how = "best" if h.clear else "about as good as the next: a close call"
            elif c.close or c.behind <= CLOSE_CALL:
                how = f"about as good (~{c.behind:.1f} {unit} less, ± {c.error:.1f})"
            else:
                how = f"~{c.behind:.1f} {unit} less (± {c.error:.1f})"
            if c.win:
                how += f" · win {c.win:.0%}"
            reason = s.guard.call("", words.hint_reason, h, n)
            out.append(f"{f'[{key}] ' if key else ''}{label} — {how}")
            if reason:
                out.append(f"  {reason}")
        return out

    def drop(self) -> None:
        """Close the hint (and stop its thinking): Esc, a move, a new position."""
        if self._worker is not None:
            self._worker.cancel()  # the worker process stops at its next world
            self._worker = None
        if self.digest is None:
            return
        self.digest = None
        self.shown = None
        self.lines = []
        self._show_panel(False)

    def follow(self, view: State[Any, Any]) -> None:
        """The screen repainted at `view`: a hint for another position goes."""
        if self.digest is not None and (view.digest() != self.digest or not self.screen.my_turn()):
            self.drop()

    def _show_panel(self, on: bool) -> None:
        s = self.screen
        panels = s.query("#hint-panel").results(HintPanel)
        for panel in panels:
            panel.display = on
        coach = s.query("#coach")
        lesson = bool(coach) and bool(coach.first().display)
        for log in s.query("#log"):
            log.display = not on and not lesson
        if s.is_mounted:
            s.fit_side()  # a hint wants the taller strip


def _parsed(screen: TableScreen[Any, Any, Any], text: str) -> Any:
    """The action a hint names, parsed by the table's game (None if it does not parse)."""
    try:
        return screen.table.game.parse_action(text)
    except Exception:
        return None
