"""The security headers every page of ours carries (the table's pages and the venue's)."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def _headers(form_action: str) -> tuple[tuple[str, str, str], ...]:
    """(lower-case name, name, value) of each header, built once per ``form_action``."""
    csp = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
        f"frame-ancestors 'none'; form-action {form_action}; base-uri 'none'"
    )
    named = (
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("Content-Security-Policy", csp),
        ("X-Frame-Options", "DENY"),
    )
    return tuple((name.lower(), name, value) for name, value in named)


def add_security_headers(response: Any, form_action: str) -> Any:
    """No sniffing, no framing, our own scripts and styles only (CSP), same-origin referrers.

    ``form_action``: where forms may post ("'self'" where there are forms, "'none'" where not).
    "same-origin" referrers: our own form posts carry a real Origin (with "no-referrer" Chromium sends
    "null"). A header the response already has is kept (a page may set its own)."""
    headers = response.headers
    present = {name.lower() for name in headers.keys()}  # one pass over the headers, not one per header
    for lower, name, value in _headers(form_action):
        if lower not in present:
            headers.add(name, value)
    return response
