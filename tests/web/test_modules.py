"""The entry panel's script as ES modules with no build step (static/panel/): each module,
though imported by its plain name, comes by its versioned one through the page's import
map, so that a phone keeps it a year and the service worker keeps it offline; and the CSP
allows that one inline script by its hash."""

import json
import posixpath
import re

from helpers import ROOT, parsed

from app import create_app

YEAR = 365 * 24 * 3600
MODULES = sorted((ROOT / "static" / "panel").glob("*.js"))
IMPORT = re.compile(r'^import\b[^;]*?\bfrom "(?P<name>[^"]+)";', re.M | re.S)


def import_map(response) -> dict[str, str]:
    return json.loads(parsed(response).find("script", type="importmap").string)["imports"]


def test_every_import_among_the_modules_is_in_the_import_map(client):
    """A module imported as "./controls.js" is asked for at /static/panel/controls.js: the
    map must name it, or the phone fetches a name it checks again on every visit."""
    imports = import_map(client.get("/"))
    imported = {posixpath.normpath(posixpath.join("/static/panel", name))
                for module in MODULES for name in IMPORT.findall(module.read_text())}
    assert imported and imported <= set(imports), imported - set(imports)
    assert set(imports) == {f"/static/panel/{module.name}" for module in MODULES}


def test_the_modules_come_by_versioned_names_kept_a_year_and_offline(client):
    page = client.get("/")
    imports = import_map(page)
    document = parsed(page)
    assert document.find("script", type="module")["src"] == imports["/static/panel/main.js"]
    preloaded = {link["href"] for link in document.find_all("link", rel="modulepreload")}
    assert preloaded == set(imports.values())
    worker = client.get("/sw.js").get_data(as_text=True)
    for plain, versioned in imports.items():
        response = client.get(versioned)
        assert response.cache_control.max_age == YEAR and response.cache_control.immutable
        assert response.get_data() == client.get(plain).get_data()
        assert f'"{versioned}"' in worker, versioned


def test_only_a_page_allows_an_inline_script_and_only_its_import_map(client):
    """A fragment, a static file, a news poll: none holds the map, none allows its hash."""
    page = client.get("/rules")
    assert "'sha256-" in page.headers["Content-Security-Policy"]
    for response in (client.get("/rules/search?q=stapel", headers={"HX-Request": "true"}),
                     client.get("/static/app.css"), client.get("/sw.js")):
        assert "'sha256-" not in response.headers["Content-Security-Policy"]


def test_behind_a_proxy_prefix_the_map_names_the_modules_under_it(tmp_path, rules_index):
    """Served under /tablemate, a module's import resolves there: the map follows."""
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "tablemate.sqlite"),
                      "RULES_INDEX": rules_index, "SECRET_KEY": "test", "BEHIND_PROXY": 1})
    page = app.test_client().get("/", headers={"X-Forwarded-Prefix": "/tablemate"})
    imports = import_map(page)
    assert "/tablemate/static/panel/controls.js" in imports
    assert all(address.startswith("/tablemate/static/panel/")
               for address in [*imports, *imports.values()])
