"""Commit-reveal, the dealer's sealed values and the end-of-game audit, on the toy game."""

from __future__ import annotations

import msgspec
import pytest

from coldwater.core.state import CHANCE
from coldwater.net import beacon
from coldwater.net import fairplay as fp
from coldwater.net import messages as m

from ..toygame import GAME, Deal, Die, Hold, Roll
from . import beaconplay


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


def _play(dealer: fp.CommittedDealer) -> tuple[list[m.Step], object, bytes, dict[int, bytes]]:
    chs = beaconplay.chains([0, 1])
    steps, final, joint = beaconplay.play(GAME, 2, dealer, chs, choose=lambda s: Hold() if s.data.pot >= 5 else Roll())
    return steps, final, joint, fp.tips(beaconplay.reveals(chs))


def test_honest_dealer_passes_the_audit_and_failover_rebuilds() -> None:
    dealer = fp.CommittedDealer()
    steps, final, joint, tips = _play(dealer)
    assert any(st.links for st in steps) and any(st.commit for st in steps)  # both kinds of draw
    rep = fp.audit(GAME, 2, None, joint, dealer.commitment, dealer.secret(), steps, tips=tips, final=final)  # type: ignore[arg-type]
    assert rep.ok, rep.problems
    assert rep.final_digest == final.digest()  # type: ignore[attr-defined]
    half = steps[: len(steps) // 2]
    rebuilt = fp.rebuild(GAME, 2, None, joint, fp.combine_shares(dealer.shares(3)), half, book=beacon.Book(tips))
    assert rebuilt.ply == half[-1].ply and fp.public_digest(rebuilt) == half[-1].digest


def test_audit_names_a_dealer_whose_reveal_does_not_match() -> None:
    dealer = fp.CommittedDealer()
    steps, _, joint, tips = _play(dealer)
    # Revealing another secret than the one committed to.
    rep = fp.audit(GAME, 2, None, joint, dealer.commitment, b"z" * 32, steps, tips=tips)
    assert not rep.ok and "does not match its commitment" in rep.problems[0]
    # Committed honestly, but dealt a sealed value other than the seeds give.
    sealed = next(i for i, st in enumerate(steps) if st.commit is not None)
    bad = list(steps)
    bad[sealed] = msgspec.structs.replace(bad[sealed], commit=b"\x00" * 32)
    rep = fp.audit(GAME, 2, None, joint, dealer.commitment, dealer.secret(), bad, tips=tips)
    assert not rep.ok and f"ply {steps[sealed].ply}" in rep.problems[0] and "sealed" in rep.problems[0]
    # A public outcome other than the links draw.
    die = next(i for i, st in enumerate(steps) if st.seat == CHANCE and st.action)
    bad = list(steps)
    face = int(steps[die].action.split()[1])  # type: ignore[union-attr]
    bad[die] = msgspec.structs.replace(bad[die], action=f"die {face % 6 + 1}")
    rep = fp.audit(GAME, 2, None, joint, dealer.commitment, dealer.secret(), bad, tips=tips)
    assert not rep.ok and "the seats' links draw" in rep.problems[0]
    # A public draw the host made itself (no links), as the old dealer did.
    bad = list(steps)
    bad[die] = msgspec.structs.replace(bad[die], links={})
    rep = fp.audit(GAME, 2, None, joint, dealer.commitment, dealer.secret(), bad, tips=tips)
    assert not rep.ok and "dealt by the host instead of drawn from the seats' links" in rep.problems[0]
