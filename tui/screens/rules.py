"""The rules of each game, in the app (``tui/help/<game>.md``)."""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Markdown, Static

from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.widgets.choices import ChoiceList, Item

TOPICS: tuple[tuple[str, str, str], ...] = (
    ("c", "Coldwater Crown", "crown"),
    ("f", "Fisheries of Gloucester", "fisheries"),
    ("a", "Aquatica: Cold Waters", "aquatica"),
    ("k", "Playing with the keyboard", "keys"),
)


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

    def __init__(self, topic: str = "crown") -> None:
        super().__init__()
        self.topic = topic

    def compose(self) -> ComposeResult:
        yield Static("Rules", classes="page-title")
        with Horizontal(id="rules-main"):
            yield ChoiceList(
                [Item(label, value, key=key) for key, label, value in TOPICS], auto_keys=False, id="rules-topics"
            )
            with VerticalScroll(id="rules-scroll", can_focus=False):
                yield Markdown("", id="rules-text")
        yield Footer()

    def text_for(self, topic: str) -> str:
        """The summary, then the engine's own rulings where the rulebook is silent."""
        text = help_text(topic)
        try:
            rulings = getattr(self.cw.catalog.get(topic), "rulings", ())
        except (ImportError, AttributeError, KeyError):
            rulings = ()
        if rulings:
            text += "\n\n## Rulings: where the rulebook is silent\n\n" + "\n".join(
                f"- **{r.topic}**: {r.text}" for r in rulings
            )
        return text

    def on_mount(self) -> None:
        self.query_one("#rules-text", Markdown).update(self.text_for(self.topic))
        topics = self.query_one("#rules-topics", ChoiceList)
        values = topics.values
        if self.topic in values:
            topics.highlighted = values.index(self.topic)
        topics.focus()

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        self.topic = event.value
        self.query_one("#rules-text", Markdown).update(self.text_for(self.topic))
        self.query_one("#rules-scroll", VerticalScroll).scroll_home(animate=False)

    def action_scroll(self, pages: int) -> None:
        scroll = self.query_one("#rules-scroll", VerticalScroll)
        if pages > 0:
            scroll.scroll_page_down(animate=False)
        else:
            scroll.scroll_page_up(animate=False)
