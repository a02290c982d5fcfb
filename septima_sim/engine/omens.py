"""The Omens module (expansion rulebook "Omens", "Appendix: Omens"; RULINGS O1-O5).

Switched on by ``GameConfig.omens``. Three Omen cards lie on the Witches' Sabbath; at the last step of each end of
season the next one takes effect with its dark half when the players' total suspicion reaches the threshold, else its
bright half (O3). ``Game.omen`` names the active half's hook ("" for none): the base flow compares it at its hook
points and calls the functions below. Bright effects are optional (the policy is asked when it is a real choice);
dark ones are mandatory. Wisdom gained or lost through an Omen goes to the ``omens`` source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.content.model import CRYSTAL, Ability, Content, Effect
from septima_sim.engine import effects, potions
from septima_sim.engine.config import ConfigError
from septima_sim.engine.decisions import Kind

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player

PLAY_HOOKS: frozenset[str] = frozenset({"on_play", "play_penalty"})
"""Hooks that act when a card is played (checked once per turn)."""


def omen_sweep_sequences(content: Content) -> list[tuple[str, ...]]:
    """Fixed decks that put each card in each season position exactly once (cyclic shifts of the card list)."""
    ids = [c.id for c in content.omens if not c.sabbath]
    size = content.omen_deck_size
    return [tuple(ids[(start + k) % len(ids)] for k in range(size)) for start in range(len(ids))]


def setup(g: Game) -> None:
    """O1: the Sabbath at the bottom, 3 cards (random, or the configured sequence) above it, the next one visible."""
    c = g.content
    index = {o.id: i for i, o in enumerate(c.omens)}
    sabbath = next(i for i, o in enumerate(c.omens) if o.sabbath)
    fixed = g.config.omen_deck
    if fixed:
        unknown = [x for x in fixed if x not in index or index[x] == sabbath]
        if unknown or len(set(fixed)) != len(fixed) or len(fixed) != c.omen_deck_size:
            known = ", ".join(o.id for o in c.omens if not o.sabbath)
            raise ConfigError(
                f"omen_deck {list(fixed)}: needs {c.omen_deck_size} different Omen cards (known: {known})"
            )
        deck = [index[x] for x in fixed]
    else:
        deck = g.rng_setup.sample([i for i in range(len(c.omens)) if i != sabbath], c.omen_deck_size)
    g.omen_deck = [*deck, sabbath]


def total_suspicion(g: Game) -> int:
    """O3: the total suspicion of all players, plus the Black Widow's in solo (she ignores the Omens' effects)."""
    return sum(p.suspicion for p in g.players) + (g.widow.suspicion if g.widow is not None else 0)


def _take_next(g: Game, bottom: bool = False) -> tuple[int, str]:
    """Draw the face-up top card (`bottom`: the Witches' Sabbath under the deck); its half follows the O3 threshold;
    record and announce it."""
    card = g.omen_deck.pop(-1 if bottom else 0)
    total = total_suspicion(g)
    threshold = g.content.omen_threshold[g.n]
    side = "dark" if total >= threshold else "bright"
    omen = g.content.omens[card]
    g.omen_cards.append(omen.id)
    g.omen_halves.append(side)
    if g.sink is not None:
        g.emit("omen", -1, omen=omen.id, omen_half=side, detail=f"total suspicion {total}, threshold {threshold}")
    return card, side


def activate(g: Game, card: int, side: str) -> None:
    """Make a half the active Omen (card -1: none)."""
    g.omen_card, g.omen_side = card, side
    g.omen_half = getattr(g.content.omens[card], side) if card >= 0 else None
    g.omen = g.omen_half.hook if g.omen_half is not None else ""


def next_omen(g: Game) -> None:
    """B31 step 6 / O3: the previous Omen ends (Era of Epidemic exiles its witches), the next one takes effect."""
    _season_over(g)
    card, side = _take_next(g)
    activate(g, card, side)
    hook = g.omen
    if hook == "season_start":
        for s in g.order:
            for e in _effects(g):
                effects.apply(g, g.players[s], e)
    elif hook == "season_pay":
        _season_pay(g)
    elif hook == "exile_witch":
        for s in g.order:
            p = g.players[s]
            if p.coven:
                g.omen_marked[s] = g.ask(Kind.OMEN, s, p.coven, hook)


def game_end(g: Game) -> None:
    """O5, first step of end-of-game scoring: the last Omen ends; the Witches' Sabbath takes effect with the half of
    the O3 rule at this moment and resolves at once (about the trials of the last season, both chambers)."""
    _season_over(g)
    card, side = _take_next(g, bottom=True)  # a game cut short (search simulations) still ends on the Sabbath
    activate(g, card, side)
    amount = amount_of(g)
    trials = [(w, present) for season, w, present in g.omen_trials if season == g.season]
    for p in g.players:
        if g.omen == "sabbath_won":
            g.gain_wisdom(p, amount * sum(1 for w, _ in trials if w == p.seat), "omens")
        elif g.omen == "sabbath_absent":
            g.lose_wisdom(p, amount * sum(1 for _, present in trials if not present >> p.seat & 1), "omens")
    activate(g, -1, "")


def _season_over(g: Game) -> None:
    """Era of Epidemic: at the end of its season each marked witch still in a coven is exiled to the box."""
    if g.omen == "exile_witch":
        for p in g.players:
            w = g.omen_marked[p.seat]
            if w in p.coven:
                p.coven.remove(w)
                g.witch_box.append(w)
            g.omen_marked[p.seat] = -1


def amount_of(g: Game, name: str = "amount") -> int:
    """An integer parameter of the active half."""
    half = g.omen_half
    assert half is not None
    return int(half.params[name])  # type: ignore[call-overload]


def _effects(g: Game) -> tuple[Effect, ...]:
    half = g.omen_half
    assert half is not None
    return half.params["effects"]  # type: ignore[return-value]


def _season_pay(g: Game) -> None:
    """Assumed dark half: each player pays `amount` resources of their choice; `wisdom` Wisdom per one not paid."""
    need, wisdom = amount_of(g), amount_of(g, "wisdom")
    for s in g.order:
        p = g.players[s]
        unpaid = sum(1 for _ in range(need) if not g.pay_any(p, optional=False))
        g.lose_wisdom(p, unpaid * wisdom, "omens")


# ---- hooks of the moon phase -------------------------------------------------------------------------------------


def card_options(g: Game, options: list[int]) -> list[int]:
    """Broken Memories (forbid_action): the action cannot be selected (unless nothing else is left in hand)."""
    forbidden = g.action_index[str(g.omen_half.params["action"])]  # type: ignore[union-attr]
    allowed = [i for i in options if i != forbidden]
    return allowed or options


def on_play(g: Game, p: Player, icon: int) -> None:
    """Assumed halves on playing an action (its icon, B21e: Remember triggers as Remember): bright ``on_play``
    applies its effects, dark ``play_penalty`` costs Wisdom."""
    half = g.omen_half
    assert half is not None
    if g.action_ids[icon] != half.params["action"]:
        return
    if g.omen == "on_play":
        for e in _effects(g):
            effects.apply(g, p, e)
    else:
        g.lose_wisdom(p, amount_of(g), "omens")


def paranoia(g: Game, p: Player) -> None:
    """Paranoia: each suspicion raise costs Wisdom, even if suspicion is lowered right after."""
    g.lose_wisdom(p, amount_of(g), "omens")


# ---- hooks of the actions -----------------------------------------------------------------------------------------


def _gift_cost(g: Game, potion: int, waive: int) -> int:
    """The Alchemist's Gift: any `love_cost` ingredients for a Love Potion, any `other_cost` for the others; with the
    Toad's ability a recipe that needs the waived ingredient costs 1 less."""
    pot = g.content.potions[potion]
    cost = amount_of(g, "love_cost" if pot.use == "love" else "other_cost")
    return cost - (1 if waive >= 0 and waive in pot.recipe else 0)


def gift_affordable(g: Game, p: Player, potion: int, discount: int, waive: int) -> bool:
    return sum(p.res) >= _gift_cost(g, potion, waive) - discount


def pay_gift(g: Game, p: Player, potion: int, discount: int, waive: int) -> int:
    """Pay a potion under the Alchemist's Gift: the recipe's own ingredients first, then the most plentiful others,
    Crystals last. Returns the discount left."""
    cost = _gift_cost(g, potion, waive)
    free = min(discount, cost)
    cost -= free
    recipe = g.content.potions[potion].recipe
    for _ in range(cost):
        own = [i for i in recipe if i != waive and p.res[i] > 0]
        others = sorted((i for i in range(CRYSTAL) if p.res[i] > 0), key=lambda i: -p.res[i])
        g.pay_res(p, own[0] if own else others[0] if others else CRYSTAL)
    return discount - free


def golden_cauldron(g: Game, p: Player, brewed: int) -> None:
    """Golden Cauldron: brewing `brewed` potions in one action gives a free Practical potion (it may be a 4th)."""
    if brewed < amount_of(g, "brewed"):
        return
    opts = [i for i, pot in enumerate(g.content.potions) if pot.kind == "practical" and g.potion_supply[i] > 0]
    if opts:
        choice = g.ask(Kind.OMEN, p.seat, [*opts, -1], g.omen)
        if choice >= 0:
            potions.gain_potion(g, p, choice, brewed=False)


def any_remedy(g: Game, p: Player) -> int:
    """Era of Healing: a Remedy the player holds (any disease), or -1."""
    return next((i for i in g.remedy_of if i >= 0 and p.potions[i] > 0), -1)


def choose_remedy(g: Game, p: Player, disease: int) -> int:
    """Era of Healing: the player picks which held Remedy heals the patient (its own Remedy first)."""
    own = g.remedy_of[disease]
    opts = [i for i in g.remedy_of if i >= 0 and p.potions[i] > 0]
    opts.sort(key=lambda i: i != own)
    return g.ask(Kind.OMEN, p.seat, opts, g.omen)


# ---- hooks of the trial phase -------------------------------------------------------------------------------------


def trial_picks(g: Game, k: int) -> int:
    """Wave of Sympathy / Search Warrant: crowd picks after the trials change by `amount`, within 0..`max`
    (so with Search Warrant 0 or 1 pick becomes none)."""
    return max(0, min(amount_of(g, "max"), k + amount_of(g)))


def trial_wisdom(g: Game, p: Player) -> None:
    """Assumed halves: a trial winner gains (or loses, never below 0) `amount` more Wisdom."""
    amount = amount_of(g)
    if amount >= 0:
        g.gain_wisdom(p, amount, "omens")
    else:
        g.lose_wisdom(p, -amount, "omens")


def record_trial(g: Game, winner: int, loyal: list[int]) -> None:
    """Remember each judgement for the Witches' Sabbath: its season, winner and the seats with a loyal citizen."""
    g.omen_trials.append((g.season, winner, sum(1 << s for s, n in enumerate(loyal) if n)))


def spiritual_link(g: Game, witch: int, winner: int, recall: int, first_chamber: bool) -> int:
    """Spiritual Link, after an acquittal: the trial winner may use the judged witch's ability once. A triggered
    ability applies its effects now (a witch listed in `everyone`, judged in the first chamber, for every player;
    one in `excluded` for nobody); a ``trial_recall`` ability lowers the winner's recall (its first part only).
    Returns the winner's recall."""
    half = g.omen_half
    assert half is not None
    w = g.content.witches[witch]
    ability: Ability = w.ability
    if ability.passive == "trial_recall":
        if g.ask(Kind.OMEN, winner, (1, 0), g.omen) == 1:
            recall = min(recall, ability.amount)
        return recall
    if not ability.trigger or w.id in half.params["excluded"]:  # type: ignore[operator]
        return recall
    seats = g.order if first_chamber and w.id in half.params["everyone"] else [winner]  # type: ignore[operator]
    for s in seats:
        if g.ask(Kind.OMEN, s, (1, 0), g.omen) == 1:
            for e in ability.effects:
                effects.apply(g, g.players[s], Effect(e.kind, e.amount, e.arg, "omens"))
    return recall
