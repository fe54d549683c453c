"""The ``learn`` feature (issue #33): the ``/learn/{game}`` page and its API.

- ``service``: pure functions that walk a lesson (``spillebord.learn``) and the free play
  after it; the rules stay on the server, the page sends action texts;
- ``routes``: the HTML page and ``/api/learn/...`` (docs/protocol.md, "Lessons").
"""
