"""A fair-dealer table's seats in one process with no host: every seat's ``FairSeat``, their messages relayed as bytes.

A test harness, not part of the package (the LAN's one relay is the host's,
``net/session/host/fairhost.py``; the real host and seats also run in one process over
``net/memlink.py``). Tests that play referee at the level of the seats' own objects, or
rewrite what one seat sends (`tamper`), drive games through it.

Each round, every seat's messages are encoded, handed to the others and decoded
there, in the order the LAN session would relay them, and after every ply the seats'
public digests are compared (as the host compares its own with each peer's). With
`observe`, an observer (a seatless host's ``FairSeat``, no key) takes every message too.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

from coldwater.core.rng import Rng
from coldwater.core.state import Game
from coldwater.net.fairdeal import mapping
from coldwater.net.fairdeal.deck import FairDealError
from coldwater.net.fairdeal.seat import FairAudit, FairSeat, Word
from coldwater.net.fairdeal.wire import KeyReveal, KeyShare, ShuffledDeck, Strip

Tamper = Callable[[str, int, Any], Any]
"""(round, ply, message) → the message a dishonest seat sends instead (None: it withholds)."""

_enc = msgspec.msgpack.Encoder()

T = TypeVar("T")


@dataclass
class Stats:
    setup_s: float = 0.0
    shuffles_s: float = 0.0
    """The setup and every shuffle after it (a deck merged from others, a deck formed again from a discard)."""
    private_deals_s: list[float] = field(default_factory=list)
    bytes: int = 0
    plies: int = 0


class LocalTable:
    def __init__(
        self,
        game: Game[Any, Any],
        players: int,
        joint: bytes,
        *,
        bots: Sequence[str] = ("greedy", "random"),
        tamper: dict[int, Tamper] | None = None,
        options: object = None,
        seats: Sequence[FairSeat] | None = None,
        observe: bool = False,
    ) -> None:
        """A new table, or (`seats`) a new relay for the processes of a table under way: the relay
        holds no secret (no key, no card), so any process can take the role over."""
        self.game = game
        self.seats = (
            list(seats) if seats is not None else [FairSeat(game, players, s, joint, options) for s in range(players)]
        )
        self.observer = FairSeat(game, players, None, joint, options) if observe else None
        """A process with no seat that follows the table (a seatless host's): it takes, never sends."""
        self.bots = [game.bot(bots[s % len(bots)]) for s in range(players)]
        self.rng = Rng(b"local-table/" + joint)
        self.tamper = tamper or {}
        self.stats = Stats()
        self.after_ply: Callable[[LocalTable], None] | None = None

    @property
    def takers(self) -> list[FairSeat]:
        """Every process that takes the rounds' messages: the seats, and the observer if any."""
        return [*self.seats, *([self.observer] if self.observer is not None else [])]

    def _out(self, round_: str, seat: int, msg: Any) -> Any:
        t = self.tamper.get(seat)
        return t(round_, self.seats[0].view.ply, msg) if t is not None else msg

    def _send(self, msg: object, kind: type[T]) -> T:
        data = _enc.encode(msg)
        self.stats.bytes += len(data)
        return msgspec.msgpack.decode(data, type=kind)

    # ---- rounds ------------------------------------------------------------------------------------
    def setup(self) -> None:
        t0 = time.perf_counter()
        shares = []
        for s in self.seats:
            share = self._out("key", s.own_seat, s.key_share())
            if share is not None:
                shares.append(self._send(share, KeyShare))
        for s in self.takers:
            s.take_keys(shares)
        tips = {s.own_seat: s.own_chain.tip for s in self.seats}  # committed in the seed round at a LAN table
        for s in self.takers:
            s.take_tips(tips)
        self._shuffle()
        self.stats.setup_s = time.perf_counter() - t0
        self.stats.shuffles_s = self.stats.setup_s  # the setup's shuffles, and its key round

    def _shuffle(self) -> None:
        """Every deck still to shuffle, each seat's pass in seat order, checked by every other seat
        (a deck merged from what others left is formed once they are shuffled, and shuffled too)."""
        t0 = time.perf_counter()
        while pending := self.seats[0].pending_decks():
            deck = pending[0]
            for s in self.seats:
                seat = s.own_seat
                msg = self._out("pass", seat, s.make_pass(deck))
                if msg is None:
                    raise FairDealError(f"seat {seat + 1} withheld its pass of {deck}", [seat])
                got = self._send(msg, ShuffledDeck)
                for o in self.takers:
                    if o is not s:
                        o.take_pass(got)
        self.stats.shuffles_s += time.perf_counter() - t0

    def ply(self) -> bool:
        """One ply of the game through every seat; False once it is over."""
        nodes = [s.node() for s in self.takers]
        if any(n != nodes[0] for n in nodes):
            raise FairDealError(f"the seats disagree on what ply {self.seats[0].view.ply} needs: {nodes}")
        node = nodes[0]
        if node is None:
            return False
        if isinstance(node, mapping.Beacon):
            links: dict[int, bytes] = {}
            for s in self.seats:
                link = self._out("link", s.own_seat, s.link())
                if link is not None:
                    links[s.own_seat] = self._send(link, bytes)
            for s in self.takers:
                s.take_public(links)
        elif isinstance(node, mapping.FromDeck):
            t0 = time.perf_counter()
            owed = self.seats[0].owed()
            strips = self._strips("deal", [s.deal_strips() for s in self.seats])
            self.seats[0].check_strips(strips)  # the host checks each strip as it arrives
            self._withheld(owed, strips)
            for s in self.takers:
                s.take_deal(strips)
            if any(to >= 0 for to in node.opens):
                self.stats.private_deals_s.append(time.perf_counter() - t0)
        else:
            actor = self.seats[node]
            action = self.bots[node].choose(actor.view, self.rng.fork(actor.view.ply))
            text = str(action)
            per_seat = [s.act_strips(self.game.parse_action(text)) for s in self.seats]
            if self.observer is not None:
                assert not self.observer.act_strips(self.game.parse_action(text))  # it opens the action, strips none
            owed = self.seats[0].owed()
            strips = self._strips("act", per_seat)
            self.seats[0].check_strips(strips)
            self._withheld(owed, strips)
            for s in self.takers:
                s.take_act_strips(strips)
            words: dict[int, Word] = {}
            for s in self.seats:
                w = s.word(self.game.parse_action(text))
                w = self._out("word", s.own_seat, w) if w is not None else None
                if w is not None:
                    words[s.own_seat] = self._send(w, Word)
            for s in self.takers:
                s.take_words(words)
            # A word that handed cards over (passed on to one seat): every seat but the receiver strips it.
            owed = self.seats[0].owed()
            passed = self._strips("pass-on", [s.pass_strips() for s in self.seats])
            if owed or passed:
                self.seats[0].check_strips(passed)
                self._withheld(owed, passed)
            for s in self.takers:
                s.take_act(self.game.parse_action(text), words, passed)
        self._shuffle()  # a reformed tackle stack
        digests = [s.public_digest() for s in self.takers]
        wrong = [i for i, d in enumerate(digests) if d != digests[0]]
        if wrong:
            raise FairDealError(f"public digests differ from the host's at ply {self.seats[0].view.ply}", wrong)
        self.stats.plies += 1
        if self.after_ply is not None:
            self.after_ply(self)
        return True

    def _withheld(self, owed: set[tuple[int, str, int, int]], strips: Sequence[Strip]) -> None:
        """The host's timer, with no waiting here: a seat whose strip is missing is named, and the game ends.

        The table's rule (docs/fairplay.md): no one else can strip for a seat, since
        its layer is its key, so the game cannot go on without it; it ends (or, at a
        LAN table, waits for the seat to come back), and the seat is named to everyone.
        """
        got = {(s.seat, s.deck, s.position, s.part) for s in strips}
        late = sorted({w[0] for w in owed - got})
        if late:
            who = ", ".join(str(s + 1) for s in late)
            raise FairDealError(
                f"seat(s) {who} withheld a strip at ply {self.seats[0].view.ply}: no one else holds that layer, "
                "so the game cannot go on without it and ends",
                late,
            )

    def _strips(self, round_: str, per_seat: list[list[Strip]]) -> list[Strip]:
        out: list[Strip] = []
        for seat, strips in enumerate(per_seat):
            for st in strips:
                sent = self._out(round_, seat, st)
                if sent is not None:
                    out.append(self._send(sent, Strip))
        return out

    def finish(self) -> list[FairAudit]:
        reveals: dict[int, KeyReveal] = {}
        for s in self.seats:
            r = self._out("reveal", s.own_seat, s.key_reveal())
            if r is not None:
                reveals[s.own_seat] = self._send(r, KeyReveal)
        # (The observer's audit, if any, comes last: the seats' are indexed by seat.)
        return [s.audit(reveals) for s in self.takers]

    def play(self, max_plies: int = 100_000) -> list[FairAudit]:
        self.setup()
        while self.ply():
            if self.stats.plies > max_plies:
                raise RuntimeError("the game did not end")
        return self.finish()
