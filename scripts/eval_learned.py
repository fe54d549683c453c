"""Evaluate a learned baseline against Spillebord's bots (docs/research.md, "Learned
baselines"): 4 seats, the learned agent on two seats and the bot on two, each deal
played both ways; win share and Wilson 95 % interval per opponent, as the table in
docs/research.md.  Needs no torch (the policy runs in numpy):

    nice -n 10 .venv/bin/python scripts/eval_learned.py gammel_jomfru --games 1000
    nice -n 10 .venv/bin/python scripts/eval_learned.py kugler --games 400 --workers 3
"""

from spillebord.research.learned_eval import main

if __name__ == "__main__":
    main()
