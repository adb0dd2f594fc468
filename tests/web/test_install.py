"""Tablemate on a phone's home screen: a web app manifest with its icons, linked from every
page, and the icon browsers ask for at /favicon.ico."""

import json
import struct


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_makes_an_installable_app(client):
    response = client.get("/static/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["name"] == "Tablemate" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["theme_color"].startswith("#")
    for icon in manifest["icons"]:
        served = client.get(icon["src"])
        assert served.status_code == 200 and served.mimetype == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(served.data)
            assert icon["sizes"] == f"{width}x{height}"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}


def test_the_favicon_is_the_apps_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert png_size(response.data) == (192, 192)


def test_a_maskable_icon_fills_its_square_for_the_phone_to_cut(client):
    """Issue "At the table, round two", h: "The app icon has no maskable variant"."""
    manifest = json.loads(client.get("/static/manifest.webmanifest").data)
    maskable = [icon for icon in manifest["icons"] if icon.get("purpose") == "maskable"]
    assert [(icon["type"], icon["sizes"]) for icon in maskable] == [("image/png", "512x512")]
    served = client.get(maskable[0]["src"])
    assert served.status_code == 200 and png_size(served.data) == (512, 512)
    # The other icons keep their rounded corners: they are not offered for masking.
    assert all(icon.get("purpose", "any") == "any" for icon in manifest["icons"]
               if icon not in maskable)
