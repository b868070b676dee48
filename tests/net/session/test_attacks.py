"""Issue 13's attacks on a LAN table, each refused or named (in-process, loopback).

A modified host (hostile_host.py) or hostile peers built on the real session
classes; the honest seats must name what happened, and where the attacker is a
peer, the honest seats finish with equal digests. The attacks that need real
processes (a memory flood measured in RSS, a host frozen with SIGSTOP) are in
test_attacks_netns.py.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from coldwater.net import beacon
from coldwater.net import fairplay as fp
from coldwater.net import messages as m
from coldwater.net.identity import Identity
from coldwater.net.session import TableHost, TablePeer
from coldwater.net.transport import Refusal

from ...toygame import GAME
from .. import beaconplay
from .hostile_host import HostileHost
from .peers import cautious


def _peer(name: str, cls: type[TablePeer] = TablePeer, **kw: Any) -> TablePeer:
    kw.setdefault("chooser", cautious)
    return cls(GAME, Identity.generate(), name=name, bind="127.0.0.1", **kw)


async def _play(host: TableHost, peers: list[TablePeer], *, timeout: float = 40, host_must_finish: bool = True) -> None:
    """Run the table; an attacked host may be left waiting for peers that left, so it is then stopped."""
    port = await host.listen()
    ht = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port)
    results = await asyncio.wait_for(asyncio.gather(*(p.run() for p in peers), return_exceptions=True), timeout)
    for r in results:
        if isinstance(r, BaseException) and not isinstance(r, Refusal):
            raise r
    if host_must_finish:
        await asyncio.wait_for(ht, timeout)
    else:
        ht.cancel()
        await asyncio.gather(ht, return_exceptions=True)


def _hostile(attack: str, seats: list[str], **kw: Any) -> HostileHost:
    kw.setdefault("chooser", cautious)
    return HostileHost(GAME, Identity.generate(), name="t", seats=seats, bind="127.0.0.1", attack=attack, **kw)


def _honest(seats: list[str], **kw: Any) -> TableHost:
    kw.setdefault("chooser", cautious)
    return TableHost(GAME, Identity.generate(), name="t", seats=seats, bind="127.0.0.1", **kw)


# ---- 1. a host that swaps a move or plays for a remote seat -------------------------
@pytest.mark.parametrize("attack", ["swap", "play-for"])
async def test_1_a_host_that_changes_a_seats_move_is_named_by_every_peer(attack: str) -> None:
    host = _hostile(attack, ["host", "open", "open"], victim=1)
    a, b = _peer("a"), _peer("b")
    await _play(host, [a, b], host_must_finish=False)
    assert host.done == 1
    for p in (a, b):
        assert p.result is not None and not p.result.audit_ok, p.problems
        text = " ".join(p.result.problems)
        assert "the host (seat 1) cheated" in text
        if p.seat == 1 and attack == "swap":  # the victim knows the move it sent
            assert "the host replaced our move" in text, text
        else:
            assert "seat 2's move" in text and ("not signed by seat 2" in text or "no signature of seat 2" in text), (
                text
            )


# ---- 2. a host that grinds the seed by restarting the round -------------------------
async def test_2_a_host_restarting_the_seed_round_is_named_and_left() -> None:
    host = _hostile("grind", ["host", "open"])
    a = _peer("a")
    port = await host.listen()
    ht = asyncio.ensure_future(host.run())
    await a.join("127.0.0.1", port)
    with pytest.raises(Refusal):
        await asyncio.wait_for(a.run(), 30)
    ht.cancel()
    await asyncio.gather(ht, return_exceptions=True)
    text = "\n".join(a.problems)
    assert host.done == 3  # three whole rounds, then the peer refused a fourth
    assert "restarted the seed round (round 2): no reason given" in text
    assert "asked for a seed 4 times (at most 3)" in text


async def test_2_an_honest_restart_is_explained_to_every_peer_with_the_reveals() -> None:
    class Withholder(TablePeer):
        async def _handle(self, conn: Any, msg: Any) -> None:
            if isinstance(msg, m.Commits):
                return  # commits, never reveals
            await super()._handle(conn, msg)

    host = _honest(["host", "open", "open"])
    host.seeding.round_timeout = 1.0
    a, w = _peer("a"), _peer("w", Withholder)
    await _play(host, [a, w])
    assert a.seed.rounds == 2
    text = "\n".join(a.problems)
    assert f"blamed: seat(s) {w.seat + 1}" in text and "withheld" in text
    assert any("did not reveal its seed contribution" in c for c in host.cheaters)


# ---- 3. fake scores and final position ---------------------------------------------
async def test_3_a_false_end_is_named_and_scores_come_from_each_peers_replay() -> None:
    host = _hostile("fake-end", ["host", "open", "open"])
    a, b = _peer("a"), _peer("b")
    await _play(host, [a, b])
    assert host.done >= 2 and host.result is not None
    for p in (a, b):
        assert p.result is not None and not p.result.audit_ok
        assert any("final position announced differs from the replay" in x for x in p.result.problems)
        assert p.result.scores == host.result.scores and p.result.outcome == host.result.outcome


# ---- 4. a false private view; a history rewritten by a resync ----------------------------
async def test_4_a_view_that_does_not_hold_the_sealed_value_revealed_is_evidence() -> None:
    host = _hostile("false-view", ["host", "open", "open"], victim=1)
    host.set_turn_timer(1, bank=0, strict=True)  # the victim leaves; the others play on with a bot in its seat
    host.ending.grace = 1.0
    a, b = _peer("a"), _peer("b")
    await _play(host, [a, b], timeout=60)
    victim = a if a.seat == 1 else b
    assert host.done >= 1 and victim.result is not None and not victim.result.audit_ok
    assert any("does not hold the sealed value" in x for x in victim.result.problems), victim.problems


async def test_4_a_resync_that_rewrites_a_peers_record_is_evidence() -> None:
    host = _hostile("rewrite", ["host", "open", "open"], victim=1)
    host.set_turn_timer(1, bank=0, strict=True)  # the victim leaves; the others play on with a bot in its seat
    host.ending.grace = 1.0
    a, b = _peer("a"), _peer("b")
    await _play(host, [a, b], timeout=60)
    victim = a if a.seat == 1 else b
    assert host.done == 1 and victim.result is not None and not victim.result.audit_ok
    assert any("ply 3: the host tried to rewrite our record" in x for x in victim.result.problems), victim.problems


def test_4_the_audit_compares_the_private_views_a_peer_was_sent() -> None:
    dealer = fp.CommittedDealer()
    chs = beaconplay.chains([0, 1])
    steps, _, joint = beaconplay.play(GAME, 2, dealer, chs, until=6)
    tips = fp.tips(beaconplay.reveals(chs))
    s = GAME.new(2, seed=fp.game_seed(joint))
    views: dict[int, bytes] = {}
    for st in steps:  # the true view of seat 2 after each step, from a replay
        s = fp.rebuild(GAME, 2, None, joint, dealer.secret(), steps[: st.ply], book=beacon.Book(tips))
        views[st.ply] = bytes.fromhex(s.view(1).digest())
    ok = fp.audit(GAME, 2, None, joint, dealer.commitment, dealer.secret(), steps, tips=tips, seat=1, views=views)
    assert ok.ok, ok.problems
    views[2] = b"\x00" * 32
    bad = fp.audit(GAME, 2, None, joint, dealer.commitment, dealer.secret(), steps, tips=tips, seat=1, views=views)
    assert not bad.ok and "ply 2: the private view the host sent seat 2 is not its true view" in bad.problems[0]


# ---- 5. different stories: peers compare signed final digests -----------------------
async def test_5_a_forged_final_digest_relay_is_named() -> None:
    host = _hostile("forge-final", ["host", "open", "open"])
    a, b = _peer("a"), _peer("b")
    await _play(host, [a, b])
    for p in (a, b):
        assert p.result is not None and not p.result.audit_ok
        assert any("final digest is not signed by seat" in x for x in p.result.problems), p.problems


async def test_5_a_peer_with_another_story_is_named_and_the_honest_seats_agree() -> None:
    class Liar(TablePeer):
        async def _handle(self, conn: Any, msg: Any) -> None:
            if not isinstance(msg, m.End):
                await super()._handle(conn, msg)
                return
            send = conn.send_nowait

            def lie(x: Any) -> None:
                if isinstance(x, m.Final):
                    d = b"\x33" * 32
                    x = m.Final(
                        seat=x.seat,
                        digest=d,
                        sig=self.identity.sign(fp.final_message(self.record.joint, self.state.ply, d)),
                    )
                send(x)

            conn.send_nowait = lie
            await super()._handle(conn, msg)

    host = _honest(["host", "open", "open"])
    a, liar = _peer("a"), _peer("liar", Liar)
    await _play(host, [a, liar])
    assert a.result is not None and host.result is not None and a.result.digest == host.result.digest
    assert any(f"seat {liar.seat + 1}" in x and "another final position" in x for x in a.result.problems)


# ---- 6. failover: the new host audits, rebuild checks sealed values, blame is right ------
def test_6_rebuild_refuses_a_sealed_value_the_old_host_dealt_wrong() -> None:
    dealer = fp.CommittedDealer()
    chs = beaconplay.chains([0, 1])
    steps, _, joint = beaconplay.play(GAME, 2, dealer, chs, until=4)
    tips = fp.tips(beaconplay.reveals(chs))
    fp.rebuild(GAME, 2, None, joint, dealer.secret(), steps, book=beacon.Book(tips))
    steps[0] = m.Step(ply=1, seat=-1, digest=steps[0].digest, commit=b"\x00" * 32)
    with pytest.raises(fp.FairPlayError) as e:
        fp.rebuild(GAME, 2, None, joint, dealer.secret(), steps, book=beacon.Book(tips))
    assert "sealed value does not match its commitment" in str(e.value) and e.value.culprits == ("dealer",)


async def test_6_a_new_host_audits_the_game_for_real(monkeypatch: pytest.MonkeyPatch) -> None:
    audits: list[bool] = []
    real = fp.audit

    def counting(*a: Any, **kw: Any) -> Any:
        rep = real(*a, **kw)
        audits.append(kw.get("final") is not None and rep.ok)  # only a host passes its final state
        return rep

    monkeypatch.setattr(fp, "audit", counting)

    async def slow(view: Any, seat: int) -> Any:
        # People think: instant choosers could finish the game between two polls of the
        # loop below (seen once in 13 runs under load), and then no host fails over.
        await asyncio.sleep(0.02)
        return await cautious(view, seat)

    host = _honest(["host", "open", "open", "open"], chooser=slow)
    peers = [_peer(f"p{i}", reconnect_for=15, chooser=slow) for i in range(3)]
    port = await host.listen()
    ht = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port)
    tasks = [asyncio.ensure_future(p.run()) for p in peers]
    async with asyncio.timeout(20):
        while peers[2].state is None or peers[2].state.ply < 8:
            await asyncio.sleep(0.01)
    ht.cancel()
    await asyncio.gather(ht, return_exceptions=True)
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    new = peers[0].takeover
    assert new is not None and new.failover_ply >= 8 and True in audits
    results = [p.result for p in peers]
    assert all(r is not None and r.audit_ok for r in results) and len({r.digest for r in results if r}) == 1


# ---- 7. escrow: never one holder ---------------------------------------------------------
async def test_7_one_remote_seat_gets_no_share_and_is_told_failover_is_off() -> None:
    async def slow(view: Any, seat: int) -> Any:
        # People think: the game must still be on when the host is cut off at ply 6.
        await asyncio.sleep(0.05)
        return await cautious(view, seat)

    host = _honest(["host", "open", "bot"], chooser=slow)
    a = _peer("a", chooser=slow)
    port = await host.listen()
    ht = asyncio.ensure_future(host.run())
    await a.join("127.0.0.1", port)
    at = asyncio.ensure_future(a.run())
    async with asyncio.timeout(20):
        while a.state is None or a.state.ply < 6:
            await asyncio.sleep(0.01)
    assert a.share == b"" and a.info is not None and not a.info.failover
    assert any("failover is off" in p for p in a.problems)
    ht.cancel()
    await asyncio.gather(ht, return_exceptions=True)
    try:
        res = await asyncio.wait_for(at, 20)
    except Refusal as e:
        assert "failover is off" in str(e)
    else:
        pytest.fail(f"the peer finished without its host: {res}, {a.problems}")


def test_7_escrow_shares_never_hold_the_secret_alone() -> None:
    secret = b"s" * 32
    assert fp.split_secret(secret, 1) == [] and fp.split_secret(secret, 0) == []
    shares = fp.split_secret(secret, 2)
    assert len(shares) == 2 and secret not in shares and fp.combine_shares(shares) == secret


# ---- 8. a flooding peer: strikes across reconnects, bounded refusals ------------------------
async def test_8_refusals_are_strikes_per_identity_across_reconnects() -> None:
    from coldwater.net.session.host.host import STRIKES

    class Junk(TablePeer):
        async def _move(self, view: Any) -> None:
            assert self.conn is not None
            for _ in range(STRIKES // 2 + 5):
                self.conn.send_nowait(m.Act(ply=view.ply, action="no-such-move"))
            await self.conn.drain()
            await self.conn.close()  # and come back: the count must not start again

    host = _honest(["host", "open", "open"])
    good, junk = _peer("good"), _peer("junk", Junk, reconnect_for=10)
    await _play(host, [good, junk])
    assert host.strikes[junk.identity.public] >= STRIKES
    assert any("refused messages and is sent away" in c for c in host.cheaters)
    assert good.result is not None and host.result is not None and good.result.digest == host.result.digest
    assert good.result.audit_ok and len(host.refusals) <= host.refusals.maxlen  # type: ignore[operator]


# ---- 9. stalls ----------------------------------------------------------------------------
async def test_9_a_seat_that_never_moves_is_named_and_played_by_a_bot() -> None:
    async def never(view: Any, seat: int) -> Any:
        await asyncio.Event().wait()

    host = _honest(["host", "open", "open"])
    host.set_turn_timer(1, bank=0, strict=True)
    good, stuck = _peer("good"), _peer("stuck", chooser=never)
    await _play(host, [good, stuck], timeout=60)
    assert any("did not move for " in p and "(0:01 a move)" in p for p in host.problems)
    assert good.result is not None and stuck.result is not None and host.result is not None
    assert good.result.digest == stuck.result.digest == host.result.digest and good.result.audit_ok


# ---- 16. public draws: the seats' hash-chain beacons ---------------------------------------
class _BadLinker(TablePeer):
    """Sends one bad link at the first chance node after its first good one, then behaves."""

    mode = "wrong"

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.sent_bad = False

    def maybe_link(self) -> None:
        st, conn = self.state, self.conn
        if (
            not self.sent_bad
            and st is not None
            and conn is not None
            and self.linked != st.ply
            and beacon.link_due(st)
            and self.record.book.last.get(self.seat, (0, b""))[0] > 0
        ):
            self.sent_bad = True
            bad = b"\x55" * 16 if self.mode == "wrong" else self.record.book.last[self.seat][1]
            conn.send_nowait(m.Link(ply=st.ply, link=bad))
        super().maybe_link()


class _Replayer(_BadLinker):
    mode = "replay"


@pytest.mark.parametrize(
    "cls,said",
    [(_BadLinker, "does not hash onto its committed chain"), (_Replayer, "replayed its link of ply")],
    ids=["wrong", "replayed"],
)
async def test_16_a_wrong_or_replayed_link_is_refused_and_its_seat_named(cls: type[TablePeer], said: str) -> None:
    host = _honest(["host", "open", "open"])
    good, bad = _peer("good"), _peer("bad", cls)
    await _play(host, [good, bad])
    assert bad.sent_bad  # type: ignore[attr-defined]
    named = [c for c in host.cheaters if f"(seat {bad.seat + 1}," in c and "bad beacon link" in c]
    assert named and said in named[0], host.cheaters
    assert any("refused link from" in x and said in x for x in host.refusals)
    assert host.strikes[bad.identity.public] >= 1
    assert any(f"seat {bad.seat + 1}" in p and "bad beacon link" in p for p in good.problems)  # told to everyone
    # The refused link changed nothing: its right link came next, and every seat agrees.
    for p in (good, bad):
        assert p.result is not None and p.result.audit_ok and host.result is not None, p.problems
        assert p.result.digest == host.result.digest


async def test_16_a_withheld_link_names_the_seat_gives_it_to_a_bot_and_the_draw_goes_on() -> None:
    class Withholder(TablePeer):
        def maybe_link(self) -> None:
            pass  # keeps its links to itself

    host = _honest(["host", "open", "open"])
    host.beacons.link_timeout = 1.0
    good, w = _peer("good"), _peer("w", Withholder)
    await _play(host, [good, w])
    assert any(f"(seat {w.seat + 1}," in c and "did not send its beacon link" in c for c in host.cheaters)
    assert w.seat in host.extra_bots and host.remotes[w.seat].by_bot
    assert any("did not send its beacon link" in p and f"seat {w.seat + 1}" in p for p in good.problems)
    assert good.result is not None and host.result is not None and good.result.audit_ok, good.problems
    assert good.result.digest == host.result.digest
    # The draws after it went on with the others' links only.
    later = [s for s in host.record.steps if s.links and w.seat not in s.links]
    assert later and all(good.seat in s.links and host.host_seat in s.links for s in later)


async def test_16_a_link_from_someone_not_at_the_table_is_refused_and_named() -> None:
    from coldwater.net.transport import connect

    host = _honest(["host", "open"])
    a = _peer("a", chooser=_slow)
    port = await host.listen()
    ht = asyncio.ensure_future(host.run())
    await a.join("127.0.0.1", port)
    at = asyncio.ensure_future(a.run())
    async with asyncio.timeout(20):
        while a.state is None or a.state.ply < 4:
            await asyncio.sleep(0.01)
    stranger = Identity.generate()
    conn, _ = await connect("127.0.0.1", port, stranger, GAME.name, GAME.content_hash)
    conn.send_nowait(m.Link(ply=a.state.ply, link=b"\x11" * 16))
    await conn.drain()
    await asyncio.wait_for(asyncio.gather(at, ht), 40)
    await conn.close()
    assert any(stranger.fingerprint in x and "not seated at this table" in x for x in host.refusals), host.refusals
    assert a.result is not None and host.result is not None and a.result.audit_ok
    assert a.result.digest == host.result.digest


async def _slow(view: Any, seat: int) -> Any:
    await asyncio.sleep(0.03)
    return await cautious(view, seat)


async def test_16_a_two_player_fisheries_table_fails_over_with_no_escrow() -> None:
    from coldwater.core import games
    from coldwater.net.session import bot_chooser

    game = games.get("fisheries")
    # Seats that think a little, so the game is still on when its host goes (under load too).
    host = TableHost(
        game,
        Identity.generate(),
        name="f",
        seats=["host", "open"],
        bind="127.0.0.1",
        chooser=bot_chooser(game, think=0.05),
    )
    peer = TablePeer(
        game, Identity.generate(), name="p", bind="127.0.0.1", chooser=bot_chooser(game, think=0.05), reconnect_for=15
    )
    assert host.info.failover  # one remote seat, no sealed values: no escrow needed
    port = await host.listen()
    ht = asyncio.ensure_future(host.run())
    await peer.join("127.0.0.1", port)
    pt = asyncio.ensure_future(peer.run())
    async with asyncio.timeout(30):
        while peer.state is None or peer.state.ply < 12:
            await asyncio.sleep(0.01)
    ht.cancel()
    await asyncio.gather(ht, return_exceptions=True)
    old = list(host.record.steps)
    res = await asyncio.wait_for(pt, 90)
    new = peer.takeover
    assert peer.share == b"" and peer.host_changes == 1 and new is not None, (peer.problems, res)
    assert res.audit_ok, res.problems
    assert new.failover_ply >= 12 and [s.digest for s in new.record.steps[: len(old)]] == [s.digest for s in old]
    assert any(s.links and peer.seat in s.links for s in new.record.steps[new.failover_ply :])  # it draws in public now
    # The new host's record, audited from scratch, ends in the digest the game ended with.
    rep = fp.audit(
        game,
        2,
        peer.info.options,
        peer.record.joint,
        peer.dealer_commit,
        b"",
        new.record.steps,
        tips=fp.tips(peer.record.reveals),
    )  # type: ignore[union-attr]
    assert rep.ok and rep.final_digest == res.digest, rep.problems


async def test_16_a_host_that_quietly_drops_a_seats_link_is_caught_by_that_seat() -> None:
    from coldwater.net.session.host.beacons import Beacons

    class Dropper(Beacons):  # the host's public draws gather their links here (beacons.py)
        async def gather_links(self, state: Any) -> dict[int, bytes]:
            links = await super().gather_links(state)
            links.pop(1, None)  # redraw without seat 2's link, as a host that disliked the outcome would
            return links

    host = TableHost(GAME, Identity.generate(), name="t", seats=["host", "open", "open"], bind="127.0.0.1")
    host.beacons.__class__ = Dropper  # the host takes links there; its relay draws with them
    host.chooser = cautious
    host.set_turn_timer(1, bank=0, strict=True)
    host.ending.grace = 1.0
    a, b = _peer("a"), _peer("b")
    await _play(host, [a, b], timeout=60, host_must_finish=False)
    victim = a if a.seat == 1 else b
    assert victim.result is not None and not victim.result.audit_ok
    assert any("the seats' links draw" in x for x in victim.result.problems), victim.problems


async def test_16_a_seat_silent_at_a_draw_is_dropped_once_not_named_and_comes_back() -> None:
    class Frozen(TablePeer):
        """Freezes (reads nothing, says nothing) at its first public draw, as a sleeping laptop would."""

        frozen = False
        froze = False

        def maybe_link(self) -> None:
            st, conn = self.state, self.conn
            started = self.record.book.last.get(self.seat, (0,))[0] > 0  # after its first good link
            if not self.froze and started and st is not None and conn is not None and beacon.link_due(st):
                self.froze = self.frozen = True
                send = conn.send_nowait
                conn.send_nowait = lambda msg: None if self.frozen else send(msg)  # type: ignore[method-assign]
                return
            super().maybe_link()

        async def _handle(self, conn: Any, msg: Any) -> None:
            if not self.frozen:
                await super()._handle(conn, msg)

        async def hello(self, conn: Any, **kw: Any) -> None:
            self.frozen = False  # the old connection is gone: it wakes up and comes back
            await super().hello(conn, **kw)

    host = _honest(["host", "open", "open"])
    host.beacons.link_timeout = 5.0
    good, f = _peer("good"), _peer("f", Frozen, reconnect_for=10)
    await _play(host, [good, f], timeout=60)
    assert f.froze and not host.remotes[f.seat].by_bot, host.problems  # type: ignore[attr-defined]
    assert any(f"(seat {f.seat + 1}) was silent when its beacon link" in p for p in host.problems)
    assert not any(f"(seat {f.seat + 1}," in c for c in host.cheaters), host.cheaters
    for p in (good, f):
        assert p.result is not None and host.result is not None and p.result.audit_ok, p.problems
        assert p.result.digest == host.result.digest
