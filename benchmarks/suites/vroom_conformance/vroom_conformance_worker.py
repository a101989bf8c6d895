"""VROOM (pyvroom) runs for benchmarks/suites/vroom_conformance/vroom_conformance, in the peers' virtual environment.

Imports pyvroom once, then reads one request a line on stdin, a JSON array of vroom's command-line
arguments (e.g. ["-i", "in.json", "-o", "out.json", "-c"]), runs it in a forked child (so that an
error exit of vroom's main never ends the worker) and answers one line: the child's exit status
and what it wrote on stderr.
"""
import importlib.metadata
import json
import os
import sys
import tempfile

import vroom


def run(args):
    with tempfile.TemporaryFile("w+b") as err:
        pid = os.fork()
        if pid == 0:
            os.dup2(err.fileno(), 2)
            os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
            try:
                vroom.main(["vroom", *args])
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
            except BaseException:  # noqa: BLE001 - anything else is vroom failing
                code = 1
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        err.seek(0)
        return os.waitstatus_to_exitcode(status), err.read().decode(errors="replace")[-2000:]


def main():
    print(json.dumps({"version": importlib.metadata.version("pyvroom")}), flush=True)
    for line in sys.stdin:
        code, err = run(json.loads(line))
        print(json.dumps({"code": code, "stderr": err}), flush=True)


if __name__ == "__main__":
    main()
