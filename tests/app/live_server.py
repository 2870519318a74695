"""Helpers for tests that talk to a real server over loopback HTTP, as several phones would.

- :func:`forms` reads the forms of a page the way a browser sees them, so that a test
  submits exactly what the app served (hidden fields included, whatever they are called)
  and never hard-codes a hidden field.
- :class:`Phone` is one browser: its own cookies (so its own session and CSRF token),
  plain ``http.client`` requests that do not follow redirects, and an optional
  :class:`threading.Barrier` to send a request at the same moment as another phone.
- :class:`ThreadServer` serves an app object in a thread of the test process;
  :class:`ServerProcess` runs the real ``uno-companion serve`` command in a subprocess
  that a test can kill with SIGKILL and start again on the same database.

Standard library only. Every socket, pipe and response is closed before it is dropped.
"""

from __future__ import annotations

import contextlib
import html
import http.client
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, Self

from werkzeug.serving import make_server

#: The repository the tests run from (``python -m companion.cli`` must import this copy).
ROOT = Path(__file__).resolve().parents[2]

#: How long any one request may take before the test gives up on it (a hang is a failure).
TIMEOUT = 30.0

#: Hidden fields that make a form good for one submission only (the one-time entry key).
ONE_TIME_FIELDS = ("submission", "entry")

#: What the card picker's fields for a hand are called: a count per card ("c-1-red-7"),
#: a list of cards per opponent ("cards-1"), or a typed total ("pts-1").
ENTRY_PREFIXES = ("c-", "cards-", "pts-")


# -- forms as a browser reads them -------------------------------------------------------


@dataclass
class Control:
    """One named form control."""

    name: str
    type: str
    value: str
    checked: bool = False
    tag: str = "input"


@dataclass
class Form:
    """A form of a served page, and what a browser would send from it."""

    action: str
    method: str
    attrs: dict[str, str]
    controls: list[Control] = field(default_factory=list)

    def hidden(self) -> list[tuple[str, str]]:
        """The hidden fields, in page order."""
        return [(c.name, c.value) for c in self.controls if c.type == "hidden"]

    def names(self) -> list[str]:
        """Names of the form's controls, in page order (repeats kept)."""
        return [c.name for c in self.controls]

    def fill(self, name: str, value: str) -> Form:
        """Type ``value`` in the field ``name`` (or check the radio button with that value)."""
        found = [c for c in self.controls if c.name == name]
        assert found, f"no field {name!r} in the form to {self.action}"
        if found[0].type == "radio":
            assert value in [c.value for c in found], f"no choice {value!r} for {name!r}"
            for c in found:
                c.checked = c.value == value
        elif found[0].type == "checkbox":
            for c in found:
                c.checked = bool(value)
        else:
            found[0].value = value
        return self

    def fill_all(self, name: str, values: Sequence[str]) -> Form:
        """Fill the repeated fields ``name`` in order with ``values``; the rest left blank."""
        found = [c for c in self.controls if c.name == name]
        assert len(found) >= len(values), f"only {len(found)} {name!r} fields"
        for control, value in zip(found, [*values, *[""] * (len(found) - len(values))]):
            control.value = value
        return self

    def clear(self, prefixes: Iterable[str]) -> Form:
        """Empty every visible field whose name starts with one of ``prefixes``."""
        prefixes = tuple(prefixes)
        for c in self.controls:
            if c.type != "hidden" and c.name.startswith(prefixes):
                c.value = ""
        return self

    def pairs(self, button: tuple[str, str] | None = None) -> list[tuple[str, str]]:
        """What the browser sends: every successful control, then the pressed button if named."""
        sent = []
        for c in self.controls:
            if c.type in ("submit", "button", "reset", "image", "file"):
                continue
            if c.type in ("checkbox", "radio") and not c.checked:
                continue
            sent.append((c.name, c.value))
        return [*sent, button] if button else sent


_ATTRS = r"""((?:[^>"']|"[^"]*"|'[^']*')*)"""
_FORM = re.compile(rf"<form\b{_ATTRS}>(.*?)</form\s*>", re.DOTALL | re.IGNORECASE)
_CONTROL = re.compile(
    rf"<(input|button|select|textarea|option)\b{_ATTRS}>|</(select|textarea|option)\s*>",
    re.DOTALL | re.IGNORECASE)
_ATTR = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")


def _attrs(source: str) -> dict[str, str]:
    found = {}
    for m in _ATTR.finditer(source):
        value = next((v for v in m.group(2, 3, 4) if v is not None), "")
        found[m.group(1).lower()] = html.unescape(value)
    return found


def _controls(body: str) -> list[Control]:
    """The named controls of a form's body, in order (a select resolved to its choice)."""
    controls: list[Control] = []
    select: Control | None = None
    chosen = seen = False
    option: tuple[dict[str, str], int] | None = None
    textarea: tuple[Control, int] | None = None
    for m in _CONTROL.finditer(body):
        tag, closing = (m.group(1) or "").lower(), (m.group(3) or "").lower()
        if option is not None and select is not None and (tag or closing):
            # An option ends at its end tag, or at the next option or end of the select.
            attrs, at = option
            text = html.unescape(re.sub(r"<[^>]*>", "", body[at:m.start()])).strip()
            value = attrs.get("value", text)
            if "selected" in attrs or not (chosen or seen):  # else the first one
                select.value, chosen = value, chosen or "selected" in attrs
            seen, option = True, None
        if closing == "textarea" and textarea is not None:
            control, at = textarea
            control.value = html.unescape(body[at:m.start()]).removeprefix("\n")
            textarea = None
        if closing == "select":
            select = None
        if not tag:
            continue
        a = _attrs(m.group(2))
        if tag == "option":
            option = (a, m.end())
        elif tag == "select":
            select = Control(a.get("name", ""), "select", "", tag="select")
            chosen = seen = False
            if a.get("name"):
                controls.append(select)
        elif tag == "textarea" and a.get("name"):
            textarea = (Control(a["name"], "textarea", "", tag="textarea"), m.end())
            controls.append(textarea[0])
        elif tag == "button" and a.get("name"):
            controls.append(Control(a["name"], "submit", a.get("value", ""), tag="button"))
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text").lower()
            value = a.get("value", "on" if kind in ("checkbox", "radio") else "")
            controls.append(Control(a["name"], kind, value, "checked" in a))
    return controls


def forms(page: str) -> list[Form]:
    """Every form of an HTML page (the app's own markup: no nested or unclosed forms)."""
    found = []
    for m in _FORM.finditer(page):
        attrs = _attrs(m.group(1))
        found.append(Form(attrs.get("action", ""), attrs.get("method", "get").lower(), attrs,
                          _controls(m.group(2))))
    return found


def find_form(page: str, *, action: str | None = None, form_id: str | None = None,
              method: str = "post") -> Form:
    """The one form of ``page`` with this id, or whose action matches the regex ``action``."""
    found = [f for f in forms(page) if f.method == method
             and (form_id is None or f.attrs.get("id") == form_id)
             and (action is None or re.fullmatch(action, f.action))]
    assert len(found) == 1, (f"expected one {method} form (id={form_id}, action={action}), "
                             f"found {[f.action for f in found]}")
    return found[0]


# -- a phone ---------------------------------------------------------------------------


@dataclass
class Reply:
    """A response, read in full (its connection already closed)."""

    method: str
    path: str
    status: int
    headers: dict[str, str]
    text: str

    @property
    def location(self) -> str:
        """Where a redirect points (path only)."""
        return urllib.parse.urlsplit(self.headers.get("location", "")).path

    def form(self, **kwargs: Any) -> Form:
        """The page's one form matching ``kwargs`` (see :func:`find_form`)."""
        return find_form(self.text, **kwargs)

    def get_data(self, as_text: bool = False) -> str | bytes:
        """The body, as a Werkzeug response gives it (so ``TableActions``' readers apply)."""
        return self.text if as_text else self.text.encode()

    def words(self) -> str:
        """The page's text, tags dropped (for messages in assertions)."""
        own = re.sub(r"<(style|script)\b[^>]*>.*?</\1>", " ", self.text, flags=re.DOTALL)
        return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", own)).split())[:600]


Fields = Mapping[str, str] | Sequence[tuple[str, str]]

#: A save form's action: a new hand, or an edit of one.
SAVE_ACTION = r"/games/\d+/hands(/\d+)?"


class Phone:
    """One browser on the table: its own cookies, requests over loopback, no redirects followed.

    Every reply is kept in :attr:`replies` (status and path), so that a test can check that
    nothing along the way was a server error.
    """

    def __init__(self, port: int, name: str = "phone"):
        self.port = port
        self.name = name
        self.cookies: dict[str, str] = {}
        self.replies: list[Reply] = []
        self._lock = threading.Lock()

    # -- requests --------------------------------------------------------------

    def request(self, method: str, path: str, fields: Fields | None = None,
                barrier: threading.Barrier | None = None,
                extra: Mapping[str, str] | None = None) -> Reply:
        """Send one request (with the ``extra`` headers) on a new connection; with
        ``barrier``, connect first, wait for the other parties, then send (so that two
        requests leave at the same moment)."""
        body = urllib.parse.urlencode(list(fields.items()) if isinstance(fields, Mapping)
                                      else list(fields or []))
        headers = {"Connection": "close", "Host": f"127.0.0.1:{self.port}", **(extra or {})}
        with self._lock:
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method == "POST":
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            conn.connect()
            if barrier is not None:
                barrier.wait(timeout=TIMEOUT)
            conn.request(method, path, body=body.encode() if method == "POST" else None,
                         headers=headers)
            response = conn.getresponse()
            try:
                text = response.read().decode("utf-8", "replace")
                reply = Reply(method, path, response.status,
                              {k.lower(): v for k, v in response.getheaders()}, text)
                self._keep_cookies(response.msg.get_all("Set-Cookie") or [])
            finally:
                response.close()
        finally:
            conn.close()
        with self._lock:
            self.replies.append(reply)
        return reply

    def _keep_cookies(self, headers: list[str]) -> None:
        with self._lock:
            for header in headers:
                cookie = SimpleCookie()
                cookie.load(header)
                for name, morsel in cookie.items():
                    expired = morsel["max-age"] == "0" or "1970" in morsel["expires"]
                    if expired or not morsel.value:
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value

    def get(self, path: str) -> Reply:
        """GET a page."""
        return self.request("GET", path)

    def post(self, path: str, fields: Fields, barrier: threading.Barrier | None = None) -> Reply:
        """POST a form's fields (taken from a served page: see :meth:`submit`)."""
        return self.request("POST", path, fields, barrier)

    def submit(self, form: Form, barrier: threading.Barrier | None = None,
               drop: Iterable[str] = (), button: tuple[str, str] | None = None) -> Reply:
        """Press a form's submit button: send what a browser sends, minus the fields ``drop``."""
        drop = set(drop)
        return self.post(form.action, [(k, v) for k, v in form.pairs(button) if k not in drop],
                         barrier)

    def server_errors(self) -> list[str]:
        """Every reply with a 5xx status, as "METHOD path status"."""
        with self._lock:
            return [f"{r.method} {r.path} {r.status}" for r in self.replies if r.status >= 500]

    # -- the table's steps, through the app's own pages -------------------------

    def new_game(self, players: Sequence[str] = ("Ann", "Bob", "Cy"),
                 variant: str = "classic", **fields: str) -> int:
        """Fill the new-game form as served (its hidden fields untouched), start the game."""
        page = self.get(f"/games/new?variant={variant}")
        assert page.status == 200, page.words()
        form = page.form(form_id="new-game").fill_all("player", list(players))
        for name, value in fields.items():
            form.fill(name, value)
        done = self.submit(form)
        assert done.status == 303, (done.status, done.words())
        return int(done.location.rsplit("/", 1)[1])

    def share_links(self, game_id: int) -> dict[str, str]:
        """The game's share links as this phone's share page shows them, by role: paths."""
        page = self.get(f"/games/{game_id}/share")
        assert page.status == 200, (page.status, page.words())
        found = re.findall(r'id="link-(\w+)"[^>]*>([^<]+)</textarea>', page.text)
        return {role: urllib.parse.urlsplit(html.unescape(url)).path for role, url in found}

    def join(self, other: Phone, game_id: int, role: str = "keeper") -> None:
        """Open the link ``other`` shares for ``game_id``: this phone then has that role."""
        opened = self.get(other.share_links(game_id)[role])
        assert opened.status == 200, (opened.status, opened.words())

    def picker(self, game_id: int, out: int, hand_id: int | None = None) -> Reply:
        """The card picker for a new hand (or an edit of ``hand_id``), ``out`` having gone out."""
        path = (f"/games/{game_id}/hands/{hand_id}/edit?out={out}" if hand_id
                else f"/games/{game_id}/hands/new?out={out}")
        return self.get(path)

    def review(self, picker: Reply, entry: Mapping[str, str]) -> Reply:
        """Fill the picker served (any earlier entry cleared) with ``entry`` and send it for
        review. ``entry`` is picker fields, as ``TableActions.hand_fields`` makes them."""
        assert picker.status == 200, (picker.status, picker.words())
        form = picker.form(form_id="hand-form").clear(ENTRY_PREFIXES)
        for name, value in entry.items():
            if name != "out":
                form.fill(name, value)
        return self.submit(form)

    @staticmethod
    def save_form(review: Reply) -> Form:
        """The Save form of a review page, as served."""
        assert review.status == 200, (review.status, review.words())
        return review.form(action=SAVE_ACTION)

    def record(self, game_id: int, entry: Mapping[str, str], hand_id: int | None = None) -> Reply:
        """Picker, review, save: one hand (or an edit) recorded as a phone would; the save's reply."""
        picker = self.picker(game_id, int(entry["out"]), hand_id)
        return self.submit(self.save_form(self.review(picker, entry)))


# -- running in parallel -----------------------------------------------------------------


def together(*jobs: Callable[[], Any]) -> list[Any]:
    """Run the jobs in threads at once; their results in order (a job's exception re-raised)."""
    results: list[Any] = [None] * len(jobs)
    errors: list[Exception] = []

    def run(i: int, job: Callable[[], Any]) -> None:
        try:
            results[i] = job()
        except Exception as exc:  # noqa: BLE001 - re-raised in the test's thread below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, job), daemon=True)
               for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=4 * TIMEOUT)
    assert not any(t.is_alive() for t in threads), "a request hung"
    if errors:
        raise errors[0]
    return results


# -- servers ---------------------------------------------------------------------------


class ThreadServer:
    """An app object served by Werkzeug's threaded server on a free port of 127.0.0.1.

    :attr:`errors` lists the exception of every request the app failed with (the cause
    of each 500), taken as it escapes the app, before the 500 is sent.
    """

    def __init__(self, app: Any):
        self.app = app
        self.errors: list[str] = []
        self.server = make_server("127.0.0.1", 0, self._serve, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={
            "poll_interval": 0.05}, daemon=True)

    def _serve(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        try:
            return self.app(environ, start_response)
        except Exception as exc:
            self.errors.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}: "
                               f"{type(exc).__module__}.{type(exc).__name__}: {exc}")
            raise

    def __enter__(self) -> Self:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(timeout=TIMEOUT)
        self.server.server_close()


def in_group(group: int) -> list[int]:
    """The processes of a process group still running (Linux's /proc; a zombie has let go
    of its files, so it does not count)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != "Z" and int(fields[2]) == group:
            found.append(int(entry.name))
    return found


class ServerProcess:
    """``python -m companion.cli serve`` on a free port, over one database file."""

    def __init__(self, db: Path, home: Path, secret: str, log: Path, args: Sequence[str] = (),
                 env: Mapping[str, str] | None = None):
        self.db, self.home, self.secret, self.log = db, home, secret, log
        self.args, self.env = list(args), dict(env or {})
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0

    def start(self) -> ServerProcess:
        """Start the server and wait until it says where it listens."""
        self.kill()  # one that stopped by itself: its pipe is closed
        env = {**os.environ, "UNO_COMPANION_SECRET_KEY": self.secret,
               "UNO_COMPANION_HOME": str(self.home), "PYTHONUNBUFFERED": "1", **self.env}
        env.pop("UNO_COMPANION_DB", None)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1",
                 "--port", "0", "--db", str(self.db), *self.args],
                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log,
                # A process group of its own: a kill reaches every worker, even one the
                # master forks at that very moment.
                start_new_session=True)
        assert self.process.stdout is not None
        out = b""
        deadline = time.monotonic() + TIMEOUT
        while not (found := re.search(rb"Open http://127\.0\.0\.1:(\d+)/", out)):
            assert self.process.poll() is None, f"the server stopped: {self.log_tail()}"
            assert time.monotonic() < deadline, f"the server did not start: {out!r}"
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 4096)
                assert chunk, f"the server closed its output: {self.log_tail()}"
                out += chunk
        self.port = int(found.group(1))
        return self

    def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup, as when a phone's battery dies (every process:
        the server's workers are its children)."""
        if self.process is None:
            return
        group = self.process.pid  # (the server leads its own process group)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)
        self.process.wait(timeout=TIMEOUT)
        # The workers are not ours to wait for; until each is gone it still holds the
        # files the master opened (the database, the serving lock).
        deadline = time.monotonic() + TIMEOUT
        while in_group(group) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.process.stdout is not None
        self.process.stdout.close()
        self.process = None

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Ask the server to stop (SIGTERM, or SIGINT as Ctrl+C sends); its exit status."""
        assert self.process is not None
        self.process.send_signal(sig)
        try:
            status = self.process.wait(timeout=TIMEOUT)
        finally:
            self.kill()
        return status

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's error log (Werkzeug's request lines and any traceback)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return text[-chars:]

    def tracebacks(self) -> list[str]:
        """The last line of every traceback the server logged (the error it died of)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        found = []
        for block in text.split("Traceback (most recent call last):")[1:]:
            lines = [ln for ln in block.splitlines() if ln.strip()]
            error = next((ln for ln in lines if not ln.startswith((" ", "\t"))), "?")
            found.append(error.strip())
        return found


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc; none found elsewhere)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]
