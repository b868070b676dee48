"""Real sockets and real multicast between network namespaces (root only).

Each test builds its own private LAN (see netlab.py), runs ``coldwater host``
and ``coldwater join --headless --bot`` processes in separate namespaces, and
checks that every process prints the same final digest. Every wait is bounded.
"""

from __future__ import annotations

import json
import select
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .games_available import registered, seats_for
from .netlab import NetLab, why_not

pytestmark = [pytest.mark.netns, pytest.mark.skipif(why_not() is not None, reason=why_not() or "")]

PROC_TIMEOUT = 120


GAMES = ["toy", *registered()]
THINK = {"toy": 0.03}
"""Seconds each bot move takes at least in the fault tests, so there is a middle of the game to kill."""
COMMITTED = ("--dealer", "committed")
"""Crown's tables get the fair dealer by default; tests of the committed dealer's own behaviour ask for it."""


def _common(game: str, think: float = 0.0) -> list[str]:
    extra = ["--game-module", "tests.toygame"] if game == "toy" else []
    return [*extra, "--headless", "--bot", "--timeout", str(PROC_TIMEOUT - 10), "--think", str(think)]


def _host(
    lab: NetLab, game: str, players: int, *, think: float = 0.0, name: str = "Pond", extra: tuple[str, ...] = ()
) -> subprocess.Popen[str]:
    return lab.start(
        0,
        [
            "-m",
            "coldwater.net.cli",
            "host",
            game,
            "--name",
            name,
            "--players",
            str(players),
            "--port",
            "47100",
            *extra,
            *_common(game, think),
        ],
        "host",
    )


def _join(
    lab: NetLab,
    node: int,
    game: str,
    *,
    think: float = 0.0,
    name: str = "Pond",
    home: str | None = None,
    log: str | None = None,
) -> subprocess.Popen[str]:
    return lab.start(
        node, ["-m", "coldwater.net.cli", "join", name, *_common(game, think)], home or f"peer{node}", log=log
    )


def _result(p: subprocess.Popen[str], lab: NetLab, name: str) -> dict[str, object]:
    try:
        out, _ = p.communicate(timeout=PROC_TIMEOUT)
    except subprocess.TimeoutExpired:
        lab.kill(p)
        pytest.fail(f"{name} did not finish in {PROC_TIMEOUT} s; stderr:\n{lab.stderr(name)[-3000:]}")
    lines = [ln for ln in out.splitlines() if ln.strip()]
    assert p.returncode == 0 and len(lines) == 1, f"{name}: rc {p.returncode}, out {out!r}\n{lab.stderr(name)[-3000:]}"
    return json.loads(lines[0])


def _saved_plies(lab: NetLab, home: str) -> int:
    for f in (lab.tmp / home / "lan").glob("lan-peer-*.json"):
        try:
            return len(json.loads(f.read_text()).get("steps", []))
        except (ValueError, OSError):
            return 0
    return 0


def _wait_plies(lab: NetLab, home: str, plies: int, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if _saved_plies(lab, home) >= plies:
            return
        time.sleep(0.05)
    pytest.fail(f"{home} never reached ply {plies}; stderr:\n{lab.stderr(home)[-3000:]}")


@pytest.fixture
def lab_factory(tmp_path: Path) -> Iterator[type]:
    labs: list[NetLab] = []

    def make(n: int) -> NetLab:
        lab = NetLab(n, tmp_path)
        labs.append(lab)
        return lab

    yield make  # type: ignore[misc]
    for lab in labs:
        lab.close()


# Only the player counts each game allows (Fisheries is for exactly two).
COUNTS = [(n, g) for g in GAMES for n in (2, 3, 4) if seats_for(g, n) is not None]


@pytest.mark.parametrize("players,game", COUNTS, ids=[f"{n}-{g}" for n, g in COUNTS])
def test_peers_find_the_table_by_name_and_agree(lab_factory, game: str, players: int) -> None:
    lab = lab_factory(players)
    host = _host(lab, game, players)
    peers = [_join(lab, i, game) for i in range(1, players)]
    results = [_result(host, lab, "host")] + [_result(p, lab, f"peer{i}") for i, p in enumerate(peers, 1)]
    digests = {r["digest"] for r in results}
    assert len(digests) == 1, results
    assert {r["seat"] for r in results} == set(range(players))
    assert all(r["audit"] == "ok" for r in results)
    assert len({json.dumps(r["scores"], sort_keys=True) for r in results}) == 1


@pytest.mark.parametrize("game", GAMES)
def test_a_peer_killed_mid_game_restarts_and_finishes(lab_factory, game: str) -> None:
    n = seats_for(game, 3) or 2
    lab = lab_factory(n)
    t = THINK.get(game, 0.002)
    host = _host(lab, game, n, think=t)
    p1 = _join(lab, 1, game, think=t)
    others = [_join(lab, i, game, think=t) for i in range(2, n)]
    _wait_plies(lab, "peer1", 8)
    lab.kill(p1)
    time.sleep(0.5)
    # The game may well end before peer1 is back (the other seats can win without it):
    # the host must still hold the table for peer1, which rejoins by name and gets the end.
    p1b = _join(lab, 1, game, think=t, log="peer1-again")
    results = [
        _result(host, lab, "host"),
        *(_result(p, lab, f"peer{i}") for i, p in enumerate(others, 2)),
        _result(p1b, lab, "peer1-again"),
    ]
    assert len({r["digest"] for r in results}) == 1, results
    assert "resuming our saved game" in lab.stderr("peer1-again")


@pytest.mark.parametrize("game", GAMES)
def test_the_host_killed_and_the_game_finishes_under_a_new_host(lab_factory, game: str) -> None:
    n = seats_for(game, 3) or 2
    lab = lab_factory(n)
    t = THINK.get(game, 0.002)
    # Escrow failover is the committed dealer's (the fair dealer's failover is tested on its own).
    host = _host(lab, game, n, think=t, extra=COMMITTED)
    peers = [_join(lab, i, game, think=t) for i in range(1, n)]
    _wait_plies(lab, "peer1", 8)
    lab.kill(host)
    if len(peers) < 2 and game != "fisheries":
        # One remote seat holds no escrow share (it would be the dealer's whole secret):
        # failover is off, and the peer says so instead of taking over. Fisheries has no
        # sealed values, so it needs no escrow: its one peer takes over (below).
        out, _ = peers[0].communicate(timeout=PROC_TIMEOUT)
        assert peers[0].returncode == 1 and "failover is off" in lab.stderr("peer1"), lab.stderr("peer1")[-2000:]
        return
    results = [_result(p, lab, f"peer{i}") for i, p in enumerate(peers, 1)]
    assert len({r["digest"] for r in results}) == 1, results
    assert all(r["audit"] == "ok" and r["host_changes"] for r in results), results
    assert all(r["plies"] > 8 for r in results), results  # the game went on past the kill


@pytest.mark.parametrize("game", GAMES)
def test_a_hostile_peer_is_refused_while_the_game_goes_on(lab_factory, game: str) -> None:
    from .hostile import KINDS

    n = seats_for(game, 3) or 2
    for _attempt in range(3):  # a game may end before the hostile seat's first move; then play another
        lab = lab_factory(n)
        # A slow host seat makes "out of turn" deterministic (the hostile sends it during the host's turn).
        # The hostile peer sends the committed dealer's messages (moves, reveals) forged every way.
        host = _host(lab, game, n, think=0.3 if game == "toy" else 0.02, extra=COMMITTED)
        honest = [_join(lab, i, game) for i in range(1, n - 1)]
        module = ["--game-module", "tests.toygame"] if game == "toy" else []
        bad = lab.start(n - 1, ["-m", "tests.net.hostile", f"{lab.addrs[0]}:47100", *module], "hostile")
        results = [
            _result(host, lab, "host"),
            *(_result(p, lab, f"peer{i}") for i, p in enumerate(honest, 1)),
            _result(bad, lab, "hostile"),
        ]
        assert len({r["digest"] for r in results}) == 1, results
        if set(results[-1]["sent"]) >= set(KINDS) - {"illegal"}:  # type: ignore[arg-type]
            break
        lab.close()
    else:
        pytest.fail(f"the hostile peer never got to move: {results[-1]}")
    log = lab.stderr("host")
    reasons = [
        "malformed",
        "unsigned",
        "forged",
        "tampered",
        "replayed",
        "stale",
        "not a move",
        "out of turn",
        "peers may not send",
        "no commitment is due",
        "announced",
    ]
    if "illegal" in results[-1]["sent"]:  # type: ignore[operator]
        reasons.append("illegal")
    for reason in reasons:
        assert reason in log, (reason, results[-1], log[-3000:])


def _watch_until(p: subprocess.Popen[str], want: int, states: list[list[list[object]]], timeout: float = 20) -> None:
    """Read the watcher's lines until the table shows `want` open seats (bounded)."""
    assert p.stdout is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([p.stdout], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            break
        line = p.stdout.readline()
        if not line:
            break
        states.append(json.loads(line))
        if any(t[0] == "Pike" and t[2] == want for t in states[-1]):
            return
    pytest.fail(f"the table never showed {want} open seats: {states}")


def test_the_advertisement_follows_the_seats_and_is_withdrawn(lab_factory) -> None:
    lab = lab_factory(4)
    watcher = lab.start(3, ["-m", "tests.net.watch_tables", "Pike", "60"], "watcher")
    states: list[list[list[object]]] = []
    host = _host(lab, "toy", 3, name="Pike", think=0.02)
    _watch_until(watcher, 2, states)
    p1 = _join(lab, 1, "toy", name="Pike", think=0.02)
    _watch_until(watcher, 1, states)
    p2 = _join(lab, 2, "toy", name="Pike", think=0.02)
    _watch_until(watcher, 0, states)
    for p, n in ((host, "host"), (p1, "peer1"), (p2, "peer2")):
        _result(p, lab, n)
    try:
        out, _ = watcher.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        lab.kill(watcher)
        pytest.fail(f"the table was never withdrawn: {states}")
    assert watcher.returncode == 0, lab.stderr("watcher")
    states += [json.loads(ln) for ln in out.splitlines() if ln.strip()]
    assert states[-1] == []  # withdrawn when the table closed
