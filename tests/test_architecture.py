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


@pytest.mark.parametrize("path", sorted((ROOT / "store").glob("*.py")), ids=lambda p: p.name)
def test_store_does_not_import_views(path):
    assert "views" not in imported_modules(path)


@pytest.mark.parametrize("path", sorted((ROOT / "views").glob("*.py")), ids=lambda p: p.name)
def test_views_do_not_import_the_app(path):
    assert "app" not in imported_modules(path)


def _relative_imports(path: Path) -> set[str]:
    """The project modules a views module imports relatively (``from .x import``,
    ``from . import x``), as names under views/."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names.update([node.module] if node.module else
                         [alias.name for alias in node.names])
    return names


def _defines_a_blueprint(name: str) -> bool:
    module = ROOT / "views" / f"{name}.py"
    return module.exists() and "Blueprint(" in module.read_text()


def test_the_api_imports_no_html_view_module():
    """Shared helpers live in neutral modules (lookup, rule_search, messages), so the JSON API
    does not depend on a page's blueprint."""
    pages = {name for name in _relative_imports(ROOT / "views" / "api.py")
             if _defines_a_blueprint(name)}
    assert not pages, f"views/api.py imports page modules {pages}"


def test_every_game_has_one_sheet_module():
    """A game is one module in scoring/, one in views/sheets/ and its templates."""
    from scoring.games import GAMES
    from views.sheets import SHEETS
    assert set(SHEETS) == set(GAMES)
    for game in GAMES:
        assert (ROOT / "scoring" / f"{game}.py").exists()
        assert (ROOT / "views" / "sheets" / f"{game}.py").exists()
        assert (ROOT / "templates" / "matches" / f"{game}.html").exists()
