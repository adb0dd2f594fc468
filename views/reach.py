"""How the phones at the table reach this machine: its address on the network, found
without sending anything, whether a server answers there, and the banner `make run`
prints before it serves (``python -m views.reach HOST PORT``)."""

import argparse
import io
import ipaddress
import socket
from collections.abc import Iterator

import segno

# Any private address will do: "connecting" a UDP socket to one makes the system choose the
# interface it would send from, and sends nothing. One per private range, for a network
# that has no default route.
_PRIVATE_TARGETS = ("10.254.254.254", "192.168.254.254", "172.31.254.254")
# Where a server bound here serves every interface.
EVERY_INTERFACE = ("0.0.0.0", "::", "")


def table_address() -> str | None:
    """This machine's IPv4 address on its network, where the other phones reach it; never a
    loopback address, and None when the machine is on no network."""
    return next(filter(_shareable, _addresses()), None)


def _addresses() -> Iterator[str]:
    """The addresses this machine sends to a private network from (none without a route),
    then the ones its host name resolves to (often only a loopback one), each looked up
    only when the ones before it are turned down."""
    for target in _PRIVATE_TARGETS:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((target, 9))
                source = udp.getsockname()[0]
            except OSError:
                continue
        yield source
    try:
        found = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return
    yield from (info[4][0] for info in found)


def _shareable(address: str) -> bool:
    """Another phone on the network could reach ``address``.

    >>> [_shareable(a) for a in ("192.168.1.23", "127.0.1.1", "0.0.0.0", "169.254.3.4")]
    [True, False, False, False]
    """
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def only_this_machine(host: str) -> bool:
    """A link to ``host`` (a name or an address, IPv6 in brackets or not) opens only on the
    machine it is typed on.

    >>> [only_this_machine(h) for h in ("127.0.0.1", "localhost", "[::1]", "192.168.1.23")]
    [True, True, True, False]
    """
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    ip = getattr(ip, "ipv4_mapped", None) or ip
    return ip.is_loopback or ip.is_unspecified


def answers(address: str, port: int, timeout: float = 0.2) -> bool:
    """A server takes connections at ``address`` and ``port``: one bound to every interface
    does at the machine's network address, one bound to loopback only does not."""
    try:
        with socket.create_connection((address, port), timeout=timeout):
            return True
    except OSError:
        return False


def start_url(host: str, port: int) -> str:
    """The start page's address on ``host`` and ``port``.

    >>> start_url("192.168.1.23", 5000), start_url("::1", 8080)
    ('http://192.168.1.23:5000/', 'http://[::1]:8080/')
    """
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def banner(host: str, port: int) -> str:
    """What `make run` prints before it serves on ``host`` and ``port``: the address the
    phones open, with its QR code, or why they cannot open any."""
    if only_this_machine(host) and host not in EVERY_INTERFACE:
        return (f"Serving {start_url(host, port)} to this machine only: no other phone can "
                "open it.\nTo serve the table's wifi: make run HOST=0.0.0.0\n")
    address = table_address() if host in EVERY_INTERFACE else host
    if address is None:
        return ("This machine is on no network, so no phone can reach it: join the table's "
                "wifi and start again for the address to open.\n")
    url = start_url(address, port)
    code = io.StringIO()
    segno.make(url).terminal(out=code, compact=True)
    return f"Open {url} on the phones at the table, or scan:\n{code.getvalue()}"


def main(argv: list[str] | None = None) -> None:
    """Print the banner for the host and port given on the command line."""
    parser = argparse.ArgumentParser(prog="python -m views.reach", description=main.__doc__)
    parser.add_argument("host", help="the address gunicorn binds, e.g. 0.0.0.0")
    parser.add_argument("port", type=int)
    arguments = parser.parse_args(argv)
    print(banner(arguments.host, arguments.port), end="", flush=True)


if __name__ == "__main__":
    main()
