"""The most a request can cost (issue 18, "Every request bounded"): the worst cases found,
each sent through Flask's test client, with the server CPU it took (time.process_time, the
median of --repeat) and the size of its answer. Every one should stay under about 50 ms
and 256 KB; tests/app/test_bounds.py asserts the sizes (never the times).

    python bench/bounds.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

# Run as a script, this folder comes first on sys.path, and bench/engine.py would
# shadow the engine package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from companion import create_app

NAMES = [f"{chr(65 + i)}{'x' * 38}{i}" for i in range(10)]
START = ("variant=classic;players=Ann,Bea;hands=red-7.wild/blue-3.green-5;discard=red-5;"
         "draw=yellow-1.yellow-2")


def cases(token: str) -> list[tuple[str, str, str, dict[str, Any], dict[str, str]]]:
    """(what, method, url, form, headers): the worst requests issue 18 found, and more."""
    json = {"Accept": "application/json"}
    droid = {"csrf_token": token, "variant": "star-wars", "seats": ", ".join(NAMES),
             "house": ["stacking", "jump_in"], "player": NAMES[0], "named": "red"}
    pizza = {"csrf_token": token, "variant": "pizza-pizza", "seats": ", ".join(NAMES[:5]),
             "house": ["stacking", "jump_in"], "turn": NAMES[0], "card": "wild-draw2",
             "color": "red"}
    return [
        ("droid, 10 unknown hands, JSON", "POST", "/referee/special/droid", droid, json),
        ("droid, 10 unknown hands, page", "POST", "/referee/special/droid", droid, {}),
        ("who's next, Wild Draw 2, 5 seats, JSON", "POST", "/referee/next", pizza, json),
        ("first card, 400 turned up, JSON", "POST", "/referee/first-card",
         {"csrf_token": token, "seats": ", ".join(NAMES), "dealer": NAMES[0],
          "cards": "wd4 " * 400 + "red-5"}, json),
        ("CSRF token 'é'", "POST", "/referee/next", {"csrf_token": "é"}, {}),
        ("replay naming seat 9", "GET",
         "/referee/replay?" + urlencode({"p": START + ";actions=catch_9_9"}), {}, {}),
        ("replay of 1,400 actions", "GET",
         "/referee/replay?" + urlencode({"p": START + ";actions=" + ",".join(["x"] * 1400)}),
         {}, {}),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # UNO_BENCH_SMOKE=1 (tests/test_bench.py): every request, each timed once.
    smoke = os.environ.get("UNO_BENCH_SMOKE") == "1"
    parser.add_argument("--repeat", type=int, default=1 if smoke else 5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": False, "SECRET_KEY": "bench",
                          "DATABASE": str(Path(folder) / "bench.sqlite3")})
        client = app.test_client()
        client.get("/referee")
        with client.session_transaction() as session:
            token = session["csrf_token"]
        print(f"{'request':42} {'status':>6} {'CPU ms':>8} {'KB':>9}")
        for what, method, url, form, headers in cases(token):
            times, size, status = [], 0, 0
            for _ in range(args.repeat + 1):  # the first also compiles the page's templates
                start = time.process_time()
                response = client.open(url, method=method, data=form, headers=headers)
                times.append(time.process_time() - start)
                size, status = len(response.get_data()), response.status_code
            print(f"{what:42} {status:>6} {statistics.median(times[1:]) * 1000:8.1f} "
                  f"{size / 1024:9.1f}")


if __name__ == "__main__":
    main()
