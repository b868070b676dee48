"""Issue 44, break 8: decoding never raises past the transport, and a seat's copies of its own known
messages count against it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from coldwater.net import messages as m

from .netlab import NetLab, why_not
from .session.test_fairdeal_session import _assert_verdict, _lan_game
from .test_netns import lab_factory  # noqa: F401 - a fixture

NETNS = pytest.mark.skipif(why_not() is not None, reason=why_not() or "")


def _welcome_nested(depth: int) -> bytes:
    base = m.encode(
        m.Welcome(seat=1, table=m.TableInfo(game="crown", name="x", players=2, content="c", options={"z": 1}))
    )
    return base.replace(b"\x81\xa1z\x01", b"\x81\xa1z" + b"\x81\xa1a" * depth + b"\x80")


@pytest.mark.parametrize("depth", [20, 5000])
def test_a_welcome_nested_deep_is_a_bad_message_with_a_sentence_not_a_crash(depth: int) -> None:
    with pytest.raises(m.BadMessage, match="nest"):
        m.decode(_welcome_nested(depth))
    assert isinstance(m.decode(_welcome_nested(3)), m.Welcome)  # a few levels is still a message


async def test_a_seat_resending_its_own_known_messages_is_refused_and_struck() -> None:
    sent = [0]
    tasks: list[asyncio.Future[None]] = []

    def replay(host: Any, peers: list[Any]) -> None:
        p = peers[0]  # seat 2
        host.fair_host.timer.return_wait = 1.0

        async def later() -> None:
            while p.fair_peer.fair is None or p.fair_peer.fair.fs.view.ply < 20 or p.conn is None:
                await asyncio.sleep(0.005)
            conn = p.conn
            own = p.fair_peer.fair.own_messages()
            for i in range(60_000):
                if conn.closed:
                    return
                conn.send_nowait(own[i % len(own)])
                sent[0] += 1
                if i % 100 == 0:
                    await asyncio.sleep(0)

        tasks.append(asyncio.ensure_future(later()))

    host, peers = await _lan_game(3, tamper=replay, strip_timeout=1.0)
    assert sent[0] > 100, sent
    assert any("known" in x and "sent again" in x for x in host.refusals), host.refusals[-3:]
    assert any("sent 50 refused messages and is sent away" in x for x in host.problems), host.problems[-5:]
    _assert_verdict(host, peers, [1])


@NETNS
@pytest.mark.netns
def test_44_8_a_table_sending_a_welcome_5000_deep_cannot_crash_a_headless_joiner(lab_factory: Any) -> None:
    lab: NetLab = lab_factory(2)
    table = lab.start(0, ["-m", "tests.net.deep_table", "47100", "30"], "table")
    time.sleep(2.0)
    joiner = lab.start(
        1,
        ["-m", "coldwater.net.cli", "join", f"{lab.addrs[0]}:47100", "--headless", "--bot", "--timeout", "25"],
        "joiner",
    )
    try:
        joiner.communicate(timeout=60)
    finally:
        lab.kill(table)
    err = lab.stderr("joiner")
    print(err[-600:])
    assert "Traceback" not in err and "RecursionError" not in err, err[-3000:]
    assert "nested too deep" in err, err[-3000:]  # refused with a sentence, the process in one piece
    assert joiner.returncode == 1, (joiner.returncode, err[-2000:])
    # The person is told, once the join waited its 10 s, in the words of the refusal (not "gave up").
    assert "the table's answer was refused: malformed message: nested too deep to read" in err, err[-2000:]


async def test_a_finished_committed_game_is_kept_by_host_and_seat_and_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 44: headless host and join keep every finished game in the data folder's records."""
    from coldwater.core import record
    from coldwater.net.lan import keep_record
    from coldwater.net.play import records

    from .session.test_loopback import play

    monkeypatch.setenv("COLDWATER_HOME", str(tmp_path / "home"))
    host, peers = await play(1, tmp_path)
    assert host.result is not None and peers[0].result is not None
    for holder, res in ((host, host.result), (peers[0], peers[0].result)):
        path = keep_record(res, holder)
        assert path and Path(path).parent == tmp_path / "home" / "records", path
        final = record.replay(records.load(path), host.game)
        assert final.digest() == res.digest and final.is_over
