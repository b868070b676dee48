"""`coldwater serve` benchmark: prints figures, never asserts on time.

Run: ``python tests/bench/bench_ssh.py [--sessions N]``

- connect to menu: from opening the SSH connection (asyncssh client, loopback)
  until the main menu is on the session's 80×24 screen, per session, while the
  sessions start one after another;
- memory per session: the resident set (VmRSS) of each session's app process
  with N sessions at the menu at once, and of the server process itself;
- the server process again once it hosts a table (opened through a session's
  control channel, as "Host a LAN table" does over SSH): the LAN layer and the
  game engine are then loaded in the server too.

Aim (issue): ≤ 80 MB per session.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
import pyte

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from coldwater.tui import serve  # noqa: E402


def rss_mib(pid: int | str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


async def to_menu(port: int, key: asyncssh.SSHKey) -> tuple[float, asyncssh.SSHClientConnection]:
    t0 = time.perf_counter()
    conn = await asyncssh.connect(
        "127.0.0.1", port, username="play", known_hosts=None, client_keys=[key], agent_path=None
    )
    proc = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    while "Solo against bots" not in "\n".join(screen.display):
        stream.feed(await proc.stdout.read(65536))
    return time.perf_counter() - t0, conn


async def main(sessions: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cfg = serve.ServeConfig(
            port=0, bind="127.0.0.1", host_key=root / "host_key", guests=True, table_bind="127.0.0.1", advertise=False
        )
        server = serve.Server(cfg, root=root / "data", log=lambda line: None)
        port = await server.start()
        times: list[float] = []
        conns: list[asyncssh.SSHClientConnection] = []
        for _ in range(sessions):
            # One key is one player with one app, so every session brings its own key.
            took, conn = await to_menu(port, asyncssh.generate_private_key("ssh-ed25519"))
            times.append(took)
            conns.append(conn)
        apps = [rss_mib(a.child.pid) for a in server.apps]
        print(f"sessions at the menu at once: {sessions}")
        print(f"connect to menu: median {statistics.median(times):.2f} s, max {max(times):.2f} s")
        print(
            f"memory per session (app RSS): median {statistics.median(apps):.1f} MiB, "
            f"max {max(apps):.1f} MiB (aim <= 80 MB)"
        )
        print(f"server process RSS: {rss_mib('self'):.1f} MiB")
        t0 = time.perf_counter()
        reply = await server.tables.handle(
            server.apps[0].key_blob, serve.OpenTable(game="crown", name="Bench", seats=["host", "open", "open"])
        )
        assert isinstance(reply, serve.Opened), reply
        print(
            f"server process RSS hosting one table: {rss_mib('self'):.1f} MiB "
            f"(opened in {(time.perf_counter() - t0) * 1000:.0f} ms)"
        )
        for conn in conns:
            conn.close()
        await server.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=4)
    asyncio.run(main(ap.parse_args().sessions))
