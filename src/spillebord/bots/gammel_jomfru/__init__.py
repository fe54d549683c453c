"""Gammel Jomfru bots: ``heuristic`` (a documented placement policy) and ``search``
(determinized Monte Carlo with fast rollouts); ``random`` is built in.

Both see only a seat's ``Observation`` (view, legal actions, ``sample()``, rng), never
the true state.
"""

from spillebord.bots import register

register("gammel_jomfru", "heuristic", "spillebord.bots.gammel_jomfru.heuristic:HeuristicBot")
register("gammel_jomfru", "search", "spillebord.bots.gammel_jomfru.search:SearchBot")
