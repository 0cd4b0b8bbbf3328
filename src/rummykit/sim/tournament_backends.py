"""Where a tournament's games run: a local process pool or a Ray cluster, in seeded
chunks, with a progress bar."""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import pickle
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol

from rummykit.catalog import (
    missing_modules,
)
from rummykit.errors import InvalidOptionError
from rummykit.sim.registry import loaded_plugin_files, reload_plugin_files
from rummykit.sim.tournament_jobs import (
    GameRecord,
    TournamentError,
    TournamentSpec,
    TournamentTimeoutError,
    run_jobs,
)


def _cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class _Bar(Protocol):
    def update(self, n: int = 1) -> object: ...

    def close(self) -> None: ...


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, enabled: bool, label: str) -> _Bar:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    bar: _Bar = tqdm(
        total=total,
        unit="game",
        desc=label,
        file=sys.stderr,
        dynamic_ncols=True,
        smoothing=0.05,
    )
    return bar


def _chunks(total: int, size: int) -> list[tuple[int, int]]:
    return [(start, min(start + size, total)) for start in range(0, total, size)]


def _chunk_size(total: int, workers: int, chunk_size: int | None) -> int:
    if chunk_size is not None:
        if chunk_size < 1:
            raise InvalidOptionError(
                f"chunk_size must be at least 1, not {chunk_size}", option="chunk_size"
            )
        return chunk_size
    # About eight chunks per worker balances the load and keeps the bar moving.
    return max(1, min(64, math.ceil(total / (workers * 8))))


def _gather(total: int) -> list[GameRecord | None]:
    return [None] * total


def _complete(slots: list[GameRecord | None]) -> list[GameRecord]:
    records = [record for record in slots if record is not None]
    if len(records) != len(slots):  # pragma: no cover - a backend lost a chunk
        raise TournamentError(f"{len(slots) - len(records)} games have no result")
    return records


def _check_picklable(spec: TournamentSpec) -> None:
    try:
        pickle.dumps(spec)
    except Exception as error:
        raise TournamentError(
            "the bots cannot be sent to worker processes "
            f"({type(error).__name__}: {error}); register a module-level function or "
            "class (not a lambda or a nested function), or play with workers=1"
        ) from None


def _process_context(spec: TournamentSpec) -> multiprocessing.context.BaseContext:
    """A fork server where there is one, else fresh (``spawn``) processes.

    Workers fork from a server that has already imported rummykit, the variant's
    engine and the bots' modules, so a pool starts quickly and no thread of this
    process is copied. (The server starts with the first pool and serves later ones.)
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():  # pragma: no cover
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    wanted = ["rummykit.sim.tournament", *spec.driver.modules]
    wanted += [m for entry in spec.lineup if (m := entry.module) is not None]
    files = loaded_plugin_files()
    modules = [m for m in dict.fromkeys(wanted) if m not in files and not missing_modules([m])]
    context.set_forkserver_preload(modules)
    return context


def _run_local(
    spec: TournamentSpec,
    workers: int,
    bar: _Bar,
    chunk_size: int | None,
    timeout: float | None,
) -> list[GameRecord]:
    total = spec.total_games
    deadline = None if timeout is None else time.monotonic() + timeout
    slots = _gather(total)
    if workers == 1:
        for start, stop in _chunks(total, chunk_size or 1):
            if deadline is not None and time.monotonic() > deadline:
                raise TournamentTimeoutError(f"the tournament took longer than {timeout} s")
            slots[start:stop] = run_jobs(spec, start, stop)
            bar.update(stop - start)
        return _complete(slots)
    _check_picklable(spec)
    chunks = _chunks(total, _chunk_size(total, workers, chunk_size))
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(chunks)),
        mp_context=_process_context(spec),
        initializer=reload_plugin_files,
        initargs=(loaded_plugin_files(),),
    )
    finished = False
    try:
        pending: dict[Future[list[GameRecord]], tuple[int, int]] = {
            pool.submit(run_jobs, spec, start, stop): (start, stop) for start, stop in chunks
        }
        while pending:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = wait(pending, timeout=remaining, return_when=FIRST_COMPLETED)
            if not done:
                raise TournamentTimeoutError(f"the tournament took longer than {timeout} s")
            for future in done:
                start, stop = pending.pop(future)
                slots[start:stop] = future.result()
                bar.update(stop - start)
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            # Stop at once: cancel what has not started and end the worker processes.
            processes = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
    return _complete(slots)


def _run_ray(
    spec: TournamentSpec,
    workers: int | None,
    address: str | None,
    bar: _Bar,
    chunk_size: int | None,
    timeout: float | None,
) -> tuple[list[GameRecord], int]:
    try:
        # Typed as Any: Ray's own annotations are partial and optional here.
        ray: Any = importlib.import_module("ray")
    except ImportError as error:
        raise TournamentError("the ray backend needs Ray: pip install 'rummykit[ray]'") from error
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"address": address, "log_to_driver": False}
        if address is None:
            options.update(num_cpus=workers or _cpu_count(), include_dashboard=False)
        ray.init(**options)
        started = True
    pending: dict[Any, tuple[int, int]] = {}
    try:
        for name in loaded_plugin_files():
            # Plugin files are not importable on the cluster: send them by value.
            ray.cloudpickle.register_pickle_by_value(sys.modules[name])
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        used = workers or cpus
        total = spec.total_games
        deadline = None if timeout is None else time.monotonic() + timeout
        task = ray.remote(num_cpus=1, max_retries=0)(run_jobs)
        spec_ref = ray.put(spec)
        slots = _gather(total)
        for start, stop in _chunks(total, _chunk_size(total, used, chunk_size)):
            pending[task.remote(spec_ref, start, stop)] = (start, stop)
        while pending:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            done, _ = ray.wait(list(pending), num_returns=1, timeout=remaining)
            if not done:
                raise TournamentTimeoutError(f"the tournament took longer than {timeout} s")
            for ref in done:
                start, stop = pending.pop(ref)
                try:
                    slots[start:stop] = ray.get(ref)
                except Exception as error:
                    cause = getattr(error, "cause", None)
                    raise TournamentError(str(cause if cause is not None else error)) from None
                bar.update(stop - start)
        return _complete(slots), used
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
