"""`perlin serve` against hostile local clients (docs/serve.md): bounded in count and time, all
on 127.0.0.1. Slow and idle sockets cannot starve other clients, byte ranges are ignored, other
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


def test_slow_and_idle_sockets_do_not_starve_other_clients(server):
    u = urllib.parse.urlparse(server)
    socks = []
    try:
        for i in range(24):  # more than the old 8 workers; each trickles or idles
            s = socket.create_connection((u.hostname, u.port), timeout=10)
            if i % 2 == 0:
                s.sendall(b"GET /render.png?size=8x8 HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            socks.append(s)
        for _ in range(3):
            start = time.monotonic()
            status, _ = request(server, "/render.png?size=16x16")
            assert status == 200
            assert time.monotonic() - start < 1.5
            for s in socks[::2]:
                try:
                    s.sendall(b"X")
                except OSError:
                    pass  # the server already closed it: good
            time.sleep(0.3)
    finally:
        for s in socks:
            s.close()


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
        assert "--size" in message


def test_repeated_parameters_are_refused_like_the_cli(server):
    status, body = request(server, "/render.png?size=8x8&size=16x16")
    assert status == 400 and "given more than once" in json.loads(body)["error"]


def test_large_renders_are_refused_within_the_servers_memory_budget(server):
    status, body = request(server, "/render.npy?size=16384x16384&download=1")
    assert status == 413 and "MiB a request" in json.loads(body)["error"]


def test_one_server_per_port_and_a_clear_host_message(perlin_exe, server):
    port = urllib.parse.urlparse(server).port
    second = subprocess.run([perlin_exe, "serve", "--port", str(port)], capture_output=True, text=True, timeout=10)
    assert second.returncode != 0 and "cannot listen" in second.stderr
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
