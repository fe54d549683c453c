"""Issue 31, finding 7: the packaged ops files are sound, checked by the real tools where
they run here.

- the systemd units pass ``systemd-analyze verify`` (with the paths pointed at this
  checkout's virtualenv, so the commands they start exist);
- every setting in the env template and the compose file is one the workers read;
- the compose file's services start the schema upgrade before two workers, and the
  Containerfile copies only files that exist and runs the commands this checkout has.

Not run here: building the image and starting the compose file — no ``podman`` on this
machine and no image registry reachable (docs/deploy.md "Containers" says so)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
OPS = ROOT / "ops"
SETTINGS = (ROOT / "src" / "spillebord" / "server" / "infra" / "settings.py").read_text()
VENV = ROOT / ".venv"


def read_by_workers() -> set[str]:
    return set(re.findall(r'"(SPILLEBORD_[A-Z_]+)"', SETTINGS))


def test_systemd_units_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    names = []
    for unit in (OPS / "systemd").iterdir():
        text = unit.read_text().replace("/srv/spillebord/.venv", str(VENV))
        name = unit.name.replace("@.", "@8001.")
        (tmp_path / name).write_text(text)
        names.append(f"./{name}")
    done = subprocess.run([analyze, "verify", "--man=no", *names], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def test_env_template_names_only_real_settings() -> None:
    names = set(re.findall(r"^#?\s*(SPILLEBORD_[A-Z_]+)=", (OPS / "spillebord.env")
                           .read_text(), re.M))
    assert {"SPILLEBORD_DB", "SPILLEBORD_REDIS"} <= names
    assert names <= read_by_workers(), names - read_by_workers()


def test_compose_file_and_containerfile() -> None:
    compose = yaml.safe_load((OPS / "container" / "compose.yml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "migrate", "worker1", "worker2", "nginx"} <= set(services)
    assert services["migrate"]["command"] == ["spillebord", "db", "upgrade"]
    for w in ("worker1", "worker2"):
        assert services[w]["depends_on"]["migrate"]["condition"] == \
            "service_completed_successfully"
        assert set(services[w]["environment"]) <= read_by_workers()
    containerfile = (OPS / "container" / "Containerfile").read_text()
    for src in re.findall(r"^COPY (.+) \S+$", containerfile, re.M):
        for path in src.split():
            assert (ROOT / path).exists(), f"the Containerfile copies a missing {path}"
    assert "--require-hashes" in containerfile and "--locked" in containerfile
    done = subprocess.run([str(VENV / "bin" / "spillebord"), "db", "--help"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and "upgrade" in done.stdout
