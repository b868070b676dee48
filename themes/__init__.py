"""Colour themes and stylesheets for the app.

Three themes: ``dark`` (default), ``light`` and ``ansi``. The ANSI theme uses the
terminal's own 16 colours, so it follows whatever palette a person has chosen and
survives any colour depth. The dark and light themes use hex colours chosen to stay
distinct after Textual reduces them to the 256-colour palette (SSH sessions do not
forward COLORTERM, so truecolor is never assumed). NO_COLOR is honoured by Textual
itself (a monochrome filter); we also pick the ANSI theme then, because its colour
names degrade to plain text attributes most gracefully.

Stylesheets are split by concern and listed in :data:`STYLESHEETS` in load order.
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


def stylesheet_paths() -> list[Path]:
    """Absolute paths of the stylesheets, in load order."""
    root = resources.files(__name__)
    return [Path(str(root.joinpath(name))) for name in STYLESHEETS]


def resolve(name: str | None, *, no_color: bool) -> str:
    """The Textual theme name for a short name; unknown names fall back to dark."""
    if no_color and name is None:
        return ANSI.name
    return THEMES.get(name or "dark", DARK).name
