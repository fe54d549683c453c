"""Train the learned Gammel Jomfru baseline (docs/research.md, "Learned baselines"):
MaskablePPO on CPU, 4 seats, against random, level 1 and itself; writes
src/spillebord/research/learned_agents/gammel_jomfru-4.npz.  Run it in the learning
environment:

    make install-learn
    nice -n 10 .venv-learn/bin/python scripts/train_gammel_jomfru.py --seed 1
"""

from spillebord.research.learned_train import main

if __name__ == "__main__":
    main("gammel_jomfru")
