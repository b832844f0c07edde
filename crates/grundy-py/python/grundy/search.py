"""The nimber of one big position (a Cram or Chomp board), searched here or
on a Dask cluster, with its facts kept in a file so that a run of weeks
survives restarts and can move between machines::

    import grundy.search
    grundy.search.run("cram", "5x8", facts="cram-5x8.facts")                  # here
    grundy.search.run_dask("cram", "6x7", "tcp://10.0.0.1:8786", facts="cram-6x7.facts")

On a cluster the driver (this process) expands the top of the pruned nimber
search itself: the root's tests ("has some option nimber k?") and, below
``depth`` levels, the options of those options. Every test below that is a
task: "has this sum of components nimber k?" or "what is this component's
nimber?". A worker keeps one search engine per board between tasks and
answers with it, after merging the facts the driver sent along (the costliest
nimbers and "not k" facts it knows). It returns what it learned that was
worth sending (facts whose search took at least 2^10 positions, and those of
the components it was asked about), which the driver merges into its table
and passes on to later tasks, so no worker searches a finished component
again. The options of a test are tasks at once, cheapest first: once one has
the nimber asked for, the others are cancelled.

A worker lost mid-task loses only that task, which Dask runs again
elsewhere. The driver's table is saved (atomically, with a checksum) every
``save_every`` seconds, at the end and on Ctrl-C; run the same command again
and it resumes from what it had learned.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import threading
import time
import uuid
from typing import Any, Callable, Dict, List, Optional

from . import _grundy

#: Levels of the search the driver expands into tasks (1: the root's options
#: are the tasks; 2: their options are).
DEFAULT_DEPTH = 2
#: Components with fewer cells than this are tasks whatever the depth.
SPLIT_SIZE = 16
#: Facts sent with each task at most (the costliest the driver knows).
SEND_FACTS = 1 << 15
#: A task sends back the facts whose search took at least 2^RETURN_LOG2 positions.
RETURN_LOG2 = 10
#: A worker engine's table.
WORKER_TT = 1 << 28
#: Positions a task may search (minutes of one thread) before it gives up and the
#: driver splits its test into the options below it: no task grows too big
#: to balance the load, or too costly to lose with its worker.
TASK_BUDGET = 1 << 26

_local = threading.local()


class Stopped(Exception):
    """The driver stopped before the answer (``max_tasks`` reached)."""


def _engine(game: str, position: str, tt_size: int):
    engines = getattr(_local, "engines", None)
    if engines is None:
        engines = _local.engines = {}
    key = (game, position, tt_size)
    engine = engines.get(key)
    if engine is None:
        engine = engines[key] = _grundy.SearchEngine(game, position, tt_size)
        _local.merged = {}
    return engine


def _with_facts(game: str, position: str, facts: bytes, tt_size: int):
    engine = _engine(game, position, tt_size)
    if facts:
        digest = hashlib.blake2b(facts, digest_size=16).digest()
        if _local.merged.get(engine.tag) != digest:
            engine.merge(facts)
            _local.merged[engine.tag] = digest
    return engine


def test_task(game: str, position: str, comps: List[int], k: int, facts: bytes,
              tt_size: int = WORKER_TT, run: str = "", budget: Optional[int] = None):
    """A cluster task: whether the sum of canonical components ``comps`` has
    nimber ``k`` (None when ``budget`` positions did not settle it). Returns
    ``(answer, facts new to the driver's run ``run`` as bytes, positions searched)``."""
    engine = _with_facts(game, position, facts, tt_size)
    before = engine.stats()[0]
    answer = engine.sum_is(comps, k, budget)
    return answer, engine.new_facts(RETURN_LOG2, comps, run), engine.stats()[0] - before


def nimber_task(game: str, position: str, comp: int, facts: bytes, tt_size: int = WORKER_TT,
                run: str = "", budget: Optional[int] = None):
    """A cluster task: the nimber of one canonical component (None when
    ``budget`` positions did not find it). Returns ``(nimber, facts new to
    the driver's run as bytes, positions searched)``."""
    engine = _with_facts(game, position, facts, tt_size)
    before = engine.stats()[0]
    value = engine.nimber(comp, budget)
    return value, engine.new_facts(RETURN_LOG2, [comp], run), engine.stats()[0] - before


def run(game: str, position: str, facts: Optional[str] = None, tt_size: int = 1 << 30,
        threads: Optional[int] = None) -> Dict[str, Any]:
    """The nimber of ``position`` of ``game`` searched in this process (all
    cores by default), its table kept in the file ``facts`` if given."""
    start = time.monotonic()
    engine = _grundy.SearchEngine(game, position, tt_size, facts, threads or os.cpu_count() or 1)
    try:
        value = 0
        for c in engine.components():
            value ^= engine.nimber(c)
        return _answer(game, position, value, start, engine, tasks=0, nodes=engine.stats()[0])
    finally:
        if facts is not None:
            engine.save()
        engine.close()


def _answer(game, position, value, start, engine, tasks, nodes, split=0) -> Dict[str, Any]:
    return {
        "game": game,
        "position": position,
        "nimber": value,
        "winner": "first" if value else "second",
        "tasks": tasks,
        "split": split,
        "positions": nodes,
        "facts": engine.stats()[1],
        "loaded": engine.loaded,
        "seconds": round(time.monotonic() - start, 3),
    }


class _Driver:
    def __init__(self, client, game, position, engine, depth, save_every, max_tasks,
                 on_task, worker_tt):
        self.client = client
        self.game = game
        self.position = position
        self.engine = engine
        self.depth = depth
        self.save_every = save_every
        self.max_tasks = max_tasks
        self.on_task = on_task
        self.worker_tt = worker_tt
        self.tasks = 0
        self.nodes = 0
        self.saved_at = time.monotonic()
        self.blob = None
        self.blob_ref = None
        self.blob_at = 0.0
        self.budget = TASK_BUDGET
        self.refresh = 2.0
        self.split = 0
        self.out = 0
        self.run = uuid.uuid4().hex
        self.slots = None
        self.finishing = set()

    async def facts_ref(self):
        # The costliest facts, sent to every worker once (a scattered
        # future), refreshed every `refresh` seconds at most: the driver
        # sends the blob to every worker, so the more workers, the rarer.
        now = time.monotonic()
        if self.blob_ref is None or now - self.blob_at > self.refresh:
            self.blob_at = now
            blob = self.engine.best_facts(SEND_FACTS)
            if blob != self.blob:
                self.blob = blob
                self.blob_ref = await self.client.scatter(blob, broadcast=True)
        return self.blob_ref

    def maybe_save(self, force=False):
        if force or time.monotonic() - self.saved_at >= self.save_every:
            self.engine.save()
            self.saved_at = time.monotonic()

    async def task(self, fn, *args):
        # At most `slots` tasks are out at once, so that the options of a
        # test wait their turn and are never sent once another option has
        # answered it. A task sent is never cancelled: if its answer is no
        # longer wanted, its facts still are.
        await self.slots.acquire()
        if self.max_tasks is not None and self.tasks + self.out >= self.max_tasks:
            self.slots.release()
            raise Stopped(f"stopped after {self.tasks} tasks")
        self.out += 1
        try:
            facts = await self.facts_ref()
        except BaseException:
            self.out -= 1
            self.slots.release()
            raise
        future = self.client.submit(fn, self.game, self.position, *args, facts,
                                    self.worker_tt, self.run, self.budget, pure=False, retries=3)
        finish = asyncio.ensure_future(self.finish(future))
        self.finishing.add(finish)
        finish.add_done_callback(self.finishing.discard)
        return await asyncio.shield(finish)

    async def finish(self, future):
        try:
            answer, learned, nodes = await future
        finally:
            self.out -= 1
            self.slots.release()
        self.engine.merge(learned)
        self.tasks += 1
        self.nodes += nodes
        if self.on_task is not None:
            self.on_task(self.tasks)
        self.maybe_save()
        return answer

    def leaf(self, c: int, d: int) -> bool:
        return d >= self.depth or self.engine.size(c) < SPLIT_SIZE

    async def nimber(self, c: int, d: int) -> int:
        exact, _ = self.engine.known(c)
        if exact is not None:
            return exact
        if self.leaf(c, d):
            value = await self.task(nimber_task, c)
            if value is not None:
                self.engine.record_exact(c, value)
                return value
            self.split += 1  # too big for one task: its options are tasks
        options = self.engine.options(c)
        k = 0
        while True:
            exact, excluded = self.engine.known(c)
            if exact is not None:
                return exact
            if k >= 32 or not (excluded >> k) & 1:
                if not await self.some_option_is(options, k, d + 1):
                    self.engine.record_exact(c, k)
                    return k
                self.engine.record_not(c, k)
            k += 1

    async def is_nimber(self, c: int, x: int, d: int) -> bool:
        exact, excluded = self.engine.known(c)
        if exact is not None:
            return exact == x
        if x < 32 and (excluded >> x) & 1:
            return False
        leaf = self.leaf(c, d)
        answer = await self.task(test_task, [c], x) if leaf else None
        if answer is None:
            if leaf:
                self.split += 1  # too big for one task: its options are tasks
            answer = await self.expand(c, x, d)
        if answer:
            self.engine.record_exact(c, x)
        else:
            self.engine.record_not(c, x)
        return answer

    async def expand(self, c: int, x: int, d: int) -> bool:
        # Nimber x: no option has x, and every smaller value some option has.
        options = self.engine.options(c)
        if await self.some_option_is(options, x, d + 1):
            return False
        for j in range(x):
            exact, excluded = self.engine.known(c)
            if exact is not None:
                return exact == x
            if j < 32 and (excluded >> j) & 1:
                continue
            if not await self.some_option_is(options, j, d + 1):
                self.engine.record_exact(c, j)
                return False
            self.engine.record_not(c, j)
        return True

    async def sum_is(self, parts: List[int], k: int, d: int) -> bool:
        if not parts:
            return k == 0
        parts = sorted(parts, key=self.engine.size)
        x = k
        for p in parts[:-1]:
            x ^= await self.nimber(p, d)
        return await self.is_nimber(parts[-1], x, d)

    async def some_option_is(self, options: List[List[int]], k: int, d: int) -> bool:
        # What the table settles alone first, then the rest as tasks at once,
        # the options with the smallest hardest part first.
        left = []
        for parts in options:
            x, unknown = k, []
            for p in parts:
                exact, excluded = self.engine.known(p)
                if exact is None:
                    unknown.append((p, excluded))
                else:
                    x ^= exact
            if not unknown:
                if x == 0:
                    return True
                continue
            if len(unknown) == 1 and x < 32 and (unknown[0][1] >> x) & 1:
                continue
            left.append((max(self.engine.size(p) for p, _ in unknown), parts))
        left.sort(key=lambda t: t[0])
        running = [asyncio.ensure_future(self.sum_is(parts, k, d)) for _, parts in left]
        try:
            for done in asyncio.as_completed(running):
                if await done:
                    return True
            return False
        finally:
            for r in running:
                r.cancel()
            await asyncio.gather(*running, return_exceptions=True)

    async def root(self) -> int:
        comps = sorted(self.engine.components(), key=self.engine.size)
        value = 0
        for c in comps:
            value ^= await self.nimber(c, 0)
        return value


def run_dask(game: str, position: str, client: Any, facts: Optional[str] = None,
             depth: int = DEFAULT_DEPTH, tt_size: int = 1 << 30, worker_tt: int = WORKER_TT,
             save_every: float = 30.0, max_tasks: Optional[int] = None,
             on_task: Optional[Callable[[int], None]] = None,
             budget: Optional[int] = TASK_BUDGET) -> Dict[str, Any]:
    """The nimber of ``position`` of ``game`` on a Dask cluster: ``client`` is
    a ``distributed.Client`` or a scheduler address (``tcp://host:8786``).

    The driver's facts are kept in the file ``facts`` (loaded when it exists,
    saved every ``save_every`` seconds, at the end and on Ctrl-C). ``max_tasks``
    stops the run (raising :class:`Stopped`) once that many tasks are done;
    ``on_task(n)`` hears each finished task. A task that searches more
    than ``budget`` positions stops, and its test is split into the options
    below it (None: no budget).
    """
    if depth < 1:
        raise ValueError(f"depth {depth} is not a number of levels: give 1 or more")
    address = client if isinstance(client, str) else client.scheduler.address
    start = time.monotonic()
    engine = _grundy.SearchEngine(game, position, tt_size, facts, 1)

    async def drive():
        from distributed import Client

        async with Client(address, asynchronous=True) as c:
            await c.wait_for_workers(1)
            workers = c.scheduler_info()["workers"].values()
            threads = sum(w.get("nthreads", 1) for w in workers)
            driver = _Driver(c, game, position, engine, depth, save_every, max_tasks, on_task,
                             worker_tt)
            driver.slots = asyncio.Semaphore(max(2, 2 * threads))
            driver.refresh = max(2.0, threads / 16)
            driver.budget = budget
            try:
                value = await driver.root()
            finally:
                for f in list(driver.finishing):
                    f.cancel()
                await asyncio.gather(*driver.finishing, return_exceptions=True)
                if facts is not None:
                    driver.maybe_save(force=True)
            return value, driver

    try:
        value, driver = asyncio.run(drive())
        return _answer(game, position, value, start, engine, driver.tasks, driver.nodes,
                       driver.split)
    finally:
        engine.close()
