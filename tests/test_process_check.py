"""The leaked-process check of tests/conftest.py sees what a test starts."""

from __future__ import annotations

import os
import signal
import subprocess
import time

from tests.conftest import descendants


def test_descendants_sees_a_child_and_its_child_until_they_end() -> None:
    before = set(descendants(os.getpid()))
    outer = subprocess.Popen(["sh", "-c", "sleep 30 & wait"], start_new_session=True)
    try:
        for _ in range(100):
            found = descendants(os.getpid())
            if any(cmd == "sleep 30" for cmd in found.values()):
                break
            time.sleep(0.02)
        assert outer.pid in found
        assert any(cmd == "sleep 30" for cmd in found.values()), found
    finally:
        os.killpg(outer.pid, signal.SIGKILL)
        outer.wait()
    for _ in range(100):
        if not set(descendants(os.getpid())) - before:
            break
        time.sleep(0.02)
    assert not set(descendants(os.getpid())) - before
