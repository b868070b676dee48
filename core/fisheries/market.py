"""Variant: the preservation market. All cards form one pile; a row of five is face up.

Only the row's cards can be earned. An earned card's slot is refilled at once by
a chance draw from the pile (while it lasts).
"""

from __future__ import annotations

from .actions import Reveal
from .model import Data


def row_outcomes(d: Data) -> list[tuple[Reveal, int]]:
    if d.pile and None in d.row:
        return [(Reveal(c), 1) for c in d.pile]
    return []


def apply_row_reveal(d: Data, card: str) -> None:
    d.pile.remove(card)
    d.row[d.row.index(None)] = card


def take_from_row(d: Data, card: str) -> None:
    d.row[d.row.index(card)] = None
