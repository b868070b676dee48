"""LAN benchmark: move round-trip p50/p99 with 4 peers, bytes on the wire per move, join → seated;
and a fair-dealer Crown (or Aquatica) table's setup time and private-deal latency, over sockets and over
the in-memory network (net/memlink.py: the same host and seats, no sockets).

Run ``.venv/bin/python tests/bench/bench_lan.py [GAMES]`` (``... fair [GAMES] [crown|aquatica]``:
the fair dealer only, for one game; Aquatica is 4 seats with the advanced King draft; ``... fair-netns
[GAMES]``: only Crown's fair table across network namespaces, veth; ``... committed [GAMES]``: the
committed dealer's round trips and bytes only). As root it runs four processes in network namespaces
joined by veth pairs and a bridge (real sockets, real multicast discovery), for the committed and the
fair dealer; otherwise four sessions in one process on loopback. Prints figures; never asserts on time.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def _game_name() -> str:
    try:
        from coldwater.core import games

        games.get("crown")
        return "crown"
    except Exception:
        return "toy"


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] if xs else float("nan")


def _report(
    where: str, game: str, games: int, rtts: list[float], seated: list[float], bytes_total: int, plies: int, moves: int
) -> None:
    print(
        f"LAN benchmark ({where}), committed dealer, game {game}, 4 peers, {games} game(s), {plies} plies, "
        f"{moves} peer moves"
    )
    print(
        f"  move round-trip  p50 {_pct(rtts, 0.5):7.2f} ms   p99 {_pct(rtts, 0.99):7.2f} ms   "
        f"max {max(rtts) if rtts else float('nan'):7.2f} ms   (n={len(rtts)})"
    )
    print(
        f"  bytes on the wire per ply (all 3 links, both ways) {bytes_total / max(plies, 1):8.0f} B   "
        f"per link {bytes_total / max(plies, 1) / 3:7.0f} B"
    )
    print(
        f"  join → seated    median {statistics.median(seated) if seated else float('nan'):7.2f} ms   "
        f"max {max(seated) if seated else float('nan'):7.2f} ms"
    )


def bench_netns(games: int) -> None:
    from tests.net.netlab import NetLab

    game = _game_name()
    extra = ["--game-module", "tests.toygame"] if game == "toy" else []
    # The committed dealer's figures (Crown's tables get the fair dealer by default; bench_fair_* measure it).
    common = [*extra, "--headless", "--bot", "--stats", "--timeout", "300"]
    dealer = ["--dealer", "committed"]
    rtts: list[float] = []
    seated: list[float] = []
    total_bytes = plies = 0
    with tempfile.TemporaryDirectory() as tmp:
        lab = NetLab(4, Path(tmp))
        try:
            for g in range(games):
                name = f"Bench{g}"
                host = lab.start(
                    0,
                    ["-m", "coldwater.net.cli", "host", game, "--name", name, "--players", "4", *dealer, *common],
                    f"host{g}",
                )
                peers = [
                    lab.start(i, ["-m", "coldwater.net.cli", "join", name, *common], f"peer{i}-{g}") for i in (1, 2, 3)
                ]
                results = []
                for p in [host, *peers]:
                    out, _ = p.communicate(timeout=320)
                    results.append(json.loads(out.strip().splitlines()[-1]))
                assert len({r["digest"] for r in results}) == 1
                hs = results[0]["stats"]
                total_bytes += hs["bytes_in"] + hs["bytes_out"]
                plies += results[0]["plies"]
                for r in results[1:]:
                    rtts += r["stats"]["rtts_ms"]
                    seated.append(r["stats"]["seated_ms"])
        finally:
            lab.close()
    _report(
        "veth + bridge in network namespaces, separate processes",
        game,
        games,
        rtts,
        seated,
        total_bytes,
        plies,
        len(rtts),
    )


async def _loopback_once(game: object, name: str, in_memory: bool) -> tuple[list[float], list[float], int, int]:
    from coldwater.net.identity import Identity
    from coldwater.net.link import TCP, Network
    from coldwater.net.memlink import MemoryNetwork
    from coldwater.net.session import TableHost, TablePeer, bot_chooser

    net: Network = MemoryNetwork() if in_memory else TCP

    host = TableHost(
        game,
        Identity.generate(),
        name=name,
        seats=["host", "open", "open", "open"],
        chooser=bot_chooser(game),
        bind="127.0.0.1",
        network=net,
    )
    port = await host.listen()
    peers = [
        TablePeer(game, Identity.generate(), chooser=bot_chooser(game), bind="127.0.0.1", network=net) for _ in range(3)
    ]
    ht = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port)
    await asyncio.gather(ht, *(p.run() for p in peers))
    rtts = [x * 1000 for p in peers for x in p.checker.rtts]
    seated = [((p.seated_at or 0) - (p.joined_at or 0)) * 1000 for p in peers]
    total = sum(c.bytes_in + c.bytes_out for c in host.traffic)
    assert host.table is not None
    return rtts, seated, total, host.table.state.ply


def bench_loopback(games: int, *, in_memory: bool = False) -> None:
    """Four sessions in this process: over TCP on loopback (sockets, the sealed channel), or
    (`in_memory`) the same host and seats over the in-memory network (net/memlink.py)."""
    name = _game_name()
    if name == "toy":
        from tests.toygame import GAME as game
    else:
        from coldwater.core import games as registry

        game = registry.get(name)
    rtts: list[float] = []
    seated: list[float] = []
    total = plies = 0
    for g in range(games):
        r, s, b, p = asyncio.run(_loopback_once(game, f"bench{g}", in_memory))
        rtts += r
        seated += s
        total += b
        plies += p
    where = "in-memory links, one process" if in_memory else "loopback, one process"
    _report(where, name, games, rtts, seated, total, plies, len(rtts))


FAIR_OPTIONS: dict[str, Any] = {"crown": None, "aquatica": {"kings": "advanced"}}


def bench_fair_table(games: int, name: str = "crown") -> None:
    """A 4-seat table dealt by the fair dealer: the real host and three seats over the in-memory
    network (net/memlink.py: every message encoded and decoded, no sockets, no encryption). Everything
    runs on one event loop, so each figure is the sum of what the four processes would do in parallel on
    a LAN: an upper bound on their critical path, before the network."""
    from coldwater.core import games as registry

    game = registry.get(name)
    setups: list[float] = []
    deals: list[float] = []
    sent = plies = 0
    for g in range(games):
        s, d, b, p = asyncio.run(_fair_lan_once(game, f"fair-bench-{g}", FAIR_OPTIONS[name], in_memory=True))
        setups.append(s)
        deals += d
        sent += b
        plies += p
    print(f"Fair dealer (in-memory links, one process), {name}, 4 seats, {games} game(s), {plies} plies")
    print(
        f"  setup, seed round done → every deck shuffled, at the slowest process  "
        f"median {statistics.median(setups) * 1000:7.0f} ms   max {max(setups) * 1000:7.0f} ms"
    )
    print(
        f"  private deal, a process reaching it → taking it  "
        f"p50 {_pct(deals, 0.5) * 1000:6.2f} ms   p99 {_pct(deals, 0.99) * 1000:6.2f} ms   (n={len(deals)})"
    )
    print(f"  protocol bytes per game (all 3 links, both ways)  {sent / max(games, 1):9.0f} B")


async def _fair_lan_once(
    game: Any, tag: str, options: Any = None, *, in_memory: bool = False
) -> tuple[float, list[float], int, int]:
    from coldwater.net.identity import Identity
    from coldwater.net.link import TCP, Network
    from coldwater.net.memlink import MemoryNetwork
    from coldwater.net.session import TableHost, TablePeer, bot_chooser

    net: Network = MemoryNetwork() if in_memory else TCP

    host = TableHost(
        game,
        Identity.generate(),
        name=tag,
        seats=["host", "open", "open", "open"],
        bind="127.0.0.1",
        chooser=bot_chooser(game),
        dealer="fair",
        watchers=0,
        options=options,
        network=net,
    )
    port = await host.listen()
    peers = [
        TablePeer(game, Identity.generate(), name=f"p{i}", bind="127.0.0.1", chooser=bot_chooser(game), network=net)
        for i in range(3)
    ]
    task = asyncio.ensure_future(host.run())
    for p in peers:
        await p.join("127.0.0.1", port)
    await asyncio.gather(task, *(p.run() for p in peers))
    assert host.result is not None and host.result.audit_ok, host.result
    drivers = [d for d in (host.fair_host.fair, *(p.fair_peer.fair for p in peers)) if d is not None]
    setup = max(d.setup_s or 0.0 for d in drivers)
    deals = [x for d in drivers for x in d.deal_s]
    total = sum(c.bytes_in + c.bytes_out for c in host.traffic)
    return setup, deals, total, host.result.plies


def bench_fair_netns(games: int) -> None:
    """A 4-seat Crown table dealt by the fair dealer across network namespaces: four processes, veth pairs
    and a bridge, real sockets; each seat's process measures every private deal from reaching it to taking it
    (the strips of the other three seats cross the host's relay over veth)."""
    from tests.net.netlab import NetLab

    common = ["--headless", "--bot", "--stats", "--timeout", "300", "--dealer", "fair"]
    setups: list[float] = []
    deals: list[float] = []
    total_bytes = plies = 0
    with tempfile.TemporaryDirectory() as tmp:
        lab = NetLab(4, Path(tmp))
        try:
            for g in range(games):
                name = f"FairBench{g}"
                host = lab.start(
                    0, ["-m", "coldwater.net.cli", "host", "crown", "--name", name, "--players", "4", *common], f"h{g}"
                )
                join = [c for c in common if c != "--dealer" and c != "fair"]
                peers = [lab.start(i, ["-m", "coldwater.net.cli", "join", name, *join], f"p{i}-{g}") for i in (1, 2, 3)]
                results = []
                for p in [host, *peers]:
                    out, _ = p.communicate(timeout=320)
                    results.append(json.loads(out.strip().splitlines()[-1]))
                assert len({r["digest"] for r in results}) == 1 and all(r["audit"] == "ok" for r in results)
                hs = results[0]["stats"]
                total_bytes += hs["bytes_in"] + hs["bytes_out"]
                plies += results[0]["plies"]
                setups.append(max(r["stats"]["setup_ms"] for r in results) / 1000)
                deals += [x / 1000 for r in results for x in r["stats"]["deal_ms"]]
        finally:
            lab.close()
    print(f"Fair dealer across network namespaces (veth + bridge, 4 processes), crown, 4 seats, {games} game(s)")
    print(
        f"  setup, seed round done → every deck shuffled, at the slowest process  "
        f"median {statistics.median(setups) * 1000:7.0f} ms   max {max(setups) * 1000:7.0f} ms"
    )
    print(
        f"  private deal, a process reaching it → taking it  "
        f"p50 {_pct(deals, 0.5) * 1000:6.2f} ms   p99 {_pct(deals, 0.99) * 1000:6.2f} ms   (n={len(deals)})"
    )
    print(
        f"  bytes on the wire per game (all 3 links, both ways)  {total_bytes / max(games, 1):9.0f} B   "
        f"({total_bytes / max(plies, 1):6.0f} B per ply, {plies / max(games, 1):.0f} plies a game)"
    )


def bench_fair_lan(games: int, name: str = "crown") -> None:
    """The same table over the LAN session on loopback: four processes' work interleaved on one
    event loop (so still no parallelism), real sockets, the host relaying every message."""
    from coldwater.core import games as registry

    game = registry.get(name)
    setups: list[float] = []
    deals: list[float] = []
    sent = plies = 0
    for g in range(games):
        s, d, b, p = asyncio.run(_fair_lan_once(game, f"fairlan{g}", FAIR_OPTIONS[name]))
        setups.append(s)
        deals += d
        sent += b
        plies += p
    print(f"Fair dealer over the LAN session (loopback, one process), {name}, 4 seats, {games} game(s), {plies} plies")
    print(
        f"  setup, seed round done → every deck shuffled, at the slowest process  "
        f"median {statistics.median(setups) * 1000:7.0f} ms   max {max(setups) * 1000:7.0f} ms"
    )
    print(
        f"  private deal, a process reaching it → taking it  "
        f"p50 {_pct(deals, 0.5) * 1000:6.2f} ms   p99 {_pct(deals, 0.99) * 1000:6.2f} ms   (n={len(deals)})"
    )
    print(f"  bytes on the wire per game (all 3 links, both ways)  {sent / max(games, 1):9.0f} B")


def main() -> None:
    from tests.net.netlab import why_not

    if len(sys.argv) > 1 and sys.argv[1] in ("fair", "fair-netns"):
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 3
        name = sys.argv[3] if len(sys.argv) > 3 else "crown"
        if name not in FAIR_OPTIONS:
            sys.exit(f"the fair dealer deals {' or '.join(FAIR_OPTIONS)}, not {name!r}")
        if why_not() is None and name == "crown":
            bench_fair_netns(n)
        elif name == "crown":
            print(f"(no namespaces: {why_not()}; the fair dealer on loopback only)")
        if sys.argv[1] == "fair":
            bench_fair_table(n, name)
            bench_fair_lan(n, name)
        return

    if len(sys.argv) > 1 and sys.argv[1] == "committed":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 3
        if why_not() is None:
            bench_netns(n)
        bench_loopback(n)
        bench_loopback(n, in_memory=True)
        return
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3

    t0 = time.perf_counter()
    if why_not() is None:
        bench_netns(games)
    else:
        print(f"(no namespaces: {why_not()}; measuring on loopback)")
    bench_loopback(games)
    bench_loopback(games, in_memory=True)
    if why_not() is None:
        bench_fair_netns(games)
    bench_fair_table(games)
    bench_fair_lan(games)
    print(f"  ({time.perf_counter() - t0:.1f} s in all)")


if __name__ == "__main__":
    main()
