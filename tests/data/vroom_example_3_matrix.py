#!/usr/bin/env python3
"""Writes tests/data/vroom_example_3.json: VROOM's docs/example_3.json (github.com/VROOM-Project/vroom,
BSD-2-Clause, (c) Julien Coupey; a plan to check with `vroom -c`) with each location replaced by a
matrix index and the great-circle matrix routesolve computes without a road network written in
(haversine on a 6,371 km sphere, the metres rounded, then 50 km/h rounded to the second).

    python3 tests/data/vroom_example_3_matrix.py < example_3.json > tests/data/vroom_example_3.json
"""
import json
import math
import sys

problem = json.load(sys.stdin)
points: list[tuple[float, float]] = []


def index(coords):
    key = (coords[0], coords[1])
    if key not in points:
        points.append(key)
    return points.index(key)


for v in problem["vehicles"]:
    for end in ("start", "end"):
        if end in v:
            v[end + "_index"] = index(v.pop(end))
for j in problem["jobs"]:
    j["location_index"] = index(j.pop("location"))


def metres(a, b):
    (lon1, lat1), (lon2, lat2) = (map(math.radians, p) for p in (a, b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371000.0 * math.asin(math.sqrt(h))


dist = [[metres(a, b) for b in points] for a in points]
def nearest(x):  # half away from zero, as std::llround
    return math.floor(x + 0.5)


problem["matrices"] = {"car": {"durations": [[nearest(nearest(d) / (50 / 3.6)) for d in row] for row in dist],
                               "distances": [[nearest(d) for d in row] for row in dist]}}
json.dump(problem, sys.stdout, indent=1)
sys.stdout.write("\n")
