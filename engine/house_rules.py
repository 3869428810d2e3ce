"""Which rules a table plays: the International Skat Order, or it with house rules.

The International Skat Order (``ISKO``) is the default everywhere.  ``PUB`` is
the usual pub evening: Ramsch when all pass (with Schieben and the Grand Hand
escape), Kontra and Re, and Bock rounds.  Each house rule is also a switch of
its own.  The variant each switch stands for, and its source, is in
``docs/house-rules.md``; the engine modules that play them read only these
fields.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace


@dataclass(frozen=True)
class HouseRules:
    ramsch: bool = False
    """All three pass: play Ramsch instead of passing the game in."""
    schieben: bool = False
    """In Ramsch each player in turn may pass the skat on unseen, doubling the game."""
    grand_hand_escape: bool = False
    """In Ramsch a player, at his turn with the skat, may declare Grand Hand instead."""
    kontra: bool = False
    """A defender may say Kontra, the declarer may answer Re; each doubles the game value."""
    bock: bool = False
    """After a Bock event the next round of three games counts double."""
    ramsch_round_after_bock: bool = False
    """Each Bock round is followed by a round of three Ramsch games."""

    def __post_init__(self) -> None:
        for f in fields(self):
            if type(getattr(self, f.name)) is not bool:
                raise ValueError(f"house rule {f.name} is on or off (True or False), not {getattr(self, f.name)!r}")
        needs = {"schieben": "ramsch", "grand_hand_escape": "ramsch", "ramsch_round_after_bock": "bock"}
        for switch, base in needs.items():
            if getattr(self, switch) and not getattr(self, base):
                raise ValueError(f"{_SWITCH_NAMES[switch]} needs {_SWITCH_NAMES[base]}")
        if self.ramsch_round_after_bock and not self.ramsch:
            raise ValueError("Ramsch rounds after Bock need Ramsch")

    @property
    def is_isko(self) -> bool:
        """True when no house rule is on: the International Skat Order alone."""
        return self == ISKO

    @property
    def name(self) -> str:
        """``isko``, ``pub``, or ``custom`` for any other mix."""
        for name, rules in PRESETS.items():
            if rules == self:
                return name
        return "custom"

    def describe(self) -> str:
        """One line for the table and the help: which house rules are on."""
        if self.is_isko:
            return "International Skat Order"
        on = [_SWITCH_NAMES[f.name] for f in fields(self) if getattr(self, f.name)]
        return "House rules: " + ", ".join(on)

    def with_switches(self, **switches: bool | None) -> HouseRules:
        """These rules with single switches changed (``None`` leaves a switch as it is)."""
        unknown = set(switches) - {f.name for f in fields(self)}
        if unknown:
            raise ValueError(f"no house rule named {', '.join(sorted(unknown))}")
        return replace(self, **{k: v for k, v in switches.items() if v is not None})

    def to_dict(self) -> dict[str, bool]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> HouseRules:
        """Rules from ``to_dict``'s form; unknown keys or non-bool values are refused."""
        if not isinstance(data, dict):
            raise ValueError(f"house rules are a mapping of switches, not {type(data).__name__}")
        return ISKO.with_switches(**data)

    @classmethod
    def named(cls, name: str) -> HouseRules:
        """The preset called ``name`` (``isko`` or ``pub``)."""
        try:
            return PRESETS[name.strip().lower()]
        except KeyError:
            raise ValueError(f"unknown rules {name!r}: choose one of {', '.join(PRESETS)}") from None


_SWITCH_NAMES = {
    "ramsch": "Ramsch",
    "schieben": "Schieben",
    "grand_hand_escape": "Grand Hand instead of Ramsch",
    "kontra": "Kontra and Re",
    "bock": "Bock rounds",
    "ramsch_round_after_bock": "a Ramsch round after each Bock round",
}

ISKO = HouseRules()
PUB = HouseRules(ramsch=True, schieben=True, grand_hand_escape=True, kontra=True, bock=True)
PRESETS = {"isko": ISKO, "pub": PUB}


# ---------------------------------------------------------------- the command line and the settings

SWITCH_TITLES = _SWITCH_NAMES
"""Each switch's title, in the order of the fields (for help texts and the table's settings)."""

SWITCH_FLAGS = {
    "ramsch": "--ramsch",
    "schieben": "--schieben",
    "grand_hand_escape": "--grand-hand-escape",
    "kontra": "--kontra",
    "bock": "--bock",
    "ramsch_round_after_bock": "--ramsch-rounds",
}
"""The command-line switch of each house rule (``--no-…`` turns it off); ``skat`` and
``skat tournament`` both take them, with ``--rules``."""

_DEPENDENTS = {"ramsch": ("schieben", "grand_hand_escape", "ramsch_round_after_bock"),
               "bock": ("ramsch_round_after_bock",)}
"""Rules that only exist with another one on: turning that one off turns them off too."""


_SWITCH_HELP = {
    "ramsch": "play Ramsch when all three pass",
    "schieben": "Schieben in Ramsch: pass the skat on unseen, doubling",
    "grand_hand_escape": "in Ramsch, the player at the skat may declare Grand Hand instead",
    "kontra": "Kontra and Re: each doubles the game value",
    "bock": "Bock rounds: after a Bock event the next round of three games counts double",
    "ramsch_round_after_bock": "a round of three Ramsch games after each Bock round",
}


def add_rules_arguments(parser, description: str = "The International Skat Order unless house rules are "
                        "chosen; see docs/house-rules.md.") -> None:
    """Add ``--rules`` and the single switches to an ``argparse`` parser; ``rules_from_arguments``
    reads them back (None where not given).  They are left out of the namespace unless given,
    so a subcommand's copy does not overwrite the same flag given before the subcommand
    (``skat --rules pub tournament``)."""
    import argparse

    group = parser.add_argument_group("house rules", description)
    group.add_argument("--rules", dest="house_rules", choices=tuple(PRESETS), default=argparse.SUPPRESS,
                       type=str.lower,
                       help="isko: the International Skat Order; pub: Ramsch (with Schieben and Grand Hand), "
                            "Kontra and Re, Bock rounds")
    for name, flag in SWITCH_FLAGS.items():
        group.add_argument(flag, dest=f"house_{name}", action=argparse.BooleanOptionalAction,
                           default=argparse.SUPPRESS,
                           help=_SWITCH_HELP[name])


def rules_options(args) -> tuple[str | None, dict[str, bool | None]]:
    """``--rules`` and the single switches as parsed by ``add_rules_arguments``."""
    return getattr(args, "house_rules", None), {name: getattr(args, f"house_{name}", None) for name in SWITCH_FLAGS}


def rules_from_options(preset: str | None, switches: dict[str, bool | None], base: HouseRules = ISKO) -> HouseRules:
    """The rules that ``--rules preset`` and the single switches make, on top of ``base``
    (the settings' rules) when no preset is named.

    A switch turned off takes the rules that need it along (``--rules pub --no-ramsch``
    plays without Schieben), unless one of those is asked for by name; a switch asked for
    without the rule it needs is refused, naming the flags."""
    rules = HouseRules.named(preset) if preset is not None else base
    unknown = set(switches) - set(SWITCH_FLAGS)
    if unknown:
        raise ValueError(f"no house rule named {', '.join(sorted(unknown))}")
    wanted = {name: on for name, on in switches.items() if on is not None}
    values = rules.to_dict()
    values.update(wanted)
    for base_rule, dependents in _DEPENDENTS.items():
        if values[base_rule]:
            continue
        for dependent in dependents:
            if not wanted.get(dependent):
                values[dependent] = False
                continue
            needed = f"{SWITCH_FLAGS[dependent]} needs {_SWITCH_NAMES[base_rule]}"
            if base_rule in wanted:
                raise ValueError(f"{needed}, but --no-{SWITCH_FLAGS[base_rule][2:]} turns it off")
            raise ValueError(f"{needed}: add {SWITCH_FLAGS[base_rule]} (or choose --rules pub)")
    return HouseRules(**values)


def rules_from_arguments(args, base: HouseRules = ISKO) -> HouseRules:
    """``rules_from_options`` for an ``argparse`` result; raises ValueError with the flags' names."""
    preset, switches = rules_options(args)
    return rules_from_options(preset, switches, base)
