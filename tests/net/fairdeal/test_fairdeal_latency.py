"""What makes a private deal fast must not make it weaker: a strip checked as it arrives is not checked
again, but a wrong one is still refused when the round is taken, naming its seat; the collector is frozen
only while a game is played (docs/fairplay.md, "A deal's latency on veth")."""

from __future__ import annotations

import gc
from typing import Any

import msgspec
import pytest

from coldwater.core import games
from coldwater.net.fairdeal import FairDealError, Point, Strip
from coldwater.net.fairdeal import seat as seat_mod
from coldwater.net.fairdeal.mapping import FromDeck
from coldwater.net.fairdeal.save import FairSave
from coldwater.net.fairdeal.seat import FairSeat
from coldwater.net.session.fairtable import FairDriver
from tests.net.session.fairgame import FairGame, play_fair

CROWN = games.get("crown")


def _private(fs: FairSeat) -> int | None:
    """The seat the deal `fs` is at opens a card to, if it is one (else None)."""
    node = fs.node()
    if isinstance(node, FromDeck) and any(to >= 0 for to in node.opens):
        return next(to for to in node.opens if to >= 0)
    return None


async def _at_private_deal() -> tuple[list[FairSeat], int]:
    """Copies of every seat of a 4-seat Crown table (the real host and seats over memlink) at its first
    deal opened to one seat, and that seat."""
    got: dict[int, FairSeat] = {}

    def look(g: FairGame, drv: FairDriver) -> None:
        fs = drv.fs
        if fs.seat is not None and fs.seat not in got and _private(fs) is not None:
            data = msgspec.msgpack.encode(fs.save())
            got[fs.seat] = FairSeat.restore(CROWN, msgspec.msgpack.decode(data, type=FairSave))
            if len(got) == 4:
                g.stop()

    await play_fair(CROWN, 4, looker=look)
    assert sorted(got) == [0, 1, 2, 3], "the game ended before any private deal"
    seats = [got[s] for s in range(4)]
    assert len({s.view.ply for s in seats}) == 1, "every copy at the same deal"
    to = _private(seats[0])
    assert to is not None
    return seats, to


async def test_a_strip_checked_as_it_arrives_is_not_checked_again_and_a_wrong_one_still_names_its_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seats, to = await _at_private_deal()
    taker = seats[to]
    good = [st for s in seats if s.own_seat != to for st in s.deal_strips()]
    assert len(good) == 3
    first = good[0]
    share = (Point(first.share) + Point.BASE).raw
    wrong = Strip(first.deck, first.position, first.part, first.seat, share, first.proof)
    calls: list[int] = []
    honest = seat_mod.check_strip

    def counted(*a: Any) -> Point:
        calls.append(a[-1].seat)
        return honest(*a)

    monkeypatch.setattr(seat_mod, "check_strip", counted)
    with pytest.raises(FairDealError, match="is wrong") as e:
        taker.check_strips([wrong])
    assert e.value.culprits == (first.seat,)
    taker.check_strips(good[1:])  # the two others, as they arrive
    assert len(calls) == 3
    # The wrong one was not remembered as checked: taking the round checks it, and names its seat.
    with pytest.raises(FairDealError, match=f"seat {first.seat + 1}'s strip .* is wrong") as e:
        taker.take_deal([wrong, *good[1:]])
    assert e.value.culprits == (first.seat,)
    assert calls[3:] == [first.seat]
    ply = taker.view.ply
    taker.take_deal(good)  # the round is taken whole: only the strip not checked early is checked now
    assert calls[4:] == [first.seat]
    assert taker.view.ply == ply + 1 and not taker._checked


async def test_a_strip_checked_early_is_remembered_for_its_ciphertext_only() -> None:
    seats, to = await _at_private_deal()
    taker = seats[to]
    good = [st for s in seats if s.own_seat != to for st in s.deal_strips()]
    taker.check_strips(good)
    assert len(taker._checked) == 3
    assert {k[4] for k in taker._checked} == {taker.decks[good[0].deck].ct(good[0].position, good[0].part).c1}


async def test_the_collector_is_frozen_while_a_fair_game_is_played_and_thawed_after() -> None:
    frozen: list[int] = []

    def count(g: FairGame) -> None:
        orig = g.host.fair_host.stepped

        def stepped() -> None:
            # gc.get_freeze_count() walks the whole frozen heap (24 ms in a full xdist worker): look at a few plies.
            if len(frozen) < 5:
                frozen.append(gc.get_freeze_count())
            orig()

        g.host.fair_host.stepped = stepped  # type: ignore[method-assign]

    g = await play_fair(CROWN, 2, prepare=count)  # (no looker: a driver with one never freezes)
    assert g.host.result is not None and g.host.result.audit_ok, g.host.result
    assert frozen and min(frozen) > 0
    assert gc.get_freeze_count() == 0
