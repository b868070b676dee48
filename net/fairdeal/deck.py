"""Decks of encrypted cards: encode, shuffle-and-encrypt passes, strips, openings, hand-overs.

The protocol is docs/fairplay.md. In short: a card part with label ``l`` is the
point ``M = H(deck, part, l)``; it travels as ElGamal ``(c1, c2) = (r·G, M + r·X)``
under the table key ``X = Σ X_j``; each seat's pass permutes the deck and
re-randomizes every part; a seat's *strip* of a ciphertext is its layer
``x_j·c1`` with a Chaum–Pedersen proof; ``M = c2 − Σ_j x_j·c1``.

Every function that takes something another seat sent checks it completely and
raises :class:`FairDealError` naming that seat, before changing anything.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..fairplay import FairPlayError
from . import proofs
from .group import GroupError, Point, Scalar, hash_to_point
from .wire import MAX_CARDS, MAX_PARTS, Card, Ct, Handover, KeyShare, PassSecrets, ShuffledDeck, Strip


class FairDealError(FairPlayError):
    """A private-deal check failed; ``culprits`` names the seat(s) whose message was wrong."""


# ---- cards -------------------------------------------------------------------------------------
def card_point(family: str, part: int, label: str) -> Point:
    """The group element of `label` in `part` of a card `family` (no one knows its log: it is a hash)."""
    return hash_to_point(b"cw-card1", family.encode(), part.to_bytes(1, "big"), label.encode())


@dataclass(frozen=True)
class DeckSpec:
    """A deck's id and, for each card, one label per part (``("pike", "17")``: species, card id).

    The id must be unique at the table (a reshuffle gets a new id), since proofs
    are bound to it. Labels may repeat (a species shown on the back of a card
    is every such card's public part; a stack of six alike pieces): ElGamal encrypts equal cards to
    unrelated ciphertexts, so repeats leak nothing. Cards are encoded under their
    `family` (default: the id), so decks cut from one another and merged again
    (a deck cut at setup, discarded from, then shuffled with cards public till then) share
    one encoding.
    """

    id: str
    cards: tuple[tuple[str, ...], ...]
    family: str = ""
    _points: tuple[dict[Point, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0 < len(self.cards) <= MAX_CARDS:
            raise ValueError(f"deck {self.id!r}: {len(self.cards)} cards (1 to {MAX_CARDS})")
        parts = len(self.cards[0])
        if not 0 < parts <= MAX_PARTS or any(len(c) != parts for c in self.cards):
            raise ValueError(f"deck {self.id!r}: every card needs the same number of parts (1 to {MAX_PARTS})")
        points: tuple[dict[Point, str], ...] = tuple({} for _ in range(parts))
        for card in self.cards:
            for p, label in enumerate(card):
                points[p].setdefault(card_point(self.encoding, p, label), label)
        object.__setattr__(self, "_points", points)

    @property
    def parts(self) -> int:
        return len(self.cards[0])

    @property
    def encoding(self) -> str:
        return self.family or self.id

    def point(self, card: int, part: int) -> Point:
        return card_point(self.encoding, part, self.cards[card][part])

    def lookup(self, part: int, m: Point) -> str | None:
        """The label whose point is `m` in `part`, or None if `m` is no card of this deck."""
        return self._points[part].get(m)


# ---- keys ----------------------------------------------------------------------------------------
class SeatKey:
    """A seat's secret layer ``x`` and public key ``X = x·G`` (one per seat per game: see the docs)."""

    __slots__ = ("public", "secret")

    def __init__(self, secret: Scalar | None = None) -> None:
        self.secret = secret if secret is not None else Scalar.random()
        self.public = Point.BASE * self.secret

    def share(self, joint: bytes, seat: int) -> KeyShare:
        """The announcement of this key, with a proof of knowing it bound to this table and seat."""
        ctx = proofs.context("key", joint, seat=seat)
        pub = self.public
        return KeyShare(seat, pub.raw, proofs.prove(ctx, self.secret, Point.BASE, Point.BASE, pub, pub))

    def __repr__(self) -> str:
        return f"SeatKey(public={self.public!r})"


@dataclass(frozen=True)
class TableKeys:
    """Every seat's checked public key, the table key ``X`` they add up to, and the joint seed."""

    joint: bytes
    keys: Mapping[int, Point]
    table_key: Point

    @classmethod
    def from_shares(cls, joint: bytes, shares: Iterable[KeyShare]) -> TableKeys:
        keys: dict[int, Point] = {}
        for s in shares:
            if s.seat in keys:
                raise FairDealError(f"seat {s.seat + 1} announced two keys", [s.seat])
            try:
                x = Point.decode(s.key, f"seat {s.seat + 1}'s key")
            except GroupError as e:
                raise FairDealError(str(e), [s.seat]) from None
            if not proofs.verify(proofs.context("key", joint, seat=s.seat), Point.BASE, x, Point.BASE, x, s.proof):
                raise FairDealError(f"seat {s.seat + 1}'s key comes without a valid proof of knowing it", [s.seat])
            keys[s.seat] = x
        if len(keys) < 2:
            raise FairDealError("a private deal needs at least two seats' keys")
        total = None
        for seat in sorted(keys):
            total = keys[seat] if total is None else total + keys[seat]
        assert total is not None
        if total.is_identity:  # only if keys cancel, which the proofs of knowledge make impossible
            raise FairDealError("the seats' keys add up to the identity", sorted(keys))
        return cls(joint, dict(sorted(keys.items())), total)

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(self.keys)


# ---- ciphertexts --------------------------------------------------------------------------------
def _rerandomize(ct: Ct, s: Scalar, x: Point) -> Ct:
    return Ct((Point(ct.c1) + Point.BASE * s).raw, (Point(ct.c2) + x * s).raw)


def starting_deck(spec: DeckSpec, table_key: Point) -> tuple[Card, ...]:
    """The public deck everyone computes before the first pass: ``(G, M + X)`` per part (randomness 1)."""
    return tuple(
        tuple(Ct(Point.BASE.raw, (spec.point(i, p) + table_key).raw) for p in range(spec.parts))
        for i in range(len(spec.cards))
    )


def apply_pass(
    cards: Sequence[Card], perm: Sequence[int], rerand: Sequence[Sequence[Scalar]], x: Point
) -> tuple[Card, ...]:
    """``out[i] = rerandomize(cards[perm[i]], rerand[i])``, part by part (the audit replays this)."""
    return tuple(tuple(_rerandomize(ct, s, x) for ct, s in zip(cards[perm[i]], rerand[i])) for i in range(len(perm)))


def shuffle_pass(deck: str, seat: int, cards: Sequence[Card], table_key: Point) -> tuple[ShuffledDeck, PassSecrets]:
    """This seat's pass: a uniform permutation (OS randomness) and fresh non-zero randomness per part."""
    perm = list(range(len(cards)))
    for i in range(len(perm) - 1, 0, -1):  # Fisher–Yates with secrets.randbelow: no `random` module
        j = secrets.randbelow(i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    rerand = [[Scalar.random() for _ in cards[0]] for _ in cards]
    out = apply_pass(cards, perm, rerand, table_key)
    return (
        ShuffledDeck(deck, seat, out),
        PassSecrets(deck, tuple(perm), tuple(tuple(s.raw for s in row) for row in rerand)),
    )


def check_cards(cards: Sequence[Card], size: int, parts: int, seat: int, what: str) -> None:
    """Refuse, naming `seat`, a deck of the wrong shape or with any invalid point."""
    if len(cards) != size:
        raise FairDealError(f"{what} from seat {seat + 1} has {len(cards)} cards, not {size}", [seat])
    for i, card in enumerate(cards):
        if len(card) != parts:
            raise FairDealError(f"{what} from seat {seat + 1}: card {i} has {len(card)} parts, not {parts}", [seat])
        for p, ct in enumerate(card):
            try:
                Point.decode(ct.c1, f"{what} from seat {seat + 1}, card {i} part {p}, c1")
                Point.decode(ct.c2, f"{what} from seat {seat + 1}, card {i} part {p}, c2")
            except GroupError as e:
                raise FairDealError(str(e), [seat]) from None


# ---- strips, openings, hand-overs --------------------------------------------------------------------
def strip(keys: TableKeys, key: SeatKey, seat: int, deck: str, position: int, part: int, ct: Ct) -> Strip:
    """Seat's layer of `ct` (the ciphertext at `position`/`part` of `deck`), with its proof."""
    c1 = Point(ct.c1)
    d = c1 * key.secret
    ctx = proofs.context("strip", keys.joint, deck, position, part, seat)
    return Strip(deck, position, part, seat, d.raw, proofs.prove(ctx, key.secret, Point.BASE, c1, key.public, d))


def check_strip(keys: TableKeys, deck: str, position: int, part: int, ct: Ct, s: Strip) -> Point:
    """The checked layer ``x_j·c1`` from strip `s`, or :class:`FairDealError` naming its seat."""
    who = f"seat {s.seat + 1}"
    if s.seat not in keys.keys:
        raise FairDealError(f"a strip from {who}, which has no key at this table", [s.seat])
    if (s.deck, s.position, s.part) != (deck, position, part):
        raise FairDealError(
            f"{who}'s strip is for {s.deck} position {s.position} part {s.part}, "
            f"not {deck} position {position} part {part}",
            [s.seat],
        )
    d = Point(s.share)
    ctx = proofs.context("strip", keys.joint, deck, position, part, s.seat)
    # No separate validation of the share on the way in: the proof's check multiplies
    # it, and libsodium refuses a point off the subgroup or of small order there. Only
    # when the check fails do we ask why, to say so.
    if d.is_identity or not proofs.verify(ctx, Point.BASE, keys.keys[s.seat], Point(ct.c1), d, s.proof):
        try:
            Point.decode(s.share, f"{who}'s strip")
        except GroupError as e:
            raise FairDealError(str(e), [s.seat]) from None
        raise FairDealError(
            f"{who}'s strip of {deck} position {position} part {part} is wrong (its proof does not check)", [s.seat]
        )
    return d


def open_part(
    spec: DeckSpec,
    keys: TableKeys,
    position: int,
    part: int,
    ct: Ct,
    strips: Iterable[Strip],
    own: tuple[int, SeatKey] | None = None,
) -> str:
    """The label at `position`/`part`: every seat's checked strip, or every other seat's plus `own` layer.

    Opened to everyone, `strips` holds every seat's; opened to one seat, that seat
    passes its `(seat, key)` and the others' strips. Each strip is checked (a bad
    one names its seat); a missing or doubled seat is an error naming it.
    """
    layers: dict[int, Point] = {}
    for s in strips:
        if s.seat in layers:
            raise FairDealError(f"seat {s.seat + 1} stripped {spec.id} position {position} twice", [s.seat])
        layers[s.seat] = check_strip(keys, spec.id, position, part, ct, s)
    if own is not None:
        seat, key = own
        if seat in layers:
            raise FairDealError(f"seat {seat + 1}'s layer was given twice", [seat])
        if key.public != keys.keys.get(seat):
            raise ValueError(f"that key is not seat {seat + 1}'s")
        layers[seat] = Point(ct.c1) * key.secret
    missing = [s for s in keys.seats if s not in layers]
    if missing:
        raise FairDealError(f"{spec.id} position {position}: no strip yet from seat(s) {_seats(missing)}", missing)
    m = Point(ct.c2)
    for seat in keys.seats:
        m = m - layers[seat]
    label = spec.lookup(part, m)
    if label is None:
        # Every strip checked, so the ciphertext itself is no card: a shuffle pass was bad.
        # Which one only the end-of-game audit can say.
        raise FairDealError(f"{spec.id} position {position} part {part} is not a card of the deck (a bad shuffle)")
    return label


def partial(keys: TableKeys, ct: Ct, strips: Iterable[Strip]) -> Point:
    """``c2`` minus the given layers: what a process that lacks some seat's layer holds (tests use it)."""
    m = Point(ct.c2)
    for s in strips:
        m = m - Point(s.share)
    return m


def handover(keys: TableKeys, key: SeatKey, seat: int, deck: str, position: int, part: int, ct: Ct) -> Handover:
    """The holder re-randomizes `ct` and proves it is the same card, so it can be opened to another seat alone."""
    s = Scalar.random()
    new = _rerandomize(ct, s, keys.table_key)
    ctx = proofs.context("handover", keys.joint, deck, position, part, seat)
    return Handover(deck, position, part, seat, new, proofs.prove(ctx, s, Point.BASE, keys.table_key))


def check_handover(keys: TableKeys, deck: str, position: int, part: int, ct: Ct, h: Handover) -> Ct:
    """The new ciphertext of a checked hand-over (same card, fresh randomness), or an error naming its seat."""
    who = f"seat {h.seat + 1}"
    if (h.deck, h.position, h.part) != (deck, position, part) or h.seat not in keys.keys:
        raise FairDealError(f"{who}'s hand-over is not for {deck} position {position} part {part}", [h.seat])
    try:
        c1 = Point.decode(h.ct.c1, f"{who}'s hand-over c1")
        c2 = Point.decode(h.ct.c2, f"{who}'s hand-over c2")
        d1, d2 = c1 - Point(ct.c1), c2 - Point(ct.c2)
        if d1.is_identity or d2.is_identity:
            raise GroupError(f"{who}'s hand-over does not re-randomize")
    except GroupError as e:
        raise FairDealError(str(e), [h.seat]) from None
    ctx = proofs.context("handover", keys.joint, deck, position, part, h.seat)
    if not proofs.verify(ctx, Point.BASE, d1, keys.table_key, d2, h.proof):
        raise FairDealError(f"{who}'s hand-over of {deck} position {position} changes the card", [h.seat])
    return h.ct


def _seats(seats: Iterable[int]) -> str:
    return ", ".join(str(s + 1) for s in seats)


# ---- a deck as one peer follows it ---------------------------------------------------------------------
class Deck:
    """One deck at one peer: its passes in seat order, then its dealt ciphertexts and what was opened.

    `start` is the public starting deck, or (a reshuffle of cards still face down)
    the ciphertexts they had, in which case `spec` may list more cards than the deck
    holds (every card it may hold). Every message is checked before it changes anything.
    """

    def __init__(self, spec: DeckSpec, keys: TableKeys, start: Sequence[Card] | None = None) -> None:
        self.spec = spec
        self.keys = keys
        self.start: tuple[Card, ...] = tuple(start) if start is not None else starting_deck(spec, keys.table_key)
        if not 0 < len(self.start) <= MAX_CARDS or any(len(c) != spec.parts for c in self.start):
            raise ValueError(f"{spec.id}: a starting deck of {len(self.start)} cards of {spec.parts} parts")
        self.cards: tuple[Card, ...] = self.start
        self.passes: list[ShuffledDeck] = []
        self.handovers: list[tuple[Ct, Handover]] = []
        self.strips: list[tuple[Ct, Strip]] = []

    @property
    def size(self) -> int:
        return len(self.start)

    def undealt(self, dealt: int) -> tuple[Card, ...]:
        """The ciphertexts after the first `dealt` positions (what a cut deck leaves for a merge)."""
        return self.cards[dealt:]

    @property
    def next_seat(self) -> int | None:
        """The seat whose pass is due (None: every seat has shuffled; the deck is dealt)."""
        seats = self.keys.seats
        return seats[len(self.passes)] if len(self.passes) < len(seats) else None

    @property
    def ready(self) -> bool:
        return self.next_seat is None

    def my_pass(self, seat: int) -> tuple[ShuffledDeck, PassSecrets]:
        """Make (and apply) this seat's pass, which must be due; keep the secrets for the end."""
        if self.next_seat != seat:
            raise ValueError(f"it is not seat {seat + 1}'s turn to shuffle {self.spec.id}")
        msg, sec = shuffle_pass(self.spec.id, seat, self.cards, self.keys.table_key)
        self.passes.append(msg)
        self.cards = msg.cards
        return msg, sec

    def receive_pass(self, msg: ShuffledDeck, *, check_points: bool = True) -> None:
        """Another seat's pass: due, for this deck, the right shape, every point valid.

        ``check_points=False`` lets the seat whose pass is next make it at once and
        call :meth:`check_points` right after sending (validation is most of a pass's
        cost, so this takes it off the table's critical path). That is safe: a pass
        only adds to the points it receives (no secret touches them), and every peer
        checks every pass in order, so a bad point is blamed on the pass that brought it.
        """
        if msg.deck != self.spec.id:
            raise FairDealError(f"seat {msg.seat + 1} sent a pass of {msg.deck}, not {self.spec.id}", [msg.seat])
        if self.next_seat != msg.seat:
            raise FairDealError(f"seat {msg.seat + 1} shuffled {self.spec.id} out of turn", [msg.seat])
        if check_points:
            self._check(msg)
        elif len(msg.cards) != self.size or any(len(c) != self.spec.parts for c in msg.cards):
            self._check(msg)  # the shape is cheap to check now; the message names the problem
        self.passes.append(msg)
        self.cards = msg.cards

    def check_points(self, seat: int) -> None:
        """Validate the pass `seat` made (received with ``check_points=False``); a bad point names `seat`."""
        for msg in self.passes:
            if msg.seat == seat:
                self._check(msg)

    def _check(self, msg: ShuffledDeck) -> None:
        check_cards(msg.cards, self.size, self.spec.parts, msg.seat, f"the pass of {self.spec.id}")

    def ct(self, position: int, part: int) -> Ct:
        if not self.ready:
            raise ValueError(f"{self.spec.id} is still being shuffled")
        if not (0 <= position < len(self.cards) and 0 <= part < self.spec.parts):
            raise ValueError(f"{self.spec.id} has no position {position} part {part}")
        return self.cards[position][part]

    def strip(self, seat: int, key: SeatKey, position: int, part: int) -> Strip:
        """This seat's strip of a position (to send), recorded like any other."""
        ct = self.ct(position, part)
        s = strip(self.keys, key, seat, self.spec.id, position, part, ct)
        self.strips.append((ct, s))
        return s

    def open(self, position: int, part: int, strips: Sequence[Strip], own: tuple[int, SeatKey] | None = None) -> str:
        """Open a position (to everyone, or to `own`'s seat): checks every strip, records them."""
        ct = self.ct(position, part)
        label = open_part(self.spec, self.keys, position, part, ct, strips, own)
        self.strips += [(ct, s) for s in strips]
        return label

    def receive_strips(self, position: int, part: int, strips: Sequence[Strip]) -> None:
        """Strips for a card opened to another seat: checked and recorded (this peer cannot read it)."""
        ct = self.ct(position, part)
        for s in strips:
            check_strip(self.keys, self.spec.id, position, part, ct, s)
        self.strips += [(ct, s) for s in strips]

    def hand_over(self, seat: int, key: SeatKey, position: int, part: int) -> Handover:
        ct = self.ct(position, part)
        h = handover(self.keys, key, seat, self.spec.id, position, part, ct)
        self.receive_handover(h)
        return h

    def receive_handover(self, h: Handover) -> None:
        ct = self.ct(h.position, h.part)
        new = check_handover(self.keys, self.spec.id, h.position, h.part, ct, h)
        self.handovers.append((ct, h))
        card = list(self.cards[h.position])
        card[h.part] = new
        cards = list(self.cards)
        cards[h.position] = tuple(card)
        self.cards = tuple(cards)
