"""Rules fidelity, third audit (issue #26, ``../shared/research/fidelity-audit-turn3.md``): each fix is a test named
after its rule id that puts the game where the old behaviour gives another result."""

from __future__ import annotations

from septima_sim.content import Content
from tests.test_rules_fidelity import relocate

# ---- B16, seed 001 獵人重定位: 「逆時針移動一個活動中獵巫人到自己的地區」 ------------------------------------------


def test_b16_hunter_relocation_counterclockwise(content: Content) -> None:
    """The hunter *moves* counterclockwise to your region: of the active hunters on spaces 1 and 5, the one of
    region 1 (clockwise of region 3; regions are numbered counterclockwise) comes; the old default pulled region 5's."""
    assert relocate(content) == [3, 5]
