"""A hostile (or honest) mDNS announcement and a listener, run in a namespace by test_names.py.

``announce KIND`` registers one ``_coldwater._tcp`` service straight through zeroconf (no
Advertiser, so nothing of ours cleans it) and stays until killed; ``browse SECONDS`` prints the
TableBrowser's listings as JSON lines, then exits.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys

import msgspec
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from coldwater.net.discovery import Advertiser, TableBrowser, local_addresses
from coldwater.net.messages import PROTOCOL, SERVICE

HOSTILE = "Pond\x1b]0;owned\x07\u202egnp.exe"
"""A title-setting OSC sequence and a right-to-left override, as the audit sent."""


async def announce(kind: str) -> None:
    addr = next(a for a in local_addresses() if not a.startswith("127."))
    if kind == "honest":
        adv = Advertiser(
            table="Honest pond",
            game="toy",
            content="c",
            port=47001,
            addresses=[addr],
            seats=3,
            turn=60,
            strict=True,
            hints=True,
        )
        await adv.start(2)
    else:
        zc = AsyncZeroconf(ip_version=IPVersion.V4Only)
        props = {"game": "toy\x1b[2J", "table": HOSTILE, "open": "1", "v": str(PROTOCOL), "content": "c", "fp": ""}
        info = AsyncServiceInfo(
            SERVICE,
            f"evil [0000].{SERVICE}",
            port=47002,
            properties=props,
            server="evil.local.",
            addresses=[socket.inet_aton(addr)],
        )
        await (await zc.async_register_service(info))
    print("announced", flush=True)
    await asyncio.sleep(3600)


async def browse(seconds: float) -> None:
    b = TableBrowser()
    await b.start()
    await asyncio.sleep(seconds)
    for t in b.listings():
        print(json.dumps(msgspec.to_builtins(t)), flush=True)
    await b.close()


if __name__ == "__main__":
    if sys.argv[1] == "announce":
        asyncio.run(announce(sys.argv[2]))
    else:
        asyncio.run(browse(float(sys.argv[2])))
