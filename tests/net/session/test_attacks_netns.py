"""Issue 13's attacks that need real processes (root, network namespaces; see netlab.py).

8: a peer floods the host (resync requests it never reads, junk moves, chat):
the host's resident memory stays under 100 MB, the flooder is named and sent
away, and the honest seats finish with equal digests.
13: the host is frozen with SIGSTOP (alive, silent): the peers replace it by
failover within 10 s and finish the game.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from ..netlab import NetLab, why_not
from ..test_netns import _common, _host, _join, _result, _wait_plies, lab_factory  # noqa: F401 - a fixture

pytestmark = [pytest.mark.netns, pytest.mark.skipif(why_not() is not None, reason=why_not() or "")]

RSS_LIMIT_MB = 100


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


@pytest.mark.parametrize("mode", ["mismatch", "junk", "chat"])
def test_8_a_flooding_peer_cannot_grow_the_host_past_100_mb(lab_factory, mode: str) -> None:
    lab: NetLab = lab_factory(3)
    host = _host(lab, "toy", 3, think=0.05)
    honest = _join(lab, 1, "toy", think=0.02)
    flood = lab.start(
        2,
        ["-m", "tests.net.session.flood", f"{lab.addrs[0]}:47100", mode, "10", "--game-module", "tests.toygame"],
        "flood",
    )
    peak = 0.0
    while host.poll() is None:
        peak = max(peak, _rss_mb(host.pid))
        time.sleep(0.1)
    results = [_result(host, lab, "host"), _result(honest, lab, "peer1")]
    out, _ = flood.communicate(timeout=120)
    fl = json.loads(out.strip().splitlines()[-1])
    print(f"host peaked at {peak:.0f} MB under a {mode} flood of {fl['sent']} messages")
    assert 0 < peak <= RSS_LIMIT_MB, f"host peaked at {peak:.0f} MB under a {mode} flood"
    assert fl["sent"] > 0 and fl["closed_by_host"], fl
    assert results[0]["digest"] == results[1]["digest"] and results[1]["audit"] == "ok", results
    assert "sent 50 refused messages and is sent away" in lab.stderr("host")


def _saved_host_seat(lab: NetLab, home: str) -> int:
    for f in (lab.tmp / home / "lan").glob("lan-peer-*.json"):
        try:
            return int(json.loads(f.read_text()).get("host_seat", 0))
        except (ValueError, OSError):
            return 0
    return 0


def test_13_a_frozen_host_is_replaced_within_10_s_and_the_game_finishes(lab_factory) -> None:
    lab: NetLab = lab_factory(4)
    host = _host(lab, "toy", 4, think=0.03)
    peers = [_join(lab, i, "toy", think=0.03) for i in (1, 2, 3)]
    _wait_plies(lab, "peer2", 8)
    os.killpg(host.pid, signal.SIGSTOP)  # alive, holding its sockets, silent
    try:
        t0 = time.monotonic()
        # The peers that join the new host record it in their saves (the new host itself does not). A
        # game that then ends deletes them: a peer that finished was replaced-for by then, too.
        while (
            time.monotonic() - t0 < 30
            and all(p.poll() is None for p in peers)
            and not any(_saved_host_seat(lab, f"peer{i}") for i in (1, 2, 3))
        ):
            time.sleep(0.05)
        took = time.monotonic() - t0
        results = [_result(p, lab, f"peer{i}") for i, p in enumerate(peers, 1)]
    finally:
        lab.kill(host)
    print(f"frozen host replaced after {took:.1f} s")
    assert took <= 10, f"the frozen host was replaced after {took:.1f} s"
    assert len({r["digest"] for r in results}) == 1, results
    assert all(r["audit"] == "ok" and r["host_changes"] for r in results), results


def test_29_a_seat_flooding_signed_fair_messages_cannot_grow_the_host_past_100_mb(lab_factory) -> None:
    """Issue 29, item 2: at a fair-dealer Crown table a seat floods messages it signs itself, each with
    a fresh reference. The host stays under 100 MB, strikes the seat out, and the honest seats end
    with the standings they signed, the flooder last."""
    lab: NetLab = lab_factory(3)
    host = lab.start(
        0,
        ["-m", "coldwater.net.cli", "host", "crown", "--name", "Weir", "--players", "3", "--port", "47100"]
        + ["--dealer", "fair", "--headless", "--bot", "--timeout", "150", "--think", "0"],
        "host",
    )
    honest = lab.start(1, ["-m", "coldwater.net.cli", "join", "Weir", "--headless", "--bot", "--think", "0"], "peer1")
    flood = lab.start(2, ["-m", "tests.net.session.flood", f"{lab.addrs[0]}:47100", "signed", "10"], "flood")
    peak = 0.0
    while host.poll() is None:
        peak = max(peak, _rss_mb(host.pid))
        time.sleep(0.1)
    out, _ = honest.communicate(timeout=120)
    res = json.loads(out.strip().splitlines()[-1])
    fl_out, _ = flood.communicate(timeout=120)
    fl = json.loads(fl_out.strip().splitlines()[-1])
    print(f"host peaked at {peak:.0f} MB under a signed fair flood of {fl['sent']} messages")
    assert 0 < peak <= RSS_LIMIT_MB, f"host peaked at {peak:.0f} MB under a signed flood"
    assert fl["sent"] > 1000 and fl["closed_by_host"], fl
    assert "sent 50 refused messages and is sent away" in lab.stderr("host")
    lost = res["forfeit"]
    assert len(lost) == 1 and lost[0] not in (0, res["seat"]), res  # the flooder's seat, never the host's
    assert res["signed_by"] == sorted({0, 1, 2} - set(lost)), res
