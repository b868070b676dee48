"""What the Crown widgets need from the engine, gathered in one adapter.

The engine's position Struct (``core/crown/model.py``) holds indices; its content
tables turn card ids into species, weights, tags and spots. This module is the
only place the UI reaches into those, so an engine change lands here once.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

COLOURS: tuple[str, ...] = ("blue", "red", "purple", "black", "green", "yellow")
BAIT_LETTERS: tuple[str, ...] = ("B", "R", "P", "K", "G", "Y", "W")
# Rich's 16 basic colour names: they follow the terminal palette in the ANSI theme
# and stay distinct when reduced to 256 colours.
BAIT_STYLES: tuple[str, ...] = ("bold bright_blue", "bold red", "bold magenta", "bold bright_black",
                                "bold green", "bold yellow", "bold white")
LOCATION_TITLES: tuple[str, ...] = ("Shore", "River", "Lake")
SPACES: tuple[str, ...] = ("port", "purple", "green", "blue", "red", "yellow", "black")
SPACE_COLOUR: tuple[int, ...] = (-1, 2, 4, 0, 1, 5, 3)
TAG_STYLES: dict[str, str] = {"red": "red", "orange": "bright_red", "yellow": "yellow", "green": "green",
                              "blue": "bright_blue"}
TROPHY_SHORT: dict[str, str] = {
    "first_to_12": "12 Fish", "mystery_weight": "Mystery", "three_same": "3 Same",
    "four_different": "4 Diff", "small_species": "Small", "fastest_to_8": "8 Species",
    "shore": "Shore", "lake": "Lake", "river": "River",
}


def tables_of(game: Any) -> Any:
    """The engine's content tables (weights, tags, spots) for `game`."""
    for name in ("tables", "content", "_tables"):
        t = getattr(game, name, None)
        if t is not None and hasattr(t, "weight"):
            return t
    from coldwater.core.crown.content import load_default

    return load_default()


def colour_index(colour: str | int) -> int:
    if isinstance(colour, int):
        return colour
    return COLOURS.index(colour) if colour in COLOURS else 6


def bait(colour: str | int, text: str | None = None) -> Text:
    i = colour_index(colour)
    return Text(text if text is not None else BAIT_LETTERS[i], style=BAIT_STYLES[i])


def colour_word(colour: str | int) -> Text:
    i = colour_index(colour)
    name = COLOURS[i] if i < 6 else "white"
    return Text(name, style=BAIT_STYLES[i])


def zone_bait(counts: list[int]) -> Text:
    """One Zone's bait as coloured letters (``RRB``), or a dash when empty."""
    out = Text()
    for colour, n in enumerate(counts):
        if n:
            out.append_text(bait(colour, BAIT_LETTERS[colour] * n))
    if not out.plain:
        out.append("—", style="dim")
    return out


def fish_name(tables: Any, species: str) -> str:
    try:
        return str(tables.fish_name(species))
    except Exception:  # an unknown species still gets a readable name
        return species.replace("_", " ").title()


def ma_name(tables: Any, card: int) -> str:
    key = tables.ma_species[card]
    return str(tables.ma_species_name.get(key, key.replace("_", " ").title()))


def clock(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


def fish_secret(tables: Any, card: int) -> tuple[int, str, str]:
    """(weight, tag colour, timestamp) printed on the back of fish `card`."""
    return tables.weight[card], tables.tag[card], clock(tables.time[card])
