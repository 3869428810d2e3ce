"""Fixtures of the engine's tests: the compiled numba core, and a suit game's position of play."""

import pytest

from positions_of_play import play_until


@pytest.fixture(scope="module")
def compiled_core():
    """Compile (or load) the numba core once, so that no timed test below pays for a first compile."""
    from engine.tools.warmup import warm_up

    warm_up()


@pytest.fixture(scope="module")
def suit_position():
    return play_until(11, 2, 1)
