"""Settings: theme, bot pace, and the table of keys (remappable in settings.json)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Static

from coldwater import themes
from coldwater.tui import keymap
from coldwater.tui import settings as settings_mod
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.widgets.form import Cycler

PACES: tuple[tuple[str, float], ...] = (("instant", 0.0), ("quick", 0.15), ("normal", 0.4), ("slow", 1.0))


class SettingsScreen(BaseScreen):
    BINDINGS = keymap.bindings("back", "nav")
    HELP = """\
**Settings.** ↑ ↓ choose a setting, ← → change it; changes are kept at once.

- *Theme*: dark, light, or ansi (your terminal's own 16 colours; best over SSH or
  with a custom palette). With `NO_COLOR` set, colours are turned off.
- *Bot pace*: the pause after each bot move, so you can follow the table.
- *Answer the obvious*: a question with a single possible answer answers itself
  (never "end your turn", never a choice that reveals something); the log says so.

To remap a key, add it to `settings.json` in the coldwater data folder, e.g.
`"keys": {"table.pause": "escape,m"}`, using the ids in the table below.
"""

    def compose(self) -> ComposeResult:
        s = self.cw.settings
        with VerticalScroll(classes="page"):
            yield Static("Settings", classes="page-title")
            yield Cycler("Theme", [(n, n) for n in themes.THEMES], s.theme or "dark", id="theme")
            yield Cycler("Bot pace", [(n, v) for n, v in PACES], s.bot_delay, id="pace")
            yield Cycler("Answer the obvious", [("yes", True), ("no", False)], s.auto_single, id="auto-single")
            yield Static("Keys", classes="section")
            yield DataTable(id="keys", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#keys", DataTable)
        table.add_columns("Where", "Keys", "Does", "Id")
        overrides = self.cw.settings.keys
        for key in keymap.DEFAULT:
            bid = keymap.binding_id(key)
            table.add_row(key.scope, keymap.describe_keys(overrides.get(bid, key.keys)), key.description, bid)
        self.query_one("#theme", Cycler).focus()

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

    def action_next(self) -> None:
        self.focus_next()

    def action_previous(self) -> None:
        self.focus_previous()

    def action_start(self) -> None:
        pass
