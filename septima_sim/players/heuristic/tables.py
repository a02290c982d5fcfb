"""Static per-content lookups of the heuristic player (board features by vertex, recipes, die odds), cached by
content hash and shared by all seats and games."""

from __future__ import annotations

from septima_sim.content.model import Content
from septima_sim.engine.board import Board
from septima_sim.engine.hunters import catch_chance, roll_tail
from septima_sim.engine.state import Patient
from septima_sim.engine.tables import potion_groups
from septima_sim.engine.view import LiveView


class Tables:
    """Static per-content lookups (board features by vertex, recipes, die odds), shared by all seats."""

    __slots__ = (
        "action_ids",
        "action_index",
        "board",
        "building_areas",
        "disease_of_remedy",
        "far",
        "heal",
        "ingredients_at",
        "lunar_counts",
        "n_areas",
        "outcrops_at",
        "potion_group",
        "recipes",
        "remedy_for_disease",
        "remember",
        "risk_rows",
        "shrine_at",
        "static_pos",
        "tail",
    )

    def __init__(self, content: Content, board: Board) -> None:
        self.board = board
        areas = content.areas
        va = board.vertex_areas
        self.action_ids = tuple(a.id for a in content.actions)
        self.action_index = {a: i for i, a in enumerate(self.action_ids)}
        self.remember = self.action_index.get("remember", -1)
        self.heal = self.action_index.get("heal", -1)
        self.ingredients_at = tuple(tuple(areas[a].ingredient for a in vs if areas[a].ingredient >= 0) for vs in va)
        self.outcrops_at = tuple(sum(1 for a in vs if areas[a].outcrop) for vs in va)
        self.shrine_at = tuple(tuple(areas[a].shrine for a in vs if areas[a].shrine) for vs in va)
        self.building_areas = tuple(tuple(a for a in vs if areas[a].town) for vs in va)
        disease_ids = [d.id for d in content.diseases]
        remedy = [-1] * len(disease_ids)
        for i, pot in enumerate(content.potions):
            if pot.kind == "remedy":
                remedy[disease_ids.index(pot.cures)] = i
        self.remedy_for_disease = tuple(remedy)
        cured = [-1] * len(content.potions)  # per potion: the disease it is the remedy of (the first), or -1
        for disease, potion in enumerate(remedy):
            if potion >= 0 and cured[potion] < 0:
                cured[potion] = disease
        self.disease_of_remedy = tuple(cured)
        self.potion_group = potion_groups(content)  # a potion effect's argument -> the potions it may give
        self.n_areas = len(areas)
        self.recipes = tuple(
            tuple((ing, pot.recipe.count(ing)) for ing in sorted(set(pot.recipe))) for pot in content.potions
        )  # per potion: (ingredient, how many)
        self.lunar_counts: dict[tuple[int, int], tuple[int, ...]] = {}
        self.static_pos: dict[tuple[int, int], tuple[float, ...]] = {}  # next lunar pair -> value per vertex
        self.tail = roll_tail(content.rules.hunter_die)  # P(roll >= k), k >= 0
        self.far = 1 + max(max(row) for row in self.board.dist)  # distances 0 .. far - 1
        self.risk_rows: dict[int, tuple[float, ...]] = {}

    def risk(self, suspicion: int) -> tuple[float, ...]:
        """Per distance: the capture chance of a leader at `suspicion` (``hunters.catch_chance``, tabulated)."""
        row = self.risk_rows.get(suspicion)
        if row is None:
            row = self.risk_rows[suspicion] = tuple(catch_chance(self.tail, d, suspicion) for d in range(self.far))
        return row

    def lunar_count(self, lunar: tuple[int, int]) -> tuple[int, ...]:
        """Per vertex: adjacent areas whose ingredient is one of the two lunar ingredients."""
        counts = self.lunar_counts.get(lunar)
        if counts is None:
            counts = self.lunar_counts[lunar] = tuple(
                sum(1 for ing in ings if ing in lunar) for ings in self.ingredients_at
            )
        return counts


ByArea = dict[int, list[Patient]]
"""Patients by the area they stand next to."""

_TABLES: dict[str, Tables] = {}
"""Content hash -> static lookups."""


def tables_for(view: LiveView) -> Tables:
    """The lookups of the view's content, built at its first game and kept."""
    content = view.content
    t = _TABLES.get(content.hash)
    if t is None:
        t = _TABLES[content.hash] = Tables(content, view.board)
    return t
