"""Imports point one way: scoring is pure (stdlib only); views → store → scoring."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "scoring").glob("*.py")), ids=lambda p: p.name)
def test_scoring_imports_only_the_standard_library(path):
    outside = imported_modules(path) - set(sys.stdlib_module_names) - {"scoring"}
    assert not outside, f"{path.name} imports {outside}"


def test_store_does_not_import_views():
    assert "views" not in imported_modules(ROOT / "store.py")


@pytest.mark.parametrize("path", sorted((ROOT / "views").glob("*.py")), ids=lambda p: p.name)
def test_views_do_not_import_the_app(path):
    assert "app" not in imported_modules(path)
