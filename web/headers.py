"""The security headers every page of ours carries (the table's pages and the venue's)."""

from __future__ import annotations

from typing import Any


def add_security_headers(response: Any, form_action: str) -> Any:
    """No sniffing, no framing, our own scripts and styles only (CSP), same-origin referrers.

    ``form_action``: where forms may post ("'self'" where there are forms, "'none'" where not).
    "same-origin" referrers: our own form posts carry a real Origin (with "no-referrer" Chromium sends
    "null")."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; "
        f"frame-ancestors 'none'; form-action {form_action}; base-uri 'none'",
    )
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response
