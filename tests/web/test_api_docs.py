"""The API docs page at /api/v1/docs: the app's OpenAPI document in Swagger UI, served from
our own static files, under the app's strict Content-Security-Policy, with no internet."""

import importlib
import pkgutil

import pytest
from helpers import DOCS, VERSIONED_VIEWER, inline_scripts, parsed, shown
from pydantic import BaseModel

import views
from views.api.docs import VIEWER

DOCUMENT = "/api/v1/openapi.json"


def viewer_files(page) -> list[str]:
    """The viewer's script and stylesheet as the page loads them."""
    loaded = [tag.get("src") or tag.get("href") for tag in page.select("script[src], link[href]")]
    return [address for address in loaded if VERSIONED_VIEWER.fullmatch(address)]


def inline_code(page) -> list:
    """What the page would run or style inline: scripts without a file, style elements and
    attributes, event handler attributes."""
    handlers = [tag for tag in page.find_all(True)
                if any(name.startswith("on") for name in tag.attrs)]
    return [*inline_scripts(page),
            *page.find_all("style"), *page.select("[style]"), *handlers]


# --- The page as the server sends it ---------------------------------------------------------

def test_the_docs_page_is_html_under_the_strict_policy(client):
    response = client.get(DOCS)
    assert response.status_code == 200 and response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self';" in policy
    assert "unsafe" not in policy
    # Nothing inline for the policy to refuse: the viewer starts from static/api-docs.js.
    assert inline_code(parsed(response)) == []


def test_the_page_loads_the_vendored_viewer_and_names_the_apis_document(client):
    page = parsed(client.get(DOCS))
    assert len(viewer_files(page)) == 2
    assert page.select_one("[data-document]")["data-document"] == DOCUMENT
    assert page.select(f'a[href="{DOCUMENT}"]')
    document = client.get(DOCUMENT)
    assert document.status_code == 200 and document.json["openapi"].startswith("3.1")


def test_the_viewer_is_served_compressed_and_kept_a_year_by_its_versioned_name(client):
    """Megabytes of Swagger UI over a table's wifi: compressed, and fetched once."""
    for name in viewer_files(parsed(client.get(DOCS))):
        response = client.get(name, headers={"Accept-Encoding": "br, gzip"})
        assert response.status_code == 200, name
        assert response.headers["Content-Encoding"] in ("br", "gzip"), name
        assert response.cache_control.immutable, name


def test_the_viewers_licence_is_kept_beside_it(client):
    licence = client.get(f"/static/{VIEWER}/LICENSE")
    assert licence.status_code == 200 and "Apache License" in licence.get_data(as_text=True)


@pytest.mark.parametrize(("language", "lead"), [
    ("en", "Every call can be tried here"),
    ("de", "Jeder Aufruf lässt sich hier ausprobieren")])
def test_the_page_is_in_the_readers_language(client, language, lead):
    page = parsed(client.get(DOCS, headers={"Accept-Language": language}))
    assert page.html["lang"] == language and lead in shown(page)
    # Swagger UI itself speaks English only, and says so to a screen reader.
    assert page.select_one("div#api-viewer")["lang"] == "en"


def test_the_service_worker_leaves_the_viewer_out(client):
    """A phone at the table never needs the API viewer: it must not download it on install."""
    listed = client.get("/sw.js").get_data(as_text=True)
    assert VIEWER not in listed and "swagger" not in listed
    assert "/static/vendor/htmx-" in listed


# --- In the browser --------------------------------------------------------------------------




def test_no_two_models_share_a_name_in_the_openapi_document():
    """The document names each body's schema after its model's class: two classes of one
    name would give one operation the other's schema, silently."""
    named: dict[str, list[str]] = {}
    for found in pkgutil.walk_packages(views.__path__, "views."):
        module = importlib.import_module(found.name)
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, BaseModel)
                    and value.__module__ == module.__name__):
                named.setdefault(value.__name__, []).append(module.__name__)
    assert {name: modules for name, modules in named.items() if len(modules) > 1} == {}
