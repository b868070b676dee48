"""Private deals (net/fairdeal): round trips, who can read what, and attacks that name the seat.

No network: every seat's process is simulated by its own :class:`Deck` and key,
and messages go through the wire codec as they would on a LAN.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coldwater.net.fairdeal import (
    Claim,
    Deck,
    DeckAudit,
    DeckSpec,
    FairDealError,
    GroupError,
    Handover,
    KeyReveal,
    KeyShare,
    PassSecrets,
    Point,
    Scalar,
    SeatKey,
    ShuffledDeck,
    Strip,
    TableKeys,
    WireError,
    audit_deck,
    proofs,
    wire,
)
from coldwater.net.fairdeal import deck as fd
from coldwater.net.fairdeal.deck import card_point, partial
from coldwater.net.fairdeal.wire import Ct

JOINT = bytes(range(32))
SPECIES = ("pike", "perch", "roach", "salmon")

Tamper = Callable[[ShuffledDeck, PassSecrets], tuple[ShuffledDeck, PassSecrets]]
"""A dishonest seat's edit of its own pass (the message and the secrets it will reveal)."""

IDENTITY = b"\x01" + bytes(31)
ORDER_2 = bytes.fromhex("ec" + "ff" * 30 + "7f")  # (0, -1): small order
ORDER_4 = bytes(32)  # y = 0: small order
NON_CANONICAL = bytes.fromhex("ed" + "ff" * 30 + "7f")  # y = p: not a canonical encoding


def fish_spec(n: int = 12, deck: str = "crown/fish/lake") -> DeckSpec:
    return DeckSpec(deck, tuple((SPECIES[i % len(SPECIES)], str(i + 1)) for i in range(n)))


@dataclass
class Table:
    """`n` seats that each follow the deck on their own, as separate processes would."""

    keys: dict[int, SeatKey]
    tk: TableKeys
    spec: DeckSpec
    decks: dict[int, Deck]
    secrets: dict[int, PassSecrets]

    def reveals(self) -> dict[int, KeyReveal]:
        return {s: KeyReveal(s, k.secret.raw, (self.secrets[s],)) for s, k in self.keys.items()}

    def strips(self, position: int, part: int, seats: list[int]) -> list[Strip]:
        # Each strip crosses the wire, as it would.
        return [wire.decode(Strip, wire.encode(self.decks[s].strip(s, self.keys[s], position, part))) for s in seats]

    def audit(self, **kw: Any) -> DeckAudit:
        return audit_deck(self.spec, self.tk, self.decks[0].passes, self.reveals(), **kw)


def make_keys(n: int, joint: bytes = JOINT) -> tuple[dict[int, SeatKey], TableKeys]:
    keys = {s: SeatKey() for s in range(n)}
    shares = [wire.decode(KeyShare, wire.encode(k.share(joint, s))) for s, k in keys.items()]
    return keys, TableKeys.from_shares(joint, shares)


def deal_table(n: int, spec: DeckSpec | None = None, tamper: dict[int, Tamper] | None = None) -> Table:
    """Every seat shuffles in turn; `tamper[seat](msg, secrets) -> (msg, secrets)` corrupts that seat's pass."""
    spec = spec or fish_spec()
    keys, tk = make_keys(n)
    decks = {s: Deck(spec, tk) for s in keys}
    secrets: dict[int, PassSecrets] = {}
    for s in keys:
        msg, sec = fd.shuffle_pass(spec.id, s, decks[s].cards, tk.table_key)
        if tamper and s in tamper:
            msg, sec = tamper[s](msg, sec)
        secrets[s] = sec
        data = wire.encode(msg)
        for o in keys:
            decks[o].receive_pass(wire.decode(ShuffledDeck, data))
    return Table(keys, tk, spec, decks, secrets)


# ---- round trips ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_card_opened_to_everyone_is_the_deck_shuffled(n: int) -> None:
    t = deal_table(n)
    seats = list(range(n))
    opened = []
    for pos in range(len(t.spec.cards)):
        card = []
        for part in range(2):
            strips = t.strips(pos, part, seats)
            labels = {t.decks[o].open(pos, part, strips) for o in seats}
            assert len(labels) == 1  # every peer reads the same card
            card.append(labels.pop())
        opened.append(tuple(card))
    assert sorted(opened) == sorted(t.spec.cards)
    report = t.audit(strips=t.decks[0].strips)
    assert report.ok, report.problems
    assert report.cards == opened


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_card_opened_to_one_seat_is_readable_by_that_seat_only(n: int) -> None:
    t = deal_table(n)
    truth = t.audit().cards
    for pos in range(3):
        h = pos % n
        others = [s for s in range(n) if s != h]
        strips = t.strips(pos, 1, others)
        assert t.decks[h].open(pos, 1, strips, own=(h, t.keys[h])) == truth[pos][1]
        ct = t.decks[h].ct(pos, 1)
        m = card_point(t.spec.id, 1, truth[pos][1])
        for o in others:
            # Seat o holds every published strip and its own layer: never the card's point.
            assert partial(t.tk, ct, strips) != m
            assert t.spec.lookup(1, partial(t.tk, ct, strips)) is None
            with pytest.raises(FairDealError) as e:
                t.decks[o].open(pos, 1, [s for s in strips if s.seat != o], own=(o, t.keys[o]))
            assert e.value.culprits == (h,)  # it would need h's layer, which h never sends
        # Any subset of the strips leaves the card hidden too.
        for k in range(len(strips)):
            assert partial(t.tk, ct, strips[:k]) != m


def test_public_part_opens_to_all_while_the_private_part_stays_sealed() -> None:
    t = deal_table(3)
    truth = t.audit().cards
    species = t.decks[2].open(0, 0, t.strips(0, 0, [0, 1, 2]))
    assert species == truth[0][0]
    ct = t.decks[0].ct(0, 1)
    # The species' strips say nothing about the card: its part has its own randomness.
    assert t.spec.lookup(1, partial(t.tk, ct, t.strips(0, 0, [0, 1, 2]))) is None


def test_a_hand_over_opens_a_card_to_a_second_seat_without_opening_it_to_all() -> None:
    t = deal_table(3)
    truth = t.audit().cards
    first = t.strips(0, 1, [1, 2])
    assert t.decks[0].open(0, 1, first, own=(0, t.keys[0])) == truth[0][1]
    h = wire.decode(Handover, wire.encode(t.decks[0].hand_over(0, t.keys[0], 0, 1)))
    for o in (1, 2):
        t.decks[o].receive_handover(h)
    second = t.strips(0, 1, [0, 2])
    assert t.decks[1].open(0, 1, second, own=(1, t.keys[1])) == truth[0][1]
    # Seat 2 now holds every strip ever published for this card: still not the card.
    m = card_point(t.spec.id, 1, truth[0][1])
    new_ct = t.decks[2].ct(0, 1)
    old_ct = t.decks[2].handovers[0][0]
    assert partial(t.tk, new_ct, second) != m
    assert partial(t.tk, old_ct, first) != m
    assert t.audit(handovers=t.decks[2].handovers).ok


def test_a_hand_over_that_changes_the_card_names_its_seat() -> None:
    t = deal_table(3)
    honest = t.decks[0].hand_over(0, t.keys[0], 0, 1)
    other = t.decks[1].ct(1, 1)
    forged = Handover(honest.deck, 0, 1, 0, Ct(honest.ct.c1, other.c2), honest.proof)
    with pytest.raises(FairDealError) as e:
        t.decks[1].receive_handover(forged)
    assert e.value.culprits == (0,)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 3),
    labels=st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=6, unique=True),
    parts=st.integers(1, 2),
)
def test_any_deck_round_trips(n: int, labels: list[str], parts: int) -> None:
    spec = DeckSpec("any", tuple((lab, "x") if parts == 2 else (lab,) for lab in labels))
    t = deal_table(n, spec)
    opened = [
        tuple(t.decks[1].open(pos, p, t.strips(pos, p, list(range(n)))) for p in range(parts))
        for pos in range(len(labels))
    ]
    assert sorted(opened) == sorted(spec.cards)


# ---- attacks, each naming the seat ------------------------------------------------------------------
def test_a_wrong_partial_decryption_fails_its_proof_at_once() -> None:
    t = deal_table(4)
    ct = t.decks[0].ct(0, 1)
    honest = t.strips(0, 1, [1])[0]
    # A layer made with another key, with a proof that is valid for that other key.
    liar = SeatKey()
    lie = fd.strip(t.tk, liar, 1, t.spec.id, 0, 1, ct)
    # And the honest proof with another share.
    swapped = Strip(honest.deck, 0, 1, 1, (Point(ct.c1) * Scalar.random()).raw, honest.proof)
    for bad in (lie, swapped):
        with pytest.raises(FairDealError, match="seat 2's strip .* is wrong") as e:
            t.decks[0].open(0, 1, [*t.strips(0, 1, [2, 3]), bad], own=(0, t.keys[0]))
        assert e.value.culprits == (1,)


@pytest.mark.parametrize("where", ["position", "part", "deck", "table", "seat"])
def test_a_strip_replayed_elsewhere_is_refused(where: str) -> None:
    t = deal_table(3)
    s = t.strips(0, 1, [1])[0]
    ct = t.decks[0].ct(0, 1)
    deck, pos, part, tk = t.spec.id, 0, 1, t.tk
    if where == "position":  # position 0's strip offered for position 1 (whose ciphertext differs)
        pos = 1
        ct = t.decks[0].ct(1, 1)
    elif where == "part":  # the card part's strip offered for the species part
        part = 0
        ct = t.decks[0].ct(0, 0)
    elif where == "deck":  # the very same ciphertext, but in another deck
        deck = "crown/fish/river"
    elif where == "table":  # the same keys and ciphertext at another table (joint seed)
        tk = TableKeys(b"another table".ljust(32, b"\x00"), t.tk.keys, t.tk.table_key)
    bad = Strip(deck, pos, part, 2 if where == "seat" else 1, s.share, s.proof)
    with pytest.raises(FairDealError, match="proof does not check") as e:
        fd.check_strip(tk, deck, pos, part, ct, bad)
    assert e.value.culprits == (bad.seat,)
    assert fd.check_strip(t.tk, t.spec.id, 0, 1, t.decks[0].ct(0, 1), s) == Point(s.share)  # the original checks


def _duplicate(msg: ShuffledDeck, sec: PassSecrets) -> tuple[ShuffledDeck, PassSecrets]:
    cards = list(msg.cards)
    cards[0] = cards[1]
    return ShuffledDeck(msg.deck, msg.seat, tuple(cards)), sec


def _swap_secretly(msg: ShuffledDeck, sec: PassSecrets) -> tuple[ShuffledDeck, PassSecrets]:
    cards = list(msg.cards)
    cards[0], cards[1] = cards[1], cards[0]  # a real permutation, but not the one it will reveal
    return ShuffledDeck(msg.deck, msg.seat, tuple(cards)), sec


def _repair(msg: ShuffledDeck, sec: PassSecrets) -> tuple[ShuffledDeck, PassSecrets]:
    cards = list(msg.cards)  # one fish's species with another fish's card
    cards[0], cards[1] = (cards[0][0], cards[1][1]), (cards[1][0], cards[0][1])
    return ShuffledDeck(msg.deck, msg.seat, tuple(cards)), sec


def _insert(msg: ShuffledDeck, sec: PassSecrets) -> tuple[ShuffledDeck, PassSecrets]:
    # Encrypt a card of its choosing under the table key (which is public).
    x = Point(msg.cards[0][0].c2)  # any valid point stands for "the table key" here
    cards = list(msg.cards)
    r = Scalar.random()
    cards[2] = tuple(Ct((Point.BASE * r).raw, (card_point("crown/fish/lake", p, "pike") + x * r).raw) for p in (0, 1))
    return ShuffledDeck(msg.deck, msg.seat, tuple(cards)), sec


@pytest.mark.parametrize("tamper", [_duplicate, _swap_secretly, _repair, _insert])
@pytest.mark.parametrize("culprit", [0, 2])
def test_a_card_swapped_or_duplicated_in_a_shuffle_is_caught_at_the_end(tamper: Tamper, culprit: int) -> None:
    t = deal_table(4, tamper={culprit: tamper})
    report = t.audit()
    assert not report.ok
    assert report.culprits == [culprit], report.problems
    assert f"seat {culprit + 1}" in report.problems[0]


def test_a_lie_about_a_dealt_card_or_a_key_is_named_at_the_end() -> None:
    t = deal_table(3)
    truth = t.audit().cards
    wrong = next(c for c in t.spec.cards if c != truth[4])[1]
    claims = [Claim(1, t.spec.id, 4, 1, truth[4][1]), Claim(2, t.spec.id, 4, 1, wrong)]
    report = t.audit(claims=claims)
    assert report.culprits == [2]
    reveals = t.reveals()
    reveals[1] = KeyReveal(1, Scalar.random().raw, reveals[1].passes)
    report = audit_deck(t.spec, t.tk, t.decks[0].passes, reveals)
    assert report.culprits == [1] and "not the one it announced" in report.problems[0]
    del reveals[1]
    assert audit_deck(t.spec, t.tk, t.decks[0].passes, reveals).culprits == [1]


def test_a_withheld_strip_names_the_seat_that_withholds() -> None:
    t = deal_table(4)
    with pytest.raises(FairDealError, match="no strip yet from seat") as e:
        t.decks[0].open(3, 0, t.strips(3, 0, [0, 1, 3]))
    assert e.value.culprits == (2,)


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        (IDENTITY, "identity"),
        (ORDER_2, "small order"),
        (ORDER_4, "small order"),
        (NON_CANONICAL, "not a valid point"),
    ],
)
def test_malformed_or_identity_points_are_refused_naming_the_sender(bad: bytes, why: str) -> None:
    with pytest.raises(GroupError, match=why):
        Point.decode(bad)
    keys, tk = make_keys(3)
    spec = fish_spec(4)
    deck = Deck(spec, tk)
    msg, _ = fd.shuffle_pass(spec.id, 0, deck.cards, tk.table_key)
    cards = list(msg.cards)
    cards[3] = (Ct(cards[3][0].c1, bad), cards[3][1])
    with pytest.raises(FairDealError, match=why) as e:
        deck.receive_pass(ShuffledDeck(spec.id, 0, tuple(cards)))
    assert e.value.culprits == (0,)
    assert deck.passes == [] and deck.cards == deck.start  # nothing changed
    deck.receive_pass(msg)
    for s in (1, 2):
        m2, _ = fd.shuffle_pass(spec.id, s, deck.cards, tk.table_key)
        deck.receive_pass(m2)
    good = deck.strip(1, keys[1], 0, 0)
    with pytest.raises(FairDealError, match=why) as e:
        deck.open(0, 0, [Strip(spec.id, 0, 0, 1, bad, good.proof)])
    assert e.value.culprits == (1,)
    share = keys[2].share(JOINT, 2)
    with pytest.raises(FairDealError, match=why) as e:
        TableKeys.from_shares(JOINT, [keys[0].share(JOINT, 0), KeyShare(2, bad, share.proof)])
    assert e.value.culprits == (2,)


def test_a_key_without_proof_or_borrowed_from_another_seat_is_refused() -> None:
    a, b = SeatKey(), SeatKey()
    sa = a.share(JOINT, 0)
    rogue = KeyShare(1, b.public.raw, sa.proof)  # a key whose log the sender cannot prove
    with pytest.raises(FairDealError, match="proof of knowing") as e:
        TableKeys.from_shares(JOINT, [sa, rogue])
    assert e.value.culprits == (1,)
    copied = KeyShare(1, sa.key, sa.proof)  # seat 0's announcement replayed as seat 1's
    with pytest.raises(FairDealError) as e:
        TableKeys.from_shares(JOINT, [sa, copied])
    assert e.value.culprits == (1,)
    other_table = a.share(b"x" * 32, 0)
    with pytest.raises(FairDealError):
        TableKeys.from_shares(JOINT, [other_table, b.share(JOINT, 1)])


def test_a_pass_out_of_turn_or_of_the_wrong_shape_is_refused() -> None:
    keys, tk = make_keys(3)
    spec = fish_spec(5)
    deck = Deck(spec, tk)
    msg, _ = fd.shuffle_pass(spec.id, 1, deck.cards, tk.table_key)
    with pytest.raises(FairDealError, match="out of turn") as e:
        deck.receive_pass(msg)
    assert e.value.culprits == (1,)
    msg, _ = fd.shuffle_pass(spec.id, 0, deck.cards, tk.table_key)
    with pytest.raises(FairDealError, match="4 cards, not 5"):
        deck.receive_pass(ShuffledDeck(spec.id, 0, msg.cards[:4]))
    with pytest.raises(FairDealError, match="1 parts, not 2"):
        deck.receive_pass(ShuffledDeck(spec.id, 0, tuple(c[:1] for c in msg.cards)))
    assert deck.passes == []


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_junk_on_the_wire_is_a_clear_error_never_a_crash(data: bytes) -> None:
    decoders: list[Callable[[], object]] = [
        lambda: wire.decode(KeyShare, data),
        lambda: wire.decode(ShuffledDeck, data),
        lambda: wire.decode(Strip, data),
        lambda: wire.decode(Handover, data),
        lambda: wire.decode(KeyReveal, data),
    ]
    for decode in decoders:
        try:
            decode()
        except WireError:
            pass


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_any_32_bytes_are_a_valid_point_or_a_group_error(data: bytes) -> None:
    try:
        p = Point.decode(data)
    except GroupError:
        return
    assert not p.is_identity
    assert (p * Scalar.random()).raw != IDENTITY


def test_oversized_and_out_of_range_messages_are_refused() -> None:
    with pytest.raises(WireError, match="limit"):
        wire.decode(ShuffledDeck, bytes(wire.MAX_MESSAGE + 1))
    s = Strip("d", 0, 0, 0, bytes(32), wire.Proof(bytes(32), bytes(32)))
    raw = wire.encode(s)
    assert wire.decode(Strip, raw) == s
    with pytest.raises(WireError):
        wire.decode(Strip, wire.encode(Strip("d", wire.MAX_CARDS, 0, 0, bytes(32), s.proof)))
    with pytest.raises(WireError):
        wire.decode(Strip, wire.encode(Strip("d", 0, 0, 0, bytes(31), s.proof)))


def test_scalars_from_outside_must_be_canonical_and_non_zero() -> None:
    with pytest.raises(GroupError, match="zero"):
        Scalar.decode(bytes(32))
    with pytest.raises(GroupError, match="canonical"):
        Scalar.decode(b"\xff" * 32)
    good = Scalar.random()
    assert Scalar.decode(good.raw) == good
    ctx = proofs.context("t", JOINT)
    x = Scalar.random()
    proof = proofs.prove(ctx, x, Point.BASE, Point.BASE)
    y = Point.BASE * x
    assert proofs.verify(ctx, Point.BASE, y, Point.BASE, y, proof)
    assert not proofs.verify(ctx, Point.BASE, y, Point.BASE, y, wire.Proof(b"\xff" * 32, proof.z))
    assert not proofs.verify(proofs.context("u", JOINT), Point.BASE, y, Point.BASE, y, proof)


def test_secret_material_stays_out_of_reprs_and_randomness_comes_from_the_os() -> None:
    k = SeatKey()
    assert k.secret.raw.hex() not in repr(k) + repr(k.secret)
    src = Path(fd.__file__).parent
    for f in src.glob("*.py"):
        text = f.read_text()
        assert "import random" not in text and "from random" not in text, f.name


def test_a_pass_taken_unchecked_to_save_time_is_still_blamed_on_its_maker() -> None:
    keys, tk = make_keys(3)
    spec = fish_spec(4)
    decks = {s: Deck(spec, tk) for s in keys}
    msg, _ = fd.shuffle_pass(spec.id, 0, decks[0].cards, tk.table_key)
    cards = list(msg.cards)
    cards[1] = (Ct(ORDER_2, cards[1][0].c2), cards[1][1])
    bad = ShuffledDeck(spec.id, 0, tuple(cards))
    decks[1].receive_pass(bad, check_points=False)  # seat 2 makes its pass at once...
    nxt, _ = decks[1].my_pass(1)
    with pytest.raises(FairDealError, match="small order") as e:
        decks[1].check_points(0)  # ...and checks its input right after: seat 1 is named
    assert e.value.culprits == (0,)
    with pytest.raises(FairDealError) as e:  # every other peer checks in order: seat 1 again, not seat 2
        decks[2].receive_pass(bad)
    assert e.value.culprits == (0,)
    with pytest.raises(FairDealError, match="3 cards, not 4"):  # the shape is always checked at once
        Deck(spec, tk).receive_pass(ShuffledDeck(spec.id, 0, msg.cards[:3]), check_points=False)
    assert nxt.seat == 1


# ---- the per-game mapping, checked against the engines ----------------------------------------------------
@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("crown", 2, None),
        ("crown", 4, None),
        ("aquatica", 3, None),
        ("aquatica", 5, {"kings": "advanced"}),
        ("fisheries", 2, None),
    ],
)
def test_the_mapping_agrees_with_what_the_engines_seal(game: str, players: int, options: Any) -> None:
    """Every chance node of a random game: the plan is the same from every view, and never opens
    a value wider than the engine allows nor keeps sealed what the public view shows."""
    from coldwater.core import games
    from coldwater.core.rng import Rng
    from coldwater.core.state import CHANCE
    from coldwater.net.fairdeal import mapping
    from coldwater.net.fairplay import classify

    g = games.get(game)
    state = g.new(players, seed=f"map/{game}/{players}", options=options)
    specs = {s.id for s in mapping.decks(game, state)}
    rng = Rng(b"mapping-test")
    checked = 0
    seen: set[str] = set()
    while state.current is not None and state.ply < 4000:
        if state.current != CHANCE:
            legal = state.legal()
            state.apply(legal[rng.fork(state.ply).below(len(legal))])
            continue
        p = mapping.plan(game, state.view(None))
        assert all(mapping.plan(game, state.view(s)) == p for s in range(players))
        outcome = state.sample_chance(rng.fork(state.ply))
        if checked < 120:
            c = classify(state, outcome)
            if isinstance(p, mapping.Beacon):
                assert not c.sealed, (p, outcome)
            else:
                assert p.deck in specs or p.deck in ("aquatica/characters", "aquatica/locations"), p.deck
                last = p.opens[-1]
                if c.sealed:
                    assert last != mapping.ALL, (p, outcome)
                    assert set(c.owners) <= ({last} if last >= 0 else set()), (p, outcome, c.owners)
                elif len(p.opens) == 1:
                    assert last == mapping.ALL or last >= 0, (p, outcome)
            checked += 1
        seen.add(type(p).__name__ + (":" + p.deck if isinstance(p, mapping.FromDeck) else ""))
        state.apply(outcome)
    assert state.current is None  # the whole game was mapped
    expected = {"crown": {"FromDeck:crown/tackle", "FromDeck:crown/fish/lake", "Beacon"}}
    expected["aquatica"] = {"FromDeck:aquatica/characters", "FromDeck:aquatica/locations", "Beacon"}
    if options:
        expected["aquatica"].add("FromDeck:aquatica/kings")
    assert expected.get(game, {"Beacon"}) <= seen, seen


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("crown", 4, None), ("aquatica", 3, None), ("aquatica", 5, {"kings": "advanced"})],
)
def test_a_whole_game_dealt_from_encrypted_decks(game: str, players: int, options: Any) -> None:
    """The mapping drives real decks: every sealed draw of a random game comes off an
    encrypted deck, opened as the plan says, and is a legal outcome for the engine (which
    plays referee here, holding the full state no LAN peer would hold)."""
    from coldwater.core import games
    from coldwater.core.aquatica.actions import Deal
    from coldwater.core.crown.actions import Reveal, TackleDraw
    from coldwater.core.rng import Rng
    from coldwater.core.state import CHANCE
    from coldwater.net.fairdeal import mapping

    g = games.get(game)
    state = g.new(players, seed=f"dealt/{game}/{players}", options=options)
    opening = state.clone()
    keys, tk = make_keys(players)
    seats = list(range(players))

    def shuffled(spec: DeckSpec, start: tuple[Any, ...] | None = None) -> dict[int, Deck]:
        peers = {s: Deck(spec, tk, start=start) for s in seats}
        for s in seats:
            msg, _ = peers[s].my_pass(s)
            for o in seats:
                if o != s:
                    peers[o].receive_pass(msg)
        return peers

    decks = {spec.id: shuffled(spec) for spec in mapping.decks(game, state)}
    nxt: dict[str, int] = dict.fromkeys(decks, 0)
    rng = Rng(b"dealt")
    opened = {"all": 0, "one": 0, "nobody": 0}
    while state.current is not None:
        if state.current != CHANCE:
            legal = state.legal()
            state.apply(legal[rng.fork(state.ply).below(len(legal))])
            continue
        p = mapping.plan(game, state.view(None))
        if isinstance(p, mapping.Beacon):
            state.apply(state.sample_chance(rng.fork(state.ply)))  # a beacon's draw stands in here
            continue
        deck_id = p.deck
        if deck_id not in decks:  # a deck merged from what others left, reshuffled by every seat
            left = {k: v[0].undealt(nxt[k]) for k, v in decks.items()}
            spec, start = mapping.merged(game, deck_id, opening, tk.table_key, left)
            decks[deck_id] = shuffled(spec, start)
            nxt[deck_id] = 0
        peers = decks[deck_id]
        pos = nxt[deck_id]
        assert pos < peers[0].size, f"{deck_id} ran out"  # (15 tackle pieces outlast nearly every game)
        nxt[deck_id] += 1
        labels = []
        for part, to in enumerate(p.opens):
            if to == mapping.ALL:
                strips = [peers[s].strip(s, keys[s], pos, part) for s in seats]
                got = {peers[o].open(pos, part, strips) for o in seats}
                assert len(got) == 1
                labels.append(got.pop())
                opened["all"] += 1
            elif to >= 0:
                strips = [peers[s].strip(s, keys[s], pos, part) for s in seats if s != to]
                labels.append(peers[to].open(pos, part, strips, own=(to, keys[to])))
                for o in seats:
                    if o != to:
                        peers[o].receive_strips(pos, part, strips)
                opened["one"] += 1
            else:  # opened to nobody: only the referee (every key) may read it, to check it
                ct = peers[0].ct(pos, part)
                strips = [fd.strip(tk, keys[s], s, deck_id, pos, part, ct) for s in seats]
                labels.append(fd.open_part(peers[0].spec, tk, pos, part, ct, strips))
                opened["nobody"] += 1
        outcome: object
        if game == "aquatica":
            outcome = Deal(int(labels[0]))
        elif deck_id.startswith("crown/fish/"):
            outcome = Reveal(deck_id.rsplit("/", 1)[1], labels[0], int(labels[1]))  # type: ignore[arg-type]
        else:
            outcome = TackleDraw(labels[0])  # type: ignore[arg-type]
        assert outcome in state.legal(), (outcome, state.ply)
        state.apply(outcome)
    assert opened["all"] > 10
    assert opened["nobody"] > 0 or (game, players) == ("aquatica", 5)  # nothing goes to the box at 5
    assert opened["one"] >= players or (game == "aquatica" and not options)  # basic Kings are dealt open


def test_a_deck_merged_from_the_rest_of_a_cut_deck_is_audited_from_its_start() -> None:
    fam = "test/family"
    cut_spec = DeckSpec("test/cut", tuple((f"d{i}",) for i in range(6)), fam)
    fresh_spec = DeckSpec("test/fresh", tuple((f"c{i}",) for i in range(3)), fam)
    cut = deal_table(3, cut_spec)
    start = fd.starting_deck(fresh_spec, cut.tk.table_key) + cut.decks[0].undealt(2)  # two went to the box
    spec = DeckSpec("test/merged", fresh_spec.cards + cut_spec.cards, fam)  # every card it may hold
    secrets: dict[int, PassSecrets] = {}
    peers = {s: Deck(spec, cut.tk, start=start) for s in range(3)}
    for s in range(3):
        msg, secrets[s] = peers[s].my_pass(s)
        if s == 1:  # seat 2 slips a copy of one card over another
            msg = _duplicate(msg, secrets[s])[0]
        for o in range(3):
            if o != s:
                peers[o].receive_pass(msg)
    assert peers[0].size == 7
    reveals = {s: KeyReveal(s, cut.keys[s].secret.raw, (secrets[s],)) for s in range(3)}
    report = audit_deck(spec, cut.tk, peers[0].passes, reveals, start=start)
    assert report.culprits == [1]
    honest = Deck(spec, cut.tk, start=start)
    for s in range(3):
        msg, secrets[s] = honest.my_pass(s)
    reveals = {s: KeyReveal(s, cut.keys[s].secret.raw, (secrets[s],)) for s in range(3)}
    report = audit_deck(spec, cut.tk, honest.passes, reveals, start=start)
    assert report.ok, report.problems
    held = sorted(c[0] for c in report.cards)
    boxed = sorted(c[0] for c in cut.audit().cards[:2])
    assert sorted(held + boxed) == sorted(c[0] for c in spec.cards)  # the box and the deck: every card once
