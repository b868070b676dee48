"""The rules of each game, in the app (``tui/help/<game>.md``).

Below :data:`STACK_BELOW` columns the list of games goes above the text, so the text has
the whole width; where the text is narrower than :data:`TABLES_FROM` a table is written
as a list, one item per row with each cell after its column's heading, since a table
squeezed to that width leaves a word per line."""

from __future__ import annotations

import re
from importlib import resources

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Markdown, Static

from coldwater.core import games
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.widgets.choices import ChoiceList, Item

KEYS_TOPIC = ("k", "Playing with the keyboard", "keys")
"""The one topic that is no game; each game's rules are ``tui/help/<name>.md``."""


STACK_BELOW = 110
"""Terminal width below which the games are listed above the text, not beside it."""
TABLES_FROM = 90
"""Text width from which tables are drawn as tables."""

_CELLS = re.compile(r"^\s*\|(.*)\|\s*$")
_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")


def cells(line: str) -> list[str] | None:
    m = _CELLS.match(line)
    return [c.strip() for c in m[1].split("|")] if m else None


def tables_as_lists(text: str) -> str:
    """Each Markdown table in `text` as a list: "- **first cell**: heading 2: cell 2; ..."."""
    lines = text.split("\n")
    out: list[str] = []
    n = 0
    while n < len(lines):
        head = cells(lines[n])
        if head is None or n + 1 >= len(lines) or not _RULE.match(lines[n + 1]):
            out.append(lines[n])
            n += 1
            continue
        n += 2
        while n < len(lines) and (row := cells(lines[n])) is not None:
            rest = [f"{h}: {c}" if h else c for h, c in zip(head[1:], row[1:]) if c]
            if len(head) == 2:
                rest = [c for c in row[1:] if c]  # "purple, green: Shore" reads as it is
            out.append(f"- **{row[0]}**: " + "; ".join(rest) if row and row[0] else "- " + "; ".join(rest))
            n += 1
    return "\n".join(out)


def help_text(topic: str) -> str:
    try:
        return resources.files("coldwater.tui").joinpath("help", f"{topic}.md").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return f"No rules summary for {topic} yet."


class RulesScreen(BaseScreen):
    BINDINGS = keymap.bindings("back", "rules")
    HELP = (
        "**Rules.** Pick a game with its letter (or ↑ ↓ Enter); PgDn or Space scrolls the text "
        "down, PgUp or b scrolls it back up. Esc goes back."
    )

    def __init__(self, topic: str = "") -> None:
        super().__init__()
        self.topic = topic
        """The topic shown: a game's name or ``keys`` ("": the first game on offer)."""
        self._as_lists: bool | None = None
        """Whether the text on screen has its tables written as lists (None: nothing shown yet)."""

    def topics(self) -> list[tuple[str, str, str]]:
        """(key, title, topic): every game this version has (its rules are worth reading before a game is on
        offer), each by a letter of its title, then the keyboard."""
        return [*self.cw.catalog.lettered(games.names(), taken=KEYS_TOPIC[0]), KEYS_TOPIC]

    def compose(self) -> ComposeResult:
        self.topic = self.topic or self.topics()[0][2]
        yield Static("Rules", classes="page-title")
        with Horizontal(id="rules-main"):
            yield ChoiceList(
                [Item(label, value, key=key) for key, label, value in self.topics()], auto_keys=False, id="rules-topics"
            )
            with VerticalScroll(id="rules-scroll", can_focus=False):
                yield Markdown("", id="rules-text")
        yield Footer()

    def text_for(self, topic: str) -> str:
        """The summary, then the engine's own rulings where the rulebook is silent (``Game.rulings``: a game
        declares its own, or none). The topics are the registry's games (:meth:`topics`), read from it."""
        text = help_text(topic)
        rulings = games.get(topic).rulings if topic in games.names() else ()
        if rulings:
            text += "\n\n## Rulings: where the rulebook is silent\n\n" + "\n".join(
                f"- **{r.topic}**: {r.text}" for r in rulings
            )
        return text

    def show_text(self) -> None:
        """The topic's text, with tables as tables only where the text has the room."""
        stacked = self.size.width < STACK_BELOW
        self.set_class(stacked, "-stacked")
        room = self.size.width - (2 if stacked else 33 + 2)
        as_lists = room < TABLES_FROM
        self._as_lists = as_lists
        text = self.text_for(self.topic)
        self.query_one("#rules-text", Markdown).update(tables_as_lists(text) if as_lists else text)

    def on_resize(self, event: events.Resize) -> None:
        stacked = self.size.width < STACK_BELOW
        room = self.size.width - (2 if stacked else 33 + 2)
        if self._as_lists is not None and (
            (room < TABLES_FROM) != self._as_lists or stacked != self.has_class("-stacked")
        ):
            self.show_text()

    def on_mount(self) -> None:
        self.show_text()
        topics = self.query_one("#rules-topics", ChoiceList)
        values = topics.values
        if self.topic in values:
            topics.highlighted = values.index(self.topic)
        topics.focus()

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        self.topic = event.value
        self.show_text()
        self.query_one("#rules-scroll", VerticalScroll).scroll_home(animate=False)

    def action_scroll(self, pages: int) -> None:
        scroll = self.query_one("#rules-scroll", VerticalScroll)
        if pages > 0:
            scroll.scroll_page_down(animate=False)
        else:
            scroll.scroll_page_up(animate=False)
