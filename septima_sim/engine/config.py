"""What a single game is set up with (independent of content): player count, mode and the enabled modules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from septima_sim._build.pickling import pickle_by_constructor

COLOURS: Final[tuple[str, ...]] = ("green", "orange", "purple", "gray")
"""Player colours by seat (RULINGS S1: seat 0..3 = Green, Orange, Purple, Gray)."""


class ConfigError(ValueError):
    """A game configuration the engine cannot play."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Rules configuration of one game. ``modules`` names the enabled rules modules (``engine.modules.MODULES``);
    the ``shapeshifting`` and ``omens`` flags are the same as naming those modules (kept as the public keyword
    arguments of the step environment, the scripts and the tests), and a module that is on automatically for a
    player count (``solo``: the Black Widow when ``players = 1``) is added by itself."""

    players: int = 4
    mode: str = "full"  # "full" | "basic"
    shapeshifting: bool = False
    omens: bool = False
    omen_deck: tuple[str, ...] = ()  # Omen card ids in season order (Winter, Spring, Summer); () = random (O1)
    modules: frozenset[str] = frozenset()
    options: tuple[tuple[str, str], ...] = ()
    """The value of each experiment axis an enabled module owns (``ModuleSpec.axes``), as (axis, value) pairs: what
    a module reads of its own settings (``dict(g.config.options)``)."""

    def __post_init__(self) -> None:
        from septima_sim.engine.modules.spec import MODULES  # the registry imports the modules, which import this

        names = set(self.modules)
        names.update(n for n, on in (("shapeshifting", self.shapeshifting), ("omens", self.omens)) if on)
        names.update(spec.name for spec in MODULES.values() if spec.automatic and self.players in spec.players)
        object.__setattr__(self, "modules", frozenset(names))
        object.__setattr__(self, "shapeshifting", "shapeshifting" in names)
        object.__setattr__(self, "omens", "omens" in names)

    def validate(self) -> GameConfig:
        """Raise ConfigError for a configuration the engine cannot play."""
        from septima_sim.engine.modules.spec import MODULES, VALIDATED

        if self in VALIDATED:
            return self

        if not 1 <= self.players <= 4:
            raise ConfigError(f"players must be 1..4, got {self.players}")
        if self.mode not in ("full", "basic"):
            raise ConfigError(f"mode must be 'full' or 'basic', got {self.mode!r}")
        unknown = sorted(self.modules - set(MODULES))
        if unknown:
            raise ConfigError(f"unknown module {unknown[0]!r} (known: {', '.join(MODULES)})")
        full_only = [MODULES[m].name for m in MODULES if m in self.modules and MODULES[m].full_only]
        if full_only and self.mode != "full":
            raise ConfigError(
                f"{' and '.join(full_only)} {'is' if len(full_only) == 1 else 'are'} playable with the Full game only"
            )
        for name in sorted(self.modules):
            if self.players not in MODULES[name].players:
                raise ConfigError(f"module {name} plays with {MODULES[name].players} players, not {self.players}")
        if self.omen_deck and not self.omens:
            raise ConfigError("omen_deck needs the Omens module (omens = true)")
        owned = {axis.name for name in self.modules for axis in MODULES[name].axes}
        for axis, _ in self.options:
            if axis not in owned:
                raise ConfigError(f"option {axis!r} belongs to no enabled module")
        VALIDATED.add(self)
        return self

    @property
    def full(self) -> bool:
        return self.mode == "full"


pickle_by_constructor(globals())  # compiled (mypyc) frozen dataclasses must unpickle too (issue #19)
