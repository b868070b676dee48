"""Colour themes and stylesheets for the app.

Three themes: ``dark`` (default), ``light`` and ``ansi``. The ANSI theme uses the
terminal's own 16 colours, so it follows whatever palette a person has chosen and
survives any colour depth. The dark and light themes use hex colours chosen to stay
distinct after Textual reduces them to the 256-colour palette (SSH sessions do not
forward COLORTERM, so truecolor is never assumed). Under NO_COLOR the app strips every
colour (``tui/app.py``) but keeps bold, underline and reverse, which then mark what
colour marked; on a terminal of fewer than 256 colours the ANSI theme is used.

Stylesheets are split by concern and listed in :data:`STYLESHEETS` in load order.

Game colours (Crown bait and tags, Fisheries fish) are not left to the theme's
named colours: Textual maps "red" and "magenta" through its own palette, and in
256 colours both became 197. :data:`GAME_STYLES` gives each theme explicit
styles, chosen so that within each group (six bait, five tags, four fish) no two
coincide in truecolor, in the 256-colour palette or in the 16 basic colours
(``tests/tui/test_colours.py`` checks every theme at every depth). The ANSI ones
draw no letter in white, bright green or yellow on the terminal's own background,
which may be white (``tests/tui/test_terminal_colours.py``). Under NO_COLOR
they are told apart by bold, underline and reverse, never by dimness. A widget
asks :func:`game_style` with the app's theme name; the letter (B, R, P, K, G, Y)
is always drawn too, so colour is never the only clue.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from textual.theme import Theme

DARK = Theme(
    name="coldwater-dark",
    primary="#3d8fd1",
    secondary="#2a5f8a",
    accent="#e0a030",
    warning="#e0a030",
    error="#d0506a",
    success="#50b070",
    foreground="#dde4ea",
    background="#0f1a24",
    surface="#16242f",
    panel="#1f3241",
    dark=True,
)

LIGHT = Theme(
    name="coldwater-light",
    primary="#1f5f9a",
    secondary="#3b7bb0",
    accent="#a85a00",
    warning="#a85a00",
    error="#b02040",
    success="#207a40",
    foreground="#101820",
    background="#f2f5f7",
    surface="#e4eaee",
    panel="#d2dde4",
    dark=False,
)

ANSI = Theme(
    name="coldwater-ansi",
    ansi=True,
    primary="ansi_blue",
    secondary="ansi_cyan",
    accent="ansi_yellow",
    warning="ansi_yellow",
    error="ansi_red",
    success="ansi_green",
    foreground="ansi_default",
    background="ansi_default",
    surface="ansi_default",
    panel="ansi_default",
    boost="ansi_default",
    dark=True,
    variables={
        # Textual's own widgets refer to these two under an ANSI theme.
        "ansi-background": "ansi_default",
        "ansi-foreground": "ansi_default",
        "block-cursor-foreground": "ansi_black",
        "block-cursor-background": "ansi_white",
        "block-cursor-text-style": "bold",
        "footer-key-foreground": "ansi_yellow",
        "border-blurred": "ansi_bright_black",
        "input-cursor-background": "ansi_white",
        "input-cursor-foreground": "ansi_black",
        "input-selection-background": "ansi_blue",
    },
)

THEMES: dict[str, Theme] = {"dark": DARK, "light": LIGHT, "ansi": ANSI}
"""Short names a person types (``--theme light``) to the Textual themes."""

STYLESHEETS: tuple[str, ...] = ("base.tcss", "menu.tcss", "forms.tcss", "table.tcss", "crown.tcss", "score.tcss")


BAIT: tuple[str, ...] = ("blue", "red", "purple", "black", "green", "yellow")
"""Crown's six bait colours (``core/crown``), in the engine's order."""
TAGS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue")
"""Crown's fish tag colours."""
FISH: tuple[str, ...] = ("silver", "blue", "black", "red")
"""Fisheries of Gloucester's four fish colours."""

GAME_STYLES: dict[str, dict[str, str]] = {
    "dark": {
        "bait.blue": "bold #3a7bff",
        "bait.red": "bold #ff2a2a",
        "bait.purple": "bold #b45cff",
        "bait.black": "bold #101010 on #a8a8a8",
        "bait.green": "bold #2ecc40",
        "bait.yellow": "bold #ffe020",
        "bait.white": "bold #ffffff",
        "tag.red": "bold #e00000",
        "tag.orange": "bold #d75f00",
        "tag.yellow": "bold #ffd700",
        "tag.green": "bold #2ecc40",
        "tag.blue": "bold #3a7bff",
        "fish.silver": "bold #000000 on #c8c8c8",
        "fish.blue": "bold #ffffff on #1a40c0",
        "fish.black": "bold #ffffff on #404040",
        "fish.red": "bold #ffffff on #cc0000",
    },
    "light": {
        "bait.blue": "bold #1a40c0",
        "bait.red": "bold #cc0000",
        "bait.purple": "bold #8000c0",
        "bait.black": "bold #000000",
        "bait.green": "bold #008000",
        "bait.yellow": "bold #000000 on #ffd700",
        "bait.white": "bold #ffffff on #606060",
        "tag.red": "bold #cc0000",
        "tag.orange": "bold #c06000",
        "tag.yellow": "bold #000000 on #ffd700",
        "tag.green": "bold #008000",
        "tag.blue": "bold #1a40c0",
        "fish.silver": "bold #000000 on #c0c0c0",
        "fish.blue": "bold #ffffff on #1a40c0",
        "fish.black": "bold #ffffff on #000000",
        "fish.red": "bold #ffffff on #cc0000",
    },
    "ansi": {
        "bait.blue": "bold bright_blue",
        "bait.red": "bold bright_red",
        "bait.purple": "bold bright_magenta",
        "bait.black": "bold black on white",
        "bait.green": "bold green",
        "bait.yellow": "bold black on bright_yellow",
        "bait.white": "bold reverse",
        "tag.red": "bold red",
        "tag.orange": "bold black on yellow",
        "tag.yellow": "bold black on bright_yellow",
        "tag.green": "bold green",
        "tag.blue": "bold bright_blue",
        "fish.silver": "bold black on white",
        "fish.blue": "bold bright_white on blue",
        "fish.black": "bold bright_white on bright_black",
        "fish.red": "bold bright_white on red",
    },
    "no_color": {
        "bait.blue": "bold",
        "bait.red": "underline",
        "bait.purple": "reverse",
        "bait.black": "bold reverse",
        "bait.green": "bold underline",
        "bait.yellow": "underline reverse",
        "bait.white": "bold underline reverse",
        "tag.red": "bold",
        "tag.orange": "underline",
        "tag.yellow": "reverse",
        "tag.green": "bold underline",
        "tag.blue": "bold reverse",
        "fish.silver": "bold",
        "fish.blue": "underline",
        "fish.black": "reverse",
        "fish.red": "bold underline",
    },
}
"""Theme short name (and ``no_color``) -> role (``bait.red``, ``tag.orange``, ``fish.silver``) -> Rich style."""


def game_palette(theme: str, *, no_color: bool = False) -> dict[str, str]:
    """The game colour styles for a theme (its short or Textual name)."""
    if no_color:
        return GAME_STYLES["no_color"]
    short = next((k for k, t in THEMES.items() if theme in (k, t.name)), "dark")
    return GAME_STYLES[short]


def game_style(theme: str, role: str, *, no_color: bool = False) -> str:
    """One game colour's style, e.g. ``game_style(app.theme, "bait.red", no_color=app.no_color)``;
    an unknown role gives plain bold, never nothing."""
    return game_palette(theme, no_color=no_color).get(role, "bold")


def stylesheet_paths() -> list[Path]:
    """Absolute paths of the stylesheets, in load order."""
    root = resources.files(__name__)
    return [Path(str(root.joinpath(name))) for name in STYLESHEETS]


def resolve(name: str | None, *, no_color: bool = False, low_colour: bool = False) -> str:
    """The Textual theme name for a short name; unknown names fall back to dark.

    No name under NO_COLOR, or any name on a terminal of fewer than 256 colours, gives
    the ANSI theme: the hex themes reduced to 16 colours lose their contrast (muted
    text came out grey on grey), while the ANSI one is drawn in the terminal's own."""
    if low_colour or (no_color and name is None):
        return ANSI.name
    return THEMES.get(name or "dark", DARK).name
