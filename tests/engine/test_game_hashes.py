from engine.tools.game_hashes import HEURISTIC_SPECS, INFERENCE_SPECS, SEARCH_SPECS, group_hash


def test_same_seed_same_hash_and_another_seed_another():
    first = group_hash(HEURISTIC_SPECS, 5, seed=7)
    assert first == group_hash(HEURISTIC_SPECS, 5, seed=7)
    assert first[1] == 5
    assert first[0] != group_hash(HEURISTIC_SPECS, 5, seed=8)[0]


def test_search_group_plays_every_arrangement():
    digest, games = group_hash(SEARCH_SPECS, 1, seed=7)
    assert games == 6
    assert (digest, games) == group_hash(SEARCH_SPECS, 1, seed=7)


def test_inference_group_is_seeded_and_uses_the_inference_sampler():
    digest, games = group_hash(INFERENCE_SPECS, 1, seed=7)
    assert games == 6
    assert (digest, games) == group_hash(INFERENCE_SPECS, 1, seed=7)
    informed = [spec.replace(",sampler=inference", "") for spec in INFERENCE_SPECS]
    assert digest != group_hash(informed, 1, seed=7)[0]
