#!/usr/bin/env python3
"""Latency of `grundy serve`: /api/value on a small sum, and the time from
asking for a plot of 0.07 to 10^5 heaps until its summary is ready.

    cargo build --release -p grundy-cli && python3 bench/web-latency.py

Prints figures; asserts nothing (speed is measured here, never in tests).
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("GRUNDY_BIN", os.path.join(ROOT, "target", "release", "grundy"))


def processor():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def main():
    server = subprocess.Popen([BIN, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        base = line.split("serving ", 1)[1].split(" ", 1)[0].rstrip("/")
        call(base, "POST", "/api/value", {"sum": "nim 3 5 7"})  # warm up
        times = []
        for _ in range(500):
            start = time.perf_counter()
            call(base, "POST", "/api/value", {"sum": "sub:1,2,3 3 4 5 + nim 7"})
            times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(f"processor: {processor()}")
        print(f"POST /api/value 'sub:1,2,3 3 4 5 + nim 7', 500 requests: "
              f"median {statistics.median(times):.2f} ms, p95 {times[int(len(times) * 0.95)]:.2f} ms, "
              f"max {times[-1]:.2f} ms")
        firsts = []
        for _ in range(10):
            start = time.perf_counter()
            job = call(base, "POST", "/api/jobs", {"kind": "seq", "game": "0.07", "to": 100000, "columns": 800})
            while True:
                status = call(base, "GET", f"/api/jobs/{job['id']}")
                if status["state"] != "running":
                    break
                time.sleep(0.005)
            firsts.append((time.perf_counter() - start) * 1000)
        print(f"plot summary of 0.07 to 10^5 (job start to done, polled every 5 ms), 10 runs: "
              f"median {statistics.median(firsts):.1f} ms, max {max(firsts):.1f} ms")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
