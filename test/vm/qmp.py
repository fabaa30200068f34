#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Minimal QMP client for the cxltier VM tier (standard library only).

  qmp.py SOCKET COMMAND [JSON-ARGS]      one command, prints the reply
  qmp.py SOCKET --serve DIR              serve guest requests: for every
        DIR/NAME.req (one JSON request), run it and write DIR/NAME.resp;
        stops when the socket closes (QEMU exited).
        A request may be a list of requests, run in order; their replies
        are a list. In the list, {"agent": "reply"} writes the replies so
        far as DIR/NAME.resp there and then: [stop, device_add, {"agent":
        "reply"}, cont] has the reply waiting when the guest runs again, so
        that the guest's clock, stopped meanwhile, tells when its device came.
"""
import json, os, socket, sys, time


class QMP:
    def __init__(self, path, timeout=120):
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.file = self.sock.makefile("rw")
        self._read()                       # greeting
        self.execute({"execute": "qmp_capabilities"})

    def _read(self):
        while True:
            line = self.file.readline()
            if not line:
                raise EOFError("QMP socket closed")
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def execute(self, req):
        self.file.write(json.dumps(req) + "\n")
        self.file.flush()
        return self._read()


def serve(path, directory):
    q = QMP(path)
    while True:
        try:
            names = sorted(n for n in os.listdir(directory) if n.endswith(".req"))
        except FileNotFoundError:
            names = []
        for n in names:
            p = os.path.join(directory, n)
            replied, req = False, None

            def reply(resp):
                tmp = p[:-4] + ".tmp"
                with open(tmp, "w") as f:
                    json.dump(resp, f)
                os.rename(tmp, p[:-4] + ".resp")

            try:
                with open(p) as f:
                    req = json.load(f)
                os.unlink(p)
                if isinstance(req, list):
                    resp = []
                    for r in req:
                        if r == {"agent": "reply"}:
                            reply(resp)
                            replied = True
                        else:
                            resp.append(q.execute(r))
                else:
                    resp = q.execute(req)
            except EOFError:
                return 0
            except Exception as e:          # a bad request gets an error reply
                resp = {"error": {"class": "AgentError", "desc": str(e)}}
                replied = False
                if isinstance(req, list) and {"execute": "stop"} in req:
                    q.execute({"execute": "cont"})  # never a guest left stopped
            if os.path.exists(p):
                os.unlink(p)
            if not replied:
                reply(resp)
        try:
            q.sock.getpeername()
        except OSError:
            return 0
        time.sleep(0.05)


def main(argv):
    if len(argv) == 4 and argv[2] == "--serve":
        try:
            return serve(argv[1], argv[3])
        except (EOFError, ConnectionError):
            return 0
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    req = {"execute": argv[2]}
    if len(argv) == 4:
        req["arguments"] = json.loads(argv[3])
    resp = QMP(argv[1]).execute(req)
    print(json.dumps(resp))
    return 1 if "error" in resp else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
