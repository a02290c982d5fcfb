"""The mypyc build and its pure-Python fallback (issue #19).

- The same seeded games, event by event, compiled and pure (``SEPTIMA_PURE=1``): every player count, mode and module
  mix with random and heuristic lineups, and the golden playthroughs both ways.
- What crosses a process boundary (content, configs, results, policies) pickles in the compiled build, including
  through joblib's loky workers.
- The choice itself: ``SEPTIMA_PURE`` and a stale build give pure Python, ``--version`` says which runs, the list of
  compiled modules is computed from globs, and a failed mypyc build falls back with one warning line.

The tests that need the compiled build skip, saying so, when it is not installed (``SEPTIMA_COMPILE=0`` at install,
a build that fell back, or sources edited since the build); ``.ci/run`` installs with ``SEPTIMA_REQUIRE_COMPILED=1``
so that they run there.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_golden import GAMES, first_difference, golden_path

from septima_sim._build import native
from septima_sim._build.targets import EXCLUDED, compiled_sources, module_name

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("septima-sim")
GAMES_PER_MIX = 8  # x 20 mode/module mixes x 2 lineups = 320 games each way

PLAY = """
import hashlib, itertools, json, sys
from septima_sim.content import load_content
from septima_sim.engine import ConfigError, GameConfig, play_game
from septima_sim.players import builtin_lineups, make_policy

games_per_mix = int(sys.argv[1])
content, lineups = load_content(), builtin_lineups()
mixes = [(n, mode, ss, om) for n, mode, ss, om in itertools.product((1, 2, 3, 4), ("full", "basic"), (0, 1), (0, 1))]
for (n, mode, ss, om), lineup in itertools.product(mixes, ("all-random", "heuristic-mix")):
    try:
        config = GameConfig(n, mode, bool(ss), bool(om)).validate()
    except ConfigError:
        continue  # the modules need the Full game
    for seed in range(games_per_mix):
        events = []
        policies = [make_policy(p) for p in lineups[lineup].seat_personas(lineup, n, seed)]
        result = play_game(config, content, policies, seed, sink=events.append)
        game = {k: v for k, v in result.game.items() if k != "duration_ms"}
        record = {"game": game, "players": result.players, "events": events}
        text = json.dumps(record, sort_keys=True, default=repr)
        print(f"{n}-{mode}-ss{ss}-om{om}-{lineup}-{seed}", hashlib.sha256(text.encode()).hexdigest(), text[:2000])
"""

GOLDEN = """
import json, sys
sys.path.insert(0, sys.argv[1])
from septima_sim.content import load_content
from test_golden import GAMES, replay
content = load_content()
print(json.dumps([replay(content, *game) for game in GAMES]))
"""

PICKLES = """
import pickle, random
from pathlib import Path
from joblib import Parallel, delayed
import septima_sim
from septima_sim.content import load_content
from septima_sim.engine import GameConfig, play_game
from septima_sim.experiment import load_experiment
from septima_sim.players import make_policy

assert septima_sim.build_info().compiled, septima_sim.build_info()
content = load_content()
config = GameConfig(4, "full", True, True).validate()
names = ["random", "balanced", "cautious", "search:3"]

def play(content, config, policies, seed):
    return play_game(config, content, policies, seed)

# Content, configs and an experiment: equal after a round trip (compiled frozen dataclasses included).
for thing in (content, config, load_experiment(Path("configs/ci.toml"))):
    assert pickle.loads(pickle.dumps(thing)) == thing, type(thing)
# Results and policies: a result survives; unpickled policies (fresh and mid-game) play the same game.
result = play(content, config, [make_policy(n) for n in names], 11)
again = pickle.loads(pickle.dumps(result))
assert (again.game, again.players) == (result.game, result.players)
used = [make_policy(n) for n in names]
for seat, policy in enumerate(used):
    policy.reset(seat, random.Random(seat))
copies = pickle.loads(pickle.dumps(used))
replayed = play(content, config, copies, 11)
assert {k: v for k, v in replayed.game.items() if k != "duration_ms"} == {
    k: v for k, v in result.game.items() if k != "duration_ms"}
# Through loky workers (what `run --jobs N` does): the same rows as in this process.
remote = Parallel(n_jobs=2, backend="loky")(
    delayed(play)(content, config, [make_policy(n) for n in names], seed) for seed in (11, 12))
local = [result, play(content, config, [make_policy(n) for n in names], 12)]
strip = lambda r: ({k: v for k, v in r.game.items() if k != "duration_ms"}, r.players)
assert [strip(r) for r in remote] == [strip(r) for r in local]
print("pickles ok")
"""


def _env(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SEPTIMA_PURE"}
    if pure:
        env["SEPTIMA_PURE"] = "1"
    return env


def _python(code: str, *args: str, pure: bool) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, env=_env(pure), timeout=600
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def _compiled_installed() -> bool:
    code = "import septima_sim; print(septima_sim.build_info().compiled)"
    return _python(code, pure=False).strip() == "True"


needs_compiled = pytest.mark.skipif(
    not _compiled_installed(),
    reason="the mypyc build is not running (SEPTIMA_COMPILE=0 at install, a build that fell back, or a stale one): "
    f"{native.decide(_env(False))}",
)


@pytest.mark.slow
@needs_compiled
def test_compiled_and_pure_play_identical_games() -> None:
    compiled = _python(PLAY, str(GAMES_PER_MIX), pure=False).splitlines()
    pure = _python(PLAY, str(GAMES_PER_MIX), pure=True).splitlines()
    assert len(compiled) == len(pure) == 20 * 2 * GAMES_PER_MIX
    for got, want in zip(compiled, pure, strict=True):
        assert got.split(" ", 2)[:2] == want.split(" ", 2)[:2], f"compiled vs pure:\n{got[:1500]}\n{want[:1500]}"


@pytest.mark.slow
@needs_compiled
@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_golden_playthroughs_both_ways(pure: bool) -> None:
    played = json.loads(_python(GOLDEN, str(ROOT / "tests"), pure=pure))
    for game, lines in zip(GAMES, played, strict=True):
        path = golden_path(*game)
        diff = first_difference(path.read_text(encoding="utf-8").splitlines(), lines)
        assert not diff, f"{path.name} ({'pure' if pure else 'compiled'}): {diff}"


@pytest.mark.slow
@needs_compiled
def test_pickles_cross_process_boundaries_in_the_compiled_build() -> None:
    assert _python(PICKLES, pure=False).strip().endswith("pickles ok")


@pytest.mark.slow
@needs_compiled
def test_the_compiled_modules_are_the_ones_imported() -> None:
    code = (
        "import septima_sim.engine, septima_sim.players, septima_sim.content\n"
        "from septima_sim._build.native import loaded_compiled\n"
        "import importlib\n"
        "for m in importlib.import_module('septima_sim').build_info().modules: importlib.import_module(m)\n"
        "print(' '.join(loaded_compiled()))"
    )
    compiled = set(_python(code, pure=False).split())
    expected = {module_name(s) for s in compiled_sources(ROOT)}
    assert expected and expected <= compiled
    assert _python(code, pure=True).split() == []


@pytest.mark.slow
def test_version_says_which_build_runs() -> None:
    pure = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True, env=_env(True), check=True)
    assert pure.stdout.strip().endswith("pure Python (SEPTIMA_PURE is set)"), pure.stdout
    default = subprocess.run([str(SCRIPT), "--version"], capture_output=True, text=True, env=_env(False), check=True)
    label = native.COMPILED_LABEL if _compiled_installed() else native.PURE_LABEL
    assert label in default.stdout, default.stdout
    rules = subprocess.run([str(SCRIPT), "rules"], capture_output=True, text=True, env=_env(True), check=True)
    assert "Engine: pure Python" in rules.stdout


def _fake_build(tmp_path: Path, edit: bool = False, with_lib: bool = True, stray: bool = False) -> Path:
    """A package folder as an install leaves it: one compiled source, its shared library and the manifest."""
    package = tmp_path / "septima_sim"
    (package / "_build").mkdir(parents=True)
    source = package / "engine.py"
    source.write_text("X = 1\n", encoding="utf-8")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    manifest = {"compiled": True, "sources": {"septima_sim/engine.py": digest}}
    (package / native.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    if with_lib:
        (package / f"{native.SHARED_LIB}{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    if edit:
        source.write_text("X = 2\n", encoding="utf-8")
    if stray:  # a module compiled by an earlier build, no longer in the manifest
        (package / f"old{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    return package


def test_a_current_build_runs_compiled(tmp_path: Path) -> None:
    info = native.decide({}, _fake_build(tmp_path))
    assert info.compiled and info.modules == ("septima_sim.engine",)
    assert str(info).startswith(native.COMPILED_LABEL)


@pytest.mark.parametrize(
    ("env", "edit", "with_lib", "stray", "reason"),
    [
        ({"SEPTIMA_PURE": "1"}, False, True, False, "SEPTIMA_PURE is set"),
        ({}, True, True, False, "septima_sim/engine.py changed since the build"),
        ({}, False, False, False, "the compiled modules are missing"),
        ({}, False, True, True, "septima_sim/old."),
    ],
    ids=["SEPTIMA_PURE", "stale", "no-library", "left-over"],
)
def test_pure_python_when_asked_or_stale(
    tmp_path: Path, env: dict[str, str], edit: bool, with_lib: bool, stray: bool, reason: str
) -> None:
    info = native.decide(env, _fake_build(tmp_path, edit, with_lib, stray))
    assert not info.compiled and info.reason.startswith(reason)
    assert str(info).startswith(native.PURE_LABEL)


def test_a_failed_build_is_reported(tmp_path: Path) -> None:
    package = tmp_path / "septima_sim"
    (package / "_build").mkdir(parents=True)
    (package / native.MANIFEST).write_text(json.dumps({"compiled": False, "error": "no C compiler"}), "utf-8")
    assert str(native.decide({}, package)) == f"{native.PURE_LABEL} (no C compiler)"
    assert native.decide({}, tmp_path / "nothing").reason == "no compiled build installed"


def test_the_pure_finder_loads_sources_even_beside_an_extension(tmp_path: Path) -> None:
    package = tmp_path / "septima_sim" / "fake"
    package.mkdir(parents=True)
    (package / "mod.py").write_text("X = 1\n", encoding="utf-8")
    (package / f"mod{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"not a library")
    spec = native.PureSourceFinder().find_spec("septima_sim.fake.mod", [str(package)])
    assert spec is not None and spec.origin == str(package / "mod.py")
    assert native.PureSourceFinder().find_spec("other.mod", [str(package)]) is None


def test_compiled_modules_come_from_globs(tmp_path: Path) -> None:
    for name in (
        "engine/__init__.py",
        "engine/new_rule.py",
        "engine/modules/hook.py",
        "players/heuristic/core.py",
        "players/random_policy.py",
        "content/model.py",
        "content/loader.py",
        *[e.removeprefix("septima_sim/") for e in EXCLUDED],
    ):
        path = tmp_path / "septima_sim" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")
    chosen = compiled_sources(tmp_path)
    assert {
        "septima_sim/engine/new_rule.py",
        "septima_sim/engine/modules/hook.py",
        "septima_sim/players/heuristic/core.py",
        "septima_sim/content/model.py",
    } <= set(chosen)
    assert not {
        "septima_sim/engine/__init__.py",
        "septima_sim/players/random_policy.py",
        "septima_sim/content/loader.py",
        *EXCLUDED,
    } & set(chosen)


@pytest.mark.slow
def test_a_rejected_mypyc_build_falls_back_with_one_warning_line(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """setup.py's fallback: mypyc exiting on errors (here: a file it cannot read) gives no extensions and a reason.
    Compiling is the default: no SEPTIMA_COMPILE in the environment, and mypyc runs."""
    monkeypatch.delenv("SEPTIMA_COMPILE", raising=False)
    monkeypatch.delenv("SEPTIMA_REQUIRE_COMPILED", raising=False)
    extensions, error = _setup_module()["_mypyc_extensions"](["septima_sim/no_such_module.py"])
    err = capfd.readouterr().err
    assert extensions == [] and error
    warnings = [line for line in err.splitlines() if line.startswith("warning: septima-sim")]
    assert len(warnings) == 1 and "installing pure Python" in warnings[0]


def _setup_module() -> dict[str, Any]:
    setup: dict[str, Any] = {"__name__": "septima_setup_under_test", "__file__": str(ROOT / "setup.py")}
    exec(compile((ROOT / "setup.py").read_text(encoding="utf-8"), "setup.py", "exec"), setup)
    return setup


def test_a_required_build_fails_loudly(capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """SEPTIMA_REQUIRE_COMPILED=1 (CI): a rejected build fails the install, naming the variable, instead of falling
    back; so does asking to skip compiling at the same time."""
    monkeypatch.setenv("SEPTIMA_REQUIRE_COMPILED", "1")
    monkeypatch.delenv("SEPTIMA_COMPILE", raising=False)
    with pytest.raises(SystemExit, match="SEPTIMA_REQUIRE_COMPILED=1"):
        _setup_module()["_mypyc_extensions"](["septima_sim/no_such_module.py"])
    assert "installing pure Python" not in capfd.readouterr().err
    monkeypatch.setenv("SEPTIMA_COMPILE", "0")
    with pytest.raises(SystemExit, match="contradict"):
        _setup_module()["_mypyc_extensions"](["septima_sim/engine/hunters.py"])


def test_compiling_can_be_skipped_at_install(monkeypatch: pytest.MonkeyPatch) -> None:
    """SEPTIMA_COMPILE=0: the build compiles nothing and the manifest says why (``--version`` shows it)."""
    monkeypatch.setenv("SEPTIMA_COMPILE", "0")
    monkeypatch.delenv("SEPTIMA_REQUIRE_COMPILED", raising=False)
    extensions, error = _setup_module()["_mypyc_extensions"](["septima_sim/engine/hunters.py"])
    assert extensions == [] and error is not None and "SEPTIMA_COMPILE=0" in error
