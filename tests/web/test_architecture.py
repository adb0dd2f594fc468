"""Imports point one way: scoring is pure (stdlib only); views → store → scoring."""

import ast
import io
import re
import sys
import tokenize
from pathlib import Path

import pytest
from helpers import ROOT


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


@pytest.mark.parametrize("path", sorted((ROOT / "views").rglob("*.py")), ids=lambda p: p.name)
def test_views_do_not_import_the_app(path):
    assert "app" not in imported_modules(path)


def _relative_imports(path: Path, level: int = 1) -> set[str]:
    """The project modules a views module imports relatively (``from .x import``,
    ``from . import x``; from a subpackage ``from ..x import``), as names under views/."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == level:
            names.update([node.module] if node.module else
                         [alias.name for alias in node.names])
    return names


def _defines_a_blueprint(name: str) -> bool:
    module = ROOT / "views" / f"{name}.py"
    return module.exists() and "Blueprint(" in module.read_text()


def test_the_api_imports_no_html_view_module():
    """Shared helpers live in neutral modules (lookup, rule_search, messages), so the JSON API
    does not depend on a page's blueprint."""
    for module in (ROOT / "views" / "api").glob("*.py"):
        pages = {name for name in _relative_imports(module, level=2)
                 if _defines_a_blueprint(name)}
        assert not pages, f"{module.name} imports page modules {pages}"


GAMES = ("burro", "burraco", "buraco", "bura", "burkosel")
# A game's name as a word of an identifier or a space-free string ("burro", "bura_deck",
# "/burro/trick"), not a letter run inside another word.
GAME_WORD = re.compile(r"(?<![a-z])(" + "|".join(GAMES) + r")(?![a-z])")
# The one list of the games the rules know: everything else asks it.
REGISTRY = {"scoring/games.py"}


def _own_place(relative: str) -> bool:
    """One of the four places a game lives in, or the registry."""
    parts = Path(relative).parts
    in_folder_of_game = (len(parts) == 3 and parts[:2] == ("views", "games")
                         or len(parts) == 2 and parts[0] == "scoring")
    return (relative in REGISTRY or parts[:2] == ("templates", "games")
            or in_folder_of_game and Path(parts[-1]).stem in GAMES)


def _game_names_in_python(path: Path) -> list[str]:
    found = []
    for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        named = (token.type == tokenize.NAME
                 or token.type == tokenize.STRING and " " not in token.string)
        if named and GAME_WORD.search(token.string):
            found.append(f"{token.start[0]}: {token.string}")
    return found


def _game_names_in_template(path: Path) -> list[str]:
    text = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.S)
    return [f"{number}: {line.strip()}" for number, line in enumerate(text.splitlines(), 1)
            if GAME_WORD.search(line)]


def _shared_modules():
    for folder in ("scoring", "store", "views", "rules_content"):
        yield from (ROOT / folder).rglob("*.py")
    yield ROOT / "app.py"
    yield from (ROOT / "templates").rglob("*.html")


@pytest.mark.parametrize("path", sorted(_shared_modules()),
                         ids=lambda path: str(path.relative_to(ROOT)))
def test_a_game_is_named_only_in_its_own_places(path):
    """A game is four places: scoring/<game>.py, views/games/<game>.py, templates/games/<game>/
    and rules_content/{de,en}/<game>.md. A shared module asks the registry instead."""
    relative = str(path.relative_to(ROOT))
    if _own_place(relative):
        return
    reader = _game_names_in_python if path.suffix == ".py" else _game_names_in_template
    assert not reader(path), f"{relative} names a game: {reader(path)}"


def test_every_game_has_its_four_places():
    from rules_content import LANGUAGES
    from rules_content import ROOT as RULES
    from scoring.games import GAMES as RULED
    from views.games import all_games

    assert set(RULED) == set(GAMES) == set(all_games())
    for slug, game in all_games().items():
        assert game.slug == slug
        assert (ROOT / "scoring" / f"{slug}.py").exists()
        assert (ROOT / "views" / "games" / f"{slug}.py").exists()
        assert (ROOT / "templates" / game.template("sheet.html")).exists()
        assert (ROOT / "templates" / game.template("options.html")).exists()
        for lang in LANGUAGES:
            assert (RULES / lang / f"{game.document}.md").exists()
