"""A fair-dealer Crown seat or host with one chosen change, run as a process in a namespace (issue 44).

``python -m tests.net.session.verdictplay host PORT [--accuse SEAT] [--deaf] [--return-wait S]``
``python -m tests.net.session.verdictplay join HOST:PORT [--leave-on-turn PLY] [--slow-answer S] [--accomplice]``

Each is the real TableHost or TablePeer, its bot playing, with one part changed as a sore loser, a
hostile host or its accomplice would change it:

- ``--accuse SEAT`` (host): from ply 30 the host's own move never comes, every seat waits on it, and the
  host proposes SEAT's forfeit (struck out, it says) although SEAT sent every message it owed.
- ``--deaf`` (host, with --accuse): the host takes no answer but its accomplice's and ends at once.
- ``--clock TURN,BANK,GRACE`` (host): a short turn timer, bank and hand-over grace (normal clock;
  ``--strict`` a strict one; ``--game-time S`` each seat's whole time for the game).
- ``--slow-move S`` (join): each of its moves takes S seconds (a slow player, always within the timer).
- ``--slow-person S`` (join): a person at the seat (the app's own stand-in and clock, unchanged), who
  makes each move S seconds after it is asked, always within the timer.
- ``--stall-from PLY`` (join): from PLY its own moves never come (a modified client: its bot never
  plays either).
- ``--hand-over-every S`` (join): asks every S seconds for any seat out of time by its clock to be
  handed to a bot (Ctrl+O held down), and counts the answers.
- ``--return-wait S`` (host): seconds an away seat has to come back (FAIR_RETURN_WAIT, 120 s) so a
  test need not wait two minutes.
- ``--leave-on-turn PLY`` (join): once its own move is awaited at PLY or later, the process closes its
  connection and exits (a rage-quit on its own turn).
- ``--slow-answer S`` (join): reads a forfeit's proposal S seconds late, so it answers S s after it.
- ``--accomplice`` (join): signs every forfeit proposed, checking nothing.

At the end ONE JSON line, as ``coldwater host|join --headless`` prints it (net/cli.py), with the times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from typing import Any

from coldwater.core import games
from coldwater.net import messages as m
from coldwater.net.lan import join_table, keep_record, open_table
from coldwater.net.session import Result, bot_chooser
from coldwater.net.session import forfeit as ff
from coldwater.net.transport import Refusal

CROWN = games.get("crown")


def _line(res: Result, role: str, **extra: Any) -> None:
    out = {
        "role": role,
        "seat": res.seat,
        "scores": res.scores,
        "outcome": res.outcome,
        "audit_ok": res.audit_ok,
        "problems": res.problems,
        "forfeit": res.forfeit,
        "verdict": res.verdict,
        "signed_by": res.signed_by,
        "contested": res.contested,
        "disputed_by": res.disputed_by,
        **extra,
    }
    print(json.dumps(out, sort_keys=True), flush=True)


async def _host(ns: argparse.Namespace) -> int:
    host = await open_table(
        CROWN,
        name="Weir",
        seats=["host", "open", "open"],
        chooser=bot_chooser(CROWN),
        auto_start=True,
        port=ns.port,
        dealer="fair",
        advertise=False,
    )
    fh = host.fair_host
    if ns.clock:
        turn, bank, grace = (int(x) for x in ns.clock.split(","))
        host.set_turn_timer(turn, bank=bank, strict=ns.strict, game_time=ns.game_time)
        fh.timer.act_grace = float(grace)
    if ns.return_wait is not None:
        fh.timer.return_wait = ns.return_wait
    if ns.accuse is not None:
        victim = ns.accuse - 1
        never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        bot = bot_chooser(CROWN)

        async def choose(view: Any, seat: int) -> Any:
            if view.ply >= 30:
                fh.forfeits.forfeiting[victim] = f"seat {victim + 1} was struck out (the host says)"
                return await never
            return await bot(view, seat)

        host.chooser = choose
        fh.forfeits.waits_on = lambda drv: sorted(fh.forfeits.forfeiting)  # type: ignore[method-assign]
        if ns.deaf:
            # The accomplice's answer only; the victim's dispute is dropped, and the host ends as soon as
            # it has one other signature (a 2-of-3 "verdict").
            answer = fh.forfeits.answer

            def deaf(r: Any, conn: Any, msg: m.Fair) -> None:
                if msg.seat != victim:
                    answer(r, conn, msg)

            fh.forfeits.answer = deaf  # type: ignore[method-assign]
            fh.forfeits.answer_by = 3
    t0 = time.monotonic()
    res = await host.run()
    _line(res, "host", took=round(time.monotonic() - t0, 1), record=keep_record(res, host))
    return 0


async def _join(ns: argparse.Namespace) -> int:
    for _ in range(100):  # the host's process may still be starting (slow on a loaded machine)
        try:
            peer = await join_table(
                ns.target, name=f"p{os.getpid() % 1000}", chooser=lambda g: bot_chooser(g), game=CROWN
            )
            break
        except (Refusal, OSError):
            await asyncio.sleep(0.3)
    else:
        raise SystemExit("verdictplay: no table at " + ns.target)
    # What a test waits on before the next seat joins (seats go in the order peers are seated).
    print(f"verdictplay: seated at seat {peer.seat + 1}", file=sys.stderr, flush=True)
    fp = peer.fair_peer
    marks: dict[str, float] = {}
    if ns.accomplice:
        ff.disagreement = lambda *a, **k: None  # signs whatever the host proposes
    if ns.slow_answer:
        on_fair = fp.on_fair

        def slow(msg: m.Fair) -> None:
            if msg.kind == "forfeit":
                marks["proposal"] = time.monotonic()
                asyncio.get_running_loop().call_later(ns.slow_answer, on_fair, msg)
                return
            on_fair(msg)

        fp.on_fair = slow  # type: ignore[method-assign]
    if ns.leave_on_turn is not None:
        orig = fp.choose

        async def choose(view: Any) -> Any:
            if view.ply >= ns.leave_on_turn:
                # A rage-quit on our own turn: the process goes, without a word.
                print(json.dumps({"role": "quitter", "seat": peer.seat, "ply": view.ply}), flush=True)
                sys.stdout.flush()
                os._exit(0)
            return await orig(view)

        fp.choose = choose  # type: ignore[method-assign]
    if ns.stall_from is not None or ns.slow_move:
        never: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        bot = bot_chooser(CROWN)

        async def stall(view: Any, seat: int) -> Any:
            if ns.stall_from is not None and view.ply >= ns.stall_from:
                return await never
            if ns.slow_move:
                await asyncio.sleep(ns.slow_move)  # always within the turn timer, never quick
            return await bot(view, seat)

        peer.chooser = stall
    moved = [0]
    if ns.slow_person:
        peer.chooser = None  # a person: the app's own stand-in times the seat (fairpeer.drive)

        async def person() -> None:
            done = -1
            while True:
                await asyncio.sleep(0.05)
                st = peer.state
                if st is None or st.current != peer.seat or st.ply == done:
                    continue
                ply = st.ply
                await asyncio.sleep(ns.slow_person)
                st = peer.state
                if st is None or st.ply != ply or st.current != peer.seat:
                    done = ply  # its own bot played it meanwhile (out of time)
                    continue
                legal = st.legal()
                peer.submit(legal[int.from_bytes(os.urandom(2), "big") % len(legal)])
                moved[0] += 1
                done = ply

        thinker = asyncio.ensure_future(person())
    asked: list[float] = []
    if ns.hand_over_every:

        async def press() -> None:
            while True:
                await asyncio.sleep(ns.hand_over_every)
                c = peer.clock
                if c.running and c.seat != peer.seat and peer.lobby_view.hand_over(c.seat) is None:
                    asked.append(time.monotonic())

        presser = asyncio.ensure_future(press())
    res = await peer.run()
    if ns.hand_over_every:
        presser.cancel()
    if ns.slow_person:
        thinker.cancel()
    extra = {
        "asked": len(asked),
        "asked_for": round(asked[-1] - asked[0], 1) if asked else 0.0,
        "moved": moved[0],
        "digest": res.digest,
    }
    _line(res, "peer", record=keep_record(res, peer), **extra)
    return 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="role", required=True)
    h = sub.add_parser("host")
    h.add_argument("port", type=int)
    h.add_argument("--accuse", type=int)
    h.add_argument("--deaf", action="store_true")
    h.add_argument("--return-wait", type=float)
    h.add_argument("--clock")
    h.add_argument("--game-time", type=int, default=0)
    h.add_argument("--strict", action="store_true")
    j = sub.add_parser("join")
    j.add_argument("target")
    j.add_argument("--leave-on-turn", type=int)
    j.add_argument("--slow-answer", type=float, default=0.0)
    j.add_argument("--accomplice", action="store_true")
    j.add_argument("--stall-from", type=int)
    j.add_argument("--slow-move", type=float, default=0.0)
    j.add_argument("--slow-person", type=float, default=0.0)
    j.add_argument("--hand-over-every", type=float, default=0.0)
    ns = p.parse_args(argv)

    async def go() -> int:
        return await asyncio.wait_for(_host(ns) if ns.role == "host" else _join(ns), 170)

    return asyncio.run(go())


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
