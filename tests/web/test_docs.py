"""docs/api.md gives a worked example of every API route, and the README shows the two
commands the brief promises."""

import re

from helpers import ROOT

API_DOCS = (ROOT / "docs" / "api.md").read_text()
README = (ROOT / "README.md").read_text()


def test_every_api_route_is_in_the_api_docs(app):
    documented = set(re.findall(r"^## `(GET|POST|PUT|DELETE) (/api/\S+)`", API_DOCS, re.M))
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:[^:>]+:)?(\w+)>", r"<\1>", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (method, path) in documented, f"{method} {path} is not in docs/api.md"


def test_the_readme_shows_the_two_commands_and_links_every_page_of_the_docs():
    assert "make run" in README and "make test" in README and "HOST=0.0.0.0" in README
    linked = set(re.findall(r"\]\((docs/[\w-]+\.md)\)", README))
    assert linked == {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")}
