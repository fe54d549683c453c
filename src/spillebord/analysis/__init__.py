"""Batch analysis: solving many deals and playing bot tournaments on Ray, with the
results kept in Parquet files (docs/analysis.md, "Running the analysis").

- ``schema``: the one definition of the result files' columns and keys;
- ``store``: a Parquet result file that grows chunk by chunk and survives a kill;
- ``jobs``: the work itself (``solve_chunk``, ``play_chunk``), plain functions that
  give the same rows in a Ray worker and in this process;
- ``runner``: chunks, a local or existing Ray cluster (or this process), retries,
  the progress bar;
- ``ratings``: OpenSkill ratings of the bots from tournament results, and the ladder
  chart.

Layering: this package uses games, bots and solvers (and the pure rating arithmetic
in core/rating.py); only the ``spillebord analyse`` command imports it.  It needs the
``research`` extra (``pip install -e '.[research]'``: ray, pyarrow, matplotlib).
"""
