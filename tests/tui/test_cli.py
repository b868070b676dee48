"""The headless command line: bad input gets a clear message and a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from coldwater.tui.cli import main


def test_replay_refuses_a_corrupt_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "r.json"
    bad.write_text("{ this is not a record")
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "not a coldwater record" in err
    assert bad.read_text() == "{ this is not a record"  # nothing overwritten


def test_replay_refuses_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nope.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_simulate_rejects_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "nosuchgame"])


def test_simulate_into_a_closed_pipe_exits_quietly() -> None:
    import subprocess
    import sys

    cmd = f"{sys.executable} -m coldwater.tui.cli simulate crown --players 2 --games 40 --seed 1 | head -n 1"
    done = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd], capture_output=True, text=True, timeout=300)
    assert done.stdout.startswith("game 1:")
    assert "Traceback" not in done.stderr


def test_simulate_refuses_a_solo_level_with_several_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "aquatica", "--players", "3", "--module", "tribes", "--solo-level", "4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coldwater: ") and "Traceback" not in err


def test_simulate_with_a_persons_own_content_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json
    from importlib import resources

    raw = json.loads(resources.files("coldwater.core.crown").joinpath("data", "crown.json").read_text())
    mine = tmp_path / "crown.json"
    mine.write_text(json.dumps(raw))
    assert main(["simulate", "crown", "--games", "1", "--content", str(mine), "--json"]) == 0
    assert '"digest"' in capsys.readouterr().out
    mine.write_text("{}")
    assert main(["simulate", "crown", "--content", str(mine)]) == 2
    assert str(mine) in capsys.readouterr().err  # the error names the file


# Set to None in sys.modules, a module cannot be imported: any import of Textual then fails.
_WITHOUT_TEXTUAL = """
import sys
sys.modules["textual"] = None
from coldwater.tui.cli import main
code = main(sys.argv[1:])
app = [m for m, mod in sys.modules.items() if mod is not None and m.startswith(("textual", "coldwater.tui."))]
assert app == ["coldwater.tui.cli"], app
raise SystemExit(code)
"""


def test_the_headless_commands_run_without_textual(tmp_path: Path) -> None:
    """simulate, replay and review live beside what they run (net/play/commands.py, net/replay.py),
    not in the Textual layer: each runs in a process where importing Textual fails."""
    import subprocess
    import sys

    from coldwater.core import games
    from coldwater.core.simulate import simulate
    from coldwater.net.play import records

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", _WITHOUT_TEXTUAL, *args], capture_output=True, text=True, timeout=300
        )

    out = tmp_path / "recs"
    done = run("simulate", "fisheries", "--games", "1", "--seed", "t", "--records", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game 1:")
    (made,) = out.glob("*.json")
    done = run("replay", str(made))
    assert done.returncode == 0, done.stderr
    assert "entries verified; game over" in done.stdout
    res = next(simulate(games.get("fisheries"), 2, 1, "t", bot="random", records=True))
    assert res.record is not None
    res.record.entries = res.record.entries[:12]  # a short game in progress: a quick review
    short = tmp_path / "short.json"
    records.save(res.record, short)
    done = run("review", str(short), "--seat", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert '"seat": 1' in done.stdout


# ---- --option KEY=VALUE and --seats: one parser for every command -----------------
def test_options_read_json_values_and_keep_text() -> None:
    from coldwater.net.play.cliargs import parse_options

    got = parse_options(["no_tags=true", "module=tribes", "solo_level=3", "note=a=b"])
    assert got == {"no_tags": True, "module": "tribes", "solo_level": 3, "note": "a=b"}


@pytest.mark.parametrize("bad", ["no_tags", "=true", " =3"])
def test_options_refuse_a_pair_without_a_key(bad: str) -> None:
    from coldwater.net.play.cliargs import UsageError, parse_options

    with pytest.raises(UsageError, match="--option"):
        parse_options([bad])


def test_seats_default_and_count() -> None:
    from coldwater.net.play.cliargs import parse_seats

    assert parse_seats(None, None) == ["open"]
    assert parse_seats(None, 4) == ["open"] * 3
    assert parse_seats(None, 1) == []
    assert parse_seats(" bot, open ,reserved:ab12", None) == ["bot", "open", "reserved:ab12"]
    assert parse_seats("bot", 2) == ["bot"]


@pytest.mark.parametrize(
    ("seats", "players", "why"),
    [
        ("sofa", None, "'sofa' is not a seat"),
        ("open,,bot", None, "'' is not a seat"),
        ("reserved:", None, "'reserved:' is not a seat"),
        ("bot,bot", 2, "2 players need 1"),
        (None, 0, "at least 1"),
    ],
)
def test_seats_refuse_bad_lists(seats: str | None, players: int | None, why: str) -> None:
    from coldwater.net.play.cliargs import UsageError, parse_seats

    with pytest.raises(UsageError, match=why):
        parse_seats(seats, players)


def test_simulate_exits_2_on_a_bad_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "crown", "--option", "no_tags"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coldwater: --option wants KEY=VALUE") and "Traceback" not in err


@pytest.mark.parametrize("headless", [[], ["--headless", "--bot"]])
@pytest.mark.parametrize(
    ("args", "why"), [(["--seats", "sofa"], "'sofa' is not a seat"), (["--option", "=1"], "no KEY")]
)
def test_host_exits_2_on_bad_seats_or_options(
    headless: list[str],
    args: list[str],
    why: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Both the app's lobby start and the headless host refuse before opening anything.
    monkeypatch.setenv("COLDWATER_HOME", str(tmp_path))
    assert main(["host", "crown", *headless, "--name", "t", "--no-advertise", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coldwater: ") and why in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--no-seat"], "--no-seat hosts with nobody at this terminal: add --headless"),
        (["--no-seat", "--headless", "--bot"], "--bot plays the host's seat; with --no-seat there is none"),
        (["--no-seat", "--headless", "--players", "0"], "--players must be at least 1, got 0"),
        (["--no-seat", "--headless", "--players", "5"], "Coldwater Crown is for 1 to 4 players, not 5"),
    ],
)
def test_a_host_with_no_seat_is_refused_what_makes_no_sense(
    args: list[str], why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLDWATER_HOME", str(tmp_path))
    assert main(["host", "crown", "--name", "t", "--no-advertise", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coldwater: ") and why in err and "Traceback" not in err
