"""A seat's off-loop saver (net/session/persist.py) closed more than once, and a peer closed twice at once.

The app closes a seat's session as the game ends while the seat's own run() is closing it too; the
second close used to reach a saver already shutting down ("cannot schedule new futures after
shutdown", seen under load in tests/tui/test_lan_rematch.py)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from coldwater.net.identity import Identity
from coldwater.net.session import TablePeer
from coldwater.net.session.persist import Saver

from ...toygame import GAME


def test_a_saver_writes_what_is_pending_then_closes_once(tmp_path: Path) -> None:
    s = Saver()
    target, gone = tmp_path / "save.json", tmp_path / "old.json"
    gone.write_text("x")
    s._pending = (target, lambda: b"{}")  # (what save() leaves for the next loop turn)
    s.close(delete=gone)
    assert target.read_bytes() == b"{}" and not gone.exists()
    s.close(delete=gone)  # again: nothing more to do, and no error
    s.flush()  # a timer firing after the close finds nothing to do
    threads = [threading.Thread(target=s.close) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_two_closes_of_one_saver_from_two_threads_do_not_collide(tmp_path: Path) -> None:
    for n in range(20):
        s = Saver()
        s._pending = (tmp_path / f"s{n}.json", lambda: b"{}")
        errors: list[BaseException] = []

        def close(s: Saver = s, errors: list[BaseException] = errors) -> None:
            try:
                s.close(delete=tmp_path / "none.json")
            except BaseException as e:  # the bug: the second close's submit after the first's shutdown
                errors.append(e)

        threads = [threading.Thread(target=close) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == [] and (tmp_path / f"s{n}.json").exists()


async def test_a_peer_closed_twice_at_once_closes_cleanly(tmp_path: Path) -> None:
    peer = TablePeer(GAME, Identity.generate(), name="Bob", bind="127.0.0.1", save_dir=tmp_path)
    await asyncio.gather(peer.close(), peer.close(), peer.close())
    await peer.close()
