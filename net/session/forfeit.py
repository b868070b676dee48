"""The end of a fair-dealer game that cannot go on: a forfeit, a verdict with both sides in it.

At a fair-dealer table no one can play a seat whose layer only its own process holds
(docs/fairplay.md, "Seats lost for good"). When a seat stalls past the clock, withholds
a share, is struck out, sends a message that fails its check, or is gone for good, the
host proposes a :class:`Forfeit`: the seats that forfeit, why (`cause` and `reason`), the
standings on the public position at that ply (every forfeiting seat last), and the
seconds it waits for answers (`answer_by`, the stated deadline).

Every seat answers, the accused too, each signed: a ``verdict`` is its signature over the
same bytes; a ``dispute`` is a :class:`Dispute`, why it does not sign, and, from the
accused, its own signed messages for that ply (its evidence that it did not stall). The
host collects answers until every present seat has answered or the deadline passes and
relays each, and an answer sent before the deadline is never refused (docs/lan.md, "The
verdict"). :func:`judge` then reads the answers the same way in every process:

- *agreed*: every seat but the accused signed, and the accused brought no evidence;
- *contested*: anything else, however many signed. A host and its accomplices can make a
  forfeit stand only as contested while the accused answers with its own messages.

Who may sign depends on the cause. A seat that is *gone* or *struck* out has no clock
claim: a seat signs once it saw it go (the host told it the seat left). A *clock* or
*stall* forfeit is signed only while this seat's own rounds wait on the accused, and (a
move) once the accused is out of time by this seat's own clock; a *failed* one only when
this seat's own check failed on the accused's message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import msgspec

from coldwater.core.state import State

from .. import messages as m
from ..identity import verify
from .fairwire import KINDS as ROUND_KINDS
from .fairwire import MAX_BODY, fair_message

VERDICT_WAIT: Final = 20
"""Seconds the host waits for every present seat's answer once it has proposed a forfeit (the deadline
it states in the proposal). A seat answers at once when its own process can judge, and at the latest
half-way to the deadline (a seat behind by a few rounds takes them first, from the relay log), so an
honest answer reaches the host with seconds to spare even under load."""

CAUSES: Final = ("clock", "stall", "gone", "struck", "failed")
"""Why a seat forfeits: out of time on a move (clock), a program's message withheld (stall), gone for
good (gone), struck out by the host for refused messages (struck), its own message failed (failed)."""

MAX_EVIDENCE: Final = 16
"""The most of its own signed messages the accused brings to a dispute (a ply's rounds ask a seat for
a handful: its move, a share or a pass, strips)."""

MAX_DISPUTE: Final = MAX_BODY["dispute"]
"""Bytes a dispute may take on the wire: the text and the evidence (a pass is the largest, 4.2 KB)."""


class Forfeit(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A proposed end of the game: `seats` forfeit at `ply` for `reason`; the standings on the public
    position then (`labels` and `totals` as the game scores it, `order` best first, forfeiters last)."""

    seats: list[int]
    reason: str
    ply: int
    labels: list[str]
    totals: list[int]
    order: list[int]
    cause: str = "stall"
    """One of :data:`CAUSES`: which test a seat applies before it signs."""
    answer_by: int = VERDICT_WAIT
    """Seconds from the proposal during which the host takes every answer (the stated deadline)."""


class Dispute(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat's signed answer that it does not sign: why, and (from the accused) its own evidence."""

    text: str
    evidence: list[m.Fair] = []
    """The accused's own signed round messages for the forfeit's ply (each checked by every reader)."""
    waits_on: list[int] = []
    """The seats the disputing seat's own rounds wait on at that ply (signed with the rest): an accused
    that waits only on others owes the table nothing there."""


class Judgement(msgspec.Struct, frozen=True):
    """What the answers over one forfeit say, read the same way in every process (:func:`judge`)."""

    signed_by: list[int]
    """Seats whose genuine signature over the forfeit is held (the accused's never counts)."""
    disputed_by: list[int]
    """Seats whose genuine signed dispute is held."""
    evidence_by: list[int]
    """Accused seats whose dispute carries their own genuine signed messages for that ply."""
    contested: bool
    """Not agreed: an accused brought evidence, or a seat other than the accused did not sign."""


_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(Forfeit)
_dec_dispute = msgspec.msgpack.Decoder(Dispute)


def propose(
    view: State[Any, Any], seats: Sequence[int], reason: str, cause: str = "stall", answer_by: int = VERDICT_WAIT
) -> Forfeit:
    """The forfeit of `seats` at this process's position: the standings on its public part."""
    public = view.view(None)
    sc = public.scores()
    totals = list(sc.totals)
    lost = sorted(set(seats))
    # Best first by points (ties kept in seat order); every forfeiting seat after every other.
    order = sorted(range(len(totals)), key=lambda s: (s in lost, -totals[s], s))
    return Forfeit(
        seats=lost,
        reason=reason[:500],
        ply=view.ply,
        labels=list(sc.labels),
        totals=totals,
        order=order,
        cause=cause if cause in CAUSES else "stall",
        answer_by=answer_by,
    )


def encode(f: Forfeit) -> bytes:
    return _enc.encode(f)


def decode(body: bytes) -> Forfeit | None:
    """The proposal in a forfeit message, or None when it is not one (a malformed one changes nothing)."""
    try:
        f = _dec.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    if f.cause not in CAUSES or not 1 <= f.answer_by <= 120 or len(f.seats) > len(f.totals):
        return None
    return f


def encode_dispute(d: Dispute) -> bytes:
    return _enc.encode(d)


def decode_dispute(body: bytes) -> Dispute:
    """A dispute's body; one that is not a :class:`Dispute` is read as its text alone (no evidence)."""
    try:
        return _dec_dispute.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return Dispute(text=body[:500].decode("utf-8", "replace"))


def evidence_for(f: Forfeit, own: Sequence[m.Fair], seat: int) -> list[m.Fair]:
    """The accused `seat`'s own round messages for the forfeit's ply, to bring to its dispute."""
    mine = [x for x in own if x.seat == seat and x.ply == f.ply and x.kind in ROUND_KINDS]
    mine.sort(key=lambda x: (x.kind, x.ref))
    out: list[m.Fair] = []
    size = 0
    for x in mine[:MAX_EVIDENCE]:
        size += len(x.body) + len(x.sig) + len(x.digest) + len(x.ref) + 32
        if size > MAX_DISPUTE - 2048:
            break
        out.append(x)
    return out


def genuine_evidence(f: Forfeit, d: Dispute, seat: int, joint: bytes, key: bytes | None) -> bool:
    """Whether `d`, seat `seat`'s signed dispute, brings evidence: at least one of its own genuine signed
    round messages for the forfeit's ply, or its signed word that its rounds there wait only on other
    seats (nothing of its own is due). Only an accused seat's evidence counts. Either side's word can be
    a lie; a contested verdict keeps both on the record (docs/lan.md, "The verdict")."""
    if key is None or seat not in f.seats:
        return False
    if d.waits_on and seat not in d.waits_on and all(0 <= s < len(f.totals) for s in d.waits_on):
        return True
    for x in d.evidence[:MAX_EVIDENCE]:
        if x.seat != seat or x.ply != f.ply or x.kind not in ROUND_KINDS:
            continue
        if verify(key, x.sig, fair_message(joint, x.kind, x.ply, x.ref, x.seat, x.body, x.digest)):
            return True
    return False


def judge(f: Forfeit, answers: Sequence[m.Fair], joint: bytes, keys: dict[int, bytes], players: int) -> Judgement:
    """Read every answer over `f` (each checked here): who signed, who disputed, agreed or contested.

    Agreed needs every seat but the accused to sign and no accused to bring evidence; a seat's answer
    counts once (its first genuine one)."""
    body = encode(f)
    signed: set[int] = set()
    disputed: set[int] = set()
    evidence: set[int] = set()
    seen: set[int] = set()
    for a in answers:
        key = keys.get(a.seat)
        if key is None or a.seat in seen or a.ply != f.ply or a.kind not in ("verdict", "dispute"):
            continue
        if not verify(key, a.sig, fair_message(joint, a.kind, a.ply, "", a.seat, a.body, a.digest)):
            continue
        if a.kind == "verdict":
            if a.body != body or a.seat in f.seats:
                continue
            signed.add(a.seat)
        else:
            disputed.add(a.seat)
            if genuine_evidence(f, decode_dispute(a.body), a.seat, joint, key):
                evidence.add(a.seat)
        seen.add(a.seat)
    others = {s for s in range(players) if s not in f.seats}
    contested = bool(evidence) or not others <= signed
    return Judgement(
        signed_by=sorted(signed), disputed_by=sorted(disputed), evidence_by=sorted(evidence), contested=contested
    )


def disagreement(f: Forfeit, view: State[Any, Any], evidence: Sequence[int], gone: Sequence[int] = ()) -> str | None:
    """Why this process cannot sign `f` (None: it can). `evidence`: the seats this process itself waits
    on, or whose own message failed its check here; `gone`: the seats this process saw leave (the host
    told it they are away, or it replaced them as host)."""
    if f.ply != view.ply:
        return f"this seat is at ply {view.ply}, the forfeit is proposed at ply {f.ply}"
    mine = propose(view, f.seats, f.reason)
    if (mine.labels, mine.totals, mine.order) != (f.labels, f.totals, f.order):
        return "the standings proposed are not this seat's standings of the public position"
    seats = ", ".join(str(s + 1) for s in f.seats)
    if f.cause in ("gone", "struck"):
        # No clock claim: the seat left (or was sent away). Signed by those who saw it go.
        if not set(f.seats) <= set(gone):
            return f"seat(s) {seats} did not leave the table as this seat saw it"
        return None
    if not set(f.seats) & set(evidence):
        return f"this seat waits on no message of seat(s) {seats} and holds no failed one"
    return None


def standings_text(f: Forfeit, names: dict[int, str]) -> str:
    """'Ann 12, Bo 9, Cy (forfeits) 14' in the verdict's order."""
    parts = []
    for s in f.order:
        name = names.get(s) or f"Seat {s + 1}"
        mark = " (forfeits)" if s in f.seats else ""
        parts.append(f"{name}{mark} {f.totals[s]}")
    return ", ".join(parts)


def outcome(f: Forfeit) -> str:
    seats = ", ".join(str(s + 1) for s in f.seats)
    return f"seat {seats} forfeits at ply {f.ply}: {f.reason}"


def verdict_text(j: Judgement) -> str:
    """'agreed (signed by seats 2, 3)' or 'contested (disputed by seat 1 with its own messages; ...)'."""

    def seats(xs: Sequence[int]) -> str:
        return ", ".join(str(s + 1) for s in xs) or "none"

    if not j.contested:
        return f"agreed (signed by seat(s) {seats(j.signed_by)})"
    parts = [f"signed by seat(s) {seats(j.signed_by)}"]
    if j.disputed_by:
        parts.append(f"disputed by seat(s) {seats(j.disputed_by)}")
    if j.evidence_by:
        parts.append(f"seat(s) {seats(j.evidence_by)} answered with their own signed evidence for that ply")
    return "contested (" + "; ".join(parts) + ")"


def scores(f: Forfeit) -> dict[str, int]:
    """The standings as a Result's scores (the forfeiting seats keep their points but rank last)."""
    return dict(zip(f.labels, f.totals, strict=False))


# ---- the record of a game ended by forfeit ------------------------------------------------------
RECORD_KIND: Final = "coldwater-verdict"


class VerdictRecord(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A game ended by forfeit, as one process kept it: everything `coldwater replay` needs to check it
    again without trusting the process that wrote it (every signature, the position up to the forfeit,
    the verdict). The hidden values stay hidden: no key was revealed, so none is in here."""

    game: str
    table: str
    players: int
    seat: int
    """The seat of the process that kept it (-1: a host with no seat)."""
    joint: bytes
    """The table's joint seed: every signature is over it, so none is valid at another table."""
    keys: dict[int, bytes]
    """Every seat's identity key, as the table's Begin gave them."""
    proposer: bytes
    """The key that signed the proposal (the host's)."""
    names: dict[int, str]
    proposal: m.Fair
    answers: list[m.Fair]
    messages: list[m.Fair]
    """Every round message this process held: each seat's own signed word, up to the forfeit."""
    steps: list[m.Step] = []
    """The public record, a step a ply, each with the public digest after it."""
    kind: str = RECORD_KIND


class RecordCheck(msgspec.Struct, frozen=True):
    """What checking a :class:`VerdictRecord` found (:func:`check_record`)."""

    forfeit: Forfeit | None
    judgement: Judgement | None
    signatures: int
    """Signatures checked and found genuine (proposal, answers, round messages)."""
    problems: list[str]


def make_record(
    *,
    game: str,
    table: str,
    players: int,
    seat: int,
    joint: bytes,
    keys: dict[int, bytes],
    proposer: bytes,
    names: dict[int, str],
    proposal: m.Fair,
    answers: Sequence[m.Fair],
    messages: Sequence[m.Fair],
    steps: Sequence[m.Step],
) -> VerdictRecord:
    return VerdictRecord(
        game=game,
        table=table,
        players=players,
        seat=seat,
        joint=joint,
        keys=dict(keys),
        proposer=proposer,
        names=dict(names),
        proposal=proposal,
        answers=list(answers),
        messages=[x for x in messages if x.kind in ROUND_KINDS],
        steps=[s for s in steps if s.ply <= proposal.ply],
    )


def dump_record(rec: VerdictRecord) -> bytes:
    return msgspec.json.encode(rec)


def load_record(raw: bytes) -> VerdictRecord | None:
    """The verdict record in `raw`, or None when it is another kind of file (a game record, a save)."""
    try:
        head = msgspec.json.decode(raw, type=_Kind)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    if head.kind != RECORD_KIND:
        return None
    try:
        return msgspec.json.decode(raw, type=VerdictRecord)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as e:
        raise ValueError(f"a damaged verdict record: {e}") from None


class _Kind(msgspec.Struct):
    kind: str = ""


def check_record(rec: VerdictRecord) -> RecordCheck:
    """Check every signature in `rec`, the game up to the forfeit (every seat's signed digest of each
    ply agrees, and so does the public record's), and read the verdict from the answers."""
    problems: list[str] = []
    good = 0
    p = rec.proposal
    signed = fair_message(rec.joint, p.kind, p.ply, p.ref, p.seat, p.body, p.digest)
    if p.kind != "forfeit" or not verify(rec.proposer, p.sig, signed):
        problems.append("the proposal is not signed by the host's key")
    else:
        good += 1
    f = decode(p.body)
    if f is None:
        return RecordCheck(forfeit=None, judgement=None, signatures=good, problems=[*problems, "no forfeit in it"])
    digests: dict[int, set[bytes]] = {}
    for x in rec.messages:
        key = rec.keys.get(x.seat)
        if key is None or not verify(
            key, x.sig, fair_message(rec.joint, x.kind, x.ply, x.ref, x.seat, x.body, x.digest)
        ):
            problems.append(f"a {x.kind} message of seat {x.seat + 1} at ply {x.ply} is not signed by that seat")
            continue
        good += 1
        if x.digest:
            digests.setdefault(x.ply, set()).add(x.digest)
        if x.ply > f.ply:
            problems.append(f"a {x.kind} message of seat {x.seat + 1} at ply {x.ply}, past the forfeit's ply {f.ply}")
    for ply, ds in sorted(digests.items()):
        if len(ds) > 1:
            problems.append(f"the seats signed {len(ds)} different public positions at ply {ply}")
    if p.digest and digests.get(f.ply, {p.digest}) != {p.digest}:
        problems.append(f"the proposal's public position at ply {f.ply} is not the one the seats signed")
    steps = {s.ply: s.digest for s in rec.steps}
    if steps and steps.get(f.ply, p.digest) != p.digest:
        problems.append(f"the public record's position at ply {f.ply} is not the proposal's")
    for s_ply, d in steps.items():
        if s_ply in digests and digests[s_ply] != {d}:
            problems.append(f"the public record's position at ply {s_ply} is not the one the seats signed")
    j = judge(f, rec.answers, rec.joint, rec.keys, rec.players)
    good += len(j.signed_by) + len(j.disputed_by)
    for a in rec.answers:
        key = rec.keys.get(a.seat)
        if key is None or not verify(key, a.sig, fair_message(rec.joint, a.kind, a.ply, "", a.seat, a.body, a.digest)):
            problems.append(f"an answer of seat {a.seat + 1} is not signed by that seat")
    return RecordCheck(forfeit=f, judgement=j, signatures=good, problems=problems)
