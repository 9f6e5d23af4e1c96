#!/usr/bin/env python3
"""Opens N keep-alive connections to a server, sends one request on each (its target padded
to TARGET bytes), reads each answer in full and keeps every connection open and idle; then
prints the server's VmRSS and VmHWM (kB) before and after, and the growth per connection.

    idle.py PORT PID N TARGET_BYTES
"""
import resource
import socket
import sys


def status(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0])
    return values


def read_answer(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the server closed a connection before answering")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0]
    if b" 200 " not in status_line:
        raise SystemExit(f"unexpected answer: {status_line!r}")
    length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")[1:]
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise SystemExit("the server closed a connection mid-answer")
        body += chunk


def main():
    port, pid, count, target = (int(a) for a in sys.argv[1:5])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 256), hard))
    path = "/?" + "a" * max(0, target - 2)
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    before = status(pid)
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(request)
        read_answer(s)
        sockets.append(s)
    after = status(pid)
    per = (after["VmRSS"] - before["VmRSS"]) / count
    print(f"{before['VmRSS']} {after['VmRSS']} {after['VmHWM']} {per:.1f}")
    for s in sockets:
        s.close()


main()
