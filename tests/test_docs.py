"""The README documents every API route, and the two commands the brief promises."""

import re
from pathlib import Path

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_every_api_route_is_in_the_readme(app):
    documented = set(re.findall(r"^### `(GET|POST|PUT|DELETE) (/api/\S+)`", README, re.M))
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:[^:>]+:)?(\w+)>", r"<\1>", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (method, path) in documented, f"{method} {path} is not in the README"


def test_the_readme_shows_the_two_commands():
    assert "make run" in README and "make test" in README and "HOST=0.0.0.0" in README
