"""Learn to play: pick a game, and a first game starts on the real table with a coach.

The game is the real one (two players, you against the easy bot, a fixed seed so
every learner meets the same tested opening); the coach (tui/widgets/coach.py)
explains each new kind of decision as it comes. It is saved like any game, and
Resume opens it with its coach again.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Center, Vertical
from textual.widgets import Footer, Static

from coldwater.tui import keymap, tutor
from coldwater.tui.coach import new_table
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.widgets.choices import ChoiceList, Item
from coldwater.tui.widgets.coach import coached


class LearnScreen(BaseScreen):
    DEFAULT_CSS = """
    LearnScreen { align: center middle; }
    LearnScreen #learn { width: 48; height: auto; }
    LearnScreen #learn-note { padding: 0 0 1 0; }
    """
    BINDINGS = keymap.bindings("back")
    HELP = """\
**Learn to play.** Pick a game: a first game starts against an easy bot, and a panel
beside the choices explains each new kind of decision the first time it comes, with
the numbers of the position and where to look. You choose every move yourself.

- **g** turns the lesson's page, then hides it (or shows the next one); choosing a
  move hides it too.
- **t** shows the last lesson again; **x** turns the lessons off for this game.
- After a clearly weak choice, a gentle word says what looked stronger.

The game is saved after every move like any other: *Resume* brings it back with its
lessons, and no lesson is shown twice.
"""

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static("Learn to play", classes="page-title")
            yield Static("A first game against an easy bot, with a coach beside the table.", id="learn-note")
            with Center():
                yield ChoiceList(
                    [Item(label, value, key=key) for key, label, value in self.cw.catalog.lettered(tutor.games())],
                    auto_keys=False,
                    id="learn",
                )
            yield Static("", id="learn-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#learn", ChoiceList).focus()

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        self.start(str(event.value))

    def start(self, name: str) -> None:
        try:
            game = self.cw.catalog.get(name)
            table = new_table(game)
        except (KeyError, ValueError, OSError, ImportError) as e:
            self.query_one("#learn-error", Static).update(f"Cannot start: {e}")
            return
        self.app.switch_screen(coached(self.cw.catalog.table_screen(name))(table))
