"""The API docs in Chromium: Swagger UI draws the app's own OpenAPI document from this
server alone, under the strict Content-Security-Policy, and "Try it out" calls this server."""


import pytest
from helpers import DOCS, VERSIONED_VIEWER
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# Every CSP refusal in the page, kept where the test can read it.
RECORD_CSP_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) =>
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`));
"""


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
def test_the_docs_work_with_no_way_to_the_internet(docs_phone: Page):
    """Only this server answers, as on a table's wifi: the viewer still draws the document,
    and it tried no other host but htmx's pinned CDN, whose copy is bundled too."""
    docs_phone.goto(DOCS)
    expect(operation(docs_phone, "/api/v1/burraco/meld")).to_be_visible()
    expect(docs_phone.get_by_role("heading", name="Tablemate API", level=1)).to_be_visible()
    assert all("unpkg.com/htmx.org" in url for url in docs_phone.elsewhere), docs_phone.elsewhere
