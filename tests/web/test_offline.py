"""Tablemate with the wifi gone: versioned static files kept for a year, a service worker
that keeps the pages, and entries that wait on the phone until the connection returns.

Issue "Together at the table", point 5: "with the wifi gone the sheet still opens, says
"offline", and entries made meanwhile are kept on the phone and sent with their idempotency
keys when the connection returns (a stale conflict then follows the earlier issue's flow).
Static files get long-lived caching with names that change with their content."
"""

import re

import pytest
from helpers import parsed

YEAR = 365 * 24 * 3600
VERSIONED = re.compile(r"/static/(?P<stem>[\w./-]+)\.(?P<digest>[0-9a-f]{10})(?P<suffix>\.\w+)")


def static_files(page) -> list[str]:
    """The versioned static files a page names in its elements' attributes (a script's
    src, a stylesheet's href, the htmx loader's fallback)."""
    return [value for tag in page.find_all(True) for value in tag.attrs.values()
            if isinstance(value, str) and VERSIONED.fullmatch(value)]


# --- Versioned static files ----------------------------------------------------------------

def test_pages_name_static_files_by_their_content_and_phones_keep_them_a_year(client):
    named = static_files(parsed(client.get("/")))
    assert any("/app." in name for name in named) and any("/panel/main." in name for name in named)
    for name in named:
        response = client.get(name)
        assert response.status_code == 200, name
        assert response.cache_control.max_age == YEAR and response.cache_control.immutable


def test_a_changed_file_gets_a_new_name(app, client, static_url, tmp_path, monkeypatch):
    """A release that changes app.css changes its address: no phone keeps the old one."""
    folder = tmp_path / "static"
    folder.mkdir()
    (folder / "app.css").write_text("body { color: black; }")
    monkeypatch.setattr(app, "static_folder", str(folder))
    before = static_url("app.css")
    (folder / "app.css").write_text("body { color: navy; }")
    after = static_url("app.css")
    assert before != after
    assert client.get(after).get_data(as_text=True) == "body { color: navy; }"
    # An old page's name still answers, with today's file, checked again next time.
    outdated = client.get(before)
    assert outdated.get_data(as_text=True) == "body { color: navy; }"
    assert outdated.cache_control.max_age == 0


def test_plain_names_answer_but_are_checked_each_time(client):
    """The manifest names its icons plainly; they must not be kept for a year."""
    response = client.get("/static/icon.svg")
    assert response.status_code == 200 and response.cache_control.max_age == 0


@pytest.mark.parametrize("path", ["/static/../app.py", "/static/nothing.css",
                                  "/static/nothing.0123456789.css", "/static/vendor"])
def test_no_file_outside_the_static_files_is_served(client, path):
    assert client.get(path).status_code == 404


def test_the_service_worker_keeps_every_static_file_by_its_current_name(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response.mimetype == "text/javascript"
    assert "no-cache" in response.headers["Cache-Control"]
    listed = set(re.findall(r'"(/static/[^"]+)"', response.get_data(as_text=True)))
    named = static_files(parsed(client.get("/")))
    assert {VERSIONED.match(name).groups() for name in named} <= \
        {VERSIONED.match(name).groups() for name in listed}
    assert "/static/icon-512." in " ".join(listed)
    for name in listed:
        assert client.get(name).cache_control.immutable, name


# --- In the browser ------------------------------------------------------------------------


