"""Potions (B21, RULINGS §11): paying recipes, brewing, Remedies on patients, Practical potions used in your turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.content.model import CRYSTAL
from septima_sim.engine import effects, payment
from septima_sim.engine.decisions import Kind
from septima_sim.engine.passives import passive
from septima_sim.engine.potion_uses import POTION_USES
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
    if g.s.fx.changes_price:
        return g.s.fx.can_pay(g, p, potion, discount, waive)
    return p.res[CRYSTAL] >= _split(p, g.content.potions[potion].recipe, waive) - discount


def pay_recipe(g: Game, p: Player, potion: int, discount: int, waive: int = -1) -> int:
    """Pay a recipe: each item with its ingredient, a Crystal where the player has none. A discount (the Brew bonus
    「可以少支付一個資源」, a passive) leaves items unpaid: first the Crystals the player lacks, then the player
    chooses which resource it keeps (``Kind.DISCOUNT``, asked only when the items differ). Returns the discount
    left for later potions of the same action."""
    if g.s.fx.changes_price:
        return g.s.fx.pay_recipe(g, p, potion, discount, waive)
    exact: list[int] = []
    gaps = _split(p, g.content.potions[potion].recipe, waive, exact)
    items = [*exact, *(CRYSTAL,) * gaps]
    cause = f"potion:{g.content.potions[potion].id}"
    while discount > 0 and items:
        if gaps > p.res[CRYSTAL]:  # a Crystal the player does not have: the discount must waive it
            gaps -= 1
            items.remove(CRYSTAL)
        else:
            keep = g.ask(Kind.DISCOUNT, p.seat, sorted(set(items)), cause)
            if keep == CRYSTAL:
                gaps -= 1
            items.remove(keep)
        discount -= 1
    payment.pay(g, p, items, cause)
    return discount


def remedy_for(g: Game, p: Player, disease: int) -> int:
    """The Remedy the player holds for a disease (the rule effect in force may allow another one), or -1."""
    potion = g.remedy_of[disease]
    if potion >= 0 and p.potions[potion] > 0:
        return potion
    return g.s.fx.other_remedy(g, p)


def heal_patient(g: Game, p: Player, patient: Patient) -> None:
    """B21a: place the matching Remedy on the patient, remove its angry citizens, advance the disease track
    (Edith: any track) and take that step's reward at once."""
    potion = g.s.fx.choose_remedy(g, p, patient)
    if potion < 0:
        potion = remedy_for(g, p, patient.disease)
    p.potions[potion] -= 1
    patient.remedies.append(potion)
    patient.angry = 0
    patient.healed_by |= 1 << p.seat
    if g.sink is not None:
        g.note("potions", p.seat, f"-1 {g.content.potions[potion].id} on patient {patient.space}")
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


def offer_potions(g: Game, p: Player, before: bool = False) -> None:
    """Practical potions used in your own turn (seed 001 可以在自己回合中使用): Calming, Flying Ointment, Love Potion,
    offered after your card and, under reading ``practical_potions`` "own-turn" (the default), before it too
    (`before`: after the pre-move, before Ritual Oil and the card); "after-card" offers them after the card only."""
    if before and g.rules.readings.practical_potions.value != "own-turn":
        return
    when = "before" if before else "after"
    pots = g.content.potions
    while True:
        opts = [i for i in g.usable_practicals if p.potions[i] > 0]
        if not opts:
            return
        choice = g.ask_or_stop(Kind.POTION_USE, p.seat, opts, context=when)
        if choice < 0:
            return
        use_potion(g, p, choice)
        prev = g.caused(f"potion:{pots[choice].id}")
        POTION_USES[pots[choice].use](g, p)
        g.cause = prev
