"""Players by name: ``heuristic``, ``random``, ``mcu:simulations=100,eval=type2-50``, ``pimc:time=2``,
``mcts:simulations=1000,c=0.7``.

A spec is a player type and optional ``key=value`` parameters.  The same
spec string names the player in tournament tables and in the settings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import Player

PLAYER_KINDS = ("random", "heuristic", "mcu", "pimc", "mcts")
"""Every kind of player a spec may name."""
OPPONENT_KINDS = ("heuristic", "mcu", "pimc", "mcts")
"""The kinds the table seats and offers in its settings (random is for tests and baselines)."""
PARAMETER_ALIASES = {"worlds": "simulations"}
CALLING_KINDS = ("heuristic", "mcu", "pimc", "mcts")
"""The kinds whose Kontra and Re a spec can switch off (``calls=off``) to measure what the calls gain."""
SWITCH_VALUES = {"on": True, "off": False}
"""Older names of parameters, still read: a spec says ``simulations`` for the worlds a move values."""


@dataclass(frozen=True)
class PlayerSpec:
    kind: str
    params: dict[str, str] = field(default_factory=dict)
    text: str = ""

    def __str__(self) -> str:
        return self.text or self.kind

    def __hash__(self) -> int:
        return hash(self.text or self.kind)


def parse_spec(text: str) -> PlayerSpec:
    """Read ``kind[:key=value,key=value]``; unknown kinds and malformed
    parameters are refused with the form expected."""
    text = text.strip()
    kind, _, rest = text.partition(":")
    kind = kind.lower()
    if kind not in PLAYER_KINDS:
        raise ValueError(f"unknown player type {kind!r} in {text!r} (expected one of {', '.join(PLAYER_KINDS)})")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key or not value:
            raise ValueError(f"bad parameter {part!r} in {text!r} (expected key=value)")
        given = key.strip().lower()
        key = PARAMETER_ALIASES.get(given, given)
        if key in params:
            also = f" ({given} is another name for {key})" if given != key else ""
            raise ValueError(f"{key} is given twice in {text!r}{also}: give each parameter once")
        params[key] = value.strip()
    return PlayerSpec(kind, params, text)


def split_specs(text: str) -> list[PlayerSpec]:
    """Split ``mcu:simulations=100,eval=type2-50,heuristic,heuristic`` into specs:
    a new spec starts at a part that names a player type."""
    specs: list[list[str]] = []
    for part in text.split(","):
        head = part.split(":", 1)[0].strip().lower()
        if head in PLAYER_KINDS and ("=" not in part or ":" in part):
            specs.append([part])
        elif specs:
            specs[-1].append(part)
        else:
            raise ValueError(f"{part!r} does not start with a player type ({', '.join(PLAYER_KINDS)})")
    return [parse_spec(",".join(parts)) for parts in specs]


def make_player(spec: PlayerSpec | str, seed: int | None = None) -> Player:
    """A new player for ``spec``, seeded for reproducible choices."""
    if isinstance(spec, str):
        spec = parse_spec(spec)
    try:
        player = _build(spec, seed)
    except ValueError as exc:
        raise ValueError(f"player {str(spec)!r}: {exc}") from None
    player.name = str(spec)
    return player


def validate_spec(text: str) -> PlayerSpec:
    """The parsed spec, after building its player once, so that every parameter
    is checked (ValueError naming the spec and the parameter) before any work starts."""
    spec = parse_spec(text)
    make_player(spec, 0)
    return spec


def _build(spec: PlayerSpec, seed: int | None) -> Player:
    params = dict(spec.params)
    calls = True
    if "calls" in params and spec.kind in CALLING_KINDS:
        value = params.pop("calls").lower()
        if value not in SWITCH_VALUES:
            raise ValueError(f"calls must be on or off, not {value!r}")
        calls = SWITCH_VALUES[value]
    if spec.kind == "random":
        _no_params(spec, params)
        from .base import RandomPlayer

        player: Player = RandomPlayer(seed)
    elif spec.kind == "heuristic":
        from .endgame import ENDGAME_TRICKS, MAX_ENDGAME_TRICKS, EndgameSearch
        from .heuristic import HeuristicPlayer
        from .montecarlo import bid_chance_param, whole_number_param

        # the bidding's win-chance threshold, as the searching players take it (to measure it)
        bid_chance = bid_chance_param(params)
        endgame = (whole_number_param("endgame", params.pop("endgame"), 0, MAX_ENDGAME_TRICKS)
                   if "endgame" in params else ENDGAME_TRICKS)
        _no_params(spec, params)
        player = HeuristicPlayer(seed)
        if endgame:
            player.endgame = EndgameSearch(endgame, seed=seed)
        if bid_chance is not None:
            player.bid_chance = bid_chance
    elif spec.kind == "mcu":
        from .mcu import MCUPlayer

        player = MCUPlayer.from_params(params, seed)
    elif spec.kind == "mcts":
        from .mcts import MCTSPlayer

        player = MCTSPlayer.from_params(params, seed)
    else:
        from .pimc import PIMCPlayer

        player = PIMCPlayer.from_params(params, seed)
    player.calls = calls
    return player


def _no_params(spec: PlayerSpec, params: dict[str, str]) -> None:
    if params:
        if spec.kind == "heuristic":
            raise ValueError(f"heuristic takes only bid_chance=P, endgame=TRICKS and calls=on|off "
                             f"(got {', '.join(params)})")
        takes = " (but calls=on|off)" if spec.kind in CALLING_KINDS else ""
        raise ValueError(f"{spec.kind} takes no parameters{takes} (got {', '.join(params)})")
