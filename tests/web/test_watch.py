"""The live standings streams share one database watcher per tournament."""

from __future__ import annotations

import asyncio
import time

from meldtour.web.watch import Watchers


def test_many_streams_one_watcher_and_every_stream_sees_the_change() -> None:
    reads: list[str] = []
    marks = {"busan": 7, "tokyo": 3}

    def read_mark(slug: str) -> int:
        reads.append(slug)
        return marks[slug]

    async def main() -> None:
        watchers = Watchers(read_mark, period=0.05)

        async def viewer(slug: str, seen: list[float]) -> None:
            async with watchers.subscribe(slug, marks[slug]) as watch:
                start = time.monotonic()
                mark = await watchers.wait_change(
                    watch, marks[slug] if slug == "tokyo" else 7, timeout=2.0
                )
                if mark != 7 and slug == "busan":
                    seen.append(time.monotonic() - start)

        seen: list[float] = []
        viewers = [asyncio.create_task(viewer("busan", seen)) for _ in range(300)]
        others = [asyncio.create_task(viewer("tokyo", [])) for _ in range(5)]
        await asyncio.sleep(0.3)
        marks["busan"] = 8  # a sheet saved
        await asyncio.gather(*viewers)
        assert len(seen) == 300 and max(seen) < 1.0
        # 300 viewers of busan cost one read per period, not one each.
        assert 0 < reads.count("busan") < 30, reads.count("busan")
        await asyncio.gather(*others)  # tokyo's viewers time out unchanged
        assert watchers._watches == {}  # the last viewer gone, the watcher stops
        before = len(reads)
        await asyncio.sleep(0.2)
        assert len(reads) == before

    asyncio.run(main())


def test_a_failing_read_is_retried_not_fatal() -> None:
    calls = {"n": 0}

    def read_mark(slug: str) -> int:
        calls["n"] += 1
        if calls["n"] < 3:
            raise OSError("database away")
        return 2

    async def main() -> int:
        watchers = Watchers(read_mark, period=0.02)
        async with watchers.subscribe("t", 1) as watch:
            return await watchers.wait_change(watch, 1, timeout=2.0)

    assert asyncio.run(main()) == 2
