"""Spillebord: four Danish card games with one protocol, solvers, bots and a web server."""

__version__ = "0.1.0"
