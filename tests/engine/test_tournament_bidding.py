"""Every tournament seat bids with its own player's method (issue 19, item 5)."""

from __future__ import annotations

from engine import tournament
from engine.game import Deal, Phase
from engine.players.contract_analysis import ContractAnalysis
from engine.players.registry import split_specs

CONTRACT = (Phase.BIDDING, Phase.SKAT, Phase.DISCARD, Phase.DECLARE)


def test_each_tournament_seat_bids_with_its_own_method(monkeypatch):
    specs = [str(s) for s in split_specs("pimc:simulations=8,bidding=search,mcu:simulations=8,heuristic")]
    assert specs == ["pimc:simulations=8,bidding=search", "mcu:simulations=8", "heuristic"]
    seen: dict[str, set[int]] = {spec: set() for spec in specs}
    real = tournament.make_player

    def watched(spec, seed=None):
        player = real(spec, seed)
        original = player.choose

        def choose(view, limit=None, **kwargs):
            decision = original(view, limit, **kwargs)
            if view.phase in CONTRACT:
                assert isinstance(decision.analysis, ContractAnalysis)
                seen[player.name].add(decision.analysis.simulations)
            return decision

        player.choose = choose
        return player

    monkeypatch.setattr(tournament, "make_player", watched)
    for index in range(3):
        tournament.play_deal(index, Deal.shuffled(index).order(), specs, seed=1)
    # the search bidder values its hand over its own 8 worlds (none where the heuristic's
    # estimate already passes: the search only lowers that limit); the others decide from
    # hand estimates
    assert seen["pimc:simulations=8,bidding=search"] == {0, 8}
    assert seen["mcu:simulations=8"] == {0} and seen["heuristic"] == {0}
