"""The ``analysis`` feature (issue #33): what a finished game could have been.

- ``work``: the analysis itself, plain functions run in a worker process of the compute
  pool (its own pool, lowered priority): a solitaire's solver verdicts over the game, a
  table game's doubtful moves by the level-3 bot;
- ``store``: the finished analysis kept with the match (table ``analyses``);
- ``routes``: ``GET /api/matches/{id}/analysis`` (docs/protocol.md, "Post-game analysis").
"""
