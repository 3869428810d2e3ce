from engine.tools.game_hashes import HEURISTIC_SPECS, SEARCH_SPECS, group_hash


def test_same_seed_same_hash_and_another_seed_another():
    first = group_hash(HEURISTIC_SPECS, 5, seed=7)
    assert first == group_hash(HEURISTIC_SPECS, 5, seed=7)
    assert first[1] == 5
    assert first[0] != group_hash(HEURISTIC_SPECS, 5, seed=8)[0]


def test_search_group_plays_every_arrangement():
    digest, games = group_hash(SEARCH_SPECS, 1, seed=7)
    assert games == 6
    assert (digest, games) == group_hash(SEARCH_SPECS, 1, seed=7)
