"""The Shapeshifting module (expansion rulebook "Shapeshifting", "Animal Tiles"; RULINGS S1-S8).

Switched on by ``GameConfig.shapeshifting``. The Shapeshift card replaces Chant and carries its icon; a player who
starts a moon phase in animal form plays only the tile's four actions, never raises suspicion, and uses the animal's
ability with the tile's leftmost action. The base flow calls the functions below at its named hook points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.engine import crowd
from septima_sim.engine import ritual as ritual_track
from septima_sim.engine.decisions import Kind

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def setup(g: Game) -> None:
    """S1: every player takes the two animal tiles of their colour (the Shapeshift card is in the hand already)."""
    animals = g.content.animals
    for p in g.players:
        p.animals = [i for i, a in enumerate(animals) if a.colour == p.colour]


def start_phase(g: Game, p: Player) -> None:
    """S3: the animal rules apply to a player who *starts* the moon phase in animal form."""
    p.in_animal = p.form >= 0
    if p.in_animal:
        p.animal_turns += 1


def card_options(g: Game, p: Player) -> list[int]:
    """S3: in animal form only the tile's four actions may be selected (from the hand)."""
    hand = [i for i in g.hand_actions if p.hand[i]]
    if not p.in_animal:
        return hand
    tile = g.animal_actions[p.form]
    return [i for i in hand if i in tile]


def reveal(g: Game, p: Player, card: int) -> None:
    """S3: the animal's ability is in force this turn when the tile's leftmost action is played."""
    p.ability = ""
    if p.in_animal and g.animal_actions[p.form][0] == card and g.omen != "no_abilities":  # Confused Memories
        p.ability = g.content.animals[p.form].ability


def suspicion_change(p: Player, matched: bool) -> int:
    """S4: in animal form suspicion never rises: unmatched -1, matched no change."""
    return 0 if matched else -1


def shapeshift(g: Game, p: Player, matched: bool, played: int) -> None:
    """S2 main: turn into one of your two animals: its tile covers one of your witches (that ability goes off),
    the animal leader replaces the human one, and all discarded action cards return to hand (Shapeshift itself at
    the end of the turn). Bonus (Also): suspicion -1."""
    if p.form < 0 and p.animals and p.coven:
        animal = g.ask(Kind.ANIMAL, p.seat, p.animals)
        p.covered = g.ask(Kind.COVER_WITCH, p.seat, p.coven)
        p.form = animal
        p.shapeshifts += 1
        if animal not in p.animals_used:
            p.animals_used.append(animal)
        if g.sink is not None:
            g.emit(
                "shapeshift",
                p.seat,
                form=g.content.animals[animal].id,
                detail=f"covers {g.content.witches[p.covered].id}",
            )
    for card in p.discard:
        p.hand[card] = True
    p.discard = []
    if matched:
        g.lower_suspicion(p, -g.rules.shapeshift_bonus_suspicion)


def turn_back_step(g: Game) -> None:
    """End of each turn: a player in animal form may turn back to human (leader back, tile removed); S5: one with
    none of the tile's four actions in hand must."""
    for s in g.order:
        p = g.players[s]
        if p.form < 0:
            continue
        tile = g.animal_actions[p.form]
        forced = not any(p.hand[i] for i in tile)
        if forced or g.ask(Kind.TURN_BACK, s, (0, 1)) == 1:
            if g.sink is not None:
                g.emit("turn_back", s, form="human", detail="forced" if forced else "chosen")
            p.form = -1
            p.covered = -1


# ---- animal abilities (S7), each called by its action when ``p.ability`` names it ---------------------------------


def serpent_remember(g: Game, p: Player, matched: bool) -> bool:
    """Serpent: 2 different crowd picks instead of Remember's main ability; when matched, 1 more different pick
    instead of its bonus. Returns False when the player resolves Remember normally."""
    animal = g.content.animals[p.form]
    if g.ask(Kind.ANIMAL_ABILITY, p.seat, (1, 0), "serpent") == 0:
        return False
    crowd.crowd_picks(g, p, animal.amount + (animal.amount2 if matched else 0))
    return True


def fox_move(g: Game, p: Player) -> None:
    """Fox: move any number of steps to end next to an area with Root printed on it; if you do, gain 1 Skull."""
    animal = g.content.animals[p.form]
    areas = g.content.areas
    opts = [
        v for v in g.free_vertices(p, -1) if any(areas[a].ingredient == animal.near for a in g.board.vertex_areas[v])
    ]
    if not opts:
        return
    opts.append(-1)
    dest = g.ask(Kind.ANIMAL_ABILITY, p.seat, opts, "fox")
    if dest >= 0:
        g.move_to(p, dest)
        g.gain_res(p, animal.ingredient)


def squirrel_collect(g: Game, p: Player, collected: list[int]) -> None:
    """Squirrel: +1 of each different lunar ingredient collected this turn, no more than 2 in total."""
    limit = g.content.animals[p.form].amount
    for ing in sorted(set(collected))[:limit]:
        g.gain_res(p, ing)


def cat_recruit(g: Game, p: Player) -> None:
    """Cat: send 1 more loyal citizen to the crowd if next to at least 1 Town area."""
    if any(g.content.areas[a].town for a in g.board.vertex_areas[p.vertex]):
        crowd.citizen_to_crowd(p, g.content.animals[p.form].amount)


def owl_plead(g: Game, p: Player) -> None:
    """Owl: send 1 more loyal citizen from the crowd into any trial chamber (same or different)."""
    for _ in range(g.content.animals[p.form].amount):
        crowd.seat_citizen(g, p)


def goat_ritual(g: Game, p: Player) -> None:
    """Goat: spend 1 Herb to ready 1 spell."""
    herb = g.content.animals[p.form].ingredient
    if (
        p.res[herb] > 0
        and any(not sp.ready for sp in p.spells)
        and g.ask(Kind.ANIMAL_ABILITY, p.seat, (1, 0), "goat") == 1
    ):
        g.pay_res(p, herb)
        ritual_track.ready_spell(g, p, "")
