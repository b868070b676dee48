"""Watching over a real LAN (root only): a `coldwater join NAME --watch --headless` process in its
own namespace finds a running table by name, the advert counts it, and it sees the game the
seats finish, to the same scores (issue 17)."""

from __future__ import annotations

import json
import select
import subprocess
import time
from typing import Any

import pytest

from ..netlab import NetLab, why_not
from ..test_netns import PROC_TIMEOUT, _host, _join, _result, lab_factory  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.netns, pytest.mark.skipif(why_not() is not None, reason=why_not() or "")]


def _until_row(
    p: subprocess.Popen[str], ok: Any, states: list[list[list[Any]]], what: str, timeout: float = 30
) -> None:
    """Read the table list's lines until a row for Pike satisfies `ok` (bounded)."""
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
        if any(t[0] == "Pike" and ok(t) for t in states[-1]):
            return
    pytest.fail(f"the advert never showed {what}: {states[-5:]}")


def test_a_watcher_finds_a_running_table_by_name_and_sees_it_to_the_end(lab_factory: Any) -> None:
    lab: NetLab = lab_factory(4)
    monitor = lab.start(3, ["-m", "tests.net.watch_tables", "Pike", "110"], "monitor")
    states: list[list[list[Any]]] = []
    host = _host(lab, "toy", 2, name="Pike", think=0.4)
    _until_row(monitor, lambda t: t[2] == 1 and not t[5] and t[6], states, "one open seat, watchable")
    peer = _join(lab, 1, "toy", name="Pike", think=0.4)
    _until_row(monitor, lambda t: t[2] == 0 and t[5], states, "the game running")
    watcher = lab.start(
        2,
        ["-m", "coldwater.net.cli", "join", "Pike", "--watch", "--headless", "--game-module", "tests.toygame"]
        + ["--player-name", "Kim", "--timeout", str(PROC_TIMEOUT - 10)],
        "watcher",
    )
    _until_row(monitor, lambda t: t[4] == 1, states, "one watcher")
    h, p = _result(host, lab, "host"), _result(peer, lab, "peer1")
    try:
        out, _ = watcher.communicate(timeout=PROC_TIMEOUT)
    except subprocess.TimeoutExpired:
        lab.kill(watcher)
        pytest.fail(f"the watcher did not finish; stderr:\n{lab.stderr('watcher')[-3000:]}")
    assert watcher.returncode == 0, lab.stderr("watcher")[-3000:]
    lines = out.splitlines()
    assert lines[0].startswith("watching 'Pike'")
    w = json.loads(lines[-1])
    assert w["role"] == "watcher" and w["plies"] == h["plies"] == p["plies"]
    assert w["scores"] == h["scores"] == p["scores"] and w["outcome"] == h["outcome"]
    assert w["host_fingerprint"] == h["host_fingerprint"]
    assert sum(1 for ln in lines if ln[:4].strip().isdigit()) == h["plies"]  # every move, as it came
    lab.kill(monitor)
