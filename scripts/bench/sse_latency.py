#!/usr/bin/env python3
"""Latency of `coffer serve`'s history stream (Server-Sent Events) from a commit in another process to its event.

Usage:
  sse_latency.py --url http://127.0.0.1:PORT --token TOKEN --store S --coffer PATH --kind accounts --account 7890 [--commits 30]
  sse_latency.py --url ... --token ... --store S --coffer PATH --kind transactions --files A.ofx B.ofx ...
  sse_latency.py --url ... --token ... --print-token transactions

Takes a caught-up token of the stream (GET /v1/history/KIND pages until hasMore is false), opens
GET /v1/history/KIND/stream?since=TOKEN, then commits one change at a time in a child process: for `accounts`,
`coffer accounts rename ACCOUNT bench-sse-I`; for `transactions`, `coffer import` of the next file (a few new
transactions each). Two instants are taken for each change:

- the commit: a thread polls the change log's last sequence number (sqlite_sequence) on its own read-only
  connection to the store every 0.5 ms, and the first new value after the child starts is the commit (the
  transaction that logged the change; `coffer-bench monitor` takes the first `PRAGMA data_version` change instead,
  which here would be one of the child's earlier commits);
- the event: the first `changes` event after the child starts has been read whole from the socket.

It prints `sse.KIND.KEY value` lines (what scripts/bench.sh records): commit → event median, p90 and max in ms,
and child start → event (process start, the commit, and delivery: what a person running the command sees).
The child's exit is not a usable start: the event often arrives before the child has exited.
Standard library only. Everything goes to the --url given (loopback), and every wait is bounded.
"""
import argparse
import http.client
import json
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

EVENT_TIMEOUT_S = 10


def connect(url):
    u = urllib.parse.urlsplit(url)
    if u.scheme != "http" or u.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit(f"sse_latency.py: --url must be http on loopback, not {url}")
    return http.client.HTTPConnection(u.hostname, u.port, timeout=EVENT_TIMEOUT_S)


def caught_up_token(url, token, kind):
    """Pages through GET /v1/history/KIND (5,000 changes a page) until nothing follows; returns the last newToken."""
    conn = connect(url)
    since = None
    for _ in range(10_000):
        query = {"limit": "5000"}
        if since:
            query["since"] = since
        conn.request("GET", f"/v1/history/{kind}?{urllib.parse.urlencode(query)}", headers={"Authorization": f"Bearer {token}"})
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            sys.exit(f"sse_latency.py: GET /v1/history/{kind}: {response.status} {body[:300]!r}")
        page = json.loads(body)
        since = page["newToken"]
        if not page["hasMore"]:
            conn.close()
            return since
    sys.exit("sse_latency.py: the history did not end within 10,000 pages")


class CommitWatch(threading.Thread):
    """Polls the change log's last sequence number (sqlite_sequence, written in the transaction that logs a change)
    on its own read-only connection; `changes` holds the monotonic instant of each new value it sees. (A child
    `coffer` commits more than its change: `PRAGMA data_version` moves about three times per child.)"""

    SQL = "SELECT seq FROM sqlite_sequence WHERE name = 'change_log'"

    def __init__(self, store):
        super().__init__(daemon=True)
        self.db = sqlite3.connect(f"file:{store}?mode=ro", uri=True, check_same_thread=False)
        self.changes = []
        self.stop = threading.Event()

    def run(self):
        last = self.db.execute(self.SQL).fetchone()
        while not self.stop.is_set():
            seq = self.db.execute(self.SQL).fetchone()
            if seq != last:
                self.changes.append(time.monotonic_ns())
                last = seq
            time.sleep(0.0005)


class EventStream:
    """GET /v1/history/KIND/stream?since=TOKEN, read one whole event at a time (comments and heartbeats skipped)."""

    def __init__(self, url, token, kind, since):
        self.conn = connect(url)
        self.conn.request("GET", f"/v1/history/{kind}/stream?{urllib.parse.urlencode({'since': since})}",
                          headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        if self.response.status != 200:
            sys.exit(f"sse_latency.py: GET /v1/history/{kind}/stream: {self.response.status} {self.response.read()[:300]!r}")
        self.buffer = b""

    def next_event(self):
        """(event name, data, monotonic instant it was complete); raises TimeoutError after EVENT_TIMEOUT_S."""
        while True:
            end = self.buffer.find(b"\n\n")
            if end >= 0:
                block, self.buffer = self.buffer[:end], self.buffer[end + 2:]
                fields = {}
                for line in block.decode().split("\n"):
                    if not line or line.startswith(":"):
                        continue
                    name, _, value = line.partition(":")
                    fields[name] = fields.get(name, "") + value.removeprefix(" ")
                if "data" in fields:
                    return fields.get("event", "message"), fields["data"], time.monotonic_ns()
                continue
            chunk = self.response.read1(65536)
            if not chunk:
                raise EOFError("the stream ended")
            self.buffer += chunk


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", required=True)
    p.add_argument("--token", required=True, help="the client's bearer token")
    p.add_argument("--print-token", metavar="KIND", help="print a caught-up history token of KIND and exit")
    p.add_argument("--kind", choices=["accounts", "transactions"], default="accounts")
    p.add_argument("--store")
    p.add_argument("--coffer", help="the coffer binary that commits the changes")
    p.add_argument("--account", help="accounts: the account to rename (as `coffer accounts rename` takes it)")
    p.add_argument("--commits", type=int, default=30, help="accounts: how many renames")
    p.add_argument("--files", nargs="*", default=[], help="transactions: one statement file to import per commit")
    a = p.parse_args()
    if a.print_token:
        print(caught_up_token(a.url, a.token, a.print_token))
        return
    if not (a.store and a.coffer):
        sys.exit("sse_latency.py: --store and --coffer are needed")
    if a.kind == "accounts":
        if not a.account:
            sys.exit("sse_latency.py: --kind accounts needs --account")
        children = [([a.coffer, "accounts", "rename", "--store", a.store, a.account, f"bench-sse-{i}"], f"bench-sse-{i}")
                    for i in range(a.commits)]
    else:
        children = [([a.coffer, "import", "--store", a.store, f], None) for f in a.files]
    if not children:
        sys.exit("sse_latency.py: nothing to commit")

    since = caught_up_token(a.url, a.token, a.kind)
    stream = EventStream(a.url, a.token, a.kind, since)
    watch = CommitWatch(a.store)
    watch.start()
    time.sleep(0.2)
    commit_ms, start_ms = [], []
    try:
        for argv, marker in children:
            seen = len(watch.changes)
            started = time.monotonic_ns()
            child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            kind, data, arrived = stream.next_event()
            if kind != "changes":
                sys.exit(f"sse_latency.py: a {kind} event instead of changes: {data[:300]}")
            if marker and marker not in data:
                sys.exit(f"sse_latency.py: the event after `{' '.join(argv[1:3])}` does not carry {marker}: {data[:300]}")
            _, err = child.communicate(timeout=EVENT_TIMEOUT_S)
            if child.returncode != 0:
                sys.exit(f"sse_latency.py: {' '.join(argv)} exited {child.returncode}: {err.decode()[-300:]}")
            time.sleep(0.01)  # the poller's last look at this child's commits
            commits = [t for t in watch.changes[seen:] if t >= started]
            start_ms.append((arrived - started) / 1e6)
            if commits and commits[0] <= arrived:
                commit_ms.append((arrived - commits[0]) / 1e6)
            # The next commit at another phase of the server's poll (and out of this one's wake-up).
            time.sleep(0.05 + (len(start_ms) * 37 % 100) / 1000)
    finally:
        watch.stop.set()
    k = f"sse.{a.kind}"
    print(f"{k}.samples {len(commit_ms)}")
    if commit_ms:
        print(f"{k}.median_ms {statistics.median(commit_ms):.2f}")
        print(f"{k}.p90_ms {percentile(commit_ms, 90):.2f}")
        print(f"{k}.max_ms {max(commit_ms):.2f}")
    print(f"{k}.start_median_ms {statistics.median(start_ms):.2f}")
    print(f"{k}.start_p90_ms {percentile(start_ms, 90):.2f}")


if __name__ == "__main__":
    main()
