"""Commit-reveal, the dealer's sealed values and the end-of-game audit, on the toy game."""

from __future__ import annotations

import msgspec
import pytest

from coldwater.core.state import CHANCE
from coldwater.net import fairplay as fp

from ..toygame import GAME, Deal, Die, Hold, Roll


def test_commit_reveal_gives_one_seed_and_catches_a_changed_value() -> None:
    values = {s: fp.new_contribution() for s in (0, 1, 2)}
    r = fp.CommitReveal(values)
    for s, v in values.items():
        with pytest.raises(fp.FairPlayError):
            r.reveal(s, v)  # nobody reveals before every commitment is in
        r.commit(s, fp.seed_commitment(s, v))
    r.reveal(0, values[0])
    with pytest.raises(fp.FairPlayError) as e:
        r.reveal(1, fp.new_contribution())  # seat 1 changed its mind
    assert e.value.culprits == (1,)
    r.reveal(1, values[1])
    r.reveal(2, values[2])
    assert r.seed() == fp.joint_seed(values)
    commits = {s: fp.seed_commitment(s, v) for s, v in values.items()}
    assert fp.check_reveals(commits, values) == []
    assert fp.check_reveals(commits, {**values, 2: b"x" * 32}) == [2]


def test_xor_escrow_needs_every_share() -> None:
    secret = b"s" * 32
    shares = fp.split_secret(secret, 3)
    assert fp.combine_shares(shares) == secret
    assert fp.combine_shares(shares[:2]) != secret


def test_classify_seals_the_deal_and_publishes_the_die() -> None:
    s = GAME.new(2, seed=1)
    c = fp.classify(s, Deal(0, 2))
    assert c.sealed and c.owners == (0,)
    s.apply(Deal(0, 2))
    s.apply(Deal(1, 3))
    s.apply(Roll())
    assert fp.classify(s, Die(4)) == fp.Classified(False)


class _Step(msgspec.Struct):
    ply: int
    seat: int
    digest: bytes
    action: str | None = None
    commit: bytes | None = None
    sig: bytes = b""
    bot: bool = False


def _play(dealer: fp.CommittedDealer, joint: bytes) -> tuple[list[_Step], object]:
    s = GAME.new(2, seed=fp.game_seed(joint))
    dealer.start(joint)
    steps: list[_Step] = []
    while s.current is not None:
        cur = s.current
        if cur == CHANCE:
            d = dealer.draw(s)
            if d.sealed:
                # The owner checks its private reveal against the public commitment at once.
                assert d.salt is not None
                assert fp.sealed_commitment(d.salt, s.ply, str(d.action)) == d.commit
            s.apply(d.action)
            steps.append(_Step(s.ply, cur, fp.public_digest(s), None if d.sealed else str(d.action), d.commit))
        else:
            a = Hold() if s.data.pot >= 5 else Roll()
            s.apply(a)
            steps.append(_Step(s.ply, cur, fp.public_digest(s), str(a)))
    return steps, s


def test_honest_dealer_passes_the_audit_and_failover_rebuilds() -> None:
    joint = fp.joint_seed({0: b"a" * 32, 1: b"b" * 32})
    dealer = fp.CommittedDealer()
    steps, final = _play(dealer, joint)
    rep = fp.audit(GAME, 2, None, joint, dealer.commitment, dealer.secret(), steps, final=final)  # type: ignore[arg-type]
    assert rep.ok, rep.problems
    assert rep.final_digest == final.digest()  # type: ignore[attr-defined]
    half = steps[: len(steps) // 2]
    rebuilt = fp.rebuild(GAME, 2, None, joint, fp.combine_shares(dealer.shares(3)), half)
    assert rebuilt.ply == half[-1].ply and fp.public_digest(rebuilt) == half[-1].digest


def test_audit_names_a_dealer_whose_reveal_does_not_match() -> None:
    joint = fp.joint_seed({0: b"a" * 32})
    dealer = fp.CommittedDealer()
    steps, _ = _play(dealer, joint)
    # Revealing another secret than the one committed to.
    rep = fp.audit(GAME, 2, None, joint, dealer.commitment, b"z" * 32, steps)
    assert not rep.ok and "does not match its commitment" in rep.problems[0]
    # Committed honestly, but dealt a sealed value other than the seeds give.
    sealed = next(i for i, st in enumerate(steps) if st.commit is not None)
    bad = list(steps)
    bad[sealed] = msgspec.structs.replace(bad[sealed], commit=b"\x00" * 32)
    rep = fp.audit(GAME, 2, None, joint, dealer.commitment, dealer.secret(), bad)
    assert not rep.ok and f"ply {steps[sealed].ply}" in rep.problems[0] and "sealed" in rep.problems[0]
    # A public outcome other than the seeds give.
    die = next(i for i, st in enumerate(steps) if st.seat == CHANCE and st.action)
    bad = list(steps)
    face = int(steps[die].action.split()[1])  # type: ignore[union-attr]
    bad[die] = msgspec.structs.replace(bad[die], action=f"die {face % 6 + 1}")
    rep = fp.audit(GAME, 2, None, joint, dealer.commitment, dealer.secret(), bad)
    assert not rep.ok and "the seeds say" in rep.problems[0]
