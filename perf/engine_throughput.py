"""The engine against a plain keep-alive client, on an instant loopback server (issue 30).

Usage: python perf/engine_throughput.py [--items 2000] [--concurrency 4] [--repeats 5]
       [--batch-size 32] [--dir DIR] [--small]

One instant chat-completions server on 127.0.0.1 (a child process: an asyncio HTTP/1.1
server with keep-alive, answering ``FR: <last user message>`` at once), so that the server
costs both sides alike and neither shares its interpreter. Alternating in this process:

- A, the engine: :func:`gendermt.translation.runner.translate_file` over ``--items`` distinct items
  through the real ``openai-compatible`` backend, with the request cache and the partial
  file in a fresh folder under ``--dir`` each time (on the disk results go to, so that its
  commits and fsyncs cost what they cost in a job), timed as the job's own sending time
  (``seconds_this_run`` in its metadata: claims, requests, partial file, cache commits);
- B, the bare alternative: ``--concurrency`` threads, each with one keep-alive
  ``http.client.HTTPConnection``, posting the same JSON bodies and reading each answer's
  text.

Both sides are checked (every item answered with its own text, A's metadata says it sent
each request once); a side that fails stops the script with a non-zero exit naming it. The
first pair is a warm-up and is not counted. Prints min and median seconds of each side, the
ratio of the medians (A / B), the items/s of each with the engine's share of the client's,
and the CPU each side spends an item (every thread of this process: on a loaded machine
wall time follows the scheduler, CPU the work). ``--small`` (CI smoke runs): 200 items,
one pair.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
MODEL = "instant"


# ---------------------------------------------------------------------------- the server
async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            fields = {k.strip().lower(): v.strip() for k, _, v in
                      (line.partition(":") for line in lines[1:] if line)}
            body = json.loads(await reader.readexactly(int(fields.get("content-length", 0))))
            user = [m["content"] for m in body["messages"] if m["role"] == "user"][-1]
            content = f"FR: {user}"
            payload = json.dumps({
                "object": "chat.completion", "model": body.get("model"),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content}}],
                "usage": {"completion_tokens": len(content.split())}}).encode()
            close = fields.get("connection", "").lower() == "close" or \
                lines[0].endswith("HTTP/1.0")
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n%s\r\n" % (
                             len(payload), b"Connection: close\r\n" if close else b"")
                         + payload)
            await writer.drain()
            if close:
                break
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


async def _serve() -> None:
    server = await asyncio.start_server(_handle, "127.0.0.1", 0, backlog=256)
    print(server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    # ends when the parent closes our stdin (or dies)
    loop.add_reader(sys.stdin.fileno(), lambda: done.done() or done.set_result(None))
    async with server:
        await done


class Server:
    """The instant server as a child process; ``url`` is its base URL."""

    def __enter__(self) -> Server:
        self.proc = subprocess.Popen([sys.executable, __file__, "--serve"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        port = self.proc.stdout.readline().strip()
        if not port.isdigit():
            raise SystemExit(f"the instant server did not start: {self.proc.stderr.read()}")
        self.port = int(port)
        self.url = f"http://127.0.0.1:{port}/v1"
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ---------------------------------------------------------------------------- the sides
def sources(n: int) -> list[str]:
    return [f"The doctor number {i} asked the nurse to help her with patient {i * 7}."
            for i in range(n)]


def keep_alive_client(port: int, texts: list[str], concurrency: int) -> float:
    """B: seconds for ``concurrency`` threads, one keep-alive connection each, to post one
    request per text (the same JSON body the backend sends) and read each answer's text."""
    answers: list[str | None] = [None] * len(texts)
    next_item = iter(range(len(texts)))
    lock = threading.Lock()
    errors: list[BaseException] = []

    def worker() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        try:
            while True:
                with lock:
                    i = next(next_item, None)
                if i is None:
                    return
                body = json.dumps({"model": MODEL, "messages": [
                    {"role": "user", "content": texts[i]}], "temperature": 0.0},
                    ensure_ascii=False).encode()
                conn.request("POST", "/v1/chat/completions", body=body, headers=headers)
                resp = conn.getresponse()
                payload = resp.read()
                if resp.status != 200:
                    raise RuntimeError(f"HTTP {resp.status}: {payload[:200]!r}")
                answers[i] = json.loads(payload)["choices"][0]["message"]["content"]
        except BaseException as exc:  # reported by the caller
            errors.append(exc)
        finally:
            conn.close()

    t0 = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - t0
    if errors:
        raise SystemExit(f"side B (keep-alive client) failed: {errors[0]!r}")
    wrong = [i for i, a in enumerate(answers) if a != f"FR: {texts[i]}"]
    if wrong:
        raise SystemExit(f"side B (keep-alive client): {len(wrong)} wrong answers, first "
                         f"item {wrong[0]}: {answers[wrong[0]]!r}")
    return seconds


@contextlib.contextmanager
def sending_cpu() -> Iterator[list[float]]:
    """CPU seconds of this process (every thread) while the engine sends (Engine.send, its
    generator run to its end), in the list given, once the block ends."""
    from gendermt.translation.engine import Engine

    spent = [0.0]
    send = Engine.send

    def timed(self: Engine, *args: object, **kwargs: object) -> Iterator[object]:
        c0 = time.process_time()
        try:
            yield from send(self, *args, **kwargs)
        finally:
            spent[0] += time.process_time() - c0

    Engine.send = timed  # type: ignore[method-assign]
    try:
        yield spent
    finally:
        Engine.send = send  # type: ignore[method-assign]


def engine_job(url: str, texts: list[str], concurrency: int, batch_size: int,
               where: Path) -> tuple[float, float, float]:
    """A: translate_file over ``texts`` with a fresh request cache in ``where``; returns
    (its own sending seconds, the whole call's wall seconds, CPU seconds while sending)."""
    import pandas as pd

    from gendermt.data.io import read_jsonl, write_jsonl
    from gendermt.translation.runner import translate_file

    where.mkdir(parents=True)
    ids = [f"item{i:06d}" for i in range(len(texts))]
    data = where / "data.parquet"
    pd.DataFrame({"item_id": ids, "source": texts, "reference": texts}).to_parquet(data)
    inputs = where / "inputs.jsonl"
    write_jsonl(inputs, ({"item_id": i, "prompt": "baseline", "source": t,
                          "messages": [{"role": "user", "content": t}]}
                         for i, t in zip(ids, texts, strict=True)))
    out, meta = where / "raw" / "baseline.jsonl", where / "raw" / "baseline.meta.json"
    settings = {"backend": "openai-compatible", "base_url": url, "model": MODEL,
                "concurrency": concurrency, "batch_size": batch_size, "timeout": 60,
                "max_retries": 0}
    t0 = time.perf_counter()
    try:
        with sending_cpu() as cpu:
            translate_file(inputs, data, "api", settings, out, meta, [],
                           cache_dir=where / "cache")
    except Exception as exc:
        raise SystemExit(f"side A (engine) failed: {type(exc).__name__}: {exc}") from exc
    wall = time.perf_counter() - t0
    info = json.loads(meta.read_text())
    raws = [r["raw"] for r in read_jsonl(out)]
    wrong = sum(r != f"FR: {t}" for r, t in zip(raws, texts, strict=True))
    if wrong or info["requests_sent"] != len(texts):
        raise SystemExit(f"side A (engine): {info['requests_sent']} requests sent for "
                         f"{len(texts)} items, {wrong} wrong answers")
    return float(info["seconds_this_run"]), wall, cpu[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=ROOT / "results",
                        help="where the engine's temporary folders go (default: results/, "
                             "the disk a job writes to)")
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(_serve())
        return 0
    if args.small:
        args.items, args.repeats = 200, 1
    import logging

    from gendermt.data.progress import set_quiet

    logging.basicConfig(level=logging.WARNING)
    set_quiet(True)
    texts = sources(args.items)
    args.dir.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="perf-engine-", dir=args.dir))
    times: dict[str, list[float]] = {"A": [], "B": []}
    walls: list[float] = []
    cpus: dict[str, list[float]] = {"A": [], "B": []}
    try:
        with Server() as server:
            for n in range(args.repeats + 1):
                a, wall, cpu_a = engine_job(server.url, texts, args.concurrency,
                                            args.batch_size, scratch / f"run{n}")
                shutil.rmtree(scratch / f"run{n}")
                c0 = time.process_time()
                b = keep_alive_client(server.port, texts, args.concurrency)
                cpu_b = time.process_time() - c0
                if n:  # the first pair warms up both sides
                    times["A"].append(a)
                    times["B"].append(b)
                    walls.append(wall)
                    cpus["A"].append(cpu_a)
                    cpus["B"].append(cpu_b)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    rate = {k: args.items / med[k] for k in med}
    print(f"engine vs keep-alive client, {args.items} items, concurrency "
          f"{args.concurrency}, batch size {args.batch_size}, cache in {args.dir} "
          f"(pid {os.getpid()}):")
    print(f"seconds: gendermt min {min(times['A']):.3f} s median {med['A']:.3f} s | bare min "
          f"{min(times['B']):.3f} s median {med['B']:.3f} s | ratio "
          f"{med['A'] / med['B']:.2f}x ({args.repeats} alternating pairs, wall seconds)")
    print(f"items/s: engine {rate['A']:.0f} (best {args.items / min(times['A']):.0f}) | "
          f"keep-alive client {rate['B']:.0f} (best {args.items / min(times['B']):.0f}) | "
          f"engine at {100 * rate['A'] / rate['B']:.0f} % of the client's")
    print(f"the whole translate_file call (inputs, lookup, output, metadata): median "
          f"{statistics.median(walls):.3f} s wall")
    print(f"CPU per item, every thread of this process (median): engine sending "
          f"{1e6 * statistics.median(cpus['A']) / args.items:.0f} µs | keep-alive client "
          f"{1e6 * statistics.median(cpus['B']) / args.items:.0f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
