"""Content-derived lookup tables of a game: built once per (content pack, mode) and shared by its games."""

from __future__ import annotations

from septima_sim.content.model import INGREDIENTS, Content
from septima_sim.engine.board import Board


class Tables:
    """Read-only lookups the turn loop uses (tuples and dicts nobody writes to after construction)."""

    __slots__ = (
        "ability_cause",
        "action_cause",
        "action_ids",
        "action_index",
        "board",
        "chant",
        "content",
        "icon",
        "ingredient_index",
        "mode_actions",
        "play_trigger",
        "potion_index",
        "practical_by_use",
        "remedy_of",
        "space_order",
        "usable_practicals",
    )

    def __init__(self, content: Content, full: bool) -> None:
        self.content = content  # held: ``ability_cause`` is keyed by the identity of this pack's ability objects
        self.board = board_for(content)
        self.action_ids = tuple(a.id for a in content.actions)
        self.action_index = {a: i for i, a in enumerate(self.action_ids)}
        # the mode's cards (also the Septima's action markers, B10); modules add or swap cards in hands only
        self.mode_actions = tuple(
            i for i, a in enumerate(content.actions) if (full or not a.full_only) and not a.module
        )
        # the icon a card carries for matching and for abilities that name an action (S2: Shapeshift = Chant)
        self.icon = tuple(self.action_index[a.icon] if a.icon else i for i, a in enumerate(content.actions))
        self.chant = self.action_index["chant"]
        self.play_trigger = tuple(f"play:{a}" for a in self.action_ids)  # ability trigger names per card (B21g)
        self.action_cause = tuple(f"action:{a}" for a in self.action_ids)  # the cause id of a card's own changes
        # the cause id of an ability's changes, by the ability object's identity (the content pack holds them)
        self.ability_cause: dict[int, str] = {id(w.ability): f"witch:{w.id}" for w in content.witches}
        self.ability_cause.update({id(b.ability): f"building:{b.id}" for b in content.buildings})
        self.potion_index = {p.id: i for i, p in enumerate(content.potions)}
        self.ingredient_index = {name: i for i, name in enumerate(INGREDIENTS)}
        disease_ids = [d.id for d in content.diseases]
        remedy_of = [-1] * len(disease_ids)  # disease index -> potion index of its Remedy
        for i, pot in enumerate(content.potions):
            if pot.kind == "remedy":
                remedy_of[disease_ids.index(pot.cures)] = i
        self.remedy_of = tuple(remedy_of)
        self.practical_by_use = {pot.use: i for i, pot in enumerate(content.potions) if pot.kind == "practical"}
        self.usable_practicals = tuple(i for u, i in self.practical_by_use.items() if u != "ritual-oil")
        order: dict[str, list[str]] = {}  # patient spaces per flag colour, lowest number first (B9)
        for space in sorted(self.board.patient_spaces, key=_space_key):
            order.setdefault(space.split("-")[0], []).append(space)
        self.space_order = {flag: tuple(spaces) for flag, spaces in order.items()}


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
    """The lookup tables of a content pack in a mode (cached by content hash; rebuilt for another object of the same
    pack, whose ability objects are others)."""
    key = (content.hash, full)
    tables = _TABLES.get(key)
    if tables is None or tables.content is not content:
        tables = _TABLES[key] = Tables(content, full)
    return tables
