"""Absolute links, for QR codes, the share box and the API: built on the configured
``BASE_URL``, never on the Host header a request brings; and the links to hand to the
other phones, which never name an address only this machine can open."""

from urllib.parse import urlsplit

from flask import current_app, request, url_for

from . import reach


def absolute_url(endpoint: str, **values) -> str:
    """The full address of ``endpoint``: on ``BASE_URL`` where it is set, else on the
    address the request came to (a laptop serving a table's wifi has no fixed name)."""
    base_url = current_app.config["BASE_URL"]
    if not base_url:
        return url_for(endpoint, _external=True, **values)
    return base_url + url_for(endpoint, **values)


def share_url(endpoint: str, **values) -> str | None:
    """The full address of ``endpoint`` for the other phones at the table: ``absolute_url``,
    but a request to a loopback address (the laptop's own browser) gets the machine's
    address on its network in its place, with the same port and path; None when the
    machine is on no network."""
    if not _came_to_loopback():
        return absolute_url(endpoint, **values)
    address = reach.table_address()
    if address is None:
        return None
    _host, port = _request_host()
    netloc = address if port is None else f"{address}:{port}"
    return f"{request.scheme}://{netloc}{url_for(endpoint, **values)}"


def table_reach() -> str:
    """Whether the phones at the table can open what ``share_url`` hands out, as far as this
    request tells: "table"; "this machine" (the request came to a loopback address and no
    server answers at the machine's network address); "no network"."""
    if not _came_to_loopback():
        return "table"
    address = reach.table_address()
    if address is None:
        return "no network"
    _host, port = _request_host()
    port = port or (443 if request.scheme == "https" else 80)
    return "table" if reach.answers(address, port) else "this machine"


def _came_to_loopback() -> bool:
    """The request came to an address only this machine opens, and no ``BASE_URL`` names
    the app's real one."""
    return not current_app.config["BASE_URL"] and reach.only_this_machine(_request_host()[0])


def _request_host() -> tuple[str, int | None]:
    """The host and port the request came to (None: the scheme's port)."""
    address = urlsplit(f"//{request.host}")
    try:
        return address.hostname or "", address.port
    except ValueError:  # a port no server listens on: only the host counts
        return address.hostname or "", None
