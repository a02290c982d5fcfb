"""What a single game is set up with (independent of content): player count, mode and modules."""

from __future__ import annotations

from dataclasses import dataclass

from septima_sim._build.pickling import pickle_by_constructor

COLOURS: tuple[str, ...] = ("green", "orange", "purple", "gray")
"""Player colours by seat (RULINGS S1: seat 0..3 = Green, Orange, Purple, Gray)."""


class ConfigError(ValueError):
    """A game configuration the engine cannot play."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Rules configuration of one game. ``players = 1`` is solo against the Black Widow."""

    players: int = 4
    mode: str = "full"  # "full" | "basic"
    shapeshifting: bool = False
    omens: bool = False
    omen_deck: tuple[str, ...] = ()  # Omen card ids in season order (Winter, Spring, Summer); () = random (O1)

    def validate(self) -> GameConfig:
        if not 1 <= self.players <= 4:
            raise ConfigError(f"players must be 1..4, got {self.players}")
        if self.mode not in ("full", "basic"):
            raise ConfigError(f"mode must be 'full' or 'basic', got {self.mode!r}")
        if (self.shapeshifting or self.omens) and self.mode != "full":
            raise ConfigError("Shapeshifting and Omens are playable with the Full game only")
        if self.omen_deck and not self.omens:
            raise ConfigError("omen_deck needs the Omens module (omens = true)")
        return self

    @property
    def full(self) -> bool:
        return self.mode == "full"


pickle_by_constructor(globals())  # compiled (mypyc) frozen dataclasses must unpickle too (issue #19)
