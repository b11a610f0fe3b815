"""A small HTTP client with cookies (urllib), for talking to the real server like a browser does."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass


@dataclass
class Answer:
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self) -> object:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


class Browser:
    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect())

    def request(self, method: str, path: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> Answer:
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        try:
            with self.opener.open(req, timeout=10) as resp:
                return Answer(resp.status, resp.read(), dict(resp.headers))
        except urllib.error.HTTPError as err:
            return Answer(err.code, err.read(), dict(err.headers))

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def csrf(self) -> str:
        data = self.get("/api/whoami").json()
        assert isinstance(data, dict)
        return str(data["csrf"])

    def post_form(self, path: str, fields: dict[str, str]) -> Answer:
        body = urllib.parse.urlencode(fields).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def post_json(self, path: str, obj: object, csrf: str | None = None, extra: dict[str, str] | None = None) -> Answer:
        headers = {"Content-Type": "application/json", **(extra or {})}
        if csrf is not None:
            headers["X-CSRF-Token"] = csrf
        return self.request("POST", path, json.dumps(obj).encode(), headers)

    def login(self, pin: str) -> Answer:
        return self.post_form("/referee/login", {"pin": pin, "csrf": self.csrf()})


def player_links(console_html: str) -> dict[str, str]:
    return dict(re.findall(r"<strong>(\w+)</strong> <a href=\"(/p/\w+/\w+)\">", console_html))
