#!/usr/bin/env python3
"""grundy in the browser against the native binary, side by side in one run.

    python3 bench/wasm.py [SITE]       (SITE: built by bash site/build.sh; default target/site)

Needs the native release binary (cargo build --release -p grundy-cli), Debian's
Chromium and Playwright (pip install playwright). Prints:
- the WebAssembly module's size, raw and gzipped (level 9);
- the time from a page load (a fresh browser context, nothing cached) to the
  first answer on the page, for the playground and for a guide example;
- native (on each instruction path this processor has: GRUNDY_SIMD=avx512,
  avx2, portable) against WebAssembly time on three cases. In the page the command runs
  in the page's own worker (engine.js's runCli), its output discarded as the
  native run's goes to /dev/null, once the worker's module has started
  (its start is measured apart). Best of three each.
"""
import gzip
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent
SITE = (pathlib.Path(sys.argv[1]) if len(sys.argv) > 1
        else pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target")) / "site")
BINARY = pathlib.Path(os.environ.get("GRUNDY_BIN", ROOT / "target" / "release" / "grundy"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CASES = [
    ("0.1777 to 10^6", ["seq", "0.1777", "--to", "1000000"]),
    ("Cram 5x6", ["value", "cram", "5x6"]),
    ("Kayles misère quotient to heap 20", ["quotient", "kayles", "--max-heap", "20"]),
]
RUNS = 3


def cpu():
    fields = {}
    for line in open("/proc/cpuinfo"):
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    return (f"{fields.get('model name')} (family {fields.get('cpu family')}, model {fields.get('model')}), "
            f"{os.cpu_count()} cores")


PATHS = ["avx512", "avx2", "portable"]


def native(args, path):
    """Best of RUNS, on the instruction path `path` (GRUNDY_SIMD)."""
    best = None
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([str(BINARY), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       env={**os.environ, "GRUNDY_SIMD": path})
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def main():
    wasm = SITE / "playground" / "grundy.wasm"
    raw = wasm.read_bytes()
    print(f"processor: {cpu()}")
    print(f"chromium: {subprocess.run([CHROMIUM, '--version'], capture_output=True, text=True).stdout.strip()}")
    print(f"module: {len(raw) / 1e6:.2f} MB raw, {len(gzip.compress(raw, 9)) / 1e6:.2f} MB gzipped")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(SITE), str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    base = f"http://127.0.0.1:{port}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            loads = []
            guide = []
            for _ in range(5):
                context = browser.new_context()
                pg = context.new_page()
                pg.goto(base + "playground/#/analyse?sum=nim%203%204%205")
                pg.get_by_test_id("winner").wait_for(timeout=60_000)
                loads.append(pg.evaluate("performance.now()"))
                context.close()
                context = browser.new_context()
                pg = context.new_page()
                pg.goto(base + "tutorial/nim.html")
                box = pg.locator(".grundy-run").first
                box.get_by_role("button", name="Run").click()
                pg.wait_for_selector(".grundy-run[data-state='0']", timeout=60_000)
                guide.append(pg.evaluate("performance.now()"))
                context.close()
            print(f"page load to the first answer (median of 5, nothing cached): playground "
                  f"{statistics.median(loads):.0f} ms; guide example (load, then a click on Run) "
                  f"{statistics.median(guide):.0f} ms")
            print()
            starts = []
            supported = [p for p in PATHS if subprocess.run([str(BINARY), "seq", "0.6", "--to", "1"],
                         env={**os.environ, "GRUNDY_SIMD": p}, capture_output=True).returncode == 0]
            print("| case | " + " | ".join(f"native, {p}" for p in supported)
                  + " | WebAssembly (in the page's worker) | WebAssembly / native, per path |")
            print("|---|" + "---|" * (len(supported) + 2))
            for name, args in CASES:
                times = [native(args, p) for p in supported]
                best = None
                for _ in range(RUNS):
                    context = browser.new_context()
                    pg = context.new_page()
                    pg.goto(base + "playground/")
                    ms, start_ms = pg.evaluate("""async (args) => {
                        const engine = await import('./engine.js');
                        let start = performance.now();
                        await engine.runCli(['--version'], {});
                        const started = performance.now() - start;
                        start = performance.now();
                        const status = await engine.runCli(args, {});
                        if (status !== 0) throw new Error('status ' + status);
                        return [performance.now() - start, started];
                    }""", args)
                    context.close()
                    starts.append(start_ms)
                    best = ms / 1000 if best is None else min(best, ms / 1000)
                print(f"| `grundy {' '.join(args)}` ({name}) | " + " | ".join(f"{t:.3f} s" for t in times)
                      + f" | {best:.3f} s | " + " / ".join(f"{best / t:.1f}×" for t in times) + " |")
            print()
            print(f"starting the engine in a fresh page (its worker, compiling and instantiating the module; "
                  f"not in the times above): median {statistics.median(starts):.0f} ms")
            browser.close()
    finally:
        server.kill()


main()
