"""The trial phase (B24, B25) and the crowd picks that follow it (B29)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from septima_sim.engine import crowd, effects
from septima_sim.engine.decisions import Kind
from septima_sim.engine.draws import below
from septima_sim.engine.passives import passive_limit
from septima_sim.engine.state import TABLE

if TYPE_CHECKING:
    from septima_sim.engine.game import Game

NEUTRAL: Final = -2
ANGRY: Final = -3
"""Citizen tokens in the bag besides seat numbers; modules use numbers below -3 for tokens of their own."""


def trial_phase(g: Game, crowd_picks: bool) -> None:
    """B24: angry citizens by suspicion level and from unhealed patients join the crowd; judge the first chamber,
    then each witch of the second chamber from the top; angry citizens leave; crowd picks (seasons 1-3)."""
    s = g.s
    r = g.rules
    sink = g.sink is not None
    for p in s.players:
        s.crowd_angry += r.angry_by_level[p.suspicion - r.suspicion_min]
    if sink:
        g.note("crowd", TABLE, f"{s.crowd_angry} angry citizens by suspicion levels")
    for space in [sp for sp, pt in s.patients.items() if pt.angry]:
        patient = s.patients.pop(space)
        s.crowd_angry += patient.angry
        s.patient_discard.append(patient.tile)
        if sink:
            g.note("patients", TABLE, f"unhealed patient leaves {space}, its angry citizen to the crowd")
    if s.chamber1 >= 0:
        judge(g, s.chamber1, s.seated[1])
        s.seated[1] = []
        s.chamber1 = -1
        if sink:
            g.note("chamber", TABLE, "the first chamber is empty")
    while s.chamber2:
        judge(g, s.chamber2.pop(), s.seated[2])
        s.seated[2] = []
        if sink:
            g.note("chamber", TABLE, "the second chamber's seats are empty")
    for seat in s.seated[2]:  # reading plead_empty_chamber "any-chamber": no witch came, back to the crowd
        s.players[seat].crowd += 1
        if sink:
            g.note("citizens", seat, "1 from the empty second chamber back to the crowd", "trial")
    s.seated[2] = []
    leaving = s.crowd_angry
    s.crowd_angry = 0
    if sink and leaving:
        g.note("crowd", TABLE, f"{leaving} angry citizens leave the crowd")
    if crowd_picks:
        s.step = "crowd"
        thresholds = r.pick_thresholds
        for seat in s.order:
            p = s.players[seat]
            k = sum(1 for t in thresholds if p.crowd >= t)
            k = s.fx.trial_picks(g, k)  # Omens: Wave of Sympathy / Search Warrant
            if k and crowd.crowd_picks(g, p, k):
                recall = passive_limit(g, p, "trial_recall", r.recall_after_picks, second=True)
                back = min(recall, p.crowd)
                p.crowd -= back
                p.supply += back
                if sink and back:
                    g.note("citizens", seat, f"{back} from the crowd back to supply", "crowd")


def judge(g: Game, witch: int, seated: list[int]) -> None:
    """B25: the whole crowd goes into the bag; citizens are drawn into the free seats; acquitted when loyal
    citizens outnumber angry ones. The winner (most loyal seated; tie: first seated) gains 3 Wisdom, may recruit
    the witch and recalls 2 loyal citizens; otherwise the witch is exiled. Drawn citizens return to the crowd."""
    s = g.s
    bag: list[int] = [NEUTRAL] * s.crowd_neutral + [ANGRY] * s.crowd_angry
    for p in s.players:
        bag.extend([p.seat] * p.crowd)
        p.crowd = 0
    for add_tokens in g.hooks.trial_bag:  # solo: the Widow's citizens (angry for the player, W2)
        add_tokens(g, bag)
    s.crowd_neutral = s.crowd_angry = 0
    chamber = list(seated)
    free = max(0, g.rules.trial_seats[g.n] - len(chamber))
    rng = g.rng_draw
    for _ in range(min(free, len(bag))):
        i = below(rng, len(bag))
        bag[i], bag[-1] = bag[-1], bag[i]
        chamber.append(bag.pop())
    loyal = [0] * g.n
    angry = 0
    for token in chamber:
        if token >= 0:
            loyal[token] += 1
        elif token != NEUTRAL:  # angry, or a module's token (the Widow's citizens)
            angry += 1
    acquitted = sum(loyal) > angry
    winner = -1
    if acquitted:
        best = max(loyal)
        for token in chamber:  # first seated among the tied
            if token >= 0 and loyal[token] == best:
                winner = token
                break
    for token in chamber + bag:  # everything back to the crowd
        if token >= 0:
            s.players[token].crowd += 1
        elif token == NEUTRAL:
            s.crowd_neutral += 1
        elif token == ANGRY:
            s.crowd_angry += 1
        else:
            for return_token in g.hooks.return_token:
                return_token(g, token)
    sink = g.sink is not None
    if sink:  # its changes: the chambers, and every crowd with the seated and drawn citizens back (the Widow's too)
        g.emit(
            "trial",
            TABLE,
            detail=f"{g.content.witches[witch].id} {'acquitted' if acquitted else 'exiled'}"
            f"; loyal {sum(loyal)} angry {angry}; winner {winner}",
            cause="trial",
        )
    if winner >= 0:
        p = s.players[winner]
        p.trials_won += 1
        g.gain_wisdom(p, g.rules.winner_wisdom, "trials", "trial")
        s.fx.trial_won(g, p)
        recall = passive_limit(g, p, "trial_recall", g.rules.winner_recall)
        recruited = g.ask(Kind.RECRUIT, winner, (1, 0), witch) == 1
        if recruited:
            if len(p.coven) >= g.rules.max_witches:
                out = g.ask(Kind.DISCARD_WITCH, winner, p.coven)
                p.coven.remove(out)
                s.witch_box.append(out)
                if sink:
                    g.note("coven", winner, f"-{g.content.witches[out].id} discarded")
            p.coven.append(witch)
            p.witches_recruited += 1
            if sink:
                g.note("coven", winner, f"+{g.content.witches[witch].id} recruited")
        else:
            s.witch_box.append(witch)
        recall = s.fx.after_recruit(g, witch, winner, recall, witch == s.chamber1)
        back = min(recall, p.crowd)
        p.crowd -= back
        p.supply += back
        if sink and back:
            g.note("citizens", winner, f"{back} from the crowd back to supply")
    else:
        s.witch_box.append(witch)
    for judged in g.hooks.judged:
        judged(g, witch, chamber, winner, loyal)
    for p in s.players:
        effects.trigger(g, p, "after_trial")
