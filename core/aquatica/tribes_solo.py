"""Tribes Solo, levels 1 to 6, exactly as the Cold Waters rulebook writes them.

Setup: 4 random Locations of each type (20), the ○ Character deck (15), the
Tribes setup. Goal: recruit every Tribe before the game ends (no rival).

1 Little Mermaid: when recruiting a Tribe, place a Trained Manta or flip the
  card (a flipped Tribe gives no bonus); it still takes the Main Action.
2 Mr. Sponge: level 1 with 6 type I and 2 type II Tribes.
3 Aquaman Wannabe: level 1, but a Manta must be placed, Trained or Wild; no
  flipping. The Location deck needs at least 6 Wild Mantas, else it is re-dealt.
4 Aquaman: level 3, and a Scoring-Pile Location pays only 1.
5 The Sea Baron: level 3, and no Scoring-Pile Locations may be discarded.
6 Poseidon's Son: level 5 with 2 type I and 6 type II Tribes; count PP.

The level rules themselves live where they act: ``tribes.place_options``
(flip/Wild), ``payment.spend_value``/``can_spend`` (levels 4, 5), ``setup``.
"""

from __future__ import annotations

from .content import Deck
from .model import AqData

LEVELS: dict[int, str] = {
    1: "Little Mermaid",
    2: "Mr. Sponge",
    3: "Aquaman Wannabe",
    4: "Aquaman",
    5: "The Sea Baron",
    6: "Poseidon's Son",
}
MIN_WILD = 6


def tribe_split(level: int) -> tuple[int, int]:
    """How many type I and type II Tribes go on the board."""
    return {2: (6, 2), 6: (2, 6)}.get(level, (4, 4))


def deck_ok(d: AqData, k: Deck) -> bool:
    """Level 3+: the 20-card Location deck must show at least 6 Wild Mantas."""
    return d.solo_level < 3 or sum(1 for x in d.loc_deck if k.loc_manta[x]) >= MIN_WILD


def all_recruited(d: AqData) -> bool:
    return all(t in d.ps[0].tribes for t in d.tribes)
