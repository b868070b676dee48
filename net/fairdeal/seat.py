"""One process's side of a table dealt by the fair dealer (docs/fairplay.md "The session").

One module of ~800 lines, on purpose: :class:`FairSeat` is one state machine, and what is
left here is only that machine. Every round reads and writes the same state — the decks as
this seat follows them, the layers received per deck position, the labels it has read, the
slot map and its own view — and a round's checks are the transitions themselves (a strip is
taken only if the round in progress asks it of that seat; a word only if its namer holds the
slot in this view), so a module per round would pass all of that state between modules and
each would need the others' invariants. A save is replayed through the same methods, with
every check. What does not touch that state has its own module: the save's format
(:mod:`.save`), the end-of-game audit and replay (:mod:`.gameaudit`, from the decks and the
public record once every key is out), the messages (:mod:`.wire`) and the cryptography
(:mod:`.deck`).

A :class:`FairSeat` is what every process at such a table runs, the host's
included: it holds its seat's key, every deck as it follows it, and **only its
own view**, which it advances itself (``apply_seen``). It never holds another
seat's sealed value before the rules show it: a value reaches it only as strips
that open a deck position to it (or to everyone).

An **observer** (``seat=None``: a host with no seat and no bot in its process) is
the same object with no seat: no key, no layer, no chain. It sends nothing and no
round waits for it; it takes every seat's messages, checks them as a seat does,
and advances the public view (``view(None)``). Having no layer, it can read only
what every seat has stripped, that is, what is open to everyone.

The table proceeds in rounds; each method below is one process's part of one
round and returns the messages it sends (every message of this protocol may be
broadcast, docs/fairplay.md), or takes what the others sent. Who relays the
messages (the LAN host, over TCP or the in-memory network) is not this module's concern:

1. keys: :meth:`key_share`, then :meth:`take_keys` with every seat's;
2. setup: for each deck in :meth:`pending_decks`, in seat order,
   :meth:`make_pass` by the seat whose pass is due, :meth:`take_pass` at the
   others (a deck formed again from a public discard, or merged from what
   others left, adds a deck mid-game, same round);
3. each ply, by :meth:`node`:
   - a beacon draw: :meth:`take_public` with the outcome;
   - a deck draw: :meth:`deal_strips`, then :meth:`take_deal` with every
     seat's strips (each peer builds the outcome as it may know it);
   - a player's action: :meth:`act_strips` (the public openings), then
     :meth:`word` (a namer's word), :meth:`take_words`; if a word handed cards
     over (a card passed on to one seat), :meth:`pass_strips` from every seat but
     the receiver; then :meth:`take_act` with them all;
4. at the end: :meth:`key_reveal`, then :meth:`audit` with every seat's.

**The slot map**: which deck position each sealed value on the table came from,
kept from public steps alone. What it is, like the decks and which draws are
public, is the game's own declaration (``Game.dealing``: a
:class:`~coldwater.core.dealing.SlotMap` from core/dealing.py), so this module
knows no game: it does the cryptography and checks every seat's word against it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import msgspec

from coldwater.core import games
from coldwater.core.dealing import DealError, Dealing, Position, SlotMap, Where
from coldwater.core.errors import IllegalAction
from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, EVERYONE, Game, Openings, Slot, State

from .. import beacon
from .. import fairplay as fp
from . import mapping
from .deck import Deck, DeckSpec, FairDealError, SeatKey, TableKeys, check_strip, handover, strip
from .gameaudit import FairAudit, audit_game
from .group import Point, Scalar
from .save import ActEntry, DealEntry, Entry, FairSave, KeysEntry, PassEntry, PublicEntry, TipsEntry
from .wire import KeyReveal, KeyShare, Named, PassSecrets, ShuffledDeck, Strip, Word

__all__ = ["WIRED", "FairAudit", "FairSave", "FairSeat"]
"""The seat, and what two of its methods return (:meth:`FairSeat.save`, :meth:`FairSeat.audit`)."""


def _private(name: str) -> bool:
    got = mapping.dealing(name)
    return got is not None and got.private


WIRED: Final = frozenset(n for n in games.names() if _private(n))
"""Games whose LAN tables this dealer can deal: those that declare sealed decks (the others keep
the committed dealer)."""


# ---- one process at the table --------------------------------------------------------------------
class FairSeat:
    """One seat's process at a fair-dealer table: its key, its decks, its own view (see the module doc)."""

    def __init__(
        self,
        game: Game[Any, Any],
        players: int,
        seat: int | None,
        joint: bytes,
        options: object = None,
        *,
        key: SeatKey | None = None,
        chain: beacon.Chain | None = None,
    ) -> None:
        """A seat's process, or with `seat` None an observer (no key, no chain: see the module doc)."""
        dealing = game.dealing
        if dealing is None or not dealing.private:
            raise ValueError(f"the fair dealer is not wired for {game.name} yet (it keeps the committed dealer)")
        self.game = game
        self.dealing: Dealing = dealing
        self.name: str = game.name
        self.players = players
        self.seat = seat
        """This process's seat, or None for an observer (it contributes nothing, reads only what all open)."""
        self.joint = joint
        self.options = options
        # Decks are not shuffled at setup: the opening position is public, computed by everyone.
        start = game.new(players, seed=fp.game_seed(joint), options=options)
        self._specs: list[DeckSpec] = [mapping.spec(c) for c in dealing.decks(start)]
        self.view: State[Any, Any] = start.view(seat)
        # A game that merges decks mid-game does so from the opening's card lists, which are
        # public (nothing is shuffled at setup); any other needs nothing more of the opening.
        self._opening: State[Any, Any] | None = start if dealing.merged else None
        self.slots: SlotMap = dealing.slot_map(start)
        """The game's slot map: where each dealt value this view shows came from."""
        del start
        if seat is None and (key is not None or chain is not None):
            raise ValueError("an observer holds no key and no chain")
        self.key: SeatKey | None = None if seat is None else key if key is not None else SeatKey()
        self.chain: beacon.Chain | None = None if seat is None else chain if chain is not None else beacon.Chain(seat)
        self.book: beacon.Book | None = None
        self.keys: TableKeys | None = None
        self.decks: dict[str, Deck] = {}
        self.order: list[str] = []
        """Deck ids in the order they were formed (the audit and the reveals follow it)."""
        self.secrets: list[PassSecrets] = []
        self.dealt: dict[str, int] = {}
        self.reformed: dict[str, str] = {}
        """A deck family formed again mid-game → the id of its latest deck (plans name the family)."""
        self.layers: dict[Where, dict[int, Point]] = {}
        """Checked layers received per (deck, position, part), by seat."""
        self.known: dict[Where, str] = {}
        """Every label this process has read, with where it came from (never another seat's before it shows)."""
        self.record: list[tuple[str, Any]] = []
        """The public record: ("act", action), ("public", outcome), ("deal", (deck, position))."""
        self._told: Openings | None = None
        self._pending: list[DeckSpec] = []
        self.last: tuple[int, str] = (CHANCE, "")
        """Who made the last step and what it was, as this seat knows it (for the log)."""
        self.last_public = ""
        """The last step as everyone knows it (a drawn piece is "draw")."""
        self.log: list[Entry] = []
        """Every message this seat took, in order (its save)."""
        self._act_strips_in: list[Strip] = []
        self._merged: set[str] = set()
        """Decks formed mid-game from what others left (audited from the ciphertexts they started with)."""
        self._action: Action | None = None
        self._words_taken = False
        self._passing: list[tuple[Where, int, Slot, int]] = []
        """Cards handed over by the action in progress: (where, receiving seat, slot, the seat handing it)."""
        self._passed_in: list[Strip] | None = None
        self._kept: int | None = None
        self._checked: dict[tuple[str, int, int, int, bytes, bytes, bytes, bytes], Point] = {}
        """Strips of the round in progress whose proofs checked as they arrived (:meth:`check_strips`),
        keyed by everything the check read (the ciphertext too: a hand-over replaces it), so that taking
        the round checks each strip once. Emptied at every step."""

    # ---- keys and setup --------------------------------------------------------------------
    @property
    def observer(self) -> bool:
        return self.seat is None

    @property
    def own_seat(self) -> int:
        """This seat's number (an observer has none: FairDealError)."""
        return self._own()[0]

    def _own(self) -> tuple[int, SeatKey]:
        """This seat and its key, for what it contributes (an observer contributes nothing)."""
        if self.seat is None or self.key is None:
            raise FairDealError("an observer of the table holds no key: it sends nothing")
        return self.seat, self.key

    @property
    def own_chain(self) -> beacon.Chain:
        """This seat's beacon hash chain, whose tip it committed in the seed round (an observer has
        none: FairDealError)."""
        if self.chain is None:
            raise FairDealError("an observer of the table holds no beacon chain")
        return self.chain

    def key_share(self) -> KeyShare:
        seat, key = self._own()
        return key.share(self.joint, seat)

    def take_keys(self, shares: Sequence[KeyShare]) -> None:
        keys = TableKeys.from_shares(self.joint, shares)
        mine = self.key is None or (self.seat is not None and keys.keys.get(self.seat) == self.key.public)
        if keys.seats != tuple(range(self.players)) or not mine:
            raise FairDealError("the key round does not hold one key from every seat (this seat's own included)")
        self.keys = keys
        self.log.append(KeysEntry(list(shares)))
        self._pending = list(self._specs)
        for spec in self._specs:
            self._add_deck(spec)

    def _add_deck(self, spec: DeckSpec) -> None:
        self.decks[spec.id] = Deck(spec, self._keys())
        self.order.append(spec.id)
        self.dealt[spec.id] = 0

    def _keys(self) -> TableKeys:
        if self.keys is None:
            raise FairDealError("no key round yet")
        return self.keys

    def pending_decks(self) -> list[str]:
        """Decks still being shuffled, in the order the table shuffles them."""
        return [d for d in self.order if not self.decks[d].ready]

    def make_pass(self, deck: str) -> ShuffledDeck:
        msg, sec = self.decks[deck].my_pass(self._own()[0])
        self.secrets.append(sec)
        self.log.append(PassEntry(msg))
        self._maybe_merge()
        return msg

    def take_pass(self, msg: ShuffledDeck) -> None:
        d = self.decks.get(msg.deck)
        if d is None:
            raise FairDealError(f"seat {msg.seat + 1} shuffled {msg.deck}, which is no deck here", [msg.seat])
        d.receive_pass(msg)
        self.log.append(PassEntry(msg))
        self._maybe_merge()

    def _maybe_merge(self) -> None:
        """Form the deck the next draw needs from what the cut decks left (after their face-down
        discards), once every deck is shuffled; every seat then shuffles it again. Only public
        facts decide it: the plan and how many positions each dealt."""
        if self._opening is None or self.keys is None or self.pending_decks():
            return
        p = self.node()
        if not isinstance(p, mapping.FromDeck) or p.deck in self.decks:
            return
        left = {k: self.decks[k].undealt(self.dealt[k]) for k in self.order}
        spec, start = mapping.merged(self.name, p.deck, self._opening, self.keys.table_key, left)
        self.decks[spec.id] = Deck(spec, self.keys, start=start)
        self.order.append(spec.id)
        self.dealt[spec.id] = 0
        self._merged.add(spec.id)

    # ---- the next ply --------------------------------------------------------------------------
    def node(self) -> mapping.Plan | int | None:
        """What the next ply needs: a chance plan, the seat to act, or None when the game is over."""
        cur = self.view.current
        if cur is None or cur != CHANCE:
            return cur
        p = self.dealing.plan(self.view)
        if isinstance(p, mapping.FromDeck) and p.deck in self.reformed:
            p = mapping.FromDeck(self.reformed[p.deck], p.opens)
        return p

    def link(self) -> bytes:
        """This seat's hash-chain link for the public draw due (docs/fairplay.md, beacons)."""
        if not isinstance(self.node(), mapping.Beacon):
            raise FairDealError(f"no public draw is due at ply {self.view.ply}")
        return self.own_chain.link(beacon.index_of(self.view.ply))

    def take_tips(self, tips: Mapping[int, bytes]) -> None:
        """Every seat's committed chain tip (from the seed round), for checking their links."""
        mine = self.chain is None or (self.seat is not None and tips.get(self.seat) == self.chain.tip)
        if set(tips) != set(range(self.players)) or not mine:
            raise FairDealError("the beacon needs every seat's chain tip, this seat's own included")
        self.book = beacon.Book(tips)
        self.log.append(TipsEntry(dict(tips)))

    def take_public(self, links: Mapping[int, bytes]) -> None:
        """A public draw from every seat's link: each checked onto its chain (a bad one names its seat),
        the outcome drawn here from this view; nobody chose it."""
        if not isinstance(self.node(), mapping.Beacon):
            raise FairDealError(f"a public draw offered at ply {self.view.ply}, where none is due")
        if self.book is None:
            raise FairDealError("no chain tips yet")
        missing = [s for s in range(self.players) if s not in links]
        if missing:
            raise FairDealError(f"no beacon link from seat(s) {', '.join(str(s + 1) for s in missing)}", missing)
        try:
            self.book.accept(self.view.ply, links)
        except beacon.BeaconError as e:
            raise FairDealError(str(e), [e.seat]) from None
        # Drawn from what every seat knows as the slot map keeps it (a view may blank a pool drawn from).
        key = Rng(beacon.draw_key(self.joint, self.view.ply, links))
        outcome = self.slots.public_state(self.view).sample_chance(key)
        self._advance(outcome, None)
        self.record.append(("public", outcome))
        self.log.append(PublicEntry(dict(links)))

    def _draw_here(self) -> tuple[mapping.FromDeck, int]:
        p = self.node()
        if not isinstance(p, mapping.FromDeck):
            raise FairDealError(f"no deck draw is due at ply {self.view.ply}")
        pos = self.dealt[p.deck]
        if pos >= self.decks[p.deck].size:
            raise FairDealError(f"{p.deck} ran out")
        return p, pos

    def deal_strips(self) -> list[Strip]:
        """This seat's strips for the deck draw due: every part opened to everyone, or to another seat."""
        p, pos = self._draw_here()
        return [
            self._my_strip(p.deck, pos, part)
            for part, to in enumerate(p.opens)
            if to == mapping.ALL or (to >= 0 and to != self.seat)
        ]

    def owed(self) -> set[tuple[int, str, int, int]]:
        """(seat, deck, position, part) of every strip the round in progress awaits (the host's timer uses it)."""
        out: set[tuple[int, str, int, int]] = set()
        if self._told is not None and self._words_taken:
            for w, to, _, _ in self._passing:
                have = self.layers.get(w, {})
                out |= {(s, *w) for s in range(self.players) if s != to and s not in have}
            return out
        if self._told is not None:
            for o in self._told.public:
                deck, pos, part = self._where(o.slot)
                have = self.layers.get((deck, pos, part), {})
                out |= {(s, deck, pos, part) for s in range(self.players) if s != o.to and s not in have}
            return out
        p = self.node()
        if isinstance(p, mapping.FromDeck):
            pos = self.dealt[p.deck]
            for part, to in enumerate(p.opens):
                if to != mapping.NOBODY:
                    have = self.layers.get((p.deck, pos, part), {})
                    out |= {(s, p.deck, pos, part) for s in range(self.players) if s != to and s not in have}
        return out

    def check_strips(self, strips: Sequence[Strip]) -> None:
        """Check strips for the round in progress as they arrive, recording nothing; those that check are
        not checked again when the round is taken (so only the last to arrive is checked after it)."""
        if self._told is not None and self._words_taken:
            self._check_passed(strips, record=False)
        elif self._told is not None:
            self._act_strips(strips, record=False)
        else:
            self._deal_strips(strips, record=False)

    def _deal_strips(self, strips: Sequence[Strip], *, record: bool) -> tuple[mapping.FromDeck, int]:
        p, pos = self._draw_here()
        for st in strips:
            to = p.opens[st.part] if st.part < len(p.opens) else mapping.NOBODY
            if to == mapping.NOBODY or to == st.seat:
                raise FairDealError(f"seat {st.seat + 1} sent a strip this deal does not ask of it", [st.seat])
        self._take_strips(p.deck, pos, strips, record=record)
        return p, pos

    def take_deal(self, strips: Sequence[Strip]) -> None:
        """Every seat's strips for the due draw, checked (a wrong one names its seat); then the outcome as seen here."""
        p, pos = self._deal_strips(strips, record=True)
        labels: list[str | None] = []
        for part, to in enumerate(p.opens):
            labels.append(self._read(p.deck, pos, part) if to in (mapping.ALL, self.seat) else None)
        self.dealt[p.deck] = pos + 1
        seen_by_all = [label if to == mapping.ALL else None for label, to in zip(labels, p.opens)]
        with mapping.checked_by_the_game():
            mine, public = self.dealing.outcome(p.deck, labels), self.dealing.outcome(p.deck, seen_by_all)
        self._advance(mine, (p.deck, pos), public)
        self.record.append(("deal", (p.deck, pos)))
        self.log.append(DealEntry(list(strips)))

    # ---- a player's action ---------------------------------------------------------------------
    def act_strips(self, action: Action) -> list[Strip]:
        """The public openings `action` makes (the same from every view): this seat's strips for them."""
        told = self._open_action(action)
        out: list[Strip] = []
        if self.observer:
            return out  # it follows the openings, and strips none
        for o in told.public:
            deck, pos, part = self._where(o.slot)
            if o.to != self.seat and self.seat not in self.layers.get((deck, pos, part), {}):
                out.append(self._my_strip(deck, pos, part))
        return out

    def _open_action(self, action: Action) -> Openings:
        if self.view.current in (None, CHANCE):
            raise FairDealError(f"no player's action is due at ply {self.view.ply}")
        told: Openings = self.view.opens(action, self.seat)
        self._told = told
        self._action = action
        self._words_taken = False
        self._passing = []
        self._passed_in = None
        self._kept = None
        return told

    def take_act_strips(self, strips: Sequence[Strip]) -> None:
        """The strips of the public openings: checked, and the values opened to this seat revealed."""
        told = self._act_strips(strips, record=True)
        self._act_strips_in = list(strips)
        for o in told.public:
            if o.to in (EVERYONE, self.seat):
                deck, pos, part = self._where(o.slot)
                self.view.reveal(o.slot, self._value(o.slot, self._read(deck, pos, part)))

    def _act_strips(self, strips: Sequence[Strip], *, record: bool) -> Openings:
        told = self._told_now()
        owed = {(*self._where(o.slot), o.to) for o in told.public}
        for st in strips:
            if not any((st.deck, st.position, st.part) == w[:3] and st.seat != w[3] for w in owed):
                raise FairDealError(f"seat {st.seat + 1} sent a strip this action does not open", [st.seat])
        by_card: dict[Position, list[Strip]] = {}
        for st in strips:
            by_card.setdefault((st.deck, st.position), []).append(st)
        for (deck, pos), group in by_card.items():
            self._take_strips(deck, pos, group, record=record)
        return told

    def word(self, action: Action) -> Word | None:
        """A namer's word: what its own view says `action` opens besides (None if this seat names nothing)."""
        told = self._told_now()
        seat = self.seat
        if seat is None or seat not in told.namers:
            return None
        mine = self.view.opens(action, seat).named
        return Word(seat, self.view.ply, tuple(self._named(o.slot, o.to) for o in mine))

    def take_words(self, words: Mapping[int, Word]) -> None:
        """Every namer's word, checked (a wrong strip, a slot not its own or a bad hand-over names it).

        A word that hands cards over (to one other seat: ``SlotMap.receiver``) leaves
        a third round to the action: :meth:`pass_strips` at every seat, then :meth:`take_act`
        with them. Taking the same words again changes nothing."""
        told = self._told_now()
        if self._words_taken:
            return
        for namer in told.namers:
            w = words.get(namer)
            if w is None or w.seat != namer or w.ply != self.view.ply:
                raise FairDealError(f"seat {namer + 1} did not say what its action opens", [namer])
            for n in w.named:
                if n.handover is not None:
                    self._take_handover(namer, n)
                else:
                    self._take_named(namer, n)
        self._check_passed_on()
        self._words_taken = True

    def take_act(self, action: Action, words: Mapping[int, Word], passed: Sequence[Strip] = ()) -> None:
        """Every namer's word (:meth:`take_words`), the strips of what it handed over, then the action itself."""
        told = self._told_now()
        self.take_words(words)
        if self._passed_in is None:
            self.take_passed(passed)
        self._told = None
        self._advance(action, None, kept=self._kept)
        self.record.append(("act", action))
        self.log.append(
            ActEntry(str(action), self._act_strips_in, [words[n] for n in told.namers], list(self._passed_in or ()))
        )
        self._act_strips_in = []
        self._passing = []
        self._passed_in = None
        self._words_taken = False
        self._action = None

    # ---- naming and hand-overs --------------------------------------------------------------------
    def _named(self, slot: Slot, to: int) -> Named:
        """This seat's word for one slot its view names: a strip, a hand-over, or the slot alone."""
        seat, key = self._own()
        with mapping.checked_by_the_game():
            srcs = self.slots.sources(slot)
        if to != EVERYONE:  # passed on to one seat: re-randomized, so the strips already public cannot open it
            if not self.slots.hands_over:
                raise FairDealError(f"{self.name} names {slot} to one seat, which needs a hand-over (not wired)")
            if srcs is None or len(srcs) != 1:
                raise FairDealError(f"{slot} is not one dealt {self.slots.handed} to hand over")
            deck, pos, part = srcs[0]
            h = handover(self._keys(), key, seat, deck, pos, part, self.decks[deck].ct(pos, part))
            return Named(seat, tuple(slot), None, h)
        if srcs is None:
            return Named(seat, tuple(slot))  # dealt in the open: nothing to strip
        with mapping.checked_by_the_game():
            label = self.slots.expected(slot)
        held = [w for w in srcs if label is None or self.known.get(w) == label]
        if not held:
            raise FairDealError(f"this seat never read the card at {slot}")
        w = held[0]
        if seat in self.layers.get(w, {}) or self._open_to_all(*w):
            return Named(seat, tuple(slot))
        return Named(seat, tuple(slot), self._my_strip(*w))

    def _take_handover(self, namer: int, n: Named) -> None:
        slot: Slot = tuple(n.slot)
        h = n.handover
        to = None
        if h is not None and self._action is not None and self.slots.hands_over:
            to = self.slots.receiver(self.view, self._action, namer, slot)
        if h is None or to is None:
            raise FairDealError(f"seat {namer + 1} hands over {slot}, which this action passes to nobody", [namer])
        try:
            srcs = self.slots.sources(slot)
            ((deck, pos, part),) = srcs or ()
        except (DealError, TypeError, ValueError) as e:
            raise FairDealError(
                f"seat {namer + 1} hands over {slot}, which holds no {self.slots.handed}: {e}", [namer]
            ) from None
        if any(p[2] == slot for p in self._passing):
            raise FairDealError(f"seat {namer + 1} hands over {slot} twice", [namer])
        if h.seat != namer or (h.deck, h.position, h.part) != (deck, pos, part):
            raise FairDealError(f"seat {namer + 1}'s hand-over of {slot} is not of the card there", [namer])
        self.decks[deck].receive_handover(h)  # its proof: the same card, re-randomized (else names the seat)
        self.layers.pop((deck, pos, part), None)  # the old ciphertext's layers open nothing now
        self._passing.append(((deck, pos, part), to, slot, namer))

    def _check_passed_on(self) -> None:
        """What the actor kept, from what it handed over (the slot map checks that it handed on the rest)."""
        if self._action is None or not self.slots.hands_over:
            return
        with mapping.checked_by_the_game():
            self._kept = self.slots.kept(self.view, self._action, [p[2] for p in self._passing])

    def pass_owing(self) -> list[int]:
        """The seats that strip the cards the words just taken handed over (every seat but each receiver)."""
        return sorted({s for _, to, _, _ in self._passing for s in range(self.players) if s != to})

    def pass_strips(self) -> list[Strip]:
        """This seat's strips of the cards just handed over to another seat (the action's third round)."""
        if not self._words_taken:
            raise FairDealError("no word has handed anything over yet")
        return [self._my_strip(*w) for w, to, _, _ in self._passing if to != self.seat]

    def _check_passed(self, strips: Sequence[Strip], *, record: bool) -> None:
        want = {w: to for w, to, _, _ in self._passing}
        by_card: dict[Position, list[Strip]] = {}
        for st in strips:
            to = want.get((st.deck, st.position, st.part))
            if to is None or to == st.seat:
                raise FairDealError(f"seat {st.seat + 1} sent a strip this hand-over does not ask of it", [st.seat])
            by_card.setdefault((st.deck, st.position), []).append(st)
        for (deck, pos), group in by_card.items():
            self._take_strips(deck, pos, group, record=record)

    def take_passed(self, strips: Sequence[Strip]) -> None:
        """The strips of the cards handed over, checked; the receiver reads them into its view."""
        if not self._words_taken:
            raise FairDealError("no word has handed anything over yet")
        self._check_passed(strips, record=True)
        late = sorted(
            {
                s
                for w, to, _, _ in self._passing
                for s in range(self.players)
                if s != to and s not in self.layers.get(w, {})
            }
        )
        if late:
            who = ", ".join(str(s + 1) for s in late)
            raise FairDealError(f"seat(s) {who} withheld a strip of a card handed over", late)
        for w, to, slot, giver in self._passing:
            if to != self.seat or self._action is None:
                continue
            label = self._read(*w)
            with mapping.checked_by_the_game():
                self.slots.check_received(self.view, self._action, label)
            try:
                self.view.reveal(slot, self.slots.value(slot, label))
            except IllegalAction as e:
                raise FairDealError(f"seat {giver + 1} handed over {slot}: {e}", [giver]) from None
        self._passed_in = list(strips)

    def _take_named(self, namer: int, n: Named) -> None:
        """A namer opens a value its seat holds to everyone: from a deck position the slot map says it
        may hold (the card the public record puts there, where it says), opened by its strip or
        open already."""
        slot: Slot = tuple(n.slot)

        def bad(why: str) -> FairDealError:
            return FairDealError(f"seat {namer + 1} names {slot}: {why}", [namer])

        why = self.slots.may_name(slot, namer)
        if why is not None:
            raise bad(why)
        try:
            srcs = self.slots.sources(slot)
            expected = self.slots.expected(slot)
        except (DealError, IllegalAction, IndexError, TypeError) as e:
            raise FairDealError(f"seat {namer + 1} names {slot}, which holds no dealt card: {e}", [namer]) from None
        if srcs is None:  # dealt in the open: the public record says what it is
            if n.strip is not None:
                raise bad("it was dealt in the open, there is nothing to strip")
            if expected is None:
                raise bad("nobody can tell what it is")
            label = expected
        else:
            cands = srcs
            if n.strip is not None:
                if n.strip.seat != namer:
                    raise FairDealError(f"seat {namer + 1} sent seat {n.strip.seat + 1}'s strip as its own", [namer])
                w = (n.strip.deck, n.strip.position, n.strip.part)
                if w not in srcs:
                    raise bad(f"its strip is of {w[0]} position {w[1]}, no card its seat holds")
                self._take_strips(w[0], w[1], [n.strip])
                cands = (w,)
            opened = [w for w in cands if self._open_to_all(*w)]
            if not opened:
                if n.strip is None:
                    raise bad("it is not open to everyone and comes without a strip")
                raise FairDealError(f"seat {namer + 1} names {slot} without opening it", [namer])
            if expected is None:
                label = self._read(*opened[0])
            elif any(self._read(*w) == expected for w in opened):
                label = expected
            elif n.strip is not None:
                raise bad("its strip opens another card than the one its hand holds")
            else:
                raise bad("it is not open to everyone and comes without a strip")
        try:
            self.view.reveal(slot, self.slots.value(slot, label))
        except IllegalAction as e:
            raise bad(str(e)) from None

    @property
    def told(self) -> Openings | None:
        """The openings of the player's action being opened (from :meth:`act_strips` or
        :meth:`take_act_strips` until :meth:`take_act`): which seats strip, which name; None between actions."""
        return self._told

    def _told_now(self) -> Openings:
        if self._told is None:
            raise FairDealError("no action is being opened")
        return self._told

    # ---- strips and reading ------------------------------------------------------------------------
    def _where(self, slot: Slot) -> Where:
        """The one deck part a slot's value came from (a public opening names no other)."""
        with mapping.checked_by_the_game():
            srcs = self.slots.sources(slot)
        if srcs is None or len(srcs) != 1:
            raise FairDealError(f"no single dealt card at {slot}")
        return srcs[0]

    def _value(self, slot: Slot, label: str) -> object:
        return self.slots.value(slot, label)

    def _open_to_all(self, deck: str, pos: int, part: int) -> bool:
        return len(self.layers.get((deck, pos, part), {})) == self.players

    def _my_strip(self, deck: str, pos: int, part: int) -> Strip:
        """This seat's strip of a position, recorded as given (its relayed copy is then skipped)."""
        seat, key = self._own()
        d = self.decks[deck]
        ct = d.ct(pos, part)
        s = strip(self._keys(), key, seat, deck, pos, part, ct)
        self.layers.setdefault((deck, pos, part), {})[seat] = Point(s.share)
        d.strips.append((ct, s))
        return s

    def _take_strips(self, deck: str, pos: int, strips: Iterable[Strip], *, record: bool = True) -> None:
        """Check every strip (the first wrong one names its seat), then record them all: all or nothing."""
        d = self.decks.get(deck)
        new: dict[tuple[int, int], Point] = {}
        for s in strips:
            if d is None or s.deck != deck or s.position != pos:
                raise FairDealError(f"seat {s.seat + 1} sent a strip of {s.deck} position {s.position} here", [s.seat])
            have = self.layers.get((deck, pos, s.part), {})
            if s.seat in have and s.seat == self.seat and have[s.seat].raw == s.share:
                continue  # this seat's own strip, relayed back to it
            if s.seat in have or (s.part, s.seat) in new:
                raise FairDealError(f"seat {s.seat + 1} stripped {deck} position {pos} again (a replay)", [s.seat])
            ct = d.ct(pos, s.part)
            seen = (deck, pos, s.part, s.seat, ct.c1, s.share, s.proof.c, s.proof.z)
            layer = self._checked.get(seen)
            if layer is None:
                layer = check_strip(self._keys(), deck, pos, s.part, ct, s)
                if not record:
                    self._checked[seen] = layer
            new[(s.part, s.seat)] = layer
        if d is None or not record:
            return
        for s in strips:
            if (s.part, s.seat) in new:
                self.layers.setdefault((deck, pos, s.part), {})[s.seat] = new[(s.part, s.seat)]
                d.strips.append((d.ct(pos, s.part), s))

    def _read(self, deck: str, pos: int, part: int) -> str:
        """The label at a position this seat may read: every layer received, its own added if missing."""
        got = self.known.get((deck, pos, part))
        if got is not None:
            return got
        d = self.decks[deck]
        ct = d.ct(pos, part)
        have = dict(self.layers.get((deck, pos, part), {}))
        if self.seat is not None and self.key is not None and self.seat not in have:
            have[self.seat] = Point(ct.c1) * self.key.secret  # (an observer has no layer: all must be in)
        missing = [s for s in range(self.players) if s not in have]
        if missing:
            raise FairDealError(
                f"{deck} position {pos}: no strip from seat(s) {', '.join(str(s + 1) for s in missing)}", missing
            )
        m = Point(ct.c2)
        for s in range(self.players):
            m = m - have[s]
        label = d.spec.lookup(part, m)
        if label is None:
            raise FairDealError(f"{deck} position {pos} part {part} is not a card of the deck (a bad shuffle)")
        self.known[(deck, pos, part)] = label
        return label

    # ---- advancing the view ----------------------------------------------------------------------------
    def _advance(
        self, action: Action, drawn: Position | None, public: Action | None = None, *, kept: int | None = None
    ) -> None:
        """Take one step: `action` as this seat knows it, `public` as everyone does (the same if None)."""
        who = self.view.current
        seen = public if public is not None else action
        self._checked.clear()
        try:
            with mapping.checked_by_the_game():
                reform = self.slots.step(self.view, action, seen, self.seat, drawn, kept)
            self.view.apply_seen(action, self.seat)
        except IllegalAction as e:
            raise FairDealError(f"'{action}' cannot be applied at ply {self.view.ply}: {e}") from None
        self._maybe_merge()
        assert who is not None  # the action just applied was someone's (a finished game takes none)
        self.last = (who, str(action))
        self.last_public = str(seen)
        if reform is not None:  # a deck formed again from a public discard: a fresh deck, shuffled by all
            n = sum(1 for d in self.order if d.startswith(reform.family))
            self.reformed[reform.family] = f"{reform.family}/{n}"
            self._add_deck(DeckSpec(self.reformed[reform.family], reform.cards, reform.family))

    def public_digest(self) -> bytes:
        return fp.public_digest(self.view)

    # ---- saving and coming back -----------------------------------------------------------------
    def save(self) -> FairSave:
        seat, key = self._own()  # (an observer keeps no save: it has nothing to come back to)
        opts = msgspec.to_builtins(self.options) if self.options is not None else None
        return FairSave(
            game=self.name,
            players=self.players,
            seat=seat,
            joint=self.joint,
            options=opts,
            secret=key.secret.raw,
            chain_end=self.own_chain.end,
            secrets=list(self.secrets),
            log=list(self.log),
        )

    @classmethod
    def restore(cls, game: Game[Any, Any], sv: FairSave) -> FairSeat:
        """The seat as it was when saved: every message in the save taken again, with every check."""
        if sv.game != game.name:
            raise FairDealError(f"this save is of a {sv.game} table, not {game.name}")
        key = SeatKey(Scalar.decode(sv.secret, "the saved key"))
        seat = cls(game, sv.players, sv.seat, sv.joint, sv.options, key=key, chain=beacon.Chain(sv.seat, sv.chain_end))
        seat.secrets = list(sv.secrets)
        for e in sv.log:
            if isinstance(e, KeysEntry):
                seat.take_keys(e.shares)
            elif isinstance(e, TipsEntry):
                seat.take_tips(e.tips)
            elif isinstance(e, PassEntry):
                seat.take_pass(e.msg)  # its own pass too: a pass is taken the same whoever made it
            elif isinstance(e, PublicEntry):
                seat.take_public(e.links)
            elif isinstance(e, DealEntry):
                seat.take_deal(e.strips)
            else:
                action = game.parse_action(e.action)
                seat._open_action(action)
                seat.take_act_strips(e.strips)
                seat.take_act(action, {w.seat: w for w in e.words}, e.passed)
        return seat

    # ---- the end ---------------------------------------------------------------------------------------------
    def key_reveal(self) -> KeyReveal:
        if self.view.current is not None:
            raise FairDealError("keys are revealed only once the game is over")
        seat, key = self._own()
        return KeyReveal(seat, key.secret.raw, tuple(self.secrets))

    def audit(self, reveals: Mapping[int, KeyReveal]) -> FairAudit:
        """Every deck audited from every seat's revealed key and passes, the game replayed in full from
        them, this seat's own view checked against the replay's (:func:`~.gameaudit.audit_game`)."""
        return audit_game(
            self.game,
            self.players,
            self.joint,
            self.options,
            seat=self.seat,
            view=self.view,
            keys=self._keys(),
            decks=[self.decks[d] for d in self.order],
            merged=self._merged,
            known=self.known,
            public=self.record,
            reveals=reveals,
        )
