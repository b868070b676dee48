"""Hash-chain beacons: chains, link checks, outcome derivation, which draws are public."""

from __future__ import annotations

import hashlib

import pytest

from coldwater.core import games
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE
from coldwater.net import beacon
from coldwater.net import fairplay as fp

from ..toygame import GAME, Deal, Die, Roll


def _naive(seat: int, end: bytes, length: int) -> list[bytes]:
    """x[0..length] by hashing down from the end value, the definition itself."""
    xs = [end]
    for i in range(length, 0, -1):
        h = hashlib.sha256(b"cw-chain1\x00" + seat.to_bytes(2, "big", signed=True) + i.to_bytes(4, "big") + xs[-1])
        xs.append(h.digest()[: beacon.LINK_BYTES])
    return xs[::-1]


def test_chain_links_are_the_definition_whatever_the_order_asked() -> None:
    c = beacon.Chain(2, b"e" * 16, length=300)
    xs = _naive(2, b"e" * 16, 300)
    assert c.tip == xs[0]
    for i in (1, 2, 127, 128, 129, 256, 300, 5, 299):  # forward, across checkpoints, and back
        assert c.link(i) == xs[i]
    with pytest.raises(ValueError):
        c.link(301)
    with pytest.raises(ValueError):
        c.link(0)
    # The default chain: its checkpoints are few (memory), every link checks onto the tip.
    d = beacon.Chain(0)
    assert len(d._marks) <= beacon.CHAIN_LENGTH // beacon.STRIDE + 1
    assert beacon.check_link(0, 1000, d.link(1000), 0, d.tip)


def test_the_book_takes_each_seats_next_link_and_refuses_the_rest() -> None:
    a, b = beacon.Chain(0, length=64), beacon.Chain(1, length=64)
    book = beacon.Book({0: a.tip, 1: b.tip})
    assert book.check(3, {0: a.link(4), 1: b.link(4)}) is None
    book.accept(3, {0: a.link(4), 1: b.link(4)})
    # Skipped plies are hashed across; a seat that sat out a draw comes back.
    book.accept(9, {0: a.link(10)})
    assert book.why_not(1, 12, b.link(13)) is None
    # Wrong bytes, a replayed link, the other seat's link, a passed ply, a stranger.
    assert "does not hash onto" in (book.why_not(0, 12, b"\x00" * 16) or "")
    assert "replayed its link of ply 9" in (book.why_not(0, 12, a.link(10)) or "")
    assert "does not hash onto" in (book.why_not(1, 12, a.link(13)) or "")
    assert "already passed" in (book.why_not(0, 5, a.link(6)) or "")
    assert "no committed chain" in (book.why_not(7, 12, a.link(13)) or "")
    assert book.check(12, {}) is not None  # a draw with no link is the host's alone
    with pytest.raises(beacon.BeaconError) as e:
        book.accept(12, {0: a.link(13), 1: b"\x01" * 16})
    assert e.value.seat == 1 and book.last[0][0] == 10  # nothing recorded from a bad draw


def test_a_draw_needs_every_link_and_depends_on_each() -> None:
    s = GAME.new(2, seed="x")
    s.apply(Deal(0, 1))
    s.apply(Deal(1, 2))
    s.apply(Roll())
    joint = b"j" * 32
    links = {0: b"a" * 16, 1: b"b" * 16}
    key = beacon.draw_key(joint, s.ply, links)
    assert beacon.draw(s, joint, links) == s.sample_chance(Rng(key))
    assert beacon.draw_key(joint, s.ply, dict(reversed(links.items()))) == key  # sorted by seat
    faces = {beacon.draw(s, joint, {0: b"a" * 16, 1: bytes([i]) * 16}) for i in range(40)}
    assert len(faces) > 1  # seat 2's link alone changes the outcome
    assert beacon.draw_key(joint, s.ply + 1, links) != key and beacon.draw_key(b"k" * 32, s.ply, links) != key
    # A peer draws from its own view: the same outcome as the host from the full state.
    assert beacon.draw(s.view(1), joint, links) == beacon.draw(s, joint, links)


def test_sealed_deals_stay_with_the_dealer_and_dice_are_public() -> None:
    s = GAME.new(2, seed=1)
    assert not beacon.is_public_draw(s)  # a secret card: sealed
    assert beacon.link_due(s.view(1))  # the peer cannot tell, so it sends its link anyway
    s.apply(Deal(0, 2))
    s.apply(Deal(1, 3))
    assert not beacon.is_public_draw(s) and not beacon.link_due(s.view(0))  # a seat's turn
    s.apply(Roll())
    assert beacon.is_public_draw(s) and fp.classify(s, Die(3)) == fp.Classified(False)


@pytest.mark.parametrize("name", ["fisheries", "crown"])
def test_public_draws_match_classify_in_real_games(name: str) -> None:
    game = games.get(name)
    s = game.new(2, seed=3)
    rng = Rng(3)
    public = dealer = 0
    while s.current is not None and s.ply < 300:
        if s.current == CHANCE:
            outs = [o for o, _ in s.chance_outcomes()]
            if beacon.is_public_draw(s):
                public += 1
                assert not any(fp.classify(s, o).sealed for o in outs)
                assert beacon.link_due(s.view(0)) and beacon.link_due(s.view(1))
            else:
                dealer += 1
            s.apply(s.sample_chance(rng.fork(s.ply)))
        else:
            legal = s.legal()
            s.apply(legal[rng.fork(s.ply).below(len(legal))])
    assert public > 10
    if not fp.has_sealed_values(game):
        assert dealer == 0  # Fisheries: every draw is public, so no dealer secret is ever needed


@pytest.mark.parametrize("name", ["crown", "aquatica", "fisheries"])
def test_the_beacon_draws_exactly_what_the_deal_mapping_calls_beacon_draws(name: str) -> None:
    """The seam with the private-deal dealer: every chance node is the beacon's or a deck's, never both."""
    from coldwater.net.fairdeal import mapping

    game = games.get(name)
    s = game.new(2, seed=7)
    rng = Rng(7)
    seen = 0
    while s.current is not None and s.ply < 400:
        if s.current == CHANCE:
            # The beacon decides by the mapping; the mapping's beacon draws are exactly those that hide nothing.
            is_beacon = isinstance(mapping.plan(name, s), mapping.Beacon)
            assert beacon.is_public_draw(s) == is_beacon == beacon.hides_nothing(s), s.ply
            # Every seat's view says the same, so a link is sent exactly at a beacon draw.
            assert all(beacon.link_due(s.view(seat)) == is_beacon for seat in range(2)), s.ply
            seen += 1
            s.apply(s.sample_chance(rng.fork(s.ply)))
        else:
            legal = s.legal()
            s.apply(legal[rng.fork(s.ply).below(len(legal))])
    assert seen > 10
