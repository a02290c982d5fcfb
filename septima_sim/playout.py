"""One game played for a person to read: a turn-by-turn text account or JSON lines (``septima-sim play``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from septima_sim.content import Content
from septima_sim.engine import GameConfig, GameResult, play_game
from septima_sim.engine.decisions import Policy
from septima_sim.engine.modules import MODULES
from septima_sim.engine.results import FAMILIES, SOURCES
from septima_sim.engine.state import TABLE, WIDOW


def _who(seat: int) -> str:
    """Who an event is about: a seat, the Black Widow (solo) or the table (board-level changes)."""
    return "Widow" if seat == WIDOW else "Table" if seat == TABLE else f"seat {seat}"


def _text(e: dict[str, Any]) -> str:
    head = f"S{e['season']} T{e['turn']} {_who(e['seat']):>7}  {e['kind']:<16}"
    kind = e["kind"]
    cause = f"  [{e['cause']}]" if e.get("cause") else ""
    if kind == "action":
        match = []
        if e.get("matched_players"):
            match.append(f"matched {e['matched_players']} player(s)")
        if e.get("matched_septima"):
            match.append("matched the Septima")
        if e.get("matched_other"):
            match.append(f"matched by {e['matched_other']}")
        return f"{head} {e['action']}{'; ' + ', '.join(match) if match else ''}"
    if kind == "omen":
        return f"{head} {e['omen']} ({e['omen_half']}); {e['detail']}"
    if kind == "wisdom":
        return f"{head} {e['wisdom_before']}->{e['wisdom_after']}{cause}"
    if kind in ("suspicion", "suspicion_change"):
        return f"{head} {e['detail']}: {e['suspicion_before']}->{e['suspicion_after']}{cause}"
    return f"{head} {e.get('detail') or ''}{cause}".rstrip()


def play_one(
    config: GameConfig, content: Content, policies: list[Policy], seed: int, fmt: str, out: Callable[[str], None]
) -> GameResult:
    """Play one seeded game, writing each event through `out` as text or a JSON object, then a final record."""

    def sink(event: dict[str, object]) -> None:
        out(json.dumps(event, sort_keys=True) if fmt == "jsonl" else _text(event))

    result = play_game(config, content, policies, seed, sink)
    if fmt == "jsonl":
        out(json.dumps({"kind": "game_end", "game": result.game, "players": result.players}, sort_keys=True))
    else:
        out("")
        out(f"Game over after {result.game['turns']} turns, {result.game['decisions']} decisions.")
        for spec in MODULES.values():
            if spec.summary is not None and spec.name in config.modules:
                out(spec.summary(result.game))
        for row in sorted(result.players, key=lambda r: cast(int, r["rank"])):
            sources = ", ".join(f"{s} {row[f'wisdom_{s}']}" for s in SOURCES if row[f"wisdom_{s}"])
            families = ", ".join(f"{f} {row[f'wisdom_from_{f}']}" for f in FAMILIES if row[f"wisdom_from_{f}"])
            out(
                f"  #{row['rank']} seat {row['seat']} ({row['colour']}, {row['policy']}): {row['wisdom']} Wisdom"
                f"{'  WINNER' if row['won'] else ''}  [{sources}]  from [{families}]"
            )
    return result
