"""bench/waiting.py's reading of its measurements: the page's own main-thread work from a
Chrome trace, and the percentiles of the waits."""

from __future__ import annotations

import importlib
import json
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def waiting() -> ModuleType:
    pytest.importorskip("playwright")
    return importlib.import_module("bench.waiting")


def thread(pid: int, tid: int, name: str) -> dict[str, object]:
    return {"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": name}}


def task(pid: int, tid: int, wall_us: int, cpu_us: int, name: str = "RunTask") -> dict[str, object]:
    return {"ph": "X", "name": name, "pid": pid, "tid": tid, "dur": wall_us, "tdur": cpu_us}


def test_only_tasks_of_renderer_main_threads_count_with_wall_and_cpu_time(
    waiting: ModuleType,
) -> None:
    trace = {"traceEvents": [
        thread(1, 10, "CrRendererMain"), thread(1, 11, "DedicatedWorker thread"),
        thread(2, 20, "CrBrowserMain"),
        task(1, 10, 90_000, 15_000),  # waited for a core: 90 ms long, 15 ms of work
        task(1, 11, 400_000, 400_000),  # the engine's search, in its worker
        task(2, 20, 70_000, 70_000),  # the browser process
        task(1, 10, 5_000, 5_000, name="ParseHTML"),  # not a task
    ]}  # fmt: skip
    assert waiting.main_thread_tasks(json.dumps(trace).encode()) == [(90.0, 15.0)]


def test_the_summary_gives_median_and_95th_percentile_and_the_longest_task(
    waiting: ModuleType,
) -> None:
    waits = [float(ms) for ms in range(1000, 3000, 10)]  # 200 waits
    report = waiting.summary(waits, [60.0, 55.0], [(60.0, 12.0), (20.0, 18.5)])
    assert report["turns"] == 200
    assert report["p50_ms"] == 1995
    assert report["p95_ms"] == 2890
    assert report["longest_task_ms"] == 60
    assert report["longest_task_cpu_ms"] == 18.5
    assert report["tasks_over_50_cpu_ms"] == 0
