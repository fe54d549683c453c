"""CITATION.cff (Citation File Format 1.2.0) holds the keys the format requires and the
package's version from pyproject.toml."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_citation_file_names_the_current_version() -> None:
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    keys = set(re.findall(r"(?m)^([a-z-]+):", text))
    assert {"cff-version", "message", "title", "authors", "version", "license"} <= keys
    assert re.search(r"(?m)^cff-version: 1\.2\.0$", text)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert re.search(rf"(?m)^version: {re.escape(project['version'])}$", text)
    assert re.search(rf"(?m)^license: {re.escape(project['license'])}$", text)
