"""The game log: what happened, in words, grouped by round and turn.

The table keeps one :class:`LogBook` (a list of :class:`LogEntry`) and draws it
twice: :class:`GameLog`, the short log beside the choices (newest at the
bottom, one line per entry with the player's name), and :class:`LogPane`, the
full-screen history behind the log key, with a heading for every round and
every turn so a bot's whole turn reads as one block.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import msgspec
from rich.console import RenderableType
from rich.padding import Padding
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import RichLog

MAX_LINES = 2000

Kind = Literal["move", "chance", "announce", "summary", "note", "outcome"]


class LogEntry(msgspec.Struct, frozen=True):
    kind: Kind
    text: str
    who: str = ""
    """Who acted, in words (a name, "Silent player", "The rival"); "" for the table itself."""
    turn: int = 0
    """The turn it happened in (see coldwater.core.clock); chance joins the turn it happens in."""
    round: int | None = None
    """The round it happened in, 0 for the setup; None where the table does not say."""
    party: str = ""
    """Whose turn it was, in words (not always who acted: answers to another's card, the
    silent player's draws)."""


class LogBook:
    """Every entry of one game, in order, with the turn counting done once."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []
        self._turn = 0
        self._turn_who: str | None = None

    def add(
        self,
        kind: Kind,
        text: str,
        who: str = "",
        round: int | None = None,
        *,
        turn: int | None = None,
        party: str = "",
    ) -> LogEntry:
        """Add an entry to `turn` (None: count a turn each time the one who moves changes)."""
        if turn is not None:
            self._turn = turn
            self._turn_who = party or who
        elif kind == "move" and who != self._turn_who:
            self._turn += 1
            self._turn_who = who
        entry = LogEntry(kind, text, who, self._turn, round, party)
        self.entries.append(entry)
        del self.entries[:-MAX_LINES]
        return entry

    def clear(self) -> None:
        self.entries.clear()
        self._turn = 0
        self._turn_who = None

    def since_last(self, who: str) -> list[LogEntry]:
        """The others' moves and the announcements since `who` last moved."""
        out: list[LogEntry] = []
        for entry in reversed(self.entries):
            if entry.kind == "move" and entry.who == who:
                break
            if entry.kind in ("move", "announce"):
                out.append(entry)
        return out[::-1]


STYLES: dict[str, str] = {
    "chance": "dim",
    "announce": "bold",
    "summary": "italic",
    "note": "italic",
    "outcome": "bold reverse",
}
""""dim" only for chance lines, which repeat what the board shows; under NO_COLOR the
monochrome filter keeps dim legible (see themes)."""


def line_of(entry: LogEntry, *, with_who: bool = True) -> Text:
    line = Text(style=STYLES.get(entry.kind, ""))
    if entry.kind == "announce":
        line.append("★ ")
    if with_who and entry.who and not entry.text.startswith(entry.who):
        line.append(entry.who, style="bold")
        line.append(": ")
    line.append(entry.text)
    return line


class _Rewrapping(RichLog):
    """RichLog wraps a line once, at the width it has when the line is written; the
    table's layout can still change after that (breakpoints, a resized terminal,
    a pane opened), so the log keeps its lines and wraps them again on a new width."""

    def __init__(self, *, id: str | None = None) -> None:
        # min_width: RichLog's default (78) would cut lines instead of wrapping them.
        super().__init__(id=id, wrap=True, markup=False, highlight=False, max_lines=MAX_LINES * 2, min_width=10)
        self._kept: list[tuple[Text, int]] = []
        self._width = 0
        self._unwritten = 0
        """Lines kept but not yet written because the log was hidden (see :meth:`catch_up`)."""

    # RichLog asks for its own style (a walk up the DOM) and its region for every
    # line it draws, and each new line scrolls every visible one; the short log is
    # redrawn after every move, so both are looked up once per drawing instead.
    _style_now: Style | None = None
    _width_now = 0

    def render_lines(self, crop: Region) -> list[Strip]:
        self._style_now = self.rich_style
        self._width_now = self.scrollable_content_region.width
        try:
            return super().render_lines(crop)
        finally:
            self._style_now = None

    def render_line(self, y: int) -> Strip:
        style = self._style_now
        if style is None:
            return super().render_line(y)
        scroll_x, scroll_y = self.scroll_offset
        return self._render_line_in(scroll_y + y, scroll_x, self._width_now, style).apply_style(style)

    def _render_line_in(self, y: int, scroll_x: int, width: int, style: Style) -> Strip:
        # RichLog._render_line with the style passed in; the same cache and keys.
        if y >= len(self.lines):
            return Strip.blank(width, style)
        key = (y + self._start_line, scroll_x, width, self._widest_line_width)
        line = self._line_cache.get(key)
        if line is None:
            line = self.lines[y].crop_extend(scroll_x, scroll_x + width, style)
            self._line_cache[key] = line
        return line

    @staticmethod
    def _shape(line: Text, indent: int) -> RenderableType:
        # A hanging indent: wrapped lines start under the text, not at column 0.
        return Padding(line, (0, 0, 0, indent)) if indent else line

    def put(self, line: Text, indent: int = 0) -> None:
        self._kept.append((line, indent))
        del self._kept[: -MAX_LINES * 2]
        if not self.display or self._unwritten:
            # Hidden (the full log pane behind its key): writing wraps and renders the
            # line now, for nobody; it is written when the pane opens instead (and
            # after the lines that wait already, to keep the order).
            self._unwritten = min(self._unwritten + 1, len(self._kept))
            return
        self.write(self._shape(line, indent))

    def catch_up(self) -> None:
        """Write the lines kept while hidden; call it when the log is shown again.
        They are written after the next repaint: a log that was hidden has no width
        yet, and a line written now would be wrapped at the narrowest."""
        if self._unwritten:
            self.call_after_refresh(self._write_unwritten)

    def _write_unwritten(self) -> None:
        if not self.display or not self._unwritten:
            return  # hidden again before it was shown: it waits for the next time
        if not self.size.width:
            self.call_after_refresh(self._write_unwritten)  # not laid out yet
            return
        n, self._unwritten = self._unwritten, 0
        for line, indent in self._kept[len(self._kept) - n :]:
            self.write(self._shape(line, indent))

    def clear_all(self) -> None:
        self._kept.clear()
        self._unwritten = 0
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._width:
            self._width = event.size.width
            self._unwritten = 0
            self.clear()
            for line, indent in self._kept:
                self.write(self._shape(line, indent))

    @property
    def plain(self) -> str:
        """The text shown, for tests and the tmux check."""
        return "\n".join(" " * indent + line.plain for line, indent in self._kept)


class GameLog(_Rewrapping):
    """The short log beside the choices. Not focusable: the decision list keeps the keyboard."""

    can_focus = False

    def add(self, who: str, text: str, *, quiet: bool = False) -> None:
        """Log `text`; `who` is prefixed unless the text already starts with it
        (kept for callers that write a line directly)."""
        self.put(line_of(LogEntry("chance" if quiet else "move", text, who)))

    def show_entry(self, entry: LogEntry) -> None:
        self.put(line_of(entry))

    def show_all(self, entries: Iterable[LogEntry]) -> None:
        self.clear_all()
        for entry in entries:
            self.show_entry(entry)


class LogPane(_Rewrapping):
    """The full-screen history: focusable, scrolls with the arrows and PgUp/PgDn,
    a heading per round and per turn, lines indented under their turn."""

    can_focus = True

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._round: int | None = None
        self._turn = -1

    def show_entry(self, entry: LogEntry) -> None:
        if entry.kind in ("summary", "outcome", "note"):
            self.put(line_of(entry))
            return
        if entry.round is not None and entry.round != self._round:
            self._round = entry.round
            self.put(Text(f"── Round {entry.round} ──" if entry.round else "── Setup ──", style="bold underline"))
        heading = entry.party or (entry.who if entry.kind == "move" else "")
        if heading and entry.turn != self._turn:
            self._turn = entry.turn
            self.put(Text(f"{heading} · turn {entry.turn}" if entry.party else heading, style="bold"))
        self.put(line_of(entry, with_who=entry.kind == "announce"), indent=2)

    def show_all(self, entries: Iterable[LogEntry]) -> None:
        self.clear_all()
        self._round = None
        self._turn = -1
        for entry in entries:
            self.show_entry(entry)
