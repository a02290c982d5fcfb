"""Content-derived lookup tables of a game: built once per (content pack, mode) and shared by its games."""

from __future__ import annotations

from septima_sim.content.model import INGREDIENTS, Content
from septima_sim.engine.abilities import TriggerTable
from septima_sim.engine.board import Board
from septima_sim.engine.passives import PassiveTable
from septima_sim.engine.potion_uses import POTION_USES


class Tables:
    """Read-only lookups the turn loop uses (tuples and dicts nobody writes to after construction)."""

    __slots__ = (
        "action_cause",
        "action_ids",
        "action_index",
        "board",
        "building_cause",
        "chant",
        "icon",
        "ingredient_index",
        "mode_actions",
        "passives",
        "play_trigger",
        "potion_group",
        "potion_index",
        "practical_by_use",
        "remedy_of",
        "space_order",
        "spell_ids",
        "triggers",
        "usable_practicals",
        "witch_cause",
        "witch_ids",
    )

    def __init__(self, content: Content, full: bool) -> None:
        self.board = board_for(content)
        self.action_ids = tuple(a.id for a in content.actions)
        self.action_index = {a: i for i, a in enumerate(self.action_ids)}
        self.witch_ids = tuple(w.id for w in content.witches)  # content ids by index, as events name them
        self.spell_ids = tuple(sp.id for sp in content.spells)
        # the mode's cards (also the Septima's action markers, B10); modules add or swap cards in hands only
        self.mode_actions = tuple(
            i for i, a in enumerate(content.actions) if (full or not a.full_only) and not a.module
        )
        # the icon a card carries for matching and for abilities that name an action (S2: Shapeshift = Chant)
        self.icon = tuple(self.action_index[a.icon] if a.icon else i for i, a in enumerate(content.actions))
        self.chant = self.action_index["chant"]
        self.play_trigger = tuple(f"play:{a}" for a in self.action_ids)  # ability trigger names per card (B21g)
        self.action_cause = tuple(f"action:{a}" for a in self.action_ids)  # the cause id of a card's own changes
        # the cause id of a witch's / building's ability's changes, by content index
        self.witch_cause = tuple(f"witch:{w.id}" for w in content.witches)
        self.building_cause = tuple(f"building:{b.id}" for b in content.buildings)
        self.potion_index = {p.id: i for i, p in enumerate(content.potions)}
        self.potion_group = potion_groups(content)
        self.ingredient_index = {name: i for i, name in enumerate(INGREDIENTS)}
        disease_ids = [d.id for d in content.diseases]
        remedy_of = [-1] * len(disease_ids)  # disease index -> potion index of its Remedy
        for i, pot in enumerate(content.potions):
            if pot.kind == "remedy":
                remedy_of[disease_ids.index(pot.cures)] = i
        self.remedy_of = tuple(remedy_of)
        self.practical_by_use = {pot.use: i for i, pot in enumerate(content.potions) if pot.kind == "practical"}
        self.usable_practicals = tuple(i for u, i in self.practical_by_use.items() if u in POTION_USES)
        order: dict[str, list[str]] = {}  # patient spaces per flag colour, lowest number first (B9)
        for space in sorted(self.board.patient_spaces, key=_space_key):
            order.setdefault(space.split("-")[0], []).append(space)
        self.space_order = {flag: tuple(spaces) for flag, spaces in order.items()}
        self.triggers = TriggerTable(content)  # triggered abilities by trigger (B21g)
        self.passives = PassiveTable(content)  # passive modifiers by name


def _space_key(space: str) -> tuple[str, int]:
    flag, _, number = space.rpartition("-")
    return flag, int(number)


_BOARDS: dict[str, Board] = {}
_TABLES: dict[tuple[str, bool], Tables] = {}


def board_for(content: Content) -> Board:
    """The precomputed board of a content pack (cached by content hash)."""
    board = _BOARDS.get(content.hash)
    if board is None:
        board = _BOARDS[content.hash] = Board(content.areas)
    return board


def tables_for(content: Content, full: bool) -> Tables:
    """The lookup tables of a content pack in a mode (cached by content hash: indices and ids only, so another
    loaded copy of the same pack shares them)."""
    key = (content.hash, full)
    tables = _TABLES.get(key)
    if tables is None:
        tables = _TABLES[key] = Tables(content, full)
    return tables


def potion_groups(content: Content) -> dict[str, tuple[int, ...]]:
    """A potion effect's argument -> the potions it may give: "any", a kind ("remedy", "practical") or one potion."""
    group: dict[str, list[int]] = {pot.id: [i] for i, pot in enumerate(content.potions)}
    kinds: dict[str, list[int]] = {"remedy": [], "practical": []}
    for i, pot in enumerate(content.potions):
        kinds.setdefault(pot.kind, []).append(i)
    group |= kinds | {"any": list(range(len(content.potions)))}
    return {arg: tuple(potions) for arg, potions in group.items()}
