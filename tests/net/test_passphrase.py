"""Generated passphrases (net/passphrase.py): plain words, enough of them, from the OS's randomness."""

from __future__ import annotations

import subprocess
import sys

import pytest

from coldwater.net.passphrase import WORDS, bits, generate


def test_the_word_list_is_256_distinct_plain_words() -> None:
    assert len(WORDS) == 256 == len(set(WORDS))
    assert all(w.isascii() and w.isalpha() and w.islower() and 3 <= len(w) <= 8 for w in WORDS)
    assert bits() == 32


def test_generated_passphrases_are_four_words_and_do_not_repeat() -> None:
    made = [generate() for _ in range(2000)]
    assert all(len(p.split(" ")) == 4 and all(w in WORDS for w in p.split(" ")) for p in made)
    assert len(set(made)) == len(made)  # 2,000 of 2^32: a repeat has odds of about 1 in 2,000
    seen = {w for p in made for w in p.split(" ")}
    assert len(seen) > 240  # every word can come up (8,000 draws of 256)
    with pytest.raises(ValueError):
        generate(0)


def test_coldwater_host_passphrase_generate_prints_the_passphrase_it_set() -> None:
    """`--passphrase generate` tells the host the words (on stderr) before the table opens."""
    args = ["host", "crown", "--name", "Gen", "--players", "2", "--headless", "--bot", "--passphrase", "generate"]
    args += ["--no-advertise", "--bind", "127.0.0.1", "--timeout", "1"]
    out = subprocess.run([sys.executable, "-m", "coldwater", *args], capture_output=True, text=True, timeout=60)
    line = next((ln for ln in out.stderr.splitlines() if "the table's passphrase is:" in ln), "")
    words = line.rsplit(": ", 1)[-1].split(" ")
    assert len(words) == 4 and all(w in WORDS for w in words), out.stderr[-2000:]
