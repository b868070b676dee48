"""Coldwater Crown's small names, shared by its words, its log and its board: bait letters,
trophies as the table and the log name them, fish and Master Angler cards by their content's names.

Pure (no Textual), like the words (words.py) that use them.
"""

from __future__ import annotations

from collections.abc import Sequence

from coldwater.core.crown.content import Tables

BAIT_LETTERS: tuple[str, ...] = ("B", "R", "P", "K", "G", "Y", "W")
"""One letter per bait colour (K is black, as in printing); W the clear-white bait."""

TROPHY_NAMES: dict[str, str] = {
    "first_to_12": "First to 12 Fish",
    "mystery_weight": "Mystery Weight",
    "three_same": "Three Same",
    "four_different": "Four Different",
    "small_species": "Small Species",
    "fastest_to_8": "Fastest to 8 Species",
    "shore": "Shore contest",
    "lake": "Lake contest",
    "river": "River contest",
}
TROPHY_SHORT: dict[str, str] = {
    "first_to_12": "12 Fish",
    "mystery_weight": "Mystery",
    "three_same": "3 Same",
    "four_different": "4 Diff",
    "small_species": "Small",
    "fastest_to_8": "8 Species",
    "shore": "Shore",
    "lake": "Lake",
    "river": "River",
}
STACKS_SHOWN: tuple[str, ...] = (
    "first_to_12",
    "fastest_to_8",
    "small_species",
    "three_same",
    "four_different",
    "shore",
    "lake",
    "river",
)
"""Trophy stacks in the order the board lists them (the Mystery Weight tile is shown apart)."""


def fish_name(T: Tables, species: str) -> str:
    return T.fish_name(species)


def ma_name(T: Tables, card: int) -> str:
    key = T.ma_species[card] if 0 < card < len(T.ma_species) else "?"
    return T.ma_species_name.get(key, key.replace("_", " ").title())


def spots_letters(T: Tables, card: int) -> str:
    return " ".join(BAIT_LETTERS[c] for c in T.ma_spots[card])


def names_of(names: Sequence[str], parties: int) -> list[str]:
    """A name per party: the seats' names, then "Silent player" for the Practice Pond rival."""
    out = list(names[:parties])
    while len(out) < parties:
        out.append("Silent player")
    return out


def side_word(side: int) -> str:
    return "a 2" if side == 2 else "a 1"


def clock(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"
