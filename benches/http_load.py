#!/usr/bin/env python3
"""Idle connections against a thinking server: starts `waggle json --listen` or `waggle web --listen` on a free
port of 127.0.0.1, holds IDLE connections open that send nothing useful (half of them idle after one answered
request on a keep-alive connection, half stuck in the middle of a request head; one the server closes is opened
again at once), runs CLIENTS clients that keep asking for a move (each thinks about 0.7 s), and meanwhile opens a
new connection every 100 ms as a new visitor would, with a cheap request (JSON: Greetings; web: the page, then a
position). After SECONDS it prints what the visitors got (answers by status, the median and worst time to an
answer), what the thinking clients got, how many idle connections were held, and the server's resident memory
(the most seen, sampled every 0.2 s, and the kernel's high-water mark).

    python3 benches/http_load.py target/release/waggle json --idle 1000 --clients 16 --seconds 20
    python3 benches/http_load.py target/release/waggle web --idle 1000 --clients 16 --seconds 20

Every connection goes to 127.0.0.1 and the run stops by itself; the server is ended at the end.

Usage: python3 benches/http_load.py WAGGLE json|web [--idle N] [--clients N] [--seconds S]
"""
import argparse
import json
import re
import resource
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time

GREETINGS = json.dumps({"request_type": "Greetings", "request_id": "probe"})

# The start of a Base game: each Queen Bee placed, White to move. Its deadline leaves 0.7 s of thinking.
CHOOSE_TURN = {
    "request_type": "Choose Turn", "request_id": "t", "game_id": "g", "request_timestamp": 0,
    "response_deadline": 1000,
    "game_state": {
        "board": {"pieces": {"0,0": [{"color": "White", "type": "Queen Bee"}],
                             "2,0": [{"color": "Black", "type": "Queen Bee"}]}},
        "hands": {side: {"Spider": 2, "Beetle": 2, "Grasshopper": 3, "Soldier Ant": 3}
                  for side in ("White", "Black")},
        "player_turn": "White", "creation_parameters": {},
        "possible_turns": {"Placement": {"piece_types": ["Spider", "Beetle", "Grasshopper", "Soldier Ant"],
                                         "positions": ["-2,0", "-1,-1", "-1,1"]},
                           "Movement": {"0,0": ["1,-1", "1,1"]}}}}

# The same kind of question for `waggle web`: a move in a middle game, 0.7 s of thinking.
GAME = "Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ/;bA1 bQ\\"
BEST_MOVE = json.dumps({"game": GAME, "time": 0.7, "level": 10})


def request(addr, method, path, body, keep=False, timeout=30.0):
    """One request on a new connection: (status, seconds to the whole answer), or (None, seconds) on failure.
    With `keep`, also returns the open socket (the answer read, the connection kept alive)."""
    start = time.monotonic()
    sock = socket.create_connection(addr, timeout=timeout)
    data = body.encode() if body is not None else b""
    head = f"{method} {path} HTTP/1.1\r\nHost: {addr[0]}:{addr[1]}\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
    head += "\r\n" if keep else "Connection: close\r\n\r\n"
    try:
        sock.sendall(head.encode() + data)
        status, reply = read_reply(sock)
    except OSError:
        status, reply = None, b""
    seconds = time.monotonic() - start
    if keep and status is not None:
        return status, seconds, sock
    sock.close()
    return status, seconds, None


def read_reply(sock):
    """Read one HTTP response (Content-Length, chunked or to the end): its status and body."""
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise OSError("closed before the head")
        buffer += chunk
    head, rest = buffer.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
    if "content-length" in headers:
        length = int(headers["content-length"])
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
        return status, rest[:length]
    if headers.get("transfer-encoding", "").lower() == "chunked":
        while not rest.endswith(b"0\r\n\r\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
        return status, rest
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return status, rest
        rest += chunk


def resident_kb(pid, field="VmRSS"):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("waggle")
    parser.add_argument("server", choices=["json", "web"])
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.idle * 2 + 256)), hard))

    server = subprocess.Popen([args.waggle, args.server, "--listen", "127.0.0.1:0"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    addr = None
    for line in server.stdout:
        found = re.search(r"http://([\d.]+):(\d+)", line)
        if found:
            addr = (found.group(1), int(found.group(2)))
            break
    if addr is None:
        sys.exit("the server printed no address")
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()

    done = threading.Event()
    lock = threading.Lock()
    probes, thoughts, held, rss = [], [], [0], [0]
    opened = [0]
    if args.server == "json":
        probe = [("POST", "/", GREETINGS)]
        think = ("POST", "/", json.dumps(CHOOSE_TURN))
    else:
        probe = [("GET", "/", None), ("POST", "/api/position", json.dumps({"game": GAME}))]
        think = ("POST", "/api/bestmove", BEST_MOVE)

    def open_idle(index):
        """One idle connection: after an answered request on a kept-alive connection, or in the middle of a
        request's head. None when it cannot be opened."""
        try:
            if index % 2 == 0:
                _, _, sock = request(addr, *probe[0], keep=True)
            else:
                sock = socket.create_connection(addr, timeout=30)
                sock.sendall(f"POST / HTTP/1.1\r\nHost: {addr[0]}:{addr[1]}\r\n".encode())
        except OSError:
            return None
        if sock is not None:
            sock.setblocking(False)
            opened[0] += 1
        return sock

    def hold_idle():
        """Keep IDLE connections open from one thread, opening another whenever the server closes one."""
        watch = selectors.DefaultSelector()
        missing = list(range(args.idle))
        while not done.is_set():
            still_missing = []
            for index in missing:
                sock = open_idle(index)
                if sock is None:
                    still_missing.append(index)
                else:
                    watch.register(sock, selectors.EVENT_READ, index)
            missing = still_missing
            held[0] = len(watch.get_map())
            for key, _ in watch.select(timeout=0.1):
                try:
                    data = key.fileobj.recv(65536)
                except OSError:
                    data = b""
                if not data:
                    watch.unregister(key.fileobj)
                    key.fileobj.close()
                    missing.append(key.data)
            held[0] = len(watch.get_map())
        for key in list(watch.get_map().values()):
            key.fileobj.close()

    def thinker():
        while not done.is_set():
            status, seconds, _ = request(addr, *think)
            with lock:
                thoughts.append((status, seconds))

    def visitor():
        while not done.is_set():
            for method, path, body in probe:
                status, seconds, _ = request(addr, method, path, body)
                with lock:
                    probes.append((status, seconds))
            time.sleep(0.1)

    threading.Thread(target=hold_idle, daemon=True).start()
    # Let the idle connections open before the clients start.
    deadline = time.monotonic() + 10
    while held[0] < args.idle and time.monotonic() < deadline:
        time.sleep(0.05)
    print(f"{held[0]} idle connections open", flush=True)
    workers = [threading.Thread(target=thinker, daemon=True) for _ in range(args.clients)]
    workers.append(threading.Thread(target=visitor, daemon=True))
    for worker in workers:
        worker.start()
    least_held = held[0]
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        rss[0] = max(rss[0], resident_kb(server.pid))
        least_held = min(least_held, held[0])
        time.sleep(0.2)
    done.set()
    # The requests under way are answered before the server is stopped.
    for worker in workers:
        worker.join(timeout=15)
    high_water = resident_kb(server.pid, "VmHWM")
    server.terminate()
    server.wait(timeout=10)

    def describe(name, results):
        statuses = {}
        for status, _ in results:
            statuses[status] = statuses.get(status, 0) + 1
        times = [seconds for _, seconds in results]
        counts = ", ".join(f"{count} × {status if status else 'no answer'}" for status, count in sorted(
            statuses.items(), key=lambda item: (item[0] is None, item[0] or 0)))
        if times:
            print(f"{name}: {len(results)} requests: {counts}; median {statistics.median(times) * 1000:.0f} ms, "
                  f"worst {max(times) * 1000:.0f} ms")
        else:
            print(f"{name}: no request finished")

    describe("new visitors", probes)
    describe("thinking clients", thoughts)
    print(f"idle connections: {args.idle} asked for, at least {least_held} open throughout, {opened[0]} opened in all")
    print(f"server resident memory: at most {rss[0] / 1024:.0f} MB sampled, high-water mark {high_water / 1024:.0f} MB")


if __name__ == "__main__":
    main()
