"""Test helpers: a scripted policy, a dice stub and small builders that put a game exactly where a rule applies."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from septima_sim.content import INGREDIENTS, Content
from septima_sim.content.model import CRYSTAL
from septima_sim.engine.config import GameConfig
from septima_sim.engine.decisions import Decision, Kind
from septima_sim.engine.game import Game
from septima_sim.engine.state import Player

Rule = Callable[[Decision, object], object]
"""A scripted answer: given the decision and the seat's view, return the chosen option's value (not its index)."""

_DECLINE = (-1, "", (-1, -1))


def default_choice(decision: Decision, view: object) -> object:
    """The most passive legal option: stay put, decline, do not reroll; otherwise the first option."""
    opts = decision.options
    if decision.kind in (Kind.MOVE, Kind.PREMOVE):
        here = view.me.vertex  # type: ignore[attr-defined]
        if here in opts:
            return here
    if decision.kind == Kind.CHARM_REROLL:
        return 0
    for d in _DECLINE:
        if d in opts:
            return d
    return opts[0]


def first_active(decision: Decision, view: object) -> object:
    """The first option that is not a 'stop/decline' sentinel."""
    return next(o for o in decision.options if o not in _DECLINE)


class Scripted:
    """A deterministic policy: per decision kind a fixed value or a rule; everything else ``default_choice``.

    Every decision asked is logged in ``log`` (single-option decisions are never asked, by the engine's design)."""

    name = "scripted"

    def __init__(self, **rules: object) -> None:
        self.rules: dict[str, object] = rules
        self.log: list[Decision] = []
        self.seat = -1

    def reset(self, seat: int, rng: object) -> None:
        self.seat = seat

    def choose(self, decision: Decision, view: object) -> int:
        self.log.append(decision)
        rule = self.rules.get(decision.kind, default_choice)
        value = rule(decision, view) if callable(rule) else rule
        return decision.options.index(value)  # ValueError (test failure) if the scripted value is illegal

    def asked(self, kind: str) -> list[Decision]:
        return [d for d in self.log if d.kind == kind]


class Dice:
    """Stands in for ``Game.rng_dice``: ``randrange`` (and ``getrandbits``, which ``engine.draws.below`` calls)
    returns the scripted face indices in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.calls = 0

    def randrange(self, n: int) -> int:
        self.calls += 1
        face = self.faces.pop(0)
        assert 0 <= face < n
        return face

    def getrandbits(self, k: int) -> int:
        return self.randrange(1 << k)


def make_game(
    content: Content,
    players: int = 2,
    mode: str = "full",
    seed: int = 0,
    policies: Sequence[Scripted] | None = None,
    isolate: bool = True,
) -> Game:
    """A set-up game with scripted policies. ``isolate`` empties covens and removes buildings so that no witch or
    building ability interferes with the rule under test."""
    pols = list(policies) if policies is not None else [Scripted() for _ in range(players)]
    g = Game(GameConfig(players=players, mode=mode), content, pols, seed)
    g.setup()
    for policy in pols:
        policy.log.clear()  # setup decisions (draft, start vertex) are not part of the rule under test
    if isolate:
        for p in g.s.players:
            p.coven = []
        g.s.buildings = {}
    return g


def pol(g: Game, seat: int) -> Scripted:
    policy = g.policies[seat]
    assert isinstance(policy, Scripted)
    return policy


def area(g: Game, area_id: str) -> int:
    return g.board.area_by_id[area_id]


def vertex_of(g: Game, *area_ids: str) -> int:
    """The vertex whose surrounding areas are exactly the named ones."""
    want = {area(g, a) for a in area_ids}
    for v, areas in enumerate(g.board.vertex_areas):
        if set(areas) == want:
            return v
    raise AssertionError(f"no vertex touches exactly {area_ids}")


def place(g: Game, p: Player, vertex: int) -> None:
    """Put a leader on a vertex, moving any other leader standing there to a far free vertex."""
    for q in g.s.players:
        if q is not p and q.vertex == vertex:
            far = max(
                (v for v in range(g.board.n_vertices) if v not in g.s.occupied and v != vertex),
                key=lambda v: (g.board.dist[vertex][v], -v),
            )
            g.move_to(q, far)
    g.move_to(p, vertex)


def action(g: Game, action_id: str) -> int:
    return g.action_index[action_id]


def witch(g: Game, witch_id: str) -> int:
    return next(i for i, w in enumerate(g.content.witches) if w.id == witch_id)


def spell(g: Game, spell_id: str) -> int:
    return next(i for i, s in enumerate(g.content.spells) if s.id == spell_id)


def disease(g: Game, disease_id: str) -> int:
    return next(i for i, d in enumerate(g.content.diseases) if d.id == disease_id)


def set_res(g: Game, seat: int, **amounts: int) -> None:
    """Set a player's resources exactly (Crystals go through the supply)."""
    p = g.s.players[seat]
    g.pay_res(p, CRYSTAL, p.res[CRYSTAL])
    p.res = [0] * 6
    for name, n in amounts.items():
        if name == "crystal":
            g.gain_res(p, CRYSTAL, n)
        else:
            p.res[INGREDIENTS.index(name)] = n


def goal(g: Game, goal_id: str) -> int:
    return next(i for i, gl in enumerate(g.content.goals) if gl.id == goal_id)


def run_cli(args: list[str], monkeypatch: object, capsys: object) -> tuple[int, str, str]:
    """Run the ``septima-sim`` entry point in-process: (exit code, stdout, stderr)."""
    import sys

    from septima_sim.cli import main

    monkeypatch.setattr(sys, "argv", ["septima-sim", *args])  # type: ignore[attr-defined]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()  # type: ignore[attr-defined]
    return code, out.out, out.err


SCRIPT = Path(sys.executable).with_name("septima-sim")
"""The installed console script (CLI behaviour is tested through it, in a subprocess)."""


def script(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed ``septima-sim`` script: return code, stdout and stderr as text."""
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, check=False, env=env)


@contextlib.contextmanager
def reaped(proc: subprocess.Popen[str]) -> Iterator[subprocess.Popen[str]]:
    """Whatever happens in the test, the process group of ``proc`` (started with ``start_new_session=True``) is
    killed at the end."""
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


CHROMIUM = Path("/usr/bin/chromium")
"""Debian's headless Chromium (.ci/run installs it); tests that load a page skip without it."""


def chromium_dom(page: Path, profile: Path) -> tuple[str, list[str]]:
    """Load ``page`` in headless Chromium: (the DOM after load, the console messages and uncaught errors)."""
    args = [
        str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri(),
    ]  # fmt: skip
    out = subprocess.run(args, capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout, [line for line in out.stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]


TUNE = """name = "{name}"
seed = 11
{top}
[base]
players = 2
shapeshifting = true
lineup = "{lineup}"

[space]
"animals.cat.amount" = {{ low = 0, high = 2 }}
"animals.serpent.picks" = {{ low = 1, high = 3 }}

[targets]
{target}

[budget]
trials = {trials}
games = 20
confirm_games = 200
{extra}
"""
"""A small tune file: 2 players, a 9-point space (Cat amount 0..2 x Serpent picks 1..3), 20 games per trial."""


def tune_text(
    name: str = "t",
    *,
    lineup: str = "all-random",
    target: str = "seat_fairness = { band = 10 }",
    trials: int = 4,
    top: str = "",
    extra: str = "",
) -> str:
    """``TUNE`` filled in (``top``: keys before the tables, e.g. ``content = "pack"``; ``extra``: tables after)."""
    return TUNE.format(name=name, lineup=lineup, target=target, trials=trials, top=top, extra=extra)


ENOSPC_AFTER = """
import errno, sys
import septima_sim.content.loader as loader
from septima_sim import store
where, after = sys.argv[1], int(sys.argv[2])
calls = {"n": 0}
def failing(real):
    def call(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] > after:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)
    return call
if where == "pack-copy":
    loader.shutil.copyfile = failing(loader.shutil.copyfile)
else:
    store.os.fsync = failing(store.os.fsync)
from septima_sim.cli import main
sys.argv = ["septima-sim", *sys.argv[3:]]
main()
"""
"""``python -c ENOSPC_AFTER WHERE N septima-sim-args...``: the CLI with a full disk after N writes, where a tmpfs
cannot be mounted: ``pack-copy`` (files of a copied content pack) or ``fsync`` (every file written atomically)."""
