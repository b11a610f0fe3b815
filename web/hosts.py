"""Only this table's own names are served (issue 15, item 7): a guard against DNS rebinding.

A web page on any site can make a phone on the table's network send requests to a name its
attacker points at the Pi; those requests carry the attacker's name in the ``Host`` header. So a
request is answered only when its Host names the table: localhost, a loopback address, the address
the service prints (its LAN address), the host it listens on, or a name listed in ``[web] hosts``.
Anything else gets 421 Misdirected Request.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request

log = logging.getLogger(__name__)

LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def host_name(host: str) -> str:
    """The name or address in a Host header, without its port or brackets, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def own_addresses() -> set[str]:
    """This machine's host name (and ``.local``) and the addresses it resolves to."""
    names: set[str] = set()
    try:
        hostname = socket.gethostname().lower()
    except OSError:
        return names
    names.update({hostname, f"{hostname}.local"})
    try:
        for info in socket.getaddrinfo(hostname, None):
            names.add(str(info[4][0]).lower())
    except OSError:
        pass
    return names


def allowed_hosts(app: Flask) -> set[str]:
    allowed = set(LOOPBACK)
    allowed.update(h.lower() for h in app.config.get("ALLOWED_HOSTS") or ())
    bind = str(app.config.get("BIND_HOST") or "")
    if bind and bind not in ("0.0.0.0", "::"):
        allowed.add(bind.lower())
    elif bind:
        allowed.update(app.extensions.get("own_addresses", set()))
    public = app.config.get("PUBLIC_URL")
    if public:
        name = urlsplit(str(public)).hostname
        if name:
            allowed.add(name.lower())
    return allowed


def _check_host() -> Response | None:
    name = host_name(request.host)
    if name in LOOPBACK or name in allowed_hosts(current_app):  # loopback is always allowed: no set to build
        return None
    from web.limits import refuse

    log.warning("refused a request for an unknown host name (%d characters)", len(name))
    return refuse("host", 421, "this address is not one the table companion answers to")


def init_app(app: Flask, extra: Iterable[str] = ()) -> None:
    if app.config.get("BIND_HOST") in ("0.0.0.0", "::"):
        app.extensions["own_addresses"] = own_addresses()
    app.before_request(_check_host)
