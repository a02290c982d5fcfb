"""The component kinds ``ablate`` can remove: where each lives in a content pack, which log column says who held it
in a game, and which module or mode it needs.

- witch, spell, divination goal: held by one seat (``witches_drafted``, ``spells`` held at the end, ``goals`` dealt);
- animal: the two tiles of a colour belong to the seat of that colour (``animals``), only with Shapeshifting;
- building, Omen: in play for every seat (games' ``buildings``, ``omen_cards``); judged on every seat's Wisdom.

A kind whose column a module adds is in play only with that module (read from the module's spec).
"""

from __future__ import annotations

from dataclasses import dataclass

from septima_sim.ablate.errors import parse_choices
from septima_sim.engine.modules import toggled


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of component: its content file and ``[[table]]`` name (the file names its namespace in the content
    tree), the list column that names it in a game, and whether that column is per seat (``players``) or per game
    (``games``)."""

    name: str
    file: str
    table: str
    column: str
    game_level: bool = False
    needs: str | None = None
    """A cell axis that must be on for the component to be in play: ``full``, or the module that declares
    ``column`` among its result columns (``ModuleSpec.game_columns`` / ``player_columns``; filled in when left
    out)."""
    forced_table: str | None = None
    """The rules.toml ``[setup.*]`` table that deals it to a seat on purpose (``forced``: witches,
    ``forced_spells``, ``forced_goals``), or None when the content cannot force it."""

    def __post_init__(self) -> None:
        if self.needs is None:
            object.__setattr__(self, "needs", owner(self.column, self.game_level))

    @property
    def namespace(self) -> str:
        """Its namespace in the content tree: its content file's name (``omens.toml`` -> ``omens``)."""
        return self.file.removesuffix(".toml")

    @property
    def forceable(self) -> bool:
        """Whether the content can deal it to a seat on purpose (the ``forced`` arm)."""
        return self.forced_table is not None


def owner(column: str, game_level: bool) -> str | None:
    """The toggled module that adds ``column`` to the games (``game_level``) or players table, if any."""
    for spec in toggled():
        if column in {c.name for c in (spec.game_columns if game_level else spec.player_columns)}:
            return spec.name
    return None


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("witch", "witches.toml", "witch", "witches_drafted", forced_table="forced"),
        Kind("spell", "spells.toml", "spell", "spells", needs="full", forced_table="forced_spells"),
        Kind("animal", "animals.toml", "animal", "animals"),
        Kind("building", "buildings.toml", "building", "buildings", game_level=True),
        Kind("omen", "omens.toml", "omen", "omen_cards", game_level=True),
        Kind("goal", "goals.toml", "goal", "goals", forced_table="forced_goals"),
    )
}
"""Every kind, in the order of ``--kinds``' help."""


def parse_kinds(text: str) -> list[Kind]:
    """``witch,animal`` -> the kinds, in the order given; AblateError naming an unknown one and the allowed ones."""
    return [KINDS[x] for x in parse_choices("--kinds", "kind", text, tuple(KINDS))]
