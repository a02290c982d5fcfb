"""The nine action cards (B19-B21f): main abilities and matching bonuses.

``resolve_card`` is called with the card whose text resolves (for Remember: the copied card) and ``played``, the card
actually played (abilities that trigger on playing an action look at ``played``, B21e).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from septima_sim.content.model import CRYSTAL
from septima_sim.engine import crowd, effects, potions, spells, supply
from septima_sim.engine import ritual as ritual_track
from septima_sim.engine.decisions import Kind
from septima_sim.engine.passives import passive

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def resolve_card(g: Game, p: Player, card: int, matched: bool, played: int) -> None:
    """Resolve `card`'s main ability, plus its matching bonus when matched (Also / Instead / strengthen, B12)."""
    _HANDLERS[g.action_ids[card]](g, p, matched, played)


def collect(g: Game, p: Player, matched: bool, played: int) -> None:
    """B19: 1 of each adjacent area's ingredient if it is lunar, 1 Crystal per adjacent outcrop;
    Also: 1 ingredient of one adjacent non-lunar type."""
    lunar = (g.s.lunar[g.s.turn], g.s.lunar[g.s.turn + 1])
    areas = g.content.areas
    non_lunar: list[int] = []
    collected: list[int] = []
    first = -1
    for ai in g.board.vertex_areas[p.vertex]:
        a = areas[ai]
        if a.ingredient >= 0:
            if a.ingredient in lunar:
                g.gain_res(p, a.ingredient)
                collected.append(a.ingredient)
                if first < 0:
                    first = a.ingredient
            elif a.ingredient not in non_lunar:
                non_lunar.append(a.ingredient)
        if a.outcrop and _outcrop_acts(g, played):
            g.gain_res(p, CRYSTAL)
    extra = passive(g, p, "collect_extra")
    if extra and first >= 0:
        g.gain_res(p, first, extra)
    p.fx.after_collect(g, p, collected)
    if matched and non_lunar:
        g.choose_ingredient(p, non_lunar)


def move(g: Game, p: Player, matched: bool, played: int) -> None:
    """B20: move up to 3 steps and gain 1 ingredient from an area next to any vertex passed or reached;
    Instead: move any number of steps and gain 1 Crystal."""
    if matched and g.ask(Kind.INSTEAD, p.seat, (0, 1), "move") == 1:
        g.move_leader(p, -1)
        g.gain_res(p, CRYSTAL)
    else:
        _move_main(g, p)
    p.fx.after_move(g, p)


def _move_main(g: Game, p: Player) -> None:
    """Move's main ability: up to 3 steps (an animal ability may allow more: Fox), then 1 ingredient from an area
    next to a shortest path."""
    steps = g.rules.move_steps + passive(g, p, "move_extra")
    start = p.vertex
    dest = g.ask(Kind.MOVE, p.seat, p.fx.move_targets(g, p, g.free_vertices(p, steps)))
    g.move_to(p, dest)
    dist = g.board.dist
    steps = max(steps, dist[start][dest])
    kinds: list[int] = []
    for v in g.board.reach(start, steps):
        if dist[start][v] + dist[v][dest] <= steps:
            for ai in g.board.vertex_areas[v]:
                ing = g.content.areas[ai].ingredient
                if ing >= 0 and ing not in kinds:
                    kinds.append(ing)
    kinds.sort()
    g.choose_ingredient(p, kinds)


def brew(g: Game, p: Player, matched: bool, played: int) -> None:
    """B21: brew up to 3 potions paying their recipes (Crystal is wild); bonus: pay 1 ingredient less in total.
    A Practical potion scores its Wisdom when brewed. The rule effect in force may change the limit or act after
    the brew (Omens: Soured Brews, Golden Cauldron)."""
    discount = (g.rules.brew_bonus_discount if matched else 0) + passive(g, p, "brew_discount")
    waive = p.fx.waived_ingredient(g, p)
    brewed = 0
    for _ in range(g.s.fx.brew_limit(g, g.rules.brew_max)):
        opts = [
            i
            for i in range(len(g.content.potions))
            if g.s.potion_supply[i] > 0 and potions.can_pay(p, i, g, discount, waive)
        ]
        if not opts:
            break
        choice = g.ask_or_stop(Kind.BREW, p.seat, opts)
        if choice < 0:
            break
        discount = potions.pay_recipe(g, p, choice, discount, waive)
        supply.gain_potion(g, p, choice, brewed=True)
        brewed += 1
    g.s.fx.after_brew(g, p, brewed)


def heal(g: Game, p: Player, matched: bool, played: int) -> None:
    """B21a: heal up to 2 adjacent patients with matching Remedies, each at most once per player;
    Also: gain 1 Good Luck Charm."""
    limit = g.rules.heal_max + passive(g, p, "heal_extra")
    bit = 1 << p.seat
    adjacent = g.board.vertex_areas[p.vertex]
    for _ in range(limit):
        opts = []
        for space, patient in g.s.patients.items():
            if (
                patient.area in adjacent
                and not patient.healed_by & bit
                and potions.remedy_for(g, p, patient.disease) >= 0
            ):
                opts.append(space)
        if not opts:
            break
        opts.sort()
        space = g.ask_or_stop(Kind.HEAL, p.seat, opts, stop="")
        if not space:
            break
        potions.heal_patient(g, p, g.s.patients[space])
    if matched:
        p.charms += 1
        if g.sink is not None:
            g.note("charms", p.seat, "+1")


def chant(g: Game, p: Player, matched: bool, played: int) -> None:
    """B21b: suspicion -2; Also: -1 more (a matched Chant raises no suspicion, handled in the suspicion step)."""
    g.lower_suspicion(p, -g.rules.chant_suspicion)
    if matched:
        g.lower_suspicion(p, -g.rules.chant_bonus_suspicion)


def recruit(g: Game, p: Player, matched: bool, played: int) -> None:
    """B21c: send 1 loyal citizen from supply to the crowd; Also, before or after (B12): take any 1 crowd pick. The
    order is asked only when an ability after the main depends on where the leader stands (the Cat: next to a Town),
    which the move pick can change, and a citizen is left for it; else the main ability first."""
    order_matters = p.fx.recruit_depends_on_position and p.supply > 1
    first = matched and _bonus_first(g, p, "recruit", order_matters, default=0)
    if first:
        crowd.crowd_picks(g, p, 1)
    crowd.citizen_to_crowd(g, p, 1)
    p.fx.after_recruit_action(g, p)
    if matched and not first:
        crowd.crowd_picks(g, p, 1)


def plead(g: Game, p: Player, matched: bool, played: int) -> None:
    """B21d: move 1 of your loyal citizens from the crowd into a trial chamber and gain 2 Wisdom (even with no
    citizen to move); Also, before or after (B12): send 1 more loyal citizen from supply to the crowd. The order
    is asked only when the bonus citizen could be seated (one in supply, a chamber open); else the bonus comes
    first."""
    first = matched and _bonus_first(g, p, "plead", p.supply > 0 and bool(crowd.open_chambers(g)), default=1)
    if first:
        crowd.citizen_to_crowd(g, p, 1)
    crowd.seat_citizen(g, p)
    p.fx.after_plead(g, p)
    g.gain_wisdom(p, g.rules.plead_wisdom, "plead")
    if matched and not first:
        crowd.citizen_to_crowd(g, p, 1)


def remember(g: Game, p: Player, matched: bool, played: int) -> None:
    """B21e: resolve the main ability of a discarded card; bonus: its matching bonus too.
    Matching is judged on Remember; witches' triggers fire for Remember, not for the copy. Reading
    ``remember_abilities``: what the copied card's own text holds comes with the copy (Collect's outcrop Crystals)
    while shrines and buildings' play-triggers act for the played card, Remember ("card-text", seed 001); none of
    them for the copy ("played-card"); or all of them for the copy too ("copied-card")."""
    if p.fx.replace_remember(g, p, matched):
        return
    opts = sorted(set(p.discard) - {g.action_index["remember"]})
    if not opts:
        return
    card = g.ask(Kind.REMEMBER, p.seat, opts)
    g.s.remember_copy[p.seat] = card
    if g.sink is not None:
        g.note("copy", p.seat, g.action_ids[card])
    resolve_card(g, p, card, matched, played)
    if g.rules.readings.remember_abilities.value == "copied-card":
        effects.trigger(g, p, g.play_trigger[g.icon[card]], buildings_only=True)


def ritual(g: Game, p: Player, matched: bool, played: int) -> None:
    """B21f: advance 1 row (no icon needed), optionally shifting 1 column before or after;
    Also, before or after (B12): ready 1 used spell or gain 1 ingredient of choice (the order is asked only when
    the advance enters a ribbon row, whose offering the bonus ingredient can pay; else the main ability first).
    Adjacent shrine: ready 1 spell of its element."""
    first = matched and _bonus_first(g, p, "ritual", ritual_track.enters_ribbon(g, p), default=0)
    if first:
        ritual_track.ritual_bonus(g, p)
    ritual_track.ritual_action(g, p)
    if matched and not first:
        ritual_track.ritual_bonus(g, p)
    p.fx.after_ritual(g, p)
    if not _shrine_acts(g, played):
        return
    for ai in g.board.vertex_areas[p.vertex]:
        element = g.content.areas[ai].shrine
        if element:
            spells.ready_spell(g, p, element)


def _outcrop_acts(g: Game, played: int) -> bool:
    """Whether adjacent crystal outcrops give Collect's Crystal while `played` was played. The Crystal is part of
    Collect's own text (seed 001 「收集鄰近的月亮標示資源和水晶」), so it comes with Remember's copy too, unless
    reading ``remember_abilities`` is "played-card"."""
    return _is_played(g, "collect", played) or g.rules.readings.remember_abilities.value != "played-card"


def _shrine_acts(g: Game, played: int) -> bool:
    """Whether adjacent shrines ready a spell for Ritual while `played` was played. A shrine is a special area, and
    special areas work like buildings, which work like witches (seed 001 「特殊地區也是和建築一樣」,
    「建築就像女巫一樣」): it triggers on playing Ritual, so not for Remember's copy unless reading
    ``remember_abilities`` is "copied-card"."""
    return _is_played(g, "ritual", played) or g.rules.readings.remember_abilities.value == "copied-card"


def _is_played(g: Game, card: str, played: int) -> bool:
    """Whether `card` resolves as the card played (not as Remember's copy)."""
    return g.action_ids[played] == card


def _bonus_first(g: Game, p: Player, card: str, choice: bool, default: int) -> bool:
    """B12 Also: whether the bonus comes before the main ability. Asked (``Kind.ALSO_ORDER``, the `default` order
    offered first) only when the order can change the outcome (`choice`); otherwise the `default` order."""
    if not choice:
        return default == 1
    return bool(g.ask(Kind.ALSO_ORDER, p.seat, (default, 1 - default), card) == 1)


_HANDLERS: dict[str, Callable[[Game, Player, bool, int], None]] = {
    "collect": collect,
    "move": move,
    "brew": brew,
    "heal": heal,
    "chant": chant,
    "recruit": recruit,
    "plead": plead,
    "remember": remember,
    "ritual": ritual,
}
"""Action id -> its rules; a module's own cards register here too (``register_action``)."""


def register_action(action: str, handler: Callable[[Game, Player, bool, int], None]) -> None:
    """Give a module's action card its rules (``handler(g, p, matched, played)``)."""
    _HANDLERS[action] = handler
