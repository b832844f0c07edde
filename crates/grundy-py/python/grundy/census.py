"""Censuses of whole families of games: here, or on a Dask (or Ray) cluster.

Every code of a family (``octal`` codes with up to D digits, ``hex`` codes,
``sub`` sets within 1..K) gets one row: preperiod, period, saltus, proven,
computed_to, max_value, rare_mask, rare_count, same_as, seconds and a
fingerprint of its values. The file is written by the same Rust writer as
``grundy census``, so a census file can be started on one machine, resumed on
a cluster and finished by the command line::

    import grundy.census
    rows = grundy.census.run("octal", 2, max=1 << 17, out="octal2.csv")
    rows = grundy.census.run_dask("octal", 3, "tcp://10.0.0.1:8786", out="octal3.csv")

On a cluster each task is one code: a short pilot first (which finishes most
codes), then the full run of the rest, costliest first (Dask's task
priorities). The driver appends each row as it arrives, so a worker lost
mid-run loses no finished row (Dask runs its tasks again elsewhere), and a
driver stopped by Ctrl-C is resumed by running it again.
"""

from __future__ import annotations

import math
import sys
from typing import Any, Callable, Dict, List, Optional

from . import _grundy

Row = Dict[str, Any]

FAMILIES = ("octal", "hex", "sub")


def row(code: str, max: int) -> Row:
    """The census row of one code (the GIL released; Ctrl-C stops it)."""
    return _grundy.census_row(code, max)


def pilot_task(code: str, max: int) -> Dict[str, Any]:
    """A cluster task: the pilot of one code (``{"row": ...}`` or ``{"estimate": ...}``)."""
    return _grundy.census_pilot(code, max)


def full_task(code: str, max: int) -> Dict[str, Any]:
    """A cluster task: the full run of one code."""
    return {"row": _grundy.census_row(code, max)}


def run(
    family: str,
    size: int,
    max: int = 1 << 17,
    out: Optional[str] = None,
    jobs: Optional[int] = None,
    zero_seconds: bool = False,
) -> List[Row]:
    """The census on this machine, ``jobs`` codes at once (all cores by default).

    With ``out`` (.csv or .jsonl) rows are kept as they finish and a rerun
    resumes; the rows are returned in census order.
    """
    rows, _ = _grundy.census_run(family, size, max, out, jobs, zero_seconds)
    return rows


def markdown(rows: List[Row]) -> str:
    """Rows as the command line's Markdown table."""
    columns = ["code", "preperiod", "period", "saltus", "proven", "computed_to",
               "max_value", "rare_mask", "rare_count", "same_as", "seconds"]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        cells = []
        for c in columns:
            v = r[c]
            if c == "proven":
                v = "yes" if v else "no"
            elif c == "seconds":
                v = f"{v:.3f}"
            cells.append("" if v is None else str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _priority(estimate: float) -> int:
    # Dask runs higher priorities first: the costliest codes go first.
    return int(100 * math.log2(max(estimate, 2.0)))


def run_dask(
    family: str,
    size: int,
    client: Any,
    max: int = 1 << 17,
    out: Optional[str] = None,
    zero_seconds: bool = False,
    on_row: Optional[Callable[[Row], None]] = None,
    retries: int = 3,
) -> List[Row]:
    """The census on a Dask cluster: ``client`` is a ``distributed.Client``
    or a scheduler address (``tcp://host:8786``).

    One task a code; rows are appended to ``out`` by this driver as they
    arrive (``on_row`` hears each); a rerun resumes. Tasks lost with a worker
    are run again by Dask, and a task that keeps killing workers is tried
    ``retries`` more times before the census stops with its error.
    """
    from distributed import Client, as_completed

    own = not hasattr(client, "submit")
    if own:
        client = Client(client)
    log = _grundy.CensusLog(family, size, max, out, zero_seconds)
    for note in log.notes:
        print(f"note: {note}", file=sys.stderr)
    tries: Dict[str, int] = {}
    try:
        pending = as_completed()
        tasks: Dict[str, tuple] = {}

        def submit(kind: str, code: str, priority: int) -> None:
            attempt = tries.get(code, 0)
            key = f"census-{kind}-{max}-{attempt}-{code}"
            task = pilot_task if kind == "pilot" else full_task
            future = client.submit(task, code, max, key=key, priority=priority, pure=False)
            tasks[future.key] = (kind, code, priority)
            pending.add(future)

        for code in log.to_compute():
            submit("pilot", code, 10**6)
        for future in pending:
            kind, code, priority = tasks.pop(future.key)
            try:
                answer = future.result()
            except Exception:
                tries[code] = tries.get(code, 0) + 1
                if tries[code] > retries:
                    raise
                submit(kind, code, priority)
                continue
            finally:
                future.release()
            if "row" in answer:
                for written in log.record(answer["row"]):
                    if on_row is not None:
                        on_row(written)
            else:
                submit("full", code, _priority(answer["estimate"]))
        log.finish()
        return log.rows()
    finally:
        if own:
            client.close()


def run_ray(
    family: str,
    size: int,
    address: str,
    max: int = 1 << 17,
    out: Optional[str] = None,
    zero_seconds: bool = False,
) -> List[Row]:
    """The census on a Ray cluster (``ray.init(address)``): one task a code,
    rows appended by this driver as they arrive. Optional: needs ``pip install ray``."""
    import ray

    ray.init(address=address, ignore_reinit_error=True)
    log = _grundy.CensusLog(family, size, max, out, zero_seconds)
    remote_pilot = ray.remote(pilot_task)
    remote_full = ray.remote(full_task)
    waiting = {remote_pilot.remote(code, max): code for code in log.to_compute()}
    while waiting:
        done, _ = ray.wait(list(waiting), num_returns=1)
        for ref in done:
            code = waiting.pop(ref)
            answer = ray.get(ref)
            if "row" in answer:
                log.record(answer["row"])
            else:
                waiting[remote_full.remote(code, max)] = code
    log.finish()
    return log.rows()
