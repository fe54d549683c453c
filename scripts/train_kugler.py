"""Train the learned Kugler og Jokere baseline (docs/research.md, "Learned baselines"):
MaskablePPO on CPU, 4 seats (the learner plays both partners), against random, levels
1–2 and itself, with the public board's progress as potential-based shaping; writes
src/spillebord/research/learned_agents/kugler-4.npz.  Run it in the learning
environment:

    make install-learn
    nice -n 10 .venv-learn/bin/python scripts/train_kugler.py --seed 1 --cpu-minutes 30
"""

from spillebord.research.learned_train import main

if __name__ == "__main__":
    main("kugler")
