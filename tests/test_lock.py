"""The environment the tests run in is the lock's: every installed distribution is one
uv.lock pins, at the pinned version.  A path that installs something unpinned (a stray
``pip install``, a package a test tool pulls in) fails here at once (docs/dependencies.md).
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "uv.lock"
sys.path.insert(0, str(ROOT / "scripts"))
from lock_diff import changes, versions  # noqa: E402


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked() -> dict[str, set[str]]:
    return {normal(name): found for name, found in versions(LOCK).items()}


def test_every_installed_distribution_is_the_locked_version() -> None:
    pins = locked()
    wrong = []
    for dist in importlib.metadata.distributions():
        name = normal(dist.metadata["Name"] or "")
        if name == "spillebord":
            continue
        if name not in pins:
            wrong.append(f"{name}=={dist.version} is installed but not in uv.lock")
        elif dist.version not in pins[name]:
            wrong.append(f"{name}=={dist.version} is installed, uv.lock pins {sorted(pins[name])}")
    assert not wrong, "\n".join(wrong)


def test_the_lock_pins_every_package_with_hashes() -> None:
    data = tomllib.loads(LOCK.read_text(encoding="utf-8"))
    unhashed = []
    for package in data["package"]:
        if package.get("source", {}).get("editable") or package.get("source", {}).get("virtual"):
            continue
        files = [*package.get("wheels", []), *([package["sdist"]] if "sdist" in package else [])]
        if not files or any(not str(f.get("hash", "")).startswith("sha256:") for f in files):
            unhashed.append(package["name"])
    assert not unhashed, f"packages without sha256 hashes in uv.lock: {unhashed}"


def test_the_lock_covers_every_extra_of_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted.extend(extra)
    pins = locked()
    missing = sorted({normal(re.split(r"[\[<>=!~; ]", spec, maxsplit=1)[0]) for spec in wanted}
                     - pins.keys())
    assert not missing, f"pyproject.toml asks for packages uv.lock does not pin: {missing}"


def test_lock_diff_names_what_moved(tmp_path: Path) -> None:
    old = tmp_path / "old.lock"
    new = tmp_path / "new.lock"
    old.write_text('version = 1\n[[package]]\nname = "redis"\nversion = "8.1.0"\n'
                   '[[package]]\nname = "gone"\nversion = "1"\n', encoding="utf-8")
    new.write_text('version = 1\n[[package]]\nname = "redis"\nversion = "8.2.0"\n'
                   '[[package]]\nname = "fresh"\nversion = "2"\n', encoding="utf-8")
    assert changes(versions(old), versions(new)) == [
        "fresh: (new) -> 2", "gone: 1 -> (removed)", "redis: 8.1.0 -> 8.2.0"]
    script = subprocess.run([sys.executable, str(ROOT / "scripts" / "lock_diff.py"), str(old),
                             str(tmp_path / "missing.lock")], capture_output=True, text=True)
    assert script.returncode == 2 and "missing.lock" in script.stderr
