"""The title line, and the table while others play: whose turn with the round and turn and
a LAN table's countdown; who is thinking and for how long, a search bot's bar and its turn
so far under the empty list (botwatch.py); the line saying a bot plays this seat since its
turn timer ran out.

:class:`Status` is the table screen's part for it; it writes through the screen's
reactives (``status_text``, ``prompt_text``, ``preview_text``), never into widgets.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from coldwater.core.clock import Clock
from coldwater.net.play.table import SeatKind, seat_label
from coldwater.net.session.turnclock import idle_fmt
from coldwater.tui import keymap

from .botwatch import watching

if TYPE_CHECKING:
    from .screen import TableScreen


class Status:
    """See the module docstring."""

    def __init__(self, screen: TableScreen[Any, Any, Any]) -> None:
        self.screen = screen
        self.bot_shown = False
        """The line saying a bot plays this seat is on screen."""
        self.hand_shown = False
        """The hand-over key is in the footer (another seat out of time, LAN)."""

    def clock(self) -> Clock:
        """Round and turn now: the record's own count where this table keeps one, else
        counted from the positions this screen has seen (a LAN table)."""
        rec = self.screen.table.record
        last = rec.entries[-1].clock if rec is not None and rec.entries else None
        return last if last is not None else self.screen.log_writer.clock

    def line(self, view: Any, status: str) -> str:
        """`status` with the round and turn after its first part (who is to play)."""
        s = self.screen
        if s.table.current is None:
            return status
        head, sep, rest = status.partition(" · ")
        when = s.guard.call("", s.words.clock_text, view, self.clock())  # a courtesy: never stops the game
        left = s.table.countdown()  # a LAN table's turn clock, right by whose turn it is
        head += f" ({left})" if left else ""
        return head + (f" · {when}" if when else "") + (f" · {rest}" if sep else "")

    def say(self, view: Any, status: str) -> None:
        """The title line says `status`, or, while a bot plays this seat, that."""
        self.screen.status_text = self.bot_line() or self.line(view, status)

    def bot_line(self) -> str:
        """While this seat's bot plays it: what the person is told, with the key that takes it
        back ("" otherwise). The real time the person was away, not the move's timer (with the
        bank it is far longer; the timer is in the title). One row at 80 columns."""
        t = self.screen.table
        if not t.bot_plays:
            return ""
        key = next(k for k in keymap.DEFAULT if keymap.binding_id(k) == "table.take_back")
        keys = keymap.describe_keys(self.screen.cw.settings.keys.get("table.take_back", key.keys))
        return f"You did not move for {idle_fmt(t.bot_idle)}: a bot plays your seat. {keys} takes it back."

    def note_bot(self) -> None:
        """The take-back key shows exactly while a bot plays this seat."""
        shown = self.screen.table.bot_plays
        if shown != self.bot_shown:
            self.bot_shown = shown
            self.screen.refresh_bindings()

    def start(self, seat: int) -> None:
        """A bot (or a remote player) starts thinking: say who, in the decision title and status."""
        s = self.screen
        who = seat_label(s.table.seats, seat)
        s.driver.waiting_on(seat)
        s.last_move.others_start(s.board)
        s.prompt_text = f"{who} is thinking…"
        self.say(s.current_view(), f"{s.table.game.title} — {who} is thinking…")
        s.decision.set_items([])
        self.show_watch()
        self.note_bot()

    def show_watch(self) -> None:
        """Under the empty list while a bot (or a remote player) thinks: its moves so far this
        turn and, for a search bot, a bar of the decision it is on (botwatch.py)."""
        s = self.screen
        seat, _ = s.driver.thought_for()
        if seat < 0 or s.my_turn() or not s.drawable():
            return
        who = seat_label(s.table.seats, seat)
        level = s.table.seats[seat].bot if s.table.seats[seat].kind is SeatKind.BOT else None
        s.preview_text = watching(who, level, s.log_writer.book.entries, time.monotonic() - s.driver.step_at)

    def tick(self) -> None:
        """Once a second: a LAN table's countdown and the hand-over key, and, while a bot (or a
        remote player) is still on the same move, how long it has been, so a slow search never
        looks like a frozen table."""
        s = self.screen
        if not s.drawable():
            return
        if s.table.bot_plays != self.bot_shown:
            s.refresh_view()  # the turn timer ran out (or the seat was taken back)
        if s.table.countdown() and not s.table.bot_plays:
            view = s.current_view()
            self.say(view, s.words.status(view, s.viewer))
        can = s.table.can_hand_over
        if can != self.hand_shown:
            self.hand_shown = can
            s.refresh_bindings()
        seat, took = s.driver.thought_for()
        if seat >= 0 and s.busy and took >= 2:
            s.prompt_text = f"{seat_label(s.table.seats, seat)} is thinking… {took} s"
