"""Kugler bots: ``greedy`` (one ply with the evaluation of evaluate.py) and ``ismcts``
(information-set Monte-Carlo tree search).  ``random`` is built into spillebord.bots."""

from spillebord.bots import register

register("kugler", "greedy", "spillebord.bots.kugler.greedy:GreedyBot")
register("kugler", "ismcts", "spillebord.bots.kugler.ismcts:IsmctsBot")
