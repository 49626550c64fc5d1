"""Sledge's tclpy: Tcl evaluation for HammerDB Python scripts run by Sledge.

HammerDB's CLI in Python mode gives scripts a ``tclpy`` module whose
``tclpy.eval(text)`` runs Tcl in the CLI's interpreter and returns its result
as a string. Under ``sledge hammerdb script.py`` (and ``hammerdbcli py``) the
interpreter is Sledge's, in the Node process that started this Python: each
call is one JSON line to it and one JSON line back, over the two file
descriptors it names in SLEDGE_TCLPY_FDS ("<to sledge>,<from sledge>").
Verbs (diset, vurun, jobs ...) and Tcl helpers (numberOfWHs, numberOfCPUs,
a script's own procs) run there exactly as in a Tcl script.
"""

import json
import os
import threading

__all__ = ["eval", "TclException", "TclError"]


class TclException(Exception):
    """A Tcl error: the command failed (its message is the Tcl error message)."""


# The name some Tcl bridges use for the same thing.
TclError = TclException


class _Channel:
    def __init__(self, fds):
        try:
            out_fd, in_fd = (int(x) for x in fds.split(","))
        except ValueError:
            raise RuntimeError("tclpy: SLEDGE_TCLPY_FDS must be '<out fd>,<in fd>', got %r" % fds) from None
        self._out = os.fdopen(out_fd, "wb", buffering=0)
        self._in = os.fdopen(in_fd, "rb")
        self._lock = threading.Lock()

    def request(self, message):
        line = (json.dumps(message) + "\n").encode("utf-8")
        with self._lock:
            self._out.write(line)
            reply = self._in.readline()
        if not reply:
            raise SystemExit("tclpy: Sledge closed the connection (the sledge hammerdb process ended)")
        return json.loads(reply.decode("utf-8"))


_channel = None


def _connect():
    global _channel
    if _channel is None:
        fds = os.environ.get("SLEDGE_TCLPY_FDS")
        if not fds:
            raise RuntimeError(
                "tclpy: no Tcl interpreter to talk to: run the script with "
                "'sledge hammerdb script.py' or 'hammerdbcli py auto script.py'"
            )
        _channel = _Channel(fds)
    return _channel


def eval(script):  # noqa: A001 - HammerDB's name for it
    """Evaluate Tcl text in the session's interpreter; return its result (a str).

    A Tcl error raises TclException; Tcl's ``exit N`` (and the ``quit`` verb)
    raises SystemExit(N).
    """
    reply = _connect().request({"eval": str(script)})
    if "exit" in reply:
        raise SystemExit(reply["exit"])
    if "error" in reply:
        raise TclException(reply["error"])
    return reply["result"]
