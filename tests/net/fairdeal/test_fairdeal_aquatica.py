"""Whole Aquatica games dealt by the fair dealer, every seat's process advancing only its own view.

As tests/net/session/test_fairdeal_session.py does for Crown: the real host and seats play in one
process over the in-memory network (`tests/net/session/fairgame.py`, every message encoded and
decoded as on the wire and relayed by the host), and the test, which holds every seat's key as
no process at a real table does, plays referee with a full state advanced with the true cards,
checking every process after each of its steps. Aquatica adds merged decks (the ◇ Characters
left after the box discards, shuffled with the ○ ones; the Location types' leftovers), a box
read by nobody until the end, and Kings handed over in the advanced draft.
"""

from __future__ import annotations

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
from coldwater.core.rng import Rng
from coldwater.net.fairdeal import FairDealError, Handover, Point, ShuffledDeck, Strip
from coldwater.net.fairdeal.save import FairSave
from coldwater.net.fairdeal.seat import FairSeat
from coldwater.net.fairdeal.wire import Ct, Named, Word
from coldwater.net.session.fairtable import FairDriver
from tests.net.session.fairgame import FairGame, Looker, Tamper, play_fair

AQ = games.get("aquatica")
ADVANCED = {"kings": "advanced"}


def _slots(s: FairSeat) -> AqSlots:
    """An Aquatica seat's slot map (the public shadow, the Characters opened, the King draft)."""
    assert isinstance(s.slots, AqSlots)
    return s.slots


def shown(d: AqData) -> set[int]:
    """Every King a position shows (the draft, a hand, the King number a seat's view knows)."""
    out = {c for c in d.draft if c >= 0}
    for p in d.ps:
        out |= {c for c in p.hand if c >= 60}
    return out


class Referee:
    """A full state kept beside the table with the true cards, advanced as the public record grows; each
    process is checked against it after each of its steps (a looker: `referee.looker`)."""

    def __init__(self, options: Any) -> None:
        self.options = options
        self.seats: list[FairSeat] = []
        self.truth: dict[Where, str] = {}
        self.full: Any = None
        self.record: list[Any] = []
        self.views: dict[int, dict[int | None, bytes]] = {}
        """Per ply, every seat's view's digest (None: the public view)."""
        self.hands: dict[int, bytes] = {}
        """Per ply, every hand as the public record tells it (encoded)."""
        self.kings: dict[int, list[int]] = {}
        self.shown: list[list[set[int]]] = []
        """Per seat, the Kings its view showed after each entry of the record."""
        self.allowed: dict[int, set[int]] = {}
        self.private_reads = 0
        self.handed = 0
        self.steps: dict[int | None, int] = {}
        """How many steps of each process were checked."""

    def true_label(self, deck: str, pos: int, via: FairSeat | None = None) -> str:
        """The card at a position, read with every seat's key (only the test can); the ciphertext as
        `via` holds it (a seat that has taken the deal: another may not have shuffled the deck yet)."""
        if (deck, pos, 0) not in self.truth:
            d = (via or self.seats[0]).decks[deck]
            ct = d.ct(pos, 0)
            m = Point(ct.c2)
            for s in self.seats:
                m = m - Point(ct.c1) * s.key.secret
            label = d.spec.lookup(0, m)
            assert label is not None
            self.truth[(deck, pos, 0)] = label
        return self.truth[(deck, pos, 0)]

    def advance(self, rec: list[Any], via: FairSeat) -> None:
        """The full state through every entry of `rec` (`via`'s public record) it has not applied yet."""
        n = len(self.seats)
        if self.full is None:
            self.full = AQ.new(n, seed=f"lan-{self.seats[0].joint.hex()[:32]}", options=self.options)
            self.shown = [[] for _ in range(n)]
        for kind, what in rec[len(self.record) :]:
            self.full.apply(Deal(int(self.true_label(*what, via=via))) if kind == "deal" else what)
            self.record.append((kind, what))
            ply = self.full.ply
            self.views[ply] = {s: self.full.view(s).digest() for s in [None, *range(n)]}
            self.hands[ply] = msgspec.msgpack.encode(self.full.data.ps)
            self.kings[ply] = [p.king for p in self.full.data.ps]
            for s in range(n):
                self.shown[s].append(shown(self.full.view(s).data))

    def looker(self, g: FairGame, drv: FairDriver) -> None:
        if not self.seats:
            self.seats = g.seats()
        self.check(drv.fs)

    def check(self, s: FairSeat) -> None:
        self.advance(s.record, s)
        n, ply, seat = len(self.seats), s.view.ply, s.seat
        assert s.record == self.record[: len(s.record)], "every process keeps the same public record"
        assert s.view.digest() == self.views[ply][seat], f"seat {seat}'s own view is not the referee's at {ply}"
        allowed = set().union(*self.shown[seat][: len(s.record)]) if seat is not None else set()
        # Everything this process has read: never a card its seat may not see yet.
        for w, label in s.known.items():
            assert label == self.true_label(w[0], w[1], s), f"seat {seat} read {w} wrong"
            if len(s.layers.get(w, {})) < n:  # not opened to everyone: a King seen in the draft
                assert seat is not None, f"the observer read {w}, which is not open to everyone"
                assert w[0] == mp.KINGS and int(label) in allowed, (
                    f"seat {seat} holds {w} = {label} before the rules show it"
                )
                self.private_reads += 1
        # The public shadow of the slot map holds nothing a deck, the box or the draft hides.
        sh = _slots(s).shadow.data
        assert sh is not None
        hidden = sh.char_deck + sh.char_box + sh.loc_deck + sh.loc_box + sh.draft + sh.king_pool + sh.king_box
        assert all(c < 0 for c in hidden)
        assert msgspec.msgpack.encode(sh.ps) == self.hands[ply]  # every hand as the public record tells it
        # And the map's deck positions hold the cards it says (a Character's, a drafted King's).
        assert all(self.true_label(*w, via=s) == str(c) for c, w in _slots(s).opened.items())
        for who, where in _slots(s).king_of.items():
            number = self.kings[ply][who]
            assert any(self.true_label(mp.KINGS, p, s) == str(59 + number) for p in where)
        self.handed = max(self.handed, len(s.decks[mp.KINGS].handovers))
        self.steps[seat] = self.steps.get(seat, 0) + 1


def _lookers(*lookers: Looker) -> Looker:
    def look(g: FairGame, drv: FairDriver) -> None:
        for x in lookers:
            x(g, drv)

    return look


async def play(
    players: int, options: Any = None, *, seats: list[str] | None = None, also: Looker | None = None
) -> tuple[FairGame, Referee]:
    """A whole game, every process checked by the referee after each of its steps (and by `also`)."""
    ref = Referee(options)
    look = ref.looker if also is None else _lookers(also, ref.looker)
    g = await play_fair(AQ, seats or players, options=options, looker=look)
    host = g.host
    assert host.result is not None and host.result.audit_ok, host.result
    assert host.table is None, "the host never holds the full state"
    for p in g.peers:
        assert p.result is not None and p.result.audit_ok, (p.result, p.problems)
        assert p.result.digest == host.result.digest and p.result.scores == host.result.scores
    audits = list(g.audits.values())
    assert all(a.ok for a in audits), [a.problems for a in audits]
    finals = {a.full.digest() for a in audits}
    assert finals == {ref.full.digest()} == {host.result.digest}, "every process replays the referee's full game"
    assert len({str(a.full.scores()) for a in audits}) == 1
    s0 = g.seats()[0]
    assert s0.view.current is None and host.result.plies == s0.view.ply > 100
    assert {mp.CHARACTERS, mp.LOCATIONS} <= s0._merged, "the row decks are merged from what the cuts left"
    assert all(ref.steps[f.seat] > 100 for f in g.seats()), ref.steps
    # The whole game for the end screen and Replays: the referee's, entry by entry.
    for party in (host, g.peers[-1]):
        rec = party.full_record()
        assert rec is not None and record.replay(rec, AQ).digest() == ref.full.digest()
    return g, ref


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, None),
        (3, {"module": "tribes"}),
        (4, {"variable_goals": True}),
        (5, None),
        (2, ADVANCED),
        (3, {**ADVANCED, "module": "tribes"}),
        (4, ADVANCED),
        (5, ADVANCED),
    ],
)
async def test_whole_aquatica_games_no_process_holds_a_sealed_card_before_it_shows(players: int, options: Any) -> None:
    g, ref = await play(players, options)
    assert len(g.audits) == players
    if options and options.get("kings") == "advanced":
        # Every pick but the last hands the Kings it passes on to the next drafter.
        assert ref.handed == sum(range(2, players + 1)), ref.handed
        assert ref.private_reads > players, "the check bites"


@pytest.mark.parametrize(("players", "options"), [(3, ADVANCED), (4, {"module": "tribes"})])
async def test_an_observer_with_no_key_follows_a_whole_game_on_the_public_view(players: int, options: Any) -> None:
    """A seatless host's process (`coldwater serve`'s tables): no key, no layer. Its view is the referee's
    public view after each of its steps (the draft's hand-overs included), its public shadow the table
    as the record tells it, and it reads only cards opened to everyone; its audit replays the game as
    the seats' do, and it sends nothing."""
    g, ref = await play(players, options, seats=["open"] * players)
    obs = g.observer
    watch = g.host.fair_host.fair_watch
    assert obs is not None and obs.seat is None and obs.key is None and obs.chain is None
    assert watch is not None and watch.sent == set() and g.host.fair_host.fair is None
    assert ref.steps[None] > 100 and obs.record == g.seats()[0].record
    assert len(g.audits) == players + 1 and g.audits[None].record is not None
    assert len(obs.known) > 10, "Characters and Locations opened to everyone were read (the check bites)"
    if options.get("kings") == "advanced":
        assert len(obs.decks[mp.KINGS].handovers) == sum(range(2, players + 1)), "it followed every hand-over"


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
    ("attack", "victim", "culprit", "why"),
    [
        (_stale_pass_on, 0, 0, "is wrong|again"),  # an old strip opens nothing after the hand-over
        # A strip in another seat's name: its signature names its sender (the round would not have asked
        # the receiver for one either).
        (_receiver_strips, 1, 1, "another seat's strip"),
        (_forged_handover, 2, 2, "changes the card"),  # seat 3 drafts first (last in turn order)
        (_keeps_two, 2, 2, "handed on 2 of the 4"),
    ],
)
async def test_a_dishonest_hand_over_in_the_draft_names_its_seat_at_once(
    attack: Any, victim: int, culprit: int, why: str
) -> None:
    """A seat's program rewrites what it sends in the draft (signed with its own key). The table has no
    seat in the host's process (`coldwater serve`'s), so any seat's program may be the cheat."""
    g = await play_fair(AQ, ["open"] * 3, options=ADVANCED, tamper={victim: attack(victim)}, strip_timeout=1.0)
    res = g.host.result
    assert res is not None and res.forfeit == [culprit], res
    assert any(re.search(why, p) for p in [res.outcome, *res.problems]), res.problems
    for p in g.peers:
        if p.seat != culprit:
            assert p.result is not None and p.result.forfeit == [culprit], (p.result, p.problems)
    obs = g.observer
    assert obs is not None and obs.view.ply < 60, "caught in the draft, at once"


def _swap(seat: int, deck: str) -> Tamper:
    def t(round_: str, ply: int, msg: Any) -> Any:
        if round_ == "pass" and isinstance(msg, ShuffledDeck) and msg.seat == seat and msg.deck == deck:
            cards = list(msg.cards)
            cards[0], cards[-1] = cards[-1], cards[0]  # not the permutation its secrets will reveal
            return ShuffledDeck(msg.deck, msg.seat, tuple(cards))
        return msg

    return t


@pytest.mark.parametrize("deck", [mp.CHARACTERS, mp.KINGS])
async def test_a_card_swapped_in_a_shuffle_is_caught_at_the_end_naming_the_seat(deck: str) -> None:
    """The merged Character deck (reshuffled mid-setup) and the King draft: a swap goes unseen
    in play (a permutation of valid cards) and the end-of-game audit names the shuffler."""
    g = await play_fair(AQ, 3, options=ADVANCED, tamper={1: _swap(1, deck)})
    for a in (g.audits[0], g.audits[2]):  # every honest seat (the cheat's own copy of its pass is honest)
        assert not a.ok and list(a.culprits) == [1], a.problems
        assert any(deck in p and "seat 2" in p for p in a.problems)
    assert g.host.result is not None and not g.host.result.audit_ok


def _copy(fs: FairSeat) -> FairSeat:
    """A copy of a seat's process as it is now (from its save, every message taken again)."""
    return FairSeat.restore(AQ, msgspec.msgpack.decode(msgspec.msgpack.encode(fs.save()), type=FairSave))


def _copies_when(cond: Any, got: dict[int, FairSeat]) -> Looker:
    """A copy of each seat's process at its first step after which `cond(seat)` holds (a public fact of
    the game, so every seat meets it at the same ply); the game stops once every seat's is taken."""

    def look(g: FairGame, drv: FairDriver) -> None:
        fs = drv.fs
        if fs.seat is not None and fs.seat not in got and cond(fs):
            got[fs.seat] = _copy(fs)
            if len(got) == fs.players:
                g.stop()

    return look


async def test_a_namer_cannot_open_a_card_of_another_hand_or_a_king_it_does_not_hold() -> None:
    # Who picks last in the draft comes from a public draw (fresh chain secrets each run), and a
    # seat may already have played its King when the draft's last pick is made: take the first
    # table where seats 2 and 3 both hold their King in their own view once the draft is over.
    for _attempt in range(20):
        seats: dict[int, FairSeat] = {}
        await play_fair(AQ, 3, options=ADVANCED, looker=_copies_when(lambda fs: len(_slots(fs).king_of) == 3, seats))
        assert len({s.view.ply for s in seats.values()}) == 1, "every seat's copy at the draft's end"
        if all(any(c >= KING_BASE for c in seats[s].view.data.ps[s].hand) for s in (1, 2)):
            break
    else:
        pytest.fail("no table in 20 where seats 2 and 3 still held their Kings after the draft")
    other = seats[0]
    king = next(i for i, c in enumerate(seats[1].view.data.ps[1].hand) if c >= KING_BASE)
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
    stolen = seats[2]._named(("hand", 2, len(seats[2].view.data.ps[2].hand) - 1), -1).strip
    assert stolen is not None
    with pytest.raises(FairDealError) as e:
        other._take_named(1, Named(1, ("hand", 1, king), stolen))
    assert list(e.value.culprits) == [1]
    assert other.view.digest() == before


async def test_a_seat_saved_mid_draft_comes_back_from_its_save() -> None:
    logs: dict[int, bytes] = {}
    got: dict[str, FairSeat] = {}

    def look(g: FairGame, drv: FairDriver) -> None:
        fs = drv.fs
        if fs.seat is None or fs.seat in logs or len(_slots(fs).king_of) < 2:
            return
        logs[fs.seat] = msgspec.msgpack.encode(fs.save().log)  # every seat's at the same ply
        if fs.seat == 2:
            sv = msgspec.msgpack.decode(msgspec.msgpack.encode(fs.save()), type=FairSave)
            back = FairSeat.restore(AQ, sv)
            assert back.view.digest() == fs.view.digest() and back.known == fs.known
            assert _slots(back).draft == _slots(fs).draft
            # The seat's process carries on from its save: the restored seat plays the rest of the game.
            got["back"] = drv.fs = back

    g, _ = await play(4, ADVANCED, also=look)
    assert sorted(logs) == [0, 1, 2, 3] and len(set(logs.values())) == 1  # the public transcript
    restored = g.peer_of(2).fair_peer.fair
    assert restored is not None and restored.fs is got["back"]
    audits = list(g.audits.values())
    assert len(audits) == 4 and all(a.ok for a in audits) and len({a.full.digest() for a in audits}) == 1


async def _first_pick() -> tuple[dict[int, FairSeat], Any, Word]:
    """Every seat's process copied at the draft's first pick (seat 3's), the pick, and seat 3's honest
    word for it (handing over every King it passes on)."""
    seats: dict[int, FairSeat] = {}
    await play_fair(AQ, 3, options=ADVANCED, looker=_copies_when(lambda fs: isinstance(fs.node(), int), seats))
    picker = seats[0].node()
    assert picker == 2 and seats[2].view.data.draft_order[0] == 2  # the first pick of the draft
    action = AQ.bot("greedy").choose(seats[2].view, Rng(b"draft").fork(0))
    mine = seats[2]
    mine._open_action(action)
    real = mine.word(action)
    assert real is not None and all(n.handover is not None for n in real.named)
    return seats, action, real


def _took_word(fs: FairSeat, action: Any, word: Word) -> FairSeat:
    """A fresh copy of `fs`'s process that has taken the pick's (public) openings and the picker's word."""
    out = FairSeat.restore(AQ, fs.save())
    out._open_action(action)
    out.take_act_strips([])
    out.take_words({word.seat: word})
    return out


async def test_a_pass_on_strip_from_the_receiver_is_refused_naming_it() -> None:
    """A King handed over is opened to its receiver alone: every seat but the receiver strips it, and
    a strip of it from the receiver is no part of the round. The receiver's own program signs such a
    strip with its own key, so over the wire its sender is its seat; this is the seat's own check
    (``take_passed``, and ``check_strips`` as strips arrive), reached directly with no relay."""
    seats, action, real = await _first_pick()
    probe = _took_word(seats[0], action, real)
    handed = {w: to for w, to, _, _ in probe._passing}
    assert handed and len(set(handed.values())) == 1, handed  # every King passed on goes to the next drafter
    receiver = next(iter(handed.values()))
    assert receiver != 2
    # The receiver's own strip of a King handed to it (its real layer, proof and all).
    by_receiver = _took_word(seats[receiver], action, real)
    w = next(iter(handed))
    own = by_receiver._my_strip(*w)
    taker = next(s for s in (0, 1) if s != receiver)  # a seat that strips the Kings itself
    for check in ("check_strips", "take_passed"):
        fs = _took_word(seats[taker], action, real)
        before, layers = fs.view.digest(), {k: dict(v) for k, v in fs.layers.items()}
        honest = _took_word(seats[2], action, real).pass_strips()  # the picker's, which the round asks for
        assert honest
        with pytest.raises(FairDealError, match="does not ask of it") as e:
            getattr(fs, check)([own])
        assert list(e.value.culprits) == [receiver], e.value
        with pytest.raises(FairDealError, match="does not ask of it") as e:
            getattr(fs, check)([*honest, own])  # among the honest strips too: all or nothing
        assert list(e.value.culprits) == [receiver], e.value
        assert fs.view.digest() == before and fs.layers == layers, "nothing taken"


async def test_a_malformed_hand_over_is_refused_naming_the_picker() -> None:
    seats, action, real = await _first_pick()
    h = real.named[0].handover
    assert h is not None
    first = seats[0].save()
    other = FairSeat.restore(AQ, first)  # a fresh copy of seat 1's process for each case
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
        fresh = FairSeat.restore(AQ, first)
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
