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
