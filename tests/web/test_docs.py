"""The README is the front door: the two commands, and a link to every page of docs/. (The API's
reference is its OpenAPI document, tests/web/test_contract.py.)"""

import re

from helpers import ROOT

README = (ROOT / "README.md").read_text()


def test_the_readme_shows_the_two_commands_and_links_every_page_of_the_docs():
    assert "make run" in README and "make test" in README and "HOST=0.0.0.0" in README
    linked = set(re.findall(r"\]\((docs/[\w-]+\.md)\)", README))
    assert linked == {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")}
