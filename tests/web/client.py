"""A small HTTP client with cookies (urllib), for talking to the real server like a browser does."""

from __future__ import annotations

import http.client
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


class Client:
    """A browser on another address of the table's network (127.0.0.N: Linux routes all of 127/8 to lo)."""

    def __init__(self, port: int, source: str = "127.0.0.1", host: str | None = None) -> None:
        self.port = port
        self.source = source
        self.host = host or f"127.0.0.1:{port}"
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(self.source, 0))
        sent = {"Host": self.host, **(headers or {})}
        if self.cookie:
            sent["Cookie"] = self.cookie
        conn.request(method, path, body=body, headers=sent)
        resp = conn.getresponse()
        data = resp.read()
        got = dict(resp.getheaders())
        conn.close()
        if "Set-Cookie" in got:
            self.cookie = got["Set-Cookie"].split(";", 1)[0]
        return resp.status, got, data

    def login(self, pin: str) -> int:
        status, _, body = self.request("GET", "/api/whoami")
        if status != 200:
            return status
        csrf = json.loads(body)["csrf"]
        form = f"pin={pin}&csrf={csrf}".encode()
        status, _, _ = self.request("POST", "/referee/login", form, {"Content-Type": "application/x-www-form-urlencoded"})
        return status
