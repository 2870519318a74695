"""The referee's JSON API as documented runs: docs/api.md (the guide) and the reference
examples beside it (docs/api/examples/) are sent to the app, and the replies compared.

Both sets run the same way: their requests in order, on one session, against an app
whose first game (``game=1``) is a classic game for Ann, Bea, Cy and Dan; the first reply
that carries the session's CSRF token gives it, and ``$TOKEN`` in a header stands for it.

- **Reference examples**: ``NN-name.request.json`` (method, path, headers, and the
  ``query`` or ``form`` fields, a list for a repeated field) and ``NN-name.reply.json``
  (``status`` and ``body``), run in the order of NN. The reply must be the app's whole
  reply: the same status, and JSON equal at every depth (every key, null and empty ones
  included), but that a value written "…" matches any one value (the token, a time).
- **The guide's examples**: an ```http block holding a request (``METHOD /path``, then
  the form body on one line), a blank line, and its reply (the status line, then the
  JSON cut down). The status must be the app's, and every value shown must be the app's:
  an object may leave keys out at any depth, a list may end in "…" for items left out,
  and "…" in place of a value matches any one value. Every curl command in the guide's
  ```sh blocks is sent too, and must be answered with JSON.

When the app's replies change on purpose, ``python tests/app/test_api_doc.py [NN-name...]``
writes the reference replies afresh from the app (all, or those named), keeping "…" where
a file had it; read the diff before committing it.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from werkzeug.datastructures import MultiDict

DOCS = Path(__file__).resolve().parents[2] / "docs"
GUIDE = DOCS / "api.md"
EXAMPLES = DOCS / "api" / "examples"
ANY = "…"
#: Before the examples: what the documents say the app holds (its first game).
GAME = ["Ann", "Bea", "Cy", "Dan"]
#: The headers every guide example sends (the guide says so once, not in each example).
GUIDE_HEADERS = {"Accept": "application/json", "X-CSRF-Token": "$TOKEN"}

#: A guide example: the request, a blank line, the reply, in one block.
GUIDE_EXAMPLE = re.compile(
    r"```http\n(?P<method>GET|POST) (?P<path>\S+)\n(?:(?P<body>[^\n]+)\n)?\n"
    r"HTTP/1\.1 (?P<status>\d{3})[^\n]*\n(?P<reply>.+?)\n```", re.DOTALL)
#: A shell block of the guide.
SHELL = re.compile(r"```sh\n(?P<commands>.+?)\n```", re.DOTALL)


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    query: list[tuple[str, str]] = field(default_factory=list)
    form: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Example:
    name: str
    request: Request
    status: int
    body: Any


# -- reading the examples -----------------------------------------------------------------------


def pairs(fields: dict[str, str | list[str]]) -> list[tuple[str, str]]:
    """A reference request's fields as sent (a list is a field repeated)."""
    return [(name, item) for name, value in fields.items()
            for item in (value if isinstance(value, list) else [value])]


def reference_examples() -> list[Example]:
    """The reference examples, in order."""
    found = []
    for path in sorted(EXAMPLES.glob("*.request.json")):
        name = path.name.removesuffix(".request.json")
        request, reply = json.loads(path.read_text()), json.loads(
            (EXAMPLES / f"{name}.reply.json").read_text())
        assert set(request) <= {"method", "path", "headers", "query", "form"}, name
        assert set(reply) == {"status", "body"}, name
        found.append(Example(name, Request(request["method"], request["path"],
                                           request.get("headers", {}),
                                           pairs(request.get("query", {})),
                                           pairs(request.get("form", {}))),
                             reply["status"], reply["body"]))
    return found


def guide_examples(text: str) -> list[Example]:
    """The guide's examples, in order (named by their line)."""
    found = []
    for match in GUIDE_EXAMPLE.finditer(text):
        parts = urlsplit(match["path"])
        line = text[:match.start()].count("\n") + 1
        found.append(Example(
            f"docs/api.md line {line}",
            Request(match["method"], parts.path, dict(GUIDE_HEADERS),
                    parse_qsl(parts.query, keep_blank_values=True),
                    parse_qsl(match["body"] or "", keep_blank_values=True)),
            int(match["status"]), json.loads(match["reply"])))
    return found


def parse_curl(command: str) -> Request:
    """The request a curl command sends (the options the guide uses)."""
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
            raise AssertionError(f"curl option {word!r} is not one the guide may use")
        i += 1
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if as_query:
        query, data = query + data, []
    return Request(method or ("POST" if data else "GET"), parts.path, headers, query, data)


def curl_commands(text: str) -> list[str]:
    """The curl commands in the guide's shell blocks (a command ends at a line without a
    trailing backslash); those inside ``$(...)`` are part of another command."""
    commands = []
    for block in SHELL.finditer(text):
        for command in re.split(r"(?<!\\)\n", block["commands"]):
            if command.startswith("curl "):
                commands.append(command)
    return commands


# -- comparing replies ----------------------------------------------------------------------------


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


def within(shown: Any, actual: Any) -> bool:
    """Whether a cut-down reply holds only what the reply holds: keys left out at any
    depth, items left out at a list's end where it ends in "…"."""
    if shown == ANY:
        return True
    if isinstance(shown, dict):
        return (isinstance(actual, dict) and shown.keys() <= actual.keys()
                and all(within(shown[k], actual[k]) for k in shown))
    if isinstance(shown, list):
        if not isinstance(actual, list):
            return False
        more = bool(shown) and shown[-1] == ANY
        head = shown[:-1] if more else shown
        return ((len(head) <= len(actual)) if more else len(head) == len(actual)) and all(
            within(s, a) for s, a in zip(head, actual, strict=False))
    return bool(shown == actual)


# -- sending --------------------------------------------------------------------------------------


def send(client: Any, request: Request, token: str | None) -> Any:
    """Send a request with the test client, the session's token in for ``$TOKEN``."""
    headers = {k: (v.replace("$TOKEN", token) if token else v)
               for k, v in request.headers.items()}
    return client.open(request.path, method=request.method, headers=headers,
                       query_string=MultiDict(request.query),
                       data=MultiDict(request.form) if request.form else None,
                       base_url="http://localhost:5000")


def run(client: Any, found: list[Example], compare: Any) -> list[str]:
    """Send the examples in order; what went wrong with each that did not answer as shown."""
    token: str | None = None
    problems = []
    for example in found:
        reply = send(client, example.request, token)
        if not reply.is_json:
            problems.append(f"{example.name}: {reply.status_code} {reply.content_type}, "
                            f"not JSON: {reply.get_data(as_text=True)[:200]}")
            continue
        body = reply.get_json()
        token = token or body.get("csrf_token")
        if reply.status_code != example.status or not compare(example.body, body):
            problems.append(f"{example.name}: the app answers {reply.status_code}\n"
                            f"{json.dumps(body, indent=2, ensure_ascii=False)}")
    return problems


# -- the reference examples -----------------------------------------------------------------------


def test_each_reference_request_has_its_reply_and_nothing_else_is_there():
    names = {p.name for p in EXAMPLES.iterdir()}
    requests = {n.removesuffix(".request.json") for n in names if n.endswith(".request.json")}
    replies = {n.removesuffix(".reply.json") for n in names if n.endswith(".reply.json")}
    assert requests == replies
    assert names == {f"{n}.{kind}.json" for n in requests for kind in ("request", "reply")}
    assert all(re.fullmatch(r"\d\d-[a-z0-9-]+", n) for n in requests), sorted(requests)


def test_the_reference_has_an_example_per_check():
    from companion.referee_checks import CHECKS

    sent = [e.request for e in reference_examples()]
    posted = {r.path for r in sent if r.method == "POST"}
    assert {f"/referee/{c.slug}" for c in CHECKS} <= posted
    assert "/referee/replay" in posted
    assert any(r.path == "/referee/replay" and r.method == "GET"
               and any(k == "p" for k, _ in r.query) for r in sent)


def test_every_reference_example_answers_as_its_reply_file_shows(table):
    assert table.create_game(GAME) == 1
    found = reference_examples()
    assert len(found) >= 15
    problems = run(table.client, found, matches)
    assert not problems, "\n\n".join(problems)


# -- the guide ------------------------------------------------------------------------------------


def test_every_request_in_the_guide_is_an_example_with_its_reply():
    text = GUIDE.read_text()
    blocks = re.findall(r"```http\n", text)
    assert len(blocks) == len(guide_examples(text))


def test_the_guide_has_a_short_example_per_check():
    from companion.referee_checks import CHECKS

    sent = [e.request for e in guide_examples(GUIDE.read_text())]
    posted = {r.path for r in sent if r.method == "POST"}
    assert {f"/referee/{c.slug}" for c in CHECKS} <= posted
    assert "/referee/replay" in posted


def test_every_example_in_the_guide_answers_as_shown(table):
    assert table.create_game(GAME) == 1
    found = guide_examples(GUIDE.read_text())
    assert len(found) >= 12
    problems = run(table.client, found, within)
    assert not problems, "\n\n".join(problems)


def test_every_curl_in_the_guide_is_answered_with_json(table):
    commands = curl_commands(GUIDE.read_text())
    assert commands
    token: str | None = None
    for command in commands:
        reply = send(table.client, parse_curl(command), token)
        assert reply.status_code == 200 and reply.is_json, (command, reply.status_code)
        token = token or reply.get_json().get("csrf_token")


def test_the_guide_points_at_the_reference_examples():
    text = GUIDE.read_text()
    assert "api/examples/" in text
    for name in re.findall(r"api/examples/([\w-]+)\.(?:request|reply)\.json", text):
        assert (EXAMPLES / f"{name}.request.json").is_file(), name


# -- the comparisons themselves -------------------------------------------------------------------


@pytest.mark.parametrize("shown, actual, same", [
    ({"a": 1}, {"a": 1}, True), ({"a": ANY}, {"a": "x"}, True), ({"a": 1}, {"a": 2}, False),
    ({"a": 1}, {"a": 1, "b": 2}, False), ([1, 2], [1], False), ([ANY], ["y"], True),
    ({"a": None}, {}, False), ({"a": []}, {"a": None}, False),
])
def test_matching_is_strict_but_for_the_wildcard(shown, actual, same):
    assert matches(shown, actual) is same


@pytest.mark.parametrize("shown, actual, held", [
    ({"a": 1}, {"a": 1, "b": 2}, True), ({"a": 1}, {"a": 2}, False), ({"c": 1}, {"a": 1}, False),
    ({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}}, True), ([1, 2], [1, 2], True),
    ([1], [1, 2], False), ([1, ANY], [1, 2, 3], True), ([1, 2, ANY], [1], False),
    ([{"k": "x"}, ANY], [{"k": "x", "t": "y"}], True), ({"a": ANY}, {"a": [1]}, True),
    ({"a": None}, {"a": None}, True), ({"a": None}, {}, False),
])
def test_a_cut_down_reply_leaves_out_but_never_changes(shown, actual, held):
    assert within(shown, actual) is held


def test_curl_commands_are_read_as_the_shell_sends_them():
    request = parse_curl("curl -s -b jar -G -H 'Accept: application/json' \\\n"
                         "  --data-urlencode 'p=a=b;c' http://localhost:5000/referee/replay")
    assert (request.method, request.path, request.query) == ("GET", "/referee/replay",
                                                             [("p", "a=b;c")])
    assert curl_commands("```sh\nX=$(curl -s a)\ncurl -s \\\n  b\n```") == ["curl -s \\\n  b"]


# -- writing the reference replies afresh ------------------------------------------------------


def keep_wildcards(old: Any, new: Any) -> Any:
    """``new``, but "…" wherever ``old`` has it (a value that differs each time)."""
    if old == ANY:
        return ANY
    if isinstance(old, dict) and isinstance(new, dict):
        return {k: keep_wildcards(old[k], v) if k in old else v for k, v in new.items()}
    if isinstance(old, list) and isinstance(new, list):
        return [keep_wildcards(o, n) for o, n in zip(old, new, strict=False)] + new[len(old):]
    return new


def rewrite_replies(names: set[str]) -> list[str]:
    """Send every reference example, as the test does, and write the replies of those named
    (all when none is) from the app's answers. Returns the names of the files changed."""
    import tempfile

    from conftest import TableActions

    from companion import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": f"{folder}/companion.sqlite3",
                          "SECRET_KEY": "rewrite"})
        client = app.test_client()
        assert TableActions(client).create_game(GAME) == 1
        token: str | None = None
        changed = []
        for example in reference_examples():
            reply = send(client, example.request, token)
            body = reply.get_json()
            token = token or (body or {}).get("csrf_token")
            if names and example.name not in names:
                continue
            path = EXAMPLES / f"{example.name}.reply.json"
            old = json.loads(path.read_text())
            # Keys sorted as the app sends them; "status" before "body", as written by hand.
            fresh = {"status": reply.status_code, "body": json.loads(
                json.dumps(keep_wildcards(old["body"], body), sort_keys=True))}
            if fresh != old:
                path.write_text(json.dumps(fresh, indent=2, ensure_ascii=False) + "\n")
                changed.append(example.name)
        return changed


if __name__ == "__main__":
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    for name in rewrite_replies(set(sys.argv[1:])):
        print("rewrote", name)
