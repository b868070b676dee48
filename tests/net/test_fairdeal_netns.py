"""Whole fair-dealt games across real processes, each looked into by the memory probe (issue 14).

`net/session/probe.py` walks, at every ply, every object a process holds and its
saves on disk, and at the end (every key revealed) names any sealed value of
another seat it held before the rules showed it. Here every process — the host's
too — runs in its own network namespace with the probe on, and each must report
none. The probe can fail: in one process that holds every seat it names the other
seats' cards, and values planted in a seat's process are named.

Then the host of a fair table is killed (SIGKILL): a peer takes over, the old host's
seat is started again and comes back from its save; or frozen (SIGSTOP) until a peer
has taken over, then woken: it stands down and its seat rejoins from its save. Every
seat finishes with the same final digest and a clean audit.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import time
import types
from pathlib import Path
from typing import Any

import pytest

from coldwater.core import games
from coldwater.net.fairdeal.relay import LocalTable
from coldwater.net.session.probe import SPECS, Probe

from .netlab import NetLab, why_not
from .test_netns import PROC_TIMEOUT, _result, lab_factory  # noqa: F401 - a fixture

CROWN = games.get("crown")
NETNS = pytest.mark.skipif(why_not() is not None, reason=why_not() or "")


# ---- the probe itself, in one process --------------------------------------------------------
def _reachable(root: object, skip: set[int]) -> list[object]:
    """Every object the collector tracks that `root` reaches (what one seat's process would hold)."""
    seen: set[int] = set(skip)
    out: list[object] = []
    stack = [root]
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, (type, types.ModuleType, types.FunctionType)):
            continue
        seen.add(id(o))
        if gc.is_tracked(o):
            out.append(o)
            stack.extend(gc.get_referents(o))
    return out


def _table(tag: str) -> LocalTable:
    t = LocalTable(CROWN, 3, (tag * 32)[:32].encode())
    t.setup()
    return t


def test_the_probe_names_what_a_process_holding_every_seat_holds() -> None:
    """One process playing all three seats holds every seat's cards: the probe on seat 0 must say so."""
    table = _table("p")
    probe = Probe(table.seats[0], SPECS["crown"]())
    while table.ply():
        if table.stats.plies % 150 == 0:
            probe.look()
    probe.look()
    report = probe.finish({s.seat: s.key_reveal() for s in table.seats})
    assert report["leaks"], report
    assert any(leak["token"][0] == "fish" for leak in report["leaks"]), report["leaks"][:5]


@pytest.mark.parametrize("plant", [None, 120])
def test_the_probe_finds_nothing_in_one_seat_and_finds_what_is_planted_there(plant: int | None) -> None:
    table = _table("q" if plant is None else "r")
    fs = table.seats[0]
    skip = {id(fs.game), id(fs.decks)}  # the rules and the ciphertexts: no sealed value in either
    probe = Probe(fs, SPECS["crown"](), objects=lambda: _reachable(fs, skip), plant_at=plant)
    fs.probe_planted = probe.planted  # type: ignore[attr-defined]  # what a seat's process would hold
    looks = 0
    while table.ply():
        if table.stats.plies % 10 == 0:
            probe.look()
            fs.probe_planted = probe.planted  # type: ignore[attr-defined]
            looks += 1
    report = probe.finish({s.seat: s.key_reveal() for s in table.seats})
    assert looks > 30 and report["tokens"] > 10, report
    if plant is None:
        assert report["leaks"] == [], report["leaks"]
    else:
        # A fish of every card, planted at ply 120: those this seat had not seen by then are named.
        assert report["planted"] and len(report["leaks"]) > 20, report
        assert all(leak["seen_at"] >= plant and leak["token"][0] == "fish" for leak in report["leaks"])


# ---- real processes, network namespaces ----------------------------------------------------------
def _fair_host(lab: NetLab, players: int, extra: tuple[str, ...] = ()) -> subprocess.Popen[str]:
    args = ["-m", "coldwater.net.cli", "host", "crown", "--name", "Weir", "--players", str(players)]
    args += ["--port", "47100", "--dealer", "fair", *_flags(), *extra]
    return lab.start(0, args, "host")


def _flags() -> list[str]:
    # The random bot (the default) does not determinize: nothing it holds is a guess at a hidden card.
    return ["--headless", "--bot", "--timeout", str(PROC_TIMEOUT - 10), "--think", "0"]


def _fair_join(lab: NetLab, node: int, home: str | None = None, log: str | None = None) -> subprocess.Popen[str]:
    return lab.start(node, ["-m", "coldwater.net.cli", "join", "Weir", *_flags()], home or f"peer{node}", log=log)


@NETNS
@pytest.mark.netns
@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_process_holds_another_seats_sealed_value_in_a_whole_fair_game(
    lab_factory: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    """Crown seats 2–4 (its most): host and peers each in a namespace, each probed at every ply."""
    out = tmp_path / "probe"
    monkeypatch.setenv("COLDWATER_PROBE", str(out))
    lab: NetLab = lab_factory(players)
    host = _fair_host(lab, players)
    peers = [_fair_join(lab, i) for i in range(1, players)]
    results = [_result(host, lab, "host")] + [_result(p, lab, f"peer{i}") for i, p in enumerate(peers, 1)]
    assert len({r["digest"] for r in results}) == 1 and all(r["audit"] == "ok" for r in results), results
    reports = [json.loads(p.read_text()) for p in sorted(out.glob("probe-seat*.json"))]
    assert sorted(r["seat"] for r in reports) == list(range(players)), reports
    for r in reports:
        print(
            f"seat {r['seat']}: {r['plies']} plies probed, {r['objects_per_ply']} objects a ply, "
            f"{r['tokens']} sealed values seen, {r['ms_per_ply']} ms a ply ({r['disk_ms_per_ply']} on disk)"
        )
        assert r["plies"] > 100 and r["tokens"] > 5, r
        assert r["leaks"] == [], (r["seat"], r["leaks"][:5])


def _saved(lab: NetLab, home: str) -> dict[str, Any]:
    for f in (lab.tmp / home / "lan").glob("lan-peer-*.json"):
        try:
            return dict(json.loads(f.read_text()))
        except (ValueError, OSError):
            return {}
    return {}


def _wait(what: str, cond: Any, timeout: float = 60) -> float:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if cond():
            return time.monotonic() - t0
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


@NETNS
@pytest.mark.netns
@pytest.mark.parametrize("how", ["kill", "wake"])
def test_the_fair_host_dies_a_peer_takes_over_and_its_seat_comes_back_from_its_save(lab_factory: Any, how: str) -> None:
    lab: NetLab = lab_factory(3)
    host = _fair_host(lab, 3)
    peers = [_fair_join(lab, i) for i in (1, 2)]
    # Mid-game: the host's own seat has saved a transcript some way in (every step rewrites it).
    _wait("the game to get going", lambda: len(_saved(lab, "host").get("fair", "")) > 60_000)
    if how == "wake":
        os.killpg(host.pid, signal.SIGSTOP)  # alive, holding its sockets, silent
        took = _wait("a peer to take over", lambda: "choosing a new host" in lab.stderr("peer2"), 30)
        print(f"the frozen host was given up after {took:.1f} s")
        # The frozen host wakes: it finds its peers gone and seat 2 hosting, and its seat rejoins there.
        _wait("the new host to listen", lambda: "choosing a new host" in lab.stderr("peer1"), 30)
        time.sleep(1.0)
        os.killpg(host.pid, signal.SIGCONT)
        back, log = host, "host"
    else:
        lab.kill(host)
        # The old host's seat, started again on its machine: it finds the table by name and resumes its save.
        back, log = _fair_join(lab, 0, home="host", log="host-again"), "host-again"
    results = [_result(p, lab, f"peer{i}") for i, p in enumerate(peers, 1)] + [_result(back, lab, log)]
    assert len({r["digest"] for r in results}) == 1, results
    assert all(r["audit"] == "ok" for r in results), results
    assert sorted(r["seat"] for r in results) == [0, 1, 2]
    assert all(r["host_changes"] for r in results[:2]), results
    if how == "wake":
        assert "our seat rejoins it from its save" in lab.stderr("host"), lab.stderr("host")[-2000:]
    else:
        assert "resuming our saved game" in lab.stderr("host-again"), lab.stderr("host-again")[-2000:]
