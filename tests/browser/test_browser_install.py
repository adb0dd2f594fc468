"""Tablemate on a phone's home screen, as Chromium reads it: every page links the manifest
and its icon."""

import pytest

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("page", ["/", "/burro/new", "/check", "/rules"])
def test_every_page_links_the_manifest_and_its_icon(client, page, static_url):
    html = client.get(page).get_data(as_text=True)
    assert f'<link rel="manifest" href="{static_url("manifest.webmanifest")}">' in html
    assert f'<link rel="icon" href="{static_url("icon.svg")}" type="image/svg+xml">' in html
