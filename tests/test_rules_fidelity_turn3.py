"""Rules fidelity, third audit (issue #26, ``../shared/research/fidelity-audit-turn3.md``): each fix is a test named
after its rule id that puts the game where the old behaviour gives another result."""

from __future__ import annotations

from septima_sim.content import Content
from septima_sim.engine import actions
from septima_sim.engine.decisions import Kind
from tests.helpers import action, first_active
from tests.test_omens import og, on
from tests.test_rules_fidelity import HERB, fly_then_collect, relocate

# ---- B16, seed 001 獵人重定位: 「逆時針移動一個活動中獵巫人到自己的地區」 ------------------------------------------


def test_b16_hunter_relocation_counterclockwise(content: Content) -> None:
    """The hunter *moves* counterclockwise to your region: of the active hunters on spaces 1 and 5, the one of
    region 1 (clockwise of region 3; regions are numbered counterclockwise) comes; the old default pulled region 5's."""
    assert relocate(content) == [3, 5]


# ---- O4 Golden Cauldron, seed 000 appendix: "If you brew 3 Potions in your turn, you may still gain the additional
# (free) Practical Potion as a 4th one." ------------------------------------------------------------------------------


def test_o4_golden_cauldron_free_potion_with_any_brew(content: Content) -> None:
    """The free Practical potion comes with a Brew of 1 or 2 potions too ("still" answers the 3-potion cap); the
    old half needed exactly 3 brewed."""
    for n in (1, 2, 3):
        left = [n]

        def brew_n(d, v, left=left) -> object:
            left[0] -= 1
            return d.options[0] if left[0] >= 0 else -1

        g = og(content, **{Kind.BREW: brew_n, Kind.OMEN: first_active})
        on(g, "golden-cauldron", "bright")
        p = g.s.players[0]
        p.res = [9, 9, 9, 9, 9, 0]
        actions.brew(g, p, False, action(g, "brew"))
        assert [d.context for d in g.policies[0].asked(Kind.OMEN)] == ["free_practical"]
        assert sum(p.potions) == n + 1


# ---- O1, seed 000 Components "18x Omen cards"; setup: find the Witches' Sabbath, "Shuffle the rest" ----------------


def test_o1_the_deck_holds_18_omen_cards_including_the_sabbath(content: Content) -> None:
    """17 regular cards and the Sabbath (the old pack had 18 regular cards: one wholly invented card too many, each
    card drawn with chance 3/18 instead of 3/17). The card removed was Bountiful Harvest / Blight, which no seed
    names and whose id was the Earth scoring spell's."""
    assert len(content.omens) == 18 and sum(o.sabbath for o in content.omens) == 1
    spells = {s.id for s in content.spells}
    assert not [o.id for o in content.omens if o.id in spells]


# ---- RULINGS §11 potions, seed 001 Practical: 「可以在自己回合中使用」 (usable in your own turn) ----------------


def test_seed001_practical_potions_usable_in_your_own_turn_before_or_after_the_card(content: Content) -> None:
    """The default offers a Practical potion before the card (after the pre-move) and, when kept, again after it;
    used before, it acts before the card (flown next to Herb, then Collect gains it). The old default offered it
    after the card only."""
    p, pol = fly_then_collect(content, use=lambda d, v: -1)  # keep it at every offer
    assert [d.context for d in pol.asked(Kind.POTION_USE)] == ["before", "after"]
    p, pol = fly_then_collect(content)  # use it at the first offer
    assert [d.context for d in pol.asked(Kind.POTION_USE)] == ["before"] and p.res[HERB] >= 1
