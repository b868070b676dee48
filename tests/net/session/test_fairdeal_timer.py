"""The turn timer at a fair-dealer table, kept by the slow seat's own process (net/session/standin.py).

No process but a seat's own holds its view, so only that process can play the seat when its person
does not move in time: its bot plays from the seat's own view until the person comes back, and the
table is told through the host (a signed ``AutoPlay`` from a peer; the host's own seat directly).
Whole Crown games over loopback, as in test_fairdeal_session.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from coldwater.core import games
from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import State
from coldwater.net import messages as m
from coldwater.net.identity import Identity
from coldwater.net.session import Event, Problem, TableHost, TablePeer, bot_chooser
from coldwater.net.session.fairwire import fair_message

CROWN = games.get("crown")
BOT = CROWN.bot(CROWN.bots[0])
SLOW = "(0:01 a move); their own app plays the seat until they return"
BACK = "is back; their own app's bot stops playing the seat"


def _slow(heard: list[str], who: str, prefix: str = "") -> list[str]:
    """The lines of `heard` telling that `who` (``"slow (seat 2)"``) did not move, however long it was."""
    return [t for t in heard if t.startswith(f"{prefix}{who} did not move for ") and t.endswith(SLOW)]


def _host(seats: list[str], *, turn: int, person: bool = False) -> TableHost:
    return TableHost(
        CROWN,
        Identity.generate(),
        name="timer",
        seats=seats,
        bind="127.0.0.1",
        chooser=None if person else bot_chooser(CROWN),
        dealer="fair",
        watchers=0,
        turn_timer=turn,
        time_bank=0,
        strict_clock=True,  # the bot plays as soon as the move's time is out (test_turnclock.py: a normal clock)
        auto_start=True,
    )


def _peer(name: str, *, person: bool = False) -> TablePeer:
    return TablePeer(
        CROWN, Identity.generate(), name=name, bind="127.0.0.1", chooser=None if person else bot_chooser(CROWN)
    )


def _heard(party: TableHost | TablePeer) -> list[str]:
    """Every Problem text `party` emits from now on (the log pane's lines)."""
    out: list[str] = []

    def on(ev: Event) -> None:
        if isinstance(ev, Problem):
            out.append(ev.text)

    party.subscribe(on)
    return out


async def _until(cond: Callable[[], bool], timeout: float = 60.0) -> None:
    async with asyncio.timeout(timeout):
        while not cond():
            await asyncio.sleep(0.005)


async def _play(host: TableHost, peers: list[TablePeer], *drivers: Any) -> None:
    """Run the table (and the test's drivers beside it) until every party has its result."""
    task = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port=host.port)
        if p.chooser is None:
            p.set_ready()  # a person says so (a bot's peer is ready on joining)
    side = [asyncio.ensure_future(d) for d in drivers]
    try:
        await asyncio.wait_for(asyncio.gather(task, *(p.run() for p in peers)), 240)
        for s in side:
            if s.done():
                s.result()  # a driver's failed assertion fails the test
    finally:
        for s in side:
            s.cancel()


def _all_ok(host: TableHost, peers: list[TablePeer]) -> None:
    assert host.result is not None and host.result.audit_ok, host.result
    for p in peers:
        assert p.result is not None and p.result.audit_ok, (p.result, p.problems)
        assert p.result.digest == host.result.digest


def _move(view: State[Any, Any]) -> Action:
    return BOT.choose(view, Rng(view.ply))


async def test_a_peer_who_never_moves_is_played_by_its_own_process_and_everyone_is_told() -> None:
    host = _host(["host", "open", "open"], turn=1)
    await host.listen()
    slow, other = _peer("slow", person=True), _peer("other")
    host_heard = _heard(host)
    await _play(host, [slow, other])
    _all_ok(host, [slow, other])
    assert slow.bot_plays and slow.stand_in is not None
    assert any("you did not move for " in t and "(0:01 a move)" in t for t in slow.problems), slow.problems
    # Everyone else is told once, by the host: a Notice with the name and seat, and Presence by_bot.
    told = _slow(host_heard, "slow (seat 2)")
    assert len(told) == 1, host_heard
    assert [t for t in other.problems if SLOW in t] == [f"table says: {told[0]}"], other.problems
    assert other.botted == {1}
    assert host.remotes[1].timed_out and any(s.seat == 1 and s.bot for s in host.lobby())
    assert not [x for x in host.refusals if "autoplay" in x], host.refusals


class _SlowBot:
    """The game's bot, thinking at least `think` seconds (a person's move may arrive meanwhile)."""

    def __init__(self, think: float) -> None:
        self.think = think
        self.moves = 0

    def choose(self, view: State[Any, Any], rng: Rng) -> Action:
        import time

        time.sleep(self.think)
        self.moves += 1
        return BOT.choose(view, rng)


async def test_a_move_while_the_bot_thinks_wins_and_the_person_has_the_seat_again() -> None:
    host = _host(["host", "open", "open"], turn=1)
    await host.listen()
    slow, other = _peer("slow", person=True), _peer("other")
    host_heard = _heard(host)
    mine: list[tuple[int, str]] = []
    waited: list[int] = []

    async def person() -> None:
        await _until(lambda: slow.stand_in is not None)
        assert slow.stand_in is not None
        slow.stand_in.bot = _SlowBot(0.5)  # type: ignore[assignment]
        await _until(lambda: slow.bot_plays)
        # The bot has the seat: at our next turn, while it thinks, the person moves.
        await _until(lambda: slow.awaiting_person and slow.state is not None and slow.state.current == slow.seat)
        assert slow.state is not None
        at = slow.state.ply  # (the seat's view is advanced in place: keep the number)
        action = _move(slow.state)
        slow.submit(action)
        mine.append((at, str(action)))
        assert not slow.bot_plays
        slow.stand_in.bot = BOT  # (the rest of the game at the bot's own pace)
        # The next decision of ours waits for the person (no move for longer than the bot ever thinks).
        await _until(lambda: slow.awaiting_person and slow.state is not None and slow.state.ply > at)
        assert slow.state is not None
        ply = slow.state.ply
        await asyncio.sleep(0.7)
        assert slow.state.ply == ply and slow.awaiting_person and not slow.bot_plays
        waited.append(ply)
        # Then the person walks away again: the timer hands the seat back to the bot.

    await _play(host, [slow, other], person())
    _all_ok(host, [slow, other])
    assert mine and waited
    ply, action = mine[0]
    # The person's move, not the bot's, was played at that ply (every seat's record says so).
    rec = slow.full_record()
    assert rec is not None and any(e.action == action for e in rec.entries), action
    back = f"slow (seat 2) {BACK}"
    assert len(_slow(host_heard, "slow (seat 2)")) == 2 and host_heard.count(back) == 1, host_heard
    assert f"table says: {back}" in other.problems, other.problems


async def test_the_hosts_own_person_seat_is_played_by_the_hosts_process_and_taken_back() -> None:
    host = _host(["host", "open"], turn=1, person=True)
    await host.listen()
    other = _peer("other")
    host_heard = _heard(host)
    waited: list[int] = []

    async def person() -> None:
        await _until(lambda: host.bot_plays)
        assert host.lobby()[0].bot and host.take_back() and not host.bot_plays
        assert not host.take_back()  # (once is enough)
        await _until(lambda: host.awaiting_person and host.fair_host.fair is not None)
        assert host.fair_host.fair is not None
        ply = host.fair_host.fair.fs.view.ply
        await asyncio.sleep(0.5)
        assert host.fair_host.fair.fs.view.ply == ply and not host.bot_plays
        waited.append(ply)
        host.submit(_move(host.fair_host.fair.fs.view))  # then walks away again

    await _play(host, [other], person())
    _all_ok(host, [other])
    assert waited and host.bot_plays
    assert len(_slow(host_heard, "host (seat 1)")) == 2, host_heard
    assert host_heard.count(f"host (seat 1) {BACK}") == 1, host_heard
    assert len(_slow(other.problems, "host (seat 1)", "table says: ")) == 2, other.problems
    assert f"table says: host (seat 1) {BACK}" in other.problems
    assert other.botted == {0}


async def test_a_seat_speaking_for_another_seat_is_refused_and_changes_nothing() -> None:
    host = _host(["host", "open", "open"], turn=1)
    await host.listen()
    liar, victim = _peer("liar"), _peer("victim")

    async def lie() -> None:
        lf = liar.fair_peer
        await _until(lambda: lf.fair is not None and lf.fair.fs.view.ply > 20 and liar.conn is not None)
        assert liar.conn is not None
        ply = liar.fair_peer.fair.fs.view.ply  # type: ignore[union-attr]

        def signed(seat: int, on: bool, at: int = ply) -> bytes:
            return liar.identity.sign(
                fair_message(liar.record.joint, "autoplay", at, "", seat, b"\x01" if on else b"\x00")
            )

        for bad in (
            m.AutoPlay(seat=2, ply=ply, on=True, sig=signed(2, True)),  # about another seat, signed by the liar
            m.AutoPlay(seat=1, ply=ply, on=True, sig=signed(1, False)),  # its own seat, but not what it signed
            m.AutoPlay(seat=1, ply=ply + 10_000, on=True, sig=signed(1, True, ply + 10_000)),  # far from the table
        ):
            liar.conn.send_nowait(bad)

    await _play(host, [liar, victim], lie())
    _all_ok(host, [liar, victim])
    refused = [x for x in host.refusals if x.startswith("refused autoplay")]
    assert len(refused) == 3, host.refusals
    assert "seat 2 spoke for seat 3" in refused[0] and "not signed by seat 2" in refused[1] and "far" in refused[2]
    assert not host.remotes[2].timed_out and not host.remotes[1].timed_out
    assert not any(s.bot for s in host.lobby())
    for p in (liar, victim):
        assert not p.botted and not any("their own app" in t for t in p.problems), p.problems


async def test_with_no_turn_timer_nobody_plays_for_the_person() -> None:
    host = _host(["host", "open"], turn=0)
    await host.listen()
    slow = _peer("slow", person=True)
    other_key: list[str] = []

    async def person() -> None:
        await _until(lambda: slow.awaiting_person and slow.state is not None and slow.state.current == slow.seat)
        assert slow.state is not None and slow.conn is not None
        ply = slow.state.ply
        await asyncio.sleep(1.5)
        assert slow.state.ply == ply and slow.awaiting_person and not slow.bot_plays
        # Nor may the seat claim it ran out of time: this table has no timer.
        sig = slow.identity.sign(fair_message(slow.record.joint, "autoplay", ply, "", slow.seat, b"\x01"))
        slow.conn.send_nowait(m.AutoPlay(seat=slow.seat, ply=ply, on=True, sig=sig))
        await _until(lambda: any("autoplay" in x for x in host.refusals))
        other_key.append("checked")
        while slow.result is None:  # the person plays the rest of the game
            st = slow.state
            if st is not None and slow.awaiting_person and st.current == slow.seat:
                slow.submit(_move(st))
            await asyncio.sleep(0.002)

    await _play(host, [slow], person())
    _all_ok(host, [slow])
    assert other_key
    assert any("no turn timer" in x for x in host.refusals), host.refusals
    assert not host.remotes[1].timed_out and not slow.bot_plays


async def test_at_a_committed_table_a_slow_seat_takes_itself_back_from_the_hosts_bot() -> None:
    """The host's bot plays a seat that ran out of time and answers at once, so a move of the person's
    seldom gets in: the person says "I am back" (a signed AutoPlay off; Ctrl+T in the app) and the next
    move is asked of them again. Saying "on" is the host's business there, and is refused."""
    host = TableHost(
        CROWN,
        Identity.generate(),
        name="timer",
        seats=["host", "open"],
        bind="127.0.0.1",
        chooser=bot_chooser(CROWN),
        dealer="committed",
        watchers=0,
        turn_timer=1,
        time_bank=0,
        strict_clock=True,
        auto_start=True,
    )
    await host.listen()
    slow = _peer("slow", person=True)
    host_heard = _heard(host)
    waited: list[int] = []

    async def person() -> None:
        await _until(lambda: slow.bot_plays)  # the host's Presence: its bot has our seat
        assert slow.conn is not None and slow.state is not None
        slow.conn.send_nowait(slow.autoplay(True, slow.state.ply))  # not ours to say here
        assert slow.take_back()
        await _until(lambda: not slow.bot_plays and not host.remotes[1].timed_out)
        for _ in range(3):  # (a decision the host had already given its bot may still be played by it)
            await _until(lambda: slow.awaiting_person)
            assert slow.state is not None
            ply = slow.state.ply
            await asyncio.sleep(0.5)
            if slow.state.ply == ply and slow.awaiting_person:
                waited.append(ply)  # the host waits for the person again
                slow.submit(_move(slow.state))
                return  # then walks away again: the timer hands the seat to the host's bot once more

    await _play(host, [slow], person())
    assert host.result is not None and host.result.audit_ok and slow.result is not None and slow.result.audit_ok
    assert waited, "the host never waited for the person again"
    assert [x for x in host.refusals if "at this table the host plays a seat" in x], host.refusals
    assert any("slow (seat 2) is back" in t for t in host_heard), host_heard
