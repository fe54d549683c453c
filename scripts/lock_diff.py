"""What moved between two uv.lock files: one line per package added, removed or changed.

    python scripts/lock_diff.py OLD.lock NEW.lock

`make lock` runs it after refreshing the lock, so the review starts from this list
(docs/dependencies.md says how to review an update).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path


def versions(path: Path) -> dict[str, set[str]]:
    """Each locked package's name with its versions (a package may be locked twice, for
    different Python versions)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    found: dict[str, set[str]] = {}
    for package in data.get("package", []):
        found.setdefault(package["name"], set()).add(str(package.get("version", "")))
    return found


def changes(old: dict[str, set[str]], new: dict[str, set[str]]) -> list[str]:
    lines = []
    for name in sorted(old.keys() | new.keys()):
        before, after = ", ".join(sorted(old.get(name, ()))), ", ".join(sorted(new.get(name, ())))
        if before == after:
            continue
        lines.append(f"{name}: {before or '(new)'} -> {after or '(removed)'}")
    return lines


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: lock_diff.py OLD.lock NEW.lock", file=sys.stderr)
        return 2
    try:
        lines = changes(versions(Path(argv[0])), versions(Path(argv[1])))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        print(f"lock_diff: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines) if lines else "nothing moved")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
