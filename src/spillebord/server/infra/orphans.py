"""No orphans: a compute worker process ends when the server process that started it
is gone, however it went (a SIGKILL runs no shutdown code, so the pools cannot stop
their workers then).

``die_with`` is the workers' initializer: a daemon thread of the worker watches its
parent id and exits as soon as it changes (the worker was re-parented: its server is
gone), within ``POLL`` seconds.  Not ``prctl(PR_SET_PDEATHSIG)``: the kernel sends that
signal when the *thread* that started the worker ends, and a pool starts its workers
from whichever thread submits first.
"""

from __future__ import annotations

import os
import threading
import time

POLL = 0.5  # seconds between looks at the parent


def _watch(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(0)  # no clean-up to wait for: the server that wanted the work is gone
        time.sleep(POLL)


def die_with(parent: int) -> None:
    """Run in a new worker process: end it when process ``parent`` ends."""
    if os.getppid() != parent:  # the server died while this worker was starting
        os._exit(0)
    threading.Thread(target=_watch, args=(parent,), name="spillebord-parent-watch",
                     daemon=True).start()
