"""The API docs page at /api/v1/docs: the app's OpenAPI document in Swagger UI, served from
our own static files, under the app's strict Content-Security-Policy, with no internet."""

import re

import pytest
from playwright.sync_api import Page, expect

from views.api.docs import VIEWER

DOCS = "/api/v1/docs"
DOCUMENT = "/api/v1/openapi.json"
VERSIONED_VIEWER = re.compile(
    rf"/static/{re.escape(VIEWER)}/swagger-ui(-bundle)?\.[0-9a-f]{{10}}\.(js|css)")
INLINE_CODE = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son[a-z]+=", re.I)
# Every CSP refusal in the page, kept where the test can read it.
RECORD_CSP_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) =>
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`));
"""


def viewer_files(html: str) -> list[str]:
    """The viewer's script and stylesheet as the page names them."""
    return [match.group(0) for match in VERSIONED_VIEWER.finditer(html)]


# --- The page as the server sends it ---------------------------------------------------------

def test_the_docs_page_is_html_under_the_strict_policy(client):
    response = client.get(DOCS)
    assert response.status_code == 200 and response.mimetype == "text/html"
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self';" in policy
    assert "unsafe" not in policy
    # Nothing inline for the policy to refuse: the viewer starts from static/api-docs.js.
    assert not INLINE_CODE.search(response.get_data(as_text=True))


def test_the_page_loads_the_vendored_viewer_and_names_the_apis_document(client):
    html = client.get(DOCS).get_data(as_text=True)
    assert len(viewer_files(html)) == 2
    assert f'data-document="{DOCUMENT}"' in html and f'href="{DOCUMENT}"' in html
    document = client.get(DOCUMENT)
    assert document.status_code == 200 and document.json["openapi"].startswith("3.1")


def test_the_viewer_is_served_compressed_and_kept_a_year_by_its_versioned_name(client):
    """Megabytes of Swagger UI over a table's wifi: compressed, and fetched once."""
    for name in viewer_files(client.get(DOCS).get_data(as_text=True)):
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
    html = client.get(DOCS, headers={"Accept-Language": language}).get_data(as_text=True)
    assert f'<html lang="{language}">' in html and lead in html
    # Swagger UI itself speaks English only, and says so to a screen reader.
    assert re.search(r'<div id="api-viewer"[^>]*\slang="en"', html)


def test_the_service_worker_leaves_the_viewer_out(client):
    """A phone at the table never needs the API viewer: it must not download it on install."""
    listed = client.get("/sw.js").get_data(as_text=True)
    assert VIEWER not in listed and "swagger" not in listed
    assert "/static/vendor/htmx-" in listed


# --- In the browser --------------------------------------------------------------------------

@pytest.fixture
def docs_phone(page: Page, live_server: str):
    """The phone, able to reach this server and nothing else, noting every CSP refusal and
    every request that went elsewhere."""
    elsewhere = []

    def only_here(route):
        if route.request.url.startswith(live_server):
            route.fallback()
        else:
            elsewhere.append(route.request.url)
            route.abort()

    page.context.route("**/*", only_here)
    page.add_init_script(RECORD_CSP_VIOLATIONS)
    page.elsewhere = elsewhere
    return page


def operation(page: Page, path: str):
    return page.locator(".opblock-summary", has_text=path).first


@pytest.mark.browser
def test_the_docs_show_the_real_documents_operations_with_no_csp_refusal(docs_phone: Page):
    fetched = []
    docs_phone.on("response", lambda response: fetched.append((response.url, response.status)))
    docs_phone.goto(DOCS)
    expect(operation(docs_phone, "/api/v1/burraco/meld")).to_be_visible()
    expect(operation(docs_phone, "/api/v1/matches")).to_be_visible()
    assert docs_phone.evaluate("window.cspViolations") == []
    # The viewer came by its versioned names, from this server.
    loaded = [url for url, status in fetched if status == 200 and VERSIONED_VIEWER.search(url)]
    assert len(loaded) == 2, fetched


@pytest.mark.browser
def test_an_operation_is_tried_against_this_server(docs_phone: Page, live_server: str):
    docs_phone.goto(DOCS)
    operation(docs_phone, "/api/v1/burraco/meld").click()
    docs_phone.get_by_role("button", name="Try it out").click()
    docs_phone.locator("textarea.body-param__text").fill(
        '{"cards": ["3H", "4H", "5H"], "options": {"semipulito": false}}')
    docs_phone.get_by_role("button", name="Execute").click()
    answer = docs_phone.locator(".live-responses-table .response").first
    expect(answer.locator(".response-col_status")).to_have_text("200")
    expect(answer.locator(".response-col_description pre").first).to_contain_text('"valid": true')
    expect(docs_phone.locator(".request-url pre")).to_have_text(
        f"{live_server}/api/v1/burraco/meld")
    assert docs_phone.evaluate("window.cspViolations") == []


@pytest.mark.browser
def test_the_docs_work_with_no_way_to_the_internet(docs_phone: Page):
    """Only this server answers, as on a table's wifi: the viewer still draws the document,
    and it tried no other host but htmx's pinned CDN, whose copy is bundled too."""
    docs_phone.goto(DOCS)
    expect(operation(docs_phone, "/api/v1/burraco/meld")).to_be_visible()
    expect(docs_phone.get_by_role("heading", name="Tablemate API", level=1)).to_be_visible()
    assert all("unpkg.com/htmx.org" in url for url in docs_phone.elsewhere), docs_phone.elsewhere
