"""A LAN table dealt by the fair dealer: one process's rounds over the session (docs/fairplay.md).

The host and every peer run a :class:`FairDriver` around their own
:class:`~coldwater.net.fairdeal.seat.FairSeat` (only their own seat's view); a host
with no seat in its process runs one around an observer (``seat=None``: no key, the
public view), which sends nothing and which no round waits for. Each
process sends its messages for a round as soon as its view reaches it, signed by
its identity; the host relays every seat's message to the others unchanged (it
cannot alter one: the signature covers it) and its own to all. A process takes a
round once every message it needs is in, so messages may arrive early, in any
order; a message that fails a check names its seat (:class:`FairDealError`).

The host's timer (``STRIP_TIMEOUT``) names the seats a stalled round waits for:
no one else holds their layer, so the game cannot go on without them, and it ends
(docs/fairplay.md, "Seats lost for good").

:class:`FairDriver` is one state machine per process (the rounds waiting, the messages
held for them, each seat's allowance, the seat's view); the messages' kinds, limits and
signed formats are ``fairwire.py``'s.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import msgspec

from coldwater.core.errors import IllegalAction
from coldwater.core.notation import Action
from coldwater.core.record import GameRecord
from coldwater.core.state import State

from .. import messages as m
from ..fairdeal import mapping
from ..fairdeal.deck import FairDealError
from ..fairdeal.gameaudit import FairAudit
from ..fairdeal.seat import FairSeat
from ..fairdeal.wire import KeyReveal, KeyShare, ShuffledDeck, Strip, Word
from ..identity import Identity, verify
from .fairwire import (
    AHEAD,
    ANSWERS,
    KINDS,
    MAX_BODY,
    MAX_DIGEST,
    MAX_LATER,
    MAX_REF,
    MAX_STRIPS,
    STRIP_KINDS,
    Allowance,
    fair_message,
)

T = TypeVar("T")

_enc = msgspec.msgpack.Encoder()
_strips = msgspec.msgpack.Decoder(list[Strip])
Key = tuple[str, int, str]


def _decode(kind: type[T], body: bytes, seat: int, what: str) -> T:
    try:
        return msgspec.msgpack.decode(body, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise FairDealError(f"seat {seat + 1} sent a malformed {what}: {e}", [seat]) from None


class FairDriver:
    """One process's part in the rounds of a fair-dealer table (host or peer alike)."""

    def __init__(
        self,
        seat: FairSeat,
        *,
        identity: Identity,
        keys: Mapping[int, bytes],
        tips: Mapping[int, bytes] | None,
        send: Callable[[m.Fair], None],
        choose: Callable[[State[Any, Any]], Awaitable[Action]],
        stepped: Callable[[], None] = lambda: None,
        secret_sent: Callable[[], None] = lambda: None,
        paused: bool = False,
    ) -> None:
        self.fs = seat
        self.identity = identity
        self.keys = dict(keys)
        """Every seat's identity key (the host's included), which signs its messages."""
        self.send = send
        self.choose = choose
        self.stepped = stepped
        self.inbox: dict[Key, dict[int, m.Fair]] = {}
        self.sent: set[Key] = set()
        self.waiting: tuple[Key, list[int]] | None = None
        """The round this process waits on and the seats whose message it lacks."""
        self.over = asyncio.get_running_loop().create_future()
        """Set to every seat's key reveal once the game is over (or to the error that stopped it)."""
        self.changed = asyncio.Event()
        self._act_taken = -1
        self._opened = -1
        self._owing: list[int] = []
        self._words_at = -1
        self._pass_owing: list[int] = []
        self._moving = -1
        self._tasks: set[asyncio.Task[Any]] = set()
        self.started = time.perf_counter()
        self.setup_s: float | None = None
        """Seconds from the start to every deck shuffled (benchmarks)."""
        self.deal_s: list[float] = []
        """Per private deal, seconds from this process reaching it to taking it (benchmarks)."""
        self._deal_at: tuple[int, float] | None = None
        self._digest_at: tuple[int, bytes] = (-1, b"")
        self.secret_sent = secret_sent
        """Called just before a message whose secret the seat must keep (its key, a pass) leaves: the
        seat's save must hold that secret first, or a restart could not reveal it at the end."""
        self.paused = paused
        """A seat restored from its save takes no round until the host has sent it every message it
        relayed (its own earlier ones among them, which it adopts rather than making new ones)."""
        self.whole: GameRecord | None = None
        """The whole game, every card in it, once the audit at the end has replayed it."""
        self.allowance = Allowance()
        """How much of each other seat's messages this process keeps (SEAT_BYTES, SEAT_MESSAGES)."""
        self.later: list[m.Fair] = []
        """Genuine messages for rounds further ahead than :meth:`check` admits (see MAX_LATER)."""
        if tips is not None:  # a restored seat has its tips (and its book of links) from its save
            seat.take_tips(tips)
        self.looker: Callable[[], None] | None = None
        """Called after every step by a test instrument (the memory probe, tests/net/session/probe.py); else None."""
        self._frozen = False
        """This driver froze the collector (:meth:`_freeze`) and has not thawed it yet."""

    # ---- messages -----------------------------------------------------------------------
    def _send(self, kind: str, ply: int, body: bytes, ref: str = "") -> None:
        s = self.fs.seat
        if s is None:
            raise FairDealError("an observer of the table sends nothing")
        key = (kind, ply, ref)
        if key in self.sent:
            return
        self.sent.add(key)
        if kind in ("key", "pass"):
            self.secret_sent()
        d = self.digest()
        msg = m.Fair(
            kind=kind,
            ply=ply,
            seat=s,
            body=body,
            sig=self.identity.sign(fair_message(self.fs.joint, kind, ply, ref, s, body, d)),
            ref=ref,
            digest=d,
        )
        self.inbox.setdefault(key, {})[s] = msg
        self.send(msg)

    def own_messages(self) -> list[m.Fair]:
        """Every message this seat sent, in no particular order (to send again after a reconnect)."""
        s = self.fs.seat
        return [box[s] for box in self.inbox.values() if s is not None and s in box]

    def recent_own(self) -> list[m.Fair]:
        """This seat's messages for the rounds another seat may not have taken yet (for its save).

        No seat is more than AHEAD plies behind a round this one took (that round needed its message
        or was this seat's own move), so older ones are in every transcript."""
        since = self.fs.view.ply - AHEAD
        return [msg for msg in self.own_messages() if msg.ply >= since]

    def keep_own(self, msgs: list[m.Fair]) -> None:
        """This seat's own messages from its save, as sent: each round's word stays the one sent (a
        restored seat makes no second, different one). Ones not signed by this seat are ignored."""
        for msg in msgs:
            signed = fair_message(self.fs.joint, msg.kind, msg.ply, msg.ref, msg.seat, msg.body, msg.digest)
            if msg.seat != self.fs.seat or not verify(self.identity.public, msg.sig, signed):
                continue
            key = (msg.kind, msg.ply, msg.ref)
            self.sent.add(key)
            self.inbox.setdefault(key, {})[msg.seat] = msg

    def messages(self) -> list[m.Fair]:
        """Every message here, every seat's and this one's, by ply (what a new host relays after a failover)."""
        return sorted((msg for box in self.inbox.values() for msg in box.values()), key=lambda x: x.ply)

    def adopt(self, msg: m.Fair) -> str | None:
        """One of this seat's own earlier messages, sent back by the host (this process restarted from
        its save, or sent a second, different message for a round the host already has): the table
        holds that one, so it is this seat's word for the round. Why not, or None once adopted."""
        if msg.seat != self.fs.seat:
            return f"a message of seat {msg.seat + 1} offered as this seat's own"
        signed = fair_message(self.fs.joint, msg.kind, msg.ply, msg.ref, msg.seat, msg.body, msg.digest)
        if not verify(self.identity.public, msg.sig, signed):
            return f"a {msg.kind} message for ply {msg.ply} that this seat did not sign"
        key = (msg.kind, msg.ply, msg.ref)
        if msg.ply < self.fs.view.ply - 2 and key not in self.inbox:
            return None  # a round long taken
        self.sent.add(key)
        self.inbox.setdefault(key, {})[msg.seat] = msg
        self.pump()
        return None

    def resume(self) -> None:
        """The host has sent everything it relayed: take the rounds that can go (see `paused`)."""
        self.paused = False
        self.pump()

    def offer(self, msg: m.Fair) -> str | None:
        """A message from another seat, checked; one for a round far ahead is kept for later if genuine."""
        why = self.check(msg)
        if why is None:
            self.receive(msg)
            return None
        if msg.ply > self.fs.view.ply + AHEAD and self.check(msg, ahead=True) is None:
            if len(self.later) < MAX_LATER:
                self.later.append(msg)
                self.allowance.keep(msg)
            return None
        return why

    def digest(self) -> bytes:
        """This process's public digest of its view now, as its messages at this ply carry it (computed
        once a ply: the session's public record takes it too)."""
        ply = self.fs.view.ply
        if self._digest_at[0] != ply:
            self._digest_at = (ply, self.fs.public_digest())
        return self._digest_at[1]

    def check(self, msg: m.Fair, *, ahead: bool = False) -> str | None:
        """Why `msg` is not a genuine message of its seat at this table, now (None: it is).

        With `ahead`, a message for a round far ahead passes (a restored seat catching up keeps it)."""
        if msg.kind not in KINDS and msg.kind not in ANSWERS and msg.kind != "abort":
            return f"a message of no round ({msg.kind!r})"
        if msg.ply > self.fs.view.ply + AHEAD and not ahead:
            return f"a {msg.kind} message for ply {msg.ply}, far ahead of this table's ply {self.fs.view.ply}"
        if len(msg.body) > MAX_BODY[msg.kind]:
            return f"a {msg.kind} message of {len(msg.body)} bytes (at most {MAX_BODY[msg.kind]})"
        if (msg.ref != "") != (msg.kind == "pass") or len(msg.ref.encode()) > MAX_REF:
            return f"a {msg.kind} message with a reference no round of it has ({msg.ref[:MAX_REF]!r})"
        if len(msg.digest) > MAX_DIGEST or len(msg.sig) != 64:
            return f"a {msg.kind} message whose digest or signature is not one"
        key = self.keys.get(msg.seat)
        if msg.seat == self.fs.seat or key is None:
            return f"a message signed as seat {msg.seat + 1}, which is not another seat at this table"
        over = self.allowance.why_not(msg)
        if over is not None:
            return over
        signed = fair_message(self.fs.joint, msg.kind, msg.ply, msg.ref, msg.seat, msg.body, msg.digest)
        if not verify(key, msg.sig, signed):
            return f"a {msg.kind} message not signed by seat {msg.seat + 1}"
        return None

    def known(self, msg: m.Fair) -> bool:
        """Whether `msg` is already here, or is for a round long taken (sent again after a reconnect)."""
        box = self.inbox.get((msg.kind, msg.ply, msg.ref))
        if box is None:
            return bool(msg.ply < self.fs.view.ply - 2)
        return bool(box.get(msg.seat) == msg)

    def receive(self, msg: m.Fair) -> None:
        """A checked message from another seat: kept for its round, then every round that can go is taken."""
        if self.known(msg):
            return
        box = self.inbox.setdefault((msg.kind, msg.ply, msg.ref), {})
        old = box.get(msg.seat)
        if old is not None:
            if old.body != msg.body:
                self.fail(FairDealError(f"seat {msg.seat + 1} sent two different {msg.kind} messages", [msg.seat]))
            return
        box[msg.seat] = msg
        self.allowance.keep(msg)
        self.pump()
        if msg.kind in STRIP_KINDS and self.waiting is not None and self.waiting[0] == (msg.kind, msg.ply, msg.ref):
            self._precheck(msg)

    def _precheck(self, msg: m.Fair) -> None:
        """Check the strips of a round still waiting for others' as they arrive, so that the last
        one's check alone remains once it is in. A strip that fails is left for the round to refuse
        when it is taken, naming its seat, as if it had not been checked early."""
        if self.over.done() or self.paused:
            return
        try:
            self.fs.check_strips(self._strips_of({msg.seat: msg}))
        except (FairDealError, IllegalAction, ValueError, KeyError, IndexError):
            pass

    def fail(self, e: FairDealError) -> None:
        if not self.over.done():
            self.over.set_exception(e)
        self._thaw()
        self.changed.set()

    def close(self) -> None:
        for t in list(self._tasks):
            t.cancel()
        if not self.over.done():
            self.over.cancel()
        self._thaw()

    def _freeze(self) -> None:
        """Setup is over: what exists now (modules, the shuffled decks, the session) lives all game, so it
        is moved out of the collector's sight. A full collection walked all of it (90–130 ms, seen landing
        in a deal); now it walks what the game made since. The collector is the interpreter's, so this is
        process-wide, undone by :meth:`_thaw` at the game's end. Not with the memory probe, whose walk
        must see everything made since the seat was."""
        if self.looker is None and not self._frozen:
            self._frozen = True
            gc.freeze()

    def _thaw(self) -> None:
        """The game is over: frozen objects may be collected again (a process may play many games)."""
        if self._frozen:
            self._frozen = False
            gc.unfreeze()

    # ---- rounds -------------------------------------------------------------------------
    def pump(self) -> None:
        """Take every round whose messages are all in, sending this seat's part of each as it comes due."""
        if self.over.done() or self.paused:
            return
        try:
            if self.later:
                self._catch_up()
            while self._one():
                if self.later:
                    self._catch_up()
        except FairDealError as e:
            self.fail(e)
        except (IllegalAction, ValueError, KeyError, IndexError) as e:
            # Every message was checked, so this is a card that is no card of its place (a pass that
            # paired parts wrongly, caught at the end) or a bug: the game cannot go on either way.
            self.fail(FairDealError(f"the game cannot go on at ply {self.fs.view.ply}: {e}"))
        self.changed.set()

    def _catch_up(self) -> None:
        """Messages kept for later whose round is now near: into their boxes (they were checked)."""
        near = self.fs.view.ply + AHEAD
        now = [x for x in self.later if x.ply <= near]
        if now:
            self.later = [x for x in self.later if x.ply > near]
            for x in now:
                if not self.known(x):
                    self.inbox.setdefault((x.kind, x.ply, x.ref), {}).setdefault(x.seat, x)

    def _box(self, kind: str, ply: int, seats: list[int], ref: str = "") -> dict[int, m.Fair] | None:
        """The round's messages once every seat in `seats` has sent one (None until then)."""
        box = self.inbox.get((kind, ply, ref), {})
        missing = [s for s in seats if s not in box]
        self.waiting = ((kind, ply, ref), missing) if missing else None
        if missing:
            return None
        mine = self.digest()
        for s in seats:
            if box[s].digest != mine:
                raise FairDealError(
                    f"seat {s + 1}'s public position at ply {ply} is not this seat's (the table tells two stories)",
                    [s],
                )
        return box

    def _one(self) -> bool:
        """Take one round if it can be taken; False when this process must wait."""
        fs = self.fs
        everyone = list(range(fs.players))
        seated = not fs.observer  # an observer sends nothing: the rounds below wait on seats only
        if fs.keys is None:
            if seated:
                self._send("key", 0, _enc.encode(fs.key_share()))
            box = self._box("key", 0, everyone)
            if box is None:
                return False
            shares = []
            for s in everyone:
                share = _decode(KeyShare, box[s].body, s, "key share")
                if share.seat != s:
                    raise FairDealError(f"seat {s + 1} announced a key as seat {share.seat + 1}", [s])
                shares.append(share)
            fs.take_keys(shares)
            return True
        ply = fs.view.ply
        pending = fs.pending_decks()
        if pending:
            deck = pending[0]
            due = fs.decks[deck].next_seat
            assert due is not None
            if due == fs.seat:
                if ("pass", ply, deck) not in self.sent:
                    self._send("pass", ply, _enc.encode(fs.make_pass(deck)), deck)
                return True
            box = self._box("pass", ply, [due], deck)
            if box is None:
                return False
            msg = _decode(ShuffledDeck, box[due].body, due, "shuffle pass")
            if msg.seat != due or msg.deck != deck:
                raise FairDealError(f"seat {due + 1} sent a pass that is not its pass of {deck}", [due])
            fs.take_pass(msg)
            return True
        node = fs.node()
        if self.setup_s is None:
            self.setup_s = time.perf_counter() - self.started
            self._freeze()
        if node is None:
            if seated:
                self._send("keyreveal", ply, _enc.encode(fs.key_reveal()))
            box = self._box("keyreveal", ply, everyone)
            if box is None:
                return False
            reveals = {s: _decode(KeyReveal, box[s].body, s, "key reveal") for s in everyone}
            bad = [s for s, r in reveals.items() if r.seat != s]
            if bad:
                raise FairDealError("a key reveal under another seat's number", bad)
            if not self.over.done():
                self.over.set_result(reveals)
                self._thaw()
            return False
        if isinstance(node, mapping.Beacon):
            if seated and ("link", ply, "") not in self.sent:
                self._send("link", ply, fs.link())
            box = self._box("link", ply, everyone)
            if box is None:
                return False
            fs.take_public({s: box[s].body for s in everyone})
            self._stepped()
            return True
        if isinstance(node, mapping.FromDeck):
            # Only the seats that strip a part send (a part opened to one seat: every seat but that one).
            owing = [s for s in everyone if any(to == mapping.ALL or (to >= 0 and to != s) for to in node.opens)]
            if self._deal_at is None or self._deal_at[0] != ply:
                self._deal_at = (ply, time.perf_counter())
                if fs.seat in owing:
                    self._send("deal", ply, _enc.encode(fs.deal_strips()))
            box = self._box("deal", ply, owing)
            if box is None:
                return False
            fs.take_deal(self._strips_of(box))
            if self._deal_at[0] == ply and any(to >= 0 for to in node.opens):
                self.deal_s.append(time.perf_counter() - self._deal_at[1])
            self._stepped()
            return True
        actor = node
        box = self._box("act", ply, [actor])
        if box is None:
            if actor == fs.seat and self._moving != ply:
                self._moving = ply
                self._spawn(self._move(ply))
            return False
        try:
            action = fs.game.parse_action(box[actor].body.decode("utf-8", "replace"))
        except Exception as e:  # NotationError, or anything a malformed move raises: the mover's fault
            raise FairDealError(f"seat {actor + 1} sent a move that is not one: {e}", [actor]) from None
        if self._opened != ply:
            try:
                strips = fs.act_strips(action)
            except FairDealError:
                raise
            except Exception as e:  # IllegalAction: not a move any view can follow
                raise FairDealError(f"seat {actor + 1}'s move '{action}' is not legal: {e}", [actor]) from None
            self._opened = ply
            told = fs.told
            assert told is not None
            # Every view lists the same public openings, so all know who strips (most moves open nothing).
            self._owing = sorted({s for o in told.public for s in everyone if s != o.to})
            if fs.seat in self._owing:
                self._send("astrips", ply, _enc.encode(strips))
        if self._act_taken != ply:
            sbox = self._box("astrips", ply, self._owing)
            if sbox is None:
                return False
            fs.take_act_strips(self._strips_of(sbox))
            self._act_taken = ply
            word = fs.word(action)
            if word is not None:
                self._send("word", ply, _enc.encode(word))
        told = fs.told
        assert told is not None
        wbox = self._box("word", ply, list(told.namers))
        if wbox is None:
            return False
        words = {n: _decode(Word, wbox[n].body, n, "word") for n in told.namers}
        if self._words_at != ply:
            # A word may hand cards over (passed on to one seat): every seat but the receiver strips it.
            fs.take_words(words)
            self._words_at = ply
            self._pass_owing = fs.pass_owing()
            if fs.seat in self._pass_owing:
                self._send("pstrips", ply, _enc.encode(fs.pass_strips()))
        passed: list[Strip] = []
        if self._pass_owing:
            pbox = self._box("pstrips", ply, self._pass_owing)
            if pbox is None:
                return False
            passed = self._strips_of(pbox)
        fs.take_act(action, words, passed)
        self._stepped()
        return True

    def _stepped(self) -> None:
        if self.looker is not None:
            self.looker()
        self.stepped()

    def _strips_of(self, box: Mapping[int, m.Fair]) -> list[Strip]:
        out: list[Strip] = []
        for s in sorted(box):
            try:
                got = _strips.decode(box[s].body)
            except (msgspec.DecodeError, msgspec.ValidationError) as e:
                raise FairDealError(f"seat {s + 1} sent malformed strips: {e}", [s]) from None
            if len(got) > MAX_STRIPS:
                raise FairDealError(f"seat {s + 1} sent {len(got)} strips in one round", [s])
            if any(st.seat != s for st in got):
                raise FairDealError(f"seat {s + 1} sent another seat's strip as its own", [s])
            out += got
        return out

    def _spawn(self, coro: Awaitable[Any]) -> None:
        t = asyncio.ensure_future(coro)
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)

    async def _move(self, ply: int) -> None:
        view = self.fs.view.clone()
        action = await self.choose(view)
        if self.fs.view.ply != ply or self.over.done():
            return
        self._send("act", ply, str(action).encode())
        self.pump()

    async def audit(self, reveals: Mapping[int, KeyReveal]) -> FairAudit:
        """Every deck audited and the game replayed in full (in a worker thread: it decrypts every card)."""
        rep = await asyncio.to_thread(self.fs.audit, reveals)
        self.whole = rep.record
        return rep


def fair_record(drv: FairDriver, meta: dict[str, str] | None = None) -> GameRecord | None:
    """A copy of the whole game `drv`'s audit replayed, with `meta` (None before a clean audit)."""
    if drv.whole is None:
        return None
    return msgspec.structs.replace(drv.whole, meta={**drv.whole.meta, **(meta or {})})
