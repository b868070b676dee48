"""Games played in-process the way an honest host deals them: public draws from the seats'
hash-chain beacons, every other draw from the committed dealer (for the fair-play unit tests)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from coldwater.core.state import CHANCE
from coldwater.net import beacon
from coldwater.net import fairplay as fp
from coldwater.net import messages as m


def chains(seats: list[int]) -> dict[int, beacon.Chain]:
    return {s: beacon.Chain(s, length=512) for s in seats}


def reveals(chs: dict[int, beacon.Chain]) -> dict[int, bytes]:
    """Seed reveals carrying each chain's tip, as the seed round makes them."""
    return {s: fp.contribution(bytes([s % 256]) * 32, c.tip) for s, c in chs.items()}


def play(
    game: Any,
    players: int,
    dealer: fp.CommittedDealer,
    chs: dict[int, beacon.Chain],
    *,
    until: int | None = None,
    choose: Callable[[Any], Any] | None = None,
) -> tuple[list[m.Step], Any, bytes]:
    """Steps (as a host sends them), the final full state and the joint seed."""
    joint = fp.joint_seed(reveals(chs))
    dealer.start(joint)
    s = game.new(players, seed=fp.game_seed(joint))
    steps: list[m.Step] = []
    while s.current is not None and (until is None or s.ply < until):
        cur = s.current
        if cur == CHANCE and beacon.is_public_draw(s):
            links = {seat: c.link(beacon.index_of(s.ply)) for seat, c in chs.items()}
            a = beacon.draw(s, joint, links)
            s.apply(a)
            steps.append(m.Step(ply=s.ply, seat=CHANCE, digest=fp.public_digest(s), action=str(a), links=links))
        elif cur == CHANCE:
            d = dealer.draw(s)
            s.apply(d.action)
            steps.append(
                m.Step(
                    ply=s.ply,
                    seat=CHANCE,
                    digest=fp.public_digest(s),
                    action=None if d.sealed else str(d.action),
                    commit=d.commit,
                )
            )
        else:
            a = choose(s) if choose is not None else s.legal()[0]
            s.apply(a)
            steps.append(m.Step(ply=s.ply, seat=cur, digest=fp.public_digest(s), action=str(a)))
    return steps, s, joint
