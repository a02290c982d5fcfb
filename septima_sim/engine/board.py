"""The main board as precomputed tables: vertices, areas, adjacency, regions, hunter spaces, distances.

Areas are hexagons given by axial coordinates in the map content; leaders and hunters stand on their corners
(vertices) and move along their edges. Everything the turn loop needs is a tuple lookup.
"""

from __future__ import annotations

import math
from collections import deque

from septima_sim.content.model import Area

_SQRT3 = math.sqrt(3.0)
REGIONS = 6


class Board:
    """Geometry derived once from the map: all tables are tuples indexed by vertex or area number."""

    __slots__ = (
        "area_by_id",
        "area_vertices",
        "areas",
        "dist",
        "edge_vertices",
        "hunter_vertex",
        "n_vertices",
        "neighbours",
        "patient_spaces",
        "region_of",
        "vertex_areas",
        "within",
    )

    def __init__(self, areas: tuple[Area, ...]) -> None:
        self.areas = areas
        self.area_by_id = {a.id: i for i, a in enumerate(areas)}
        points: dict[tuple[int, int], int] = {}
        coords: list[tuple[float, float]] = []
        area_vertices: list[tuple[int, ...]] = []
        edges: set[tuple[int, int]] = set()
        for a in areas:
            cx, cy = _SQRT3 * (a.q + a.r / 2.0), 1.5 * a.r
            corners = []
            for k in range(6):
                ang = math.radians(30 + 60 * k)
                x, y = cx + math.cos(ang), cy + math.sin(ang)
                key = (round(x * 1000), round(y * 1000))
                if key not in points:
                    points[key] = len(coords)
                    coords.append((x, y))
                corners.append(points[key])
            area_vertices.append(tuple(corners))
            for k in range(6):
                u, v = corners[k], corners[(k + 1) % 6]
                edges.add((min(u, v), max(u, v)))
        n = len(coords)
        self.n_vertices = n
        self.area_vertices: tuple[tuple[int, ...], ...] = tuple(area_vertices)
        nb: list[list[int]] = [[] for _ in range(n)]
        for u, v in sorted(edges):
            nb[u].append(v)
            nb[v].append(u)
        self.neighbours = tuple(tuple(sorted(x)) for x in nb)
        va: list[list[int]] = [[] for _ in range(n)]
        for ai, area_corners in enumerate(area_vertices):
            for v in area_corners:
                va[v].append(ai)
        self.vertex_areas = tuple(tuple(x) for x in va)
        self.edge_vertices = tuple(v for v in range(n) if len(va[v]) < 3)
        self.dist = tuple(self._bfs(s) for s in range(n))
        maxd = max(max(row) for row in self.dist)
        self.within = tuple(
            tuple(tuple(v for v in range(n) if self.dist[s][v] <= k) for k in range(maxd + 1)) for s in range(n)
        )
        # regions: 60° wedges around the centre, numbered 1..6 counterclockwise from the east (y axis points up)
        region = []
        for x, y in coords:
            ang = (math.degrees(math.atan2(-y, x)) + 360.0 + 1e-6) % 360.0
            region.append(int(ang // 60.0) + 1)
        self.region_of = tuple(region)
        hunter = [0] * (REGIONS + 1)
        for r in range(1, REGIONS + 1):
            cands = [v for v in self.edge_vertices if region[v] == r]
            cands.sort(key=lambda v: (-round(math.hypot(*coords[v]), 3), v))
            hunter[r] = cands[0]
        self.hunter_vertex = tuple(hunter)  # index 0 unused; spaces are numbered 1..6
        spaces: dict[str, int] = {}
        for ai, a in enumerate(areas):
            for s in a.patient_spaces:
                spaces[s] = ai
        self.patient_spaces = spaces

    def _bfs(self, start: int) -> tuple[int, ...]:
        dist = [-1] * len(self.neighbours)
        dist[start] = 0
        queue = deque([start])
        while queue:
            u = queue.popleft()
            for v in self.neighbours[u]:
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        return tuple(dist)

    def reach(self, vertex: int, steps: int) -> tuple[int, ...]:
        """Vertices within `steps` edges of `vertex` (steps < 0 means any distance)."""
        table = self.within[vertex]
        if steps < 0 or steps >= len(table):
            return table[-1]
        return table[steps]
