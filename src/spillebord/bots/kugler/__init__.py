"""Kugler bots: ``greedy`` (one ply with the evaluation of fastplay.py) and ``ismcts``
(determinized Monte-Carlo search with compiled greedy playouts).  ``random`` is built
into spillebord.bots.

Levels: 1 greedy (one ply); 2 ismcts looking one round ahead (12 determinizations, the
best 3 candidates, horizon = one round); 3 ismcts with its defaults (40
determinizations, 5 candidates, two rounds ahead); 2 and 3 are capped at 1 s a decision.
The page offers level 2 first.  Strength and cost: docs/benchmarks/kugler.md."""

from spillebord.bots import Level, Opt, register, register_levels

register("kugler", "greedy", "spillebord.bots.kugler.greedy:GreedyBot")
register("kugler", "ismcts", "spillebord.bots.kugler.ismcts:IsmctsBot", {
    "iterations": Opt("int", 1, 100_000),
    "seconds": Opt("float", 0.001, 60.0),
    "width": Opt("int", 1, 64),
    "horizon": Opt("int", 1, 10_000),
    "screen": Opt("int", 0, 10_000),
    "confidence": Opt("float", 0.0, 100.0),
})
register_levels("kugler", {
    1: Level("greedy"),
    2: Level("ismcts", {"iterations": 12, "width": 3, "horizon": 4, "seconds": 1.0}),
    3: Level("ismcts", {"iterations": 40, "seconds": 1.0}),
}, default=2)
