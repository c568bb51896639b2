"""`perlin serve` against hostile local clients (docs/serve.md): bounded in count and time, all
on 127.0.0.1. Slow and idle sockets hold no worker, pipelined requests are answered in order, costly
renders leave a slot for previews, byte ranges are ignored, other
sites' pages and rebound names are refused, every error body is valid JSON, one server per port."""
import http.client
import json
import socket
import subprocess
import time
import urllib.parse

import pytest

from conftest import start_server


def request(url, path, headers=None):
    u = urllib.parse.urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("GET", path, headers=headers or {})
    res = conn.getresponse()
    body = res.read()
    conn.close()
    return res.status, body


def read_response(f):
    """One HTTP/1.1 response from the file `f`: (status, headers, body)."""
    status = int(f.readline().split()[1])
    headers = {}
    while (line := f.readline()) not in (b"\r\n", b""):
        name, value = line.decode("latin-1").split(":", 1)
        headers[name.strip().lower()] = value.strip()
    return status, headers, f.read(int(headers.get("content-length", 0)))


def test_slow_clients_cannot_hold_the_workers(perlin_exe):
    # Three times as many sockets as workers send one byte every 1.5 s (under a per-read timeout
    # of 2 s) and as many more stay idle: none holds a worker, so previews answer at once, and
    # each trickling request is closed (408) 2 s after its first byte however it trickles.
    proc, url = start_server(perlin_exe, "--workers", "4")
    u = urllib.parse.urlparse(url)
    trickling, idle = [], []
    try:
        start = time.monotonic()
        for _ in range(12):
            s = socket.create_connection((u.hostname, u.port), timeout=10)
            s.sendall(b"GET /render.png?size=8x8 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            trickling.append(s)
            idle.append(socket.create_connection((u.hostname, u.port), timeout=10))
        for round in range(3):  # at 0, 1.5 and 3 s
            asked = time.monotonic()
            status, _ = request(url, "/render.png?size=32x32")
            assert status == 200
            assert time.monotonic() - asked < 1.0, "a preview waited behind slow clients"
            if round == 2:
                break
            time.sleep(1.5 - (time.monotonic() - asked))
            for s in trickling:
                try:
                    s.sendall(b"X")
                except OSError:
                    pass  # the server closed it already: good
        for s in trickling:  # closed by now (2 s after the first byte), not still trickling
            s.settimeout(max(0.1, start + 3.5 - time.monotonic()))
            answer = b""
            try:
                while chunk := s.recv(4096):
                    answer += chunk
            except ConnectionResetError:
                pass  # closed with the unread trickle in its buffer: the 408 may be lost
            assert answer == b"" or answer.startswith(b"HTTP/1.1 408"), answer
    finally:
        for s in trickling + idle:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("count", [3, 50])
def test_pipelined_requests_are_answered_in_order(server, count):
    u = urllib.parse.urlparse(server)
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        s.sendall(b"".join(f"GET /stats.json?size={8 + i % 5}x8&seed={i} HTTP/1.1\r\n"
                           f"Host: 127.0.0.1\r\n\r\n".encode() for i in range(count)))
        f = s.makefile("rb")
        for i in range(count):
            status, _, body = read_response(f)
            assert status == 200
            stats = json.loads(body)
            assert f"--seed {i}" in stats["command"] and stats["width"] == 8 + i % 5


def test_a_request_that_never_ends_is_refused(server):
    # Headers sent fast but never ended: refused at 96 KiB (431), not read for ever.
    u = urllib.parse.urlparse(server)
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        s.sendall(b"GET /render.png?size=8x8 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        try:
            for _ in range(200):
                s.sendall(b"X-Filler: " + b"a" * 1000 + b"\r\n")
        except OSError:
            pass  # closed under us: the answer is still read below
        try:
            answer = s.recv(4096)
        except ConnectionResetError:
            answer = b""  # the 408/431 lost to the unread bytes' reset
        assert answer == b"" or answer.startswith(b"HTTP/1.1 431"), answer
    assert request(server, "/render.png?size=8x8")[0] == 200


def test_costly_renders_of_two_clients_do_not_delay_a_preview(perlin_exe):
    # Two clients keep six costly renders going (three connections each, back to back, each
    # stopped at its 2 s budget); a third client's small previews must not wait for them (before,
    # one waited for a budget or more): costly renders share one of the two render slots, and a
    # freed slot goes to the cheapest request waiting.
    import threading
    proc, url = start_server(perlin_exe, "--time-budget", "2")
    costly = "/render.png?size=2048x2048&fractal=fbm&octaves=16"
    done = threading.Event()
    answers = []

    def client(seed):
        try:
            while not done.is_set():
                answers.append(request(url, f"{costly}&seed={seed}")[0])
        except OSError:
            pass  # the server stopped under it

    threads = [threading.Thread(target=client, args=(i,)) for i in range(6)]
    try:
        for t in threads:
            t.start()
        time.sleep(0.5)  # the costly renders are under way, more are waiting
        worst = 0
        for _ in range(5):
            asked = time.monotonic()
            assert request(url, "/render.png?size=32x32")[0] == 200
            worst = max(worst, time.monotonic() - asked)
            time.sleep(0.3)
        assert worst < 1.0, f"a preview waited {worst:.1f} s behind another client's renders"
    finally:
        done.set()
        proc.terminate()  # the renders stop between bands, the waiting requests leave
        for t in threads:
            t.join(timeout=30)
        proc.wait(timeout=10)
    assert set(answers) <= {200, 503}


def test_byte_ranges_are_ignored(server):
    _, whole = request(server, "/render.png?size=256x256")
    ranges = ",".join(f"{i}-{i + 10}" for i in range(0, 7000, 10))
    status, body = request(server, "/render.png?size=256x256", {"Range": "bytes=" + ranges})
    assert status in (200, 416) and len(body) <= len(whole)  # never 700 copies of the image
    status, body = request(server, "/render.png?size=256x256", {"Range": "bytes=0-10"})
    assert status == 200 and body == whole


@pytest.mark.parametrize("headers,status", [
    ({"Host": "evil.example:8080"}, 403),
    ({"Host": "127.0.0.1", "Origin": "http://evil.example"}, 403),
    ({"Host": "127.0.0.1", "Origin": "null"}, 403),
    ({"Host": "localhost"}, 200),
    ({"Host": "127.0.0.1", "Origin": "http://127.0.0.1:1"}, 200),
])
def test_other_sites_and_rebound_names_are_refused(server, headers, status):
    got, body = request(server, "/render.png?size=8x8", headers)
    assert got == status
    if status != 200:
        assert "error" in json.loads(body)


def test_error_bodies_are_valid_json_for_any_bytes(server):
    # "%ff%9b%9b": a byte above 0xF4 once passed as the lead of a 3-byte sequence (the fuzzer)
    for raw in ["%ff%fe", "%c3%28", "%e2%82", "%ed%a0%80", "%1b%5b2J", "caf%c3%a9", "%ff%9b%9b",
                "%f8%88%80%80", "%c0%af"]:
        status, body = request(server, "/render.png?size=" + raw)
        assert status == 400
        message = json.loads(body.decode("utf-8"))["error"]  # valid UTF-8 and valid JSON
        assert message.startswith("size: ")  # the parameter's name, without the CLI's dashes


def test_repeated_parameters_are_refused_like_the_cli(server):
    status, body = request(server, "/render.png?size=8x8&size=16x16")
    assert status == 400 and "given more than once" in json.loads(body)["error"]


def test_large_renders_are_refused_within_the_servers_memory_budget(server):
    status, body = request(server, "/render.npy?size=16384x16384&download=1")
    assert status == 413 and "MiB a request" in json.loads(body)["error"]
    # Over the CLI's own limit too (it says so first): 413, as docs/serve.md promises.
    for path in ("/render.png?size=100000x100000", "/render.npy?size=100000x100000&download=1",
                 "/shader.json?size=100000x100000"):
        status, body = request(server, path)
        assert status == 413 and "MiB a request" in json.loads(body)["error"], path


@pytest.mark.parametrize("query,shown", [
    ("size=8%00x8", "size: '8\\x00x8' holds a NUL byte"),
    ("octaves=3%00abc", "octaves: '3\\x00abc' holds a NUL byte"),
    ("preset=clo%00uds", "preset: 'clo\\x00uds' holds a NUL byte"),
    ("colormap=a%00b", "colormap: 'a\\x00b' holds a NUL byte"),
    ("si%00ze=8x8", "'si\\x00ze' holds a NUL byte"),
])
def test_a_nul_byte_is_refused_and_shown_whole(server, query, shown):
    # A NUL once ended the message where a parser quoted the value ("--size: '8").
    status, body = request(server, "/render.png?" + query)
    assert status == 400 and shown in json.loads(body)["error"]


def test_one_server_per_port_and_a_clear_host_message(perlin_exe, server):
    port = urllib.parse.urlparse(server).port
    second = subprocess.run([perlin_exe, "serve", "--port", str(port)], capture_output=True, text=True, timeout=10)
    # It says why (the system's words) and what to do.
    assert second.returncode != 0 and "cannot listen" in second.stderr
    assert "Address already in use" in second.stderr, second.stderr
    assert f"try --port {port + 1}, or --port 0" in second.stderr, second.stderr
    # An address of no interface here (TEST-NET-1): why, and what --host takes.
    elsewhere = subprocess.run([perlin_exe, "serve", "--host", "192.0.2.1", "--port", "0"], capture_output=True,
                               text=True, timeout=10)
    assert elsewhere.returncode == 1 and "Cannot assign requested address" in elsewhere.stderr, elsewhere.stderr
    assert "--host takes an address of this machine" in elsewhere.stderr
    empty = subprocess.run([perlin_exe, "serve", "--host", ""], capture_output=True, text=True, timeout=10)
    assert empty.returncode == 2 and "--host: give an address" in empty.stderr


def test_a_costly_render_gives_its_slot_back_within_the_time_budget(perlin_exe):
    proc, url = start_server(perlin_exe, "--time-budget", "1")
    try:
        costly = "/stats.json?size=1024x1024&fractal=fbm&octaves=32&warp=independent&warp-octaves=32&origin=0,0,0.5,0.5"
        start = time.monotonic()
        status, body = request(url, costly)
        assert status == 503 and "took longer than 1 s" in json.loads(body)["error"]
        assert time.monotonic() - start < 4
        assert request(url, "/render.png?size=8x8")[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_renders_stop_when_their_clients_leave(perlin_exe):
    # Two costly renders (about 40 s each, a 60 s budget) take both render slots; their clients
    # hang up. The slots must come back within a band or two, so the next client is answered
    # at once instead of after the budget.
    proc, url = start_server(perlin_exe, "--time-budget", "60")
    try:
        u = urllib.parse.urlparse(url)
        costly = ("/render.png?size=1024x1024&fractal=fbm&octaves=32&warp=independent"
                  "&warp-octaves=32&origin=0,0,0.5,0.5")
        socks = []
        for i in range(2):
            s = socket.create_connection((u.hostname, u.port), timeout=5)
            s.sendall(f"GET {costly}&seed={i} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\n\r\n".encode())
            socks.append(s)
        time.sleep(1.0)  # both renders are under way
        for s in socks:
            s.close()
        start = time.monotonic()
        status, _ = request(url, "/render.png?size=8x8")
        assert status == 200
        assert time.monotonic() - start < 5, "a render nobody waits for kept its slot"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.parametrize("raw,status", [
    # cpp-httplib read a body without a length until the stream ended (2 s and unbounded memory
    # in a worker); it read chunks, and skipped an oversized body byte by byte; a bare LF ended
    # the headers for the loop but not for cpp-httplib, which read on.
    (b"POST / HTTP/1.1\r\nHost: localhost\r\n\r\n", 411),
    (b"PUT /render.png HTTP/1.1\r\nHost: localhost\r\n\r\n", 411),
    (b"POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", 501),
    (b"GET / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
    (b"POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n", 413),
    (b"GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: x\n\n", 400),
    (b"GET / HTTP/1.1\nHost: localhost\r\n\r\n", 400),
])
def test_a_request_without_a_known_end_is_refused_at_once(server, raw, status):
    u = urllib.parse.urlparse(server)
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        asked = time.monotonic()
        s.sendall(raw + b"GET /render.png?size=8x8 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        answer = b""
        while chunk := s.recv(65536):  # the connection closes after the refusal
            answer += chunk
        assert time.monotonic() - asked < 0.5, "a worker read on, waiting for the stream's end"
    assert answer.startswith(f"HTTP/1.1 {status} ".encode()) and answer.count(b"HTTP/1.1") == 1, answer
    assert request(server, "/render.png?size=8x8")[0] == 200


def test_a_body_with_its_length_is_skipped_and_the_next_request_answered(server):
    # The bytes after a request's body are the next request, whoever reads the body.
    u = urllib.parse.urlparse(server)
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        s.sendall(b"POST /render.png HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc"
                  b"GET /stats.json?size=9x8 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\nwxyz"
                  b"GET /stats.json?size=10x8 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        f = s.makefile("rb")
        assert read_response(f)[0] == 404
        for width in (9, 10):
            status, _, body = read_response(f)
            assert status == 200 and json.loads(body)["width"] == width


def test_closing_after_pipelined_requests_never_cuts_an_answer(server):
    # 3000 requests in one write (about 110 KB, more than the loop reads ahead): the server
    # answers 100 (its keep-alive limit) and closes. Closing with unread bytes reset the
    # connection and cut the answers on their way (ECONNRESET); now its side is shut first and
    # the rest drained, so every answer arrives whole, then the end of the stream.
    u = urllib.parse.urlparse(server)
    with socket.create_connection((u.hostname, u.port), timeout=10) as s:
        s.sendall(b"GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 3000)
        time.sleep(0.3)  # the server has answered and closed before the client reads
        f = s.makefile("rb")
        for i in range(100):
            status, headers, body = read_response(f)
            assert status == 404 and json.loads(body) == {"error": "not found"}, i
        assert headers.get("connection") == "close" and f.read() == b""


def test_costly_requests_cannot_take_every_worker(perlin_exe):
    # As many costly exports as workers: each waiting for the render slot kept its worker, so a
    # preview never reached one (it waited 5.6 s). Now at most 3 costly requests (fewer than
    # the workers) are admitted at once, the others get 503 with Retry-After at once.
    proc, url = start_server(perlin_exe, "--workers", "4", "--time-budget", "1")
    u = urllib.parse.urlparse(url)
    costly = "/render.png?size=4096x4096&fractal=fbm&octaves=16&warp=progressive&download=1"
    socks = []
    try:
        for i in range(4):
            s = socket.create_connection((u.hostname, u.port), timeout=10)
            s.sendall(f"GET {costly}&seed={i} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            socks.append(s)
        time.sleep(0.5)  # one renders, two wait for the slot, one was refused
        asked = time.monotonic()
        assert request(url, "/render.png?size=32x32")[0] == 200
        assert time.monotonic() - asked < 1.0, "a preview waited behind costly requests"
        refused = []
        for s in socks:
            s.settimeout(0.2)
            try:
                refused.append(read_response(s.makefile("rb")))
            except (TimeoutError, socket.timeout):
                pass  # still rendering or waiting
        assert len(refused) == 1 and refused[0][0] == 503 and refused[0][1]["retry-after"] == "1"
        assert "busy with costly renders" in json.loads(refused[0][2])["error"]
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)


def test_a_slow_reader_holds_its_worker_for_its_budget_only(perlin_exe):
    # Two clients (as many as the workers) ask for a 16 MB .npy and do not read it: each send
    # waited up to 10 s, with no deadline for the whole answer (one read at 0.5 MB/s held its
    # worker 35 s). Now an answer gets its render's time budget (1 s) to be written.
    proc, url = start_server(perlin_exe, "--workers", "2", "--time-budget", "1")
    u = urllib.parse.urlparse(url)
    socks = []
    try:
        for i in range(2):
            s = socket.create_connection((u.hostname, u.port), timeout=10)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.sendall(f"GET /render.npy?size=2048x2048&seed={i} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            socks.append(s)
        time.sleep(0.3)  # both workers are writing
        asked = time.monotonic()
        assert request(url, "/render.png?size=32x32")[0] == 200
        assert time.monotonic() - asked < 2.0, "a slow reader held its worker past its budget"
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)
