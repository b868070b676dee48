"""What players install: the built wheel, in a fresh virtual environment, away from the source.

Every other test runs against the editable install, where a folder missing from the
wheel is still found on disk. Here the sdist and wheel are built from a copy of the
tracked tree (``python -m build``: the sdist first, then the wheel from the sdist, as
an index would), the wheel is installed into a new venv with no path to this
checkout, and the smoke tests run its ``coldwater`` from a scratch folder: the
version, ``python -m coldwater``, the menu and each of its entries in tmux, a
headless LAN table with each dealer to an audited end, ``simulate``, ``replay``
and ``serve``. The build happens once per run; xdist workers share it through a
lock in the run's temporary folder.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from coldwater import __version__
from tests.packaging import REPO, package_dirs
from tests.tui.terminal import TMUX, Terminal

pytestmark = pytest.mark.slow

DATA = (".json", ".tcss", ".md")
"""Suffixes of the data files a package carries (setup.py's package-data)."""


class Installed(msgspec.Struct, frozen=True):
    wheel: Path
    sdist: Path
    venv: Path
    scratch: Path
    """A folder outside the checkout to run the installed app in."""

    @property
    def coldwater(self) -> Path:
        return self.venv / "bin" / "coldwater"

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"


def _run(cmd: list[str | Path], *, cwd: Path, timeout: float = 300, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env or _clean_env()
    )
    assert done.returncode == 0, f"{cmd} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that points Python at this checkout or its venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(str(REPO)))
    env.update(extra)
    return env


def _tracked_copy(dest: Path) -> None:
    """The files git tracks (or, without git, the tree less what is built or installed)."""
    try:
        names = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout.split(b"\0")
        files = [REPO / n.decode() for n in names if n]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis"}
        files = [p for p in REPO.rglob("*") if p.is_file() and not skip & set(p.relative_to(REPO).parts)]
    for f in files:
        if f.is_file():
            target = dest / f.relative_to(REPO)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, target)


def _build_and_install(base: Path) -> Installed:
    src, dist, venv, scratch = base / "src", base / "dist", base / "venv", base / "scratch"
    _tracked_copy(src)
    scratch.mkdir()
    # `build` makes the sdist, then builds the wheel from the unpacked sdist: a file the
    # sdist leaves out is then missing from the wheel too, and the tests below see it.
    _run([sys.executable, "-m", "build", "--outdir", dist, src], cwd=base, timeout=300)
    (wheel,) = dist.glob("coldwater-*.whl")
    (sdist,) = dist.glob("coldwater-*.tar.gz")
    _run([sys.executable, "-m", "venv", venv], cwd=base)
    _run([venv / "bin" / "pip", "install", "-q", wheel], cwd=scratch, timeout=540)
    return Installed(wheel=wheel, sdist=sdist, venv=venv, scratch=scratch)


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    # Under xdist each worker's base folder is inside the run's, which they share: the first
    # worker to take the lock builds. (Without xdist the base folder is the run's own.)
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if "PYTEST_XDIST_WORKER" in os.environ else base) / "wheel"
    shared.mkdir(exist_ok=True)
    done = shared / "installed.json"
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            work = shared / "work"
            if work.exists():
                shutil.rmtree(work)  # a build that failed before: start again
            work.mkdir()
            done.write_bytes(msgspec.json.encode(_build_and_install(work), enc_hook=str))
    return msgspec.json.decode(done.read_bytes(), type=Installed, dec_hook=lambda _type, obj: Path(obj))


def source_package_files() -> set[str]:
    """Every file the wheel must hold, as its path inside the wheel (``coldwater/core/state.py``)."""
    dirs = package_dirs()
    nested = [d for d in dirs.values() if any(d.startswith(f"{o}/") for o in dirs.values())]
    want = set()
    for name, folder in dirs.items():
        top = REPO / folder
        for f in top.rglob("*"):
            rel = f.relative_to(top)
            if not f.is_file() or "__pycache__" in rel.parts or not (f.suffix == ".py" or f.suffix in DATA):
                continue
            if name != "coldwater" and any(f.is_relative_to(REPO / n) for n in nested):
                continue  # tui/root is the `coldwater` package, not coldwater.tui.root
            want.add("/".join([*name.split("."), *rel.parts]))
    return want


def test_the_wheel_holds_every_module_and_data_file_of_the_tree(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as z:
        names = {n for n in z.namelist() if not n.startswith("coldwater-")}  # less the .dist-info
    want = source_package_files()
    assert "coldwater/net/fairdeal/seat.py" in want and "coldwater/core/crown/data/crown.json" in want
    assert names == want, f"missing from the wheel: {sorted(want - names)}; not in the tree: {sorted(names - want)}"


def test_the_sdist_holds_the_package_the_license_and_what_builds_it(installed: Installed) -> None:
    with tarfile.open(installed.sdist) as t:
        names = {n.split("/", 1)[1] for n in t.getnames() if "/" in n}
    for needed in (
        "LICENSE",
        "README.md",
        "pyproject.toml",
        "setup.py",
        "tui/root/__init__.py",
        "net/fairdeal/seat.py",
    ):
        assert needed in names, needed


def test_twine_check_passes(installed: Installed) -> None:
    out = _run([sys.executable, "-m", "twine", "check", "--strict", installed.wheel, installed.sdist], cwd=REPO)
    assert out.count("PASSED") == 2, out


def test_the_installed_app_reports_its_version_both_ways(installed: Installed) -> None:
    where = _run([installed.python, "-c", "import coldwater; print(coldwater.__file__)"], cwd=installed.scratch)
    assert Path(where.strip()).is_relative_to(installed.venv), f"imported from {where}, not the venv"
    assert _run([installed.coldwater, "--version"], cwd=installed.scratch).strip() == f"coldwater {__version__}"
    assert _run([installed.python, "-m", "coldwater", "--version"], cwd=installed.scratch).strip() == (
        f"coldwater {__version__}"
    )


@pytest.mark.parametrize("dealer", ["fair", "committed"])
def test_a_headless_lan_table_plays_to_an_audited_end_with_each_dealer(
    installed: Installed, dealer: str, tmp_path: Path
) -> None:
    env = _clean_env(COLDWATER_HOME=str(tmp_path))
    cmd = [installed.coldwater, "host", "crown", "--name", "smoke", "--players", "2", "--seats", "bot"]
    cmd += ["--headless", "--bot", "--dealer", dealer, "--no-advertise", "--bind", "127.0.0.1"]
    out = _run(cmd, cwd=installed.scratch, env=env, timeout=540)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["audit"] == "ok" and result["app"] == f"coldwater {__version__}", result
    assert len(result["scores"]) == 2 and result["plies"] > 100, result
    if dealer == "committed":
        # The host's save of the finished game replays, entry by entry, in the installed app.
        (save,) = (tmp_path / "lan").glob("lan-host-*.json")
        shown = _run([installed.coldwater, "replay", save], cwd=installed.scratch, env=env)
        assert "entries verified; game over" in shown and result["digest"] in shown, shown


@pytest.mark.parametrize("game", ["crown", "fisheries", "aquatica"])
def test_simulate_plays_each_game(installed: Installed, game: str) -> None:
    out = _run([installed.coldwater, "simulate", game, "--games", "1", "--json"], cwd=installed.scratch)
    line = json.loads(out.strip().splitlines()[-1])
    assert line["game"] == game and line["digest"], line


def test_serve_starts_and_speaks_ssh(installed: Installed, tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = _clean_env(COLDWATER_HOME=str(tmp_path))
    cmd = [installed.coldwater, "serve", "--port", str(port), "--bind", "127.0.0.1", "--no-advertise", "--guests"]
    proc = subprocess.Popen(
        [str(c) for c in cmd], cwd=installed.scratch, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        banner = b""
        for _ in range(600):  # up to a minute for the server to listen
            if proc.poll() is not None:
                break
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
                    banner = c.recv(64)
                    break
            except OSError:
                time.sleep(0.1)
        assert banner.startswith(b"SSH-2.0-"), f"no SSH banner; serve printed {proc.stdout and proc.stdout.read1()}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


MENU: tuple[tuple[str, str], ...] = (
    ("s", "Solo game against bots"),
    ("h", "Hotseat game"),
    ("o", "Host a LAN table"),
    ("j", "Join or watch a LAN table"),
    ("r", "Resume a saved game"),
    ("p", "Replays"),
    ("u", "Coldwater Crown"),
    ("t", "Settings"),
)
"""Each menu entry's key and a line its screen shows."""


@pytest.fixture
def terminal(installed: Installed, tmp_path: Path) -> Iterator[Terminal]:
    if TMUX is None:
        pytest.skip("tmux is not installed")
    home = tmp_path / "home"
    home.mkdir()
    env = {"COLDWATER_HOME": str(home), "TERM": "xterm-256color", "PYTHONPATH": ""}
    # `env -C` starts the app in the scratch folder, away from the checkout.
    t = Terminal(["env", "-C", installed.scratch, installed.coldwater], env=env, config_dir=tmp_path)
    try:
        yield t
    finally:
        t.close()


def test_every_menu_entry_opens_in_a_real_terminal(terminal: Terminal) -> None:
    shown = terminal.wait_for("Solo against bots")
    for key, line in MENU:
        shown = terminal.answer(key, shown)
        shown = terminal.settled(lambda s, line=line: line in s, f"the screen of menu key {key!r}")
        assert "Traceback" not in shown and "Error" not in shown, shown
        terminal.press("Escape")
        shown = terminal.settled(lambda s: "Solo against bots" in s, f"the menu again after {key!r}")
    terminal.press("q")
    terminal.wait_until(lambda s: terminal.exited() is not None, "the app quitting on q")
