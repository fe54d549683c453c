"""Spillebord: Danish card games with one protocol, solvers, bots and a web server (the
games are the ones registered in ``spillebord.games``; docs/adding-a-game.md adds one)."""

__version__ = "0.1.0"

from spillebord import kernel_cache as _kernel_cache

_kernel_cache.configure()  # before anything imports Numba: kernels kept per code version
