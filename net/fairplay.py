"""Fair play at a LAN table: a joint seed nobody chooses alone, and a dealer for sealed values.

**Joint seed (commit-reveal).** Every seated peer and the host pick 32 random
bytes, append their beacon chain's tip (:func:`contribution`) and send a
commitment ``H(seat, value)``. Only when the host has gathered
*every* commitment (its own and the dealer's included) does it publish them;
then everyone reveals. Each peer checks every reveal against its commitment, so
a peer that changes its value after seeing others' is named, and the joint seed
is the hash of all values: one honest peer makes it unpredictable.

**Public draws** come from every seat's hash chain (beacon.py): the audit redraws
each from its links (:func:`check_chance`). Nobody, the host included, can
predict one.

**Dealer.** Every other chance outcome is drawn with the core's generator keyed by
``H(joint seed, dealer secret)``. The dealer (the host process for now) commits
to its secret *before* the joint seed is revealed, so it cannot steer outcomes,
and reveals it when the game ends; every peer then replays the whole game and
checks every chance outcome, every sealed commitment and every public digest
(:func:`audit`). A chance outcome the public view cannot tell apart from others
(a dealt secret, a fish's weight) is *sealed*: peers see only a salted hash
``H(salt, ply, outcome)`` and their own view; the seats it belongs to receive
the outcome and salt privately and check them at once. Any mismatch names the
dealer. The secret is also escrowed in XOR shares, one per remote peer, so the
remaining peers can rebuild the game if the host vanishes (which exposes the
sealed values to their processes: the price of failover, see docs/lan.md).
No single peer ever holds the whole secret: with fewer than two remote seats
there is no escrow and no failover, unless the game has no sealed values at all
(:func:`has_sealed_values`), which needs no secret to go on.

**Moves.** Every seat signs its own move (:func:`act_message`); the host relays
the signature inside the step, every peer checks it, and the audit checks the
whole record again, so a host cannot play for a seat or swap its move.

:class:`Dealer` is the interface; :class:`CommittedDealer` is this design, and a
later mental-poker dealer that no peer can see through can replace it.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

import msgspec

from coldwater.core.errors import IllegalAction, NotationError
from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE, Game, State

from . import beacon
from .identity import fingerprint, verify

A = TypeVar("A", bound=Action)


class FairPlayError(Exception):
    """A fair-play check failed; ``culprits`` names who broke it (seats or 'dealer')."""

    def __init__(self, reason: str, culprits: Sequence[int | str] = ()) -> None:
        super().__init__(reason)
        self.culprits = tuple(culprits)


# ---- joint seed --------------------------------------------------------------
def seed_commitment(seat: int, value: bytes) -> bytes:
    return hashlib.sha256(b"cw-seed1\x00" + seat.to_bytes(2, "big", signed=True) + value).digest()


def new_contribution() -> bytes:
    return os.urandom(32)


CONTRIBUTION_BYTES = 32
"""Random bytes in a seed contribution; a seat's reveal is these and then its beacon chain's tip."""


def contribution(value: bytes, tip: bytes) -> bytes:
    """What a seat commits to and reveals: its random value and its hash chain's tip (see beacon.py)."""
    return value + tip


def tips(reveals: dict[int, bytes]) -> dict[int, bytes]:
    """Each seat's beacon chain tip, from its checked seed reveal (a malformed reveal gives none)."""
    size = CONTRIBUTION_BYTES + beacon.TIP_BYTES
    return {s: v[CONTRIBUTION_BYTES:] for s, v in reveals.items() if len(v) == size}


def has_sealed_values(game: Game[Any, Any]) -> bool:
    """False for a game in which no seat ever holds a value others cannot see (``sealed_values``
    False; its dealer declaration is ``core.dealing.PUBLIC_DRAWS``): every chance outcome is a
    public draw, so a table needs no dealer secret and no escrow."""
    return bool(getattr(game, "sealed_values", True))


def joint_seed(reveals: dict[int, bytes]) -> bytes:
    h = hashlib.sha256(b"cw-joint1\x00")
    for seat in sorted(reveals):
        h.update(seat.to_bytes(2, "big", signed=True) + len(reveals[seat]).to_bytes(2, "big") + reveals[seat])
    return h.digest()


def check_reveals(commits: dict[int, bytes], reveals: dict[int, bytes]) -> list[int]:
    """Seats whose reveal is missing or does not match their commitment (empty: all good)."""
    bad = [s for s in sorted(commits) if s not in reveals or seed_commitment(s, reveals[s]) != commits[s]]
    bad += [s for s in sorted(reveals) if s not in commits]
    return bad


class CommitReveal:
    """One commit-reveal round among `seats`; refuses a reveal before every commitment is in."""

    def __init__(self, seats: Iterable[int]) -> None:
        self.seats = tuple(sorted(seats))
        self.commits: dict[int, bytes] = {}
        self.reveals: dict[int, bytes] = {}

    def commit(self, seat: int, digest: bytes) -> None:
        if seat not in self.seats:
            raise FairPlayError(f"seat {seat} is not part of this round", [seat])
        if seat in self.commits:
            raise FairPlayError(f"seat {seat} committed twice", [seat])
        if len(digest) != 32:
            raise FairPlayError(f"seat {seat}'s commitment is malformed", [seat])
        self.commits[seat] = digest

    @property
    def all_committed(self) -> bool:
        return len(self.commits) == len(self.seats)

    def reveal(self, seat: int, value: bytes) -> None:
        if not self.all_committed:
            raise FairPlayError("a reveal before every commitment is in", [seat])
        if seat not in self.commits or seat in self.reveals:
            raise FairPlayError(f"seat {seat} may not reveal now", [seat])
        if seed_commitment(seat, value) != self.commits[seat]:
            raise FairPlayError(f"seat {seat}'s reveal does not match its commitment", [seat])
        self.reveals[seat] = value

    @property
    def done(self) -> bool:
        return len(self.reveals) == len(self.seats)

    def seed(self) -> bytes:
        if not self.done:
            raise FairPlayError("not every seat has revealed", [s for s in self.seats if s not in self.reveals])
        return joint_seed(self.reveals)


# ---- signed moves and final digests ----------------------------------------------
def act_message(joint: bytes, ply: int, seat: int, action: str) -> bytes:
    """What a seat signs for its move: bound to this game (the joint seed), the ply and the seat."""
    return b"cw-act1\x00" + joint + ply.to_bytes(8, "big") + seat.to_bytes(2, "big", signed=True) + action.encode()


def final_message(joint: bytes, ply: int, digest: bytes) -> bytes:
    """What a seat signs for the final position it audited."""
    return b"cw-final1\x00" + joint + ply.to_bytes(8, "big") + digest


def public_digest(state: State[Any, Any]) -> bytes:
    """The public view's digest as raw bytes (what steps carry)."""
    return bytes.fromhex(state.view(None).digest())


def full_digest(state: State[Any, Any]) -> bytes:
    return bytes.fromhex(state.digest())


def check_act(keys: dict[int, bytes], joint: bytes, ply: int, seat: int, action: str, sig: bytes) -> str | None:
    """Why a seat's move at `ply` is not that seat's own signed move (None: it is, or the seat has no key)."""
    key = keys.get(seat, b"")
    if not key:
        return None
    if not sig:
        return f"seat {seat + 1}'s move {action!r} carries no signature of seat {seat + 1} ({fingerprint(key)})"
    if not verify(key, sig, act_message(joint, ply, seat, action)):
        return f"seat {seat + 1}'s move {action!r} is not signed by seat {seat + 1} ({fingerprint(key)})"
    return None


# ---- sealed values ---------------------------------------------------------------
def dealer_commitment(secret: bytes) -> bytes:
    return hashlib.sha256(b"cw-dealer1\x00" + secret).digest()


def chance_key(joint: bytes, secret: bytes) -> bytes:
    return hashlib.sha256(b"cw-chance1\x00" + joint + secret).digest()


def sealed_salt(secret: bytes, ply: int) -> bytes:
    return hmac.new(secret, b"cw-salt1" + ply.to_bytes(8, "big"), hashlib.sha256).digest()


def sealed_commitment(salt: bytes, ply: int, action: str) -> bytes:
    return hashlib.sha256(b"cw-sealed1\x00" + salt + ply.to_bytes(8, "big") + action.encode()).digest()


def game_seed(joint: bytes) -> str:
    """The seed every peer passes to ``game.new`` (setup only; chance comes from the dealer)."""
    return "lan-" + joint.hex()[:32]


MIN_HOLDERS = 2
"""Escrow needs at least this many holders: one holder's share would be the secret itself."""


def split_secret(secret: bytes, n: int) -> list[bytes]:
    """`n` XOR shares: all of them rebuild the secret, any fewer reveal nothing.

    Fewer than :data:`MIN_HOLDERS` holders get no shares at all (no escrow).
    """
    if n < MIN_HOLDERS:
        return []
    shares = [os.urandom(len(secret)) for _ in range(n - 1)]
    last = bytearray(secret)
    for s in shares:
        for i, b in enumerate(s):
            last[i] ^= b
    return shares + [bytes(last)]


def combine_shares(shares: Iterable[bytes]) -> bytes:
    out: bytearray | None = None
    for s in shares:
        if out is None:
            out = bytearray(s)
        else:
            for i, b in enumerate(s):
                out[i] ^= b
    return bytes(out or b"")


class Classified(msgspec.Struct, frozen=True):
    """How a chance outcome travels: publicly, or sealed to its `owners`."""

    sealed: bool
    owners: tuple[int, ...] = ()


def classify(state: State[Any, Any], outcome: Any) -> Classified:
    """Sealed when the public view cannot tell `outcome` from another outcome; its owners can."""
    outcomes = [o for o, _ in state.chance_outcomes()]
    if len(outcomes) <= 1:
        return Classified(False)
    after: dict[Any, State[Any, Any]] = {}
    for o in outcomes:
        c = state.clone()
        c.apply(o)
        after[o] = c
    public = {o: s.view(None).digest() for o, s in after.items()}
    twins = [o for o in outcomes if o != outcome and public[o] == public[outcome]]
    if not twins:
        return Classified(False)
    mine = after[outcome]
    owners = tuple(
        seat
        for seat in range(state.players)
        if all(after[o].view(seat).digest() != mine.view(seat).digest() for o in twins)
    )
    return Classified(True, owners)


class Draw(msgspec.Struct, frozen=True):
    """One chance outcome from a dealer, with what each peer may be told about it."""

    action: Action
    sealed: bool
    owners: tuple[int, ...] = ()
    commit: bytes | None = None
    salt: bytes | None = None


class Dealer(Protocol):
    """Supplies chance outcomes at a LAN table and answers for them at the end."""

    @property
    def commitment(self) -> bytes: ...

    def start(self, joint: bytes) -> None: ...

    def draw(self, state: State[Any, Any]) -> Draw: ...

    def secret(self) -> bytes: ...

    def shares(self, n: int) -> list[bytes]: ...


class CommittedDealer:
    """The dealer described above: a committed secret, revealed and audited at the end."""

    def __init__(self, secret: bytes | None = None) -> None:
        self._secret = secret if secret is not None else os.urandom(32)
        self._key: bytes | None = None

    @property
    def commitment(self) -> bytes:
        return dealer_commitment(self._secret)

    def start(self, joint: bytes) -> None:
        self._key = chance_key(joint, self._secret)

    def outcome(self, state: State[A, Any]) -> A:
        if self._key is None:
            raise FairPlayError("the dealer has not been given the joint seed")
        return state.sample_chance(Rng(self._key).fork(state.ply))

    def draw(self, state: State[Any, Any]) -> Draw:
        action = self.outcome(state)
        c = classify(state, action)
        if not c.sealed:
            return Draw(action, False)
        salt = sealed_salt(self._secret, state.ply)
        return Draw(action, True, c.owners, sealed_commitment(salt, state.ply, str(action)), salt)

    def secret(self) -> bytes:
        return self._secret

    def shares(self, n: int) -> list[bytes]:
        return split_secret(self._secret, n)


# ---- the end-of-game audit -----------------------------------------------------
class PublicStep(Protocol):
    ply: int
    seat: int
    digest: bytes
    action: str | None
    commit: bytes | None
    sig: bytes
    bot: bool
    links: dict[int, bytes]


class AuditReport(msgspec.Struct):
    ok: bool
    problems: list[str]
    final_digest: str = ""
    plies: int = 0
    bad_ply: int = -1
    """The first ply that failed (to name the host that dealt it), -1 if none or not ply-specific."""
    scores: dict[str, int] = {}
    """From the replay, never from the host's word."""
    outcome: str = ""


def check_chance(
    state: State[A, Any],
    st: PublicStep,
    joint: bytes,
    book: beacon.Book,
    secret: bytes | None,
) -> tuple[A | None, str | None]:
    """The outcome a chance step must have had, and why the step is wrong (None: it is right).

    A public draw must carry good links and the outcome they draw (the links are
    recorded in `book`); any other chance node is the dealer's, checked with its
    `secret` (None: the secret does not match its commitment, or is unknown).
    """
    if beacon.is_public_draw(state):
        if not st.links:
            return None, "a public draw dealt by the host instead of drawn from the seats' links"
        why = book.check(state.ply, st.links)
        if why is not None:
            return None, why
        expected = beacon.draw(state, joint, st.links)
        if st.action != str(expected):
            return None, f"chance gave {st.action!r}, the seats' links draw {str(expected)!r}"
        book.accept(state.ply, st.links)
        return expected, None
    if st.links:
        return None, "links on a draw that is not public (the dealer's)"
    if secret is None:
        return None, "the dealer's revealed secret does not match its commitment (or was never revealed)"
    expected = state.sample_chance(Rng(chance_key(joint, secret)).fork(state.ply))
    if st.action is not None:
        if st.action != str(expected):
            return None, f"chance gave {st.action!r}, the seeds say {str(expected)!r}"
    elif st.commit != sealed_commitment(sealed_salt(secret, state.ply), state.ply, str(expected)):
        return None, "the sealed value does not match its commitment"
    return expected, None


def audit(
    game: Game[Any, Any],
    players: int,
    options: object,
    joint: bytes,
    dealer_commit: bytes,
    secret: bytes,
    steps: Sequence[PublicStep],
    *,
    tips: dict[int, bytes] | None = None,
    final: State[Any, Any] | None = None,
    keys: dict[int, bytes] | None = None,
    seat: int | None = None,
    views: dict[int, bytes] | None = None,
) -> AuditReport:
    """Replay a finished (or interrupted) game from what a peer saw, checking every chance outcome.

    Returns the fully revealed final state's digest, scores and outcome; every
    problem names the ply. Public draws are checked against every seat's chain
    (`tips`, from the seed reveals) and redrawn from their links; the dealer's
    draws against its secret, which is needed only if it dealt any. With `keys`
    (seat → identity key), every seat's move must carry that seat's signature (or
    be marked as played by a bot). With `seat` and `views` (ply → digest of the
    view that seat was sent), each view the host sent must be the seat's true
    view at that ply.
    """
    problems: list[str] = []
    known = secret if dealer_commitment(secret) == dealer_commit else None
    book = beacon.Book(tips or {})
    state = game.new(players, seed=game_seed(joint), options=options)
    bad_ply = -1
    for st in steps:
        if st.ply != state.ply + 1:
            problems.append(f"ply {st.ply}: out of order (expected {state.ply + 1})")
            bad_ply = st.ply
            break
        try:
            if st.seat == CHANCE:
                if state.current != CHANCE:
                    problems.append(f"ply {st.ply}: a chance outcome when {state.current} was to act")
                    break
                expected, why = check_chance(state, st, joint, book, known)
                if why is not None:
                    problems.append(f"ply {st.ply}: {why}")
                    break
                state.apply(expected)
            else:
                if st.action is None or state.current != st.seat:
                    problems.append(f"ply {st.ply}: seat {st.seat + 1} acted out of turn")
                    break
                if keys is not None and not st.bot:
                    why = check_act(keys, joint, st.ply - 1, st.seat, st.action, st.sig)
                    if why is not None:
                        problems.append(f"ply {st.ply}: {why}")
                        break
                state.apply(game.parse_action(st.action))
        except (IllegalAction, NotationError) as e:
            problems.append(f"ply {st.ply}: {e}")
            break
        if public_digest(state) != st.digest:
            problems.append(f"ply {st.ply}: the public digest announced differs from the replay")
            break
        if seat is not None and views and st.ply in views and views[st.ply] != bytes.fromhex(state.view(seat).digest()):
            problems.append(f"ply {st.ply}: the private view the host sent seat {seat + 1} is not its true view")
            break
    if problems and bad_ply < 0:
        bad_ply = state.ply + 1
    if final is not None and not problems and final.digest() != state.digest():
        problems.append("the final position announced differs from the replay")
    sc = state.scores()
    return AuditReport(
        not problems, problems, state.digest(), state.ply, bad_ply, dict(zip(sc.labels, sc.totals)), sc.outcome
    )


def rebuild(
    game: Game[Any, Any],
    players: int,
    options: object,
    joint: bytes,
    secret: bytes | None,
    steps: Sequence[PublicStep],
    on_apply: Callable[[int, Action, State[Any, Any]], None] | None = None,
    keys: dict[int, bytes] | None = None,
    book: beacon.Book | None = None,
) -> State[Any, Any]:
    """The full state after `steps`, from the public record (host failover).

    The dealer's `secret` is needed only for the dealer's draws (None: a game with
    no sealed values, rebuilt without escrow). `book` (the seats' chain tips) is
    advanced past every public draw. `on_apply(seat, action, state_after)` sees
    every action, to rebuild a full record.
    """
    book = book if book is not None else beacon.Book({})
    state: State[Any, Any] = game.new(players, seed=game_seed(joint), options=options)
    for st in steps:
        if st.ply != state.ply + 1:
            raise FairPlayError(f"ply {st.ply}: out of order (expected {state.ply + 1})")
        try:
            if st.seat == CHANCE:
                if state.current != CHANCE:
                    raise FairPlayError(f"ply {st.ply}: a chance outcome when {state.current} was to act", ["dealer"])
                # The old host's statements are checked as the audit would.
                outcome, why = check_chance(state, st, joint, book, secret)
                if why is not None:
                    raise FairPlayError(f"ply {st.ply}: {why}", ["dealer"])
                assert outcome is not None  # check_chance gives a reason whenever it gives no outcome
                action = outcome
            else:
                if st.action is None:
                    raise FairPlayError(f"ply {st.ply}: a seat's action without notation")
                why = None if keys is None or st.bot else check_act(keys, joint, st.ply - 1, st.seat, st.action, st.sig)
                if why is not None:
                    raise FairPlayError(f"ply {st.ply}: {why}", ["dealer"])
                action = game.parse_action(st.action)
            state.apply(action)
        except (IllegalAction, NotationError) as e:
            raise FairPlayError(f"ply {st.ply}: {e}") from None
        if on_apply is not None:
            on_apply(st.seat, action, state)
        if public_digest(state) != st.digest:
            raise FairPlayError(f"ply {st.ply}: rebuilt position differs from the record", ["dealer"])
    return state
