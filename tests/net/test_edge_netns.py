"""The network edge between real hosts (network namespaces, root only).

Attack 10: an impostor table with a familiar name, racing the real one on real
multicast. Attack 13's transport part: a link that goes down under an idle
connection is noticed by TCP keepalive, without any message being sent.
"""

from __future__ import annotations

import json
import select
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .netlab import NetLab, why_not

pytestmark = [pytest.mark.netns, pytest.mark.skipif(why_not() is not None, reason=why_not() or "")]

PROC_TIMEOUT = 90
TOY = ["--game-module", "tests.toygame", "--headless", "--bot", "--timeout", str(PROC_TIMEOUT - 10)]


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[NetLab]:
    lab = NetLab(3, tmp_path)
    yield lab
    lab.close()


def _host(lab: NetLab, node: int, home: str) -> subprocess.Popen[str]:
    return lab.start(
        node,
        ["-m", "coldwater.net.cli", "host", "toy", "--name", "Pond", "--players", "2", *TOY],
        home,
        log=f"{home}-{time.monotonic_ns()}",
    )


def _join(lab: NetLab, home: str, *extra: str) -> subprocess.Popen[str]:
    return lab.start(2, ["-m", "coldwater.net.cli", "join", "Pond", *extra, *TOY], home, log=home)


def _finish(p: subprocess.Popen[str], lab: NetLab, what: str) -> tuple[int, dict[str, object] | None]:
    try:
        out, _ = p.communicate(timeout=PROC_TIMEOUT)
    except subprocess.TimeoutExpired:
        lab.kill(p)
        pytest.fail(f"{what} did not finish in {PROC_TIMEOUT} s")
    lines = [ln for ln in out.splitlines() if ln.strip()]
    return p.returncode, (json.loads(lines[-1]) if lines else None)


def test_an_impostor_with_the_same_name_does_not_seat_a_returning_player(lab: NetLab) -> None:
    # First visit: the real table; the JSON names the key the handshake proved.
    real = _host(lab, 0, "real")
    rc, me = _finish(_join(lab, "me"), lab, "first join")
    rc_h, host_out = _finish(real, lab, "real host")
    assert rc == 0 and rc_h == 0 and me and host_out, lab.stderr("me")[-2000:]
    real_fp = host_out["host_fingerprint"]
    assert me["host_fingerprint"] == real_fp and me["digest"] == host_out["digest"]

    # Both tables up, both called "Pond": a newcomer cannot tell them apart and is told so;
    # the returning player goes to the key it met before, whichever answers first.
    real = _host(lab, 0, "real")
    impostor = _host(lab, 1, "impostor")
    time.sleep(3)  # both announced
    rc, _ = _finish(_join(lab, "newcomer"), lab, "newcomer")
    assert rc == 1 and "tables are named 'Pond'" in lab.stderr("newcomer"), lab.stderr("newcomer")[-2000:]
    rc, me = _finish(_join(lab, "me"), lab, "second join")
    assert rc == 0 and me and me["host_fingerprint"] == real_fp, lab.stderr("me")[-2000:]
    _finish(real, lab, "real host")

    # Only the impostor left: the returning player refuses it, naming both keys and the way out.
    rc, _ = _finish(_join(lab, "me"), lab, "join against the impostor")
    err = lab.stderr("me")
    assert rc == 1 and "impostor" in err and str(real_fp) in err and "--fingerprint" in err, err[-2000:]
    lab.kill(impostor)


def test_a_dead_link_under_an_idle_connection_is_noticed(lab: NetLab) -> None:
    server = lab.start(0, ["-m", "tests.net.edge_probe", "serve", "47200"], "edge-server")
    assert server.stdout is not None and server.stdout.readline().strip() == "listening"
    client = lab.start(1, ["-m", "tests.net.edge_probe", "join", lab.addrs[0], "47200"], "edge-client")
    assert client.stdout is not None and client.stdout.readline().strip() == "connected"
    time.sleep(1)
    subprocess.run(["ip", "-n", lab.names[0], "link", "set", "eth0", "down"], check=True, timeout=10)
    ready, _, _ = select.select([client.stdout], [], [], 30)
    assert ready, "the idle connection never noticed the link was gone"
    line = client.stdout.readline().split()
    # Keepalive: 5 s idle, then 3 probes 2 s apart (and 1 s of slack before the link went down).
    assert line[0] == "closed" and float(line[1]) <= 20, line


def test_1500_idle_connections_do_not_pin_a_real_host_or_slow_an_honest_join(lab: NetLab) -> None:
    """Attack 12 against a real `coldwater host` process: its descriptors stay few, a join stays fast."""
    host = lab.start(
        0,
        [
            "-m",
            "coldwater.net.cli",
            "host",
            "toy",
            "--name",
            "Pond",
            "--players",
            "2",
            "--port",
            "47300",
            "--no-advertise",
            *TOY,
        ],
        "flooded-host",
    )
    time.sleep(1.5)
    flood = lab.start(1, ["-m", "tests.net.edge_probe", "flood", lab.addrs[0], "47300", "1500"], "flood")
    assert flood.stdout is not None
    ready, _, _ = select.select([flood.stdout], [], [], 60)
    assert ready and flood.stdout.readline().startswith("flooding")
    # The host accepts in bursts and hangs up what it turns away on its loop's next turns, so a
    # busy machine can catch it mid-burst; what matters is that it settles to a few, not 1,500.
    seen: list[int] = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        seen.append(len(list(Path(f"/proc/{host.pid}/fd").iterdir())))
        if seen[-1] < 150:
            break
        time.sleep(0.1)
    assert seen[-1] < 150 and max(seen) < 600, (
        f"the host holds {seen[-1]} descriptors under the flood (most: {max(seen)})"
    )
    joiner = lab.start(2, ["-m", "coldwater.net.cli", "join", f"{lab.addrs[0]}:47300", "--stats", *TOY], "honest")
    rc, out = _finish(joiner, lab, "honest joiner")
    assert rc == 0 and out, lab.stderr("honest")[-2000:]
    stats = out["stats"]
    assert isinstance(stats, dict) and stats["seated_ms"] < 1000, stats
    assert "Traceback" not in lab.stderr("flooded-host")
    _finish(host, lab, "host")
    lab.kill(flood)


def test_one_identity_in_two_processes_is_refused_and_the_game_finishes(lab: NetLab) -> None:
    """Attack 14: a copy of one identity joins while the original is seated; it is told why and exits."""
    host = lab.start(
        0,
        ["-m", "coldwater.net.cli", "host", "toy", "--name", "Twins", "--players", "3", "--think", "0.02", *TOY],
        "twin-host",
    )
    a = lab.start(
        1, ["-m", "coldwater.net.cli", "join", "Twins", "--think", "0.02", "--log-level", "info", *TOY], "twin-a"
    )
    deadline = time.monotonic() + 60
    while "seated at seat" not in lab.stderr("twin-a") and time.monotonic() < deadline:
        assert a.poll() is None, lab.stderr("twin-a")[-2000:]
        time.sleep(0.05)
    assert (lab.home("twin-a") / "identity.key").exists(), lab.stderr("twin-a")[-2000:]
    (lab.home("twin-b") / "identity.key").write_bytes((lab.home("twin-a") / "identity.key").read_bytes())
    b = lab.start(2, ["-m", "coldwater.net.cli", "join", "Twins", *TOY], "twin-b")
    rc_b, _ = _finish(b, lab, "the copy")
    assert rc_b == 1 and "running twice with one data folder" in lab.stderr("twin-b"), lab.stderr("twin-b")[-2000:]
    # The same data folder a second time: the lock says so before anything touches the network.
    again = lab.start(1, ["-m", "coldwater.net.cli", "join", "Twins", *TOY], "twin-a", log="twin-a-again")
    rc_again, _ = _finish(again, lab, "second process on one folder")
    assert rc_again == 1 and "another coldwater process" in lab.stderr("twin-a-again")
    c = lab.start(2, ["-m", "coldwater.net.cli", "join", "Twins", *TOY], "twin-c")
    outs = [_finish(p, lab, n) for p, n in ((host, "host"), (a, "a"), (c, "c"))]
    assert all(rc == 0 and out for rc, out in outs), [lab.stderr(n)[-1500:] for n in ("twin-a", "twin-c")]
    assert len({out["digest"] for _, out in outs if out}) == 1
