"""Whole Aquatica games dealt by the fair dealer, every seat's process advancing only its own view.

As tests/net/session/test_fairdeal_session.py does for Crown: the table runs in one process
(`tests/net/fairdeal/localtable.py`, every message crossing as bytes), and the test, which holds
every seat's key as no process at a real table does, plays referee with a full state
advanced with the true cards. Aquatica adds merged decks (the ◇ Characters left after
the box discards, shuffled with the ○ ones; the Location types' leftovers), a box read
by nobody until the end, and Kings handed over in the advanced draft.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import msgspec
import pytest

from coldwater.core import games, record
from coldwater.core.aquatica import dealing as mp
from coldwater.core.aquatica.actions import Deal
from coldwater.core.aquatica.dealing import AqSlots
from coldwater.core.aquatica.model import KING_BASE, AqData
from coldwater.core.dealing import Where
from coldwater.net.fairdeal import FairDealError, Handover, Point, ShuffledDeck, Strip
from coldwater.net.fairdeal.seat import FairSave, FairSeat, Named, Word
from coldwater.net.fairdeal.wire import Ct
from coldwater.net.identity import Identity
from coldwater.net.session import TableHost, TablePeer, bot_chooser
from tests.net.fairdeal.localtable import LocalTable, Tamper

AQ = games.get("aquatica")
ADVANCED = {"kings": "advanced"}


def _slots(s: FairSeat) -> AqSlots:
    """An Aquatica seat's slot map (the public shadow, the Characters opened, the King draft)."""
    assert isinstance(s.slots, AqSlots)
    return s.slots


def joint(tag: str) -> bytes:
    return (tag.encode() * 32)[:32]


def shown(d: AqData) -> set[int]:
    """Every King a position shows (the draft, a hand, the King number a seat's view knows)."""
    out = {c for c in d.draft if c >= 0}
    for p in d.ps:
        out |= {c for c in p.hand if c >= 60}
    return out


class Referee:
    """A full state kept beside the table with the true cards; what each seat may know by now."""

    def __init__(self, table: LocalTable, options: Any) -> None:
        self.truth: dict[Where, str] = {}
        seed = f"lan-{table.seats[0].joint.hex()[:32]}"
        self.full = table.game.new(len(table.seats), seed=seed, options=options)
        self.done = 0
        self.allowed: list[set[int]] = [set() for _ in table.seats]
        self.private_reads = 0
        self.handed = 0

    def true_label(self, table: LocalTable, deck: str, pos: int) -> str:
        """The card at a position, read with every seat's key (only the test can)."""
        if (deck, pos, 0) not in self.truth:
            d = table.seats[0].decks[deck]
            ct = d.ct(pos, 0)
            m = Point(ct.c2)
            for s in table.seats:
                m = m - Point(ct.c1) * s.key.secret
            label = d.spec.lookup(0, m)
            assert label is not None
            self.truth[(deck, pos, 0)] = label
        return self.truth[(deck, pos, 0)]

    def __call__(self, table: LocalTable) -> None:
        rec = table.seats[0].record
        for kind, what in rec[self.done :]:
            if kind == "deal":
                self.full.apply(Deal(int(self.true_label(table, *what))))
            else:
                self.full.apply(what)
        self.done = len(rec)
        n = len(table.seats)
        for s in table.seats:
            ref = self.full.view(s.seat)
            assert s.record == rec, "every process keeps the same public record"
            assert s.view.digest() == ref.digest(), f"seat {s.seat}'s own view is not the referee's at {ref.ply}"
            self.allowed[s.seat] |= shown(ref.data)
            # Everything this process has read: never a card its seat may not see yet.
            for w, label in s.known.items():
                assert label == self.true_label(table, w[0], w[1]), f"seat {s.seat} read {w} wrong"
                if len(s.layers.get(w, {})) < n:  # not opened to everyone: a King seen in the draft
                    assert w[0] == mp.KINGS and int(label) in self.allowed[s.seat], (
                        f"seat {s.seat} holds {w} = {label} before the rules show it"
                    )
                    self.private_reads += 1
            # The public shadow of the slot map holds nothing a deck, the box or the draft hides.
            sh = _slots(s).shadow.data
            assert sh is not None
            hidden = sh.char_deck + sh.char_box + sh.loc_deck + sh.loc_box + sh.draft + sh.king_pool + sh.king_box
            assert all(c < 0 for c in hidden)
            assert sh.ps == self.full.data.ps  # every hand as the public record tells it: the truth
            # And the map's deck positions hold the cards it says (a Character's, a drafted King's).
            assert all(self.true_label(table, *w) == str(c) for c, w in _slots(s).opened.items())
            for seat, where in _slots(s).king_of.items():
                number = self.full.data.ps[seat].king
                assert any(self.true_label(table, mp.KINGS, p) == str(59 + number) for p in where)
        self.handed = max(self.handed, len(table.seats[0].decks[mp.KINGS].handovers))


def play(players: int, tag: str, options: Any = None, *, bots: tuple[str, ...] = ("greedy", "random")) -> Referee:
    table = LocalTable(AQ, players, joint(tag), options=options, bots=bots)
    ref = Referee(table, options)
    table.after_ply = ref
    audits = table.play()
    assert all(a.ok for a in audits), [a.problems for a in audits]
    finals = {a.full.digest() for a in audits}
    assert finals == {ref.full.digest()}, "every process replays the referee's full game"
    assert len({str(a.full.scores()) for a in audits}) == 1
    s0 = table.seats[0]
    assert s0.view.current is None and table.stats.plies == s0.view.ply > 100
    assert {mp.CHARACTERS, mp.LOCATIONS} <= s0._merged, "the row decks are merged from what the cuts left"
    return ref


@pytest.mark.parametrize(
    ("players", "tag", "options"),
    [
        (2, "a", None),
        (3, "b", {"module": "tribes"}),
        (4, "c", {"variable_goals": True}),
        (5, "d", None),
        (2, "e", ADVANCED),
        (3, "f", {**ADVANCED, "module": "tribes"}),
        (4, "g", ADVANCED),
        (5, "h", ADVANCED),
    ],
)
def test_whole_aquatica_games_no_process_holds_a_sealed_card_before_it_shows(
    players: int, tag: str, options: Any
) -> None:
    ref = play(players, tag, options)
    if options and options.get("kings") == "advanced":
        # Every pick but the last hands the Kings it passes on to the next drafter.
        assert ref.handed == sum(range(2, players + 1)), ref.handed
        assert ref.private_reads > players


@pytest.mark.parametrize(("players", "tag", "options"), [(3, "o", ADVANCED), (4, "p", {"module": "tribes"})])
def test_an_observer_with_no_key_follows_a_whole_game_on_the_public_view(players: int, tag: str, options: Any) -> None:
    """A seatless host's process (localtable.py `observe`): no key, no layer. Its view is the referee's public
    view at every ply (the draft's hand-overs included), its public shadow the table as the record tells
    it, and it reads only cards opened to everyone; its audit replays the game as the seats' do."""
    table = LocalTable(AQ, players, joint(tag), options=options, observe=True)
    ref = Referee(table, options)
    obs = table.observer
    assert obs is not None and obs.seat is None and obs.key is None and obs.chain is None
    read = 0

    def after(t: LocalTable) -> None:
        nonlocal read
        ref(t)
        assert obs.record == t.seats[0].record and isinstance(obs.slots, AqSlots)
        assert obs.view.digest() == ref.full.view(None).digest(), f"the observer's view at ply {obs.view.ply}"
        assert _slots(obs).shadow.data.ps == ref.full.data.ps
        for w, label in obs.known.items():
            assert label == ref.true_label(t, w[0], w[1]), f"the observer read {w} wrong"
            assert len(obs.layers.get(w, {})) == players, f"the observer read {w}, which is not open to everyone"
        read = len(obs.known)

    table.after_ply = after
    audits = table.play()
    assert len(audits) == players + 1 and all(a.ok for a in audits), [a.problems for a in audits]
    assert {a.full.digest() for a in audits} == {ref.full.digest()} and audits[-1].record is not None
    assert read > 10, "Characters and Locations opened to everyone were read (the check bites)"
    if options.get("kings") == "advanced":
        assert ref.handed == sum(range(2, players + 1)), "the observer followed every hand-over"


def _stale_pass_on(seat: int) -> Tamper:
    """In the pass-on round, the seat's strip of the King's *old* ciphertext (public since the deal)."""
    old: dict[tuple[str, int], Strip] = {}

    def t(round_: str, ply: int, msg: Any) -> Any:
        if isinstance(msg, Strip) and msg.seat == seat:
            if round_ == "deal":
                old[(msg.deck, msg.position)] = msg
            elif round_ == "pass-on" and (msg.deck, msg.position) in old:
                return old[(msg.deck, msg.position)]
        return msg

    return t


def _receiver_strips(seat: int) -> Tamper:
    """A pass-on strip from the wrong seat: one in the receiver's name (index 0 receives at the
    second pick), which would let everyone else read the card; no round asks the receiver to strip."""

    def t(round_: str, ply: int, msg: Any) -> Any:
        if round_ == "pass-on" and isinstance(msg, Strip) and msg.seat == seat:
            return Strip(msg.deck, msg.position, msg.part, 0, msg.share, msg.proof)
        return msg

    return t


def _forged_handover(seat: int) -> Tamper:
    """The picker hands on another card than the one it was dealt (its proof is for the real one)."""

    def t(round_: str, ply: int, msg: Any) -> Any:
        if round_ == "word" and isinstance(msg, Word) and msg.seat == seat and msg.named:
            n = msg.named[0]
            if n.handover is not None:
                h = n.handover
                bent = Ct(h.ct.c1, (Point(h.ct.c2) + Point.BASE).raw)
                forged = Named(n.seat, n.slot, None, Handover(h.deck, h.position, h.part, h.seat, bent, h.proof))
                return Word(msg.seat, msg.ply, (forged, *msg.named[1:]))
        return msg

    return t


def _keeps_two(seat: int) -> Tamper:
    """The picker hands on one King fewer than it must (keeping one to see more than its pick)."""

    def t(round_: str, ply: int, msg: Any) -> Any:
        if round_ == "word" and isinstance(msg, Word) and msg.seat == seat and len(msg.named) > 1:
            return Word(msg.seat, msg.ply, msg.named[1:])
        return msg

    return t


@pytest.mark.parametrize(
    ("attack", "culprit", "why"),
    [
        (_stale_pass_on, 0, "is wrong|again"),  # an old strip opens nothing after the hand-over
        (_receiver_strips, 0, "does not ask of it"),  # (over the LAN its signature names its sender too)
        (_forged_handover, 2, "changes the card"),  # seat 3 drafts first (last in turn order)
        (_keeps_two, 2, "handed on 2 of the 4"),
    ],
)
def test_a_dishonest_hand_over_in_the_draft_names_its_seat_at_once(attack: Any, culprit: int, why: str) -> None:
    victim = 1 if attack is _receiver_strips else culprit
    table = LocalTable(AQ, 3, joint("k"), options=ADVANCED, tamper={victim: attack(victim)})
    table.setup()
    with pytest.raises(FairDealError) as e:
        while table.ply():
            pass
    assert list(e.value.culprits) == [culprit], e.value
    assert re.search(why, str(e.value)), e.value
    assert table.seats[0].view.ply < 60, "caught in the draft, at once"


def _swap(seat: int, deck: str) -> Tamper:
    def t(round_: str, ply: int, msg: Any) -> Any:
        if round_ == "pass" and isinstance(msg, ShuffledDeck) and msg.seat == seat and msg.deck == deck:
            cards = list(msg.cards)
            cards[0], cards[-1] = cards[-1], cards[0]  # not the permutation its secrets will reveal
            return ShuffledDeck(msg.deck, msg.seat, tuple(cards))
        return msg

    return t


@pytest.mark.parametrize("deck", [mp.CHARACTERS, mp.KINGS])
def test_a_card_swapped_in_a_shuffle_is_caught_at_the_end_naming_the_seat(deck: str) -> None:
    """The merged Character deck (reshuffled mid-setup) and the King draft: a swap goes unseen
    in play (a permutation of valid cards) and the end-of-game audit names the shuffler."""
    table = LocalTable(AQ, 3, joint("s" + deck[-1]), options=ADVANCED, tamper={1: _swap(1, deck)})
    audits = table.play()
    for a in (audits[0], audits[2]):  # every honest seat (the cheat's own copy of its pass is honest)
        assert not a.ok and list(a.culprits) == [1], a.problems
        assert any(deck in p and "seat 2" in p for p in a.problems)


def test_a_namer_cannot_open_a_card_of_another_hand_or_a_king_it_does_not_hold() -> None:
    # Who picks last in the draft comes from a public draw (fresh chain secrets each run), and a
    # seat may already have played its King when the draft's last pick is made: take the first
    # table where seats 2 and 3 both hold their King in their own view once the draft is over.
    for attempt in range(20):
        table = LocalTable(AQ, 3, joint(f"n{attempt}"), options=ADVANCED)
        table.setup()
        while len(_slots(table.seats[0]).king_of) < 3:
            table.ply()
        if all(any(c >= KING_BASE for c in table.seats[s].view.data.ps[s].hand) for s in (1, 2)):
            break
    else:
        pytest.fail("no table in 20 where seats 2 and 3 still held their Kings after the draft")
    other = table.seats[0]
    king = next(i for i, c in enumerate(table.seats[1].view.data.ps[1].hand) if c >= KING_BASE)
    before = other.view.digest()
    # Seat 3 names seat 2's King: only a hand's holder opens it.
    with pytest.raises(FairDealError) as e:
        other._take_named(2, Named(2, ("hand", 1, king)))
    assert list(e.value.culprits) == [2]
    # Seat 2 names its own King with no strip: it is open to no one else yet.
    with pytest.raises(FairDealError, match="without a strip") as e:
        other._take_named(1, Named(1, ("hand", 1, king)))
    assert list(e.value.culprits) == [1]
    # Seat 2 opens its King with seat 3's strip of it (seat 3's layer, under seat 2's name).
    stolen = table.seats[2]._named(("hand", 2, len(table.seats[2].view.data.ps[2].hand) - 1), -1).strip
    assert stolen is not None
    with pytest.raises(FairDealError) as e:
        other._take_named(1, Named(1, ("hand", 1, king), stolen))
    assert list(e.value.culprits) == [1]
    assert other.view.digest() == before


def test_a_seat_saved_mid_draft_comes_back_from_its_save() -> None:
    table = LocalTable(AQ, 4, joint("r"), options=ADVANCED)
    ref = Referee(table, ADVANCED)
    table.after_ply = ref
    table.setup()
    while len(_slots(table.seats[0]).king_of) < 2:
        table.ply()
    old = table.seats[2]
    sv = msgspec.msgpack.decode(msgspec.msgpack.encode(old.save()), type=FairSave)
    back = FairSeat.restore(AQ, sv)
    assert back.view.digest() == old.view.digest() and back.known == old.known
    assert _slots(back).draft == _slots(old).draft
    assert len({msgspec.msgpack.encode(s.save().log) for s in table.seats}) == 1  # the public transcript
    table.seats[2] = back
    while table.ply():
        pass
    audits = table.finish()
    assert all(a.ok for a in audits) and len({a.full.digest() for a in audits}) == 1


# ---- over the LAN session, on loopback (net/session/fairtable.py) ---------------------------------
@pytest.mark.parametrize(
    ("players", "options", "seatless"),
    [(2, ADVANCED, False), (3, ADVANCED, False), (4, {"module": "tribes"}, False), (5, ADVANCED, False)]
    + [(3, ADVANCED, True)],  # no seat in the host's process (`coldwater serve`): it runs an observer
)
async def test_whole_aquatica_games_over_the_lan_session_with_the_fair_dealer(
    players: int, options: Any, seatless: bool
) -> None:
    """Every process (the host's included) against the referee after each of its steps: its view
    is the referee's view of its seat (a seatless host's observer: the public view), and every card
    it has read is one its seat has been shown (the observer: none but those open to everyone)."""
    snaps: dict[int | None, list[tuple[int, bytes, dict[Where, str], int]]] = {}

    def begin_hook(proc: Any, attr: str) -> None:
        orig = getattr(proc, attr)

        def begin(*a: Any) -> None:
            orig(*a)
            drv = proc.fair or getattr(proc, "fair_watch", None)
            if drv is None:
                return
            inner = drv.stepped

            def stepped() -> None:
                fs = drv.fs
                private = {w: lab for w, lab in fs.known.items() if len(fs.layers.get(w, {})) < fs.players}
                snaps.setdefault(fs.seat, []).append((fs.view.ply, fs.view.digest(), private, len(fs.record)))
                inner()

            drv.stepped = stepped

        setattr(proc, attr, begin)

    host = TableHost(
        AQ,
        Identity.generate(),
        name="fair",
        seats=["open"] * players if seatless else ["host"] + ["open"] * (players - 1),
        bind="127.0.0.1",
        chooser=bot_chooser(AQ),
        dealer="fair",
        watchers=0,
        options=options,
    )
    port = await host.listen()
    peers = [
        TablePeer(AQ, Identity.generate(), name=f"p{i}", bind="127.0.0.1", chooser=bot_chooser(AQ))
        for i in range(players - (0 if seatless else 1))
    ]
    begin_hook(host.fair_host, "begin")  # the host's fair rounds are its FairHost's (fairhost.py)
    for proc in peers:
        begin_hook(proc.fair_peer, "begin")  # a peer's are its FairPeer's (fairpeer.py)
    task = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port)
    await asyncio.wait_for(asyncio.gather(task, *(p.run() for p in peers), return_exceptions=True), 240)
    assert host.result is not None and host.result.audit_ok, host.result
    assert host.table is None, "the host never holds the full state"
    for p in peers:
        assert p.result is not None and p.result.audit_ok, (p.result, p.problems)
        assert p.result.digest == host.result.digest and p.result.scores == host.result.scores
    seats = sorted(
        (d.fs for d in [host.fair_host.fair, *(p.fair for p in peers)] if d is not None), key=lambda f: f.seat
    )
    assert len(seats) == players
    table = LocalTable(AQ, players, seats[0].joint, seats=seats, options=options)
    ref = Referee(table, options)
    full = ref.full
    want: dict[tuple[int, int | None], bytes] = {}
    shown_by: list[list[set[int]]] = [[] for _ in seats]
    for kind, what in seats[0].record:
        full.apply(Deal(int(ref.true_label(table, *what))) if kind == "deal" else what)
        want[(full.ply, None)] = full.view(None).digest()
        for f in seats:
            want[(full.ply, f.seat)] = full.view(f.seat).digest()
            shown_by[f.seat].append(shown(full.view(f.seat).data))
    assert (None in snaps) == seatless and (host.fair_host.fair_watch is not None) == seatless
    for ply, digest, private, _ in snaps.get(None, []):
        assert digest == want[(ply, None)], f"the host's observer's view is not the public view at ply {ply}"
        assert not private, f"the host's observer held {private} at ply {ply}"
    if seatless:
        assert len(snaps[None]) > 100 and host.fair_host.fair_watch is not None and host.fair_host.fair_watch.fs.known
        assert host.fair_host.fair_watch.fs.key is None and host.fair_host.fair_watch.sent == set()
    for f in seats:
        assert len(snaps[f.seat]) > 100
        for ply, digest, private, n in snaps[f.seat]:
            assert digest == want[(ply, f.seat)], f"seat {f.seat}'s view differs from the referee's at ply {ply}"
            allowed = set().union(*shown_by[f.seat][:n])
            for w, label in private.items():
                assert w[0] == mp.KINGS and int(label) in allowed, f"seat {f.seat} held {w} at ply {ply}"
    if options.get("kings") == "advanced":
        assert len(seats[0].decks[mp.KINGS].handovers) == sum(range(2, players + 1))
        assert any(private for f in seats for _, _, private, _ in snaps[f.seat]), "the check bites"
    # The whole game for the end screen and Replays: the referee's, entry by entry.
    for party in (host, peers[-1]):
        rec = party.full_record()
        assert rec is not None and record.replay(rec, AQ).digest() == full.digest() == host.result.digest


def test_a_malformed_hand_over_is_refused_naming_the_picker() -> None:
    table = LocalTable(AQ, 3, joint("j"), options=ADVANCED)
    table.setup()
    while not isinstance(table.seats[0].node(), int):
        table.ply()
    picker = table.seats[0].node()
    assert picker == 2 and table.seats[2].view.data.draft_order[0] == 2  # the first pick of the draft
    action = table.bots[2].choose(table.seats[2].view, table.rng.fork(0))
    mine = table.seats[2]
    mine._open_action(action)
    real = mine.word(action)
    assert real is not None and all(n.handover is not None for n in real.named)
    h = real.named[0].handover
    assert h is not None
    other = FairSeat.restore(AQ, table.seats[0].save())  # a fresh copy of seat 1's process for each case
    ply = other.view.ply
    bad: list[tuple[tuple[Named, ...], str]] = [
        ((Named(2, ("draft", 99), None, h),), "holds no King"),
        ((Named(2, (), None, h),), "passes to nobody"),
        ((Named(2, ("hand", 2, 0), None, h),), "passes to nobody"),
        ((Named(2, real.named[1].slot, None, h),), "not of the card there"),  # another slot's hand-over
        ((real.named[0], real.named[0]), "twice"),
        (real.named[1:], "handed on 2 of the 4"),
    ]
    for named, why in bad:
        fresh = FairSeat.restore(AQ, table.seats[0].save())
        fresh._open_action(action)
        fresh.take_act_strips([])
        before = fresh.view.digest()
        with pytest.raises(FairDealError, match=why) as e:
            fresh.take_words({2: Word(2, ply, named)})
        assert list(e.value.culprits) == [2], e.value
        assert fresh.view.digest() == before
    # A word from a seat that names nothing this action opens is not taken at all.
    other._open_action(action)
    other.take_act_strips([])
    with pytest.raises(FairDealError, match="did not say"):
        other.take_words({1: Word(1, ply, real.named)})
