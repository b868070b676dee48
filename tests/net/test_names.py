"""The name rule (net/names.py): one limit for table names everywhere, control and bidi characters
refused where names are chosen, and escaped or dropped where they arrive from the network."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from coldwater.net.discovery import Advertiser, Listing, _instance
from coldwater.net.names import PLAYER_NAME_BYTES, TABLE_NAME_BYTES, BadName, check_name, shown, shown_player

from .netlab import REPO, NetLab, why_not

EMOJI_20 = "🐟" * 20  # 80 bytes: the name that crashed `coldwater host`
HOSTILE = "Pond\x1b]0;owned\x07\u202egnp.exe"


def test_the_table_limit_fits_a_dns_label_with_every_suffix() -> None:
    name = "é" * (TABLE_NAME_BYTES // 2)
    assert check_name(name) == name
    label = _instance(name).removesuffix("._coldwater._tcp.local.")
    assert len((label + "-99").encode()) <= 63  # zeroconf's rename on a clash adds "-N"


@pytest.mark.parametrize(
    "name, why",
    [
        (EMOJI_20, "80 bytes long; at most 50"),
        ("a" * (TABLE_NAME_BYTES + 1), "at most 50 bytes"),
        ("Pond\x1b]0;owned\x07", "\\x07 \\x1b"),
        ("Pond\u202eevil", "\\u202e"),
        ("Po\u2066nd", "\\u2066"),
        ("two\nlines", "\\x0a"),
        ("   ", "empty"),
    ],
)
def test_a_bad_table_name_is_refused_with_a_reason(name: str, why: str) -> None:
    with pytest.raises(BadName, match=None) as e:
        check_name(name)
    assert why in str(e.value)


def test_good_names_pass_emoji_joiners_included() -> None:
    assert check_name("  Fish & chips 🐟  ") == "Fish & chips 🐟"
    family = "👨\u200d👩\u200d👧"  # joined with ZWJ: kept
    assert check_name(family) == family
    assert check_name("🐟" * 12) == "🐟" * 12  # 48 bytes
    with pytest.raises(BadName):
        check_name("x" * (PLAYER_NAME_BYTES + 1), what="player name", limit=PLAYER_NAME_BYTES)


def test_shown_escapes_and_cuts_text_from_the_network() -> None:
    out = shown(HOSTILE)
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
    assert out == "Pond\\x1b]0;owned\\x07\\u202egnp.exe"
    long = shown_player("🐟" * 30)
    assert len(long.encode()) <= PLAYER_NAME_BYTES and long.endswith("…")
    assert shown("Honest pond") == "Honest pond"


def test_the_advertiser_refuses_a_bad_name_before_it_announces() -> None:
    with pytest.raises(BadName):
        Advertiser(table=EMOJI_20, game="toy", content="c", port=1, addresses=["10.0.0.1"])


def test_the_advert_carries_seats_and_version() -> None:
    from coldwater import __version__

    adv = Advertiser(table="t", game="toy", content="c", port=1, addresses=["10.0.0.1"], seats=4)
    props = {k.decode(): (v or b"").decode() for k, v in adv._make_info(2).properties.items()}
    assert props["n"] == "4" and props["app"] == __version__
    assert "t" not in props  # no clock said: an older host's advert reads the same
    assert props["h"] == "0"
    on = Advertiser(table="t", game="toy", content="c", port=1, addresses=["10.0.0.1"], hints=True)
    assert {k.decode(): (v or b"").decode() for k, v in on._make_info(2).properties.items()}["h"] == "1"


async def test_the_advert_follows_the_hosts_clock_before_the_game() -> None:
    adv = Advertiser(table="t", game="toy", content="c", port=1, addresses=["10.0.0.1"], turn=180)
    props = {k.decode(): (v or b"").decode() for k, v in adv._make_info(2).properties.items()}
    assert (props["t"], props["st"]) == ("180", "0")
    adv.set_clock_soon(60, True)  # the host form's Turn timer and Out of time, set after opening
    props = {k.decode(): (v or b"").decode() for k, v in adv._make_info(2).properties.items()}
    assert (props["t"], props["st"]) == ("60", "1")


@pytest.mark.parametrize("front", ["net", "tui"])
def test_coldwater_host_refuses_a_too_long_name_without_a_traceback(front: str, tmp_path: Path) -> None:
    # Both CLIs that open a table: the headless one and the app's (which checks before it starts).
    module = "coldwater.net.cli" if front == "net" else "coldwater.tui.cli"
    extra = ["--headless", "--bot", "random"] if front == "net" else []
    args = ["host", "crown", "--name", EMOJI_20, "--no-advertise", *extra]
    p = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=REPO,
        env={"COLDWATER_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 2, p.stderr
    assert "Traceback" not in p.stderr
    assert "--name: the table name is 80 bytes long; at most 50 bytes" in p.stderr


async def test_a_hostile_player_name_in_the_handshake_is_escaped_at_the_host_and_its_seats(tmp_path: Path) -> None:
    from coldwater.net.identity import Identity
    from coldwater.net.session import TableHost, TablePeer
    from coldwater.tui.screens.lobby import seat_line

    from ..toygame import GAME

    host = TableHost(
        GAME, Identity.generate(), name="t", seats=["host", "open", "open"], bind="127.0.0.1", save_dir=tmp_path / "h"
    )
    port = await host.listen()
    evil = TablePeer(GAME, Identity.generate(), name=HOSTILE + "x" * 80, bind="127.0.0.1", save_dir=tmp_path / "e")
    other = TablePeer(GAME, Identity.generate(), name="Ann", bind="127.0.0.1", save_dir=tmp_path / "a")
    runs: list[asyncio.Future[object]] = []
    try:
        await asyncio.wait_for(evil.join("127.0.0.1", port), 10)
        await asyncio.wait_for(other.join("127.0.0.1", port), 10)
        runs = [asyncio.ensure_future(p.run()) for p in (evil, other)]  # the lobby, until closed
        for _ in range(100):  # the other seat hears the lobby with the evil seat in it
            if any(s.seat == evil.seat and s.name for s in other.seats):
                break
            await asyncio.sleep(0.05)
        for seats in (host.lobby(), other.seats):
            name = next(s.name for s in seats if s.seat == evil.seat)
            assert name.startswith("Pond\\x1b]0;owned\\x07\\u202e") and len(name.encode()) <= PLAYER_NAME_BYTES
            line = seat_line(next(s for s in seats if s.seat == evil.seat), other.seat)
            assert "\x1b" not in line and "\u202e" not in line
    finally:
        for party in (evil, other):
            await party.close()
        await host.close()
        for t in runs:
            t.cancel()


@pytest.mark.netns
@pytest.mark.skipif(why_not() is not None, reason=why_not() or "")
def test_a_hostile_announcement_never_reaches_the_join_list(tmp_path: Path) -> None:
    lab = NetLab(3, tmp_path)
    try:
        evil = lab.start(0, ["-m", "tests.net.advert_probe", "announce", "hostile"], "evil")
        honest = lab.start(1, ["-m", "tests.net.advert_probe", "announce", "honest"], "honest")
        for p in (evil, honest):
            assert p.stdout is not None and p.stdout.readline().strip() == "announced", lab.stderr("evil")
        looker = lab.start(2, ["-m", "tests.net.advert_probe", "browse", "4"], "looker")
        out, _ = looker.communicate(timeout=60)
        listings = [Listing(**json.loads(line)) for line in out.splitlines() if line.startswith("{")]
        assert [t.table for t in listings] == ["Honest pond"], (out, lab.stderr("looker"))
        assert listings[0].seats == 3 and listings[0].open_seats == 2 and listings[0].version
        assert (listings[0].turn, listings[0].strict) == (60, True)  # the clock, before anyone sits down
        assert listings[0].hints  # and whether the coach's hints are on for everyone
        assert "\x1b" not in lab.stderr("looker")  # the warning about the bad advert is escaped too
        assert "bad name" in lab.stderr("looker")
    finally:
        lab.close()
