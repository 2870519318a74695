"""docs/api.md runs: every curl example in it is sent to the app, in order, on one session,
and the reply must be the one the document shows (status and JSON).

The document's rules for a reply, which this file applies: fields whose value is null or
empty are left out of the JSON shown, at every depth; a value written "…" stands for one
that differs each time (the session's token, a time). Everything else must be equal.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from werkzeug.datastructures import MultiDict

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
#: A request (a ```sh block holding one curl command) and the reply shown after it.
EXAMPLE = re.compile(r"```sh\n(?P<request>curl .+?)\n```\s*\n```http\n(?P<reply>.+?)\n```",
                     re.DOTALL)
ANY = "…"


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    data: list[tuple[str, str]]


@dataclass
class Example:
    request: Request
    status: int
    body: Any
    line: int
    command: str


def parse_curl(command: str) -> Request:
    """The request a curl command sends (the options the document uses)."""
    words = shlex.split(command.replace("\\\n", " "))
    assert words[0] == "curl", command
    method, headers, data, url, as_query = "", {}, [], "", False
    i = 1
    while i < len(words):
        word = words[i]
        if word in ("-s", "--silent"):
            pass
        elif word in ("-b", "-c", "--cookie", "--cookie-jar"):
            i += 1  # the test client keeps the session's cookie itself
        elif word in ("-H", "--header"):
            i += 1
            name, _, value = words[i].partition(":")
            headers[name.strip()] = value.strip()
        elif word in ("-d", "--data", "--data-urlencode"):
            i += 1
            name, _, value = words[i].partition("=")
            data.append((name, value))
        elif word in ("-X", "--request"):
            i += 1
            method = words[i]
        elif word in ("-G", "--get"):
            as_query = True
        elif word.startswith("http"):
            url = word
        else:
            raise AssertionError(f"curl option {word!r} is not one the document may use")
        i += 1
    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    if as_query and data:
        path += ("&" if "?" in path else "?") + urlencode(data)
        data = []
    return Request(method or ("POST" if data else "GET"), path, headers, data)


def parse_reply(text: str) -> tuple[int, Any]:
    """The status and JSON body of a reply written as HTTP."""
    head, _, body = text.partition("\n\n")
    status = int(head.splitlines()[0].split()[1])
    return status, json.loads(body)


def examples(text: str) -> list[Example]:
    """Every example in the document, in order."""
    found = []
    for match in EXAMPLE.finditer(text):
        status, body = parse_reply(match["reply"])
        found.append(Example(parse_curl(match["request"]), status, body,
                             text[:match.start()].count("\n") + 1, match["request"]))
    return found


def pruned(value: Any) -> Any:
    """The value as the document shows it: null and empty fields left out, at every depth."""
    if isinstance(value, dict):
        return {k: pruned(v) for k, v in value.items() if v not in (None, [], {}, "")}
    if isinstance(value, list):
        return [pruned(v) for v in value]
    return value


def matches(shown: Any, actual: Any) -> bool:
    """Whether a reply is the one shown ("…" matches any one value)."""
    if shown == ANY:
        return True
    if isinstance(shown, dict):
        return (isinstance(actual, dict) and shown.keys() == actual.keys()
                and all(matches(shown[k], actual[k]) for k in shown))
    if isinstance(shown, list):
        return (isinstance(actual, list) and len(shown) == len(actual)
                and all(matches(s, a) for s, a in zip(shown, actual, strict=True)))
    return bool(shown == actual)


def send(client: Any, request: Request, token: str | None) -> Any:
    """Send a request with the test client, the session's token in for ``$TOKEN``."""
    headers = {k: (v.replace("$TOKEN", token) if token else v)
               for k, v in request.headers.items()}
    return client.open(request.path, method=request.method, headers=headers,
                       data=MultiDict(request.data) if request.data else None,
                       base_url="http://localhost:5000")


#: Before the examples: what the document says the app holds (its first game).
GAME = ["Ann", "Bea", "Cy", "Dan"]


def test_every_curl_in_the_document_is_an_example_with_its_reply():
    text = DOC.read_text()
    assert len(re.findall(r"```sh\ncurl ", text)) == len(examples(text))


def test_the_document_has_an_example_per_check():
    from companion.referee_forms import CHECKS

    sent = [e.request for e in examples(DOC.read_text())]
    posted = {r.path.split("?")[0] for r in sent if r.method == "POST"}
    assert {f"/referee/{c.slug}" for c in CHECKS} <= posted
    assert "/referee/replay" in posted
    assert any(r.path.startswith("/referee/replay?p=") for r in sent)


def test_every_example_in_the_api_document_answers_as_shown(table):
    assert table.create_game(GAME) == 1
    token: str | None = None
    found = examples(DOC.read_text())
    assert len(found) >= 15
    for example in found:
        reply = send(table.client, example.request, token)
        where = f"docs/api.md line {example.line}: {example.command}"
        assert reply.status_code == example.status, (where, reply.get_data(as_text=True)[:500])
        assert reply.is_json, where
        body = reply.get_json()
        token = token or body.get("csrf_token")
        assert matches(example.body, pruned(body)), (
            f"{where}\n--- the app answers:\n{json.dumps(pruned(body), indent=2)}")


@pytest.mark.parametrize("shown, actual, same", [
    ({"a": 1}, {"a": 1}, True), ({"a": ANY}, {"a": "x"}, True), ({"a": 1}, {"a": 2}, False),
    ({"a": 1}, {"a": 1, "b": 2}, False), ([1, 2], [1], False), ([ANY], ["y"], True),
])
def test_matching_is_strict_but_for_the_wildcard(shown, actual, same):
    assert matches(shown, actual) is same


def test_empty_fields_are_left_out():
    assert pruned({"a": None, "b": [], "c": {"d": None, "e": 0, "f": False}, "g": [{"h": ""}]}) \
        == {"c": {"e": 0, "f": False}, "g": [{}]}
