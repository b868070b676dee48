"""Settings: theme, bot pace, and every key (remapped here: press the new key).

↑ ↓ move between the settings and down the list of keys, ← → change a setting,
Enter on a key waits for the new key. A key that would mean two things on one
screen is refused with the reason (:func:`coldwater.tui.keymap.conflict`).
Everything is kept in settings.json at once.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, Static

from coldwater import themes
from coldwater.tui import keymap
from coldwater.tui import settings as settings_mod
from coldwater.tui.screens.base import BaseModal, BaseScreen
from coldwater.tui.widgets.choices import ChoiceList, Item
from coldwater.tui.widgets.form import Cycler, FormScroll

PACES: tuple[tuple[str, float], ...] = (("instant", 0.0), ("quick", 0.15), ("normal", 0.4), ("slow", 1.0))


class KeyList(ChoiceList):
    """The list of keys; ↑ on its first row goes back up to the settings above it."""

    def action_cursor_up(self) -> None:
        if self.highlighted is None or self.highlighted <= 0:
            self.screen.focus_previous()
        else:
            super().action_cursor_up()


class KeyCapture(BaseModal):
    """Waits for the new key, then for the same key again, and returns its name; Esc cancels.

    The second press confirms: a stray Enter on the list and any key after it would
    otherwise remap a key nobody meant to change (issue 45). Another key in second place
    starts over with that key."""

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what
        self.first: str | None = None
        """The key pressed once, waiting for its confirmation."""

    def compose(self) -> ComposeResult:
        with Vertical(id="capture-box"):
            yield Static(f"Press the new key for “{self.what}”.\nEsc cancels.", id="capture-text", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key == "escape":
            self.dismiss(None)
        elif event.key == self.first:
            self.dismiss(event.key)
        else:
            self.first = event.key
            shown = keymap.describe_keys(event.key)
            text = f"“{self.what}” on {shown}?\nPress {shown} again to confirm; another key instead; Esc cancels."
            self.query_one("#capture-text", Static).update(text)


class SettingsScreen(BaseScreen):
    BINDINGS = keymap.bindings("back", "nav", "settings")
    HELP = """\
**Settings.** ↑ ↓ move between the settings and down the list of keys, ← → change a
setting; changes are kept at once.

- *Theme*: dark, light, or ansi (your terminal's own 16 colours; best over SSH or
  with a custom palette). With `NO_COLOR` set, colours are turned off.
- *Bot pace*: the pause after each bot move, so you can follow the table.
- *Answer the obvious*: a question with a single possible answer answers itself, and
  so does one with a single sensible answer (a bait that fits only one card goes
  there); never "end your turn", never a choice that reveals something; the log says so.
- *Keys*: Enter on a key, then press the new key twice (the second press confirms). A key that already means something
  on the same screen is refused, and the message says what it means there. Backspace
  puts a key back to its default.
"""

    pane_titles: dict[str, str]
    """What each game pane key opens (:meth:`games_panes`), from the mount on."""

    def compose(self) -> ComposeResult:
        s = self.cw.settings
        with FormScroll(classes="page", id="settings-form"):
            yield Static("Settings", classes="page-title")
            yield Cycler(
                "Theme",
                [(n, n) for n in themes.THEMES],
                s.theme or "dark",
                id="theme",
                hint="← → changes the colours: dark, light, or ansi (your terminal's 16 colours)",
            )
            yield Cycler(
                "Bot pace",
                [(n, v) for n, v in PACES],
                s.bot_delay,
                id="pace",
                hint="← → changes the pause after each bot move, so you can follow the table",
            )
            yield Cycler(
                "Answer the obvious",
                [("yes", True), ("no", False)],
                s.auto_single,
                id="auto-single",
                hint="yes: a question with one possible (or one sensible) answer answers itself",
            )
            yield Static("Keys — Enter, then the new key twice; Backspace restores the default", classes="section")
            yield KeyList(id="keys", auto_keys=False)
            yield Static("", id="keys-message", classes="note", markup=False)
        yield self.hint_line()
        yield Footer()

    def on_mount(self) -> None:
        self.pane_titles = self.games_panes()
        self.show_keys()
        self.query_one("#theme", Cycler).focus()

    def games_panes(self) -> dict[str, str]:
        """What each pane key opens, by binding id (``table.pane1``: "Ocean"): the titles the games' own
        table screens declare for its slot (their ``PANES``), so this screen names no game's pane."""
        titles: dict[str, list[str]] = {}
        for name in self.cw.catalog.names():
            for key, pane in zip(keymap.PANE_KEYS, self.cw.catalog.table_screen(name).PANES, strict=False):
                titles.setdefault(keymap.binding_id(key), []).append(pane.title)
        return {bid: ", ".join(dict.fromkeys(names)) for bid, names in titles.items()}

    def describe(self, key: keymap.Key) -> str:
        """A key's description, with what it opens where that is a game's pane ("Pane 1 (Ocean)")."""
        opens = self.pane_titles.get(keymap.binding_id(key))
        return f"{key.description} ({opens})" if opens else key.description

    def show_keys(self, highlight: int | None = None) -> None:
        overrides = self.cw.settings.keys
        items = []
        for key in keymap.ALL_KEYS:
            bid = keymap.binding_id(key)
            keys = keymap.describe_keys(overrides.get(bid, key.keys))
            mark = " *" if bid in overrides else ""
            items.append(Item(f"{key.scope:<9} {self.describe(key):<22} {keys}{mark}", bid))
        lst = self.query_one("#keys", KeyList)
        lst.set_items(items, highlight=highlight)
        lst.hint = "Enter, then the new key twice; Backspace: the default; * marks a changed key"  # type: ignore[attr-defined]

    def on_cycler_changed(self, event: Cycler.Changed) -> None:
        if not self.is_mounted:
            return
        if event.cycler.id == "theme" and event.value != (self.cw.settings.theme or "dark"):
            self.cw.set_theme_name(event.value)
        elif event.cycler.id == "pace" and event.value != self.cw.settings.bot_delay:
            self.cw.settings.bot_delay = event.value
            self.cw.bot_delay = event.value
            settings_mod.save(self.cw.settings)
        elif event.cycler.id == "auto-single" and event.value != self.cw.settings.auto_single:
            self.cw.settings.auto_single = event.value
            settings_mod.save(self.cw.settings)

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        event.stop()
        self.remap(event.value)

    def _highlighted(self) -> str | None:
        lst = self.query_one("#keys", KeyList)
        if not lst.has_focus or lst.highlighted is None:
            return None
        value: Any = lst.highlighted_value
        return value if isinstance(value, str) else None

    def action_reset(self) -> None:
        bid = self._highlighted()
        if bid is None or bid not in self.cw.settings.keys:
            return
        default = next(k.keys for k in keymap.ALL_KEYS if keymap.binding_id(k) == bid)
        others = {k: v for k, v in self.cw.settings.keys.items() if k != bid}
        for one in default.split(","):
            why = keymap.conflict(bid, one.strip(), others)
            if why:
                self.say(f"Cannot restore the default: {why}.")
                return
        self.cw.settings.keys = others
        self.apply(bid, f"{bid} is back to {keymap.describe_keys(default)}.")

    def remap(self, bid: str) -> None:
        key = next(k for k in keymap.ALL_KEYS if keymap.binding_id(k) == bid)

        def chosen(new: str | None) -> None:
            if not new:
                self.say("Unchanged.")
                return
            why = keymap.conflict(bid, new, {k: v for k, v in self.cw.settings.keys.items() if k != bid})
            if why:
                self.say(f"Not changed: {why}.")
                return
            self.cw.settings.keys = {**self.cw.settings.keys, bid: new}
            self.apply(bid, f"{self.describe(key)} ({key.scope}) is now {keymap.describe_keys(new)}.")

        self.app.push_screen(KeyCapture(f"{self.describe(key)} ({key.scope})"), chosen)

    def apply(self, bid: str, message: str) -> None:
        """Keep the keys, make Textual use them now, and redraw the list."""
        settings_mod.save(self.cw.settings)
        self.app.set_keymap(dict(self.cw.settings.keys))
        index = [keymap.binding_id(k) for k in keymap.ALL_KEYS].index(bid)
        self.show_keys(highlight=index)
        self.say(message)

    def say(self, text: str) -> None:
        self.query_one("#keys-message", Static).update(text)

    def action_next(self) -> None:
        self.focus_next()

    def action_previous(self) -> None:
        self.focus_previous()
