"""Building positions for rule tests: play setup by chance, then edit the Struct."""

from __future__ import annotations

from typing import Any

from coldwater.core.fisheries.game import GAME
from coldwater.core.fisheries.state import FisheriesState
from coldwater.core.state import CHANCE

G = GAME
CTX = GAME.ctx


def cell(name: str) -> int:
    return CTX.by_name[name]


def settle(s: FisheriesState) -> FisheriesState:
    """Resolve chance outcomes from the seed until a player must decide."""
    while s.current == CHANCE:
        s.apply(s.sample_chance())
    return s


def day_one(seed: Any = 0, **options: Any) -> FisheriesState:
    return settle(G.new(2, seed=seed, options=options or None))


def rebuild(s: FisheriesState) -> FisheriesState:
    """A fresh State over the (edited) data, so no cached legal list survives."""
    return G.state_type(s.data, seed=s.seed, ply=s.ply)


def scenario(
    *,
    turn: int = 0,
    ships: tuple[list[str], list[str]] | None = None,
    fish: dict[str, str] | None = None,
    tiles: list[str] = (),
    time: tuple[int, int] = (6, 7),
    supply: dict[str, int] | None = None,
    clear_fish: bool = False,
    seed: Any = 0,
) -> FisheriesState:
    """A day-1 position edited to match a worked example.

    `tiles` lists single squares to cover (as if charted earlier); `fish` puts
    fish of given colours on squares (removing whatever fish was there);
    `clear_fish` empties the board of fish first.
    """
    s = day_one(seed)
    d = s.data
    d.turn = turn
    d.phase = "turn"
    if clear_fish:
        d.fish = [""] * CTX.n
    if ships is not None:
        d.ships = [[cell(c) for c in ships[0]], [cell(c) for c in ships[1]]]
    for c in tiles:
        d.fish[cell(c)] = ""
        d.cover[cell(c)] = True
    for c, colour in (fish or {}).items():
        d.fish[cell(c)] = colour
    d.time = list(time)
    if supply is not None:
        d.supply[turn] = [supply.get(sh, 0) for sh in CTX.shapes]
    return rebuild(s)


def play(s: FisheriesState, *texts: str) -> FisheriesState:
    for t in texts:
        s.apply(G.parse_action(t))
        settle(s)
    return s
