"""The coldwater app: a menu, new-game forms, game tables, saves and replays.

``run(theme)`` is what the ``coldwater`` command calls. Screens live in
:mod:`coldwater.tui.screens` (one module each), game-specific widgets under
:mod:`coldwater.tui.widgets`, styles and themes in :mod:`coldwater.themes`.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App
from textual.events import Resize
from textual.filter import Monochrome, NoColor
from textual.screen import Screen

from coldwater import themes
from coldwater.net.play.thinker import Thinker
from coldwater.tui import keymap, termcaps
from coldwater.tui import settings as settings_mod
from coldwater.tui.catalog import Catalog
from coldwater.tui.thinking import ThinkGate

if TYPE_CHECKING:
    from coldwater.net.party import Party

MIN_WIDTH, MIN_HEIGHT = 80, 24


class ColdwaterApp(App[None]):
    TITLE = "coldwater"
    CSS_PATH = themes.stylesheet_paths()  # type: ignore[assignment]
    BINDINGS = keymap.bindings("app")
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        *,
        theme: str | None = None,
        catalog: Catalog | None = None,
        settings: settings_mod.Settings | None = None,
        bot_delay: float | None = None,
        lan_start: Callable[[], Awaitable[tuple[Party, bool]]] | None = None,
        bot_process: bool = True,
        strict: bool = False,
    ) -> None:
        super().__init__()
        self.strict = strict
        """A game's table hook that fails raises instead of being logged and replaced by its fallback
        (tui/screens/guard.py): the test harness sets it, so a wording bug fails the test that meets it."""
        self._colour_filter(termcaps.no_color(os.environ))
        self.lan_start = lan_start
        """Open straight into a LAN lobby: returns (TableHost or TablePeer, is_host)."""
        self.lan_options: dict[str, Any] = {}
        """Where LAN tables listen and whether they are announced (tests: loopback, no zeroconf)."""
        self.catalog = catalog or Catalog()
        self.settings_problem: str | None = None
        """Why settings.json could not be read (it was moved aside), shown once on start."""
        if settings is None:
            settings, self.settings_problem = settings_mod.load_reporting()
        self.settings = settings
        self.bot_delay = self.settings.bot_delay if bot_delay is None else bot_delay
        self.thinker: Thinker | None = Thinker(notify=self._thinker_notice) if bot_process else None
        """The search bots' worker process, started when a table first needs it and
        ended with the app (net/play/thinker.py). None: they think in a thread here."""
        self.think_gate = ThinkGate(on_change=self.thinker.hold if self.thinker is not None else None)
        """Holds a bot's search while a key is handled, in a thread or in the worker (see tui/thinking.py)."""
        for t in themes.THEMES.values():
            self.register_theme(t)
        self.low_colour = not self.no_color and termcaps.low_colour(os.environ.get("TERM"), os.environ)
        """Fewer than 256 colours: the ANSI theme whatever was chosen (themes.resolve)."""
        chosen = theme or self.settings.theme
        self.theme = themes.resolve(chosen, no_color=self.no_color, low_colour=self.low_colour)
        self.theme_notice = self._low_colour_notice(chosen)
        if self.settings.keys:
            self.set_keymap(dict(self.settings.keys))

    def _low_colour_notice(self, chosen: str | None) -> str | None:
        if not self.low_colour or chosen in (None, "ansi"):
            return None
        term = os.environ.get("TERM") or "not set"
        return (
            f"This terminal reports fewer than 256 colours (TERM={term}), so the ANSI theme is used "
            f"instead of {chosen}. If it can show more, set TERM=xterm-256color or COLORTERM=truecolor."
        )

    def _colour_filter(self, no_color: bool) -> None:
        """Under NO_COLOR, strip colour and leave the terminal's own foreground and background.

        Textual decides at construction, before our theme is set, and then picks its
        Monochrome filter, which turns the ANSI theme's "default" colours into black on
        black; it also counts an empty NO_COLOR, which no-color.org does not. So the
        choice is made again here, with NoColor (attributes such as bold and reverse
        stay, and Textual's own ``:nocolor`` rules lean on them)."""
        self.no_color = no_color
        self._filters = [f for f in self._filters if not isinstance(f, Monochrome | NoColor)]
        if no_color:
            self._filters.append(NoColor())

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            # A key comes first: hold any search until the screen has repainted.
            self.think_gate.hold()
            self.call_after_refresh(self.think_gate.release)
        await super().on_event(event)

    def _thinker_notice(self, text: str) -> None:
        self.notify(text, title="Bots", severity="warning", timeout=15)

    async def on_unmount(self) -> None:
        # The app is closing: the worker abandons any search and exits (and is reaped).
        if self.thinker is not None:
            await self.thinker.close()

    def on_mount(self) -> None:
        from coldwater.tui.screens.menu import MenuScreen

        self.push_screen(MenuScreen())
        self.check_size()
        if self.settings_problem:
            self.notify(self.settings_problem, title="Settings", severity="warning", timeout=30)
        if self.theme_notice:
            self.notify(self.theme_notice, title="Colours", timeout=15)
        if self.lan_start is not None:
            self.run_worker(self._open_lan(self.lan_start), name="lan-start")

    async def _open_lan(self, start: Callable[[], Awaitable[tuple[Party, bool]]]) -> None:
        from coldwater.tui.screens.lobby import LobbyScreen

        try:
            party, is_host = await start()
        except Exception as e:  # refused, unreachable, bad arguments: a sentence on the menu
            self.notify(f"Cannot open the LAN table: {e}", severity="error", timeout=30)
            return
        self.push_screen(LobbyScreen(party, is_host=is_host))

    def on_resize(self, event: Resize) -> None:
        self.check_size(event.size.width, event.size.height)

    def check_size(self, width: int | None = None, height: int | None = None) -> None:
        """Put the too-small notice on top, or take it away, for the current size."""
        from coldwater.tui.screens.toosmall import TooSmallScreen

        width = self.size.width if width is None else width
        height = self.size.height if height is None else height
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        on_top = isinstance(self.screen, TooSmallScreen)
        if small and not on_top:
            self.push_screen(TooSmallScreen())
        elif not small and on_top:
            self.pop_screen()

    def action_help(self) -> None:
        from coldwater.tui.screens.help import HelpScreen
        from coldwater.tui.screens.toosmall import TooSmallScreen

        if isinstance(self.screen, HelpScreen | TooSmallScreen):
            return
        self.push_screen(HelpScreen(self.screen))

    def set_theme_name(self, short: str) -> None:
        """Switch theme now and remember it."""
        self.theme = themes.resolve(short, no_color=self.no_color, low_colour=self.low_colour)
        self.settings.theme = short
        settings_mod.save(self.settings)
        if notice := self._low_colour_notice(short):
            self.notify(notice, title="Colours", timeout=15)

    def show(self, screen: Screen[Any]) -> None:
        self.push_screen(screen)


def run(theme: str | None = None) -> int:
    """Open the app; returns the process exit status."""
    ColdwaterApp(theme=theme).run()
    return 0
