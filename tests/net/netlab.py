"""A private LAN inside network namespaces, for real-socket, real-multicast tests.

One namespace holds a bridge; each node gets its own namespace with a veth
whose other end is on the bridge, an address 10.231.<lab>.<n>/24 that exists
only inside these namespaces, loopback up, multicast on and a multicast route,
so zeroconf works exactly as on a LAN. Nothing is created in the root
namespace, and :meth:`NetLab.close` always removes everything, killing the
processes it started.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def why_not() -> str | None:
    """Why namespace tests cannot run here, or None when they can."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "network namespace tests need root (ip netns)"
    if shutil.which("ip") is None:
        return "network namespace tests need the 'ip' tool (iproute2)"
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


class NetLab:
    def __init__(self, nodes: int, tmp: Path) -> None:
        self.tag = f"cwt{os.getpid() % 10000}{os.urandom(2).hex()}"
        self.lab = int.from_bytes(os.urandom(1), "big") % 200 + 1
        self.tmp = tmp
        self.bridge = f"{self.tag}-br"
        self.names: list[str] = []
        self.addrs: list[str] = []
        self.procs: list[subprocess.Popen[str]] = []
        try:
            _ip("netns", "add", self.bridge)
            _ip("-n", self.bridge, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0")
            _ip("-n", self.bridge, "link", "set", "br0", "up")
            for _ in range(nodes):
                self.add_node()
        except BaseException:
            self.close()
            raise

    def add_node(self) -> int:
        i = len(self.names)
        ns = f"{self.tag}-{i}"
        addr = f"10.231.{self.lab}.{i + 1}"
        _ip("netns", "add", ns)
        self.names.append(ns)
        _ip("-n", self.bridge, "link", "add", f"v{i}", "type", "veth", "peer", "name", "eth0", "netns", ns)
        _ip("-n", self.bridge, "link", "set", f"v{i}", "master", "br0", "up")
        _ip("-n", ns, "link", "set", "lo", "up")
        _ip("-n", ns, "addr", "add", f"{addr}/24", "dev", "eth0")
        _ip("-n", ns, "link", "set", "eth0", "up", "multicast", "on")
        _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")
        self.addrs.append(addr)
        return i

    def home(self, name: str) -> Path:
        p = self.tmp / name
        p.mkdir(parents=True, exist_ok=True)
        return p

    def start(self, node: int, args: list[str], home: str, *, log: str | None = None) -> subprocess.Popen[str]:
        """Run ``python -m coldwater.net.cli ARGS`` (or a tests module) in `node`'s namespace."""
        env = {**os.environ, "COLDWATER_HOME": str(self.home(home)), "PYTHONUNBUFFERED": "1"}
        cmd = ["ip", "netns", "exec", self.names[node], sys.executable, *args]
        err = open(self.tmp / f"{log or home}.err", "a")
        p = subprocess.Popen(
            cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=err, text=True, start_new_session=True
        )
        self.procs.append(p)
        return p

    def stderr(self, name: str) -> str:
        p = self.tmp / f"{name}.err"
        return p.read_text() if p.exists() else ""

    @staticmethod
    def kill(p: subprocess.Popen[str]) -> None:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(timeout=10)

    def close(self) -> None:
        for p in self.procs:
            self.kill(p)
            if p.stdout:
                p.stdout.close()
        for ns in [*self.names, self.bridge]:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=10)
        self.names = []
