"""Evidence for the CI balance gate (issue 9): sensitivity, specificity and the wall time of the committed check.

- Sensitivity: the committed baseline checked against a copied content pack where Plead gives 4 Wisdom instead of 2
  must exit 1 and name the shifted metrics.
- Specificity, as CI sees it: for 20 seed blocks, a baseline built from the block and a check on the unchanged code
  (same seeds replayed) must pass at least 19 times.
- Specificity, worst case: for 20 seed blocks, block k compared with block k+1 (no pairing left at all, as after a
  refactor that reshuffles every random draw without changing balance) must not report a shift at least 19 times.
- Wall time of ``septima-sim check --baseline tests/baselines/ci-baseline.json --jobs 2``.

Usage: ``python scripts/regression_evidence.py [--blocks 20] [--replay-games 200] [--jobs 2]`` (a few minutes on 2
idle cores at the defaults).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from septima_sim import regression, runner
from septima_sim.experiment import load_experiment

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "configs" / "ci.toml"
BASELINE = ROOT / "tests" / "baselines" / "ci-baseline.json"
PACK = ROOT / "septima_sim" / "content" / "base"


def plead_pack(folder: Path, wisdom: int) -> Path:
    """A copy of the built-in pack where Plead gives ``wisdom`` Wisdom."""
    shutil.copytree(PACK, folder)
    actions = folder / "actions.toml"
    head, sep, tail = actions.read_text().partition('id = "plead"')
    actions.write_text(head + sep + tail.replace("wisdom = 2", f"wisdom = {wisdom}", 1))
    return folder


def timed_cli(args: list[str]) -> tuple[int, float, str]:
    """Run ``septima-sim`` as CI does: (exit code, seconds, stdout)."""
    exe = Path(sys.executable).with_name("septima-sim")
    t0 = time.perf_counter()
    done = subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=ROOT, check=False)
    return done.returncode, time.perf_counter() - t0, done.stdout


def sensitivity(tmp: Path, jobs: int) -> None:
    pack = plead_pack(tmp / "plead4", 4)
    code, secs, out = timed_cli(["check", "--baseline", str(BASELINE), "--jobs", str(jobs), "--content", str(pack)])
    shifted = [line.split("|")[1].strip() for line in out.splitlines() if "**SHIFT**" in line]
    print(
        f"sensitivity (Plead 4 Wisdom): exit {code} in {secs:.0f} s, {len(shifted)} shift(s): {', '.join(shifted)}",
        flush=True,
    )


def specificity_replay(tmp: Path, blocks: int, games: int, jobs: int) -> None:
    passes = 0
    for k in range(blocks):
        path = tmp / f"block{k}.json"
        regression.baseline(CONFIG, path, jobs, games=games, seed=_seed(k))
        result = regression.check(path, jobs=jobs)
        passes += result.exit_code == 0
        print(f"  replayed seed block {k}: exit {result.exit_code}", file=sys.stderr, flush=True)
    print(f"specificity, same seeds replayed: {passes}/{blocks} checks pass ({games} games per cell)")


def specificity_unpaired(blocks: int, jobs: int) -> None:
    tol = regression.load_tolerances()
    played = []
    for k in range(blocks + 1):
        exp = load_experiment(CONFIG, seed=_seed(k))
        with runner.parallel_backend("local", jobs, None):
            played.append(regression.play(regression.shard_tasks(exp)).outcomes)
        print(f"  played seed block {k}", file=sys.stderr, flush=True)
    passes, inconclusive = 0, 0
    for k in range(blocks):
        rows = regression.compare(regression.metrics(exp, played[k], played[k + 1]), tol)
        shifts = [r.metric for r in rows if r.verdict == "shift"]
        passes += not shifts
        inconclusive += sum(r.verdict == "inconclusive" for r in rows)
        if shifts:
            print(f"  block {k} vs {k + 1}: shift in {', '.join(shifts)}", flush=True)
    print(
        f"specificity, independent seed blocks (no pairing): {passes}/{blocks} without a shift "
        f"({inconclusive / blocks:.1f} of {len(rows)} metrics inconclusive on average)"
    )


def _seed(block: int) -> int:
    return 1_000_003 * (block + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=20)
    parser.add_argument("--replay-games", type=int, default=200, help="games per cell of the replayed baselines")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    code, secs, _ = timed_cli(["check", "--baseline", str(BASELINE), "--jobs", str(args.jobs)])
    print(f"committed CI check: exit {code}, {secs:.1f} s wall on {args.jobs} job(s)", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        sensitivity(Path(tmp), args.jobs)
        specificity_unpaired(args.blocks, args.jobs)
        specificity_replay(Path(tmp), args.blocks, args.replay_games, args.jobs)


if __name__ == "__main__":
    main()
