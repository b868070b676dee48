"""The end-of-game audit of a deck: every key and permutation revealed, every shuffle and deal replayed.

Each peer runs :func:`audit_deck` for every deck once every seat's
:class:`~.wire.KeyReveal` is in. It names the seat whose key, shuffle pass,
strip, hand-over or claimed card is wrong, and returns every position's card,
so the session can compare the game's record with what was really dealt.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from .deck import DeckSpec, TableKeys, apply_pass, starting_deck
from .group import GroupError, Point, Scalar
from .wire import Card, Ct, Handover, KeyReveal, PassSecrets, ShuffledDeck, Strip


class Claim(msgspec.Struct, frozen=True, array_like=True):
    """What a seat says it was dealt (or saw opened): checked against the real card at the end."""

    seat: int
    deck: str
    position: int
    part: int
    label: str


class DeckAudit(msgspec.Struct):
    ok: bool
    problems: list[str]
    culprits: list[int]
    """Seats named by the problems, in the order found (empty when `ok`)."""
    cards: list[tuple[str, ...]] = []
    """Every dealt position's card (its labels), when the keys allowed decrypting them."""


def _secrets_of(reveal: KeyReveal, deck: str) -> list[PassSecrets]:
    return [p for p in reveal.passes if p.deck == deck]


def _pass_scalars(sec: PassSecrets, size: int, parts: int) -> tuple[list[int], list[list[Scalar]]] | str:
    """The pass's permutation and scalars, or why they are malformed."""
    perm = list(sec.perm)
    if sorted(perm) != list(range(size)):
        return f"its permutation is not a permutation of {size} cards"
    if len(sec.rerand) != size or any(len(row) != parts for row in sec.rerand):
        return "its re-randomizing scalars do not match the deck's shape"
    try:
        return perm, [[Scalar.decode(s, "a re-randomizing scalar") for s in row] for row in sec.rerand]
    except GroupError as e:
        return str(e)


def audit_deck(
    spec: DeckSpec,
    keys: TableKeys,
    passes: Sequence[ShuffledDeck],
    reveals: Mapping[int, KeyReveal],
    *,
    start: Sequence[Card] | None = None,
    strips: Iterable[tuple[Ct, Strip]] = (),
    handovers: Iterable[tuple[Ct, Handover]] = (),
    claims: Iterable[Claim] = (),
) -> DeckAudit:
    """Replay `spec`'s deck from `start` (default: the public starting deck) through every pass.

    `passes` are the decks each seat published, in the order they came;
    `reveals` every seat's end-of-game reveal; `strips` and `handovers` the
    record of openings (with the ciphertext each applied to); `claims` what
    seats said they received. The first wrong pass stops the replay.
    """
    problems: list[str] = []
    culprits: list[int] = []

    def blame(seat: int, why: str) -> None:
        problems.append(f"seat {seat + 1}: {why}")
        if seat not in culprits:
            culprits.append(seat)

    # 1. Keys: each seat's secret must be the log of the key it announced.
    secret: dict[int, Scalar] = {}
    for seat, public in keys.keys.items():
        rev = reveals.get(seat)
        if rev is None or rev.seat != seat:
            blame(seat, "did not reveal its key")
            continue
        try:
            x = Scalar.decode(rev.secret, "its secret key")
        except GroupError as e:
            blame(seat, str(e))
            continue
        if Point.BASE * x != public:
            blame(seat, "revealed a key that is not the one it announced")
            continue
        secret[seat] = x
    if problems:
        return DeckAudit(False, problems, culprits)

    # 2. Passes: each must be its seat's revealed permutation and re-randomization of its input.
    first: tuple[Card, ...] = tuple(start) if start is not None else starting_deck(spec, keys.table_key)
    cur = first
    size, parts = len(first), spec.parts
    expected_seats = list(keys.seats)
    for i, msg in enumerate(passes):
        if i >= len(expected_seats) or msg.seat != expected_seats[i] or msg.deck != spec.id:
            blame(msg.seat, f"a pass of {msg.deck} out of turn")
            return DeckAudit(False, problems, culprits)
        secs = _secrets_of(reveals[msg.seat], spec.id)
        if len(secs) != 1:
            blame(msg.seat, f"revealed {len(secs)} sets of secrets for its one pass of {spec.id}")
            return DeckAudit(False, problems, culprits)
        got = _pass_scalars(secs[0], size, parts)
        if isinstance(got, str):
            blame(msg.seat, f"its pass of {spec.id}: {got}")
            return DeckAudit(False, problems, culprits)
        perm, rerand = got
        if len(msg.cards) != size or apply_pass(cur, perm, rerand, keys.table_key) != tuple(msg.cards):
            blame(
                msg.seat,
                f"its shuffle of {spec.id} is not the permutation and re-randomization it revealed "
                "(a card swapped, duplicated or dropped)",
            )
            return DeckAudit(False, problems, culprits)
        cur = tuple(msg.cards)
    missing = expected_seats[len(passes) :]
    for seat in missing:
        blame(seat, f"never shuffled {spec.id}")
    if missing:
        return DeckAudit(False, problems, culprits)

    # 3. Decrypt every position with every key.
    x_all = Scalar(bytes(32))
    for x in secret.values():
        x_all = x_all + x

    def decrypt(ct: Ct, part: int) -> str | None:
        return spec.lookup(part, Point(ct.c2) - Point(ct.c1) * x_all)

    def decrypt_all(deck: Sequence[Card], what: str) -> list[tuple[str, ...]] | None:
        out: list[tuple[str, ...]] = []
        for pos, card in enumerate(deck):
            labels = [decrypt(ct, p) for p, ct in enumerate(card)]
            if any(lab is None for lab in labels):
                problems.append(f"{spec.id} position {pos} {what} is not a card of the deck")
                return None
            out.append(tuple(lab for lab in labels if lab is not None))
        return out

    dealt = decrypt_all(cur, "as dealt")
    before = decrypt_all(first, "before the shuffles") if start is not None else list(spec.cards)
    if dealt is None or before is None:
        return DeckAudit(False, problems, culprits)
    cards = dealt
    if sorted(cards) != sorted(before):
        problems.append(f"{spec.id} does not hold exactly its cards after the shuffles")

    # 4. The record of openings, and what seats claimed.
    for ct, s in strips:
        layer = secret.get(s.seat)
        if layer is None or s.share != (Point(ct.c1) * layer).raw:
            blame(s.seat, f"its strip of {s.deck} position {s.position} part {s.part} is not its layer")
    for old, h in handovers:
        if decrypt(old, h.part) != decrypt(h.ct, h.part):
            blame(h.seat, f"its hand-over of {h.deck} position {h.position} changed the card")
    for c in claims:
        if c.deck != spec.id:
            continue
        real = cards[c.position][c.part] if 0 <= c.position < len(cards) and 0 <= c.part < parts else None
        if real != c.label:
            blame(c.seat, f"claimed {c.label!r} at {c.deck} position {c.position}, but the deck dealt {real!r}")
    return DeckAudit(not problems, problems, culprits, cards)
