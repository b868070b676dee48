"""The resync check a peer and a watcher share (net/session/joining.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from coldwater.core import games
from coldwater.net import fairplay as fp
from coldwater.net import messages as m
from coldwater.net.session.joining import SyncRefused, read_sync
from coldwater.net.session.persist import pack_view

CROWN = games.get("crown")


def _public_game(plies: int) -> tuple[list[m.Step], bytes]:
    """`plies` public steps of a seeded Crown game and the packed public view after them."""
    s = CROWN.new(2, seed="joining")
    steps = []
    for ply in range(1, plies + 1):
        a = s.sample_chance() if s.current is not None and s.current < 0 else s.legal()[0]
        seat = s.current if s.current is not None else -1
        s.apply(a)
        steps.append(m.Step(ply=ply, seat=seat, digest=fp.public_digest(s)))
    return steps, pack_view(s.view(None))


def test_a_resync_that_extends_what_we_hold_is_taken() -> None:
    steps, view = _public_game(6)
    got, start = read_sync(CROWN, m.Sync(ply=6, view=view, steps=steps[2:]), held=2)
    assert start == 2 and got.ply == 6
    assert fp.public_digest(got) == steps[-1].digest
    # No steps at all (a bare view) joins anything we hold up to its ply.
    assert read_sync(CROWN, m.Sync(ply=6, view=view), held=6)[1] == 6


@pytest.mark.parametrize(
    ("sync", "held", "why"),
    [
        (lambda steps, view: m.Sync(ply=6, view=b"not zlib", steps=steps), 0, "malformed resync"),
        (lambda steps, view: m.Sync(ply=6, view=view, steps=steps[4:]), 2, "does not join what we hold"),
        (lambda steps, view: m.Sync(ply=6, view=view, steps=steps * 2), 0, "does not join what we hold"),
        (lambda steps, view: m.Sync(ply=6, view=view, steps=steps[:-1]), 1, "does not match its last step"),
    ],
    ids=["malformed", "a gap", "before the start", "wrong last digest"],
)
def test_a_resync_that_does_not_fit_is_refused_with_the_reason(
    sync: Callable[[list[m.Step], bytes], m.Sync], held: int, why: str
) -> None:
    steps, view = _public_game(6)
    with pytest.raises(SyncRefused, match=why):
        read_sync(CROWN, sync(steps, view), held)
