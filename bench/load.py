"""Live tables against the real ``uno-companion serve``: how many it holds at p99 under 50 ms.

Each table is four phones on loopback, each with its own cookies and one kept-alive
connection, as browsers have: a keeper that started the game through the served forms
and records a hand (picker, review, save, then the scoreboard it is sent to) every
``--hand-every`` seconds of simulated time, and three viewers that opened the viewer's
link and poll the scoreboard every 2 s with If-None-Match and htmx's headers, as the
page's poller does (``--speed`` compresses the simulated time between hands; the polls
stay every 2 s). The number of tables is stepped up until p99 passes 50 ms or a request
fails; the capacity is the most tables held. Then, in the same run:

- hands without pause: ``--writers`` keepers record hands back to back, each request sent
  when the last is answered (a closed loop: the most the server can take), then again with
  ``--tapping`` seconds before each request, as a person taps;
- cost: the server's CPU per request (its processes' CPU time read from /proc before and
  after) for a poll that changed nothing (304) and for the scoreboard it spares (200);
- baseline: a bare Flask endpoint served the same way (same server, same settings).

    python bench/load.py [--tables 100 200 400 700 1000 1400 2000] [--seconds 15]
                         [--speed 1] [--workers N] [--threads N]

The client is one asyncio loop (standard library only) in this process; it shares the
machine with the server, so its own CPU use is printed too. It stops by itself: every
step and phase is bounded in time, every request by a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The tests' reader of served forms (standard library), so the bench submits what a
# browser would. Run as a script, this folder must not shadow the engine package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT / "tests" / "app"))
from live_server import ENTRY_PREFIXES, SAVE_ACTION, Form, find_form

GOAL_MS = 50.0
POLL_EVERY = 2.0
TIMEOUT = 10.0
#: A kept-alive connection idle this long is replaced before use (the server drops it at 5).
IDLE_REUSE = 4.0
#: Tables being set up at once.
SETUP_AT_ONCE = 16


# -- one phone: cookies and a kept-alive connection -------------------------------------


class Failed(Exception):
    """A request that got no answer, or not the one expected."""


@dataclass
class Stats:
    """Latencies (ms) and errors by route, for one measured window."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    recording: bool = False

    def add(self, route: str, ms: float) -> None:
        if self.recording:
            self.times[route].append(ms)

    def fail(self, route: str) -> None:
        if self.recording:
            self.errors[route] += 1

    def count(self) -> int:
        return sum(len(t) for t in self.times.values()) + sum(self.errors.values())


class Phone:
    """A browser: its cookies and one connection, kept alive between requests."""

    def __init__(self, port: int, stats: Stats):
        self.port, self.stats = port, stats
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0
        #: Seconds this phone waits before each request (a person tapping), 0: none.
        self.pause = 0.0

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None

    async def request(self, route: str, method: str, path: str,
                      fields: list[tuple[str, str]] | None = None,
                      headers: dict[str, str] | None = None,
                      expect: tuple[int, ...] = (200,)) -> tuple[int, dict[str, str], str]:
        """One request, timed under ``route``; raises Failed on an unexpected answer."""
        if self.pause:
            await asyncio.sleep(self.pause)
        body = urllib.parse.urlencode(fields or []).encode() if method == "POST" else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method == "POST":
            head += ["Content-Type: application/x-www-form-urlencoded",
                     f"Content-Length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        data = ("\r\n".join(head) + "\r\n\r\n").encode() + body
        began = time.perf_counter()
        try:
            answer = await asyncio.wait_for(self._exchange(data), TIMEOUT)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
            await self.close()
            self.stats.fail(route)
            raise Failed(f"{route}: {exc!r}") from exc
        self.stats.add(route, (time.perf_counter() - began) * 1000)
        if answer[0] not in expect:
            self.stats.fail(route)
            raise Failed(f"{route}: status {answer[0]} for {method} {path}")
        return answer

    async def _exchange(self, data: bytes) -> tuple[int, dict[str, str], str]:
        for attempt in (1, 2):
            fresh = self.writer is None or time.monotonic() - self.used > IDLE_REUSE
            if fresh:
                await self.close()
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            assert self.reader is not None and self.writer is not None
            self.writer.write(data)
            try:
                await self.writer.drain()
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (OSError, asyncio.IncompleteReadError):
                # A kept-alive connection the server closed meanwhile: once more on a new
                # one, as browsers do. Nothing was answered, so nothing was done twice.
                await self.close()
                if fresh or attempt == 2:
                    raise
                continue
            break
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                name = name.strip().lower()
                if name == "set-cookie":
                    cookie = value.strip().split(";", 1)[0]
                    key, _, val = cookie.partition("=")
                    self.cookies[key] = val
                headers[name] = value.strip()
        length = int(headers.get("content-length", "0"))
        text = (await self.reader.readexactly(length)).decode() if length else ""
        self.used = time.monotonic()
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return status, headers, text


# -- a table -------------------------------------------------------------------------------


POLL_HEADERS = {"HX-Request": "true", "HX-Trigger": "live", "HX-Target": "live"}


@dataclass
class Table:
    keeper: Phone
    viewers: list[Phone]
    game: int = 0
    etags: list[str] = field(default_factory=list)
    marks: int = 0

    async def set_up(self) -> None:
        """Start a game through the forms; each viewer opens the viewer's link."""
        page = await self.keeper.request("setup", "GET", "/games/new?variant=classic")
        form = find_form(page[2], form_id="new-game").fill_all("player", ["Ann", "Bob", "Cy"])
        form.fill("target", "100000")  # never won: every hand is accepted
        done = await self.keeper.request("setup", "POST", form.action, form.pairs(),
                                         expect=(303,))
        self.game = int(urllib.parse.urlsplit(done[1]["location"]).path.rsplit("/", 1)[1])
        share = await self.keeper.request("setup", "GET", f"/games/{self.game}/share")
        links = dict(re.findall(r'id="link-(\w+)"[^>]*>([^<]+)</textarea>', share[2]))
        viewer_link = urllib.parse.urlsplit(html.unescape(links["viewer"])).path
        for viewer in self.viewers:
            # A share link answers with the game's page itself (no redirect).
            await viewer.request("setup", "GET", viewer_link, expect=(200,))
            page = await viewer.request("setup", "GET", f"/games/{self.game}")
            self.etags.append(page[1]["etag"])

    async def record_hand(self) -> None:
        """Picker, review, save and the scoreboard after it, as the keeper's phone does."""
        self.marks += 1
        picker = await self.keeper.request("picker", "GET", f"/games/{self.game}/hands/new?out=0")
        form = find_form(picker[2], form_id="hand-form").clear(ENTRY_PREFIXES)
        form.fill("pts-1", str(self.marks % 50 + 1)).fill("pts-2", "0")
        review = await self.keeper.request("review", "POST", form.action, form.pairs())
        save: Form = find_form(review[2], action=SAVE_ACTION)
        await self.keeper.request("save", "POST", save.action, save.pairs(), expect=(303,))
        await self.keeper.request("scoreboard", "GET", f"/games/{self.game}")

    async def poll(self, n: int) -> None:
        """Viewer ``n``'s poll: a 304, or the changed page and its new tag."""
        viewer = self.viewers[n]
        headers = {**POLL_HEADERS, "If-None-Match": self.etags[n]}
        status, got, _ = await viewer.request("poll", "GET", f"/games/{self.game}",
                                              headers=headers, expect=(200, 304))
        if status == 200:
            self.etags[n] = got["etag"]


async def every(period: float, phase: float, until: float, job) -> None:  # type: ignore[no-untyped-def]
    """Run ``job()`` every ``period`` seconds, starting after ``phase``, until ``until``."""
    tick = time.monotonic() + phase
    while tick < until:
        await asyncio.sleep(max(tick - time.monotonic(), 0))
        try:
            await job()
        except Failed:
            pass  # counted; the next tick tries again
        tick += period
        while tick < time.monotonic():  # a late answer skips ticks, as htmx's timer would
            tick += period


# -- the server processes and their CPU time ----------------------------------------------


def processes(pid: int) -> list[int]:
    """``pid`` and its children (Linux's /proc)."""
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        kids = []
    return [pid, *map(int, kids)]


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of the processes (0 where /proc is not there)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK") if total else 0.0


class Server:
    """``uno-companion serve`` (or the bare baseline) in a subprocess on a free port."""

    def __init__(self, argv: list[str], env: dict[str, str]):
        self.process = subprocess.Popen(argv, cwd=ROOT, env={**os.environ, **env},
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True)
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if found := re.search(r"Open http://127\.0\.0\.1:(\d+)/", line):
                self.port = int(found.group(1))
                break
        else:
            raise SystemExit(f"the server did not start: {argv}")
        time.sleep(0.5)  # the workers boot after the master prints

    def cpu(self) -> float:
        return cpu_seconds(processes(self.process.pid))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        assert self.process.stdout is not None
        self.process.stdout.close()


def serve_bare(workers: int | None, threads: int | None) -> None:
    """The baseline: one Flask view, served as `serve` serves the app."""
    from flask import Flask

    from companion import server

    app = Flask("bare")
    app.add_url_rule("/", "bare", lambda: "ok")
    sock = server.listen("127.0.0.1", 0)
    print(f"Open http://127.0.0.1:{sock.getsockname()[1]}/", flush=True)
    raise SystemExit(server.run(app, sock, server.settings(False, workers, threads)))


# -- measuring -----------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(label: str, stats: Stats, seconds: float, cpu: float, client_cpu: float) -> float:
    """Print a window's figures; its p99 over every route (ms)."""
    everything = [t for times in stats.times.values() for t in times]
    done = stats.count()
    p99 = pct(everything, 0.99)
    print(f"{label}: {done / seconds:,.0f} req/s, p99 {p99:.1f} ms, "
          f"errors {sum(stats.errors.values())}, server CPU {cpu / max(done, 1) * 1000:.2f} "
          f"ms/request ({cpu / seconds * 100:.0f}% of a core), client "
          f"{client_cpu / seconds * 100:.0f}% of a core")
    for route in sorted(stats.times):
        times = stats.times[route]
        print(f"    {route:<11} {len(times):>7} requests  p50 {pct(times, 0.5):6.1f}  "
              f"p95 {pct(times, 0.95):6.1f}  p99 {pct(times, 0.99):6.1f} ms  "
              f"errors {stats.errors.get(route, 0)}")
    return p99 if not stats.errors else float("inf")


async def window(server: Server, stats: Stats, seconds: float, jobs) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Run ``jobs(until)`` (a list of coroutines) for ``seconds``, measuring only after a
    settling second; the server's and this process's CPU seconds in the measured part."""
    start = time.monotonic()
    until = start + 1 + seconds
    tasks = [asyncio.ensure_future(job) for job in jobs(until)]
    await asyncio.sleep(1)
    stats.recording = True
    cpu0, mine0 = server.cpu(), time.process_time()
    await asyncio.sleep(seconds)
    stats.recording = False
    cpu, mine = server.cpu() - cpu0, time.process_time() - mine0
    await asyncio.gather(*tasks)
    return cpu, mine


async def capacity(server: Server, steps: list[int], seconds: float, hand_every: float
                   ) -> tuple[int, list[Table]]:
    """Step the number of live tables up; the most held at p99 under GOAL_MS, no errors."""
    stats = Stats()
    tables: list[Table] = []
    held = 0
    gate = asyncio.Semaphore(SETUP_AT_ONCE)

    async def new_table() -> Table:
        async with gate:
            table = Table(Phone(server.port, stats), [Phone(server.port, stats) for _ in range(3)])
            await table.set_up()
            return table

    for n in steps:
        began = time.monotonic()
        try:
            tables += await asyncio.gather(*(new_table() for _ in range(n - len(tables))))
        except Failed as exc:
            print(f"{n} tables: setting up failed ({exc})")
            break
        print(f"{n} tables set up in {time.monotonic() - began:.0f} s")
        stats.times.clear()
        stats.errors.clear()

        def jobs(until: float, tables: list[Table] = tables) -> list:  # type: ignore[type-arg]
            found = []
            for table in tables:
                found.append(every(hand_every, random.uniform(0, hand_every), until,
                                   table.record_hand))
                for v in range(3):
                    found.append(every(POLL_EVERY, random.uniform(0, POLL_EVERY), until,
                                       lambda t=table, v=v: t.poll(v)))
            return found

        cpu, mine = await window(server, stats, seconds, jobs)
        p99 = report(f"{n} tables", stats, seconds, cpu, mine)
        if p99 >= GOAL_MS:
            break
        held = n
    return held, tables


async def writers(server: Server, tables: list[Table], seconds: float, pause: float = 0.0
                  ) -> None:
    """Keepers recording hands back to back: each request as soon as the last is answered
    (``pause`` 0: a closed loop, the server's most), or ``pause`` seconds after it, as a
    person taps through the picker, the review and the save."""
    stats = Stats()
    for table in tables:
        table.keeper.stats = stats
        table.keeper.pause = pause

    async def nonstop(table: Table, until: float) -> None:
        await asyncio.sleep(random.uniform(0, pause))
        while time.monotonic() < until:
            try:
                await table.record_hand()
            except Failed:
                pass

    cpu, mine = await window(server, stats, seconds,
                             lambda until: [nonstop(t, until) for t in tables])
    how = "without pause" if not pause else f"a request every {pause:g} s after the last answer"
    report(f"{len(tables)} tables recording hands, {how}", stats, seconds, cpu, mine)
    for table in tables:
        table.keeper.pause = 0.0


async def cost(server: Server, route: str, phones: list[Phone], path: str,
               headers: list[dict[str, str]], count: int) -> float:
    """The server's CPU ms per request for ``count`` requests, a few at a time."""
    stats = Stats(recording=True)
    for phone in phones:
        phone.stats = stats
    cpu0 = server.cpu()
    for start in range(0, count, len(phones)):
        await asyncio.gather(*(
            phone.request(route, "GET", path.format(i=start + i), headers=headers[i],
                          expect=(200, 304)) for i, phone in enumerate(phones)))
    spent = (server.cpu() - cpu0) / count * 1000
    times = stats.times[route]
    print(f"    {route:<24} {spent:5.2f} ms CPU/request  p50 {pct(times, 0.5):5.1f}  "
          f"p99 {pct(times, 0.99):5.1f} ms")
    return spent


async def main(args: argparse.Namespace) -> None:
    extra = [*(["--workers", str(args.workers)] if args.workers else []),
             *(["--threads", str(args.threads)] if args.threads else [])]
    with tempfile.TemporaryDirectory(prefix="uno-load-") as folder:
        env = {"UNO_COMPANION_HOME": folder, "UNO_COMPANION_SECRET_KEY": "load-bench"}
        app = Server([sys.executable, "-m", "companion.cli", "serve", "--port", "0",
                      "--db", f"{folder}/load.sqlite3", *extra], env)
        bare = Server([sys.executable, __file__, "--serve-bare", *extra], env)
        try:
            print(f"Live tables: 3 viewers polling every {POLL_EVERY:.0f} s, a hand every "
                  f"{args.hand_every:.0f} s simulated ({args.hand_every / args.speed:.0f} s "
                  f"real); {args.seconds:.0f} s measured per step")
            held, tables = await capacity(app, args.tables, args.seconds,
                                          args.hand_every / args.speed)
            print(f"CAPACITY: {held} live tables at p99 under {GOAL_MS:.0f} ms, no errors")
            await writers(app, tables[:args.writers], args.seconds)
            await writers(app, tables[:args.writers], args.seconds, pause=args.tapping)

            print("Cost per request (server CPU, measured alone):")
            table = tables[0]
            viewers = [Phone(app.port, Stats()) for _ in range(8)]
            for phone in viewers:
                phone.cookies = dict(table.viewers[0].cookies)
            path = f"/games/{table.game}"
            # The page's tag now (hands were recorded since the viewers read theirs).
            _, got, _ = await viewers[0].request("tag", "GET", path)
            polls = [{**POLL_HEADERS, "If-None-Match": got["etag"]}] * len(viewers)
            unchanged = await cost(app, "poll, nothing changed", viewers, path, polls,
                                   args.cost_requests)
            page = await cost(app, "scoreboard", viewers, path, [{}] * len(viewers),
                              args.cost_requests)
            bare_phones = [Phone(bare.port, Stats()) for _ in range(8)]
            floor = await cost(bare, "bare Flask endpoint", bare_phones, "/",
                               [{}] * len(viewers), args.cost_requests)
            if page and floor:  # no /proc, no CPU figures
                print(f"    a 304 costs {unchanged / page:.0%} of the scoreboard's CPU "
                      f"(goal under 25%), {unchanged / floor:.1f}x the bare endpoint")
            for phone in [*viewers, *bare_phones, *(p for t in tables
                                                    for p in (t.keeper, *t.viewers))]:
                await phone.close()
        finally:
            app.stop()
            bare.stop()


def parse() -> argparse.Namespace:
    # UNO_BENCH_SMOKE=1 (tests/test_bench.py): every phase, with two steps of a hundredth
    # of the tables, one second long, a hand a second, 20 requests timed for each cost.
    smoke = os.environ.get("UNO_BENCH_SMOKE") == "1"
    steps = [100, 200, 400, 700, 1000, 1400, 2000]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+",
                        default=[steps[0] // 100, steps[-1] // 100] if smoke else steps)
    parser.add_argument("--seconds", type=float, default=1.0 if smoke else 15.0,
                        help="measured per step")
    parser.add_argument("--hand-every", type=float, default=180.0,
                        help="simulated seconds between a table's hands")
    parser.add_argument("--speed", type=float, default=180.0 if smoke else 1.0,
                        help="simulated seconds per real second (hands only)")
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--tapping", type=float, default=1.0,
                        help="seconds between a person's taps, for the writers' second run")
    parser.add_argument("--cost-requests", type=int, default=20 if smoke else 2000)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--serve-bare", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse()
    if arguments.serve_bare:
        serve_bare(arguments.workers, arguments.threads)
    # How busy the machine was: the figures are only as good as its idleness.
    print(f"uptime: {os.popen('uptime').read().strip()}; {os.cpu_count()} cores")
    asyncio.run(main(arguments))
