"""What makes a private deal fast must not make it weaker: a strip checked as it arrives is not checked
again, but a wrong one is still refused when the round is taken, naming its seat; the collector is frozen
only while a game is played (docs/fairplay.md, "A deal's latency on veth")."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest

from coldwater.core import games
from coldwater.net.fairdeal import FairDealError, Point, Strip
from coldwater.net.fairdeal import seat as seat_mod
from coldwater.net.fairdeal.mapping import FromDeck
from coldwater.net.identity import Identity
from coldwater.net.session import TableHost, TablePeer, bot_chooser
from tests.net.fairdeal.localtable import LocalTable

CROWN = games.get("crown")


def _at_private_deal() -> tuple[LocalTable, int]:
    """A 4-seat Crown table played up to its first deal opened to one seat, and that seat."""
    t = LocalTable(CROWN, 4, bytes(range(32)))
    t.setup()
    while True:
        node = t.seats[0].node()
        if isinstance(node, FromDeck) and any(to >= 0 for to in node.opens):
            return t, next(to for to in node.opens if to >= 0)
        assert t.ply(), "the game ended before any private deal"


def test_a_strip_checked_as_it_arrives_is_not_checked_again_and_a_wrong_one_still_names_its_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t, to = _at_private_deal()
    taker = t.seats[to]
    good = [st for s in t.seats if s.own_seat != to for st in s.deal_strips()]
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


def test_a_strip_checked_early_is_remembered_for_its_ciphertext_only() -> None:
    t, to = _at_private_deal()
    taker = t.seats[to]
    good = [st for s in t.seats if s.own_seat != to for st in s.deal_strips()]
    taker.check_strips(good)
    assert len(taker._checked) == 3
    assert {k[4] for k in taker._checked} == {taker.decks[good[0].deck].ct(good[0].position, good[0].part).c1}


async def test_the_collector_is_frozen_while_a_fair_game_is_played_and_thawed_after() -> None:
    host = TableHost(
        CROWN,
        Identity.generate(),
        name="gc",
        seats=["host", "open"],
        bind="127.0.0.1",
        chooser=bot_chooser(CROWN),
        dealer="fair",
        watchers=0,
    )
    port = await host.listen()
    peer = TablePeer(CROWN, Identity.generate(), name="p", bind="127.0.0.1", chooser=bot_chooser(CROWN))
    frozen: list[int] = []
    orig = host.fair_host.stepped

    def stepped() -> None:
        # gc.get_freeze_count() walks the whole frozen heap (24 ms in a full xdist worker): look at a few plies.
        if len(frozen) < 5:
            frozen.append(gc.get_freeze_count())
        orig()

    host.fair_host.stepped = stepped  # type: ignore[method-assign]
    task = asyncio.ensure_future(host.run())
    await peer.join("127.0.0.1", port)
    await asyncio.wait_for(asyncio.gather(task, peer.run()), 240)
    assert host.result is not None and host.result.audit_ok, host.result
    assert frozen and min(frozen) > 0
    assert gc.get_freeze_count() == 0
