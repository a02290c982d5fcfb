"""Content packs: every number and card of Septima, loaded from TOML and validated.

A pack is a folder of TOML files (the built-in one is ``septima_sim/content/base``). Loading reads the files into a
*tree* (rules tables at the top, item lists keyed by id under their plural name: ``potions.flying-ointment.wisdom``),
applies optional dotted-path overrides, validates the tree through the per-file pydantic schemas of ``schema/`` and
builds read-only dataclasses for the engine (``build.py``, ``model.py``).
"""

from septima_sim.content.errors import ContentError
from septima_sim.content.loader import apply_overrides, content_tree, leaf_paths, load_content
from septima_sim.content.model import (
    ANIMAL_ABILITIES,
    EFFECT_KINDS,
    INGREDIENTS,
    PASSIVE_KINDS,
    STATS,
    Ability,
    Action,
    Animal,
    Area,
    Building,
    Content,
    Disease,
    Effect,
    Goal,
    Potion,
    Rules,
    Spell,
    Witch,
)

__all__ = [
    "ANIMAL_ABILITIES",
    "EFFECT_KINDS",
    "INGREDIENTS",
    "PASSIVE_KINDS",
    "STATS",
    "Ability",
    "Action",
    "Animal",
    "Area",
    "Building",
    "Content",
    "ContentError",
    "Disease",
    "Effect",
    "Goal",
    "Potion",
    "Rules",
    "Spell",
    "Witch",
    "apply_overrides",
    "content_tree",
    "leaf_paths",
    "load_content",
]
