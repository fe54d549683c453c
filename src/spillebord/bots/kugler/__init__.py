"""Kugler bots: ``advance`` and ``greedy`` (one ply with fastplay.py's evaluation) and
``ismcts`` (determinized Monte-Carlo search with compiled one-ply playouts).  ``random``
is built into spillebord.bots.

Levels, by measured strength (docs/benchmarks/kugler.md): 1 greedy (one ply, the
hand-set weights), 2 advance (one ply, own progress only: it beats greedy), 3 ismcts
judging and playing out with the evaluation's self-play-tuned weights (40
determinizations, 5 candidates, two rounds ahead; capped at 1 s a decision).  The page
offers level 2 first."""

from spillebord.bots import Level, Opt, register, register_levels

register("kugler", "advance", "spillebord.bots.kugler.greedy:AdvanceBot")
register("kugler", "greedy", "spillebord.bots.kugler.greedy:GreedyBot")
register("kugler", "ismcts", "spillebord.bots.kugler.ismcts:IsmctsBot", {
    "iterations": Opt("int", 1, 100_000),
    "seconds": Opt("float", 0.001, 60.0),
    "width": Opt("int", 1, 64),
    "horizon": Opt("int", 1, 10_000),
    "screen": Opt("int", 0, 10_000),
    "confidence": Opt("float", 0.0, 100.0),
    "value": Opt("str", choices=("greedy", "advance", "tuned")),
})
register_levels("kugler", {
    1: Level("greedy"),
    2: Level("advance"),
    3: Level("ismcts", {"iterations": 40, "value": "tuned", "seconds": 1.0}),
}, default=2)
