"""End of game (B32, B3) and the result rows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.engine import omens, widow
from septima_sim.engine.results import RULES_VERSION, SOURCES, GameResult

if TYPE_CHECKING:
    from septima_sim.content.model import Content
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def player_stat(content: Content, p: Player, name: str) -> int | None:
    """A statistic of the player alone (goals, scoring spells, Tribulations, heuristic players read it); None for
    the statistics that need the whole game (``goals_scored``, ``wisdom_lead``: see ``stat``)."""
    if name == "witches":
        return len(p.coven)
    if name == "patients_healed":
        return sum(p.healed)
    if name == "diseases_healed":
        return sum(1 for h in p.healed if h)
    if name == "ritual_row":
        return p.ritual_row
    if name == "suspicion":
        return p.suspicion
    if name == "crowd_loyal":
        return p.crowd
    if name == "practical_brewed":
        return sum(n for n, pot in zip(p.brewed, content.potions, strict=True) if pot.kind == "practical")
    if name == "trials_won":
        return p.trials_won
    if name == "spells":
        return len(p.spells)
    if name == "resources":
        return sum(p.res)
    if name == "charms":
        return p.charms
    if name == "potions":
        return sum(p.potions)
    if name == "captures":
        return p.captures
    if name == "ingredients_gained":
        return p.ingredients_gained
    return None


def stat(g: Game, p: Player, name: str) -> int:
    """A player statistic that goals, scoring spells and Tribulations read (names in content.model.STATS)."""
    value = player_stat(g.content, p, name)
    if value is not None:
        return value
    if name == "goals_scored":
        return len(g.goals_scored[p.seat])
    if name == "wisdom_lead":
        return p.wisdom - g.widow.wisdom if g.widow is not None else 0
    raise KeyError(name)


def score_end(g: Game) -> None:
    """B32: loyal citizens in the crowd (3-4 -> 3, 5+ -> 7), Book of Divination (as many fulfilled goals as
    witches, the best ones), patient tracks (+6 if all three advanced), charms 2, potions 1, resources 1 per 2,
    scoring spells. With Omens the Witches' Sabbath resolves first (O5)."""
    if g.omens:
        omens.game_end(g)
    r = g.rules
    goals = g.content.goals
    for p in g.players:
        loyal = 0
        for at_least, points in r.loyal_scores:
            if p.crowd >= at_least:
                loyal = points
        g.gain_wisdom(p, loyal, "loyal_citizens")
        met = [i for i in g.goals[p.seat] if _fulfilled(g, p, i)]
        met.sort(key=lambda i: -goals[i].wisdom)
        scored = met[: len(p.coven)]
        g.goals_scored[p.seat] = scored
        g.gain_wisdom(p, sum(goals[i].wisdom for i in scored), "divination")
        tracks = sum(d.end_values[p.tracks[k]] for k, d in enumerate(g.content.diseases))
        if all(p.tracks):
            tracks += r.all_tracks_bonus
        g.gain_wisdom(p, tracks, "patients")
        g.gain_wisdom(p, p.charms * r.charm_wisdom, "charms")
        g.gain_wisdom(p, sum(p.potions) * r.potion_wisdom, "potions")
        g.gain_wisdom(p, sum(p.res) // r.resources_per_wisdom, "resources")
        spells = g.content.spells
        points = 0
        for sp in p.spells:
            s = spells[sp.idx]
            if s.kind == "scoring":
                points += stat(g, p, s.per) // s.unit * s.amount
        g.gain_wisdom(p, points, "spells")


def _fulfilled(g: Game, p: Player, goal: int) -> bool:
    gl = g.content.goals[goal]
    value = stat(g, p, gl.stat)
    return value >= gl.value if gl.op == ">=" else value <= gl.value


def ranking(g: Game) -> tuple[list[int], list[int]]:
    """B3: most Wisdom wins; tie: most witches; still tied: shared win. Returns (winners, rank per seat)."""
    keys = [(p.wisdom, len(p.coven)) for p in g.players]
    ranks = [1 + sum(1 for k in keys if k > mine) for mine in keys]
    winners = [s for s, rank in enumerate(ranks) if rank == 1]
    return winners, ranks


def solo_outcome(g: Game) -> tuple[list[str], bool]:
    """W4: the Tribulations the player met and whether that is enough to win (8, or 7 with Shapeshifting)."""
    met = widow.tribulations(g, g.players[0])
    if g.sink is not None:
        for t in g.content.widow.tribulations:
            g.emit("tribulation", 0, detail=f"{t.id} {'met' if t.id in met else 'failed'}")
    return met, len(met) >= widow.needed(g)


def final_result(g: Game) -> GameResult:
    score_end(g)
    c = g.content
    met: list[str] = []
    if g.widow is not None:
        met, won = solo_outcome(g)
        winners, ranks = ([0], [1]) if won else ([], [2])
        scores = [g.players[0].wisdom, g.widow.wisdom]
    else:
        winners, ranks = ranking(g)
        scores = sorted((p.wisdom for p in g.players), reverse=True)
    game = {
        "seed": g.seed,
        "players": g.n,
        "mode": g.config.mode,
        "shapeshifting": g.config.shapeshifting,
        "omens": g.config.omens,
        "solo": g.n == 1,
        "omen_cards": list(g.omen_cards),
        "omen_halves": list(g.omen_halves),
        "winner_seats": winners,
        "winning_score": scores[0],
        "margin": scores[0] - scores[1],
        "tie": len(winners) > 1,
        "turns": len(g.rules.seasons) * g.rules.turns_per_season,
        "decisions": g.decisions,
        "start_player": g.first_player,
        "buildings": sorted(c.buildings[b].id for b in g.buildings.values()),
        "rules_version": RULES_VERSION,
        "content_hash": c.hash,
        "tribulations_met": len(met) if g.widow is not None else None,
        "tribulations": met,
        "tribulations_failed": [t.id for t in c.widow.tribulations if t.id not in met] if g.widow is not None else [],
        "widow_wisdom": g.widow.wisdom if g.widow is not None else None,
        "widow_suspicion": g.widow.suspicion if g.widow is not None else None,
        "solo_won": bool(winners) if g.widow is not None else None,
    }
    players = []
    for p in g.players:
        row: dict[str, object] = {
            "seat": p.seat,
            "colour": p.colour,
            "policy": g.policies[p.seat].name,
            "wisdom": p.wisdom,
            "rank": ranks[p.seat],
            "won": p.seat in winners,
        }
        for i, source in enumerate(SOURCES):
            row[f"wisdom_{source}"] = p.src[i]
        row.update(
            witches_start=p.witches_start,
            witches_end=len(p.coven),
            witches_lost=p.witches_lost,
            witches_recruited=p.witches_recruited,
            suspicion_end=p.suspicion,
            suspicion_max=p.suspicion_max,
            overflows=p.overflows,
            captures=p.captures,
            hunter_rolls=p.hunter_rolls,
            trials_won=p.trials_won,
            spells_gained=p.spells_gained,
            ritual_row=p.ritual_row,
            matches_players=p.matches_players,
            matches_septima=p.matches_septima,
            crowd_end=p.crowd,
            charms_end=p.charms,
            resources_end=sum(p.res),
        )
        for k, d in enumerate(c.diseases):
            row[f"healed_{d.id}"] = p.healed[k]
        for k, pot in enumerate(c.potions):
            row[f"brewed_{pot.id.replace('-', '_')}"] = p.brewed[k]
        for k, a in enumerate(c.actions):
            row[f"played_{a.id}"] = p.played[k]
        row["animals"] = [c.animals[a].id for a in p.animals]
        row["animals_used"] = [c.animals[a].id for a in p.animals_used]
        row["shapeshifts"] = p.shapeshifts
        row["turns_in_animal_form"] = p.animal_turns
        row["form_end"] = c.animals[p.form].id if p.form >= 0 else "human"
        row["witches_drafted"] = [c.witches[w].id for w in g.drafted[p.seat]]
        row["witches"] = [c.witches[w].id for w in p.coven]
        row["spells"] = [c.spells[sp.idx].id for sp in p.spells]
        row["goals"] = [c.goals[i].id for i in g.goals[p.seat]]
        row["goals_scored"] = [c.goals[i].id for i in g.goals_scored[p.seat]]
        players.append(row)
    return GameResult(game, players)
