"""Turn a validated ``Pack`` into the frozen ``Content`` the engine reads (tuples and FrozenDicts only)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar

from septima_sim.content import schema as s
from septima_sim.content.frozen import FrozenDict
from septima_sim.content.model import (
    INGREDIENTS,
    OMEN_HOOKS,
    OMEN_PARAM_KINDS,
    READINGS,
    Ability,
    Action,
    Animal,
    Area,
    Building,
    Content,
    Disease,
    Effect,
    Goal,
    Omen,
    OmenHalf,
    Potion,
    Reading,
    Readings,
    Ritual,
    Rules,
    Spell,
    Tribulation,
    Widow,
    Witch,
)
from septima_sim.content.schema.common import AbilityCard, Sourced
from septima_sim.content.schema.common import Effect as EffectSpec
from septima_sim.content.schema.omens import OmenHalf as OmenHalfSpec
from septima_sim.content.schema.pack import NAMESPACE_FILE

K = TypeVar("K")
V = TypeVar("V")
_RULES_TABLES = ("game", "setup", "suspicion", "board", "trials", "crowd", "ritual", "end", "hunters", "lunar")


def frozen(mapping: Mapping[K, V]) -> FrozenDict[K, V]:
    """A read-only copy of a mapping."""
    return FrozenDict(mapping)


def _ingredient(name: str | None) -> int:
    return INGREDIENTS.index(name) if name is not None else -1


def _effect(e: EffectSpec, source: str | None = None) -> Effect:
    return Effect(e.effect, e.value, e.arg, source or e.source)


def _effects(effects: list[EffectSpec], source: str | None = None) -> tuple[Effect, ...]:
    return tuple(_effect(e, source) for e in effects)


def _ability(card: AbilityCard) -> Ability:
    if card.passive is not None:
        p = card.passive
        amount = p.amount if p.amount is not None else (p.winner if p.winner is not None else 0)
        return Ability(passive=p.name, amount=amount, amount2=p.after_picks)
    return Ability(trigger=card.trigger or "", effects=_effects(card.effects))


def _per_players(table: Mapping[str, V]) -> FrozenDict[int, V]:
    return frozen({int(k): v for k, v in table.items()})


def _sourced(pack: s.Pack) -> Iterator[tuple[str, str, Sourced]]:
    """Every item that carries a provenance tag: (namespace, its name in the tree, the item); tables count once,
    Omen cards and both their halves count too."""
    for ns in _RULES_TABLES:
        yield ns, ns, getattr(pack, ns)
    for name in READINGS:
        yield "readings", f"readings.{name}", getattr(pack.readings, name)
    for ns in ("actions", "ingredients", "diseases", "potions", "patient_tiles"):
        for ident, item in getattr(pack, ns).items():
            yield ns, f"{ns}.{ident}", item
    yield "map", "map", pack.map
    for ns in ("spells", "witches", "buildings", "goals", "animals"):
        for ident, item in getattr(pack, ns).items():
            yield ns, f"{ns}.{ident}", item
    yield "omens", "omens", pack.omens
    for ident, card in pack.omens.cards.items():
        yield "omens", f"omens.{ident}", card
        yield "omens", f"omens.{ident}.bright", card.bright
        yield "omens", f"omens.{ident}.dark", card.dark
    yield "widow", "widow", pack.widow
    for ns in ("widow_cards", "tribulations"):
        for ident, item in getattr(pack, ns).items():
            yield ns, f"{ns}.{ident}", item


def _provenance(pack: s.Pack) -> FrozenDict[str, FrozenDict[str, int]]:
    """How many items of each file carry each provenance tag (``_sourced``)."""
    counts: dict[str, dict[str, int]] = {}
    for ns, _, item in _sourced(pack):
        per_file = counts.setdefault(NAMESPACE_FILE[ns], {})
        per_file[item.provenance] = per_file.get(item.provenance, 0) + 1
    return frozen({file: frozen(tags) for file, tags in counts.items()})


def _assumed(pack: s.Pack) -> FrozenDict[str, tuple[str, ...]]:
    """The partly assumed items (tree name -> the fields assumed), in file order."""
    return frozen({name: tuple(item.assumed) for _, name, item in _sourced(pack) if item.assumed})


def _rules(pack: s.Pack) -> Rules:
    setup, susp, crowd, end, hunters, acts = (
        pack.setup,
        pack.suspicion,
        pack.crowd,
        pack.end,
        pack.hunters,
        pack.actions,
    )

    def param(action: str, name: str, default: int) -> int:
        value = getattr(acts[action], name)
        return default if value is None else int(value)

    calming = pack.potions["calming-potion"].suspicion
    return Rules(
        seasons=tuple(pack.game.seasons),
        turns_per_season=pack.game.turns_per_season,
        loyal_citizens=setup.loyal_citizens,
        witches_dealt=setup.witches_dealt,
        witches_kept=setup.witches_kept,
        max_witches=setup.max_witches,
        goals_dealt=setup.goals_dealt,
        start_crystals=setup.start_crystals,
        start_charms=setup.start_charms,
        neutral_crowd=setup.neutral_crowd,
        buildings_on_board=setup.buildings_on_board,
        suspicion_start=susp.start,
        suspicion_min=susp.min,
        suspicion_max=susp.max,
        match_player=susp.match_player,
        match_septima=susp.match_septima,
        ritual_oil=susp.ritual_oil,
        overflow_wisdom_loss=susp.overflow_wisdom_loss,
        angry_by_level=tuple(susp.angry_by_level),
        patients_on_board=_per_players(pack.board.patients),
        all_tracks_bonus=end.all_tracks_bonus,
        trial_seats=_per_players(pack.trials.seats),
        winner_wisdom=pack.trials.winner_wisdom,
        winner_recall=pack.trials.winner_recall,
        pick_thresholds=tuple(crowd.pick_thresholds),
        recall_after_picks=crowd.recall_after_picks,
        crowd_move_steps=crowd.move_steps,
        crowd_suspicion=crowd.suspicion,
        plead_wisdom=param("plead", "wisdom", 0),
        brew_max=param("brew", "max", 3),
        heal_max=param("heal", "max", 2),
        move_steps=param("move", "steps", 3),
        chant_suspicion=param("chant", "suspicion", 0),
        chant_bonus_suspicion=param("chant", "bonus_suspicion", 0),
        brew_bonus_discount=param("brew", "discount", 0),
        calming_suspicion=calming if calming is not None else 0,
        potion_supply=setup.potion_supply,
        ritual_top_wisdom=pack.ritual.top_wisdom,
        loyal_scores=tuple((a, b) for a, b in end.loyal_scores),
        charm_wisdom=end.charm_wisdom,
        potion_wisdom=end.potion_wisdom,
        resources_per_wisdom=end.resources_per_wisdom,
        hunter_die=tuple(hunters.die),
        hunter_start_spaces=_per_players({k: tuple(v) for k, v in hunters.start_spaces.items()}),
        hunter_enter_seasons=tuple(hunters.enter_seasons),
        lunar_extra_icons=pack.lunar.extra_icons,
        crystal_supply=pack.crystal.supply,
        shapeshift_bonus_suspicion=param("shapeshift", "bonus_suspicion", 0),
        forced_witches=_forced(setup.forced, list(pack.witches)),
        forced_spells=_forced(setup.forced_spells, list(pack.spells)),
        forced_goals=_forced(setup.forced_goals, list(pack.goals)),
        readings=Readings(
            **{
                name: Reading(r.value, tuple(r.allowed), r.provenance, r.description)
                for name in READINGS
                for r in (getattr(pack.readings, name),)
            }
        ),
    )


def _forced(table: dict[str, str], ids: list[str]) -> tuple[tuple[int, int], ...]:
    """A ``[setup.forced*]`` table (seat -> id) as sorted (seat, index) pairs."""
    return tuple(sorted((int(seat), ids.index(ident)) for seat, ident in table.items()))


def _omen_half(key: str, half: OmenHalfSpec) -> OmenHalf:
    params: dict[str, object] = {}
    for name in OMEN_HOOKS[half.effect]:
        value: Any = getattr(half, name)
        if OMEN_PARAM_KINDS.get(name) == "effects":  # Wisdom from an Omen goes to the `omens` source
            value = _effects(value, "omens")
        params[name] = tuple(value) if isinstance(value, list) else value
    return OmenHalf(half.name if half.name is not None else key, half.effect, frozen(params), half.provenance)


def _omens(pack: s.Pack) -> tuple[Omen, ...]:
    return tuple(
        Omen(
            i,
            c.name if c.name is not None else i,
            _omen_half(f"{i}.bright", c.bright),
            _omen_half(f"{i}.dark", c.dark),
            c.sabbath,
            c.provenance,
        )
        for i, c in pack.omens.cards.items()
    )


def _widow(pack: s.Pack) -> Widow:
    w = pack.widow
    cards = {a: tuple(Effect(e.effect, e.amount) for e in card.effects) for a, card in pack.widow_cards.items()}
    tribulations = tuple(
        Tribulation(
            i,
            t.name,
            (t.stat, t.op, t.value),
            (t.basic.stat, t.basic.op, t.basic.value) if t.basic is not None else None,
            t.provenance,
        )
        for i, t in pack.tribulations.items()
    )
    return Widow(
        suspicion_start=w.suspicion_start,
        match_suspicion=w.match_suspicion,
        citizens=w.citizens,
        spiders=w.spiders,
        spider_steps=w.spider_steps,
        spider_suspicion=w.spider_suspicion,
        trial_win_wisdom=w.trial_win_wisdom,
        needed=w.tribulations_needed,
        needed_shapeshifting=w.tribulations_needed_shapeshifting,
        cards=frozen(cards),
        tribulations=tribulations,
    )


def build(pack: s.Pack, content_hash: str) -> Content:
    """The engine's view of a validated pack; ``content_hash`` identifies the tree it came from."""
    disease_ids = list(pack.diseases)
    ritual = pack.ritual
    return Content(
        rules=_rules(pack),
        actions=tuple(
            Action(i, a.name, a.bonus, a.full_only, a.provenance, a.module, a.icon) for i, a in pack.actions.items()
        ),
        potions=tuple(
            Potion(
                i,
                p.name,
                p.kind,
                p.cures,
                p.use,
                tuple(INGREDIENTS.index(x) for x in p.recipe),
                p.wisdom,
                p.provenance,
            )
            for i, p in pack.potions.items()
        ),
        diseases=tuple(
            Disease(i, d.name, _effects(d.rewards), tuple(d.end_values), d.provenance) for i, d in pack.diseases.items()
        ),
        patients=tuple((disease_ids.index(d), flag) for d, t in pack.patient_tiles.items() for flag in t.flags),
        areas=tuple(
            Area(
                i,
                a.q,
                a.r,
                _ingredient(a.ingredient),
                a.river,
                a.town,
                a.hospital,
                a.outcrop,
                a.shrine or "",
                tuple(a.patient_spaces),
            )
            for i, a in pack.map.areas.items()
        ),
        ritual=Ritual(
            tuple(tuple(c) for c in ritual.columns),
            ritual.start_column,
            tuple(tuple(x) for x in ritual.rows),
            frozen({int(row): (r.offering, _effects(r.rewards)) for row, r in ritual.ribbons.items()}),
        ),
        spells=tuple(
            Spell(
                i,
                sp.name,
                sp.element,
                sp.kind,
                sp.requires,
                sp.ongoing,
                _effects(sp.effects),
                sp.per,
                sp.unit,
                sp.amount,
                sp.provenance,
            )
            for i, sp in pack.spells.items()
        ),
        witches=tuple(Witch(i, w.name, _ability(w), w.provenance) for i, w in pack.witches.items()),
        buildings=tuple(Building(i, b.name, _ability(b), b.provenance) for i, b in pack.buildings.items()),
        goals=tuple(
            Goal(i, g.name, g.stat, g.op, g.value, g.wisdom, g.full_only, g.provenance) for i, g in pack.goals.items()
        ),
        animals=tuple(
            Animal(
                i,
                a.name,
                a.colour,
                tuple(a.actions),
                a.ability,
                a.count,
                a.bonus_picks,
                _ingredient(a.ingredient if a.ingredient is not None else a.gain),
                _ingredient(a.near),
                a.provenance,
            )
            for i, a in pack.animals.items()
        ),
        widow=_widow(pack),
        hash=content_hash,
        provenance=_provenance(pack),
        assumed=_assumed(pack),
        omens=_omens(pack),
        omen_threshold=_per_players(pack.omens.threshold),
        omen_deck_size=pack.omens.deck_size,
    )
