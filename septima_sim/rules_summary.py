"""A plain-text summary of a content pack for ``septima-sim rules``: what it holds and where each item comes from."""

from __future__ import annotations

from pathlib import Path

from septima_sim.content import Content
from septima_sim.content.assumed import POSITIONS, assumed_values
from septima_sim.content.model import READINGS
from septima_sim.content.provenance import partly_assumed
from septima_sim.engine.config import COLOURS


def summary(content: Content) -> str:
    """What the pack holds, the provenance counts per file and the readings in force."""
    c = content
    lines = [
        f"Content pack {c.hash}",
        f"  actions   {len(c.actions):3}  {', '.join(a.id for a in c.actions)}",
        f"  potions   {len(c.potions):3}  {', '.join(p.id for p in c.potions)}",
        f"  diseases  {len(c.diseases):3}  {', '.join(d.id for d in c.diseases)} ({len(c.patients)} patient tiles)",
        f"  map       {len(c.areas):3}  areas",
        f"  ritual    {len(c.ritual.rows):3}  rows x {len(c.ritual.columns)} columns, ribbons at rows "
        f"{', '.join(str(r) for r in sorted(c.ritual.ribbons))}",
        f"  spells    {len(c.spells):3}  ({sum(s.kind == 'scoring' for s in c.spells)} scoring)",
        f"  witches   {len(c.witches):3}  {', '.join(w.name for w in c.witches)}",
        f"  buildings {len(c.buildings):3}  {', '.join(b.name for b in c.buildings)}",
        f"  goals     {len(c.goals):3}",
        "",
        "Provenance (items per file and tag; 'assumed' = a stand-in for a number or text no source gives; 'partly'",
        "= items tagged with a source whose fields listed below are assumed):",
    ]
    tags = ("seed-base", "seed-expansion", "public", "assumed")
    partly = partly_assumed(c)
    lines.append(f"  {'file':<18}" + "".join(f"{t:>16}" for t in tags) + f"{'partly':>8}")
    for file in sorted(c.provenance):
        counts = c.provenance[file]
        row = "".join(f"{counts.get(t, 0):>16}" for t in tags)
        lines.append(f"  {file:<18}{row}{len(partly.get(file, ())):>8}")
    totals = {t: sum(v.get(t, 0) for v in c.provenance.values()) for t in tags}
    row = "".join(f"{totals[t]:>16}" for t in tags)
    lines.append(f"  {'total':<18}{row}{len(c.assumed):>8}")
    lines.append(f"  {totals['assumed']} items fully assumed, {len(c.assumed)} partly assumed:")
    for file, items in sorted(partly.items()):
        lines.append(f"    {file}: " + "; ".join(f"{name} ({', '.join(fields)})" for name, fields in items))
    lines += ["", "Readings (switch one with the override readings.<name>.value; docs/rules.md explains each value):"]
    for name in READINGS:
        r = getattr(c.rules.readings, name)
        lines.append(f"  {name:<24} {r.value:<18} allowed: {' | '.join(r.allowed)}  ({r.provenance})")
        lines.append(f"      {r.description}")
    lines += ["", "Setup changes (rules.toml [setup.forced]: a witch dealt to a seat and kept):"]
    if c.rules.forced_witches:
        for seat, w in c.rules.forced_witches:
            lines.append(f"  seat {seat} ({COLOURS[seat].title()}): {c.witches[w].name} ({c.witches[w].id})")
    else:
        lines.append("  none (every witch is dealt at random, B5)")
    return "\n".join(lines)


def assumed_summary(content_dir: Path | None) -> str:
    """Every assumed value of a pack with its range and where the range comes from (``septima-sim rules
    --assumed``; ``content.assumed`` says what counts and the rule)."""
    found = assumed_values(content_dir)
    items = len({v.item for v in found})
    fixed = [v for v in found if v.fixed]
    width = max((len(v.path) for v in found), default=10)
    lines = [
        f"Assumed values: {len(found)} in {items} items ({len(fixed)} fixed). Range: the item's `ranges` entry "
        "(pack), else half to double the value, integers at least +-1, within what the schema allows (rule); "
        "a reading: its allowed values.",
        f"  {'value':<{width}}  {'now':>10}  {'range':<32}  {'from':<5}  provenance",
    ]
    for v in found:
        shown = v.span() if not v.fixed else f"fixed: {v.fixed}"
        lines.append(f"  {v.path:<{width}}  {v.value!s:>10}  {shown:<32}  {v.source:<5}  {v.provenance}")
    lines.append(
        f"Left out: positions ({', '.join(p + '*' for p in POSITIONS)}): moved alone, one lands on another; "
        "name one with a range in `septima-sim sensitivity --params` to study it."
    )
    return "\n".join(lines)
