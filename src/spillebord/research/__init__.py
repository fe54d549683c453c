"""Research adapters: Spillebord's games behind the interfaces RL and game-theory tools
speak (docs/research.md).  Needs the optional extra ``pip install -e '.[research]'``.

- ``spillebord.research.table``: PettingZoo AEC environments for Gammel Jomfru and
  Kugler og Jokere (``jomfru_env``, ``kugler_env``);
- ``spillebord.research.agents``: Spillebord's bots and levels as ``pyspiel.Bot``s and env
  policies;
- ``spillebord.research.vector``: ``TableVecEnv``, a batch of table envs stepped
  together (the solitaires take Gymnasium's ``make_vec``);
- ``spillebord.research.solitaire``: Gymnasium environments for the two solitaires,
  registered on import as ``spillebord/Posthus-v0`` and ``spillebord/Studenter-v0``.

Every observation is built from one seat's ``view`` only (never the true state), so it
holds exactly what that seat may see.  This package may import games and bots; nothing
in Spillebord imports it.
"""

from __future__ import annotations

from spillebord.research.solitaire import register_envs

register_envs()
