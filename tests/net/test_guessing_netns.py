"""Issue 44, break 7: a stranger guessing the passphrase never locks a friend out.

A fair Crown table of three with a passphrase, each process in its own namespace; a guesser in a fourth
tries wrong passphrases as fast as the table answers, until the table-wide limit runs dry. Then a seat
is killed mid-game and started again from its data folder: its key is seated, so the guessing limit
does not refuse it (it used to: the seat could not come back and forfeited). The game ends normally.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from typing import Any

import pytest

from coldwater.net.admission import Guard

from .netlab import NetLab, why_not
from .test_netns import _result, lab_factory  # noqa: F401 - a fixture

NETNS = pytest.mark.skipif(why_not() is not None, reason=why_not() or "")
PASS = "river otter lamp"


def test_a_trusted_key_is_never_throttled_while_the_buckets_are_dry() -> None:
    now = [0.0]
    g = Guard(clock=lambda: now[0])
    seated, friend, stranger = b"s" * 32, b"f" * 32, b"x" * 32
    g.seated = lambda key: key == seated
    for i in range(200):  # 200 addresses guessing: the table-wide bucket runs dry
        g.try_passphrase(f"10.0.0.{i}")
    assert g.try_passphrase("10.0.1.1") is not None  # a stranger's next try waits
    assert g.trusted(seated) and not g.trusted(stranger)
    g.passphrase_ok("10.0.0.7", friend, took=True)  # a right passphrase once: trusted from then on
    assert g.trusted(friend)


def _start(lab: NetLab, node: int, home: str, log: str | None = None) -> Any:
    args = ["-m", "coldwater.net.cli", "join", f"{lab.addrs[0]}:47100", "--passphrase", PASS]
    args += ["--headless", "--bot", "--timeout", "200", "--think", "0.02", "--log-level", "info"]
    return lab.start(node, args, home, log=log)


def _until_said(lab: NetLab, name: str, text: str, p: Any, within: float = 60.0) -> None:
    """Wait until `name`'s log says `text` (a process that exits first, or silence, fails)."""
    end = time.monotonic() + within
    while text not in lab.stderr(name):
        if p.poll() is not None or time.monotonic() > end:
            pytest.fail(f"{name} never said {text!r}; stderr:\n{lab.stderr(name)[-2000:]}")
        time.sleep(0.05)


@NETNS
@pytest.mark.netns
def test_44_7_a_seat_restarted_while_a_stranger_guesses_comes_back(lab_factory: Any) -> None:
    lab: NetLab = lab_factory(4)
    args = ["-m", "coldwater.net.cli", "host", "crown", "--name", "Weir", "--players", "3", "--port", "47100"]
    args += ["--dealer", "fair", "--passphrase", PASS, "--headless", "--bot", "--timeout", "200", "--think", "0.02"]
    host = lab.start(0, args + ["--log-level", "info"], "host")
    _until_said(lab, "host", "listening on port", host)
    p1 = _start(lab, 1, "peer1")
    _until_said(lab, "peer1", "seated at seat", p1)
    p2 = _start(lab, 2, "peer2")
    t0 = time.monotonic()
    while not list((lab.tmp / "peer2" / "lan").glob("lan-peer-*.json")) and time.monotonic() - t0 < 60:
        time.sleep(0.1)
    # The guesser holds 30 addresses (as a laptop on the LAN may), so the per-address limit alone is no stop.
    extra = [f"10.231.{lab.lab}.{100 + k}" for k in range(30)]
    for a in extra:
        subprocess.run(["ip", "-n", lab.names[3], "addr", "add", f"{a}/24", "dev", "eth0"], check=True, timeout=10)
    guesser = lab.start(3, ["-m", "tests.net.guesser", f"{lab.addrs[0]}:47100", "40", *extra], "guesser")
    t0 = time.monotonic()
    while "someone may be guessing" not in lab.stderr("host") and time.monotonic() - t0 < 40:
        time.sleep(0.1)
    assert "someone may be guessing" in lab.stderr("host"), lab.stderr("host")[-2000:]
    os.killpg(p2.pid, signal.SIGKILL)  # the seat's process dies mid-game
    p2.wait(timeout=10)
    t1 = time.monotonic()
    back = _start(lab, 2, "peer2", log="peer2-again")
    while "resuming our saved game" not in lab.stderr("peer2-again") and time.monotonic() - t1 < 30:
        time.sleep(0.1)
    took = time.monotonic() - t1
    results = [_result(host, lab, "host"), _result(p1, lab, "peer1"), _result(back, lab, "peer2-again")]
    out, _ = guesser.communicate(timeout=60)
    g = json.loads(out.strip().splitlines()[-1])
    print(f"guesser: {g}; the restarted seat was back in {took:.1f} s")
    assert "resuming our saved game" in lab.stderr("peer2-again"), lab.stderr("peer2-again")[-2000:]
    assert g["throttled"] > 0, g  # the limit held the stranger back
    assert len({r["digest"] for r in results}) == 1 and all(r["audit"] == "ok" for r in results), results
    assert "throttl" not in lab.stderr("peer2-again").lower(), lab.stderr("peer2-again")[-2000:]
