"""Gammel Jomfru bots: ``heuristic`` (a documented placement policy) and ``search``
(determinized Monte Carlo with fast rollouts); ``random`` is built in.

Both see only a seat's ``Observation`` (view, legal actions, ``sample()``, rng), never
the true state.

Levels (measured in docs/benchmarks/gammel_jomfru.md, "Levels"): 1 the heuristic,
2 the search bot with 3 rounds a decision, 3 the search bot with 64 rounds (capped at
0.3 s).  The page offers level 2 first.
"""

from spillebord.bots import Level, Opt, register, register_levels
from spillebord.bots.gammel_jomfru.rollout import POLICIES

register("gammel_jomfru", "heuristic", "spillebord.bots.gammel_jomfru.heuristic:HeuristicBot")
register("gammel_jomfru", "search", "spillebord.bots.gammel_jomfru.search:SearchBot", {
    "seconds": Opt("float", 0.001, 60.0),
    "playouts": Opt("int", 1, 100_000),
    "policy": Opt("str", choices=POLICIES),
    "min_playouts": Opt("int", 1, 10_000),
    "horizon": Opt("int", 1, 100_000),
})
register_levels("gammel_jomfru", {
    1: Level("heuristic"),
    2: Level("search", {"playouts": 3, "seconds": 0.3}),
    3: Level("search", {"playouts": 64, "seconds": 0.3}),
}, default=2)
