"""The main menu: every way into the app, each on a letter key."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Center, Vertical
from textual.widgets import Static

from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.serve.applink import served_key, served_openssh_key
from coldwater.tui.widgets.choices import ChoiceList, Item

BANNER = "≈≈≈  c o l d w a t e r  ≈≈≈"

ENTRIES: tuple[tuple[str, str, str], ...] = (
    ("s", "Solo against bots", "solo"),
    ("h", "Hotseat (several people, one keyboard)", "hotseat"),
    ("l", "Learn to play (a first game with a coach)", "learn"),
    ("o", "Host a LAN table", "host"),
    ("j", "Join a LAN table", "join"),
    ("r", "Resume a saved game", "resume"),
    ("p", "Replays", "replays"),
    ("x", "Drill your mistakes (from reviewed games)", "drill"),
    ("u", "Rules", "rules"),
    ("t", "Settings", "settings"),
    ("q", "Quit", "quit"),
)
SERVED: tuple[tuple[str, str, str], ...] = (
    ("b", "Turn-based tables (a move every few hours)", "turns"),
    ("d", "Deal of the day (one deal for everyone)", "deals"),
    ("g", "History and ratings (your games here)", "history"),
)
"""Entries only a served session has (`coldwater serve` keeps them), before Settings."""


def entries(served: bool) -> tuple[tuple[str, str, str], ...]:
    if not served:
        return ENTRIES
    at = next(i for i, e in enumerate(ENTRIES) if e[2] == "settings")
    return ENTRIES[:at] + SERVED + ENTRIES[at:]


class MenuScreen(BaseScreen):
    BINDINGS = keymap.bindings("menu")
    HELP = """\
**The main menu.** Press the letter beside an entry, or move with ↑ ↓ and press Enter.

- *Solo* and *Hotseat* open the new-game form (hotseat seats several people who take
  turns at this keyboard; a hand-over screen hides each one's secrets from the next).
- *Host a LAN table* opens a table others on your network join; *Join* lists the
  tables announced nearby (or joins one by address). Both lead to a lobby with chat.
- *Learn to play* starts a first game of the game you pick against an easy bot, with
  a coach beside the table that explains each new kind of decision as it comes.
- *Resume* lists games that were left unfinished: every move is saved as it is made.
- *Replays* steps through finished and saved games.
- *Drill your mistakes* (**x**) plays the labelled mistakes of the games you reviewed
  lately, one position at a time: choose what you would play (docs/coach.md).
- *Rules* explains each game.

Over SSH (`coldwater serve`) the line under the menu shows the fingerprint of the key
you connected with: that key is who you are here, and a host can reserve a seat for it.
Below it, the same key as `ssh-keygen -l` prints it (`SHA256:…`), to check it is yours.
A table you host is kept by the server, so it stays open if your connection drops.
*Turn-based tables* (**b**) and the *Deal of the day* (**d**), over SSH only, are kept by
the server. *History and ratings* (**g**, over SSH only) lists the games you finished at the server's
tables and your rating in each game.
"""

    def compose(self) -> ComposeResult:
        with Vertical(id="menu-box"):
            yield Static(BANNER, id="banner")
            yield Static("Cold-water board games in the terminal", id="tagline")
            with Center():
                yield ChoiceList(
                    [Item(label, value, key=key) for key, label, value in entries(bool(served_key()))],
                    auto_keys=False,
                    id="menu",
                )
            yield Static("Press ? for help on any screen · q quits", id="menu-hint")
            key = served_key()
            if key:
                # Who the server thinks this is: the same fingerprint a host can reserve a seat for.
                line = f"Over SSH with key {key}"
                if openssh := served_openssh_key():  # what `ssh-keygen -l` prints for the same key
                    line += f"\n{openssh}"
                yield Static(line, id="menu-key")
                yield Static("", id="menu-turns")
        # No footer here: every entry shows its key already, and the footer is
        # the single most expensive widget of the first frame (cold start).

    def on_screen_resume(self) -> None:  # (also when the menu first shows)
        if served_key():
            self.run_worker(self.turns_waiting(), exclusive=True)

    async def turns_waiting(self) -> None:
        """'3 turn-based tables wait for you' under the key, when any do (asked of the server)."""
        from coldwater.tui.screens.turns import waiting_line
        from coldwater.tui.serve.applink import ServerUnavailable, link
        from coldwater.tui.serve.turnwire import ListTurnTables, TurnTables

        served = link()
        if served is None:
            return
        try:
            reply = await served.turn(ListTurnTables())
        except ServerUnavailable:
            return  # the menu works without it
        n = sum(1 for t in reply.tables if t.your_turn) if isinstance(reply, TurnTables) else 0
        self.query_one("#menu-turns", Static).update(waiting_line(n) if n else "")

    def open_drill(self) -> None:
        """The labelled mistakes of recently reviewed games (tui/drillstore.py), newest first."""
        from coldwater.tui import drillstore
        from coldwater.tui.screens.drill import DrillScreen, recent_items

        items = recent_items(drillstore.load().games)
        if not items:
            self.notify("No labelled mistakes kept yet: review a finished game first (v at its end, or in Replays).")
            return
        catalog = self.app.catalog  # type: ignore[attr-defined]

        def part(what: str) -> Callable[[str], Any]:
            def of(name: str) -> Any:
                try:
                    return getattr(catalog.table_screen(name), what)
                except Exception:  # a game without a table here: no board, the log's words
                    return None

            return of

        self.app.push_screen(DrillScreen(items, part("BOARD"), part("WORDS")))

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        self.open(event.value)

    def action_quit(self) -> None:
        self.app.exit()

    def open(self, what: str) -> None:
        if what == "quit":
            self.app.exit()
        elif what in ("solo", "hotseat"):
            from coldwater.tui.screens.newgame import NewGameScreen

            self.app.push_screen(NewGameScreen(mode=what))
        elif what == "learn":
            from coldwater.tui.screens.learn import LearnScreen

            self.app.push_screen(LearnScreen())
        elif what == "host":
            from coldwater.tui.screens.lan_host import LanHostScreen

            self.app.push_screen(LanHostScreen())
        elif what == "join":
            from coldwater.tui.screens.lan_join import LanJoinScreen

            self.app.push_screen(LanJoinScreen())
        elif what == "resume":
            from coldwater.tui.screens.resume import ResumeScreen

            self.app.push_screen(ResumeScreen())
        elif what == "replays":
            from coldwater.tui.screens.replays import ReplaysScreen

            self.app.push_screen(ReplaysScreen())
        elif what == "drill":
            self.open_drill()
        elif what == "rules":
            from coldwater.tui.screens.rules import RulesScreen

            self.app.push_screen(RulesScreen())
        elif what == "turns":
            from coldwater.tui.screens.turns import TurnsScreen

            self.app.push_screen(TurnsScreen())
        elif what == "deals":
            from coldwater.tui.screens.deals import DealsScreen

            self.app.push_screen(DealsScreen())
        elif what == "history":
            from coldwater.tui.screens.history import HistoryScreen

            self.app.push_screen(HistoryScreen())
        elif what == "settings":
            from coldwater.tui.screens.settings import SettingsScreen

            self.app.push_screen(SettingsScreen())
