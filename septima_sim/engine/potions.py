"""Potions (B21, RULINGS §11): paying recipes, brewing, Remedies on patients, Practical potions used in your turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.content.model import CRYSTAL
from septima_sim.engine import crowd, effects
from septima_sim.engine.abilities import passive
from septima_sim.engine.board import REGIONS
from septima_sim.engine.decisions import Kind
from septima_sim.engine.state import TABLE
from septima_sim.engine.supply import use_potion

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Patient, Player


def _split(p: Player, recipe: tuple[int, ...], waive: int, exact: list[int] | None = None) -> int:
    """Walk a recipe: how many items the player cannot cover with the exact ingredient (they need Crystals or a
    discount), collecting the covered ones in `exact` when given; `waive` is an ingredient the recipe does not need
    (-1: none)."""
    gaps = 0
    used = [0, 0, 0, 0, 0]
    for ing in recipe:
        if ing == waive:
            continue
        if p.res[ing] > used[ing]:
            used[ing] += 1
            if exact is not None:
                exact.append(ing)
        else:
            gaps += 1
    return gaps


def can_pay(p: Player, potion: int, g: Game, discount: int, waive: int = -1) -> bool:
    """True when the recipe can be paid with exact ingredients, Crystals (wild) and `discount` fewer items
    (`waive`: an ingredient the recipe does not need, Toad); the rule effect in force may change the price."""
    if g.fx.changes_price:
        return g.fx.can_pay(g, p, potion, discount, waive)
    return p.res[CRYSTAL] >= _split(p, g.content.potions[potion].recipe, waive) - discount


def pay_recipe(g: Game, p: Player, potion: int, discount: int, waive: int = -1) -> int:
    """Pay a recipe: the discount first waives items that would need a Crystal, then exact ingredients;
    remaining gaps are paid with Crystals. Returns the discount left for later potions of the same action."""
    if g.fx.changes_price:
        return g.fx.pay_recipe(g, p, potion, discount, waive)
    exact: list[int] = []
    gaps = _split(p, g.content.potions[potion].recipe, waive, exact)
    waived = min(discount, gaps)
    gaps -= waived
    discount -= waived
    while discount > 0 and exact:
        exact.pop()
        discount -= 1
    for ing in exact:
        g.pay_res(p, ing)
    if gaps:
        g.pay_res(p, CRYSTAL, gaps)
    return discount


def remedy_for(g: Game, p: Player, disease: int) -> int:
    """The Remedy the player holds for a disease (the rule effect in force may allow another one), or -1."""
    potion = g.remedy_of[disease]
    if potion >= 0 and p.potions[potion] > 0:
        return potion
    return g.fx.other_remedy(g, p)


def heal_patient(g: Game, p: Player, patient: Patient) -> None:
    """B21a: place the matching Remedy on the patient, remove its angry citizens, advance the disease track
    (Edith: any track) and take that step's reward at once."""
    potion = g.fx.choose_remedy(g, p, patient)
    if potion < 0:
        potion = remedy_for(g, p, patient.disease)
    p.potions[potion] -= 1
    patient.remedies.append(potion)
    if g.sink is not None:
        g.note("potions", p.seat, f"-1 {g.content.potions[potion].id} on patient {patient.space}")
    patient.angry = 0
    patient.healed_by |= 1 << p.seat
    p.healed[patient.disease] += 1
    track = patient.disease
    diseases = g.content.diseases
    if passive(g, p, "heal_any_track"):
        opts = [d for d in range(len(diseases)) if p.tracks[d] < len(diseases[d].rewards)]
        if opts:
            track = g.ask(Kind.TRACK, p.seat, opts)
    step = p.tracks[track]
    if step < len(diseases[track].rewards):
        p.tracks[track] = step + 1
        prev = g.caused(f"patient:{diseases[track].id}")
        if g.sink is not None:
            g.note("patient_track", p.seat, f"{diseases[track].id} track step {step + 1}")
        effects.apply(g, p, diseases[track].rewards[step])
        g.cause = prev
    p.fx.after_heal(g, p)


def offer_ritual_oil(g: Game, p: Player) -> bool:
    """Ritual Oil, before an unmatched card resolves: treat the action as matched (it still raises 1)."""
    oil = g.practical_by_use.get("ritual-oil", -1)
    if oil < 0 or p.potions[oil] == 0:
        return False
    if g.ask(Kind.POTION_USE, p.seat, (oil, -1), "before") < 0:
        return False
    use_potion(g, p, oil)
    return True


def offer_potions(g: Game, p: Player) -> None:
    """Practical potions used in your own turn (after your card): Calming, Flying Ointment, Love Potion."""
    pots = g.content.potions
    while True:
        opts = [i for i in g.usable_practicals if p.potions[i] > 0]
        if not opts:
            return
        choice = g.ask_or_stop(Kind.POTION_USE, p.seat, opts, context="after")
        if choice < 0:
            return
        use_potion(g, p, choice)
        use = pots[choice].use
        prev = g.caused(f"potion:{pots[choice].id}")
        if use == "calming":
            _calming(g, p)
        elif use == "flying":
            g.move_leader(p, -1)
        elif use == "love":
            crowd.citizen_to_crowd(g, p, 1)
            crowd.seat_citizen(g, p)
        g.cause = prev


def _calming(g: Game, p: Player) -> None:
    """Calming Potion: suspicion -2, or move a hunter to another hunter space and lay it down."""
    taken = set(g.hunter_space)
    free = [sp for sp in range(1, REGIONS + 1) if sp not in taken]
    opts = [-1] + [h * 10 + sp for h in range(len(g.hunter_space)) for sp in free]
    choice = g.ask(Kind.CALMING, p.seat, opts)
    if choice < 0:
        g.lower_suspicion(p, -g.rules.calming_suspicion)
    else:
        h, sp = divmod(choice, 10)
        g.hunter_space[h] = sp
        g.hunter_active[h] = False
        if g.sink is not None:
            g.note("hunters", TABLE, f"hunter {h} to space {sp}, lying down")
