"""End of game (B32, B3) and the result rows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from septima_sim.engine.modules.spec import MODULES, columns
from septima_sim.engine.results import RULES_VERSION, GameResult, attribute
from septima_sim.engine.state import TABLE
from septima_sim.engine.stats import meets, stat

if TYPE_CHECKING:
    from septima_sim.engine.game import Game
    from septima_sim.engine.state import Player


def score_end(g: Game) -> None:
    """B32: loyal citizens in the crowd (3-4 -> 3, 5+ -> 7), Book of Divination (as many fulfilled goals as
    witches, the best ones), patient tracks (+6 if all three advanced), charms 2, potions 1, resources 1 per 2,
    scoring spells. Modules act first (O5: the Witches' Sabbath resolves)."""
    for game_end in g.hooks.game_end:
        game_end(g)
    r = g.rules
    goals = g.content.goals
    for p in g.s.players:
        loyal = 0
        for at_least, points in r.loyal_scores:
            if p.crowd >= at_least:
                loyal = points
        g.gain_wisdom(p, loyal, "loyal_citizens", "end:loyal_citizens")
        met = [i for i in g.s.goals[p.seat] if _fulfilled(g, p, i)]
        met.sort(key=lambda i: -goals[i].wisdom)
        scored = met[: len(p.coven)]
        g.s.goals_scored[p.seat] = scored
        for i in scored:
            g.gain_wisdom(p, goals[i].wisdom, "divination", f"divination:{goals[i].id}")
        tracks = sum(d.end_values[p.tracks[k]] for k, d in enumerate(g.content.diseases))
        if all(p.tracks):
            tracks += r.all_tracks_bonus
        g.gain_wisdom(p, tracks, "patients", "end:patients")
        g.gain_wisdom(p, p.charms * r.charm_wisdom, "charms", "end:charms")
        g.gain_wisdom(p, sum(p.potions) * r.potion_wisdom, "potions", "end:potions")
        g.gain_wisdom(p, sum(p.res) // r.resources_per_wisdom, "resources", "end:resources")
        spells = [g.content.spells[sp.idx] for sp in p.spells]
        earned = [(s.id, stat(g, p, s.per) // s.unit * s.amount) for s in spells if s.kind == "scoring"]
        for spell, points in earned:  # all counted first, as when they were summed
            g.gain_wisdom(p, points, "spells", f"spell:{spell}")


def _fulfilled(g: Game, p: Player, goal: int) -> bool:
    gl = g.content.goals[goal]
    return meets(g, p, gl.stat, gl.op, gl.value)


def ranking(g: Game) -> tuple[list[int], list[int]]:
    """B3: most Wisdom wins; tie: most witches; still tied: shared win. Returns (winners, rank per seat)."""
    keys = [(p.wisdom, len(p.coven)) for p in g.s.players]
    ranks = [1 + sum(1 for k in keys if k > mine) for mine in keys]
    winners = [s for s, rank in enumerate(ranks) if rank == 1]
    return winners, ranks


def _defaults(row: dict[str, object], cols: tuple[tuple[str, object], ...]) -> None:
    """Module columns at their modules-off values (a list default copied per row)."""
    for name, default in cols:
        row[name] = list(default) if isinstance(default, list) else default


def final_result(g: Game) -> GameResult:
    """Score the game (B32) and build its result rows; each registered module's columns are present in every
    game (its defaults when off), each enabled module fills its own."""
    score_end(g)
    c = g.content
    outcome = None
    for module_outcome in g.hooks.outcome:
        outcome = module_outcome(g)
    if outcome is None:
        winners, ranks = ranking(g)
        scores = sorted((p.wisdom for p in g.s.players), reverse=True)
    else:
        winners, ranks, scores = outcome
    if g.sink is not None:  # the log's last event: any change of final scoring not announced yet
        g.note("end", TABLE, "final scoring")
    game: dict[str, object] = {"seed": g.seed, "players": g.n, "mode": g.config.mode}
    for name in MODULES:
        game[name] = name in g.config.modules
    module_columns = columns()
    _defaults(game, module_columns.game)
    game.update(
        winner_seats=winners,
        winning_score=scores[0],
        margin=scores[0] - scores[1],
        tie=len(winners) > 1,
        turns=len(g.rules.seasons) * g.rules.turns_per_season,
        decisions=g.s.decisions,
        start_player=g.s.first_player,
        buildings=sorted(c.buildings[b].id for b in g.s.buildings.values()),
        rules_version=RULES_VERSION,
        content_hash=c.hash,
    )
    for module_fields in g.hooks.game_fields:
        module_fields(g, game)
    players = []
    for p in g.s.players:
        row: dict[str, object] = {
            "seat": p.seat,
            "colour": p.colour,
            "policy": g.policies[p.seat].name,
            "wisdom": p.wisdom,
            "rank": ranks[p.seat],
            "won": p.seat in winners,
        }
        for source, i in g.source_index.items():
            row[f"wisdom_{source}"] = p.src[i]
        attribute(p.comp, row)
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
        _defaults(row, module_columns.player)
        for seat_fields in g.hooks.player_fields:
            seat_fields(g, p, row)
        row["witches_drafted"] = [c.witches[w].id for w in g.s.drafted[p.seat]]
        row["witches"] = [c.witches[w].id for w in p.coven]
        row["spells"] = [c.spells[sp.idx].id for sp in p.spells]
        row["goals"] = [c.goals[i].id for i in g.s.goals[p.seat]]
        row["goals_scored"] = [c.goals[i].id for i in g.s.goals_scored[p.seat]]
        players.append(row)
    return GameResult(game, players)
