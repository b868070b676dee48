"""Fisheries of Gloucester's own checks for the generic contract test (tests/core/test_contract.py).

Nothing is hidden in this game, so `secrets` checks that the view is the whole position.
"""

from __future__ import annotations

from typing import Any

from coldwater.core.fisheries.model import Data

from .helpers import CTX

CASES: list[tuple[int, dict[str, Any] | None]] = [
    (2, None),
    (2, {"board": "B"}),
    (2, {"market": True}),
    (2, {"board": "B", "market": True}),
]


def conservation(d: Data) -> None:
    """Every fish, tile, preservation card and ship is somewhere, once; counters stay in range."""
    c = CTX.content
    if d.phase not in ("setup", "place", "stock"):
        on_board = sum(1 for f in d.fish if f)
        assert on_board + sum(map(sum, d.catch)) + sum(d.spent) == CTX.total_fish
        per = [0] * len(CTX.colours)
        for f in d.fish:
            if f:
                per[CTX.colour_index[f]] += 1
        for k in range(len(CTX.colours)):
            assert per[k] + d.catch[0][k] + d.catch[1][k] + d.spent[k] == c.fish_per_colour
    tiles = sum(d.general) + sum(map(sum, d.supply)) + len(d.placed)
    assert tiles == CTX.total_tiles
    for k, shape in enumerate(CTX.shapes):
        n = d.general[k] + d.supply[0][k] + d.supply[1][k] + sum(1 for p in d.placed if p.shape == shape)
        assert n == c.shapes[k].count
    covered = [x for p in d.placed for x in p.cells]
    assert len(covered) == len(set(covered)) == sum(d.cover)
    cards = [x for st in d.stacks for x in ([st.top] if st.top else []) + st.rest]
    cards += [x for x in d.row if x] + d.pile + d.earned[0] + d.earned[1]
    assert sorted(cards) == sorted(CTX.cards)
    if d.phase != "setup":
        ships = d.ships[0] + d.ships[1]
        assert len(ships) == 2 * c.ships_per_player and len(set(ships)) == len(ships) and min(ships) >= 0
    assert all(0 <= h <= c.lobsters_per_player for h in d.lobster)
    assert all(0 <= t <= c.time_max for t in d.time)
    assert all(v >= 0 for v in d.general + d.supply[0] + d.supply[1] + d.catch[0] + d.catch[1])


def transition(before: Data, after: Data) -> None:
    """Across one action: a discarded lobster never returns."""
    assert all(a <= b for a, b in zip(after.lobster, before.lobster))


def secrets(s: Any, v: Any, seat: int | None) -> None:
    assert v.encode() == s.encode()  # nothing is hidden in this game
