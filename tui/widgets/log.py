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
from textual.geometry import Region, Size
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
    a pane opened, a lesson or hint panel taking the log's place), so the log keeps
    its lines and writes them again whenever what is on screen was wrapped at
    another width, or lines came while it could not be drawn.

    The rule is one invariant: the RichLog's lines are the kept lines wrapped at
    :attr:`_at` columns, all but the last :attr:`_pending`. A line is written at
    once only when the log is on screen at that very width; otherwise it waits,
    and :meth:`_sync` (on Show, on Resize, after the next refresh) writes what
    waits, or everything again at the new width. (Issue 45: a log hidden behind a
    lesson came back on an old turn, blank after an undo, or with lines written
    while an ancestor was hidden wrapped at RichLog's ``min_width``, 10 columns.)
    """

    KEEP_ON_REWRAP: int = MAX_LINES * 2
    """How many of the newest kept lines a full rewrap writes again."""

    def __init__(self, *, id: str | None = None) -> None:
        # min_width: RichLog's default (78) would cut lines instead of wrapping them.
        super().__init__(id=id, wrap=True, markup=False, highlight=False, max_lines=MAX_LINES * 2, min_width=10)
        self._kept: list[tuple[Text, int]] = []
        self._at = 0
        """The width the RichLog's lines were wrapped at (0: nothing valid written yet)."""
        self._pending = 0
        """Kept lines at the end not yet written (the log could not be drawn, or not at `_at`)."""
        self._sync_due = False
        self._at_screen = Size(0, 0)
        """The terminal's size when the lines were wrapped at `_at`."""

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

    def _width_on_screen(self) -> int:
        """The width the log is drawn at now; 0 while it is not on screen (hidden, or an
        ancestor hidden: a pane open, the screen under another), where RichLog would wrap
        at its minimum width."""
        if not self.display or not self.is_mounted:
            return 0
        return self.scrollable_content_region.width

    def _emit(self, line: Text, indent: int, width: int, *, scroll: bool = True) -> None:
        self.write(self._shape(line, indent), width=width, scroll_end=scroll)

    def put(self, line: Text, indent: int = 0) -> None:
        self._kept.append((line, indent))
        if len(self._kept) > MAX_LINES * 2:
            del self._kept[: -MAX_LINES * 2]
        width = self._width_on_screen()
        if not self._pending and width and width == self._at:
            self._emit(line, indent, width)
            return
        # Not now: wrapped at a width nobody sees, the line would stay wrong (or cost a
        # render for nobody, behind the full log's key). Written once the log is shown.
        self._pending = min(self._pending + 1, len(self._kept))
        self._want_sync()

    def _want_sync(self) -> None:
        if not self._sync_due and self.is_mounted:
            self._sync_due = True
            self.call_after_refresh(self._sync)

    def catch_up(self) -> None:
        """Write what waits; called as the log is shown again (Show and Resize do it too).

        Where the terminal has kept its size since the lines were last wrapped, the log
        comes back at that width: what waits is written now, before the first paint, so
        opening the full log costs one repaint, not two (issue 45: F3 took 70 ms)."""
        if self._pending and self._at and self.is_mounted and self.app.size == self._at_screen:
            n, self._pending = self._pending, 0
            for line, indent in self._kept[len(self._kept) - n :]:
                self._emit(line, indent, self._at, scroll=False)  # (the opener scrolls, once)
            return  # (a different width once laid out: on_resize wraps it again)
        self._want_sync()

    def _sync(self) -> None:
        """Make the RichLog show every kept line at the width it is drawn at now."""
        self._sync_due = False
        width = self._width_on_screen()
        if not width:
            return  # still not on screen: Show or Resize brings it back here
        if width != self._at:
            self._rewrap(width)
            return
        if self._pending:
            n, self._pending = self._pending, 0
            for line, indent in self._kept[len(self._kept) - n :]:
                self._emit(line, indent, width)

    def _rewrap(self, width: int) -> None:
        self.clear()
        self._at = width
        self._at_screen = self.app.size
        self._pending = 0
        for line, indent in self._kept[-self.KEEP_ON_REWRAP :]:
            self._emit(line, indent, width)

    def clear_all(self) -> None:
        self._kept.clear()
        self._pending = 0
        self.clear()

    def on_resize(self, event: events.Resize) -> None:
        if self._pending or self._width_on_screen() != self._at:
            self._want_sync()

    def on_show(self, event: events.Show) -> None:
        self._want_sync()

    @property
    def plain(self) -> str:
        """The text kept, for tests and the tmux check."""
        return "\n".join(" " * indent + line.plain for line, indent in self._kept)

    @property
    def shown_plain(self) -> str:
        """The text the RichLog holds now, as wrapped (tests: it must be :attr:`plain`'s words)."""
        return "\n".join(strip.text.rstrip() for strip in self.lines)

    @property
    def in_step(self) -> bool:
        """Everything kept is written, at the width the log is drawn at (tests)."""
        width = self._width_on_screen()
        return not self._pending and (not width or width == self._at)


class GameLog(_Rewrapping):
    """The short log beside the choices. Not focusable: the decision list keeps the keyboard."""

    can_focus = False
    KEEP_ON_REWRAP = 300
    """It shows a dozen lines and takes no keys: a new width rewraps only the newest (F3 has all)."""

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
